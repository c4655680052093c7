// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// Process: the same guard as Init, the chunk loop, its leading scalars, then one call per
// pipeline stage; the body is split where a run of DeQues starts, and each stage receives the
// loop values it reads as arguments.
func.func @hsg(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}

// CHECK-LABEL: __aicore__ inline void Process()
// CHECK-NEXT:      {
// CHECK-NEXT:          if (blockLength > 0 && ubFactor > 0) {
// CHECK-NEXT:              for (int64_t i = 0; i < loopCount; ++i) {
// CHECK-NEXT:                  int64_t chunkOffset = i * ubFactor;
// CHECK-NEXT:                  int64_t currentNum = Min(ubFactor, blockLength - chunkOffset);
// CHECK-NEXT:                  int64_t copyBytes = currentNum * 2;
// CHECK-NEXT:                  CopyIn(chunkOffset, copyBytes);
// CHECK-NEXT:                  Compute(currentNum);
// CHECK-NEXT:                  CopyOut(chunkOffset, copyBytes);
// CHECK-NEXT:              }
// CHECK-NEXT:          }
// CHECK-NEXT:      }
// CHECK-EMPTY:
// CHECK-NEXT:  private:
// CHECK-NEXT:      __aicore__ inline void CopyIn(int64_t chunkOffset, int64_t copyBytes)
// CHECK:           __aicore__ inline void Compute(int64_t currentNum)
// CHECK:           __aicore__ inline void CopyOut(int64_t chunkOffset, int64_t copyBytes)

// -----

// A hand-written loop over GetBlockNum(): the bound, the step and the stage arguments all come
// from the IR; a value Init computes and the loop reads becomes a member.
func.func @hard_swish_grad_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %ub_size, %core_num, %tiling_key : index, index, index, index, index
}
func.func @hard_swish_grad_kernel_f32(%grad: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index) attributes {hsg.kernel} {
  %block_num = ascend.get_block_num
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %x_gm = ascend.set_global_buffer %x[%c0], %total_num : memref<?xf32> -> !ascend.global_tensor<f32>
  %y_gm = ascend.set_global_buffer %y[%c0], %total_num : memref<?xf32> -> !ascend.global_tensor<f32>
  %pipe = ascend.tpipe
  %in_queue = ascend.tque : !ascend.tque<vecin, 2>
  %out_queue = ascend.tque : !ascend.tque<vecout, 2>
  scf.for %i = %c0 to %block_num step %c2 {
    %offset = arith.muli %i, %ub_factor : index
    %x_local = ascend.alloc_tensor %in_queue : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f32, vecin>
    %x_at = ascend.global_at %x_gm[%offset] : !ascend.global_tensor<f32>
    ascend.data_copy %x_local, %x_at, %ub_factor : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
    ascend.enque %in_queue, %x_local : !ascend.tque<vecin, 2>, !ascend.local_tensor<f32, vecin>
    %x_in = ascend.deque %in_queue : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f32, vecin>
    %y_local = ascend.alloc_tensor %out_queue : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f32, vecout>
    ascend.muls %y_local, %x_in, 2.000000e+00 : f32, %ub_factor : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecin>
    ascend.enque %out_queue, %y_local : !ascend.tque<vecout, 2>, !ascend.local_tensor<f32, vecout>
    ascend.free_tensor %in_queue, %x_in : !ascend.tque<vecin, 2>, !ascend.local_tensor<f32, vecin>
    %y_out = ascend.deque %out_queue : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f32, vecout>
    %y_at = ascend.global_at %y_gm[%offset] : !ascend.global_tensor<f32>
    ascend.data_copy %y_at, %y_out, %ub_factor : !ascend.global_tensor<f32>, !ascend.local_tensor<f32, vecout>
    ascend.free_tensor %out_queue, %y_out : !ascend.tque<vecout, 2>, !ascend.local_tensor<f32, vecout>
  }
  func.return
}

// CHECK-LABEL: class HardSwishGrad<float> {
// CHECK:               ubFactor = tilingData->ubFactor;
// CHECK-NEXT:          blockNum = AscendC::GetBlockNum();
// CHECK:           __aicore__ inline void Process()
// CHECK-NEXT:      {
// CHECK-NEXT:          for (int64_t i = 0; i < blockNum; i += 2) {
// CHECK-NEXT:              int64_t offset = i * ubFactor;
// CHECK-NEXT:              CopyIn(offset);
// CHECK-NEXT:              Compute();
// CHECK-NEXT:              CopyOut(offset);
// CHECK-NEXT:          }
// CHECK-NEXT:      }
// CHECK:           __aicore__ inline void Compute()
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<float> xIn = inQueue.DeQue<float>();
// CHECK-NEXT:          AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
// CHECK-NEXT:          AscendC::Muls(yLocal, xIn, 2.0f, ubFactor);
// CHECK-NEXT:          outQueue.EnQue(yLocal);
// CHECK-NEXT:          inQueue.FreeTensor(xIn);
// CHECK-NEXT:      }
// CHECK:           int64_t ubFactor = 0;
// CHECK-NEXT:      int64_t blockNum = 0;
