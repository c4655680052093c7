// relu_grad_mask_fixture_tiling.cpp - the fixture's tiling: ceil(n / cores) elements per core
// rounded up to 256, chunks of 1024; `maskSeen` says whether input 1 came as the framework passes a
// DT_UINT1 mask: that dtype, the shape of the gradients (in elements).
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "../op_kernel/relu_grad_mask_fixture_tiling_data.h"

namespace optiling {

static ge::graphStatus ReluGradMaskFixtureTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    const gert::StorageShape* grad = context->GetInputShape(0);
    const gert::StorageShape* mask = context->GetInputShape(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, grad);
    OP_CHECK_NULL_WITH_CONTEXT(context, mask);
    const int64_t total = grad->GetStorageShape().GetShapeSize();
    OP_CHECK_IF(total <= 0, OP_LOGE(context, "empty input"), return ge::GRAPH_FAILED);

    auto* tiling = context->GetTilingData<ReluGradMaskFixtureTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    tiling->totalNum = total;
    tiling->blockFactor = Ops::Base::CeilAlign(Ops::Base::CeilDiv(total, cores), int64_t{256});
    tiling->ubFactor = 1024;
    tiling->maskSeen = context->GetInputDesc(1)->GetDataType() == ge::DT_UINT1 &&
                       mask->GetStorageShape() == grad->GetStorageShape() &&
                       ge::GetSizeInBytes(total, ge::DT_UINT1) == (total + 7) / 8;
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling->blockFactor)));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus ReluGradMaskFixtureTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct ReluGradMaskFixtureCompileInfo {};

IMPL_OP_OPTILING(ReluGradMaskFixture)
    .Tiling(ReluGradMaskFixtureTilingFunc)
    .TilingParse<ReluGradMaskFixtureCompileInfo>(ReluGradMaskFixtureTilingParse);

}  // namespace optiling
