// leaky_grad_optional_tiling.cpp - the fixture's tiling: CANN's split, and in `absent` whether
// the optional input is left out as metadef's context reports it: no instance of IR input 2
// (GetOptionalInputShape/Desc(2) null), two inputs on the node, GetInputShape(2) past them.
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "../../op_kernel/arch35/leaky_grad_optional_tiling_data.h"

namespace optiling {

static ge::graphStatus LeakyGradOptionalTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::StorageShape* x = context->GetInputShape(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const int64_t total = x->GetStorageShape().GetShapeSize();
    const int64_t size = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    const float* slope = context->GetAttrs()->GetFloat(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, slope);

    auto* tiling = context->GetTilingData<LeakyGradOptionalTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    tiling->totalNum = total;
    tiling->blockFactor = Ops::Base::CeilDiv(total, cores);
    tiling->ubFactor = Ops::Base::FloorAlign((static_cast<int64_t>(ub) - 1024) / (3 * 2 * size + 12), int64_t{128});
    tiling->negativeSlope = *slope;
    tiling->absent = context->GetOptionalInputShape(2) == nullptr && context->GetOptionalInputDesc(2) == nullptr &&
                     context->GetComputeNodeInputNum() == 2 && context->GetInputShape(2) == nullptr &&
                     context->GetComputeNodeInfo()->GetIrInputsNum() == 3;
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling->blockFactor)));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus LeakyGradOptionalTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct LeakyGradOptionalCompileInfo {};

IMPL_OP_OPTILING(LeakyGradOptional)
    .Tiling(LeakyGradOptionalTilingFunc)
    .TilingParse<LeakyGradOptionalCompileInfo>(LeakyGradOptionalTilingParse);

}  // namespace optiling
