// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s

// arith.trunci and the integer divisions lowered for Atlas A2/A3
// (hswc/vectorizer/integer_lowering.py).

// torch's `x // y` on int16 (floordivsi): both operands Cast to float exactly, Div, the
// quotient rounded toward -inf in float (CAST_FLOOR), then Cast back to int16_t.
func.func @floordiv(%x: tensor<?xi16>, %y: tensor<?xi16>) -> tensor<?xi16> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi16>
  %e = tensor.empty(%d) : tensor<?xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xi16>, tensor<?xi16>) outs(%e : tensor<?xi16>) {
  ^bb0(%a: i16, %b: i16, %o: i16):
    %q = arith.floordivsi %a, %b : i16
    linalg.yield %q : i16
  } -> tensor<?xi16>
  func.return %r : tensor<?xi16>
}

// CHECK-LABEL: func.func @floordiv_kernel_i16(
// CHECK:         ascend.cast %[[A:.*]], %{{.*}}, cast_none, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<i16, vecin>
// CHECK:         ascend.cast %[[B:.*]], %{{.*}}, cast_none, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<i16, vecin>
// CHECK:         ascend.div %[[Q:.*]], %[[A]], %[[B]], %compute_num : !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.cast %[[F:.*]], %[[Q]], cast_floor, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.cast %r_local, %[[F]], cast_trunc, %current_num : !ascend.local_tensor<i16, vecout>, !ascend.local_tensor<f32, veccalc>
// CHECK-NOT:     ascend.cast

// -----

// remsi of int8 by the constant -5: a - trunc(a / b) * b in float, b a constant buffer; the
// int8 result from float through half (A2/A3 casts to int8_t only from half).
func.func @rem(%x: tensor<?xi8>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi8>
  %e = tensor.empty(%d) : tensor<?xi8>
  %k = arith.constant -5 : i8
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi8>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i8, %o: i8):
    %m = arith.remsi %a, %k : i8
    linalg.yield %m : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: func.func @rem_kernel_i8(
// CHECK:         ascend.duplicate %[[K:.*]], -5.000000e+00 : f32, %ub_factor
// CHECK:         ascend.cast %[[H:.*]], %{{.*}}, cast_none, %current_num : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<i8, vecin>
// CHECK:         ascend.cast %[[A:.*]], %[[H]], cast_none, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK:         ascend.div %[[Q:.*]], %[[A]], %{{.*}}, %compute_num
// CHECK:         ascend.cast %[[T:.*]], %[[Q]], cast_trunc, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.muls %[[T]], %[[T]], -5.000000e+00 : f32, %compute_num
// CHECK:         ascend.sub %[[R:.*]], %[[A]], %[[T]], %compute_num
// CHECK:         ascend.cast %{{.*}}, %{{.*}}, cast_trunc, %current_num : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.cast %r_local, %{{.*}}, cast_trunc, %current_num : !ascend.local_tensor<i8, vecout>, !ascend.local_tensor<f16, veccalc>

// -----

// trunci i32 -> i8 keeps the low bits: shifted up by 24 on the unsigned lanes, down by 24 on
// the signed ones (the low byte sign-extended), then Cast to int8_t exactly through float and
// half (A2/A3 has no int32_t -> int8_t Cast; the value is in int8's range).
func.func @trunc(%x: tensor<?xi32>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%d) : tensor<?xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi32>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i32, %o: i8):
    %t = arith.trunci %a : i32 to i8
    linalg.yield %t : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: func.func @trunc_kernel_i32_to_i8(
// CHECK:         ascend.shift_left %[[U:.*]], %{{.*}}, 24 : ui32, %compute_num
// CHECK:         ascend.shift_right %[[S:.*]], %[[S]], 24 : i32, %compute_num : !ascend.local_tensor<i32, veccalc>
// CHECK:         ascend.cast %[[F:.*]], %[[S]], cast_none, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<i32, veccalc>
// CHECK:         ascend.cast %[[H:.*]], %[[F]], cast_none, %current_num : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.cast %r_local, %[[H]], cast_none, %current_num : !ascend.local_tensor<i8, vecout>, !ascend.local_tensor<f16, veccalc>

// -----

// divsi of int32: the f32 estimate (Cast CAST_RINT, Div, Cast CAST_TRUNC), its remainder in
// int32 (Mul, Sub) divided again and added, then a step of one chosen by Compares and Selects of
// the last remainder (hswc/vectorizer/integer_lowering.py); no Cast after the final Add.
func.func @div32(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%d) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xi32>, tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %q = arith.divsi %a, %b : i32
    linalg.yield %q : i32
  } -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// CHECK-LABEL: func.func @div32_kernel_i32(
// CHECK:         ascend.cast %[[A:.*]], %{{.*}}, cast_rint, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<i32, vecin>
// CHECK:         ascend.cast %[[B:.*]], %{{.*}}, cast_rint, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<i32, vecin>
// CHECK:         ascend.div %[[Q:.*]], %[[A]], %[[B]], %compute_num
// CHECK:         ascend.cast %[[Q0:.*]], %[[Q]], cast_trunc, %current_num : !ascend.local_tensor<i32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.mul %[[P:.*]], %[[Q0]], %{{.*}}, %compute_num : !ascend.local_tensor<i32, veccalc>
// CHECK:         ascend.sub %[[R0:.*]], %{{.*}}, %[[P]], %compute_num : !ascend.local_tensor<i32, veccalc>
// CHECK:         ascend.cast %[[F:.*]], %[[R0]], cast_rint, %current_num : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<i32, veccalc>
// CHECK:         ascend.div %[[F]], %[[F]], %[[B]], %compute_num
// CHECK:         ascend.cast %[[D:.*]], %[[F]], cast_trunc, %current_num : !ascend.local_tensor<i32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK:         ascend.add %[[Q0]], %[[Q0]], %[[D]], %compute_num : !ascend.local_tensor<i32, veccalc>
// CHECK:         ascend.compare_scalar
// CHECK:         ascend.min
// CHECK:         ascend.select
// CHECK:         ascend.add %r_int32, %[[Q0]], %{{.*}}, %compute_num : !ascend.local_tensor<i32, vecout>
// CHECK-NOT:     ascend.cast
// CHECK:         ascend.data_copy
