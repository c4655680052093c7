// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// The reference kernel's slope: Compare against constant tensors (GT -3, LT 3) over computeNum
// = roundup(currentNum, 64) lanes, Muls by 0.333333343f (all 9 digits, as the IR and ops-nn
// spell it; short values keep their short spelling), Adds 0.5f, then Select in tensor-tensor
// mode with 0, then with 1.
func.func @hsg(%grad: tensor<?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf32>
  func.return %y : tensor<?xf32>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:               AscendC::LocalTensor<uint8_t> lessMask = lessMaskBuf.Get<uint8_t>();
// CHECK-NEXT:          int64_t computeNum = CeilDiv(currentNum, 64) * 64;
// CHECK-NEXT:          AscendC::Compare(greaterMask, xFp32, lowerLocal, AscendC::CMPMODE::GT, computeNum);
// CHECK-NEXT:          AscendC::Compare(lessMask, xFp32, upperLocal, AscendC::CMPMODE::LT, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Muls(slopeLocal, xFp32, 0.333333343f, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Adds(slopeLocal, slopeLocal, 0.5f, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Select(slopeLocal, greaterMask, slopeLocal, zeroLocal,
// CHECK-NEXT:              AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Select(slopeLocal, lessMask, slopeLocal, oneLocal,
// CHECK-NEXT:              AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();

// -----

// CompareScalar, and Select with a scalar second source (VSEL_TENSOR_SCALAR_MODE), as a kernel
// variant without constant buffers writes them; scalars keep the tensor's dtype.
func.func @hard_swish_grad_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 0 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f16(%grad: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %pipe = ascend.tpipe
  %mask_buf = ascend.tbuf : !ascend.tbuf<veccalc>
  %x_buf = ascend.tbuf : !ascend.tbuf<veccalc>
  %mask = ascend.tbuf_get %mask_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
  %x_local = ascend.tbuf_get %x_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f16, veccalc>
  ascend.compare_scalar %mask, %x_local, -3.000000e+00 : f16, gt, %ub_factor : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.select %x_local, %mask, %x_local, 5.000000e-01 : f16, vsel_tensor_scalar_mode, %ub_factor : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.compare_scalar %mask, %x_local, 3.000000e+00 : f16, le, %ub_factor : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.select %x_local, %mask, %x_local, %x_local, vsel_cmpmask_spr, %ub_factor : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}

// CHECK-LABEL: class HardSwishGrad<half> {
// CHECK:               AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
// CHECK-NEXT:          AscendC::LocalTensor<half> xLocal = xBuf.Get<half>();
// CHECK-NEXT:          AscendC::CompareScalar(mask, xLocal, static_cast<half>(-3.0f), AscendC::CMPMODE::GT,
// CHECK-NEXT:              ubFactor);
// CHECK-NEXT:          AscendC::Select(xLocal, mask, xLocal, static_cast<half>(0.5f),
// CHECK-NEXT:              AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, ubFactor);
// CHECK-NEXT:          AscendC::CompareScalar(mask, xLocal, static_cast<half>(3.0f), AscendC::CMPMODE::LE,
// CHECK-NEXT:              ubFactor);
// CHECK-NEXT:          AscendC::Select(xLocal, mask, xLocal, xLocal, AscendC::SELMODE::VSEL_CMPMASK_SPR, ubFactor);
// CHECK-NEXT:      }
