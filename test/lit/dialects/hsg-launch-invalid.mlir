// hsg.launch must name a kernel function and pass it the three tiling values.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A launch of a symbol that names no function.
func.func @no_kernel(%g: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  // CHECK: hsg-launch-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' {{.*}}@nowhere
  %y = hsg.launch @nowhere blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %y : tensor<4xf16>
}

// -----

// A launch with one tiling value instead of three.
func.func private @hard_swish_grad_kernel_f16(memref<?xf16>, memref<?xf16>, memref<?xf16>, index, index, index) attributes {hsg.kernel}
func.func @one_tiling_value(%g: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  // CHECK: hsg-launch-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' {{.*}}tiling
  %y = hsg.launch @hard_swish_grad_kernel_f16 blocks %n (%g, %g) tiling(%n) : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %y : tensor<4xf16>
}

// -----

// A launch of a function that is not marked hsg.kernel.
func.func private @helper(memref<?xf16>, memref<?xf16>, memref<?xf16>, index, index, index)
func.func @not_a_kernel(%g: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  // CHECK: hsg-launch-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' @helper is not a kernel (a func.func marked hsg.kernel)
  %y = hsg.launch @helper blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %y : tensor<4xf16>
}

// -----

// A launch of an f32 kernel with f16 tensors.
func.func private @k32(memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index, index) attributes {hsg.kernel}
func.func @wrong_dtype(%g: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  // CHECK: hsg-launch-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' @k32 must take (memref<?xf16>, memref<?xf16>, memref<?xf16>, index, index, index) to be launched with 2 input(s) and 3 tiling values
  %y = hsg.launch @k32 blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  func.return %y : tensor<4xf16>
}
