// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Cast f32 -> bf16 with CAST_NONE is refused, as the 910B implementation asserts.
func.func @cast_f32_to_bf16_none(%d: !ascend.local_tensor<bf16, vecout>, %s: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.cast' Cast from f32 to bf16 does not support cast_none (supported: cast_rint, cast_floor, cast_ceil, cast_round, cast_trunc)
  ascend.cast %d, %s, cast_none, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Widening f16 -> f32 takes CAST_NONE only.
func.func @cast_f16_to_f32_rint(%d: !ascend.local_tensor<f32, veccalc>, %s: !ascend.local_tensor<f16, vecin>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.cast' Cast from f16 to f32 does not support cast_rint (supported: cast_none)
  ascend.cast %d, %s, cast_rint, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
  func.return
}

// -----

// f32 -> bf16 has no CAST_ODD either (f32 -> f16 has).
func.func @cast_f32_to_bf16_odd(%d: !ascend.local_tensor<bf16, vecout>, %s: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.cast' Cast from f32 to bf16 does not support cast_odd (supported: cast_rint, cast_floor, cast_ceil, cast_round, cast_trunc)
  ascend.cast %d, %s, cast_odd, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// No SoC casts bf16 to i16 (api_tables.def's ASCENDC_CAST rows).
func.func @cast_bf16_to_i16(%d: !ascend.local_tensor<i16, vecout>, %s: !ascend.local_tensor<bf16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.cast' no Cast from bf16 to i16
  ascend.cast %d, %s, cast_rint, %n : !ascend.local_tensor<i16, vecout>, !ascend.local_tensor<bf16, veccalc>
  func.return
}

// -----

// float -> float rounds to an integral value by a directed mode; CAST_NONE is not one of them.
func.func @cast_f32_to_f32(%d: !ascend.local_tensor<f32, veccalc>, %s: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.cast' Cast from f32 to f32 does not support cast_none (supported: cast_rint, cast_floor, cast_ceil, cast_round, cast_trunc)
  ascend.cast %d, %s, cast_none, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Compare on ui16: Compare takes floats only (bf16 on Ascend 950: ascend-bf16-exact.mlir).
func.func @compare_ui16(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<ui16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare' src0 has element type ui16; Compare takes half, bfloat16_t, float, int16_t or int32_t
  ascend.compare %m, %a, %a, gt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  func.return
}

// -----

// Compare on i64: no SoC's row takes int64_t (Ascend 950 compiles it in the count form only, the
// model has no 64-bit lanes); int16_t is Ascend 950's (Compare.md), int32_t both families'.
func.func @compare_i64(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<i64, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare' src0 has element type i64; Compare takes half, bfloat16_t, float, int16_t or int32_t
  ascend.compare %m, %a, %a, lt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<i64, veccalc>, !ascend.local_tensor<i64, veccalc>
  func.return
}

// -----

// Compare of a float with a half tensor.
func.func @compare_mixed_dtypes(%m: !ascend.local_tensor<ui8, veccalc>, %f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare' src1 has element type f16 but src0 has f32
  ascend.compare %m, %f, %h, lt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// CompareScalar on ui16.
func.func @compare_scalar_ui16(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<ui16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare_scalar' src0 has element type ui16; CompareScalar takes half, bfloat16_t, float, int16_t or int32_t
  ascend.compare_scalar %m, %a, 3.0 : f32, lt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<ui16, veccalc>
  func.return
}

// -----

// A Compare mask must be ui8 (signless i8 is not uint8_t).
func.func @compare_mask_i8(%m: !ascend.local_tensor<i8, veccalc>, %a: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare' dst must be a LocalTensor<uint8_t> mask (ui8), got i8
  ascend.compare %m, %a, %a, gt, %n : !ascend.local_tensor<i8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// A CompareScalar mask of f16 elements.
func.func @compare_scalar_mask_f16(%m: !ascend.local_tensor<f16, veccalc>, %a: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare_scalar' dst must be a LocalTensor<uint8_t> mask (ui8), got f16
  ascend.compare_scalar %m, %a, 3.0 : f16, lt, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// A Select mask of f32 elements.
func.func @select_mask_f32(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' mask must be a LocalTensor<uint8_t> mask (ui8), got f32
  ascend.select %d, %m, %d, %d, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// A static Compare count of 65 floats is not a whole number of 256-byte repeats.
func.func @compare_count_65_f32(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<f32, veccalc>) {
  %n = arith.constant 65 : index
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare' count 65 of 4-byte elements is not a whole number of 256-byte blocks
  ascend.compare %m, %a, %a, gt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// 64 halves are 128 bytes: half a repeat, refused for CompareScalar too.
func.func @compare_scalar_count_64_f16(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<f16, veccalc>) {
  %n = arith.constant 64 : index
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare_scalar' count 64 of 2-byte elements is not a whole number of 256-byte blocks
  ascend.compare_scalar %m, %a, 3.0 : f16, lt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Muls with an f16 scalar on f32 tensors: the scalar must have the tensor's dtype.
func.func @muls_scalar_dtype(%a: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.muls' the scalar has type f16 but dst holds f32; the scalar must have the tensor's dtype
  ascend.muls %a, %a, 2.0 : f16, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Adds with an f32 scalar on f16 tensors.
func.func @adds_scalar_dtype(%a: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.adds' the scalar has type f32 but dst holds f16; the scalar must have the tensor's dtype
  ascend.adds %a, %a, 0.5 : f32, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Duplicate with a scalar of another dtype.
func.func @duplicate_scalar_dtype(%a: !ascend.local_tensor<bf16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.duplicate' the scalar has type f32 but dst holds bf16; the scalar must have the tensor's dtype
  ascend.duplicate %a, 1.0 : f32, %n : !ascend.local_tensor<bf16, veccalc>
  func.return
}

// -----

// CompareScalar with a scalar of another dtype.
func.func @compare_scalar_scalar_dtype(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare_scalar' the scalar has type f16 but src0 holds f32; the scalar must have the tensor's dtype
  ascend.compare_scalar %m, %a, 3.0 : f16, lt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Select in tensor-scalar mode with a scalar of another dtype.
func.func @select_scalar_dtype(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' the scalar has type f16 but dst holds f32; the scalar must have the tensor's dtype
  ascend.select %d, %m, %d, 1.0 : f16, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Div on bf16: no SoC documents its bf16 rounding (Muls on bf16 is Ascend 950's documented Mul).
func.func @div_bf16(%a: !ascend.local_tensor<bf16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.div' dst has element type bf16; Div takes half or float
  ascend.div %a, %a, %a, %n : !ascend.local_tensor<bf16, veccalc>, !ascend.local_tensor<bf16, veccalc>, !ascend.local_tensor<bf16, veccalc>
  func.return
}

// -----

// Mul of an f32 and an f16 tensor.
func.func @mul_mixed_dtypes(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.mul' src1 has element type f16 but dst has f32
  ascend.mul %f, %f, %h, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Duplicate of an int8 tensor: the table's Duplicate takes 16- and 32-bit lanes.
func.func @duplicate_i8(%a: !ascend.local_tensor<i8, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.duplicate' dst has element type i8; Duplicate takes half, bfloat16_t, float, int16_t, uint16_t, int32_t or uint32_t
  ascend.duplicate %a, 1 : i8, %n : !ascend.local_tensor<i8, veccalc>
  func.return
}

// -----

// Select on ui16.
func.func @select_ui16(%d: !ascend.local_tensor<ui16, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' dst has element type ui16; Select takes half, bfloat16_t, float, int16_t or int32_t
  ascend.select %d, %m, %d, %d, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  func.return
}

// -----

// Select whose sources differ in dtype from dst.
func.func @select_src0_dtype(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' src0 has element type f16 but dst has f32
  ascend.select %d, %m, %h, %d, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Select in tensor-scalar mode given a tensor.
func.func @select_scalar_mode_with_tensor(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' vsel_tensor_scalar_mode takes a scalar as its second source
  ascend.select %d, %m, %d, %d, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Select in tensor-tensor mode given a scalar.
func.func @select_tensor_mode_with_scalar(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' vsel_tensor_tensor_mode takes a tensor as its second source
  ascend.select %d, %m, %d, 1.0 : f32, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Select in mask-register mode given a scalar.
func.func @select_cmpmask_with_scalar(%d: !ascend.local_tensor<f16, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' vsel_cmpmask_spr takes a tensor as its second source
  ascend.select %d, %m, %d, 1.0 : f16, vsel_cmpmask_spr, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// AllocTensor of a VECIN queue typed as a VECOUT tensor.
func.func @alloc_tensor_position(%q: !ascend.tque<vecin, 1>) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.alloc_tensor' !ascend.local_tensor<f16, vecout> does not fit !ascend.tque<vecin, 1>: a queue's tensors have the queue's position
  %t = ascend.alloc_tensor %q : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecout>
  func.return
}

// -----

// EnQue of a tensor from another position.
func.func @enque_position(%q: !ascend.tque<vecout, 1>, %t: !ascend.local_tensor<f32, veccalc>) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.enque' !ascend.local_tensor<f32, veccalc> does not fit !ascend.tque<vecout, 1>: a queue's tensors have the queue's position
  ascend.enque %q, %t : !ascend.tque<vecout, 1>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// DeQue typed at another position.
func.func @deque_position(%q: !ascend.tque<vecout, 1>) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.deque' !ascend.local_tensor<f16, vecin> does not fit !ascend.tque<vecout, 1>: a queue's tensors have the queue's position
  %t = ascend.deque %q : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f16, vecin>
  func.return
}

// -----

// FreeTensor into a queue of another position.
func.func @free_tensor_position(%q: !ascend.tque<vecin, 1>, %t: !ascend.local_tensor<f16, vecout>) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.free_tensor' !ascend.local_tensor<f16, vecout> does not fit !ascend.tque<vecin, 1>: a queue's tensors have the queue's position
  ascend.free_tensor %q, %t : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecout>
  func.return
}

// -----

// TBuf::Get typed at another position.
func.func @tbuf_get_position(%b: !ascend.tbuf<veccalc>) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.tbuf_get' !ascend.local_tensor<f32, vecin> does not fit !ascend.tbuf<veccalc>
  %t = ascend.tbuf_get %b : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, vecin>
  func.return
}

// -----

// ReinterpretCast cannot move a tensor to another position.
func.func @reinterpret_cast_position(%t: !ascend.local_tensor<f16, vecin>) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.reinterpret_cast' ReinterpretCast keeps the tensor's position
  %r = ascend.reinterpret_cast %t : !ascend.local_tensor<f16, vecin> -> !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// A copy from GM into a VECOUT tensor.
func.func @copy_in_to_vecout(%t: !ascend.local_tensor<f16, vecout>, %g: !ascend.global_tensor<f16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' a copy from GM must land in a VECIN tensor, got !ascend.local_tensor<f16, vecout>
  ascend.data_copy_pad %t, %g, %n : !ascend.local_tensor<f16, vecout>, !ascend.global_tensor<f16>
  func.return
}

// -----

// A copy from GM into a VECCALC tensor.
func.func @copy_in_to_veccalc(%t: !ascend.local_tensor<f32, veccalc>, %g: !ascend.global_tensor<f32>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy' a copy from GM must land in a VECIN tensor, got !ascend.local_tensor<f32, veccalc>
  ascend.data_copy %t, %g, %n : !ascend.local_tensor<f32, veccalc>, !ascend.global_tensor<f32>
  func.return
}

// -----

// A copy to GM out of a VECIN tensor.
func.func @copy_out_of_vecin(%t: !ascend.local_tensor<f16, vecin>, %g: !ascend.global_tensor<f16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy' a copy to GM must come from a VECOUT tensor, got !ascend.local_tensor<f16, vecin>
  ascend.data_copy %g, %t, %n : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecin>
  func.return
}

// -----

// DataCopyPad to GM out of a VECIN tensor.
func.func @copy_pad_out_of_vecin(%t: !ascend.local_tensor<bf16, vecin>, %g: !ascend.global_tensor<bf16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' a copy to GM must come from a VECOUT tensor, got !ascend.local_tensor<bf16, vecin>
  ascend.data_copy_pad %g, %t, %n : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecin>
  func.return
}

// -----

// A copy between two GlobalTensors.
func.func @copy_gm_to_gm(%g: !ascend.global_tensor<f16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy' copies GM -> UB, UB -> GM or UB -> UB: at least one side must be a LocalTensor, got !ascend.global_tensor<f16> <- !ascend.global_tensor<f16>
  ascend.data_copy %g, %g, %n : !ascend.global_tensor<f16>, !ascend.global_tensor<f16>
  func.return
}

// -----

// A copy between two LocalTensors.
func.func @copy_ub_to_ub(%a: !ascend.local_tensor<f16, vecin>, %b: !ascend.local_tensor<f16, vecout>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' copies GM -> UB or UB -> GM: one side must be a GlobalTensor and the other a LocalTensor, got !ascend.local_tensor<f16, vecout> <- !ascend.local_tensor<f16, vecin>
  ascend.data_copy_pad %b, %a, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
  func.return
}

// -----

// A copy that changes the element type.
func.func @copy_dtype_change(%t: !ascend.local_tensor<f32, vecin>, %g: !ascend.global_tensor<f16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' !ascend.global_tensor<f16> and !ascend.local_tensor<f32, vecin> hold different element types
  ascend.data_copy_pad %t, %g, %n : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f16>
  func.return
}

// -----

// Only a GM -> UB copy pads.
func.func @pad_on_copy_out(%t: !ascend.local_tensor<f16, vecout>, %g: !ascend.global_tensor<f16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' only a GM -> UB copy pads
  ascend.data_copy_pad %g, %t, %n pad 0.0 : f16 : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
  func.return
}

// -----

// SetGlobalBuffer cannot view an f16 buffer as f32.
func.func @set_global_buffer_dtype(%m: memref<?xf16>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.set_global_buffer' !ascend.global_tensor<f32> cannot view memref<?xf16>: element types differ
  %g = ascend.set_global_buffer %m[%n], %n : memref<?xf16> -> !ascend.global_tensor<f32>
  func.return
}

// -----

// InitBuffer of a depth-2 queue with one buffer.
func.func @init_buffer_num_depth(%p: !ascend.tpipe, %q: !ascend.tque<vecin, 2>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.init_buffer' num 1 differs from the depth of !ascend.tque<vecin, 2>; InitBuffer must give a queue as many buffers as its depth
  ascend.init_buffer %p, %q, num 1, %n : !ascend.tque<vecin, 2>
  func.return
}

// -----

// InitBuffer's num is an i32.
func.func @init_buffer_num_i64(%p: !ascend.tpipe, %q: !ascend.tque<vecin, 1>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:38: error: `num` is an i32
  ascend.init_buffer %p, %q, num 1 : i64, %n : !ascend.tque<vecin, 1>
  func.return
}

// -----

// InitBuffer of a queue without num.
func.func @init_buffer_queue_without_num(%p: !ascend.tpipe, %q: !ascend.tque<vecout, 1>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.init_buffer' a TQue needs `num` (its buffer count)
  ascend.init_buffer %p, %q, %n : !ascend.tque<vecout, 1>
  func.return
}

// -----

// InitBuffer of a TBuf with num.
func.func @init_buffer_tbuf_with_num(%p: !ascend.tpipe, %b: !ascend.tbuf<veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.init_buffer' a TBuf takes no `num`, only a length
  ascend.init_buffer %p, %b, num 1, %n : !ascend.tbuf<veccalc>
  func.return
}

// -----

// SetCtrlSpr's value must fit its bits.
func.func @set_ctrl_spr_too_wide() {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.set_ctrl_spr' 2 does not fit bits 48 to 48
  ascend.set_ctrl_spr <48 : i64, 48 : i64> (2 : i64)
  func.return
}

// -----

// Cast to an 8-bit float takes CAST_RINT only (Ascend 950's table).
func.func @cast_to_fp8_none(%d: !ascend.local_tensor<f8E4M3FN, vecout>, %s: !ascend.local_tensor<f32, veccalc>, %n: index) {
  // CHECK: ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.cast' Cast from f32 to f8E4M3FN does not support cast_none (supported: cast_rint)
  ascend.cast %d, %s, cast_none, %n : !ascend.local_tensor<f8E4M3FN, vecout>, !ascend.local_tensor<f32, veccalc>
  func.return
}
