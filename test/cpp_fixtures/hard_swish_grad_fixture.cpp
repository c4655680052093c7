// hard_swish_grad_fixture.cpp - hand-written HardSwishGrad kernel used to
// test the AscendC CPU model (hswc/checker/ascendc_cpu) and its harness.
//
// Written from docs/SPEC.md section 5 (the structure of the reference
// kernel) and section 2 (its bit-exact semantics):
//   s = fl32(fl32(x * 0.333333343f) + 0.5f)
//   s = x > -3 ? s : 0;  s = x < 3 ? s : 1;  y = fl32(grad * s)
// then y is cast back (f16: CAST_NONE, bf16: CAST_RINT).
//
// It deliberately mixes the equivalent API forms so that one kernel
// exercises all of them: Compare with a constant tensor (x > -3) and
// CompareScalar (x < 3); Select in tensor-tensor mode (with a zero tensor)
// and tensor-scalar mode (with 1.0f); DataCopy for 32-byte multiples and
// DataCopyPad otherwise; ReinterpretCast for f32 inputs and Cast otherwise.
#include "kernel_operator.h"

using namespace AscendC;

struct HardSwishGradTilingData {
    int64_t totalNum;     // elements of grad / x / y
    int64_t blockFactor;  // elements per core (the last core may have fewer)
    int64_t ubFactor;     // elements per UB loop, a multiple of 64
};

namespace hswc_fixture {

constexpr int32_t kBufferNum = 1;           // no double buffering, as in the reference
constexpr int64_t kComputeAlign = 64;       // one 256-byte repeat of f32
constexpr int64_t kMaskAlign = 256;         // Compare writes whole 256-byte masks
constexpr uint32_t kBlockBytes = 32;        // UB data block
constexpr float kOneThird = 0.333333343f;   // 0x3EAAAAAB, the reference's slope constant

template <typename T>
class HardSwishGradKernel {
public:
    __aicore__ inline HardSwishGradKernel() {}

    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR x, GM_ADDR y, const HardSwishGradTilingData& tiling)
    {
        const int64_t blockOffset = tiling.blockFactor * GetBlockIdx();
        const int64_t remaining = tiling.totalNum - blockOffset;
        blockLength_ = remaining < tiling.blockFactor ? remaining : tiling.blockFactor;
        if (blockLength_ < 0) {
            blockLength_ = 0;
        }
        ubFactor_ = tiling.ubFactor;
        if (blockLength_ == 0 || ubFactor_ <= 0) {
            return;
        }

        gradGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(grad) + blockOffset, blockLength_);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + blockOffset, blockLength_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + blockOffset, blockLength_);

        const uint32_t ioBytes = static_cast<uint32_t>(ubFactor_ * sizeof(T));
        const uint32_t f32Bytes = static_cast<uint32_t>(ubFactor_ * sizeof(float));
        pipe_.InitBuffer(xQueue_, kBufferNum, ioBytes);
        pipe_.InitBuffer(gradQueue_, kBufferNum, ioBytes);
        pipe_.InitBuffer(yQueue_, kBufferNum, ioBytes);
        if constexpr (!std::is_same_v<T, float>) {
            pipe_.InitBuffer(xF32Buf_, f32Bytes);
            pipe_.InitBuffer(gradF32Buf_, f32Bytes);
        }
        pipe_.InitBuffer(slopeBuf_, f32Bytes);
        pipe_.InitBuffer(lowerBuf_, f32Bytes);
        pipe_.InitBuffer(zeroBuf_, f32Bytes);

        int64_t maskBytes = ((ubFactor_ + 7) / 8 + kMaskAlign - 1) / kMaskAlign * kMaskAlign;
        if (maskBytes < kMaskAlign) {
            maskBytes = kMaskAlign;
        }
        pipe_.InitBuffer(gtMaskBuf_, static_cast<uint32_t>(maskBytes));
        pipe_.InitBuffer(ltMaskBuf_, static_cast<uint32_t>(maskBytes));

        LocalTensor<float> lower = lowerBuf_.Get<float>();
        LocalTensor<float> zero = zeroBuf_.Get<float>();
        Duplicate(lower, -3.0f, static_cast<int32_t>(ubFactor_));
        Duplicate(zero, 0.0f, static_cast<int32_t>(ubFactor_));
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        if (blockLength_ == 0 || ubFactor_ <= 0) {
            return;
        }
        const int64_t loops = (blockLength_ + ubFactor_ - 1) / ubFactor_;
        for (int64_t i = 0; i < loops; ++i) {
            const int64_t cur = i == loops - 1 ? blockLength_ - i * ubFactor_ : ubFactor_;
            CopyIn(i, cur);
            Compute(cur);
            CopyOut(i, cur);
        }
    }

private:
    __aicore__ inline static bool BlockAligned(int64_t count)
    {
        return (count * static_cast<int64_t>(sizeof(T))) % kBlockBytes == 0;
    }

    __aicore__ inline void CopyIn(int64_t loop, int64_t cur)
    {
        LocalTensor<T> xLocal = xQueue_.template AllocTensor<T>();
        LocalTensor<T> gradLocal = gradQueue_.template AllocTensor<T>();
        const int64_t offset = loop * ubFactor_;
        if (BlockAligned(cur)) {
            DataCopy(xLocal, xGm_[offset], static_cast<uint32_t>(cur));
            DataCopy(gradLocal, gradGm_[offset], static_cast<uint32_t>(cur));
        } else {
            DataCopyParams params;
            params.blockCount = 1;
            params.blockLen = static_cast<uint16_t>(cur * sizeof(T));
            params.srcStride = 0;
            params.dstStride = 0;
            const DataCopyPadParams pad{false, 0, 0, 0};
            DataCopyPad(xLocal, xGm_[offset], params, pad);
            DataCopyPad(gradLocal, gradGm_[offset], params, pad);
        }
        xQueue_.EnQue(xLocal);
        gradQueue_.EnQue(gradLocal);
    }

    __aicore__ inline void Compute(int64_t cur)
    {
        LocalTensor<T> xLocal = xQueue_.template DeQue<T>();
        LocalTensor<T> gradLocal = gradQueue_.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue_.template AllocTensor<T>();

        LocalTensor<float> xF32;
        LocalTensor<float> gradF32;
        if constexpr (std::is_same_v<T, float>) {
            xF32 = xLocal.template ReinterpretCast<float>();
            gradF32 = gradLocal.template ReinterpretCast<float>();
        } else {
            xF32 = xF32Buf_.Get<float>();
            gradF32 = gradF32Buf_.Get<float>();
            Cast(xF32, xLocal, RoundMode::CAST_NONE, static_cast<uint32_t>(cur));
            Cast(gradF32, gradLocal, RoundMode::CAST_NONE, static_cast<uint32_t>(cur));
            PipeBarrier<PIPE_V>();
        }

        LocalTensor<float> slope = slopeBuf_.Get<float>();
        LocalTensor<float> lower = lowerBuf_.Get<float>();
        LocalTensor<float> zero = zeroBuf_.Get<float>();
        LocalTensor<uint8_t> gtMask = gtMaskBuf_.Get<uint8_t>();
        LocalTensor<uint8_t> ltMask = ltMaskBuf_.Get<uint8_t>();

        // Lanes in [cur, computeNum) hold stale data; they never reach GM.
        const int64_t computeNum = (cur + kComputeAlign - 1) / kComputeAlign * kComputeAlign;
        const uint32_t n = static_cast<uint32_t>(computeNum);

        Compare(gtMask, xF32, lower, CMPMODE::GT, n);
        CompareScalar(ltMask, xF32, 3.0f, CMPMODE::LT, n);
        PipeBarrier<PIPE_V>();
        Muls(slope, xF32, kOneThird, static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        Adds(slope, slope, 0.5f, static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        Select(slope, gtMask, slope, zero, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        PipeBarrier<PIPE_V>();
        Select(slope, ltMask, slope, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        PipeBarrier<PIPE_V>();

        if constexpr (std::is_same_v<T, float>) {
            Mul(yLocal, gradF32, slope, static_cast<int32_t>(n));
        } else {
            Mul(slope, gradF32, slope, static_cast<int32_t>(n));
            PipeBarrier<PIPE_V>();
            if constexpr (std::is_same_v<T, bfloat16_t>) {
                Cast(yLocal, slope, RoundMode::CAST_RINT, static_cast<uint32_t>(cur));
            } else {
                Cast(yLocal, slope, RoundMode::CAST_NONE, static_cast<uint32_t>(cur));
            }
        }

        yQueue_.EnQue(yLocal);
        xQueue_.FreeTensor(xLocal);
        gradQueue_.FreeTensor(gradLocal);
    }

    __aicore__ inline void CopyOut(int64_t loop, int64_t cur)
    {
        LocalTensor<T> yLocal = yQueue_.template DeQue<T>();
        const int64_t offset = loop * ubFactor_;
        if (BlockAligned(cur)) {
            DataCopy(yGm_[offset], yLocal, static_cast<uint32_t>(cur));
        } else {
            DataCopyParams params(1, static_cast<uint16_t>(cur * sizeof(T)), 0, 0);
            DataCopyPad(yGm_[offset], yLocal, params);
        }
        yQueue_.FreeTensor(yLocal);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, kBufferNum> xQueue_;
    TQue<QuePosition::VECIN, kBufferNum> gradQueue_;
    TQue<QuePosition::VECOUT, kBufferNum> yQueue_;
    TBuf<QuePosition::VECCALC> xF32Buf_;
    TBuf<QuePosition::VECCALC> gradF32Buf_;
    TBuf<QuePosition::VECCALC> slopeBuf_;
    TBuf<QuePosition::VECCALC> lowerBuf_;
    TBuf<QuePosition::VECCALC> zeroBuf_;
    TBuf<QuePosition::VECCALC> gtMaskBuf_;
    TBuf<QuePosition::VECCALC> ltMaskBuf_;

    GlobalTensor<T> gradGm_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;

    int64_t blockLength_ = 0;
    int64_t ubFactor_ = 0;
};

template <typename T>
__aicore__ inline void Run(GM_ADDR grad, GM_ADDR x, GM_ADDR y, const HardSwishGradTilingData& tiling)
{
    HardSwishGradKernel<T> op;
    op.Init(grad, x, y, tiling);
    op.Process();
}

}  // namespace hswc_fixture

template <uint32_t schMode>
__global__ __aicore__ void hard_swish_grad(GM_ADDR grad, GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;  // HardSwishGrad needs no workspace
    REGISTER_TILING_DEFAULT(HardSwishGradTilingData);
    GET_TILING_DATA_WITH_STRUCT(HardSwishGradTilingData, tilingData, tiling);
    static_assert(schMode <= 2, "tiling keys: 0 = f16, 1 = f32, 2 = bf16");
    if constexpr (schMode == 0) {
        hswc_fixture::Run<half>(grad, x, y, tilingData);
    } else if constexpr (schMode == 1) {
        hswc_fixture::Run<float>(grad, x, y, tilingData);
    } else {
        hswc_fixture::Run<bfloat16_t>(grad, x, y, tilingData);
    }
}
