// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' -t ascendc | filecheck %s --check-prefix=CPP

// f16 softmax over rows of 64 (pitch 64: one f32 repeat a row): the chunk's rows copied in as
// one DataCopyPad of current_num blocks of 128 bytes, the max and the sum one WholeReduce
// each (no fold: a row is one repeat), each row value spread by Brcb and read by a level-0
// Sub / Div with src1 block stride 0 and repeat stride 1 (its row's 32-byte block). No
// schedule option: the cost model chose depth-2 queues (recorded as hsg.schedule).
// CHECK-LABEL: func.func @softmax_kernel_f16(
// CHECK-SAME:    hsg.schedule = {options = "double-buffer=true
// CHECK:         %x_gm = ascend.set_global_buffer %x[%{{.*}}], %{{.*}} : memref<?xf16> -> !ascend.global_tensor<f16>
// CHECK:         %input_queue_x = ascend.tque : !ascend.tque<vecin, 2>
// CHECK:         scf.for %i = %{{.*}} to %loop_count step %{{.*}} {
// CHECK:           ascend.data_copy_pad %x_local, %x_gm_at, %[[ROW_BYTES:.*]] blocks %current_num : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
// CHECK:           ascend.cast %x_fp32, %{{.*}}, cast_none, %chunk_elements
// CHECK:           ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.whole_reduce_max %[[ROW:.*]], %x_fp32, %{{.*}}, %current_num {dst_rep_stride = 1 : i64, src_blk_stride = 1 : i64, src_rep_stride = 8 : i64}
// CHECK:           ascend.brcb %[[SPREAD:.*]], %[[ROW]], %{{.*}} {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64}
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.sub_repeat %[[E:.*]], %x_fp32, %[[SPREAD]], %{{.*}}, %current_num {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 0 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 1 : i64}
// CHECK:           ascend.exp %[[E]], %[[E]]
// CHECK:           ascend.whole_reduce_sum %[[ROW]], %[[E]], %{{.*}}, %current_num
// CHECK:           ascend.div_repeat %[[E]], %[[E]], %{{.*}}, %{{.*}}, %current_num
// CHECK:           ascend.cast %y_local, %[[E]], cast_none, %chunk_elements
// CHECK:           ascend.data_copy_pad %y_gm_at, %{{.*}}, %[[ROW_BYTES]] blocks %current_num : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
// CHECK-NOT:     hsg.row_chunk
// CPP-LABEL: class Softmax<half> {
// CPP:         AscendC::DataCopyPad(xLocal, xGm[chunkOffset * 64],
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 128, 0, 0),
// CPP:         AscendC::WholeReduceMax(tmpLocal, xFp32, 64, currentNum, 1, 1, 8,
// CPP-NEXT:        AscendC::ReduceOrder::ORDER_ONLY_VALUE);
// CPP:         AscendC::Brcb(tmpSpreadLocal, tmpLocal, CeilDiv(currentNum, 8),
// CPP-NEXT:        AscendC::BrcbRepeatParams(1, 8));
// CPP:         AscendC::Sub({{.*}}, xFp32, tmpSpreadLocal, 64, currentNum,
// CPP-NEXT:        AscendC::BinaryRepeatParams(1, 1, 0, 8, 8, 1));
// CPP:         AscendC::WholeReduceSum(tmpLocal, {{.*}}, 64, currentNum, 1, 1, 8);
// CPP:         AscendC::DataCopyPad(yGm[chunkOffset * 64], yLocal,
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 128, 0, 0));
func.func @softmax(%x: tensor<300x64xf16>) -> tensor<300x64xf16> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<300x64xf16>
  return %y : tensor<300x64xf16>
}

// -----

// f32 layer_norm over rows of 100 (pitch 112, 14 blocks): a row copied as 400 bytes padded to
// 416, then a gap of one block (dst_stride 1; src_stride 1 on the way out); the weight and the
// bias copied into UB once, before the chunk loop; each sum first folds group 1 (36 valid
// lanes) into group 0 in a copy of its source (read again after), then WholeReduceSum reads
// 64 lanes of each row 14 blocks apart; the columns reach every row with repeat stride 0.
// CHECK-LABEL: func.func @layer_norm_kernel_f32(
// CHECK:         %w_gm = ascend.set_global_buffer %w[%{{.*}}], %{{.*}} : memref<?xf32> -> !ascend.global_tensor<f32>
// CHECK:         ascend.data_copy_pad %w_local, %w_gm, %{{.*}} : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// CHECK:         ascend.data_copy_pad %b_local, %b_gm, %{{.*}} : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// CHECK-NEXT:    ascend.pipe_barrier pipe_all
// CHECK-NEXT:    scf.for %i = %{{.*}} to %loop_count step %{{.*}} {
// CHECK:           ascend.data_copy_pad %x_local, %x_gm_at, %{{.*}} blocks %current_num {dst_stride = 1 : i64}
// CHECK:           ascend.data_copy %fold_local, %{{.*}}, %chunk_elements
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK:           %fold_local_at64 = ascend.local_at %fold_local[%{{.*}}]
// CHECK:           ascend.add_repeat %fold_local, %fold_local, %fold_local_at64, %c36, %current_num {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 14 : i64, src0_rep_stride = 14 : i64, src1_rep_stride = 14 : i64}
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.whole_reduce_sum %{{.*}}, %fold_local, %{{.*}}, %current_num {dst_rep_stride = 1 : i64, src_blk_stride = 1 : i64, src_rep_stride = 14 : i64}
// CHECK:           ascend.mul_repeat %{{.*}}, %{{.*}}, %w_local, %{{.*}}, %current_num {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 14 : i64, src0_rep_stride = 14 : i64, src1_rep_stride = 0 : i64}
// CHECK:           ascend.add_repeat %y_local_at64, %{{.*}}, %b_local_at64, %{{.*}}, %current_num
// CHECK:           ascend.data_copy_pad %y_gm_at, %{{.*}}, %{{.*}} blocks %current_num {src_stride = 1 : i64}
// CPP-LABEL: class LayerNorm<float> {
// CPP:         AscendC::DataCopyPad(xLocal, xGm[chunkOffset * 100],
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 400, 0, 1),
// CPP:         AscendC::DataCopy(foldLocal, xLocal, chunkElements);
// CPP:         AscendC::Add(foldLocal, foldLocal, foldLocalAt64, 36, currentNum,
// CPP-NEXT:        AscendC::BinaryRepeatParams(1, 1, 1, 14, 14, 14));
// CPP-NEXT:    AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT:    AscendC::WholeReduceSum(tmpLocal, foldLocal, 64, currentNum, 1, 1, 14);
// CPP:         AscendC::Mul({{.*}}, {{.*}}, wLocal, 64, currentNum,
// CPP-NEXT:        AscendC::BinaryRepeatParams(1, 1, 1, 14, 14, 0));
// CPP:         AscendC::DataCopyPad(yGm[chunkOffset * 100], yLocal,
// CPP-NEXT:        AscendC::DataCopyParams(currentNum, 400, 1, 0));
func.func @layer_norm(%x: tensor<16x100xf32>, %w: tensor<100xf32>, %b: tensor<100xf32>) -> tensor<16x100xf32> {
  %y = hsg.layer_norm %x, %w, %b {epsilon = 1.0e-05 : f32} : tensor<16x100xf32>, tensor<100xf32>, tensor<100xf32>
  return %y : tensor<16x100xf32>
}

// -----

// rms_norm over rows of 20,000 f32, longer than one row of its buffers: one row a chunk in
// segments of 6720 (the cost model's choice, hswc.passes.row_segment_choice: 2 full ones in
// an scf.for, then the last 6560 elements; the longest a chunk holds is 6912). The sum's
// accumulator starts at -0.0; its pass folds each segment, WholeReduceSum, and adds the result
// to the accumulator; the outputs' pass copies each segment of the weight in between PIPE_ALL
// barriers and reads the sum as the accumulator copied into the reduction's row buffer.
// CHECK-LABEL: func.func @rms_norm_long_kernel_f32(
// CHECK-SAME:    hsg.rows = {length = 20000 : i64, inputs = ["element", "column"], outputs = ["element"], one_per_chunk, segment = 6720 : i64}
// CHECK:         scf.for %i = %{{.*}} to %loop_count step %{{.*}} {
// CHECK:           %[[ACC:.*]] = ascend.tbuf_get %tmp_acc_buf
// CHECK:           ascend.duplicate %[[ACC]], -0.000000e+00 : f32, %{{.*}} : !ascend.local_tensor<f32, veccalc>
// CHECK:           scf.for %[[SEG:.*]] = %{{.*}} to %[[TWO:.*]] step %{{.*}} {
// CHECK:             %[[START:.*]] = arith.muli %[[SEG]], %{{.*}} : index
// CHECK:             %[[AT:.*]] = arith.addi %{{.*}}, %[[START]] : index
// CHECK-NEXT:        %x_gm_at = ascend.global_at %x_gm[%[[AT]]]
// CHECK:             ascend.whole_reduce_sum %[[SUM:.*]], %{{.*}}, %{{.*}}, %current_num
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.add %[[ACC]], %[[ACC]], %[[SUM]], %current_num
// CHECK-NOT:         ascend.data_copy_pad %y_gm_at
// CHECK:           }
// CHECK:           ascend.whole_reduce_sum
// CHECK:           ascend.add %[[ACC]], %[[ACC]],
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[TWO]] step %{{.*}} {
// CHECK:             ascend.pipe_barrier pipe_all
// CHECK-NEXT:        %w_gm_at = ascend.global_at %w_gm[%{{.*}}]
// CHECK-NEXT:        %{{.*}} = arith.constant 26880 : index
// CHECK-NEXT:        ascend.data_copy_pad %w_local, %w_gm_at, %{{.*}} :
// CHECK-NEXT:        ascend.pipe_barrier pipe_all
// CHECK:             ascend.data_copy %{{.*}}, %[[ACC]], %{{.*}} :
// CHECK:             ascend.data_copy_pad %y_gm_at, %{{.*}}, %{{.*}} blocks %current_num
// CHECK:           }
// CHECK:           ascend.data_copy_pad %w_local, %{{.*}}, %[[TAIL:.*]] :
// CHECK:           ascend.data_copy_pad %y_gm_at_1, %{{.*}}, %[[TAIL]] blocks %current_num
// CHECK-NOT:     hsg.row_chunk
// CPP-LABEL: class RmsNormLong<float> {
// CPP:         for (int64_t segment = 0; segment < 2; ++segment) {
// CPP-NEXT:        int64_t segmentStart = segment * 6720;
func.func @rms_norm_long(%x: tensor<2x20000xf32>, %w: tensor<20000xf32>) -> tensor<2x20000xf32> {
  %y = hsg.rms_norm %x, %w {epsilon = 1.0e-06 : f32} : tensor<2x20000xf32>, tensor<20000xf32>
  return %y : tensor<2x20000xf32>
}
