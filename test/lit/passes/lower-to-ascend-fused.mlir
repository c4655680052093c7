// RUN: hswc-opt %s --lower-to-ascend | filecheck %s
// RUN: hswc-opt %s -p hsg-decompose,hsg-tile-on-cores | filecheck %s --check-prefix=UNFUSED

// HardSwishGrad times a third tensor: fused, one kernel that reads three tensors from GM and
// writes one; without hsg-fuse-elementwise, two launches and the HBM round trip between them.
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
// CHECK:         %[[Y:.*]] = hsg.launch @grad_times_scale_kernel_f16 blocks %{{.*}} (%g, %x, %s) tiling(
// CHECK-NOT:     hsg.launch
// CHECK:         func.return %[[Y]]
// CHECK:       func.func @grad_times_scale_kernel_f16(%g: memref<?xf16>, %x: memref<?xf16>, %s: memref<?xf16>, %y: memref<?xf16>,
// CHECK-COUNT-3: ascend.data_copy_pad %{{.*}}_local, %{{.*}}_gm_at, %copy_bytes
// CHECK-NOT:     ascend.data_copy_pad %{{.*}}_local, %{{.*}}_gm_at
// CHECK:         ascend.data_copy_pad %y_gm_at, %y_local{{.*}}, %copy_bytes
// CHECK-NOT:     ascend.data_copy_pad
// CHECK-NOT:   func.func @hard_swish_grad_kernel
// UNFUSED-LABEL: func.func @grad_times_scale(
// UNFUSED:         %[[H:.*]] = hsg.launch @hard_swish_grad_kernel_f16 blocks %{{.*}} (%g, %x) tiling(
// UNFUSED:         hsg.launch @grad_times_scale_kernel_f16 blocks %{{.*}} (%[[H]], %s) tiling(
