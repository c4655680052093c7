// RUN: hswc-opt %s --split-input-file -p hsg-fold-reshapes | filecheck %s
// RUN: hswc-opt %s --split-input-file -p hsg-fold-reshapes,hsg-fuse-elementwise | filecheck %s --check-prefix=FUSED

// A BatchNorm weight as torch-mlir writes it: tensor<8xf32> expanded to 8x1x1 and read through
// (d1, 0, 0); the generic reads the weight itself through (d1), and the reshape is gone.
// CHECK-LABEL: func.func @batch_norm_scale
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%x, %w : tensor<1x8x4x4xf32>, tensor<8xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c11 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @batch_norm_scale(%x: tensor<1x8x4x4xf32>, %w: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.expand_shape %w [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %init = tensor.empty() : tensor<1x8x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #c11, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %e : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%init : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// A reshape between two generics that only drops size-1 dims: the producer iterates the
// reshaped shape (its input read through (0, d1, 0, 0)) and feeds the consumer directly, so
// fusion makes one generic of the two.
// CHECK-LABEL: func.func @between_regions
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1, 0, 0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%x : tensor<1x8x1x1xf32>) outs(%{{.*}} : tensor<1x8xf32>)
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<1x8xf32>)
// FUSED-LABEL: func.func @between_regions
// FUSED:         linalg.generic
// FUSED:           math.exp
// FUSED:           arith.addf
// FUSED-NOT:     linalg.generic
// FUSED:         func.return
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @between_regions(%x: tensor<1x8x1x1xf32>) -> tensor<1x8xf32> {
  %i4 = tensor.empty() : tensor<1x8x1x1xf32>
  %a = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x1x1xf32>) outs(%i4 : tensor<1x8x1x1xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<1x8x1x1xf32>
  %c = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x8x1x1xf32> into tensor<1x8xf32>
  %i2 = tensor.empty() : tensor<1x8xf32>
  %b = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1x8xf32>) outs(%i2 : tensor<1x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %b : tensor<1x8xf32>
}

// -----

// Two dims of size other than 1 in one group: a relinearisation, which no map expresses: it
// stays.
// CHECK-LABEL: func.func @relinearised
// CHECK:         tensor.collapse_shape
#id1 = affine_map<(d0) -> (d0)>
func.func @relinearised(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %i = tensor.empty() : tensor<32xf32>
  %b = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%c : tensor<32xf32>) outs(%i : tensor<32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %b : tensor<32xf32>
}
