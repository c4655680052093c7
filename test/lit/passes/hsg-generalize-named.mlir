// RUN: hswc-opt %s --split-input-file -p hsg-generalize-named | filecheck %s
// RUN: hswc-opt %s --split-input-file -p hsg-generalize-named,hsg-fold-constant-operands,hsg-fuse-elementwise | filecheck %s --check-prefix=FUSED

// Every elementwise named op becomes the generic of its body; a chain of them then fuses into
// one kernel (and the fill's scalar into a constant of its body).
// CHECK-LABEL: func.func @chain
// CHECK:      %zero = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z : f32)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   linalg.yield %[[V]] : f32
// CHECK:      linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%a, %b
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.addf
// CHECK:      arith.subf
// CHECK:      arith.mulf
// CHECK:      arith.maximumf
// CHECK:      arith.minimumf
// CHECK:      ^bb0(%{{.*}}: i1, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.select
// CHECK:      ^bb0(%[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   linalg.yield %[[C]] : f32
// CHECK-NOT:  linalg.add
// FUSED-LABEL: func.func @chain
// FUSED-COUNT-1: linalg.generic
// FUSED-NOT:     linalg.generic
// FUSED:         func.return
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %zero = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.sub ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.mul ins(%1, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.max ins(%2, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.min ins(%3, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ee = tensor.empty() : tensor<4x8xi1>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%ee : tensor<4x8xi1>) {
  ^bb0(%q: f32, %o: i1):
    %k = arith.cmpf ogt, %q, %z : f32
    linalg.yield %k : i1
  } -> tensor<4x8xi1>
  %5 = linalg.select ins(%m, %4, %zero : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = linalg.copy ins(%5 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %6 : tensor<4x8xf32>
}

// -----

// linalg.broadcast: the generic reads its input through the map without the broadcast dims.
// CHECK-LABEL: func.func @bias
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NOT: linalg.broadcast
func.func @bias(%b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  func.return %0 : tensor<4x8xf32>
}

// -----

// A broadcast that adds only dims of size 1 (a conv's bias to its 1xCx1x1 output) moves no
// element: the expand_shape of the same data, a view for the host (hswc.passes.unit_broadcast).
// A broadcast along a dim of size > 1, of a rank-0 input or of dynamic shapes stays a generic.
// CHECK-LABEL: func.func @unit_dims
// CHECK-NEXT: %0 = tensor.expand_shape %b {{\[}}[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 24, 1, 1] : tensor<24xf32> into tensor<1x24x1x1xf32>
// CHECK-NEXT: %1 = tensor.expand_shape %m {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 3, 8, 1] : tensor<3x8xf32> into tensor<1x3x8x1xf32>
// CHECK-NEXT: %e2 = tensor.empty()
// CHECK-NEXT: %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NOT:  linalg.broadcast
func.func @unit_dims(%b: tensor<24xf32>, %m: tensor<3x8xf32>, %s: tensor<f32>, %d: tensor<?xf32>) -> (tensor<1x24x1x1xf32>, tensor<1x3x8x1xf32>, tensor<1x1xf32>, tensor<2x24x1x1xf32>, tensor<1x?xf32>) {
  %e = tensor.empty() : tensor<1x24x1x1xf32>
  %0 = linalg.broadcast ins(%b : tensor<24xf32>) outs(%e : tensor<1x24x1x1xf32>) dimensions = [0, 2, 3]
  %e1 = tensor.empty() : tensor<1x3x8x1xf32>
  %1 = linalg.broadcast ins(%m : tensor<3x8xf32>) outs(%e1 : tensor<1x3x8x1xf32>) dimensions = [0, 3]
  %e2 = tensor.empty() : tensor<1x1xf32>
  %2 = linalg.broadcast ins(%s : tensor<f32>) outs(%e2 : tensor<1x1xf32>) dimensions = [0, 1]
  %e3 = tensor.empty() : tensor<2x24x1x1xf32>
  %3 = linalg.broadcast ins(%b : tensor<24xf32>) outs(%e3 : tensor<2x24x1x1xf32>) dimensions = [0, 2, 3]
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?xf32>
  %e4 = tensor.empty(%n) : tensor<1x?xf32>
  %4 = linalg.broadcast ins(%d : tensor<?xf32>) outs(%e4 : tensor<1x?xf32>) dimensions = [0]
  func.return %0, %1, %2, %3, %4 : tensor<1x24x1x1xf32>, tensor<1x3x8x1xf32>, tensor<1x1xf32>, tensor<2x24x1x1xf32>, tensor<1x?xf32>
}

// -----

// A named op that is not elementwise is left for hsg-tile-on-cores to refuse.
// CHECK-LABEL: func.func @transposed
// CHECK: linalg.transpose
func.func @transposed(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  func.return %0 : tensor<8x4xf32>
}
