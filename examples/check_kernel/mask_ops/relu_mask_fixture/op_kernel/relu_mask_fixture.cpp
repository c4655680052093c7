// relu_mask_fixture.cpp - the fixture's Ascend 950 kernel: y = x > 0 ? x : +0 and the packed
// mask of x > 0 (bit i % 8 of byte i / 8, as Compares writes it), in ops-nn's TPipe style. Each
// core takes blockFactor elements (a multiple of 256, so its mask starts at byte offset / 8)
// in chunks of ubFactor, in f32 (half and bf16 widened): Compares GT 0 -> Select for y, a second Compares for
// the mask (ceil(cur / 8) bytes, the bits past the chunk 0 on Ascend 950), both copied out with
// DataCopyPad. It writes nothing unless the tiling saw the mask as DT_UINT1 of x's shape.
//
// Seeded mistake (-D): SEEDED_MASK_GE  the mask compares x >= 0 (y stays right): its bit is 1
//                                      where x is +0 or -0.
#include "kernel_operator.h"
#include "relu_mask_fixture_tiling_data.h"

using namespace AscendC;

namespace {
#if defined(SEEDED_MASK_GE)
constexpr CMPMODE MASK_MODE = CMPMODE::GE;
#else
constexpr CMPMODE MASK_MODE = CMPMODE::GT;
#endif

template <typename T>
class ReluMask {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR mask, const ReluMaskFixtureTiling& tiling)
    {
        const int64_t offset = tiling.blockFactor * GetBlockIdx();
        const int64_t rest = tiling.totalNum - offset;
        length_ = rest < tiling.blockFactor ? rest : tiling.blockFactor;
        ub_ = tiling.ubFactor;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
        maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask) + offset / 8, (length_ + 7) / 8);
        pipe_.InitBuffer(inQue_, 2, ub_ * sizeof(T));
        pipe_.InitBuffer(yQue_, 2, ub_ * sizeof(T));
        pipe_.InitBuffer(maskQue_, 2, ub_ / 8);
        pipe_.InitBuffer(wide_, 2 * ub_ * sizeof(float));
        pipe_.InitBuffer(positive_, ub_ / 8);
    }

    __aicore__ inline void Process()
    {
        for (int64_t start = 0; start < length_; start += ub_) {
            const uint32_t cur = static_cast<uint32_t>(length_ - start < ub_ ? length_ - start : ub_);
            CopyIn(start, cur);
            Compute(cur);
            CopyOut(start, cur);
        }
    }

private:
    __aicore__ inline void CopyIn(int64_t start, uint32_t cur)
    {
        LocalTensor<T> x = inQue_.template AllocTensor<T>();
        DataCopyPad(x, xGm_[start], DataCopyExtParams{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, T(0)});
        inQue_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t cur)
    {
        LocalTensor<T> x = inQue_.template DeQue<T>();
        LocalTensor<T> y = yQue_.template AllocTensor<T>();
        LocalTensor<uint8_t> mask = maskQue_.template AllocTensor<uint8_t>();
        LocalTensor<float> xf = wide_.template Get<float>();
        LocalTensor<float> yf = xf[static_cast<uint32_t>(ub_)];
        LocalTensor<uint8_t> positive = positive_.template Get<uint8_t>();
        if constexpr (std::is_same<T, float>::value) {
            xf = x;
            yf = y;
        } else {
            Cast(xf, x, RoundMode::CAST_NONE, cur);
        }
        PipeBarrier<PIPE_V>();
        Compares(positive, xf, 0.0f, CMPMODE::GT, cur);
        Compares(mask, xf, 0.0f, MASK_MODE, cur);
        PipeBarrier<PIPE_V>();
        Select(yf, positive, xf, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cur);
        PipeBarrier<PIPE_V>();
        if constexpr (!std::is_same<T, float>::value) {
            Cast(y, yf, RoundMode::CAST_RINT, cur);
        }
        yQue_.EnQue(y);
        maskQue_.EnQue(mask);
        inQue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(int64_t start, uint32_t cur)
    {
        LocalTensor<T> y = yQue_.template DeQue<T>();
        LocalTensor<uint8_t> mask = maskQue_.template DeQue<uint8_t>();
        DataCopyPad(yGm_[start], y, DataCopyExtParams{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0});
        DataCopyPad(maskGm_[start / 8], mask, DataCopyExtParams{1, (cur + 7) / 8, 0, 0, 0});
        yQue_.FreeTensor(y);
        maskQue_.FreeTensor(mask);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQue_;
    TQue<QuePosition::VECOUT, 2> yQue_;
    TQue<QuePosition::VECOUT, 2> maskQue_;
    TBuf<QuePosition::VECCALC> wide_;
    TBuf<QuePosition::VECCALC> positive_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<uint8_t> maskGm_;
    int64_t length_ = 0;
    int64_t ub_ = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void relu_mask_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR mask, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ReluMaskFixtureTiling, tilingData, tiling);
    if (tilingData.maskSeen != 1) {
        return;
    }
    ReluMask<DTYPE_X> op;
    op.Init(x, y, mask, tilingData);
    op.Process();
}
