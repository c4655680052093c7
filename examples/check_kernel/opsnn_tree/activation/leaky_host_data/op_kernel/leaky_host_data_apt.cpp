// leaky_host_data_apt.cpp - the fixture's Ascend 950 entry: GET_TILING_DATA names no struct, and
// LeakyHostDataTilingData is declared nowhere on the kernel side but in the header the build
// generates from the host's class (op_kernel/leaky_host_data_tiling_data.h declares another
// struct of that name, for another kernel: this one does not include it). LeakyRelu with the
// slope and split of the tiling data; it writes nothing unless flag and marks came through.
#include "kernel_operator.h"
#include "../../../../elementwise_kernel.h"

namespace leaky_host_data_fixture {
using namespace AscendC;

template <typename T>
using LeakyHostDataOp = checker_fixture::LeakyReluBody<T, LeakyHostDataTilingData>;

// The class the host registers for tiling key 500 is generated too (its tiling-key branch would
// read it).
static_assert(sizeof(LeakyHostDataKeyTilingData) == 8, "the per-key tiling-data class is generated");

__aicore__ inline bool CameThrough(const LeakyHostDataTilingData& t)
{
    return t.flag == 0x1234 && t.marks[0] == 1 && t.marks[1] == 2 && t.marks[2] == 3;
}
}  // namespace leaky_host_data_fixture

extern "C" __global__ __aicore__ void leaky_host_data(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (!leaky_host_data_fixture::CameThrough(tilingData)) {
        return;
    }
    leaky_host_data_fixture::LeakyHostDataOp<DTYPE_X> op;
    op.SetSlope(tilingData.negativeSlope);
    op.Init({x}, y, tilingData);
    op.Process();
}
