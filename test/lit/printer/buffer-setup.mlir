// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// The f16 kernel's Init: the core's slice, then the UB set-up the IR spells out: queue buffers of
// ubFactor * 2 bytes, f32 scratch of ubFactor * 4 bytes, masks of max(roundup256(ceil(ubFactor /
// 8)), 256) bytes, constants filled once with Duplicate. Objects live as class members.
func.func @hsg(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}

// CHECK-LABEL: class HardSwishGrad<half> {
// CHECK:           __aicore__ inline void Init(GM_ADDR grad, GM_ADDR x, GM_ADDR y,
// CHECK-NEXT:          const HardSwishGradTilingData* tilingData)
// CHECK-NEXT:      {
// CHECK-NEXT:          int64_t totalNum = tilingData->totalNum;
// CHECK-NEXT:          int64_t blockFactor = tilingData->blockFactor;
// CHECK-NEXT:          ubFactor = tilingData->ubFactor;
// CHECK-NEXT:          int64_t blockIdx = AscendC::GetBlockIdx();
// CHECK-NEXT:          int64_t blockOffset = blockFactor * blockIdx;
// CHECK-NEXT:          blockLength = Max(Min(blockFactor, totalNum - blockOffset), 0);
// CHECK-NEXT:          if (blockLength > 0 && ubFactor > 0) {
// CHECK-NEXT:              loopCount = CeilDiv(blockLength, ubFactor);
// CHECK-NEXT:              xGm.SetGlobalBuffer((__gm__ half*)x + blockOffset, blockLength);
// CHECK-NEXT:              gradGm.SetGlobalBuffer((__gm__ half*)grad + blockOffset, blockLength);
// CHECK-NEXT:              yGm.SetGlobalBuffer((__gm__ half*)y + blockOffset, blockLength);
// CHECK-NEXT:              int64_t tensorBytes = ubFactor * 2;
// CHECK-NEXT:              int64_t floatBytes = ubFactor * 4;
// CHECK-NEXT:              pipe.InitBuffer(inputQueueX, 1, tensorBytes);
// CHECK-NEXT:              pipe.InitBuffer(inputQueueGrad, 1, tensorBytes);
// CHECK-NEXT:              pipe.InitBuffer(outputQueueY, 1, tensorBytes);
// CHECK-NEXT:              pipe.InitBuffer(xFp32Buf, floatBytes);
// CHECK-NEXT:              pipe.InitBuffer(gradFp32Buf, floatBytes);
// CHECK-NEXT:              pipe.InitBuffer(slopeBuf, floatBytes);
// CHECK-NEXT:              pipe.InitBuffer(lowerBuf, floatBytes);
// CHECK-NEXT:              pipe.InitBuffer(upperBuf, floatBytes);
// CHECK-NEXT:              pipe.InitBuffer(zeroBuf, floatBytes);
// CHECK-NEXT:              pipe.InitBuffer(oneBuf, floatBytes);
// CHECK-NEXT:              int64_t maskBytes = Max(CeilDiv(CeilDiv(ubFactor, 8), 256) * 256, 256);
// CHECK-NEXT:              pipe.InitBuffer(greaterMaskBuf, maskBytes);
// CHECK-NEXT:              pipe.InitBuffer(lessMaskBuf, maskBytes);
// CHECK-NEXT:              AscendC::LocalTensor<float> lowerLocal = lowerBuf.Get<float>();
// CHECK-NEXT:              AscendC::Duplicate(lowerLocal, -3.0f, ubFactor);
// CHECK-NEXT:              AscendC::LocalTensor<float> upperLocal = upperBuf.Get<float>();
// CHECK-NEXT:              AscendC::Duplicate(upperLocal, 3.0f, ubFactor);
// CHECK-NEXT:              AscendC::LocalTensor<float> zeroLocal = zeroBuf.Get<float>();
// CHECK-NEXT:              AscendC::Duplicate(zeroLocal, 0.0f, ubFactor);
// CHECK-NEXT:              AscendC::LocalTensor<float> oneLocal = oneBuf.Get<float>();
// CHECK-NEXT:              AscendC::Duplicate(oneLocal, 1.0f, ubFactor);
// CHECK-NEXT:              AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          }
// CHECK-NEXT:      }

// What Init sets and the other methods read are members; TPipe/TQue/TBuf always are.
// CHECK:           int64_t ubFactor = 0;
// CHECK-NEXT:      int64_t blockLength = 0;
// CHECK-NEXT:      int64_t loopCount = 0;
// CHECK-NEXT:      AscendC::GlobalTensor<half> xGm;
// CHECK-NEXT:      AscendC::GlobalTensor<half> gradGm;
// CHECK-NEXT:      AscendC::GlobalTensor<half> yGm;
// CHECK-NEXT:      AscendC::TPipe pipe;
// CHECK-NEXT:      AscendC::TQue<AscendC::TPosition::VECIN, 1> inputQueueX;
// CHECK-NEXT:      AscendC::TQue<AscendC::TPosition::VECIN, 1> inputQueueGrad;
// CHECK-NEXT:      AscendC::TQue<AscendC::TPosition::VECOUT, 1> outputQueueY;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> xFp32Buf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> gradFp32Buf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> slopeBuf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> lowerBuf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> upperBuf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> zeroBuf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> oneBuf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> greaterMaskBuf;
// CHECK-NEXT:      AscendC::TBuf<AscendC::TPosition::VECCALC> lessMaskBuf;
// CHECK-NEXT:  };

// -----

// Double buffering: the queue depth and InitBuffer's count come from the tque type and the op,
// not from the printer; a kernel without a chunk loop has an empty Process, and an unused GM
// argument is left unnamed.
func.func @hard_swish_grad_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %pipe = ascend.tpipe
  %in_queue = ascend.tque : !ascend.tque<vecin, 2>
  %out_queue = ascend.tque : !ascend.tque<vecout, 3>
  %c4 = arith.constant 4 : index
  %bytes = arith.muli %ub_factor, %c4 : index
  ascend.init_buffer %pipe, %in_queue, num 2, %bytes : !ascend.tque<vecin, 2>
  ascend.init_buffer %pipe, %out_queue, num 3, %bytes : !ascend.tque<vecout, 3>
  func.return
}

// CHECK-LABEL: class HardSwishGrad<float> {
// CHECK:           __aicore__ inline void Init(GM_ADDR /* grad */, GM_ADDR /* x */, GM_ADDR /* y */,
// CHECK-NEXT:          const HardSwishGradTilingData* tilingData)
// CHECK-NEXT:      {
// CHECK-NEXT:          int64_t ubFactor = tilingData->ubFactor;
// CHECK-NEXT:          int64_t bytes = ubFactor * 4;
// CHECK-NEXT:          pipe.InitBuffer(inQueue, 2, bytes);
// CHECK-NEXT:          pipe.InitBuffer(outQueue, 3, bytes);
// CHECK-NEXT:      }
// CHECK-EMPTY:
// CHECK-NEXT:      __aicore__ inline void Process()
// CHECK-NEXT:      {
// CHECK-NEXT:      }
// CHECK-EMPTY:
// CHECK-NEXT:  private:
// CHECK-NEXT:      AscendC::TPipe pipe;
// CHECK-NEXT:      AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
// CHECK-NEXT:      AscendC::TQue<AscendC::TPosition::VECOUT, 3> outQueue;
// CHECK-NEXT:  };
