// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// Integer tensors in C++: int32_t / int8_t LocalTensors, integer scalars, Casts by mode.

// torch.relu on int32: Maxs on int32_t with the integer scalar 0.
func.func @relu(%x: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%d) : tensor<?xi32>
  %zero = arith.constant 0 : i32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %m = arith.maxsi %a, %zero : i32
    linalg.yield %m : i32
  } -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:           AscendC::LocalTensor<int32_t> xLocal = inputQueueX.DeQue<int32_t>();
// CHECK:           AscendC::Maxs(rInt32, xInt32, static_cast<int32_t>(0), computeNum);
// CHECK-NEXT:      outputQueueR.EnQue(rLocal);

// -----

// torch.clamp(x, -5, 7) on int8: A2/A3 has no int8_t Max or Min, so half holds the values
// between one exact Cast in and one out.
func.func @clamp(%x: tensor<?xi8>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi8>
  %e = tensor.empty(%d) : tensor<?xi8>
  %lo = arith.constant -5 : i8
  %hi = arith.constant 7 : i8
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi8>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i8, %o: i8):
    %m = arith.maxsi %a, %lo : i8
    %n = arith.minsi %m, %hi : i8
    linalg.yield %n : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:           AscendC::LocalTensor<int8_t> xLocal = inputQueueX.DeQue<int8_t>();
// CHECK:           AscendC::Cast(xFp16Local, xLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK:           AscendC::Maxs(xFp16Local, xFp16Local, static_cast<half>(-5.0f), computeNum);
// CHECK-NEXT:      AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:      AscendC::Mins(xFp16Local, xFp16Local, static_cast<half>(7.0f), computeNum);
// CHECK-NEXT:      AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:      AscendC::LocalTensor<int8_t> rLocal = outputQueueR.AllocTensor<int8_t>();
// CHECK-NEXT:      AscendC::Cast(rLocal, xFp16Local, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK-NEXT:      outputQueueR.EnQue(rLocal);

// -----

// A static int8 quantization of f32: round(x * 16 + 3), clamped, to int8. roundeven is
// Cast f32 -> f32 CAST_RINT; fptosi to int8 is CAST_TRUNC to an integral f32, to half, to int8.
func.func @quantize(%x: tensor<?xf32>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xi8>
  %s = arith.constant 16.0 : f32
  %off = arith.constant 3.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: f32, %o: i8):
    %m = arith.mulf %a, %s : f32
    %p = arith.addf %m, %off : f32
    %q = math.roundeven %p : f32
    %u = arith.maximumf %q, %lo : f32
    %v = arith.minimumf %u, %hi : f32
    %i = arith.fptosi %v : f32 to i8
    linalg.yield %i : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:           AscendC::Cast(qLocal, {{xLocal|mLocal}}, AscendC::RoundMode::CAST_RINT, currentNum);
// CHECK:           AscendC::Cast([[I:[a-zA-Z0-9]+]], qLocal, AscendC::RoundMode::CAST_TRUNC, currentNum);
// CHECK-NEXT:      AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:      AscendC::Cast(iF16Local, [[I]], AscendC::RoundMode::CAST_TRUNC, currentNum);
// CHECK-NEXT:      AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:      AscendC::LocalTensor<int8_t> rLocal = outputQueueR.AllocTensor<int8_t>();
// CHECK-NEXT:      AscendC::Cast(rLocal, iF16Local, AscendC::RoundMode::CAST_TRUNC, currentNum);
