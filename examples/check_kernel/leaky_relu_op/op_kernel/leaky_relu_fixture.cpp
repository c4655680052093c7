// leaky_relu_fixture.cpp - the fixture's Atlas A2/A3 entry: one plain function dispatching on
// the tiling key (0 f32, 1 f16, 2 bf16) with TILING_KEY_IS.
#include "arch35/leaky_relu_fixture.h"

extern "C" __global__ __aicore__ void leaky_relu_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(LeakyReluFixtureTiling, tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        checker_fixture::RunLeakyRelu<half>(x, y, tilingData);
    } else if (TILING_KEY_IS(2)) {
        checker_fixture::RunLeakyRelu<bfloat16_t>(x, y, tilingData);
    } else {
        checker_fixture::RunLeakyRelu<float>(x, y, tilingData);
    }
}
