// elementwise_kernel.h - a TPipe/TQue elementwise kernel in ops-nn's style, for the tests of
// hswc-check-kernel (test/test_check_kernel.py).
//
// Each core takes blockFactor elements from blockFactor * blockIdx (the last core fewer) and
// works through them in chunks of ubFactor: CopyIn (DataCopyPad GM -> UB, EnQue), Compute (the
// op's, on the DeQue'd inputs, in f32), CopyOut (DeQue, DataCopyPad UB -> GM). An op derives
// from Elementwise<Op, T, Tiling, INPUTS, SLOTS> and defines
//     void Compute(LocalTensor<T> (&in)[INPUTS], const LocalTensor<T>& out, uint32_t cur)
// using SLOTS f32 scratch chunks (Scratch), Widen (the input in f32: itself for float, else a
// CAST_NONE copy in a slot), Result (where the f32 result goes: the output tensor for float,
// else a slot), Narrow (the result cast back to T) and two compare masks (Mask). ubFactor must be a multiple of 128, so that whole
// 256-byte repeats over the chunk stay inside every buffer.
//
// Seeded mistakes, each chosen with -D (none: the kernel is right):
//   SEEDED_MISSING_TAIL     the chunk loop stops before the last, shorter chunk
//   SEEDED_FULL_TAIL_COPY   CopyIn reads a whole chunk also for the shorter last one
//   SEEDED_NO_INPUT_QUEUE   the inputs are computed on without EnQue/DeQue (MTE2 -> V race)
//   SEEDED_PARTIAL_REPEAT   Lanes is the chunk's own length, not whole repeats (A2/A3's Compare
//                           then compares only the whole repeats)
#ifndef CHECKER_ELEMENTWISE_KERNEL_H
#define CHECKER_ELEMENTWISE_KERNEL_H

#include "kernel_operator.h"

namespace checker_fixture {

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t F32_PER_REPEAT = 64;

template <typename Op, typename T, typename Tiling, int INPUTS, int SLOTS>
class Elementwise {
public:
    __aicore__ inline void Init(GM_ADDR const (&in)[INPUTS], GM_ADDR out, const Tiling& tiling)
    {
        const int64_t offset = tiling.blockFactor * GetBlockIdx();
        const int64_t rest = tiling.totalNum - offset;
        length_ = rest < tiling.blockFactor ? rest : tiling.blockFactor;
        ubFactor_ = tiling.ubFactor;
        for (int k = 0; k < INPUTS; ++k) {
            inGm_[k].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(in[k]) + offset, length_);
            pipe_.InitBuffer(inQue_[k], BUFFER_NUM, ubFactor_ * sizeof(T));
        }
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out) + offset, length_);
        pipe_.InitBuffer(outQue_, BUFFER_NUM, ubFactor_ * sizeof(T));
        pipe_.InitBuffer(scratch_, SLOTS * ubFactor_ * sizeof(float));
        pipe_.InitBuffer(masks_, 2 * MaskBytes());
    }

    __aicore__ inline void Process()
    {
        if (length_ <= 0) {
            return;
        }
#if defined(SEEDED_MISSING_TAIL)
        const int64_t chunks = length_ / ubFactor_;
#else
        const int64_t chunks = (length_ + ubFactor_ - 1) / ubFactor_;
#endif
        for (int64_t i = 0; i < chunks; ++i) {
            const int64_t left = length_ - i * ubFactor_;
            const uint32_t cur = static_cast<uint32_t>(left < ubFactor_ ? left : ubFactor_);
            LocalTensor<T> in[INPUTS];
            for (int k = 0; k < INPUTS; ++k) {
                in[k] = CopyIn(k, i, cur);
            }
            LocalTensor<T> out = outQue_.template AllocTensor<T>();
            static_cast<Op*>(this)->Compute(in, out, cur);
            outQue_.EnQue(out);
            for (int k = 0; k < INPUTS; ++k) {
                inQue_[k].FreeTensor(in[k]);
            }
            CopyOut(i, cur);
        }
    }

protected:
    /// Whole f32 repeats covering `cur` elements (what Compares needs).
    __aicore__ inline uint32_t Lanes(uint32_t cur) const
    {
#if defined(SEEDED_PARTIAL_REPEAT)
        return cur;
#else
        return (cur + F32_PER_REPEAT - 1) / F32_PER_REPEAT * F32_PER_REPEAT;
#endif
    }

    __aicore__ inline LocalTensor<float> Scratch(int slot)
    {
        return scratch_.template Get<float>()[static_cast<uint32_t>(slot * ubFactor_)];
    }

    __aicore__ inline LocalTensor<float> Widen(const LocalTensor<T>& t, int slot, uint32_t cur)
    {
        if constexpr (std::is_same<T, float>::value) {
            return t;
        } else {
            LocalTensor<float> wide = Scratch(slot);
            Cast(wide, t, RoundMode::CAST_NONE, cur);
            return wide;
        }
    }

    __aicore__ inline LocalTensor<float> Result(const LocalTensor<T>& out, int slot)
    {
        if constexpr (std::is_same<T, float>::value) {
            return out;
        } else {
            return Scratch(slot);
        }
    }

    __aicore__ inline void Narrow(const LocalTensor<T>& out, const LocalTensor<float>& result, uint32_t cur,
        RoundMode mode = RoundMode::CAST_RINT)
    {
        if constexpr (!std::is_same<T, float>::value) {
            Cast(out, result, mode, cur);
        }
    }

    __aicore__ inline LocalTensor<uint8_t> Mask(int k) { return masks_.template Get<uint8_t>()[k * MaskBytes()]; }

    int64_t ubFactor_ = 0;

private:
    __aicore__ inline uint32_t MaskBytes() const
    {
        const uint32_t bytes = static_cast<uint32_t>((ubFactor_ / 8 + 31) / 32 * 32);
        return bytes < 32 ? 32 : bytes;
    }

    __aicore__ inline LocalTensor<T> CopyIn(int k, int64_t chunk, uint32_t cur)
    {
        LocalTensor<T> t = inQue_[k].template AllocTensor<T>();
#if defined(SEEDED_FULL_TAIL_COPY)
        const uint32_t copied = static_cast<uint32_t>(ubFactor_);
#else
        const uint32_t copied = cur;
#endif
        const DataCopyExtParams params{1, static_cast<uint32_t>(copied * sizeof(T)), 0, 0, 0};
        DataCopyPad(t, inGm_[k][chunk * ubFactor_], params, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
#if defined(SEEDED_NO_INPUT_QUEUE)
        return t;
#else
        inQue_[k].EnQue(t);
        return inQue_[k].template DeQue<T>();
#endif
    }

    __aicore__ inline void CopyOut(int64_t chunk, uint32_t cur)
    {
        LocalTensor<T> out = outQue_.template DeQue<T>();
        const DataCopyExtParams params{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm_[chunk * ubFactor_], out, params);
        outQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_[INPUTS];
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<QuePosition::VECCALC> scratch_;
    TBuf<QuePosition::VECCALC> masks_;
    GlobalTensor<T> inGm_[INPUTS];
    GlobalTensor<T> outGm_;
    int64_t length_ = 0;
};

/// The op-folder fixtures' LeakyRelu (y = x > 0 ? x : x * slope, in f32; FAMILY.md) over their
/// own tiling structs (each with the split's totalNum, blockFactor, ubFactor): Muls by the
/// slope, Compares GT 0, Select (tensor-tensor), Cast back (CAST_RINT).
template <typename T, typename Tiling>
class LeakyReluBody : public Elementwise<LeakyReluBody<T, Tiling>, T, Tiling, 1, 2> {
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

}  // namespace checker_fixture

#endif  // CHECKER_ELEMENTWISE_KERNEL_H
