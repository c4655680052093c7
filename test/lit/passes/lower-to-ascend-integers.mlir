// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s

// Integer element types lowered for Atlas A2/A3 (hswc/vectorizer/cast_routes.py).

// torch.relu on int32: Maxs on int32_t with the integer scalar 0.
func.func @relu(%x: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%d) : tensor<?xi32>
  %zero = arith.constant 0 : i32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %m = arith.maxsi %a, %zero : i32
    linalg.yield %m : i32
  } -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// CHECK-LABEL: func.func @relu_kernel_i32(%x: memref<?xi32>, %r: memref<?xi32>,
// CHECK:         ascend.maxs %{{.*}}, %{{.*}}, 0 : i32, %compute_num : !ascend.local_tensor<i32, vecout>, !ascend.local_tensor<i32, vecin>
// CHECK-NOT:     ascend.cast

// -----

// torch.clamp(x, -5, 7) on int8: A2/A3 has no int8_t Max or Min, so half holds the values
// between one exact Cast in and one out.
func.func @clamp(%x: tensor<?xi8>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi8>
  %e = tensor.empty(%d) : tensor<?xi8>
  %lo = arith.constant -5 : i8
  %hi = arith.constant 7 : i8
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi8>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i8, %o: i8):
    %m = arith.maxsi %a, %lo : i8
    %n = arith.minsi %m, %hi : i8
    linalg.yield %n : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: func.func @clamp_kernel_i8(%x: memref<?xi8>, %r: memref<?xi8>,
// CHECK:         ascend.cast %[[H:.*]], %{{.*}}, cast_none, %current_num : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<i8, vecin>
// CHECK:         ascend.maxs %[[H]], %[[H]], -5.000000e+00 : f16, %compute_num
// CHECK:         ascend.mins %[[H]], %[[H]], 7.000000e+00 : f16, %compute_num
// CHECK:         ascend.cast %{{.*}}, %[[H]], cast_none, %current_num : !ascend.local_tensor<i8, vecout>, !ascend.local_tensor<f16, veccalc>
// CHECK-NOT:     ascend.cast

// -----

// A static int8 quantization of f32: round(x * 16 + 3), clamped, to int8. roundeven is
// Cast f32 -> f32 CAST_RINT; fptosi to int8 is CAST_TRUNC to an integral f32, to half, to int8.
func.func @quantize(%x: tensor<?xf32>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xi8>
  %s = arith.constant 16.0 : f32
  %off = arith.constant 3.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: f32, %o: i8):
    %m = arith.mulf %a, %s : f32
    %p = arith.addf %m, %off : f32
    %q = math.roundeven %p : f32
    %u = arith.maximumf %q, %lo : f32
    %v = arith.minimumf %u, %hi : f32
    %i = arith.fptosi %v : f32 to i8
    linalg.yield %i : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: func.func @quantize_kernel_f32_to_i8(%x: memref<?xf32>, %r: memref<?xi8>,
// CHECK:         ascend.muls
// CHECK:         ascend.adds
// CHECK:         ascend.cast %[[Q:.*]], %{{.*}}, cast_rint, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, {{vecin|veccalc}}>
// CHECK:         ascend.maxs %[[Q]], %[[Q]], %lo : f32
// CHECK:         ascend.mins %[[Q]], %[[Q]], %hi : f32
// CHECK:         ascend.cast %[[T:.*]], %[[Q]], cast_trunc, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.cast %[[H:.*]], %[[T]], cast_trunc, %current_num : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.cast %{{.*}}, %[[H]], cast_trunc, %current_num : !ascend.local_tensor<i8, vecout>, !ascend.local_tensor<f16, veccalc>
