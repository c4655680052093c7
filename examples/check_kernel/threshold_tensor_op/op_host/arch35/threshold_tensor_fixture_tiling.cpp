// threshold_tensor_fixture_tiling.cpp (arch35) - the fixture's tiling: CeilDiv(total, cores)
// elements per core. It fails unless threshold and value are one-element tensors, so a run
// shows they reached it as such.
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "../../op_kernel/arch35/threshold_tensor_fixture_tiling_data.h"

namespace optiling {
static ge::graphStatus ThresholdTensorFixtureTilingFunc(gert::TilingContext* context)
{
    auto* tiling = context->GetTilingData<checker_fixture::ThresholdTensorFixtureTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    const int64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    for (size_t k = 1; k < 3; ++k) {
        OP_CHECK_IF(context->GetInputShape(k)->GetStorageShape().GetShapeSize() != 1,
                    OP_LOGE(context, "input %zu is not a one-element tensor", k), return ge::GRAPH_FAILED);
    }
    OP_CHECK_IF(total <= 0, OP_LOGE(context, "empty input"), return ge::GRAPH_FAILED);
    tiling->totalNum = total;
    tiling->blockFactor = Ops::Base::CeilAlign(Ops::Base::CeilDiv(total, cores), int64_t{64});
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling->blockFactor)));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus ThresholdTensorFixtureTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }
struct ThresholdTensorFixtureCompileInfo {};
IMPL_OP_OPTILING(ThresholdTensorFixture)
    .Tiling(ThresholdTensorFixtureTilingFunc)
    .TilingParse<ThresholdTensorFixtureCompileInfo>(ThresholdTensorFixtureTilingParse);
}  // namespace optiling
