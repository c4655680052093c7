// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// f64 is not a HardSwishGrad dtype.
func.func @f64(%a: tensor<4xf64>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' grad has element type f64; HardSwishGrad supports f16, bf16 and f32
  %y = hsg.hard_swish_grad %a, %a : tensor<4xf64>
  func.return
}

// -----

// Integer element types are refused too.
func.func @i32(%a: tensor<?xi32>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' grad has element type i32; HardSwishGrad supports f16, bf16 and f32
  %y = hsg.hard_swish_grad %a, %a : tensor<?xi32>
  func.return
}

// -----

// An unranked tensor of a wrong dtype is refused by its element type.
func.func @unranked_f64(%a: tensor<*xf64>) {
  // CHECK: error: 'hsg.hard_swish_grad' grad has element type f64; HardSwishGrad supports f16, bf16 and f32
  %y = hsg.hard_swish_grad %a, %a : tensor<*xf64>
  func.return
}

// -----

// Rank 9 is one past MAX_SUPPORT_DIMS_NUMS.
func.func @rank9(%a: tensor<1x2x3x4x5x6x7x8x9xf16>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' grad has rank 9 (tensor<1x2x3x4x5x6x7x8x9xf16>); HardSwishGrad supports rank 0 to 8
  %y = hsg.hard_swish_grad %a, %a : tensor<1x2x3x4x5x6x7x8x9xf16>
  func.return
}

// -----

// grad and x of different static shapes: no broadcasting.
func.func @shapes(%g: tensor<4xf16>, %x: tensor<1xf16>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' x has type tensor<1xf16> but grad has type tensor<4xf16>; grad, x and the result must have the same shape and element type
  %y = "hsg.hard_swish_grad"(%g, %x) : (tensor<4xf16>, tensor<1xf16>) -> tensor<4xf16>
  func.return
}

// -----

// A static and a dynamic dim are different types, so they do not mix either.
func.func @static_dynamic(%g: tensor<4xbf16>, %x: tensor<?xbf16>) {
  // CHECK: error: 'hsg.hard_swish_grad' x has type tensor<?xbf16> but grad has type tensor<4xbf16>; grad, x and the result must have the same shape and element type
  %y = "hsg.hard_swish_grad"(%g, %x) : (tensor<4xbf16>, tensor<?xbf16>) -> tensor<4xbf16>
  func.return
}

// -----

// Ranked grad with unranked x.
func.func @ranked_unranked(%g: tensor<4xf32>, %x: tensor<*xf32>) {
  // CHECK: error: 'hsg.hard_swish_grad' x has type tensor<*xf32> but grad has type tensor<4xf32>; grad, x and the result must have the same shape and element type
  %y = "hsg.hard_swish_grad"(%g, %x) : (tensor<4xf32>, tensor<*xf32>) -> tensor<4xf32>
  func.return
}

// -----

// grad and x of different dtypes: no dtype mixing.
func.func @dtypes(%g: tensor<4xf16>, %x: tensor<4xbf16>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' x has type tensor<4xbf16> but grad has type tensor<4xf16>; grad, x and the result must have the same shape and element type
  %y = "hsg.hard_swish_grad"(%g, %x) : (tensor<4xf16>, tensor<4xbf16>) -> tensor<4xf16>
  func.return
}

// -----

// x of a supported dtype but an unsupported grad dtype: the first bad operand is named.
func.func @grad_dtype(%g: tensor<4xf64>, %x: tensor<4xf32>) {
  // CHECK: error: 'hsg.hard_swish_grad' grad has element type f64; HardSwishGrad supports f16, bf16 and f32
  %y = "hsg.hard_swish_grad"(%g, %x) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// The result's type differs from the operands' (dtype).
func.func @result_dtype(%a: tensor<4xf16>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' result has type tensor<4xf32> but grad has type tensor<4xf16>; grad, x and the result must have the same shape and element type
  %y = "hsg.hard_swish_grad"(%a, %a) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf32>
  func.return
}

// -----

// The result's type differs from the operands' (shape).
func.func @result_shape(%a: tensor<4x?xf16>) {
  // CHECK: error: 'hsg.hard_swish_grad' result has type tensor<4x4xf16> but grad has type tensor<4x?xf16>; grad, x and the result must have the same shape and element type
  %y = "hsg.hard_swish_grad"(%a, %a) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x4xf16>
  func.return
}

// -----

// The result's type is f64 although the operands are f16: the result is named.
func.func @result_f64(%a: tensor<4xf16>) {
  // CHECK: error: 'hsg.hard_swish_grad' result has element type f64; HardSwishGrad supports f16, bf16 and f32
  %y = "hsg.hard_swish_grad"(%a, %a) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf64>
  func.return
}

// -----

// A launch follows the same rules as the operator it replaces.
func.func @launch_types(%g: tensor<4xf16>, %x: tensor<4xf32>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' x has type tensor<4xf32> but grad has type tensor<4xf16>; grad, x and the result must have the same shape and element type
  %y = hsg.launch @k blocks %n (%g, %x) tiling(%n, %n, %n) : tensor<4xf16>, tensor<4xf32> -> tensor<4xf16>
  func.return
}

// -----

// A launch of an f64 tensor.
func.func @launch_f64(%g: tensor<4xf64>, %n: index) {
  // CHECK: error: 'hsg.launch' grad has element type f64; HardSwishGrad supports f16, bf16 and f32
  %y = hsg.launch @k blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  func.return
}

// -----

// A slice works on flat GM buffers only.
func.func @slice_rank2(%a: memref<4x?xf16>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad_slice' grad must be a flat GM buffer memref<?xf16|bf16|f32>, got memref<4x?xf16>
  hsg.hard_swish_grad_slice %a, %a, %a [%n, %n] ub_factor %n : memref<4x?xf16>, memref<4x?xf16>, memref<4x?xf16>
  func.return
}

// -----

// A slice of f64 buffers.
func.func @slice_f64(%a: memref<?xf64>, %n: index) {
  // CHECK: error: 'hsg.hard_swish_grad_slice' grad must be a flat GM buffer memref<?xf16|bf16|f32>, got memref<?xf64>
  hsg.hard_swish_grad_slice %a, %a, %a [%n, %n] ub_factor %n : memref<?xf64>, memref<?xf64>, memref<?xf64>
  func.return
}

// -----

// A chunk whose y buffer has another dtype than grad's.
func.func @chunk_dtypes(%a: memref<?xf16>, %b: memref<?xf32>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad_chunk' y has type memref<?xf32> but grad has type memref<?xf16>
  hsg.hard_swish_grad_chunk %a, %a, %b slice [%n, %n] chunk [%n, %n] ub_factor %n : memref<?xf16>, memref<?xf16>, memref<?xf32>
  func.return
}
