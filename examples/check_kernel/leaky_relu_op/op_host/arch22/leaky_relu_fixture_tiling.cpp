// leaky_relu_fixture_tiling.cpp (arch22) - the fixture's Atlas A2/A3 tiling: the split, and
// the tiling key (TILING_KEY_IS in the kernel) 1 for f16, 2 for bf16, 0 for f32.
#include "../leaky_relu_fixture_tiling_common.h"

namespace optiling {

static ge::graphStatus LeakyReluFixtureTilingFunc(gert::TilingContext* context)
{
    LeakyReluFixtureTiling* tiling = context->GetTilingData<LeakyReluFixtureTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    ge::DataType dtype = ge::DT_UNDEFINED;
    OP_CHECK_IF(LeakyReluFixtureSplit(context, tiling, dtype) != ge::GRAPH_SUCCESS,
                OP_LOGE(context, "split failed"), return ge::GRAPH_FAILED);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : dtype == ge::DT_BF16 ? 2 : 0);
    return ge::GRAPH_SUCCESS;
}

struct LeakyReluFixtureCompileInfo {};

IMPL_OP_OPTILING(LeakyReluFixture).Tiling(LeakyReluFixtureTilingFunc);

}  // namespace optiling
