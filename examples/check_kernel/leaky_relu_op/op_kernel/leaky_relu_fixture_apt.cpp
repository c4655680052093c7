// leaky_relu_fixture_apt.cpp - the fixture's Ascend 950 entry, in two variants as ops-nn's
// hard_swish_grad_apt.cpp has them: the UT entry under #ifdef DTYPE_X (a plain extern "C"
// function, GET_TILING_DATA) and the device template under #else (D_T_X from the tiling's
// ASCENDC_TPL_SEL_PARAM).
#include "arch35/leaky_relu_fixture.h"
#include "arch35/leaky_relu_fixture_tiling_key.h"

#ifdef DTYPE_X
extern "C" __global__ __aicore__ void leaky_relu_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    checker_fixture::RunLeakyRelu<DTYPE_X>(x, y, tilingData);
}
#else
template <typename D_T_X>
__global__ __aicore__ void leaky_relu_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(LeakyReluFixtureTiling);
    GET_TILING_DATA_WITH_STRUCT(LeakyReluFixtureTiling, tilingData, tiling);
    checker_fixture::RunLeakyRelu<D_T_X>(x, y, tilingData);
}
#endif
