// leaky_ut_variant.cpp - the fixture's Ascend 950 kernel: a UT entry under #ifdef DTYPE_X, the
// device template the build launches under #else.
#include "leaky_ut_variant.h"

using namespace AscendC;

#ifdef DTYPE_X
extern "C" __global__ __aicore__ void leaky_ut_variant(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    leaky_ut_variant_fixture::LeakyUtVariantOp<DTYPE_X> op;
    op.SetSlope(tilingData.negativeSlope);
    op.Init({x}, y, tilingData);
    op.Process();
}
#else
template <typename T>
__global__ __aicore__ void leaky_ut_variant(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    if (g_coreType == AscendC::AIC) {  // as ops-nn's sigmoid: a vector kernel
        return;
    }
    GET_TILING_DATA_WITH_STRUCT(LeakyUtVariantTiling, tilingData, tiling);
    leaky_ut_variant_fixture::LeakyUtVariantOp<T> op;
    op.SetSlope(tilingData.negativeSlope);
    op.Init({x}, y, tilingData);
    op.Process();
}
#endif
