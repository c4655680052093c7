// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' | filecheck %s --check-prefix=TILE
// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s
// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' -t ascendc | filecheck %s --check-prefix=CPP
// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// f32 x.sum(dim=(0, 2, 3)) of x (8, 16, 7, 7): each channel is 8 runs of 49 f32 (196 bytes,
// not whole 32-byte blocks), laid in UB padded to 56 (hsg.rows' padded_run), a row 448.
// TILE-LABEL: func.func @sum_nhw_kernel_f32(
// TILE-SAME:    hsg.rows = {length = 392 : i64, inputs = ["element"], outputs = ["row"], runs = 8 : i64, stride = 784 : i64, padded_run = 56 : i64}
// Each run index is one DataCopyPad of current_num blocks of 196 bytes, each rounded up to 224
// in UB, 49 blocks (the pitch of 448 f32 less a padded run) between a row's run and the next
// row's; run a lands a * 56 into the row.
// CHECK-LABEL: func.func @sum_nhw_kernel_f32(
// CHECK:         %[[BYTES:.*]] = arith.constant 196 : index
// CHECK-NEXT:    ascend.data_copy_pad %x_local, %x_gm_at, %[[BYTES]] blocks %current_num {dst_stride = 49 : i64}
// CHECK:         %[[AT1:.*]] = arith.constant 56 : index
// CHECK-NEXT:    %x_run1 = ascend.local_at %x_local[%[[AT1]]]
// CHECK-NEXT:    ascend.data_copy_pad %x_run1, %x_gm_at_run1, %[[BYTES]] blocks %current_num {dst_stride = 49 : i64}
// CHECK:         %x_run7 = ascend.local_at %x_local[%{{.*}}]
// CHECK-NEXT:    ascend.data_copy_pad %x_run7, %x_gm_at_run7, %[[BYTES]] blocks %current_num {dst_stride = 49 : i64}
// Before the sum, -0.0 over each run's padding: lanes 49 to 55 are lanes 1 to 7 of the block
// at 48, one masked Duplicate a row of the chunk, repeated over its 8 runs 7 blocks (56 f32)
// apart; then the tree of WholeReduceSums over the padded row (448 -> 7 -> 1), rows 56 blocks
// apart.
// CHECK:         scf.for %padded_row = %{{.*}} to %current_num step
// CHECK:           %[[BLOCK:.*]] = arith.constant 48 : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %{{.*}}, %[[BLOCK]] : index
// CHECK-NEXT:      %run_padding = ascend.local_at %x_local_1[%[[AT]]]
// CHECK-NEXT:      %[[FIRST:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.constant 7 : index
// CHECK-NEXT:      %[[REPEATS:.*]] = arith.constant 8 : index
// CHECK-NEXT:      ascend.duplicate_lanes_repeat %run_padding, %[[FIRST]], %[[COUNT]], %[[REPEATS]] {scalar = -0.000000e+00 : f32, dst_rep_stride = 7 : i64}
// CHECK:         ascend.whole_reduce_sum %partials_local, %x_local_1, %{{.*}}, %current_num {dst_rep_stride = 8 : i64, src_blk_stride = 1 : i64, src_rep_stride = 56 : i64}
// CPP:           AscendC::DataCopyPad(xLocal[56], xGm[chunkOffset * 49 + 784],
// CPP-NEXT:          AscendC::DataCopyParams(currentNum, 196, 0, 49),
// CPP:           for (int64_t paddedRow = 0; paddedRow < currentNum; ++paddedRow) {
// CPP-NEXT:          uint64_t laneMask[2] = {(~0ULL >> (64 - 7)) << 1, 0};
// CPP-NEXT:          AscendC::Duplicate(xLocal[paddedRow * 448 + 48], -0.0f, laneMask, 8, 1, 7);
// REMARK: convert-hsg-to-ascend-padded-runs.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @sum_nhw_kernel_f32 (1 reduction along rows of 392 (8 runs of 49, 784 apart, each padded to 56 in UB)
func.func @sum_nhw(%x: tensor<8x16x7x7xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x : tensor<8x16x7x7xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}
