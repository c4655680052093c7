// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// Two operators of different dtypes: one kernel class each, and the entry reads the tiling
// struct and dispatches on the tiling key each host tiling function returns (f16 0, bf16 2).
func.func @hsg_f16(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
func.func @hsg_bf16(%grad: tensor<8x?xbf16>, %x: tensor<8x?xbf16>) -> tensor<8x?xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<8x?xbf16>
  func.return %y : tensor<8x?xbf16>
}

// CHECK:       #include "kernel_operator.h"
// CHECK-EMPTY:
// CHECK-NEXT:  struct HardSwishGradTilingData {
// CHECK-NEXT:      int64_t totalNum = 0;
// CHECK-NEXT:      int64_t blockFactor = 0;
// CHECK-NEXT:      int64_t ubFactor = 0;
// CHECK-NEXT:  };
// CHECK-EMPTY:
// CHECK-NEXT:  #define HARDSWISHGRAD_TPL_SCH_MODE_FP16 0
// CHECK-NEXT:  #define HARDSWISHGRAD_TPL_SCH_MODE_BF16 2
// CHECK-EMPTY:
// CHECK-NEXT:  namespace NsHardSwishGrad {
// CHECK:       template <typename T>
// CHECK-NEXT:  class HardSwishGrad;
// CHECK-EMPTY:
// CHECK-NEXT:  // @hard_swish_grad_kernel_f16: the f16 kernel, tiling key 0.
// CHECK-NEXT:  template <>
// CHECK-NEXT:  class HardSwishGrad<half> {
// CHECK-NEXT:  public:
// CHECK-NEXT:      __aicore__ inline HardSwishGrad() {}
// CHECK:       // @hard_swish_grad_kernel_bf16: the bf16 kernel, tiling key 2.
// CHECK-NEXT:  template <>
// CHECK-NEXT:  class HardSwishGrad<bfloat16_t> {
// CHECK:       }  // namespace NsHardSwishGrad
// CHECK-EMPTY:
// CHECK-NEXT:  template <uint32_t schMode>
// CHECK-NEXT:  __global__ __aicore__ void hard_swish_grad(GM_ADDR grad, GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
// CHECK-NEXT:  {
// CHECK-NEXT:      (void)workspace;  // HardSwishGrad needs no workspace
// CHECK-NEXT:      REGISTER_TILING_DEFAULT(HardSwishGradTilingData);
// CHECK-NEXT:      GET_TILING_DATA_WITH_STRUCT(HardSwishGradTilingData, tilingData, tiling);
// CHECK-NEXT:      if constexpr (schMode == HARDSWISHGRAD_TPL_SCH_MODE_FP16) {
// CHECK-NEXT:          NsHardSwishGrad::HardSwishGrad<half> op;
// CHECK-NEXT:          op.Init(grad, x, y, &tilingData);
// CHECK-NEXT:          op.Process();
// CHECK-NEXT:      }
// CHECK-NEXT:      if constexpr (schMode == HARDSWISHGRAD_TPL_SCH_MODE_BF16) {
// CHECK-NEXT:          NsHardSwishGrad::HardSwishGrad<bfloat16_t> op;
// CHECK-NEXT:          op.Init(grad, x, y, &tilingData);
// CHECK-NEXT:          op.Process();
// CHECK-NEXT:      }
// CHECK-NEXT:  }

// -----

// One f32 operator: only its kernel and only its branch, under the key its tiling returns (1).
func.func @hsg(%grad: tensor<9xf32>, %x: tensor<9xf32>) -> tensor<9xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<9xf32>
  func.return %y : tensor<9xf32>
}

// CHECK:       #define HARDSWISHGRAD_TPL_SCH_MODE_FP32 1
// CHECK-EMPTY:
// CHECK-NOT:   class HardSwishGrad<half>
// CHECK:       class HardSwishGrad<float> {
// CHECK-NOT:   class HardSwishGrad<
// CHECK:       GET_TILING_DATA_WITH_STRUCT(HardSwishGradTilingData, tilingData, tiling);
// CHECK-NEXT:      if constexpr (schMode == HARDSWISHGRAD_TPL_SCH_MODE_FP32) {
// CHECK-NEXT:          NsHardSwishGrad::HardSwishGrad<float> op;
// CHECK-NEXT:          op.Init(grad, x, y, &tilingData);
// CHECK-NEXT:          op.Process();
// CHECK-NEXT:      }
// CHECK-NEXT:  }
// CHECK-NOT:   if constexpr
