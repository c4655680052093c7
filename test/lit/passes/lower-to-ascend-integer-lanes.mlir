// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s

// Integer calls Atlas A2/A3 lacks for a type, on lanes it has (hswc/vectorizer/instructions.py).

// torch.where(x > 0, y, 0) on int8: no Select takes int8_t, so y goes to half exactly, Select
// picks on half, one Cast back to int8_t.
func.func @where(%x: tensor<?xi8>, %y: tensor<?xi8>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi8>
  %e = tensor.empty(%d) : tensor<?xi8>
  %z = arith.constant 0 : i8
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xi8>, tensor<?xi8>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i8, %b: i8, %o: i8):
    %m = arith.cmpi sgt, %a, %z : i8
    %s = arith.select %m, %b, %z : i8
    linalg.yield %s : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: func.func @where_kernel_i8(
// CHECK:         ascend.duplicate %[[Z:.*]], 0.000000e+00 : f16, %ub_factor
// CHECK:         ascend.compare %[[M:.*]], %{{.*}}, %{{.*}}, gt, %compute_num
// CHECK:         ascend.cast %[[Y:.*]], %y_local_1, cast_none, %current_num : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<i8, vecin>
// CHECK:         ascend.select %[[S:.*]], %[[M]], %[[Y]], %{{.*}}, vsel_tensor_tensor_mode, %compute_num : !ascend.local_tensor<f16, veccalc>
// CHECK:         ascend.cast %r_local, %[[S]], cast_trunc, %current_num : !ascend.local_tensor<i8, vecout>, !ascend.local_tensor<f16, veccalc>

// -----

// x ^ y on int32: A2/A3's And, Or and Not take int16_t only, so each runs on the int32 tensors
// seen as int16_t over twice the count ((a | b) & ~(a & b)).
func.func @bitwise_xor(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%d) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xi32>, tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %m = arith.xori %a, %b : i32
    linalg.yield %m : i32
  } -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// CHECK-LABEL: func.func @bitwise_xor_kernel_i32(
// CHECK:         %[[N:.*]] = arith.muli %compute_num, %{{.*}} : index
// CHECK:         %[[T:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<i32, veccalc> -> !ascend.local_tensor<i16, veccalc>
// CHECK:         %[[X:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<i32, vecin> -> !ascend.local_tensor<i16, vecin>
// CHECK:         %[[Y:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<i32, vecin> -> !ascend.local_tensor<i16, vecin>
// CHECK:         ascend.and %[[T]], %[[X]], %[[Y]], %[[N]] : !ascend.local_tensor<i16, veccalc>
// CHECK:         ascend.not %[[T]], %[[T]], %[[N]]
// CHECK:         %[[R:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<i32, vecout> -> !ascend.local_tensor<i16, vecout>
// CHECK:         ascend.or %[[R]], %[[X]], %[[Y]], %[[N]]
// CHECK:         ascend.and %[[R]], %[[R]], %[[T]], %[[N]]
