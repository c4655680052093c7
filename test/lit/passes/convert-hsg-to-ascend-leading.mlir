// RUN: hswc-opt %s --split-input-file -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' | filecheck %s --check-prefix=TILE
// RUN: hswc-opt %s --split-input-file -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' -t ascendc | filecheck %s --check-prefix=CPP
// RUN: hswc-opt %s --split-input-file -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// f32 x.sum(dim=(0, 2, 3)) of x (2, 48, 4, 4), as torch-mlir writes it: the 48 channels are the
// rows, each 2 runs of 16 elements 768 apart (hsg.rows' runs and stride); the tiling is over
// the 48 channels (as many as the cores: one kernel).
// TILE-LABEL: func.func @sum_nhw(
// TILE:         %[[T:.*]] = arith.constant 48 : index
// TILE:         hsg.launch @sum_nhw_kernel_f32 blocks %{{.*}} (%x) tiling(%{{.*}}) : tensor<2x48x4x4xf32> -> tensor<48xf32>
// TILE-LABEL: func.func @sum_nhw_kernel_f32(
// TILE-SAME:    hsg.rows = {length = 32 : i64, inputs = ["element"], outputs = ["row"], runs = 2 : i64, stride = 768 : i64}
// TILE:         hsg.reduce "addf"
// A core's GlobalTensor spans its channels' runs, from its first channel's first run to its
// last channel's last; a chunk's rows come in as one DataCopyPad per run index: current_num
// blocks of 64 bytes (16 f32) each, 2 blocks (pitch 32 less one run) between a row's run and
// the next row's, the second run 16 elements into each UB row; then one WholeReduceSum of each
// row.
// CHECK-LABEL: func.func @sum_nhw_kernel_f32(
// CHECK:         %[[RUNLEN:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %block_offset, %[[RUNLEN]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant 768 : index
// CHECK-NEXT:    %[[OWN:.*]] = arith.muli %block_length, %[[RUNLEN]] : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.addi %[[LAST]], %[[OWN]] : index
// CHECK-NEXT:    %x_gm = ascend.set_global_buffer %x[%[[START]]], %[[COUNT]] : memref<?xf32> -> !ascend.global_tensor<f32>
// CHECK:         scf.for
// CHECK:           %x_gm_at = ascend.global_at %x_gm[%{{.*}}] : !ascend.global_tensor<f32>
// CHECK:           ascend.data_copy_pad %x_local, %x_gm_at, %[[BYTES:.*]] blocks %current_num {dst_stride = 2 : i64} : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// CHECK:           %x_gm_at_run1 = ascend.global_at %x_gm[%{{.*}}] : !ascend.global_tensor<f32>
// CHECK-NEXT:      %x_run1 = ascend.local_at %x_local[%{{.*}}] : !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:      ascend.data_copy_pad %x_run1, %x_gm_at_run1, %[[BYTES]] blocks %current_num {dst_stride = 2 : i64} : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// CHECK:           ascend.whole_reduce_sum
// CHECK-NOT:     hsg.row_chunk
// CPP-LABEL: class SumNhw<float> {
// CPP:         AscendC::DataCopyPad(xLocal, xGm[chunkOffset * 16],
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 64, 0, 2),
// CPP:         AscendC::DataCopyPad(xLocal[16], xGm[chunkOffset * 16 + 768],
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 64, 0, 2),
// CPP:         AscendC::WholeReduceSum(tmpLocal, xLocal, 32, currentNum, 1, 1, 4);
// REMARK: convert-hsg-to-ascend-leading.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @sum_nhw_kernel_f32 (1 reduction along rows of 32 (2 runs of 16, 768 apart))
func.func @sum_nhw(%x: tensor<2x48x4x4xf32>) -> tensor<48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x48x4x4xf32>) outs(%init : tensor<48xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<48xf32>
  return %s : tensor<48xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// The same sum over 8 channels, fewer than the 48 cores, of rows too long for one kernel's UB
// (2 runs of 160 x 160): each run of 25600 is cut in 8 pieces of 3200 f32 (12,800 bytes, one
// DataCopyPad block): a partial kernel over 64 rows (2 runs of 3200, still 204800 apart) writes
// 64 f32 partials, and a second kernel sums each channel's 8 partials. (Where one kernel fits,
// the cost model decides: test_leading_reductions.)
// TILE-LABEL: func.func @sum_nhw_split(
// TILE:         %[[T:.*]] = arith.constant 64 : index
// TILE:         %partials = hsg.launch @sum_nhw_split_partial_kernel_f32 blocks %{{.*}} (%x) tiling(%{{.*}}) : tensor<2x8x160x160xf32> -> tensor<64xf32>
// TILE:         %{{.*}} = hsg.launch @sum_nhw_split_kernel_f32 blocks %{{.*}} (%partials) tiling(%{{.*}}) : tensor<64xf32> -> tensor<8xf32>
// TILE-LABEL: func.func @sum_nhw_split_partial_kernel_f32(
// TILE-SAME:    hsg.rows = {length = 6400 : i64, inputs = ["element"], outputs = ["row"], runs = 2 : i64, stride = 204800 : i64
// TILE:         hsg.reduce "addf"
// TILE-NEXT:    linalg.yield
// TILE-LABEL: func.func @sum_nhw_split_kernel_f32(
// TILE-SAME:    hsg.rows = {length = 8 : i64, inputs = ["element"], outputs = ["row"]}
// TILE:         hsg.reduce "addf"
// CHECK-LABEL: func.func @sum_nhw_split_partial_kernel_f32(
// CHECK:         ascend.data_copy_pad %x_local, %x_gm_at, %[[BYTES:.*]] blocks %current_num {dst_stride = 400 : i64}
// CHECK:         ascend.data_copy_pad %x_run1, %x_gm_at_run1, %[[BYTES]] blocks %current_num {dst_stride = 400 : i64}
// CPP-LABEL: class SumNhwSplitPartial<float> {
// CPP:         AscendC::DataCopyPad(xLocal[3200], xGm[chunkOffset * 3200 + 204800],
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 12800, 0, 400),
// REMARK: convert-hsg-to-ascend-leading.mlir:[[# @LINE + 6]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @sum_nhw_split_partial_kernel_f32 (the first of two: 64 rows of partial results, each run of the 8 rows cut in 8 pieces for the 48 cores)
// REMARK: convert-hsg-to-ascend-leading.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @sum_nhw_split_kernel_f32 (1 reduction along rows of 51200 (2 runs of 25600, 204800 apart; its 8 partials a row combined))
func.func @sum_nhw_split(%x: tensor<2x8x160x160xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x8x160x160xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}
