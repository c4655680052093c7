// fatrelu_mul_fixture_tiling.cpp - the fixture's tiling: x's last dim 2H split in halves, the
// rows before it over the cores (CeilDiv(rows, cores) each); H at most 1024, so that one row's
// halves and result fit the UB in one pass. The tiling key: 1 f16, 2 bf16, 0 f32. groupNum: the
// optional group_index's counts (its rank-1 shape), -1 when it is absent (every row).
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "op_common/op_host/util/platform_util.h"
#include "../op_kernel/fatrelu_mul_fixture_tiling_data.h"

namespace optiling {

static ge::graphStatus FatreluMulFixtureTilingFunc(gert::TilingContext* context)
{
    FatreluMulFixtureTiling* tiling = context->GetTilingData<FatreluMulFixtureTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    const gert::StorageShape* x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const gert::Shape& shape = x->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    OP_CHECK_IF(rank < 1, OP_LOGE(context, "x has rank 0"), return ge::GRAPH_FAILED);
    const int64_t last = shape.GetDim(rank - 1);
    OP_CHECK_IF(last <= 0 || last % 2 != 0, OP_LOGE(context, "x's last dim must be even"),
                return ge::GRAPH_FAILED);
    OP_CHECK_IF(last > 2048, OP_LOGE(context, "x's last dim must be at most 2048"), return ge::GRAPH_FAILED);
    const int64_t rows = shape.GetShapeSize() / last;
    OP_CHECK_IF(context->GetInputDesc(0) == nullptr, OP_LOGE(context, "no input desc"), return ge::GRAPH_FAILED);
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    tiling->rows = rows;
    tiling->half = last / 2;
    tiling->rowsPerCore = Ops::Base::CeilDiv(rows, cores);
    const gert::StorageShape* groups = context->GetOptionalInputShape(2);
    tiling->groupNum = groups == nullptr ? -1 : groups->GetStorageShape().GetDim(0);
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(rows, tiling->rowsPerCore)));
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : dtype == ge::DT_BF16 ? 2 : 0);
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

struct FatreluMulFixtureCompileInfo {};

IMPL_OP_OPTILING(FatreluMulFixture).Tiling(FatreluMulFixtureTilingFunc);

}  // namespace optiling
