// The Ascend 950 (ops-nn arch35) HardSwishGrad: semantics cann-arch35 with the arch35 schedule.
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose{semantics=cann-arch35},hsg-tile-on-cores{variant=arch35},convert-hsg-to-ascend{variant=arch35}' --lower-to-ascend | filecheck %s
// Folded for ascend950 (64 cores, 253952 bytes of UB): a static shape's tiling is constants,
// and it launches only the kernel they pick (both are kept: the operator's binary holds every key).
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose{semantics=cann-arch35},hsg-tile-on-cores{soc=ascend950 variant=arch35},convert-hsg-to-ascend{variant=arch35}' --lower-to-ascend | filecheck %s --check-prefix=FOLD
// The C++: one specialisation per (dtype, variant) behind one entry.
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose{semantics=cann-arch35},hsg-tile-on-cores{variant=arch35},convert-hsg-to-ascend{variant=arch35}' --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// f32: the host tiling picks the depth-2 kernel (8 buffers of 4 bytes, key DT_FLOAT | 1 << 8)
// above 1024 elements, else the depth-1 kernel (5 buffers, key 0); no reserve, 64-aligned.
func.func @hsg_f32(%grad: tensor<?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK-LABEL: func.func @hsg_f32(
// CHECK:         %{{.*}}, %[[BF:.*]], %[[UF:.*]], %[[USED:.*]], %[[KEY:.*]] = func.call @hard_swish_grad_tiling_f32(
// CHECK-NEXT:    %[[K2:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[IS2:.*]] = arith.cmpi eq, %[[KEY]], %[[K2]] : index
// CHECK-NEXT:    %{{.*}} = scf.if %[[IS2]] -> (tensor<?xf32>) {
// CHECK-NEXT:      hsg.launch @hard_swish_grad_kernel_f32_depth2 blocks %[[USED]]
// CHECK:         } else {
// CHECK-NEXT:      hsg.launch @hard_swish_grad_kernel_f32_depth1 blocks %[[USED]]
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f32(
// CHECK-NOT:     arith.subi
// CHECK:         %[[T:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[DB:.*]] = arith.cmpi sgt, %total_num, %[[T]] : index
// CHECK-NEXT:    %[[B1:.*]] = arith.constant 20 : index
// CHECK-NEXT:    %[[B2:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[BPE:.*]] = arith.select %[[DB]], %[[B2]], %[[B1]] : index
// CHECK-NEXT:    %[[KV:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %{{.*}} = arith.select %[[DB]], %[[KV]], %c0 : index
// CHECK-NEXT:    %[[ALIGN:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[UB:.*]] = arith.maxsi %ub_size, %c0 : index
// CHECK-NEXT:    %{{.*}} = arith.floordivsi %[[UB]], %[[BPE]] : index
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f32_depth1(
// CHECK-SAME:      attributes {hsg.kernel, hsg.ub_budget = {bytes_per_element = 20 : i64, ub_reserve = 0 : i64, align_elements = 64 : i64}, hsg.tiling_key = 0 : index, hsg.queue_depth = 1 : index} {
// CHECK:           ascend.tque : !ascend.tque<vecin, 1>
// CHECK:           %[[SLOPE:.*]] = ascend.tbuf_get %slope_buf
// CHECK-NEXT:      %[[MASK:.*]] = ascend.tbuf_get %range_mask_buf
// CHECK:           %[[N:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
// CHECK-NEXT:      ascend.muls %[[SLOPE]], %[[X:.*]], 0.333333343 : f32, %[[N]]
// CHECK-NEXT:      ascend.adds %[[SLOPE]], %[[SLOPE]], 5.000000e-01 : f32, %[[N]]
// CHECK-NEXT:      ascend.compares %[[MASK]], %[[X]], -3.000000e+00 : f32, ge, %[[N]]
// CHECK-NEXT:      ascend.select %[[SLOPE]], %[[MASK]], %[[SLOPE]], 0.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]]
// CHECK-NEXT:      ascend.compares %[[MASK]], %[[X]], 3.000000e+00 : f32, le, %[[N]]
// CHECK-NEXT:      ascend.select %[[SLOPE]], %[[MASK]], %[[SLOPE]], 1.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]]
// CHECK-NEXT:      ascend.mul %[[Y:.*]], %[[G:.*]], %[[SLOPE]], %[[N]]
// CHECK-NEXT:      ascend.enque %output_queue_y, %[[Y]]
// CHECK-NOT:       ascend.pipe_barrier
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f32_depth2(
// CHECK-SAME:      hsg.ub_budget = {bytes_per_element = 32 : i64, ub_reserve = 0 : i64, align_elements = 64 : i64}, hsg.tiling_key = 256 : index, hsg.queue_depth = 2 : index} {
// CHECK:           ascend.tque : !ascend.tque<vecin, 2>

// A dynamic shape on ascend950: the platform is folded, the choice stays at run time.
// FOLD-LABEL: func.func @hsg_f32(
// FOLD:         %[[CORES:.*]] = arith.constant 64 : index
// FOLD-NEXT:    %[[UB:.*]] = arith.constant 253952 : index
// FOLD-NEXT:    func.call @hard_swish_grad_tiling_f32(%{{.*}}, %[[CORES]], %[[UB]])
// FOLD:         scf.if
// FOLD-NEXT:      hsg.launch @hard_swish_grad_kernel_f32_depth2

// CPP:       #define HARDSWISHGRAD_TPL_SCH_MODE_FP32_V0 0
// CPP-NEXT:  #define HARDSWISHGRAD_TPL_SCH_MODE_FP32_V1 256
// CPP:       template <typename T, uint32_t variant>
// CPP-NEXT:  class HardSwishGrad;
// CPP:       // @hard_swish_grad_kernel_f32_depth1: the f32 kernel (variant 0), tiling key 0.
// CPP-NEXT:  template <>
// CPP-NEXT:  class HardSwishGrad<float, 0> {
// CPP:       pipe.InitBuffer(inputQueueGrad, 1, tensorBytes);
// CPP:       AscendC::Compares(rangeMask, xLocal, -3.0f, AscendC::CMPMODE::GE, computeNum);
// CPP:       // @hard_swish_grad_kernel_f32_depth2: the f32 kernel (variant 1), tiling key 256.
// CPP-NEXT:  template <>
// CPP-NEXT:  class HardSwishGrad<float, 1> {
// CPP:       pipe.InitBuffer(inputQueueGrad, 2, tensorBytes);
// CPP:       if constexpr (schMode == HARDSWISHGRAD_TPL_SCH_MODE_FP32_V0) {
// CPP-NEXT:      NsHardSwishGrad::HardSwishGrad<float, 0> op;
// CPP:       if constexpr (schMode == HARDSWISHGRAD_TPL_SCH_MODE_FP32_V1) {
// CPP-NEXT:      NsHardSwishGrad::HardSwishGrad<float, 1> op;

// -----

// f16 on 4x1000 elements (above 1024): x cast to f32 first, its scratch buffer then taken
// again for grad's copy (a Get of its own) after the last Compares on x, CAST_RINT back.
func.func @hsg_f16(%grad: tensor<4x1000xf16>, %x: tensor<4x1000xf16>) -> tensor<4x1000xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x1000xf16>
  func.return %y : tensor<4x1000xf16>
}
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f16_depth1(
// CHECK-SAME:      hsg.ub_budget = {bytes_per_element = 16 : i64, ub_reserve = 0 : i64, align_elements = 64 : i64}, hsg.tiling_key = 1 : index, hsg.queue_depth = 1 : index} {
// CHECK:           %[[XF:.*]] = ascend.tbuf_get %[[SCRATCH:x_fp32_buf]]
// CHECK-NEXT:      %[[SLOPE:.*]] = ascend.tbuf_get %slope_buf
// CHECK-NEXT:      %[[MASK:.*]] = ascend.tbuf_get %range_mask_buf
// CHECK:           %[[N:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
// CHECK-NEXT:      ascend.cast %[[XF]], %{{.*}}, cast_none, %[[N]]
// CHECK-NEXT:      ascend.muls %[[SLOPE]], %[[XF]], 0.333333343 : f32, %[[N]]
// CHECK-NEXT:      ascend.adds %[[SLOPE]], %[[SLOPE]], 5.000000e-01 : f32, %[[N]]
// CHECK-NEXT:      ascend.compares %[[MASK]], %[[XF]], -3.000000e+00 : f32, ge, %[[N]]
// CHECK-NEXT:      ascend.select %[[SLOPE]], %[[MASK]], %[[SLOPE]], 0.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]]
// CHECK-NEXT:      ascend.compares %[[MASK]], %[[XF]], 3.000000e+00 : f32, le, %[[N]]
// CHECK-NEXT:      ascend.select %[[SLOPE]], %[[MASK]], %[[SLOPE]], 1.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]]
// CHECK-NEXT:      %[[GF:.*]] = ascend.tbuf_get %[[SCRATCH]]
// CHECK-NEXT:      ascend.cast %[[GF]], %{{.*}}, cast_none, %[[N]]
// CHECK-NEXT:      ascend.mul %[[SLOPE]], %[[GF]], %[[SLOPE]], %[[N]]
// CHECK-NEXT:      ascend.cast %{{.*}}, %[[SLOPE]], cast_rint, %[[N]]

// 4000 elements on 64 cores: blockFactor 63, 64 cores; depth 2: 253952 / 22 = 11543 -> 11520.
// FOLD-LABEL: func.func @hsg_f16(
// FOLD:         %[[BF:.*]] = arith.constant 63 : index
// FOLD-NEXT:    %[[UF:.*]] = arith.constant 11520 : index
// FOLD-NEXT:    %[[USED:.*]] = arith.constant 64 : index
// FOLD-NEXT:    %{{.*}} = arith.constant 257 : index
// FOLD-NEXT:    hsg.launch @hard_swish_grad_kernel_f16_depth2 blocks %[[USED]] (%grad, %x) tiling(%{{.*}}, %[[BF]], %[[UF]])
