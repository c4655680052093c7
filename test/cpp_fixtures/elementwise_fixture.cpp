// elementwise_fixture.cpp - a hand-written kernel for the generic harness:
// three GM inputs, two GM outputs of different element types, its own tiling
// struct, and two entries (an untemplated one dispatching with TILING_KEY_IS,
// and one templated on the element type and queue depth). It exercises the
// API beyond HardSwishGrad's: Div, Maxs, Mins, Abs, Relu, Compares, And, Not,
// Or, Select in tensor-tensor and tensor-scalar mode, UB -> UB DataCopy, an
// integer Cast, a TQueBind used in place with user positions, SetFlag /
// WaitFlag pairs on event ids from AllocEventID (a fixed EVENT_ID0 of V_MTE3 is the id the
// queue's EnQue<VECOUT, GM> takes next: reused in flight). Per element, with x' = float(x) and IEEE maximum/minimum:
//   clamped = b' != 0 ? minimum(maximum(a' / b', lo), hi) : +0, back in T
//             (half: CAST_ROUND, ties away from zero)
//   mask    = !(a' <= 0 && c' >= 0) || b' == 0
//   scaled  = int32(CAST_ROUND(fl32((mask ? |c'| : maximum(a', +0)) * scale)))  (saturating)
// Build with -DHSWC_GM_INPUTS=3 -DHSWC_GM_OUTPUTS=2 and either
//   -DHSWC_KERNEL_ENTRY=elementwise_fixture -DHSWC_KERNEL_UNTEMPLATED  (keys 10: float, 20: half)
//   -DHSWC_KERNEL_ENTRY=elementwise_fixture_t -DHSWC_KERNEL_INSTANCES='HSWC_INSTANCE(10, float, 1) ...'
#include "kernel_operator.h"

using namespace AscendC;

struct ElementwiseFixtureTiling {
    uint32_t totalNum;     // elements of a, b, c, clamped, scaled
    uint32_t blockFactor;  // elements per core (the last core may have fewer)
    uint32_t ubFactor;     // elements per chunk, a multiple of 64
    float lo;
    float hi;
    float scale;
};

namespace ewfixture {

constexpr uint32_t kRepeatF32 = 64;  // f32 lanes of one 256-byte repeat

template <typename T, int DEPTH>
class Kernel {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR clamped, GM_ADDR scaled,
        const ElementwiseFixtureTiling& t)
    {
        t_ = t;
        const uint32_t offset = t.blockFactor * static_cast<uint32_t>(GetBlockIdx());
        length_ = offset >= t.totalNum ? 0 : (t.totalNum - offset < t.blockFactor ? t.totalNum - offset : t.blockFactor);
        if (length_ == 0) {
            return;
        }
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a) + offset, length_);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b) + offset, length_);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c) + offset, length_);
        clampedGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(clamped) + offset, length_);
        scaledGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(scaled) + offset, length_);
        const uint32_t n = t.ubFactor;
        pipe_.InitBuffer(aQue_, DEPTH, n * sizeof(T));
        pipe_.InitBuffer(bQue_, DEPTH, n * sizeof(T));
        pipe_.InitBuffer(cQue_, DEPTH, n * sizeof(T));
        pipe_.InitBuffer(wideBuf_, 3 * n * sizeof(float));  // a', b', c' (half only)
        pipe_.InitBuffer(workBuf_, 2 * n * sizeof(float));  // |c'| and the selected value
        pipe_.InitBuffer(maskBuf_, 3 * MaskBytes());
        pipe_.InitBuffer(scaledBuf_, n * sizeof(int32_t));
        vToMte3_ = pipe_.AllocEventID<HardEvent::V_MTE3>();
        mte3ToV_ = pipe_.AllocEventID<HardEvent::MTE3_V>();
        // The first chunk's V write of scaledBuf_ waits for nothing; later ones for the copy-out.
        SetFlag<HardEvent::MTE3_V>(mte3ToV_);
    }

    __aicore__ inline void Process()
    {
        if (length_ == 0) {
            return;
        }
        for (uint32_t done = 0; done < length_; done += t_.ubFactor) {
            const uint32_t cur = length_ - done < t_.ubFactor ? length_ - done : t_.ubFactor;
            CopyIn(done, cur);
            Compute(cur);
            CopyOut(done, cur);
        }
        WaitFlag<HardEvent::MTE3_V>(mte3ToV_);
        pipe_.ReleaseEventID<HardEvent::V_MTE3>(vToMte3_);
        pipe_.ReleaseEventID<HardEvent::MTE3_V>(mte3ToV_);
    }

private:
    __aicore__ inline uint32_t MaskBytes() const
    {
        const uint32_t bytes = (t_.ubFactor / 8 + 31) / 32 * 32;
        return bytes < 32 ? 32 : bytes;
    }

    __aicore__ inline void CopyIn(uint32_t done, uint32_t cur)
    {
        const DataCopyExtParams params{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0};
        const DataCopyPadExtParams<T> pad{false, 0, 0, T(0)};
        LocalTensor<T> a = aQue_.template AllocTensor<T>();
        LocalTensor<T> b = bQue_.template AllocTensor<T>();
        LocalTensor<T> c = cQue_.template AllocTensor<T>();
        DataCopyPad(a, aGm_[done], params, pad);
        DataCopyPad(b, bGm_[done], params, pad);
        DataCopyPad(c, cGm_[done], params, pad);
        aQue_.template EnQue<TPosition::GM, TPosition::VECIN, T>(a);
        bQue_.EnQue(b);
        cQue_.EnQue(c);
    }

    __aicore__ inline void Compute(uint32_t cur)
    {
        const uint32_t lanes = (cur + kRepeatF32 - 1) / kRepeatF32 * kRepeatF32;  // whole f32 repeats
        LocalTensor<T> a = aQue_.template DeQue<TPosition::GM, TPosition::VECIN, T>();
        LocalTensor<T> b = bQue_.template DeQue<T>();
        LocalTensor<T> c = cQue_.template DeQue<T>();
        LocalTensor<float> aF, bF, cF;
        if constexpr (std::is_same<T, float>::value) {
            aF = a;
            bF = b;
            cF = c;
        } else {
            LocalTensor<float> wide = wideBuf_.Get<float>();
            aF = wide;
            bF = wide[t_.ubFactor];
            cF = wide[2 * t_.ubFactor];
            Cast(aF, a, RoundMode::CAST_NONE, cur);
            Cast(bF, b, RoundMode::CAST_NONE, cur);
            Cast(cF, c, RoundMode::CAST_NONE, cur);
        }
        LocalTensor<float> absC = workBuf_.Get<float>();
        LocalTensor<float> sel = absC[t_.ubFactor];
        LocalTensor<uint8_t> masks = maskBuf_.Get<uint8_t>();
        LocalTensor<uint16_t> m1 = masks.template ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> m2 = masks[MaskBytes()].template ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> m3 = masks[2 * MaskBytes()].template ReinterpretCast<uint16_t>();

        // The select mask: !(a' <= 0 && c' >= 0) || b' == 0.
        DataCopy(absC, cF, lanes);  // UB -> UB (stale lanes past cur are copied too, never used)
        Abs(absC, absC, cur);
        Compares(masks, aF, 0.0f, CMPMODE::LE, lanes);
        Compares(masks[MaskBytes()], cF, 0.0f, CMPMODE::GE, lanes);
        Compares(masks[2 * MaskBytes()], bF, 0.0f, CMPMODE::EQ, lanes);
        And(m1, m1, m2, lanes / 16);
        Not(m1, m1, lanes / 16);
        Or(m1, m1, m3, lanes / 16);
        Relu(sel, aF, cur);
        Select(sel, m1.template ReinterpretCast<uint8_t>(), absC, sel, SELMODE::VSEL_TENSOR_TENSOR_MODE, cur);
        Muls(sel, sel, t_.scale, cur);
        WaitFlag<HardEvent::MTE3_V>(mte3ToV_);  // the previous chunk's copy-out of scaledBuf_ is done
        Cast(scaledBuf_.Get<int32_t>(), sel, RoundMode::CAST_ROUND, cur);
        SetFlag<HardEvent::V_MTE3>(vToMte3_);

        // clamped = b' != 0 ? minimum(maximum(a' / b', lo), hi) : +0, in place in a's buffer.
        Compares(masks, bF, 0.0f, CMPMODE::NE, lanes);
        Div(aF, aF, bF, cur);
        Maxs(aF, aF, t_.lo, cur);
        Mins(aF, aF, t_.hi, cur);
        Select(aF, masks, aF, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cur);
        if constexpr (!std::is_same<T, float>::value) {
            Cast(a, aF, RoundMode::CAST_ROUND, cur);
        }
        aQue_.template EnQue<TPosition::VECOUT, TPosition::GM, T>(a);
        bQue_.FreeTensor(b);
        cQue_.FreeTensor(c);
    }

    __aicore__ inline void CopyOut(uint32_t done, uint32_t cur)
    {
        LocalTensor<T> clamped = aQue_.template DeQue<TPosition::VECOUT, TPosition::GM, T>();
        DataCopyPad(clampedGm_[done], clamped, DataCopyExtParams{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0});
        aQue_.FreeTensor(clamped);
        WaitFlag<HardEvent::V_MTE3>(vToMte3_);
        DataCopyPad(scaledGm_[done], scaledBuf_.Get<int32_t>(),
            DataCopyExtParams{1, static_cast<uint32_t>(cur * sizeof(int32_t)), 0, 0, 0});
        SetFlag<HardEvent::MTE3_V>(mte3ToV_);
    }

    TPipe pipe_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, DEPTH> aQue_;
    TQue<TPosition::VECIN, DEPTH> bQue_;
    TQue<TPosition::VECIN, DEPTH> cQue_;
    TBuf<TPosition::VECCALC> wideBuf_, workBuf_, maskBuf_, scaledBuf_;
    GlobalTensor<T> aGm_, bGm_, cGm_, clampedGm_;
    GlobalTensor<int32_t> scaledGm_;
    ElementwiseFixtureTiling t_{};
    uint32_t length_ = 0;
    TEventID vToMte3_ = 0;
    TEventID mte3ToV_ = 0;
};

template <typename T, int DEPTH>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR clamped, GM_ADDR scaled, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ElementwiseFixtureTiling, t, tiling);
    Kernel<T, DEPTH> op;
    op.Init(a, b, c, clamped, scaled, t);
    op.Process();
}

}  // namespace ewfixture

/// Untemplated entry: key 10 runs the float kernel, key 20 the half one.
__global__ __aicore__ void elementwise_fixture(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR clamped, GM_ADDR scaled,
    [[maybe_unused]] GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(10)) {
        ewfixture::Run<float, 1>(a, b, c, clamped, scaled, tiling);
    } else if (TILING_KEY_IS(20)) {
        ewfixture::Run<half, 2>(a, b, c, clamped, scaled, tiling);
    }
}

/// The same kernels, templated on element type and queue depth.
template <typename T, int DEPTH>
__global__ __aicore__ void elementwise_fixture_t(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR clamped, GM_ADDR scaled,
    [[maybe_unused]] GM_ADDR workspace, GM_ADDR tiling)
{
    ewfixture::Run<T, DEPTH>(a, b, c, clamped, scaled, tiling);
}
