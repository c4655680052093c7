// cross_core_fixture.cpp - kernels whose cores depend on each other through GM, for the CPU
// model's SyncAll and SetAtomicAdd (test/test_ascendc_cpu_cross_core.py). Tiling: the harness's
// `--tiling T,B,U` struct, {totalNum, blockFactor (elements per core), mode}.
//
// cross_core_double (y = x + x, checked by hswc-check-kernel against that generic): core b sets
// the workspace slice of core b + 1 (mod N) to -0 (so that -0 + -0 + -0 stays -0), SyncAll, adds its x slice twice into its own
// workspace slice with SetAtomicAdd, SyncAll, then copies the slice of core b + 1 to y. Without
// the barriers core 0 would read core 1's slice before core 1 zeroed or filled it.
//
// cross_core_sum (y[0, B) = x[0, B) + x[B, 2B) + ..., in block order): core 0 zeroes y, SyncAll,
// every core adds its x slice into y atomically. mode 1: block 1 returns before the first SyncAll
// (a hang on the device); mode 2: every core but block 0 returns at once (block 0 waits alone).
#include "kernel_operator.h"

using namespace AscendC;

struct CrossCoreTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t mode = 0;
};

namespace {

/// Core b's slice [start, start + len) of `total` elements cut in `factor`s.
inline void Slice(int64_t b, int64_t total, int64_t factor, int64_t& start, int64_t& len)
{
    start = b * factor;
    len = start >= total ? 0 : (total - start < factor ? total - start : factor);
}

/// Fills with `zero`: -0 is the identity of IEEE addition (+0 + -0 is +0).
template <typename T>
inline void Zero(const GlobalTensor<T>& gm, int64_t len, float zero)
{
    for (int64_t i = 0; i < len; ++i) {
        gm.SetValue(static_cast<uint64_t>(i), T(zero));
    }
}

}  // namespace

template <typename T>
__global__ __aicore__ void cross_core_double(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(CrossCoreTiling, t, tiling);
    const int64_t n = GetBlockNum();
    const int64_t b = GetBlockIdx();
    const int64_t next = (b + 1) % n;
    int64_t start = 0, len = 0, nextStart = 0, nextLen = 0;
    Slice(b, t.totalNum, t.blockFactor, start, len);
    Slice(next, t.totalNum, t.blockFactor, nextStart, nextLen);
    GlobalTensor<T> xGm, wGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, t.totalNum);
    wGm.SetGlobalBuffer((__gm__ T*)GetUserWorkspace(workspace), t.totalNum);
    yGm.SetGlobalBuffer((__gm__ T*)y, t.totalNum);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, static_cast<uint32_t>((t.blockFactor * sizeof(T) + 31) / 32 * 32));
    LocalTensor<T> ub = buf.Get<T>();
    Zero(wGm[nextStart], nextLen, -0.0f);
    SyncAll();
    if (len > 0) {
        const DataCopyExtParams one{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(ub, xGm[start], one, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        SetAtomicAdd<T>();
        DataCopyPad(wGm[start], ub, one);
        DataCopyPad(wGm[start], ub, one);
        SetAtomicNone();
    }
    SyncAll();
    if (nextLen > 0) {
        const DataCopyExtParams one{1, static_cast<uint32_t>(nextLen * sizeof(T)), 0, 0, 0};
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        DataCopyPad(ub, wGm[nextStart], one, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopyPad(yGm[nextStart], ub, one);
    }
}

template <typename T>
__global__ __aicore__ void cross_core_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(CrossCoreTiling, t, tiling);
    const int64_t b = GetBlockIdx();
    if ((t.mode == 1 && b == 1) || (t.mode == 2 && b != 0)) {
        return;
    }
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, t.totalNum);
    yGm.SetGlobalBuffer((__gm__ T*)y, t.blockFactor);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, static_cast<uint32_t>((t.blockFactor * sizeof(T) + 31) / 32 * 32));
    LocalTensor<T> ub = buf.Get<T>();
    if (b == 0) {
        Zero(yGm, t.blockFactor, 0.0f);
    }
    SyncAll();
    const DataCopyExtParams one{1, static_cast<uint32_t>(t.blockFactor * sizeof(T)), 0, 0, 0};
    DataCopyPad(ub, xGm[b * t.blockFactor], one, DataCopyPadExtParams<T>{false, 0, 0, T(0.0f)});
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    SetAtomicAdd<T>();
    DataCopyPad(yGm, ub, one);
    SetAtomicNone();
}
