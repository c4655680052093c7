// leaky_relu_fixture.h - the fixture's kernel class: examples/check_kernel's LeakyRelu (y = x > 0
// ? x : x * negativeSlope, in f32) on the op folder's own tiling struct.
#ifndef LEAKY_RELU_FIXTURE_KERNEL_H
#define LEAKY_RELU_FIXTURE_KERNEL_H
#include "../../../elementwise_kernel.h"
#include "../leaky_relu_fixture_tiling_data.h"

namespace checker_fixture {

template <typename T>
using LeakyReluOp = checker_fixture::LeakyReluBody<T, LeakyReluFixtureTiling>;

template <typename T>
__aicore__ inline void RunLeakyRelu(GM_ADDR x, GM_ADDR y, const LeakyReluFixtureTiling& tiling)
{
    LeakyReluOp<T> op;
    op.SetSlope(tiling.negativeSlope);
    op.Init({x}, y, tiling);
    op.Process();
}

}  // namespace checker_fixture
#endif
