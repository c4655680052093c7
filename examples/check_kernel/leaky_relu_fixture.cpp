// leaky_relu_fixture.cpp - LeakyRelu written by hand for hswc-check-kernel's tests:
// y = x > 0 ? x : x * negativeSlope, in f32 (FAMILY.md), on elementwise_kernel.h. Muls by the
// slope (a float of the tiling), Compares GT 0, Select (tensor-tensor), Cast back (CAST_RINT).
// Seeded mistake (-D SEEDED_TRUNC_CAST): the result is cast back with CAST_TRUNC (a wrong round
// mode). See elementwise_kernel.h for the others.
#include "elementwise_kernel.h"

struct LeakyReluFixtureTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t ubFactor = 0;  // a multiple of 128
    float negativeSlope = 0.01f;
};

namespace checker_fixture {

template <typename T>
class LeakyRelu : public Elementwise<LeakyRelu<T>, T, LeakyReluFixtureTiling, 1, 2> {
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
#if defined(SEEDED_TRUNC_CAST)
        this->Narrow(out, scaled, cur, RoundMode::CAST_TRUNC);
#else
        this->Narrow(out, scaled, cur);
#endif
    }

private:
    float slope_ = 0.0f;
};

}  // namespace checker_fixture

template <typename T>
__global__ __aicore__ void leaky_relu_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(LeakyReluFixtureTiling, tilingData, tiling);
    checker_fixture::LeakyRelu<T> op;
    op.SetSlope(tilingData.negativeSlope);
    op.Init({x}, y, tilingData);
    op.Process();
}
