// RUN: rm -rf %t && hswc-emit %s -o %t > /dev/null
// RUN: filecheck %s < %t/op_host/hard_swish_grad_tiling_compute.h
// RUN: filecheck %s --check-prefix=FUNC < %t/op_host/hard_swish_grad_tiling.cpp

// The host tiling of the package is the IR's hsg.tiling function printed as C++: arith ops as
// int64_t expressions (ceildivsi / floordivsi / maxsi / minsi through exact helpers; ubFactor at
// most the 32704 bf16 elements one DataCopyPad moves), every cf.assert as
// an early failure carrying its message, the results into the tiling struct, the block dim and
// the tiling key. TilingFunc only gathers the platform and shape facts around it.
func.func @hsg(%grad: tensor<?x?xbf16>, %x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?x?xbf16>
  func.return %y : tensor<?x?xbf16>
}

// CHECK:       #include "../op_kernel/hard_swish_grad_tiling_data.h"
// CHECK-EMPTY:
// CHECK-NEXT:  namespace NsHardSwishGradTiling {
// CHECK:       // arith.ceildivsi: a / b rounded towards +infinity, for any signs.
// CHECK-NEXT:  inline int64_t CeilDiv(int64_t a, int64_t b)
// CHECK:       // @hard_swish_grad_tiling_bf16: the tiling of the bf16 kernel.
// CHECK-NEXT:  inline bool ComputeHardSwishGradTilingBf16(int64_t totalNum, int64_t coreNum, int64_t ubSize,
// CHECK-NEXT:      HardSwishGradTilingData* tilingData, int64_t* blockDim, int64_t* tilingKey, const char** error)
// CHECK-NEXT:  {
// CHECK-NEXT:      if (!(coreNum > 0)) {
// CHECK-NEXT:          *error = "coreNum is 0";
// CHECK-NEXT:          return false;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (!(ubSize > 0)) {
// CHECK-NEXT:          *error = "ubSize is 0";
// CHECK-NEXT:          return false;
// CHECK-NEXT:      }
// CHECK-NEXT:      bool cond = totalNum == 0;
// CHECK-NEXT:      int64_t blockFactor = CeilDiv(totalNum, Max(coreNum, 1));
// CHECK-NEXT:      int64_t usedCoreNum = cond ? 1 : CeilDiv(totalNum, Max(blockFactor, 1));
// CHECK-NEXT:      int64_t availableUbSize = ubSize - 1024;
// CHECK-NEXT:      if (!(cond || availableUbSize > 0)) {
// CHECK-NEXT:          *error = "available UB size is invalid";
// CHECK-NEXT:          return false;
// CHECK-NEXT:      }
// CHECK-NEXT:      int64_t ubFactorRaw = FloorDiv(Max(availableUbSize, 0), 48);
// CHECK-NEXT:      int64_t ubFactor = cond ? 0 : Min(FloorDiv(ubFactorRaw, 64) * 64, 32704);
// CHECK-NEXT:      if (!(cond || ubFactor > 0)) {
// CHECK-NEXT:          *error = "ubFactor is invalid";
// CHECK-NEXT:          return false;
// CHECK-NEXT:      }
// CHECK-NEXT:      tilingData->totalNum = totalNum;
// CHECK-NEXT:      tilingData->blockFactor = blockFactor;
// CHECK-NEXT:      tilingData->ubFactor = ubFactor;
// CHECK-NEXT:      *blockDim = usedCoreNum;
// CHECK-NEXT:      *tilingKey = 2;
// CHECK-NEXT:      return true;
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:  }  // namespace NsHardSwishGradTiling

// FUNC:        ComputeTiling TilingFor(ge::DataType dataType)
// FUNC-NEXT:   {
// FUNC-NEXT:       switch (dataType) {
// FUNC-NEXT:           case ge::DT_BF16:
// FUNC-NEXT:               return NsHardSwishGradTiling::ComputeHardSwishGradTilingBf16;
// FUNC-NEXT:           default:
// FUNC-NEXT:               return nullptr;
// FUNC-NEXT:       }
// FUNC-NEXT:   }
// FUNC:            OP_CHECK_IF(!computeTiling(shape.GetShapeSize(), coreNum,
// FUNC-NEXT:           static_cast<int64_t>(ubSize), tilingData, &blockDim, &tilingKey, &error),
// FUNC-NEXT:           OP_LOGE(context, "HardSwishGrad: tiling failed: %s", error), return ge::GRAPH_FAILED);
// FUNC-NEXT:       context->SetBlockDim(static_cast<uint32_t>(blockDim));
// FUNC-NEXT:       context->SetTilingKey(GET_TPL_TILING_KEY(static_cast<uint64_t>(tilingKey)));
