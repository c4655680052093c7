// hardtanh_flags_fixture.cpp - Hardtanh written by hand for hswc-check-kernel's tests, as a kernel
// that does its own synchronisation does it: TBufs and SetFlag / WaitFlag on event ids from
// AllocEventID, no TQue. y = min(max(x, minVal), maxVal) in the input's type (Maxs and Mins do
// not round; f16 and f32, the types Atlas A2/A3's Maxs and Mins take). Each core copies its
// chunks of x into one UB buffer and computes into two y buffers by turns, so that a chunk's
// copy-out overlaps the next chunk's compute; each y buffer has its own MTE3_V flag, "its last
// copy-out is done", set at the start for both.
// Seeded mistakes, each chosen with -D (none: the kernel is right):
//   SEEDED_FETCHED_EVENT_IDS  the y buffers' MTE3_V ids come from FetchEventID, which takes
//                             nothing: both are id 0, set twice before either is waited for
//   SEEDED_NO_VECTOR_BARRIER  no PipeBarrier<PIPE_V> between Maxs and the Mins that reads its
//                             result: right only where the compiler inserts it (BiSheng's
//                             default --cce-auto-sync=on) or the hardware orders vector calls
//                             (Ascend 950)
//   SEEDED_UNORDERED_X_READ   nothing orders x's next copy-in (MTE2) after the vector calls that
//                             read x: no V_MTE2 flag, no scalar wait
// And a variant that is right: with SCALAR_ORDERS_X_READ, x's next copy-in is ordered after the
// vector calls by the scalar unit instead of a V_MTE2 flag: SetFlag / WaitFlag<HardEvent::V_S>,
// then the scalar reads y's first element (GetValue), as ops-nn's swiglu_group_quant does
// before its x copy-ins; the scalar issues the next copy-in only after its wait.
#if defined(SCALAR_ORDERS_X_READ) || defined(SEEDED_UNORDERED_X_READ)
#define X_READ_FLAG 0  // no V_MTE2 flag orders x's copy-in after its read
#else
#define X_READ_FLAG 1
#endif
#include "kernel_operator.h"

using namespace AscendC;

struct HardtanhFlagsFixtureTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t ubFactor = 0;
    float minVal = -1.0f;
    float maxVal = 1.0f;
};

namespace checker_fixture {

template <typename T>
class HardtanhFlags {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HardtanhFlagsFixtureTiling& tiling)
    {
        const int64_t offset = tiling.blockFactor * GetBlockIdx();
        const int64_t rest = tiling.totalNum - offset;
        length_ = rest < tiling.blockFactor ? rest : tiling.blockFactor;
        ubFactor_ = tiling.ubFactor;
        lo_ = static_cast<T>(tiling.minVal);
        hi_ = static_cast<T>(tiling.maxVal);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
        pipe_.InitBuffer(xBuf_, ubFactor_ * sizeof(T));
        pipe_.InitBuffer(yBuf_[0], ubFactor_ * sizeof(T));
        pipe_.InitBuffer(yBuf_[1], ubFactor_ * sizeof(T));
        xCopied_ = pipe_.AllocEventID<HardEvent::MTE2_V>();
#if X_READ_FLAG
        xRead_ = pipe_.AllocEventID<HardEvent::V_MTE2>();
#endif
#if defined(SCALAR_ORDERS_X_READ)
        vDone_ = pipe_.AllocEventID<HardEvent::V_S>();
#endif
        yWritten_ = pipe_.AllocEventID<HardEvent::V_MTE3>();
#if defined(SEEDED_FETCHED_EVENT_IDS)
        yCopied_[0] = pipe_.FetchEventID<HardEvent::MTE3_V>();
        yCopied_[1] = pipe_.FetchEventID<HardEvent::MTE3_V>();
#else
        yCopied_[0] = pipe_.AllocEventID<HardEvent::MTE3_V>();
        yCopied_[1] = pipe_.AllocEventID<HardEvent::MTE3_V>();
#endif
#if X_READ_FLAG
        SetFlag<HardEvent::V_MTE2>(xRead_);  // x's buffer starts free
#endif
        SetFlag<HardEvent::MTE3_V>(yCopied_[0]);  // and so do both of y's
        SetFlag<HardEvent::MTE3_V>(yCopied_[1]);
    }

    __aicore__ inline void Process()
    {
        const int64_t chunks = length_ <= 0 ? 0 : (length_ + ubFactor_ - 1) / ubFactor_;
        for (int64_t i = 0; i < chunks; ++i) {
            const int64_t left = length_ - i * ubFactor_;
            const uint32_t cur = static_cast<uint32_t>(left < ubFactor_ ? left : ubFactor_);
            const DataCopyExtParams params{1, static_cast<uint32_t>(cur * sizeof(T)), 0, 0, 0};
            LocalTensor<T> x = xBuf_.Get<T>();
            LocalTensor<T> y = yBuf_[i % 2].template Get<T>();
#if X_READ_FLAG
            WaitFlag<HardEvent::V_MTE2>(xRead_);
#endif
            DataCopyPad(x, xGm_[i * ubFactor_], params, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
            SetFlag<HardEvent::MTE2_V>(xCopied_);
            WaitFlag<HardEvent::MTE2_V>(xCopied_);
            WaitFlag<HardEvent::MTE3_V>(yCopied_[i % 2]);
            Maxs(y, x, lo_, cur);
#if !defined(SEEDED_NO_VECTOR_BARRIER)
            PipeBarrier<PIPE_V>();
#endif
            Mins(y, y, hi_, cur);
#if X_READ_FLAG
            SetFlag<HardEvent::V_MTE2>(xRead_);
#elif defined(SCALAR_ORDERS_X_READ)
            SetFlag<HardEvent::V_S>(vDone_);
            WaitFlag<HardEvent::V_S>(vDone_);
            first_ = y.GetValue(0);
#endif
            SetFlag<HardEvent::V_MTE3>(yWritten_);
            WaitFlag<HardEvent::V_MTE3>(yWritten_);
            DataCopyPad(yGm_[i * ubFactor_], y, params);
            SetFlag<HardEvent::MTE3_V>(yCopied_[i % 2]);
        }
#if X_READ_FLAG
        WaitFlag<HardEvent::V_MTE2>(xRead_);
#endif
        WaitFlag<HardEvent::MTE3_V>(yCopied_[0]);
        WaitFlag<HardEvent::MTE3_V>(yCopied_[1]);
        pipe_.ReleaseEventID<HardEvent::MTE2_V>(xCopied_);
#if X_READ_FLAG
        pipe_.ReleaseEventID<HardEvent::V_MTE2>(xRead_);
#endif
#if defined(SCALAR_ORDERS_X_READ)
        pipe_.ReleaseEventID<HardEvent::V_S>(vDone_);
#endif
        pipe_.ReleaseEventID<HardEvent::V_MTE3>(yWritten_);
#if !defined(SEEDED_FETCHED_EVENT_IDS)
        pipe_.ReleaseEventID<HardEvent::MTE3_V>(yCopied_[0]);
        pipe_.ReleaseEventID<HardEvent::MTE3_V>(yCopied_[1]);
#endif
    }

private:
    TPipe pipe_;
    TBuf<QuePosition::VECCALC> xBuf_;
    TBuf<QuePosition::VECCALC> yBuf_[2];
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    TEventID xCopied_ = 0;
    TEventID xRead_ = 0;
    TEventID yWritten_ = 0;
    TEventID yCopied_[2] = {0, 0};
    TEventID vDone_ = 0;
    int64_t length_ = 0;
    int64_t ubFactor_ = 0;
    T lo_;
    T hi_;
    T first_;  // a vector result the scalar reads (SCALAR_ORDERS_X_READ)
};

}  // namespace checker_fixture

template <typename T>
__global__ __aicore__ void hardtanh_flags_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(HardtanhFlagsFixtureTiling, tilingData, tiling);
    checker_fixture::HardtanhFlags<T> op;
    op.Init(x, y, tilingData);
    op.Process();
}
