// leaky_relu_fixture.h - the fixture's kernel class: examples/check_kernel's LeakyRelu (y = x > 0
// ? x : x * negativeSlope, in f32) on the op folder's own tiling struct.
#ifndef LEAKY_RELU_FIXTURE_KERNEL_H
#define LEAKY_RELU_FIXTURE_KERNEL_H
#include "../../../elementwise_kernel.h"
#include "../leaky_relu_fixture_tiling_data.h"

namespace checker_fixture {

template <typename T>
class LeakyReluOp : public Elementwise<LeakyReluOp<T>, T, LeakyReluFixtureTiling, 1, 2> {
public:
    __aicore__ inline void SetSlope(float slope) { slope_ = slope; }

    __aicore__ inline void Compute(LocalTensor<T> (&in)[1], const LocalTensor<T>& out, uint32_t cur)
    {
        LocalTensor<float> x = this->Widen(in[0], 0, cur);
        LocalTensor<float> scaled = this->Result(out, 1);
        LocalTensor<uint8_t> positive = this->Mask(0);
        PipeBarrier<PIPE_V>();
        Muls(scaled, x, slope_, cur);
        Compares(positive, x, 0.0f, CMPMODE::GT, this->Lanes(cur));
        PipeBarrier<PIPE_V>();
        Select(scaled, positive, x, scaled, SELMODE::VSEL_TENSOR_TENSOR_MODE, cur);
        PipeBarrier<PIPE_V>();
        this->Narrow(out, scaled, cur);
    }

private:
    float slope_ = 0.0f;
};

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
