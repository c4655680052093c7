// relu_grad_mask_fixture.cpp - the fixture's Ascend 950 kernel: backprops = mask bit ? gradients
// : +0, the mask packed (bit i % 8 of byte i / 8, as Select reads it), in ops-nn's TPipe style.
// Each core takes blockFactor elements (a multiple of 256, so its mask starts at byte
// offset / 8) in chunks of ubFactor: DataCopyPad of the chunk's gradients and its ceil(cur / 8)
// mask bytes, Select (tensor-scalar) in f32 (half and bf16 widened), DataCopyPad out. It writes
// nothing unless the tiling saw the mask as DT_UINT1 of the gradients' shape.
//
// Seeded mistake (-D): SEEDED_MASK_OFFSET  every core reads the mask from its start, not from
//                                          its own first byte: core k > 0 uses core 0's bits.
#include "kernel_operator.h"
#include "relu_grad_mask_fixture_tiling_data.h"

using namespace AscendC;

namespace {
template <typename T>
class ReluGradMask {
public:
    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR mask, GM_ADDR out, const ReluGradMaskFixtureTiling& tiling)
    {
        const int64_t offset = tiling.blockFactor * GetBlockIdx();
        const int64_t rest = tiling.totalNum - offset;
        length_ = rest < tiling.blockFactor ? rest : tiling.blockFactor;
        ub_ = tiling.ubFactor;
        gradGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(grad) + offset, length_);
#if defined(SEEDED_MASK_OFFSET)
        maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask), (length_ + 7) / 8);
#else
        maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask) + offset / 8, (length_ + 7) / 8);
#endif
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out) + offset, length_);
        pipe_.InitBuffer(gradQue_, 2, ub_ * sizeof(T));
        pipe_.InitBuffer(maskQue_, 2, ub_ / 8);
        pipe_.InitBuffer(outQue_, 2, ub_ * sizeof(T));
        pipe_.InitBuffer(wide_, 2 * ub_ * sizeof(float));
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
        LocalTensor<T> grad = gradQue_.template AllocTensor<T>();
        LocalTensor<uint8_t> mask = maskQue_.template AllocTensor<uint8_t>();
        DataCopyPad(grad, gradGm_[start], DataCopyExtParams{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, T(0)});
        DataCopyPad(mask, maskGm_[start / 8], DataCopyExtParams{1, (cur + 7) / 8, 0, 0, 0},
                    DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        gradQue_.EnQue(grad);
        maskQue_.EnQue(mask);
    }

    __aicore__ inline void Compute(uint32_t cur)
    {
        LocalTensor<T> grad = gradQue_.template DeQue<T>();
        LocalTensor<uint8_t> mask = maskQue_.template DeQue<uint8_t>();
        LocalTensor<T> out = outQue_.template AllocTensor<T>();
        LocalTensor<float> gf = wide_.template Get<float>();
        LocalTensor<float> of = gf[static_cast<uint32_t>(ub_)];
        if constexpr (std::is_same<T, float>::value) {
            gf = grad;
            of = out;
        } else {
            Cast(gf, grad, RoundMode::CAST_NONE, cur);
        }
        PipeBarrier<PIPE_V>();
        Select(of, mask, gf, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cur);
        PipeBarrier<PIPE_V>();
        if constexpr (!std::is_same<T, float>::value) {
            Cast(out, of, RoundMode::CAST_RINT, cur);
        }
        outQue_.EnQue(out);
        gradQue_.FreeTensor(grad);
        maskQue_.FreeTensor(mask);
    }

    __aicore__ inline void CopyOut(int64_t start, uint32_t cur)
    {
        LocalTensor<T> out = outQue_.template DeQue<T>();
        DataCopyPad(outGm_[start], out, DataCopyExtParams{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0});
        outQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> gradQue_;
    TQue<QuePosition::VECIN, 2> maskQue_;
    TQue<QuePosition::VECOUT, 2> outQue_;
    TBuf<QuePosition::VECCALC> wide_;
    GlobalTensor<T> gradGm_;
    GlobalTensor<uint8_t> maskGm_;
    GlobalTensor<T> outGm_;
    int64_t length_ = 0;
    int64_t ub_ = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void relu_grad_mask_fixture(GM_ADDR gradients, GM_ADDR mask, GM_ADDR backprops,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ReluGradMaskFixtureTiling, tilingData, tiling);
    if (tilingData.maskSeen != 1) {
        return;
    }
    ReluGradMask<DTYPE_X> op;
    op.Init(gradients, mask, backprops, tilingData);
    op.Process();
}
