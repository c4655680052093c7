// leaky_host_data_tiling.cpp - the fixture's tiling: CANN's split (blockFactor = CeilDiv(total,
// cores), a chunk filling the UB, a multiple of 128), saved from the host-only tiling-data class.
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "leaky_host_data_tiling.h"

namespace optiling {

static ge::graphStatus LeakyHostDataTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::Tensor* x = context->GetInputTensor(0);  // as ops-nn's squared_relu reads it
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const int64_t total = x->GetShapeSize();
    OP_CHECK_IF(total != x->GetStorageShape().GetShapeSize() || x->GetData<float>() != nullptr,
                OP_LOGE(context, "not a tiling-time tensor"), return ge::GRAPH_FAILED);
    const int64_t size = x->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    const float* slope = context->GetAttrs()->GetFloat(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, slope);

    LeakyHostDataTilingData tiling;
    tiling.set_totalNum(total);
    tiling.set_blockFactor(Ops::Base::CeilDiv(total, cores));
    tiling.set_ubFactor(Ops::Base::FloorAlign((static_cast<int64_t>(ub) - 1024) / (2 * 2 * size + 12), int64_t{128}));
    tiling.set_negativeSlope(*slope);
    tiling.set_flag(0x1234);
    int32_t marks[3] = {1, 2, 3};
    tiling.set_marks(marks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling.get_blockFactor())));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus LeakyHostDataTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct LeakyHostDataCompileInfo {};

IMPL_OP_OPTILING(LeakyHostData).Tiling(LeakyHostDataTilingFunc).TilingParse<LeakyHostDataCompileInfo>(LeakyHostDataTilingParse);

}  // namespace optiling
