// selftest_sync.cpp - tests of the sync checker's happens-before orderings,
// TQueBind, TBuf::AllocTensor, GetTPipePtr and the kernel macros (see
// selftest_common.h).
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

namespace selftest {
namespace {

struct Tiling2 {
    int32_t a;
    float b;
};

/// V -> MTE3 -> MTE2 orders V before MTE2 (transitively): no violation.
void TestTransitiveOrder()
{
    Core core;
    std::vector<float> g(8, 1.0f);
    ascendc_cpu::RegisterGm(g.data(), g.size() * 4, "g", true);
    GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g.data(), 8);
    Buffers<1> ub(32);
    LocalTensor<float> t = ub.Get<float>(0);
    Duplicate(t, 2.0f, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gt, t, 8);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    DataCopy(t, gt, 8);  // MTE2 overwrites what V wrote and MTE3 read: ordered after both
    CHECK(g[7] == 2.0f);
    // Through the scalar pipe: MTE2 -> S -> V.
    SetFlag<HardEvent::MTE2_S>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID1);
    SetFlag<HardEvent::S_V>(EVENT_ID1);
    WaitFlag<HardEvent::S_V>(EVENT_ID1);
    Muls(t, t, 3.0f, 8);
    CHECK(t.GetValue(0) == 6.0f);
}

/// Two halves of one TBuf used as ping-pong buffers: accesses of one half do
/// not race with the other's (the checker works per byte, not per buffer).
void TestPingPongHalves()
{
    Core core;
    std::vector<float> g(16, 4.0f);
    GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g.data(), 16);
    Buffers<1> ub(64);
    LocalTensor<float> ping = ub.Get<float>(0);
    LocalTensor<float> pong = ping[8];
    DataCopy(ping, gt, 8);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(ping, ping, 1.0f, 8);
    DataCopy(pong, gt[8], 8);  // MTE2 into the other half while V works on this one: fine
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    Adds(pong, pong, 2.0f, 8);
    CHECK(ping.GetValue(0) == 5.0f && pong.GetValue(7) == 6.0f);
}

/// TQueBind<VECIN, VECOUT> used in place: EnQue/DeQue with user positions.
void TestQueueBind()
{
    Core core;
    std::vector<float> in(8, -3.0f), out(8, 0.0f);
    ascendc_cpu::RegisterGm(in.data(), 32, "in", false);
    ascendc_cpu::RegisterGm(out.data(), 32, "out", true);
    GlobalTensor<float> gin, gout;
    gin.SetGlobalBuffer(in.data(), 8);
    gout.SetGlobalBuffer(out.data(), 8);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 2, 32);
    CHECK(GetTPipePtr() == &pipe);
    for (int round = 0; round < 3; ++round) {  // round robin over both buffers, then reuse
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopy(t, gin, 8);
        q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
        LocalTensor<float> x = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
        Abs(x, x, 8);
        q.EnQue<TPosition::VECOUT, TPosition::GM, float>(x);
        LocalTensor<float> y = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
        DataCopy(gout, y, 8);
        q.FreeTensor(y);
    }
    CHECK(out[0] == 3.0f && out[7] == 3.0f);
    // The plain form: MTE2 -> MTE3 directly.
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, gin, 8);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    DataCopy(gout, u, 8);
    q.FreeTensor(u);
    CHECK(out[0] == -3.0f);
    // TBuf::AllocTensor is the whole buffer; FreeTensor releases nothing.
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 64);
    LocalTensor<half> h = tb.AllocTensor<half>();
    CHECK(h.GetSize() == 32 && h.GetPhyAddr() == tb.Get<half>().GetPhyAddr());
    tb.FreeTensor(h);
}

void TestMacros()
{
    Core core;
    ascendc_cpu::Rt().tilingKey = 7;
    CHECK(TILING_KEY_IS(7) && !TILING_KEY_IS(0));
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    ASSERT(GetBlockNum() == 1);
    CHECK(__CCE_AICORE__ == 220);
    CHECK((AscendC::Std::is_same<float16_t, half>::value) && (std::is_same<float32_t, float>::value));
    uint8_t raw[8];
    const Tiling2 src{-5, 2.5f};
    std::memcpy(raw, &src, sizeof raw);
    ascendc_cpu::SetTilingBytes(sizeof raw);
    GET_TILING_DATA_PTR_WITH_STRUCT(Tiling2, tp, raw);
    CHECK(tp->a == -5 && tp->b == 2.5f);
    CHECK(min(3, 4) == 3 && max(int64_t{3}, int64_t{-4}) == 3 && AscendC::Std::min(2u, 1u) == 1u);
}

}  // namespace

void SyncTests()
{
    TestTransitiveOrder();
    TestPingPongHalves();
    TestQueueBind();
    TestMacros();
}

void AddSyncViolations(Violations& v)
{
    v["mte3_mte2_without_v_mte3"] = {"DataCopy", [] {
        Buffers<1> ub(32);
        Duplicate(ub.Get<float>(0), 2.0f, 8);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        DataCopy(ub.Get<float>(0), EightFloats(), 8);  // V's write is not ordered before this MTE2 write
    }};
    v["flag_set_before_the_write"] = {"Muls", [] {
        Buffers<1> ub(32);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        DataCopy(ub.Get<float>(0), EightFloats(), 8);  // issued after the SetFlag: not covered by it
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(ub.Get<float>(0), ub.Get<float>(0), 2.0f, 8);
    }};
    v["bind_route_mismatch"] = {"TQue::DeQue", [] {
        TPipe pipe;
        TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 32);
        LocalTensor<float> t = q.AllocTensor<float>();
        q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
        (void)q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
    }};
    v["tbuf_free_foreign"] = {"TBuf::FreeTensor", [] {
        Buffers<2> ub(32);
        LocalTensor<float> t = ub.Get<float>(0);
        ub.buf[1].FreeTensor(t);
    }};
    v["no_pipe"] = {"GetTPipePtr", [] { (void)GetTPipePtr(); }};
    v["assert_false"] = {"ASSERT", [] { ASSERT(GetBlockNum() == 0 && "block dim can not be zero!"); }};
}

}  // namespace selftest
