// leaky_ut_variant_tiling.cpp - the fixture's tiling: CANN's split into the plain struct of
// op_kernel/arch35/leaky_ut_variant_tiling_data.h.
#include "register/op_def_registry.h"
#include "graph/operator.h"  // as ops-nn's common/inc/error_util.h includes it
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "../../op_kernel/arch35/leaky_ut_variant_tiling_data.h"

namespace optiling {

static ge::graphStatus LeakyUtVariantTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::StorageShape* x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const int64_t total = x->GetStorageShape().GetShapeSize();
    const int64_t size = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    const float* slope = context->GetAttrs()->GetFloat(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, slope);

    auto* tiling = context->GetTilingData<LeakyUtVariantTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    tiling->totalNum = total;
    tiling->blockFactor = Ops::Base::CeilDiv(total, cores);
    tiling->ubFactor = Ops::Base::FloorAlign((static_cast<int64_t>(ub) - 1024) / (2 * 2 * size + 12), int64_t{128});
    tiling->negativeSlope = *slope;
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling->blockFactor)));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus LeakyUtVariantTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct LeakyUtVariantCompileInfo {};

IMPL_OP_OPTILING(LeakyUtVariant)
    .Tiling(LeakyUtVariantTilingFunc)
    .TilingParse<LeakyUtVariantCompileInfo>(LeakyUtVariantTilingParse);

}  // namespace optiling
