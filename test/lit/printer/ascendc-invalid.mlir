// RUN: hswc-opt %s --split-input-file --verify-diagnostics -t ascendc | filecheck %s

// The operator itself, not lowered: the printer has no rule for it and says how to get one.
func.func @hsg(%grad: tensor<8xf16>, %x: tensor<8xf16>) -> tensor<8xf16> {
  // CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' is not lowered to the ascend dialect: run --lower-to-ascend first
  %y = hsg.hard_swish_grad %grad, %x : tensor<8xf16>
  func.return %y : tensor<8xf16>
}

// -----

// An op inside a kernel that no printer rule covers is an error naming it, never a comment.
func.func @hard_swish_grad_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 0 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f16(%grad: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  // CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:3: error: 'test.op' has no AscendC printing rule
  "test.op"() : () -> ()
  func.return
}

// -----

// Host code may only tile and launch: anything else there is refused too.
func.func @host(%a: index) -> index {
  // CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:3: error: 'test.op' has no AscendC printing rule (host code may only tile, launch and run the ops that stay on the host)
  %b = "test.op"(%a) : (index) -> index
  func.return %b : index
}

// -----

// A kernel whose host tiling function is missing has no tiling key to dispatch on.
// CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' has no host tiling function @hard_swish_grad_tiling_f32 to take its tiling key from
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  func.return
}

// -----

// The tiling key must be a constant the host tiling returns.
func.func @hard_swish_grad_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  // CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:3: error: 'func.return' returns a tiling key that is not an arith.constant
  func.return %total_num, %total_num, %ub_size, %core_num, %core_num : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  func.return
}

// -----

// A kernel that does not take (grad, x, y, totalNum, blockFactor, ubFactor) breaks the launch contract.
// CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' is a kernel whose arguments are not (inputs..., y: memref<?xT>, totalNum, blockFactor, ubFactor: index, scalars...: f32) with no results
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %total_num: index) attributes {hsg.kernel} {
  func.return
}

// -----

// A loop carrying a value that nothing reads after it is an error (a variable never read).
func.func @hard_swish_grad_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:3: error: 'scf.for' carries a value across iterations that nothing reads
  %s = scf.for %i = %c0 to %total_num step %c1 iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %i : index
    scf.yield %n : index
  }
  func.return
}

// -----

// A value of a type C++ has no spelling for (i128) is an error naming the op that uses it.
func.func @hard_swish_grad_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %buf = ascend.tbuf : !ascend.tbuf<veccalc>
  %t = ascend.tbuf_get %buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
  // CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:3: error: 'arith.index_cast' uses the type i128, which has no C++ spelling
  %wide = arith.index_cast %ub_factor : index to i128
  %twice = arith.addi %wide, %wide : i128
  %count = arith.index_cast %twice : i128 to index
  ascend.duplicate %t, 1.0 : f32, %count : !ascend.local_tensor<f32, veccalc>
  func.return
}

// -----

// Two kernels of one operator under one tiling key could not both be dispatched.
func.func @hard_swish_grad_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  func.return
}
func.func @hard_swish_grad_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
// CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' has tiling key 1, as @hard_swish_grad_kernel_f32 has
func.func @hard_swish_grad_kernel_f16(%grad: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  func.return
}

// -----

// A kernel whose name does not say its operator: the C++ names could not be derived.
func.func @k_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
// CHECK: ascendc-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' is a f32 kernel not named @<operator>_kernel_f32: the printer names the operator's C++ and package files after <operator>
func.func @some_kernel(%grad: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  func.return
}

// -----

// A module without any kernel has nothing to print.
// CHECK: error: 'builtin.module' holds no hsg.kernel function: nothing to print as AscendC
func.func @empty() {
  func.return
}
