// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// f16: Cast to f32 with CAST_NONE for x and grad, and back to half with CAST_NONE, over the
// chunk's currentNum elements (not the rounded-up computeNum).
func.func @hsg(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<half> xLocal = inputQueueX.DeQue<half>();
// CHECK-NEXT:          AscendC::LocalTensor<half> gradLocal = inputQueueGrad.DeQue<half>();
// CHECK-NEXT:          AscendC::LocalTensor<half> yLocal = outputQueueY.AllocTensor<half>();
// CHECK-NEXT:          AscendC::LocalTensor<float> xFp32 = xFp32Buf.Get<float>();
// CHECK-NEXT:          AscendC::LocalTensor<float> gradFp32 = gradFp32Buf.Get<float>();
// CHECK-NEXT:          AscendC::Cast(xFp32, xLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK-NEXT:          AscendC::Cast(gradFp32, gradLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK:               AscendC::Mul(slopeLocal, gradFp32, slopeLocal, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Cast(yLocal, slopeLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK-NEXT:          outputQueueY.EnQue(yLocal);

// -----

// bf16: widened with CAST_NONE, narrowed back with CAST_RINT (f32 -> bf16 has no CAST_NONE).
func.func @hsg(%grad: tensor<?xbf16>, %x: tensor<?xbf16>) -> tensor<?xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xbf16>
  func.return %y : tensor<?xbf16>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:               AscendC::LocalTensor<bfloat16_t> xLocal = inputQueueX.DeQue<bfloat16_t>();
// CHECK:               AscendC::Cast(xFp32, xLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK-NEXT:          AscendC::Cast(gradFp32, gradLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK:               AscendC::Mul(slopeLocal, gradFp32, slopeLocal, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Cast(yLocal, slopeLocal, AscendC::RoundMode::CAST_RINT, currentNum);

// -----

// f32: no copy and no Cast: the queue tensors are reinterpreted, and Mul writes y directly.
func.func @hsg(%grad: tensor<?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf32>
  func.return %y : tensor<?xf32>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<float> xLocal = inputQueueX.DeQue<float>();
// CHECK-NEXT:          AscendC::LocalTensor<float> gradLocal = inputQueueGrad.DeQue<float>();
// CHECK-NEXT:          AscendC::LocalTensor<float> yLocal = outputQueueY.AllocTensor<float>();
// CHECK-NEXT:          AscendC::LocalTensor<float> xFp32 = xLocal.ReinterpretCast<float>();
// CHECK-NEXT:          AscendC::LocalTensor<float> gradFp32 = gradLocal.ReinterpretCast<float>();
// CHECK-NOT:           AscendC::Cast(
// CHECK:               AscendC::LocalTensor<float> yFp32 = yLocal.ReinterpretCast<float>();
// CHECK-NEXT:          AscendC::Mul(yFp32, gradFp32, slopeLocal, computeNum);
// CHECK-NEXT:          outputQueueY.EnQue(yLocal);
