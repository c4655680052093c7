// leaky_relu_fixture_tiling.cpp (arch35) - the fixture's Ascend 950 tiling: the split, and the
// kernel's template argument chosen with ASCENDC_TPL_SEL_PARAM from x's dtype.
#include "../leaky_relu_fixture_tiling_common.h"
#include "../../op_kernel/arch35/leaky_relu_fixture_tiling_key.h"

namespace optiling {

static ge::graphStatus LeakyReluFixtureTilingFunc(gert::TilingContext* context)
{
    LeakyReluFixtureTiling* tiling = context->GetTilingData<LeakyReluFixtureTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    ge::DataType dtype = ge::DT_UNDEFINED;
    OP_CHECK_IF(LeakyReluFixtureSplit(context, tiling, dtype) != ge::GRAPH_SUCCESS,
                OP_LOGE(context, "split failed"), return ge::GRAPH_FAILED);
#if defined(LEAKY_FIXTURE_FAIL_LARGE)
    OP_CHECK_IF(tiling->totalNum > 1000000, OP_LOGE(context, "too large: %ld", tiling->totalNum),
                return ge::GRAPH_FAILED);
#endif
    const uint32_t code = static_cast<uint32_t>(dtype);
    ASCENDC_TPL_SEL_PARAM(context, code);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus LeakyReluFixtureTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct LeakyReluFixtureCompileInfo {};

IMPL_OP_OPTILING(LeakyReluFixture)
    .Tiling(LeakyReluFixtureTilingFunc)
    .TilingParse<LeakyReluFixtureCompileInfo>(LeakyReluFixtureTilingParse);

}  // namespace optiling
