// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// CopyIn / CopyOut of the reference kernel: DataCopyPad with a byte length (currentNum * 2 for
// f16) and no padding value on the way in, the same length on the way out; the GM side is the
// core's GlobalTensor at the chunk's offset.
func.func @hsg(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}

// CHECK-LABEL: __aicore__ inline void CopyIn(int64_t chunkOffset, int64_t copyBytes)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<half> xLocal = inputQueueX.AllocTensor<half>();
// CHECK-NEXT:          AscendC::LocalTensor<half> gradLocal = inputQueueGrad.AllocTensor<half>();
// CHECK-NEXT:          AscendC::DataCopyPad(xLocal, xGm[chunkOffset], AscendC::DataCopyParams(1, copyBytes, 0, 0),
// CHECK-NEXT:              AscendC::DataCopyPadParams(false, 0, 0, 0));
// CHECK-NEXT:          AscendC::DataCopyPad(gradLocal, gradGm[chunkOffset],
// CHECK-NEXT:              AscendC::DataCopyParams(1, copyBytes, 0, 0),
// CHECK-NEXT:              AscendC::DataCopyPadParams(false, 0, 0, 0));
// CHECK-NEXT:          inputQueueX.EnQue(xLocal);
// CHECK-NEXT:          inputQueueGrad.EnQue(gradLocal);
// CHECK-NEXT:      }
// CHECK-LABEL: __aicore__ inline void CopyOut(int64_t chunkOffset, int64_t copyBytes)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<half> yLocal = outputQueueY.DeQue<half>();
// CHECK-NEXT:          AscendC::DataCopyPad(yGm[chunkOffset], yLocal, AscendC::DataCopyParams(1, copyBytes, 0, 0));
// CHECK-NEXT:          outputQueueY.FreeTensor(yLocal);
// CHECK-NEXT:      }

// -----

// DataCopy (32-byte multiples, a count of elements) both ways, and DataCopyPad with a padding
// value, which takes the typed DataCopyPadExtParams of the tensor's dtype.
func.func @hard_swish_grad_tiling_bf16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 2 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_bf16(%grad: memref<?xbf16>, %x: memref<?xbf16>, %y: memref<?xbf16>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %c16 = arith.constant 16 : index
  %c6 = arith.constant 6 : index
  %x_gm = ascend.set_global_buffer %x[%block_factor], %total_num : memref<?xbf16> -> !ascend.global_tensor<bf16>
  %y_gm = ascend.set_global_buffer %y[%block_factor], %total_num : memref<?xbf16> -> !ascend.global_tensor<bf16>
  %pipe = ascend.tpipe
  %in_queue = ascend.tque : !ascend.tque<vecin, 1>
  %out_queue = ascend.tque : !ascend.tque<vecout, 1>
  %x_local = ascend.alloc_tensor %in_queue : !ascend.tque<vecin, 1> -> !ascend.local_tensor<bf16, vecin>
  ascend.data_copy %x_local, %x_gm, %c16 : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
  ascend.data_copy_pad %x_local, %x_gm, %c6 pad 1.000000e+00 : bf16 : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
  %y_local = ascend.alloc_tensor %out_queue : !ascend.tque<vecout, 1> -> !ascend.local_tensor<bf16, vecout>
  ascend.data_copy %y_gm, %y_local, %c16 : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecout>
  func.return
}

// CHECK-LABEL: class HardSwishGrad<bfloat16_t> {
// CHECK:               xGm.SetGlobalBuffer((__gm__ bfloat16_t*)x + blockFactor, totalNum);
// CHECK:               AscendC::DataCopy(xLocal, xGm, 16);
// CHECK-NEXT:          AscendC::DataCopyPad(xLocal, xGm, AscendC::DataCopyExtParams(1, 6, 0, 0, 0),
// CHECK-NEXT:              AscendC::DataCopyPadExtParams<bfloat16_t>(true, 0, 0, static_cast<bfloat16_t>(1.0f)));
// CHECK-NEXT:          AscendC::LocalTensor<bfloat16_t> yLocal = outQueue.AllocTensor<bfloat16_t>();
// CHECK-NEXT:          AscendC::DataCopy(yGm, yLocal, 16);
