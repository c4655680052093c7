// leaky_grad_optional_apt.cpp - the fixture's Ascend 950 entry: LeakyReluGrad of (dy, x), the
// optional `scale` between them and the output. It writes nothing unless scale is a null
// address and the tiling saw it absent.
#include "kernel_operator.h"
#include "../../../../elementwise_kernel.h"
#include "arch35/leaky_grad_optional_tiling_data.h"

namespace leaky_grad_optional_fixture {
using namespace AscendC;

template <typename T>
class LeakyGradOptionalOp
    : public checker_fixture::Elementwise<LeakyGradOptionalOp<T>, T, LeakyGradOptionalTiling, 2, 3> {
public:
    __aicore__ inline void SetSlope(float slope) { slope_ = slope; }

    __aicore__ inline void Compute(LocalTensor<T> (&in)[2], const LocalTensor<T>& out, uint32_t cur)
    {
        LocalTensor<float> grad = this->Widen(in[0], 0, cur);
        LocalTensor<float> x = this->Widen(in[1], 1, cur);
        LocalTensor<float> scaled = this->Result(out, 2);
        LocalTensor<uint8_t> positive = this->Mask(0);
        PipeBarrier<PIPE_V>();
        Muls(scaled, grad, slope_, cur);
        Compares(positive, x, 0.0f, CMPMODE::GT, this->Lanes(cur));
        PipeBarrier<PIPE_V>();
        Select(scaled, positive, grad, scaled, SELMODE::VSEL_TENSOR_TENSOR_MODE, cur);
        PipeBarrier<PIPE_V>();
        this->Narrow(out, scaled, cur);
    }

private:
    float slope_ = 0.0f;
};
}  // namespace leaky_grad_optional_fixture

extern "C" __global__ __aicore__ void leaky_grad_optional(GM_ADDR dy, GM_ADDR x, GM_ADDR scale, GM_ADDR z,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(LeakyGradOptionalTiling, tilingData, tiling);
    if (scale != nullptr || tilingData.absent != 1) {
        return;
    }
    leaky_grad_optional_fixture::LeakyGradOptionalOp<DTYPE_X> op;
    op.SetSlope(tilingData.negativeSlope);
    op.Init({dy, x}, z, tilingData);
    op.Process();
}
