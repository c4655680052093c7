// Known gaps: hsg.launch verifies its tensors but not what it launches. A launch of a kernel
// that does not exist, or with other than the three tiling values (totalNum, blockFactor,
// ubFactor) the kernel takes, verifies and only fails later (interpreter, printer). Remove the
// XFAIL once LaunchOp checks both (e.g. SymbolUserOpInterface + a tiling count of 3).
// XFAIL: *
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A launch of a symbol that names no function.
func.func @no_kernel(%g: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  // CHECK: hsg-launch-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' {{.*}}@nowhere
  %y = hsg.launch @nowhere blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %y : tensor<4xf16>
}

// -----

// A launch with one tiling value instead of three.
func.func private @hard_swish_grad_kernel_f16(memref<?xf16>, memref<?xf16>, memref<?xf16>, index, index, index)
func.func @one_tiling_value(%g: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  // CHECK: hsg-launch-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' {{.*}}tiling
  %y = hsg.launch @hard_swish_grad_kernel_f16 blocks %n (%g, %g) tiling(%n) : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %y : tensor<4xf16>
}
