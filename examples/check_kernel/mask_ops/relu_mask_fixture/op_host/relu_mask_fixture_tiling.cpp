// relu_mask_fixture_tiling.cpp - the fixture's tiling: ceil(n / cores) elements per core rounded
// up to 256, chunks of 1024; `maskSeen` says whether output 1 came as the framework passes a
// DT_UINT1 mask: that dtype, the shape of x (in elements).
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "../op_kernel/relu_mask_fixture_tiling_data.h"

namespace optiling {

static ge::graphStatus ReluMaskFixtureTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    const gert::StorageShape* x = context->GetInputShape(0);
    const gert::StorageShape* mask = context->GetOutputShape(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    OP_CHECK_NULL_WITH_CONTEXT(context, mask);
    const int64_t total = x->GetStorageShape().GetShapeSize();
    OP_CHECK_IF(total <= 0, OP_LOGE(context, "empty input"), return ge::GRAPH_FAILED);

    auto* tiling = context->GetTilingData<ReluMaskFixtureTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    tiling->totalNum = total;
    tiling->blockFactor = Ops::Base::CeilAlign(Ops::Base::CeilDiv(total, cores), int64_t{256});
    tiling->ubFactor = 1024;
    tiling->maskSeen = context->GetOutputDesc(1)->GetDataType() == ge::DT_UINT1 &&
                       mask->GetStorageShape() == x->GetStorageShape() &&
                       ge::GetSizeInBytes(total, ge::DT_UINT1) == (total + 7) / 8;
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling->blockFactor)));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus ReluMaskFixtureTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct ReluMaskFixtureCompileInfo {};

IMPL_OP_OPTILING(ReluMaskFixture)
    .Tiling(ReluMaskFixtureTilingFunc)
    .TilingParse<ReluMaskFixtureCompileInfo>(ReluMaskFixtureTilingParse);

}  // namespace optiling
