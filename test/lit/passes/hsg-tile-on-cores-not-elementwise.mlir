// What is not elementwise is refused with one located message naming the construct: a
// transpose, a reduction, a named op with no model, a gather-like map.
// RUN: not hswc-opt %s --split-input-file --lower-to-ascend 2>&1 | filecheck %s

// CHECK: hsg-tile-on-cores-not-elementwise.mlir:[[# @LINE + 3]]:3: error: 'linalg.transpose' is not an elementwise computation hswc compiles (a transpose): hswc compiles elementwise linalg.generic ops and the named elementwise ops (add, sub, mul, max, min, select, fill, copy, broadcast)
func.func @transposed(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  func.return %0 : tensor<8x4xf32>
}

// -----

// CHECK: hsg-tile-on-cores-not-elementwise.mlir:[[# @LINE + 2]]:3: error: 'linalg.reduce' is not an elementwise computation hswc compiles (a reduction)
func.func @summed(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: hsg-tile-on-cores-not-elementwise.mlir:[[# @LINE + 2]]:3: error: 'linalg.matmul' is not an elementwise computation hswc compiles (a matrix product)
func.func @product(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

// A gather-like generic: the input map is not a projection.
// CHECK: hsg-tile-on-cores-not-elementwise.mlir:[[# @LINE + 3]]:3: error: 'linalg.generic' is not an elementwise computation hswc compiles: indexing map (d0) -> ((d0 * 2)) reads operand dim 0 through (d0 * 2) (not a dim or a size-1 constant 0: a gather or a shifted window)
func.func @strided(%x: tensor<16xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
