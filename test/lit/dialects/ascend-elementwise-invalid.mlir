// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifiers of the elementwise vector calls (arithmetic, Maxs/Mins, Abs, Relu, the bitwise
// calls) and of DataCopy UB -> UB: element types and one dtype.

// Add on bf16: the A2/A3 vector unit has no bfloat16 arithmetic.
func.func @add_bf16(%a: !ascend.local_tensor<bf16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.add' dst has element type bf16; Add takes half, float, int16_t or int32_t
  ascend.add %a, %a, %a, %n : !ascend.local_tensor<bf16, veccalc>, !ascend.local_tensor<bf16, veccalc>, !ascend.local_tensor<bf16, veccalc>
  func.return
}

// -----

// Sub of an f32 and an f16 tensor.
func.func @sub_mixed_dtypes(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.sub' src1 has element type f16 but dst has f32
  ascend.sub %f, %f, %h, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Div of integers: Div takes half or float only.
func.func @div_i32(%a: !ascend.local_tensor<i32, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.div' dst has element type i32; Div takes half or float
  ascend.div %a, %a, %a, %n : !ascend.local_tensor<i32, veccalc>, !ascend.local_tensor<i32, veccalc>, !ascend.local_tensor<i32, veccalc>
  func.return
}

// -----

// Max whose src0 differs in dtype from dst.
func.func @max_src0_dtype(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.max' src0 has element type f16 but dst has f32
  ascend.max %f, %h, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Min on ui16 (bf16 is Ascend 950's: see ascend-bf16-exact.mlir).
func.func @min_ui16(%a: !ascend.local_tensor<ui16, vecout>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.min' dst has element type ui16; Min takes half, bfloat16_t, float, int16_t or int32_t
  ascend.min %a, %a, %a, %n : !ascend.local_tensor<ui16, vecout>, !ascend.local_tensor<ui16, vecout>, !ascend.local_tensor<ui16, vecout>
  func.return
}

// -----

// Maxs with an f32 scalar on f16 tensors: the scalar must have the tensor's dtype.
func.func @maxs_scalar_dtype(%a: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.maxs' the scalar has type f32 but dst holds f16; the scalar must have the tensor's dtype
  ascend.maxs %a, %a, 0.0 : f32, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Mins on ui16.
func.func @mins_ui16(%a: !ascend.local_tensor<ui16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.mins' dst has element type ui16; Mins takes half, bfloat16_t, float, int16_t or int32_t
  ascend.mins %a, %a, 6.0 : f32, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  func.return
}

// -----

// Mins from an f16 source into an f32 destination.
func.func @mins_src_dtype(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.mins' src has element type f16 but dst has f32
  ascend.mins %f, %h, 6.0 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Abs from an f16 source into an f32 destination.
func.func @abs_src_dtype(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, vecin>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.abs' src has element type f16 but dst has f32
  ascend.abs %f, %h, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
  func.return
}

// -----

// Relu on int16: this Relu takes half or float.
func.func @relu_i16(%a: !ascend.local_tensor<i16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.relu' dst has element type i16; Relu takes half, float or int32_t
  ascend.relu %a, %a, %n : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
  func.return
}

// -----

// And of half tensors: the bitwise calls take 16-bit integers (Ascend 950 also 32-bit ones).
func.func @and_f16(%a: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.and' dst has element type f16; And takes int16_t, uint16_t, int32_t, uint32_t
  ascend.and %a, %a, %a, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// And of ui8 masks not seen as ui16 first (ReinterpretCast them).
func.func @and_ui8_masks(%m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.and' dst has element type ui8; And takes int16_t, uint16_t, int32_t, uint32_t
  ascend.and %m, %m, %m, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<ui8, veccalc>
  func.return
}

// -----

// Or of ui16 with i16.
func.func @or_mixed_signedness(%u: !ascend.local_tensor<ui16, veccalc>, %s: !ascend.local_tensor<i16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.or' src1 has element type i16 but dst has ui16
  ascend.or %u, %u, %s, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<i16, veccalc>
  func.return
}

// -----

// Or on explicitly signed si16: int16_t is spelled i16.
func.func @or_si16(%s: !ascend.local_tensor<si16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.or' dst has element type si16; Or takes int16_t, uint16_t, int32_t, uint32_t
  ascend.or %s, %s, %s, %n : !ascend.local_tensor<si16, veccalc>, !ascend.local_tensor<si16, veccalc>, !ascend.local_tensor<si16, veccalc>
  func.return
}

// -----

// Not on 64-bit lanes (Ascend 950 takes int64_t in the count form only; the model has no such lanes).
func.func @not_i64(%a: !ascend.local_tensor<i64, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.not' dst has element type i64; Not takes int16_t, uint16_t, int32_t, uint32_t
  ascend.not %a, %a, %n : !ascend.local_tensor<i64, veccalc>, !ascend.local_tensor<i64, veccalc>
  func.return
}

// -----

// Not from i16 into ui16.
func.func @not_src_dtype(%u: !ascend.local_tensor<ui16, veccalc>, %s: !ascend.local_tensor<i16, veccalc>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.not' src has element type i16 but dst has ui16
  ascend.not %u, %s, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<i16, veccalc>
  func.return
}

// -----

// DataCopy UB -> UB cannot change the element type.
func.func @copy_ub_to_ub_dtype_change(%h: !ascend.local_tensor<f16, veccalc>, %f: !ascend.local_tensor<f32, vecin>, %n: index) {
  // CHECK: ascend-elementwise-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy' src has element type f32 but dst has f16
  ascend.data_copy %h, %f, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f32, vecin>
  func.return
}
