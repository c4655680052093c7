// leaky_forms_tiling.cpp - the fixture's tiling: CANN's split (blockFactor = CeilDiv(total,
// cores), a chunk filling the UB, a multiple of LeakyFormsDag::CHUNK_ALIGN), written into a
// BEGIN_TILING_DATA_DEF class and saved to the raw tiling data; registered as LeakyForms, the
// op type of the binary configuration (the definition's class is LeakyFormsDef).
#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "op_common/op_host/util/platform_util.h"
#include "leaky_forms_tiling.h"

namespace optiling {

static ge::graphStatus LeakyFormsTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::StorageShape* x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const int64_t total = x->GetStorageShape().GetShapeSize();
    OP_CHECK_IF(total <= 0, OP_LOGE(context, "empty input"), return ge::GRAPH_FAILED);
    const int64_t size = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    const float* slope = context->GetAttrs()->GetFloat(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, slope);

    LeakyFormsTilingData tiling;
    tiling.set_totalNum(total);
    tiling.split.set_blockFactor(Ops::Base::CeilDiv(total, cores));
    tiling.split.set_ubFactor(Ops::Base::FloorAlign((static_cast<int64_t>(ub) - 1024) / (2 * 2 * size + 12),
                                                    LeakyFormsDag::CHUNK_ALIGN));
    tiling.set_negativeSlope(*slope);
    tiling.set_flag(1);
    int64_t dims[LeakyFormsDag::MAX_DIMS] = {total, 1};
    tiling.set_dims(dims);
    tiling.get_dims()[1] = 7;  // get_X points at the tiling data's own bytes
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling.split.get_blockFactor())));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus LeakyFormsTilingParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

struct LeakyFormsCompileInfo {};

IMPL_OP_OPTILING(LeakyForms).Tiling(LeakyFormsTilingFunc).TilingParse<LeakyFormsCompileInfo>(LeakyFormsTilingParse);

}  // namespace optiling
