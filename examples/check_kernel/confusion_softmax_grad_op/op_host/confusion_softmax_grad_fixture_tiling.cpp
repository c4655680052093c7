// confusion_softmax_grad_fixture_tiling.cpp - the fixture's tiling: x's last dim the row length L
// (at most 4096, so that a row fits the UB in one pass), the rows before it over the cores
// (CeilDiv(rows, cores) each). The tiling key: 1 f16, 2 bf16, 0 f32.
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "op_common/op_host/util/platform_util.h"
#include "../op_kernel/confusion_softmax_grad_fixture_tiling_data.h"

namespace optiling {

static ge::graphStatus ConfusionSoftmaxGradFixtureTilingFunc(gert::TilingContext* context)
{
    ConfusionSoftmaxGradFixtureTiling* tiling = context->GetTilingData<ConfusionSoftmaxGradFixtureTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    const gert::StorageShape* x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const gert::Shape& shape = x->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    OP_CHECK_IF(rank < 1, OP_LOGE(context, "grad has rank 0"), return ge::GRAPH_FAILED);
    const int64_t length = shape.GetDim(rank - 1);
    OP_CHECK_IF(length <= 0 || length > 4096, OP_LOGE(context, "grad's last dim must be in [1, 4096]"),
                return ge::GRAPH_FAILED);
    const int64_t rows = shape.GetShapeSize() / length;
    OP_CHECK_IF(context->GetInputDesc(0) == nullptr, OP_LOGE(context, "no input desc"), return ge::GRAPH_FAILED);
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    tiling->rows = rows;
    tiling->length = length;
    tiling->rowsPerCore = Ops::Base::CeilDiv(rows, cores);
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(rows, tiling->rowsPerCore)));
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : dtype == ge::DT_BF16 ? 2 : 0);
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

struct ConfusionSoftmaxGradFixtureCompileInfo {};

IMPL_OP_OPTILING(ConfusionSoftmaxGradFixture).Tiling(ConfusionSoftmaxGradFixtureTilingFunc);

}  // namespace optiling
