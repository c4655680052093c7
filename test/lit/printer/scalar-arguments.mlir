// RUN: hswc-opt %s --split-input-file -t ascendc | filecheck %s

// A kernel with two f32 scalar arguments (a LeakyRelu-style slope and a Softshrink-style bound):
// they are float fields of the tiling struct after the int64 ones, Init reads them, computes
// from them once (FMaximum, -x, the conversions to half) and keeps what Compute reads as members;
// Muls, CompareScalar, Select and Duplicate take those half values. test_interpreter_scalars.py
// and test_cpu_build_scalars.py run this module.
func.func @slope_clip(%x: tensor<?xf16>) -> tensor<?xf16> {
  %total_num = hsg.num_elements %x : tensor<?xf16>
  %core_num = hsg.get_core_num_aiv
  %ub_size = hsg.get_ub_size
  %total, %block_factor, %ub_factor, %used_core_num, %tiling_key = func.call @slope_clip_tiling_f16(%total_num, %core_num, %ub_size) : (index, index, index) -> (index, index, index, index, index)
  %negative_slope = arith.constant 2.500000e-01 : f32
  %lambd = arith.constant 1.100000e+00 : f32
  %y = hsg.launch @slope_clip_kernel_f16 blocks %used_core_num (%x) tiling(%total, %block_factor, %ub_factor) scalars(%negative_slope, %lambd : f32, f32) : tensor<?xf16> -> tensor<?xf16>
  func.return %y : tensor<?xf16>
}
func.func @slope_clip_tiling_f16(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %c1 = arith.constant 1 : index
  %cores = arith.maxsi %core_num, %c1 : index
  %share = arith.ceildivsi %total_num, %cores : index
  %block_factor = arith.maxsi %share, %c1 : index
  %used = arith.ceildivsi %total_num, %block_factor : index
  %used_core_num = arith.maxsi %used, %c1 : index
  %ub_factor = arith.constant 1024 : index
  %tiling_key = arith.constant 0 : index
  func.return %total_num, %block_factor, %ub_factor, %used_core_num, %tiling_key : index, index, index, index, index
}
func.func @slope_clip_kernel_f16(%x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index, %negative_slope: f32, %lambd: f32) attributes {hsg.kernel} {
  %zero = arith.constant 0.000000e+00 : f32
  %slope = arith.maximumf %negative_slope, %zero : f32
  %slope_half = arith.truncf %slope : f32 to f16
  %lambd_half = arith.truncf %lambd : f32 to f16
  %0 = arith.negf %lambd : f32
  %neg_lambd_half = arith.truncf %0 : f32 to f16
  %block_idx = ascend.get_block_idx
  %block_offset = arith.muli %block_factor, %block_idx : index
  %rest = arith.subi %total_num, %block_offset : index
  %share = arith.minsi %block_factor, %rest : index
  %c0 = arith.constant 0 : index
  %block_length = arith.maxsi %share, %c0 : index
  %has_work = arith.cmpi sgt, %block_length, %c0 : index
  scf.if %has_work {
    %loop_count = arith.ceildivsi %block_length, %ub_factor : index
    %c1 = arith.constant 1 : index
    %x_gm = ascend.set_global_buffer %x[%block_offset], %block_length : memref<?xf16> -> !ascend.global_tensor<f16>
    %y_gm = ascend.set_global_buffer %y[%block_offset], %block_length : memref<?xf16> -> !ascend.global_tensor<f16>
    %pipe = ascend.tpipe
    %in_queue = ascend.tque : !ascend.tque<vecin, 1>
    %out_queue = ascend.tque : !ascend.tque<vecout, 1>
    %lower_mask_buf = ascend.tbuf : !ascend.tbuf<veccalc>
    %upper_mask_buf = ascend.tbuf : !ascend.tbuf<veccalc>
    %bound_buf = ascend.tbuf : !ascend.tbuf<veccalc>
    %c2 = arith.constant 2 : index
    %tensor_bytes = arith.muli %ub_factor, %c2 : index
    %c8 = arith.constant 8 : index
    %mask_bytes = arith.ceildivsi %ub_factor, %c8 : index
    ascend.init_buffer %pipe, %in_queue, num 1, %tensor_bytes : !ascend.tque<vecin, 1>
    ascend.init_buffer %pipe, %out_queue, num 1, %tensor_bytes : !ascend.tque<vecout, 1>
    ascend.init_buffer %pipe, %lower_mask_buf, %mask_bytes : !ascend.tbuf<veccalc>
    ascend.init_buffer %pipe, %upper_mask_buf, %mask_bytes : !ascend.tbuf<veccalc>
    ascend.init_buffer %pipe, %bound_buf, %tensor_bytes : !ascend.tbuf<veccalc>
    %bound = ascend.tbuf_get %bound_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f16, veccalc>
    ascend.duplicate %bound, %lambd_half : f16, %ub_factor : !ascend.local_tensor<f16, veccalc>
    scf.for %i = %c0 to %loop_count step %c1 {
      %chunk_offset = arith.muli %i, %ub_factor : index
      %chunk_rest = arith.subi %block_length, %chunk_offset : index
      %current_num = arith.minsi %ub_factor, %chunk_rest : index
      %copy_bytes = arith.muli %current_num, %c2 : index
      %c128 = arith.constant 128 : index
      %blocks = arith.ceildivsi %current_num, %c128 : index
      %compute_num = arith.muli %blocks, %c128 : index
      %x_local = ascend.alloc_tensor %in_queue : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>
      %x_at = ascend.global_at %x_gm[%chunk_offset] : !ascend.global_tensor<f16>
      ascend.data_copy_pad %x_local, %x_at, %copy_bytes : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
      ascend.enque %in_queue, %x_local : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>
      %x_in = ascend.deque %in_queue : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>
      %y_local = ascend.alloc_tensor %out_queue : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f16, vecout>
      %lower_mask = ascend.tbuf_get %lower_mask_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
      %upper_mask = ascend.tbuf_get %upper_mask_buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
      ascend.muls %y_local, %x_in, %slope_half : f16, %current_num : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
      ascend.compare_scalar %lower_mask, %x_in, %neg_lambd_half : f16, ge, %compute_num : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>
      ascend.compare %upper_mask, %x_in, %bound, le, %compute_num : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, veccalc>
      ascend.pipe_barrier pipe_v
      ascend.select %y_local, %lower_mask, %y_local, %lambd_half : f16, vsel_tensor_scalar_mode, %current_num : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecout>
      ascend.pipe_barrier pipe_v
      ascend.select %y_local, %upper_mask, %y_local, %bound, vsel_tensor_tensor_mode, %current_num : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, veccalc>
      ascend.enque %out_queue, %y_local : !ascend.tque<vecout, 1>, !ascend.local_tensor<f16, vecout>
      ascend.free_tensor %in_queue, %x_in : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>
      %y_out = ascend.deque %out_queue : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f16, vecout>
      %y_at = ascend.global_at %y_gm[%chunk_offset] : !ascend.global_tensor<f16>
      ascend.data_copy_pad %y_at, %y_out, %copy_bytes : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
      ascend.free_tensor %out_queue, %y_out : !ascend.tque<vecout, 1>, !ascend.local_tensor<f16, vecout>
    }
  }
  func.return
}

// CHECK-LABEL: struct SlopeClipTilingData {
// CHECK-NEXT:      int64_t totalNum = 0;
// CHECK-NEXT:      int64_t blockFactor = 0;
// CHECK-NEXT:      int64_t ubFactor = 0;
// CHECK-NEXT:      float negativeSlope = 0;
// CHECK-NEXT:      float lambd = 0;
// CHECK-NEXT:  };
// CHECK:       // arith.maximumf: the larger of a and b; NaN if either is NaN, and -0 below +0.
// CHECK-NEXT:  __aicore__ inline float FMaximum(float a, float b)
// CHECK-NEXT:  {
// CHECK-NEXT:      if (a != a || b != b) {
// CHECK-NEXT:          return a != a ? a : b;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (a == b) {
// CHECK-NEXT:          return a == 0.0f ? a + b : a;
// CHECK-NEXT:      }
// CHECK-NEXT:      return a > b ? a : b;
// CHECK-NEXT:  }
// CHECK-LABEL: __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlopeClipTilingData* tilingData)
// CHECK-NEXT:      {
// CHECK-NEXT:          int64_t totalNum = tilingData->totalNum;
// CHECK-NEXT:          int64_t blockFactor = tilingData->blockFactor;
// CHECK-NEXT:          ubFactor = tilingData->ubFactor;
// CHECK-NEXT:          float negativeSlope = tilingData->negativeSlope;
// CHECK-NEXT:          float lambd = tilingData->lambd;
// CHECK-NEXT:          float slope = FMaximum(negativeSlope, 0.0f);
// CHECK-NEXT:          slopeHalf = static_cast<half>(slope);
// CHECK-NEXT:          lambdHalf = static_cast<half>(lambd);
// CHECK-NEXT:          negLambdHalf = static_cast<half>(-lambd);
// CHECK-NEXT:          int64_t blockIdx = AscendC::GetBlockIdx();
// CHECK:                   AscendC::Duplicate(bound, lambdHalf, ubFactor);
// CHECK-NEXT:          }
// CHECK-NEXT:      }
// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum, int64_t computeNum)
// CHECK:               AscendC::Muls(yLocal, xIn, slopeHalf, currentNum);
// CHECK-NEXT:          AscendC::CompareScalar(lowerMask, xIn, negLambdHalf, AscendC::CMPMODE::GE, computeNum);
// CHECK-NEXT:          AscendC::Compare(upperMask, xIn, bound, AscendC::CMPMODE::LE, computeNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Select(yLocal, lowerMask, yLocal, lambdHalf,
// CHECK-NEXT:              AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, currentNum);
// CHECK-NEXT:          AscendC::PipeBarrier<PIPE_V>();
// CHECK-NEXT:          AscendC::Select(yLocal, upperMask, yLocal, bound, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE,
// CHECK-NEXT:              currentNum);
// CHECK:           int64_t ubFactor = 0;
// CHECK-NEXT:      half slopeHalf = 0;
// CHECK-NEXT:      half lambdHalf = 0;
// CHECK-NEXT:      half negLambdHalf = 0;
// CHECK-NEXT:      int64_t blockLength = 0;

// -----

// Arithmetic on f32 scalars, and the struct's fallback names: a scalar without a name hint, or
// whose hint an int64 field owns, is `scalar<i>` (its position among the scalars). Products
// are statements of their own (no contraction into an FMA); a half step is cast to half; a
// scalar Compute reads straight from the tiling is a member as well.
func.func @scale_shift_tiling_f32(%total_num: index, %core_num: index, %ub_size: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %tiling_key = arith.constant 1 : index
  func.return %total_num, %total_num, %c64, %c1, %tiling_key : index, index, index, index, index
}
func.func @scale_shift_kernel_f32(%x: memref<?xf32>, %y: memref<?xf32>, %total_num: index, %block_factor: index, %ub_factor: index, %scale: f32, %0: f32, %total_num_1: f32) attributes {hsg.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %half_step = arith.constant -5.000000e-01 : f32
  %1 = arith.negf %half_step : f32
  %shift = arith.addf %0, %1 : f32
  %2 = arith.subf %shift, %total_num_1 : f32
  %3 = arith.mulf %2, %scale : f32
  %4 = arith.divf %3, %scale : f32
  %bias = arith.minimumf %4, %total_num_1 : f32
  %5 = arith.truncf %bias : f32 to f16
  %6 = arith.negf %5 : f16
  %bias_rounded = arith.extf %6 : f16 to f32
  %x_gm = ascend.set_global_buffer %x[%c0], %total_num : memref<?xf32> -> !ascend.global_tensor<f32>
  %y_gm = ascend.set_global_buffer %y[%c0], %total_num : memref<?xf32> -> !ascend.global_tensor<f32>
  %pipe = ascend.tpipe
  %in_queue = ascend.tque : !ascend.tque<vecin, 1>
  %out_queue = ascend.tque : !ascend.tque<vecout, 1>
  %bytes = arith.muli %ub_factor, %c4 : index
  ascend.init_buffer %pipe, %in_queue, num 1, %bytes : !ascend.tque<vecin, 1>
  ascend.init_buffer %pipe, %out_queue, num 1, %bytes : !ascend.tque<vecout, 1>
  %loop_count = arith.ceildivsi %total_num, %ub_factor : index
  scf.for %i = %c0 to %loop_count step %c1 {
    %offset = arith.muli %i, %ub_factor : index
    %x_local = ascend.alloc_tensor %in_queue : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
    %x_at = ascend.global_at %x_gm[%offset] : !ascend.global_tensor<f32>
    ascend.data_copy %x_local, %x_at, %ub_factor : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
    ascend.enque %in_queue, %x_local : !ascend.tque<vecin, 1>, !ascend.local_tensor<f32, vecin>
    %x_in = ascend.deque %in_queue : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
    %y_local = ascend.alloc_tensor %out_queue : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
    ascend.muls %y_local, %x_in, %scale : f32, %ub_factor : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecin>
    ascend.adds %y_local, %y_local, %bias_rounded : f32, %ub_factor : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecout>
    ascend.muls %y_local, %y_local, %shift : f32, %ub_factor : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecout>
    ascend.enque %out_queue, %y_local : !ascend.tque<vecout, 1>, !ascend.local_tensor<f32, vecout>
    ascend.free_tensor %in_queue, %x_in : !ascend.tque<vecin, 1>, !ascend.local_tensor<f32, vecin>
    %y_out = ascend.deque %out_queue : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
    %y_at = ascend.global_at %y_gm[%offset] : !ascend.global_tensor<f32>
    ascend.data_copy %y_at, %y_out, %ub_factor : !ascend.global_tensor<f32>, !ascend.local_tensor<f32, vecout>
    ascend.free_tensor %out_queue, %y_out : !ascend.tque<vecout, 1>, !ascend.local_tensor<f32, vecout>
  }
  func.return
}

// CHECK-LABEL: struct ScaleShiftTilingData {
// CHECK-NEXT:      int64_t totalNum = 0;
// CHECK-NEXT:      int64_t blockFactor = 0;
// CHECK-NEXT:      int64_t ubFactor = 0;
// CHECK-NEXT:      float scale = 0;
// CHECK-NEXT:      float scalar1 = 0;
// CHECK-NEXT:      float scalar2 = 0;
// CHECK-NEXT:  };
// CHECK:       // arith.minimumf: the smaller of a and b; NaN if either is NaN, and -0 below +0.
// CHECK-NEXT:  __aicore__ inline float FMinimum(float a, float b)
// CHECK-NEXT:  {
// CHECK-NEXT:      if (a != a || b != b) {
// CHECK-NEXT:          return a != a ? a : b;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (a == b) {
// CHECK-NEXT:          return a == 0.0f ? -(-a - b) : a;
// CHECK-NEXT:      }
// CHECK-NEXT:      return a < b ? a : b;
// CHECK-NEXT:  }
// CHECK-LABEL: __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleShiftTilingData* tilingData)
// CHECK-NEXT:      {
// CHECK-NEXT:          int64_t totalNum = tilingData->totalNum;
// CHECK-NEXT:          ubFactor = tilingData->ubFactor;
// CHECK-NEXT:          scale = tilingData->scale;
// CHECK-NEXT:          float value = tilingData->scalar1;
// CHECK-NEXT:          float totalNum1 = tilingData->scalar2;
// CHECK-NEXT:          shift = value + -(-0.5f);
// CHECK-NEXT:          float value1 = (shift - totalNum1) * scale;
// CHECK-NEXT:          float bias = FMinimum(value1 / scale, totalNum1);
// CHECK-NEXT:          biasRounded = static_cast<float>(static_cast<half>(-static_cast<half>(bias)));
// CHECK-LABEL: __aicore__ inline void Compute()
// CHECK:               AscendC::Muls(yLocal, xIn, scale, ubFactor);
// CHECK-NEXT:          AscendC::Adds(yLocal, yLocal, biasRounded, ubFactor);
// CHECK-NEXT:          AscendC::Muls(yLocal, yLocal, shift, ubFactor);
// CHECK:           int64_t ubFactor = 0;
// CHECK-NEXT:      float scale = 0;
// CHECK-NEXT:      float shift = 0;
// CHECK-NEXT:      float biasRounded = 0;
