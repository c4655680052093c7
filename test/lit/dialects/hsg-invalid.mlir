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

// A launch's inputs and result have one shape (each its own element type: a dtype boundary).
func.func @launch_types(%g: tensor<4xf16>, %x: tensor<5xf32>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' input 2 has type tensor<5xf32> but input 1 has type tensor<4xf16>; the inputs and the result must have the same shape
  %y = hsg.launch @k blocks %n (%g, %x) tiling(%n, %n, %n) : tensor<4xf16>, tensor<5xf32> -> tensor<4xf16>
  func.return
}

// -----

// A launch of an f64 tensor.
func.func @launch_f64(%g: tensor<4xf64>, %n: index) {
  // CHECK: error: 'hsg.launch' input 1 has element type f64; hswc supports f16, bf16, f32, i8, ui8, i16, i32, i64
  %y = hsg.launch @k blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  func.return
}

// -----

// A slice works on flat GM buffers only.
func.func @slice_rank2(%a: memref<4x?xf16>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_slice' input 1 must be a flat GM buffer memref<?xf16|bf16|f32|i8|ui8|i16|i32|i64>, got memref<4x?xf16>
  hsg.elementwise_slice ins(%a : memref<4x?xf16>) outs(%a : memref<4x?xf16>) [%n, %n] ub_factor %n {
  ^bb0(%e: f16):
    linalg.yield %e : f16
  }
  func.return
}

// -----

// A slice of f64 buffers.
func.func @slice_f64(%a: memref<?xf64>, %n: index) {
  // CHECK: error: 'hsg.elementwise_slice' input 1 must be a flat GM buffer memref<?xf16|bf16|f32|i8|ui8|i16|i32|i64>, got memref<?xf64>
  hsg.elementwise_slice ins(%a : memref<?xf64>) outs(%a : memref<?xf64>) [%n, %n] ub_factor %n {
  ^bb0(%e: f64):
    linalg.yield %e : f64
  }
  func.return
}

// -----

// A chunk whose body yields another type than its output buffer holds (a dtype boundary's
// body converts: the f16 element must be widened to the f32 it writes).
func.func @chunk_dtypes(%a: memref<?xf16>, %b: memref<?xf32>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_chunk' the body must end in linalg.yield of one f32
  hsg.elementwise_chunk ins(%a : memref<?xf16>) outs(%b : memref<?xf32>) slice [%n, %n] chunk [%n, %n] ub_factor %n {
  ^bb0(%e: f16):
    linalg.yield %e : f16
  }
  func.return
}

// -----

// A body must take one element per input.
func.func @body_arity(%a: memref<?xf16>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_slice' the body must take one element of each input (f16, f16), takes (f16)
  hsg.elementwise_slice ins(%a, %a : memref<?xf16>, memref<?xf16>) outs(%a : memref<?xf16>) [%n, %n] ub_factor %n {
  ^bb0(%e: f16):
    linalg.yield %e : f16
  }
  func.return
}

// -----

// A body must yield one element of the output's type.
func.func @body_yield(%a: memref<?xf16>, %n: index) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_slice' the body must end in linalg.yield of one f16
  hsg.elementwise_slice ins(%a : memref<?xf16>) outs(%a : memref<?xf16>) [%n, %n] ub_factor %n {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    linalg.yield %w : f32
  }
  func.return
}

// -----

// hsg.hard_swish takes one operand.
func.func @forward_arity(%a: tensor<4xf16>) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish' takes 1 operand(s) (x), got 2
  %y = "hsg.hard_swish"(%a, %a) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  func.return
}

// -----

// A tensor with an encoding is not a dense tensor.
func.func @encoding(%a: tensor<8xf16, "sparse">) {
  // CHECK: hsg-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' grad has the encoding "sparse" (tensor<8xf16, "sparse">); HardSwishGrad takes dense tensors only
  %y = hsg.hard_swish_grad %a, %a : tensor<8xf16, "sparse">
  func.return
}
