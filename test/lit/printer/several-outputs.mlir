// RUN: hswc-opt %s --lower-to-ascend -t ascendc | filecheck %s

// A kernel of two outputs, f16 and f32: the entry and Init take both GM outputs, each has its
// GlobalTensor, VECOUT queue and CopyOut stage.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_wide(%x: tensor<4x1000xf16>) -> (tensor<4x1000xf16>, tensor<4x1000xf32>) {
  %e0 = tensor.empty() : tensor<4x1000xf16>
  %e1 = tensor.empty() : tensor<4x1000xf32>
  %relu, %wide = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x1000xf16>) outs(%e0, %e1 : tensor<4x1000xf16>, tensor<4x1000xf32>) {
  ^bb0(%in: f16, %o0: f16, %o1: f32):
    %c0 = arith.constant 0.0 : f16
    %m = arith.maximumf %in, %c0 : f16
    %w = arith.extf %in : f16 to f32
    linalg.yield %m, %w : f16, f32
  } -> (tensor<4x1000xf16>, tensor<4x1000xf32>)
  return %relu, %wide : tensor<4x1000xf16>, tensor<4x1000xf32>
}
// CHECK:       #define RELUWIDE_TPL_SCH_MODE_FP16_TO_FP16_FP32 0
// CHECK:       // @relu_wide_kernel_f16_to_f16_f32: the f16_to_f16_f32 kernel, tiling key 0.
// CHECK:           __aicore__ inline void Init(GM_ADDR x, GM_ADDR relu, GM_ADDR wide,
// CHECK-NEXT:          const ReluWideTilingData* tilingData)
// CHECK:                   reluGm.SetGlobalBuffer((__gm__ half*)relu + blockOffset, blockLength);
// CHECK-NEXT:              wideGm.SetGlobalBuffer((__gm__ float*)wide + blockOffset, blockLength);
// CHECK:                   pipe.InitBuffer(outputQueueRelu, 2, halfBytes);
// CHECK:                   pipe.InitBuffer(outputQueueWide, 2, floatBytes);
// CHECK:                       CopyOut(chunkOffset, halfCopyBytes);
// CHECK-NEXT:                  CopyOut2(chunkOffset, floatCopyBytes);
// CHECK:           outputQueueRelu.EnQue(reluLocal);
// CHECK-NEXT:      outputQueueWide.EnQue(wideLocal);
// CHECK:           __aicore__ inline void CopyOut(int64_t chunkOffset, int64_t halfCopyBytes)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<half> reluLocal = outputQueueRelu.DeQue<half>();
// CHECK-NEXT:          AscendC::DataCopyPad(reluGm[chunkOffset], reluLocal,
// CHECK:           __aicore__ inline void CopyOut2(int64_t chunkOffset, int64_t floatCopyBytes)
// CHECK-NEXT:      {
// CHECK-NEXT:          AscendC::LocalTensor<float> wideLocal = outputQueueWide.DeQue<float>();
// CHECK-NEXT:          AscendC::DataCopyPad(wideGm[chunkOffset], wideLocal,
// CHECK:       __global__ __aicore__ void relu_wide(GM_ADDR x, GM_ADDR relu, GM_ADDR wide, GM_ADDR workspace, GM_ADDR tiling)
