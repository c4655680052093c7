// A gradient's two halves inserted into one dx (hsg.glu_grad's decomposition) become one
// kernel output written at each half's window (hswc.passes.joint_outputs): the launch returns
// dx, the slice writes one GM buffer twice, and the kernel copies each half out in row runs.
// Halves of 20 f32 (80 bytes, not whole 32-byte blocks) stay two outputs joined on the host.
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fold-reshapes,hsg-fuse-elementwise,hsg-tile-on-cores' | filecheck %s --check-prefix=TILE
// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s
// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// TILE-LABEL: func.func @glu_grad
// TILE-NOT: tensor.insert_slice
// TILE: %dx = hsg.launch @glu_grad_kernel_f32 blocks %{{.*}} (%g, %x, %x) tiling(%{{.*}}) : tensor<4x64xf32>, tensor<4x128xf32>, tensor<4x128xf32> -> tensor<4x128xf32>
// TILE-NEXT: func.return %dx : tensor<4x128xf32>
// TILE: func.func @glu_grad_kernel_f32(%g: memref<?xf32>, %halves: memref<?xf32>, %halves_1: memref<?xf32>, %dx: memref<?xf32>,
// TILE-SAME: hsg.output_windows = [array<i64: 4, 64>, array<i64: 128, 1, 0, 512>, array<i64: 128, 1, 64, 512>]
// TILE: hsg.elementwise_slice ins(%g, %halves, %halves_1 : memref<?xf32>, memref<?xf32>, memref<?xf32>) outs(%dx, %dx : memref<?xf32>, memref<?xf32>)

// CHECK-LABEL: func.func @glu_grad_kernel_f32
// CHECK: ascend.set_global_buffer %dx[%{{.*}}], %c512
// CHECK: ascend.set_global_buffer %dx[%{{.*}}], %c512
// CHECK: scf.for
// CHECK: ascend.data_copy_pad
// CHECK: hsg.broadcast_copy = "output window: row runs of 64 f32, one DataCopyPad UB -> GM per run"
// CHECK: hsg.broadcast_copy = "output window: row runs of 64 f32, one DataCopyPad UB -> GM per run"

// CPP: // output window: row runs of 64 f32, one DataCopyPad UB -> GM per run
// CPP: AscendC::DataCopyPad(dxGm[FloorDiv(value, 64) * 128 + value % 64]
// CPP: // output window: row runs of 64 f32, one DataCopyPad UB -> GM per run
// CPP: AscendC::DataCopyPad(dxGm1[FloorDiv(value, 64) * 128 + value % 64 + 64]
func.func @glu_grad(%g: tensor<4x64xf32>, %x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %dx = hsg.glu_grad %g, %x {dim = -1 : i64} : tensor<4x64xf32>, tensor<4x128xf32>
  func.return %dx : tensor<4x128xf32>
}

// -----

// TILE-LABEL: func.func @unaligned
// TILE: hsg.launch @unaligned_kernel_f32 {{.*}} -> tensor<4x20xf32>, tensor<4x20xf32>
// TILE: tensor.insert_slice
// TILE: tensor.insert_slice
// TILE-NOT: hsg.output_windows
func.func @unaligned(%g: tensor<4x20xf32>, %x: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %dx = hsg.glu_grad %g, %x {dim = -1 : i64} : tensor<4x20xf32>, tensor<4x40xf32>
  func.return %dx : tensor<4x40xf32>
}
