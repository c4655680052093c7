// RUN: hswc-opt %s -t ascendc | filecheck %s

// Every op of the ascend dialect in one kernel, as kernel variants may combine them (double
// buffering, an L2 cache hint, CompareScalar, Compares, Select with a scalar, DataCopy both ways and UB -> UB, GetBlockNum,
// PIPE_ALL, a padded copy, the arithmetic and bitwise families on half, float and a mask seen as
// uint16_t / int16_t): each prints by its rule. test_cpu_build.py checks that this module uses every op of the
// dialect and that its C++ compiles warning-free against the CPU model of AscendC.

func.func @hard_swish_grad_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 0 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f16(%grad: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %block_idx = ascend.get_block_idx
  %block_num = ascend.get_block_num
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %offset = arith.muli %block_idx, %block_factor : index
  %x_gm = ascend.set_global_buffer %x[%offset], %block_factor : memref<?xf16> -> !ascend.global_tensor<f16>
  %y_gm = ascend.set_global_buffer %y[%offset], %block_factor : memref<?xf16> -> !ascend.global_tensor<f16>
  ascend.set_l2_cache_hint %x_gm, "disable" : !ascend.global_tensor<f16>
  %pipe = ascend.tpipe
  ascend.set_ctrl_spr <48 : i64, 48 : i64> (1 : i64)
  %in_queue = ascend.tque : !ascend.tque<vecin, 2>
  %out_queue = ascend.tque : !ascend.tque<vecout, 2>
  %f32_buf = ascend.tbuf : !ascend.tbuf<veccalc>
  %mask_buf = ascend.tbuf : !ascend.tbuf<veccalc>
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %half_bytes = arith.muli %ub_factor, %c2 : index
  %float_bytes = arith.muli %ub_factor, %c4 : index
  ascend.init_buffer %pipe, %in_queue, num 2, %half_bytes : !ascend.tque<vecin, 2>
  ascend.init_buffer %pipe, %out_queue, num 2, %half_bytes : !ascend.tque<vecout, 2>
  ascend.init_buffer %pipe, %f32_buf, %float_bytes : !ascend.tbuf<veccalc>
  ascend.init_buffer %pipe, %mask_buf, %float_bytes : !ascend.tbuf<veccalc>
  %loops = arith.ceildivsi %block_factor, %ub_factor : index
  scf.for %i = %c0 to %loops step %c1 {
    %chunk = arith.muli %i, %ub_factor : index
    %bytes = arith.muli %ub_factor, %c2 : index
    %x_local = ascend.alloc_tensor %in_queue : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f16, vecin>
    %x_at = ascend.global_at %x_gm[%chunk] : !ascend.global_tensor<f16>
    ascend.data_copy %x_local, %x_at, %ub_factor : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
    ascend.data_copy_pad %x_local, %x_at, %bytes pad 0.000000e+00 : f16 : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
    ascend.data_copy_pad %x_local, %x_at, %bytes : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
    %x_elem = ascend.global_get_value %x_gm[%chunk] : !ascend.global_tensor<f16> -> f16
    ascend.set_value %x_local[%chunk], %x_elem : !ascend.local_tensor<f16, vecin>, f16
    %x_part = ascend.local_at %x_local[%chunk] : !ascend.local_tensor<f16, vecin>
    %x_back = ascend.get_value %x_part[%chunk] : !ascend.local_tensor<f16, vecin> -> f16
    ascend.set_value %x_local[%chunk], %x_back : !ascend.local_tensor<f16, vecin>, f16
    ascend.duplicate_lanes %x_local, %chunk, %x_back : f16, %chunk : !ascend.local_tensor<f16, vecin>
    ascend.duplicate_lanes_repeat %x_local, %chunk, %chunk, %c1 {scalar = 0.0 : f16, dst_rep_stride = 8 : i64} : !ascend.local_tensor<f16, vecin>
    ascend.enque %in_queue, %x_local : !ascend.tque<vecin, 2>, !ascend.local_tensor<f16, vecin>
    %x_in = ascend.deque %in_queue : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f16, vecin>
    %y_local = ascend.alloc_tensor %out_queue : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f16, vecout>
    %wide = ascend.tbuf_get %f32_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
    %mask = ascend.tbuf_get %mask_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
    %same = ascend.reinterpret_cast %x_in : !ascend.local_tensor<f16, vecin> -> !ascend.local_tensor<f16, vecin>
    ascend.cast %wide, %same, cast_none, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
    ascend.pipe_barrier pipe_v
    ascend.duplicate %y_local, 1.000000e+00 : f16, %ub_factor : !ascend.local_tensor<f16, vecout>
    ascend.muls %wide, %wide, 3.000000e+00 : f32, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.adds %wide, %wide, 5.000000e-01 : f32, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.mul %wide, %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.add %wide, %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.sub %wide, %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.div %wide, %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.max %wide, %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.min %y_local, %same, %same, %ub_factor : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecin>
    ascend.maxs %wide, %wide, 0.000000e+00 : f32, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.mins %y_local, %same, 6.000000e+00 : f16, %ub_factor : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
    ascend.abs %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.exp %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.ln %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.sqrt %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.rsqrt %wide, %wide, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.relu %y_local, %y_local, %ub_factor : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
    ascend.data_copy %y_local, %same, %ub_factor : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
    ascend.compare %mask, %wide, %wide, ge, %ub_factor : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.compare_scalar %mask, %wide, 3.000000e+00 : f32, ne, %ub_factor : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.compares %mask, %wide, -3.000000e+00 : f32, le, %ub_factor : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
    %lanes = arith.constant 64 : index
    ascend.add_repeat %wide, %wide, %wide, %lanes, %c1 {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.sub_repeat %wide, %wide, %wide, %lanes, %c1 {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.mul_repeat %wide, %wide, %wide, %lanes, %c1 {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.div_repeat %wide, %wide, %wide, %lanes, %c1 {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.max_repeat %wide, %wide, %wide, %lanes, %c1 {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.min_repeat %wide, %wide, %wide, %lanes, %c1 {dst_blk_stride = 1 : i64, src0_blk_stride = 1 : i64, src1_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, src0_rep_stride = 8 : i64, src1_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.whole_reduce_sum %wide, %wide, %lanes, %c1 {dst_rep_stride = 1 : i64, src_blk_stride = 1 : i64, src_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.reduce_sum %wide, %wide, %wide, %lanes : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.whole_reduce_max %wide, %wide, %lanes, %c1 {dst_rep_stride = 1 : i64, src_blk_stride = 1 : i64, src_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.reduce_max %wide, %wide, %wide, %lanes : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.whole_reduce_min %wide, %wide, %lanes, %c1 {dst_rep_stride = 1 : i64, src_blk_stride = 1 : i64, src_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.reduce_min %wide, %wide, %wide, %lanes : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.brcb %wide, %wide, %c1 {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.set_flag v_s, 0
    ascend.wait_flag v_s, 0
    %bits = ascend.reinterpret_cast %mask : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
    %signed_bits = ascend.reinterpret_cast %mask : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<i16, veccalc>
    %c16 = arith.constant 16 : index
    %mask_words = arith.divsi %ub_factor, %c16 : index
    ascend.and %bits, %bits, %bits, %mask_words : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
    ascend.or %signed_bits, %signed_bits, %signed_bits, %mask_words : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
    ascend.not %bits, %bits, %mask_words : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
    ascend.shift_left %bits, %bits, 3 : ui16, %mask_words : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
    ascend.shift_right %signed_bits, %signed_bits, 2 : i16, %mask_words : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
    ascend.select %wide, %mask, %wide, %wide, vsel_tensor_tensor_mode, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.select %wide, %mask, %wide, 1.000000e+00 : f32, vsel_tensor_scalar_mode, %ub_factor : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
    ascend.cast %y_local, %wide, cast_rint, %ub_factor : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f32, veccalc>
    ascend.enque %out_queue, %y_local : !ascend.tque<vecout, 2>, !ascend.local_tensor<f16, vecout>
    ascend.free_tensor %in_queue, %x_in : !ascend.tque<vecin, 2>, !ascend.local_tensor<f16, vecin>
    %y_out = ascend.deque %out_queue : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f16, vecout>
    %y_at = ascend.global_at %y_gm[%chunk] : !ascend.global_tensor<f16>
    ascend.data_copy %y_at, %y_out, %ub_factor : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
    ascend.data_copy_pad %y_at, %y_out, %bytes : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
    ascend.free_tensor %out_queue, %y_out : !ascend.tque<vecout, 2>, !ascend.local_tensor<f16, vecout>
  }
  %idle = arith.cmpi eq, %block_num, %c0 : index
  scf.if %idle {
    ascend.pipe_barrier pipe_all
  } else {
    ascend.pipe_barrier pipe_v
  }
  func.return
}

// CHECK-LABEL: class HardSwishGrad<half> {
// CHECK:               int64_t blockIdx = AscendC::GetBlockIdx();
// CHECK-NEXT:          blockNum = AscendC::GetBlockNum();
// CHECK:               xGm.SetGlobalBuffer((__gm__ half*)x + offset, blockFactor);
// CHECK-NEXT:          yGm.SetGlobalBuffer((__gm__ half*)y + offset, blockFactor);
// CHECK-NEXT:          xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
// CHECK:           __aicore__ inline void Process()
// CHECK-NEXT:      {
// CHECK-NEXT:          for (int64_t i = 0; i < loops; ++i) {
// CHECK-NEXT:              int64_t chunk = i * ubFactor;
// CHECK-NEXT:              int64_t bytes = ubFactor * 2;
// CHECK-NEXT:              CopyIn(chunk, bytes);
// CHECK-NEXT:              Compute();
// CHECK-NEXT:              CopyOut(chunk, bytes);
// CHECK-NEXT:          }
// CHECK-NEXT:          bool idle = blockNum == 0;
// CHECK-NEXT:          if (idle) {
// CHECK-NEXT:              AscendC::PipeBarrier<PIPE_ALL>();
// CHECK-NEXT:          } else {
// CHECK-NEXT:              AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          }
// CHECK-NEXT:      }
// CHECK:           __aicore__ inline void CopyIn(int64_t chunk, int64_t bytes)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
// CHECK-NEXT:          AscendC::GlobalTensor<half> xAt = xGm[chunk];
// CHECK-NEXT:          AscendC::DataCopy(xLocal, xAt, ubFactor);
// CHECK:               half xElem = xGm.GetValue(chunk);
// CHECK-NEXT:          xLocal.SetValue(chunk, xElem);
// CHECK-NEXT:          half xBack = xLocal[chunk].GetValue(chunk);
// CHECK-NEXT:          xLocal.SetValue(chunk, xBack);
// CHECK-NEXT:          uint64_t laneMask[2] = {(~0ULL >> (64 - chunk)) << chunk, 0};
// CHECK-NEXT:          AscendC::Duplicate(xLocal, xBack, laneMask, 1, 1, 8);
// CHECK:               AscendC::Duplicate(xLocal, static_cast<half>(0.0f), laneMask{{.*}}, 1, 1, 8);
// CHECK:           __aicore__ inline void Compute()
// CHECK:               AscendC::LocalTensor<half> same = xIn.ReinterpretCast<half>();
// CHECK:               AscendC::Duplicate(yLocal, static_cast<half>(1.0f), ubFactor);
// CHECK-NEXT:          AscendC::Muls(wide, wide, 3.0f, ubFactor);
// CHECK-NEXT:          AscendC::Adds(wide, wide, 0.5f, ubFactor);
// CHECK-NEXT:          AscendC::Mul(wide, wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Add(wide, wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Sub(wide, wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Div(wide, wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Max(wide, wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Min(yLocal, same, same, ubFactor);
// CHECK-NEXT:          AscendC::Maxs(wide, wide, 0.0f, ubFactor);
// CHECK-NEXT:          AscendC::Mins(yLocal, same, static_cast<half>(6.0f), ubFactor);
// CHECK-NEXT:          AscendC::Abs(wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Exp(wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Ln(wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Sqrt(wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Rsqrt(wide, wide, ubFactor);
// CHECK-NEXT:          AscendC::Relu(yLocal, yLocal, ubFactor);
// CHECK-NEXT:          AscendC::DataCopy(yLocal, same, ubFactor);
// CHECK-NEXT:          AscendC::Compare(mask, wide, wide, AscendC::CMPMODE::GE, ubFactor);
// CHECK-NEXT:          AscendC::CompareScalar(mask, wide, 3.0f, AscendC::CMPMODE::NE, ubFactor);
// CHECK-NEXT:          AscendC::Compares(mask, wide, -3.0f, AscendC::CMPMODE::LE, ubFactor);
// CHECK-NEXT:          AscendC::Add(wide, wide, wide, 64, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));
// CHECK-NEXT:          AscendC::Sub(wide, wide, wide, 64, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));
// CHECK-NEXT:          AscendC::Mul(wide, wide, wide, 64, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));
// CHECK-NEXT:          AscendC::Div(wide, wide, wide, 64, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));
// CHECK-NEXT:          AscendC::Max(wide, wide, wide, 64, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));
// CHECK-NEXT:          AscendC::Min(wide, wide, wide, 64, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));
// CHECK-NEXT:          AscendC::WholeReduceSum(wide, wide, 64, 1, 1, 1, 8);
// CHECK-NEXT:          AscendC::ReduceSum(wide, wide, wide, 64);
// CHECK-NEXT:          AscendC::WholeReduceMax(wide, wide, 64, 1, 1, 1, 8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
// CHECK-NEXT:          AscendC::ReduceMax(wide, wide, wide, 64, false);
// CHECK-NEXT:          AscendC::WholeReduceMin(wide, wide, 64, 1, 1, 1, 8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
// CHECK-NEXT:          AscendC::ReduceMin(wide, wide, wide, 64, false);
// CHECK-NEXT:          AscendC::Brcb(wide, wide, 1, AscendC::BrcbRepeatParams(1, 8));
// CHECK-NEXT:          AscendC::SetFlag<AscendC::HardEvent::V_S>(0);
// CHECK-NEXT:          AscendC::WaitFlag<AscendC::HardEvent::V_S>(0);
// CHECK-NEXT:          AscendC::LocalTensor<uint16_t> bits = mask.ReinterpretCast<uint16_t>();
// CHECK-NEXT:          AscendC::LocalTensor<int16_t> signedBits = mask.ReinterpretCast<int16_t>();
// CHECK-NEXT:          int64_t maskWords = ubFactor / 16;
// CHECK-NEXT:          AscendC::And(bits, bits, bits, maskWords);
// CHECK-NEXT:          AscendC::Or(signedBits, signedBits, signedBits, maskWords);
// CHECK-NEXT:          AscendC::Not(bits, bits, maskWords);
// CHECK-NEXT:          AscendC::ShiftLeft(bits, bits, static_cast<uint16_t>(3), maskWords);
// CHECK-NEXT:          AscendC::ShiftRight(signedBits, signedBits, static_cast<int16_t>(2), maskWords);
// CHECK:               AscendC::Cast(yLocal, wide, AscendC::RoundMode::CAST_RINT, ubFactor);
// CHECK:           __aicore__ inline void CopyOut(int64_t chunk, int64_t bytes)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<half> yOut = outQueue.DeQue<half>();
// CHECK-NEXT:          AscendC::GlobalTensor<half> yAt = yGm[chunk];
// CHECK-NEXT:          AscendC::DataCopy(yAt, yOut, ubFactor);
// CHECK-NEXT:          AscendC::DataCopyPad(yAt, yOut, AscendC::DataCopyParams(1, bytes, 0, 0));
// CHECK-NEXT:          outQueue.FreeTensor(yOut);
// CHECK-NEXT:      }
