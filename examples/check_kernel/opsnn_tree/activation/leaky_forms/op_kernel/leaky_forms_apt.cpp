// leaky_forms_apt.cpp - the fixture's Ascend 950 entry, declared as ops-nn's activation/elu
// declares its own: through KERNEL_API from "../inc/platform.h", the header ops-nn's kernel
// build finds in tbe/ascendc/inc/ (its common/inc/op_kernel/). LeakyRelu with the slope and
// split of the tiling data; the kernel refuses (writes nothing) unless the tiling's flag and
// dims came through.
#include "kernel_operator.h"
#include "../inc/platform.h"
#include "../../../../elementwise_kernel.h"
#include "arch35/leaky_forms_tiling_data.h"

namespace leaky_forms_fixture {
using namespace AscendC;

template <typename T>
using LeakyFormsOp = checker_fixture::LeakyReluBody<T, LeakyFormsTiling>;
}  // namespace leaky_forms_fixture

KERNEL_API void leaky_forms(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(LeakyFormsTiling, tilingData, tiling);
    if (tilingData.flag != 1 || tilingData.dims[0] != tilingData.totalNum || tilingData.dims[1] != 7) {
        return;
    }
    leaky_forms_fixture::LeakyFormsOp<DTYPE_X> op;
    op.SetSlope(tilingData.negativeSlope);
    op.Init({x}, y, tilingData);
    op.Process();
}
