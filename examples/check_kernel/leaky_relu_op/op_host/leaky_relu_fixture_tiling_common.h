// leaky_relu_fixture_tiling_common.h - the split both SoCs' tilings of the fixture use: CANN's
// blockFactor = CeilDiv(total, cores), and a chunk filling the UB (two buffers of the input and
// output queues of the dtype, three f32 scratch slots, 1 KiB for the masks), a multiple of 128.
// An empty tensor, or the seeded mistake LEAKY_FIXTURE_FAIL_LARGE above 10^6 elements, fails.
#ifndef LEAKY_RELU_FIXTURE_TILING_COMMON_H
#define LEAKY_RELU_FIXTURE_TILING_COMMON_H

#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "op_common/op_host/util/platform_util.h"
#include "../op_kernel/leaky_relu_fixture_tiling_data.h"

namespace optiling {

inline ge::graphStatus LeakyReluFixtureSplit(gert::TilingContext* context, LeakyReluFixtureTiling* tiling,
                                             ge::DataType& dtype)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::StorageShape* x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const int64_t total = Ops::Base::EnsureNotScalar(x->GetStorageShape()).GetShapeSize();
    OP_CHECK_IF(total <= 0, OP_LOGE(context, "empty input"), return ge::GRAPH_FAILED);
    OP_CHECK_IF(context->GetInputDesc(0) == nullptr, OP_LOGE(context, "no input desc"), return ge::GRAPH_FAILED);
    dtype = context->GetInputDesc(0)->GetDataType();
    const int64_t size = dtype == ge::DT_FLOAT ? 4 : 2;
    const float* slope = context->GetAttrs()->GetFloat(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, slope);
    tiling->totalNum = total;
    tiling->blockFactor = Ops::Base::CeilDiv(total, cores);
    tiling->ubFactor = Ops::Base::FloorAlign((static_cast<int64_t>(ub) - 1024) / (2 * 2 * size + 12), int64_t{128});
    tiling->negativeSlope = *slope;
    context->SetBlockDim(static_cast<uint32_t>(Ops::Base::CeilDiv(total, tiling->blockFactor)));
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

#endif
