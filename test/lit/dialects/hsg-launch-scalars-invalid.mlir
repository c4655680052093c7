// hsg.launch's scalars must be what the kernel takes after its tiling values: f32, one each.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A kernel with two scalars launched with one.
func.func private @two_kernel_f32(memref<?xf32>, memref<?xf32>, index, index, index, f32, f32) attributes {hsg.kernel}
func.func @too_few(%x: tensor<?xf32>, %n: index, %s: f32) -> tensor<?xf32> {
  // CHECK: hsg-launch-scalars-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' @two_kernel_f32 must take (memref<?xf32>, memref<?xf32>, index, index, index, f32) to be launched with 1 input(s) and 3 tiling values and 1 f32 scalar(s), but takes (memref<?xf32>, memref<?xf32>, index, index, index, f32, f32)
  %y = hsg.launch @two_kernel_f32 blocks %n (%x) tiling(%n, %n, %n) scalars(%s : f32) : tensor<?xf32> -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}

// -----

// A kernel with a scalar launched without any.
func.func private @one_kernel_f32(memref<?xf32>, memref<?xf32>, index, index, index, f32) attributes {hsg.kernel}
func.func @none(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  // CHECK: hsg-launch-scalars-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' @one_kernel_f32 must take (memref<?xf32>, memref<?xf32>, index, index, index) to be launched with 1 input(s) and 3 tiling values, but takes (memref<?xf32>, memref<?xf32>, index, index, index, f32)
  %y = hsg.launch @one_kernel_f32 blocks %n (%x) tiling(%n, %n, %n) : tensor<?xf32> -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}

// -----

// A kernel whose scalar is f16: kernel scalars are f32, as the tiling struct's float fields.
func.func private @half_kernel_f16(memref<?xf16>, memref<?xf16>, index, index, index, f16) attributes {hsg.kernel}
func.func @half_scalar(%x: tensor<?xf16>, %n: index, %s: f32) -> tensor<?xf16> {
  // CHECK: hsg-launch-scalars-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' @half_kernel_f16 must take (memref<?xf16>, memref<?xf16>, index, index, index, f32) to be launched with 1 input(s) and 3 tiling values and 1 f32 scalar(s), but takes (memref<?xf16>, memref<?xf16>, index, index, index, f16)
  %y = hsg.launch @half_kernel_f16 blocks %n (%x) tiling(%n, %n, %n) scalars(%s : f32) : tensor<?xf16> -> tensor<?xf16>
  func.return %y : tensor<?xf16>
}

// -----

// The scalars themselves are f32.
func.func private @one_kernel_f16(memref<?xf16>, memref<?xf16>, index, index, index, f32) attributes {hsg.kernel}
func.func @f16_operand(%x: tensor<?xf16>, %n: index, %s: f16) -> tensor<?xf16> {
  // CHECK: hsg-launch-scalars-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.launch' scalar 1 has type f16; a kernel's scalars are f32 (float fields of its tiling)
  %y = hsg.launch @one_kernel_f16 blocks %n (%x) tiling(%n, %n, %n) scalars(%s : f16) : tensor<?xf16> -> tensor<?xf16>
  func.return %y : tensor<?xf16>
}
