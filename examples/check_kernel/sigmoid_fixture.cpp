// sigmoid_fixture.cpp - Sigmoid written by hand for hswc-check-kernel's tests: y = 1 / (1 +
// exp(-x)) in f32 (docs/EXPONENTIAL.md), on elementwise_kernel.h: Muls by -1, Exp, Adds 1,
// Div of a buffer of ones, Cast back (CAST_RINT). Compared within PyTorch's tolerance of the
// exact function (the default for hsg.sigmoid). Seeded mistake (-D SEEDED_EXP_OF_X): Exp of
// x instead of -x (1 - sigmoid(x): far outside the tolerance).
#include "elementwise_kernel.h"

struct SigmoidFixtureTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t ubFactor = 0;  // a multiple of 128
};

namespace checker_fixture {

template <typename T>
class Sigmoid : public Elementwise<Sigmoid<T>, T, SigmoidFixtureTiling, 1, 3> {
public:
    __aicore__ inline void Compute(LocalTensor<T> (&in)[1], const LocalTensor<T>& out, uint32_t cur)
    {
        LocalTensor<float> x = this->Widen(in[0], 0, cur);
        LocalTensor<float> e = this->Result(out, 1);
        LocalTensor<float> ones = this->Scratch(2);
        PipeBarrier<PIPE_V>();
#if defined(SEEDED_EXP_OF_X)
        Exp(e, x, cur);
#else
        Muls(e, x, -1.0f, cur);
        PipeBarrier<PIPE_V>();
        Exp(e, e, cur);
#endif
        PipeBarrier<PIPE_V>();
        Adds(e, e, 1.0f, cur);
        Duplicate(ones, 1.0f, cur);
        PipeBarrier<PIPE_V>();
        Div(e, ones, e, cur);
        PipeBarrier<PIPE_V>();
        this->Narrow(out, e, cur);
    }
};

}  // namespace checker_fixture

template <typename T>
__global__ __aicore__ void sigmoid_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(SigmoidFixtureTiling, tilingData, tiling);
    checker_fixture::Sigmoid<T> op;
    op.Init({x}, y, tilingData);
    op.Process();
}
