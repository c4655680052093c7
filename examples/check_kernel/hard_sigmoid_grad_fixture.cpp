// hard_sigmoid_grad_fixture.cpp - HardSigmoidGrad written by hand for hswc-check-kernel's tests:
// y = (x > -3 && x < 3) ? grad * (1/6) : +0, in f32 (FAMILY.md), on elementwise_kernel.h.
// Compares GT -3 and LT 3 into two bit masks, And of them as 16-bit lanes, Muls by 1/6,
// Select (tensor-scalar) with +0, Cast back with CAST_RINT.
// Seeded mistake (-D SEEDED_SHARED_SCRATCH): grad's f32 copy is put where x's already is, so the
// compares read grad (a buffer overwritten too early). See elementwise_kernel.h for the others.
#include "elementwise_kernel.h"

struct HardSigmoidGradFixtureTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t ubFactor = 0;  // a multiple of 128
};

namespace checker_fixture {

template <typename T>
class HardSigmoidGrad : public Elementwise<HardSigmoidGrad<T>, T, HardSigmoidGradFixtureTiling, 2, 3> {
public:
    __aicore__ inline void Compute(LocalTensor<T> (&in)[2], const LocalTensor<T>& out, uint32_t cur)
    {
        const uint32_t lanes = this->Lanes(cur);
        LocalTensor<float> x = this->Widen(in[1], 0, cur);
#if defined(SEEDED_SHARED_SCRATCH)
        LocalTensor<float> grad = this->Widen(in[0], 0, cur);
#else
        LocalTensor<float> grad = this->Widen(in[0], 1, cur);
#endif
        LocalTensor<uint8_t> above = this->Mask(0);
        LocalTensor<uint8_t> below = this->Mask(1);
        PipeBarrier<PIPE_V>();
        Compares(above, x, -3.0f, CMPMODE::GT, lanes);
        Compares(below, x, 3.0f, CMPMODE::LT, lanes);
        PipeBarrier<PIPE_V>();
        And(above.ReinterpretCast<uint16_t>(), above.ReinterpretCast<uint16_t>(),
            below.ReinterpretCast<uint16_t>(), lanes / 16);
        Muls(grad, grad, 1.0f / 6.0f, cur);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> y = this->Result(out, 2);
        Select(y, above, grad, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cur);
        PipeBarrier<PIPE_V>();
        this->Narrow(out, y, cur);
    }
};

}  // namespace checker_fixture

template <typename T>
__global__ __aicore__ void hard_sigmoid_grad_fixture(GM_ADDR grad, GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
    GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(HardSigmoidGradFixtureTiling, tilingData, tiling);
    checker_fixture::HardSigmoidGrad<T> op;
    op.Init({grad, x}, y, tilingData);
    op.Process();
}
