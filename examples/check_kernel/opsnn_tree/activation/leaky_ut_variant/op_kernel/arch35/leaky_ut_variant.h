// leaky_ut_variant.h - the fixture's LeakyRelu; in a UT build (DTYPE_X defined) the UT's own
// header defines the tiling data, so this one leaves it out, as ops-nn's hard_swish_grad_v2.h.
#ifndef LEAKY_UT_VARIANT_H
#define LEAKY_UT_VARIANT_H
#include "kernel_operator.h"
#include "../../../../../elementwise_kernel.h"
#ifndef DTYPE_X
#include "leaky_ut_variant_tiling_data.h"
#endif

namespace leaky_ut_variant_fixture {
using namespace AscendC;

template <typename T>
class LeakyUtVariantOp
    : public checker_fixture::Elementwise<LeakyUtVariantOp<T>, T, LeakyUtVariantTiling, 1, 2> {
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
}  // namespace leaky_ut_variant_fixture
#endif
