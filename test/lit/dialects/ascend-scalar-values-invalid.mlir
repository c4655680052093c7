// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A run-time scalar must have the tensor's dtype, as an attribute must: f16 value, f32 tensors.
func.func @muls_value_dtype(%a: !ascend.local_tensor<f32, veccalc>, %n: index, %s: f16) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.muls' the scalar has type f16 but dst holds f32; the scalar must have the tensor's dtype
  ascend.muls %a, %a, %s : f16, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// CompareScalar checks its value against the compared tensor, src0.
func.func @compare_scalar_value_dtype(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<f16, veccalc>, %n: index, %s: f32) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.compare_scalar' the scalar has type f32 but src0 holds f16; the scalar must have the tensor's dtype
  ascend.compare_scalar %m, %a, %s : f32, ge, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// -----

// Duplicate of a bf16 tensor takes a bf16 value, not the f32 it came from.
func.func @duplicate_value_dtype(%a: !ascend.local_tensor<bf16, veccalc>, %n: index, %s: f32) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.duplicate' the scalar has type f32 but dst holds bf16; the scalar must have the tensor's dtype
  ascend.duplicate %a, %s : f32, %n : !ascend.local_tensor<bf16, veccalc>
  func.return
}

// -----

// Select in VSEL_TENSOR_SCALAR_MODE checks its value against dst.
func.func @select_value_dtype(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index, %s: f16) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' the scalar has type f16 but dst holds f32; the scalar must have the tensor's dtype
  ascend.select %d, %m, %d, %s : f16, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// The attribute and the value at once (the generic form can say it): one scalar only.
func.func @muls_both(%a: !ascend.local_tensor<f32, veccalc>, %n: index, %s: f32) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.muls' takes its scalar once, as the attribute `scalar` or as the operand `scalar_value`, not both
  "ascend.muls"(%a, %a, %s, %n) <{scalar = 2.0 : f32}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, f32, index) -> ()
  func.return
}

// -----

// Neither the attribute nor the value.
func.func @adds_none(%a: !ascend.local_tensor<f16, veccalc>, %n: index) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.adds' has no scalar: give the attribute `scalar` or the operand `scalar_value`
  "ascend.adds"(%a, %a, %n) : (!ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>, index) -> ()
  func.return
}

// -----

// Select in VSEL_TENSOR_SCALAR_MODE with neither.
func.func @select_none(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' has no scalar: give the attribute `scalar` or the operand `scalar_value`
  "ascend.select"(%d, %m, %d, %n) <{mode = #ascend<selmode vsel_tensor_scalar_mode>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()
  func.return
}

// -----

// Select in VSEL_TENSOR_TENSOR_MODE with a tensor and a value: the mode takes a tensor only.
func.func @select_tensor_mode_value(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index, %s: f32) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' vsel_tensor_tensor_mode takes a tensor as its second source
  "ascend.select"(%d, %m, %d, %d, %s, %n) <{mode = #ascend<selmode vsel_tensor_tensor_mode>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, f32, index) -> ()
  func.return
}

// -----

// Select in VSEL_TENSOR_SCALAR_MODE with a value and a tensor.
func.func @select_scalar_mode_tensor(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index, %s: f32) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.select' vsel_tensor_scalar_mode takes a scalar as its second source
  "ascend.select"(%d, %m, %d, %d, %s, %n) <{mode = #ascend<selmode vsel_tensor_scalar_mode>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, f32, index) -> ()
  func.return
}

// -----

// A tensor second source is typed in the type list after `:`, never after the operand.
func.func @select_typed_tensor(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  // CHECK: ascend-scalar-values-invalid.mlir:[[# @LINE + 1]]:29: error: ascend.select: a tensor second source takes its type in the type list after `:`, not after the operand
  ascend.select %d, %m, %d, %d : !ascend.local_tensor<f32, veccalc>, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}
