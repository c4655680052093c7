// RUN: hswc-opt %s --split-input-file --verify-diagnostics -t ascendc | filecheck %s

// A kernel's scalars are f32 (the tiling struct's float fields); an f16 argument breaks the
// launch contract.
func.func @slope_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 0 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
// CHECK: scalar-arguments-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' is a kernel whose arguments are not (inputs..., y: memref<?xT>, totalNum, blockFactor, ubFactor: index, scalars...: f32) with no results
func.func @slope_kernel_f16(%x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index, %slope: f16) attributes {hsg.kernel} {
  func.return
}

// -----

// The kernels of one operator share its tiling struct, so they take the same scalars.
func.func @slope_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 0 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @slope_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @slope_kernel_f16(%x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index, %slope: f32) attributes {hsg.kernel} {
  func.return
}
// CHECK: scalar-arguments-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' takes scalars ('slope', 'lambd'), but @slope_kernel_f16 of the same operator takes ('slope',)
func.func @slope_kernel_f32(%x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index, %slope: f32, %lambd: f32) attributes {hsg.kernel} {
  func.return
}
