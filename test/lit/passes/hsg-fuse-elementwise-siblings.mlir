// RUN: hswc-opt %s --split-input-file -p hsg-fuse-elementwise --remarks 2>&1 | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-fuse-elementwise{siblings=false}' | filecheck %s --check-prefix=APART

#map = affine_map<(d0, d1) -> (d0, d1)>

// relu(x) and x > 0, as torch-mlir exports them: two generics reading x become one of two
// outputs, f16 and i1, each computed by its own ops.
func.func @relu_and_mask(%x: tensor<4x64xf16>) -> (tensor<4x64xf16>, tensor<4x64xi1>) {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<4x64xf16>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf16>) outs(%0 : tensor<4x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %4 = arith.cmpf ugt, %in, %cst : f16
    %5 = arith.select %4, %in, %cst : f16
    linalg.yield %5 : f16
  } -> tensor<4x64xf16>
  %2 = tensor.empty() : tensor<4x64xi1>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf16>) outs(%2 : tensor<4x64xi1>) {
  ^bb0(%in: f16, %out: i1):
    %4 = arith.cmpf ogt, %in, %cst : f16
    linalg.yield %4 : i1
  } -> tensor<4x64xi1>
  return %1, %3 : tensor<4x64xf16>, tensor<4x64xi1>
}
// CHECK:         remark: 'linalg.generic' joins the generic at {{.*}}: one kernel, several outputs
// CHECK-LABEL: func.func @relu_and_mask(
// CHECK:         %[[R:[0-9a-z_]+]], %[[M:[0-9a-z_]+]] = linalg.generic {{.*}} ins(%x : tensor<4x64xf16>) outs(%{{.*}}, %{{.*}} : tensor<4x64xf16>, tensor<4x64xi1>)
// CHECK-NEXT:    ^bb0(%in: f16, %out: f16, %out_1: i1):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ugt, %in, %cst : f16
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[C]], %in, %cst : f16
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf ogt, %in, %cst : f16
// CHECK-NEXT:      linalg.yield %[[S]], %[[P]] : f16, i1
// CHECK-NEXT:    } -> (tensor<4x64xf16>, tensor<4x64xi1>)
// CHECK-NEXT:    func.return %[[R]], %[[M]]
// APART-LABEL: func.func @relu_and_mask(
// APART-COUNT-2: linalg.generic
// APART:         func.return

// -----

// Siblings of different shapes (a bias and its broadcast sum) cannot share one tiling.
func.func @shapes(%b: tensor<8xf32>, %y: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %neg, %sum : tensor<8xf32>, tensor<4x8xf32>
}
// CHECK:         remark: 'linalg.generic' reads an input of the generic at {{.*}}, but its shape [4, 8] is not the shape [8] of its sibling, so they cannot share one tiling: they stay two kernels
// CHECK-LABEL: func.func @shapes(
// CHECK:         %neg = linalg.generic
// CHECK:         %sum = linalg.generic

// -----

// The second sibling reads the first's result through a transpose: merging would make a
// cycle, so they stay apart.
func.func @between(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %t = linalg.transpose ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) permutation = [0]
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %t : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %u: f32, %o: f32):
    %s = arith.addf %in, %u : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %b : tensor<16xf32>
}
// CHECK-LABEL: func.func @between(
// CHECK:         %a = linalg.generic
// CHECK:         %t = linalg.transpose
// CHECK:         %b = linalg.generic
