// hardtanh_fixture.cpp - Hardtanh written by hand for hswc-check-kernel's tests:
// y = x < minVal ? minVal : (x > maxVal ? maxVal : x), in f32 (FAMILY.md; -0 stays -0), on
// elementwise_kernel.h. Each bound: Duplicate it, Compares, Select (tensor-tensor); Cast back.
// Seeded mistake (-D SEEDED_SELECT_SPR): the first Select uses VSEL_CMPMASK_SPR, which reuses the
// first repeat's mask bits for every repeat (a wrong mode). See elementwise_kernel.h for others.
#include "elementwise_kernel.h"

struct HardtanhFixtureTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t ubFactor = 0;  // a multiple of 128
    float minVal = -1.0f;
    float maxVal = 1.0f;
};

namespace checker_fixture {

#if defined(SEEDED_SELECT_SPR)
constexpr SELMODE LOWER_MODE = SELMODE::VSEL_CMPMASK_SPR;
#else
constexpr SELMODE LOWER_MODE = SELMODE::VSEL_TENSOR_TENSOR_MODE;
#endif

template <typename T>
class Hardtanh : public Elementwise<Hardtanh<T>, T, HardtanhFixtureTiling, 1, 3> {
public:
    __aicore__ inline void SetBounds(float lo, float hi)
    {
        lo_ = lo;
        hi_ = hi;
    }

    __aicore__ inline void Compute(LocalTensor<T> (&in)[1], const LocalTensor<T>& out, uint32_t cur)
    {
        const uint32_t lanes = this->Lanes(cur);
        LocalTensor<float> x = this->Widen(in[0], 0, cur);
        LocalTensor<float> bound = this->Scratch(1);
        LocalTensor<float> y = this->Result(out, 2);
        LocalTensor<uint8_t> mask = this->Mask(0);
        Duplicate(bound, lo_, cur);
        Compares(mask, x, lo_, CMPMODE::LT, lanes);
        PipeBarrier<PIPE_V>();
        Select(y, mask, bound, x, LOWER_MODE, cur);
        PipeBarrier<PIPE_V>();
        Duplicate(bound, hi_, cur);
        Compares(mask, x, hi_, CMPMODE::GT, lanes);
        PipeBarrier<PIPE_V>();
        Select(y, mask, bound, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, cur);
        PipeBarrier<PIPE_V>();
        this->Narrow(out, y, cur);
    }

private:
    float lo_ = 0.0f;
    float hi_ = 0.0f;
};

}  // namespace checker_fixture

template <typename T>
__global__ __aicore__ void hardtanh_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(HardtanhFixtureTiling, tilingData, tiling);
    checker_fixture::Hardtanh<T> op;
    op.SetBounds(tilingData.minVal, tilingData.maxVal);
    op.Init({x}, y, tilingData);
    op.Process();
}
