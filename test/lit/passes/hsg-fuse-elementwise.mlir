// RUN: hswc-opt %s --split-input-file -p hsg-decompose,hsg-fuse-elementwise | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise{recompute=false}' | filecheck %s --check-prefix=KEEP
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise{max-recompute-ops=3}' | filecheck %s --check-prefix=KEEP
// RUN: not hswc-opt %s -p 'hsg-fuse-elementwise{max-recompute-ops=-1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE

// NEGATIVE: hswc-opt: error: hsg-fuse-elementwise: max-recompute-ops must not be negative, got -1

// hard_swish_grad then a product with a third tensor: one generic reading three tensors.
func.func @grad_times_scale(%g: tensor<?xf16>, %x: tensor<?xf16>, %s: tensor<?xf16>) -> tensor<?xf16> {
  %0 = hsg.hard_swish_grad %g, %x : tensor<?xf16>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %g, %c0 : tensor<?xf16>
  %e = tensor.empty(%d) : tensor<?xf16>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%0, %s : tensor<?xf16>, tensor<?xf16>) outs(%e : tensor<?xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<?xf16>
  func.return %1 : tensor<?xf16>
}
// CHECK-LABEL: func.func @grad_times_scale(
// CHECK-NOT:     hsg.op_name
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?xf16>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {{.*}} ins(%g, %x, %s : tensor<?xf16>, tensor<?xf16>, tensor<?xf16>) outs(%[[E]] : tensor<?xf16>) {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f16, %[[X:.*]]: f16, %[[S:.*]]: f16, %{{.*}}: f16):
// CHECK:           %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[H]], %[[S]] : f16
// CHECK-NEXT:      linalg.yield %[[M]] : f16
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[R]] : tensor<?xf16>

// -----

// A chain of three named ops becomes one generic; their attributes stay f32 constants.
func.func @chain(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = hsg.hard_swish %x : tensor<4x8xbf16>
  %1 = hsg.hardtanh %0 {min_val = -1.0 : f32, max_val = 2.0 : f32} : tensor<4x8xbf16>
  %2 = hsg.leaky_relu %1 {negative_slope = 0.5 : f32} : tensor<4x8xbf16>
  func.return %2 : tensor<4x8xbf16>
}
// CHECK-LABEL: func.func @chain(
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[SLOPE:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         linalg.generic {{.*}} ins(%x : tensor<4x8xbf16>)
// CHECK:           %[[HS:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT:      %[[HS32:.*]] = arith.extf %[[HS]] : bf16 to f32
// CHECK-NEXT:      arith.cmpf ogt, %[[HS32]], %[[MAX]] : f32
// CHECK:           arith.cmpf olt, %[[HS32]], %[[MIN]] : f32
// CHECK:           %[[HT:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT:      %[[HT32:.*]] = arith.extf %[[HT]] : bf16 to f32
// CHECK:           arith.mulf %[[HT32]], %[[SLOPE]] : f32
// CHECK:           linalg.yield %{{.*}} : bf16
// CHECK-NOT:     linalg.generic

// -----

// Used twice: recomputed in both consumers, the producer's generic gone; the two consumers,
// which then read the same x, become one generic of two outputs (sibling fusion).
func.func @twice(%x: tensor<16xf32>, %g: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = hsg.hard_sigmoid %x : tensor<16xf32>
  %1 = hsg.hard_swish_grad %g, %0 : tensor<16xf32>
  %2 = hsg.softshrink %0 {lambd = 0.25 : f32} : tensor<16xf32>
  func.return %1, %2 : tensor<16xf32>, tensor<16xf32>
}
// CHECK-LABEL: func.func @twice(
// CHECK:         %[[A:[0-9a-z_]+]], %[[B:[0-9a-z_]+]] = linalg.generic {{.*}} ins(%g, %x : tensor<16xf32>, tensor<16xf32>)
// CHECK-NOT:       hsg.op_name
// CHECK:           arith.divf
// CHECK:           arith.divf
// CHECK:           linalg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[A]], %[[B]]
// KEEP-LABEL:  func.func @twice(
// KEEP:          %[[S:.*]] = linalg.generic {{.*}} ins(%x : tensor<16xf32>) {{.*}}hsg.op_name = "hard_sigmoid"
// KEEP:          linalg.generic {{.*}} ins(%g, %[[S]] : {{.*}}hsg.op_name = "hard_swish_grad"
// KEEP:          linalg.generic {{.*}} ins(%[[S]] : {{.*}}hsg.op_name = "softshrink"

// -----

// A producer that is also returned stays, and is not recomputed in its consumer.
func.func @returned(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = hsg.hard_sigmoid %x : tensor<16xf32>
  %1 = hsg.hard_shrink %0 : tensor<16xf32>
  func.return %0, %1 : tensor<16xf32>, tensor<16xf32>
}
// CHECK-LABEL: func.func @returned(
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%x : {{.*}}hsg.op_name = "hard_sigmoid"
// CHECK:         %[[H:.*]] = linalg.generic {{.*}} ins(%[[S]] : {{.*}}hsg.op_name = "hard_shrink"
// CHECK:         func.return %[[S]], %[[H]]

// -----

// Another shape between them: two kernels.
func.func @reshaped(%x: tensor<4x4xf16>) -> tensor<16xf16> {
  %0 = hsg.hard_swish %x : tensor<4x4xf16>
  %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<4x4xf16> into tensor<16xf16>
  %2 = hsg.hard_swish %1 : tensor<16xf16>
  func.return %2 : tensor<16xf16>
}
// CHECK-LABEL: func.func @reshaped(
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x4xf16>) {{.*}}hsg.op_name = "hard_swish"
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[A]]
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<16xf16>) {{.*}}hsg.op_name = "hard_swish"

// -----

// Five inputs together: more than a kernel takes, not fused.
func.func @too_many(%a: tensor<8xf16>, %b: tensor<8xf16>, %c: tensor<8xf16>, %d: tensor<8xf16>, %e: tensor<8xf16>) -> tensor<8xf16> {
  %0 = hsg.hard_swish_grad %a, %b : tensor<8xf16>
  %i = tensor.empty() : tensor<8xf16>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%0, %c, %d, %e : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) outs(%i : tensor<8xf16>) {
  ^bb0(%p: f16, %q: f16, %r: f16, %s: f16, %o: f16):
    %m = arith.mulf %p, %q : f16
    %n = arith.addf %m, %r : f16
    %k = arith.subf %n, %s : f16
    linalg.yield %k : f16
  } -> tensor<8xf16>
  func.return %1 : tensor<8xf16>
}
// CHECK-LABEL: func.func @too_many(
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%a, %b : {{.*}}hsg.op_name = "hard_swish_grad"
// CHECK:         linalg.generic {{.*}} ins(%[[G]], %c, %d, %e :
