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

/// Event ids as the docs define them: AllocEventID distinct ids until ReleaseEventID, FetchEventID
/// the lowest free one without taking it; a queue's EnQue takes one of its event until the DeQue,
/// its FreeTensor one of the reverse event until the buffer's next AllocTensor.
void TestEventIds()
{
    Core core;
    TPipe pipe;
    const TEventID a = pipe.AllocEventID<HardEvent::V_MTE3>();
    const TEventID b = pipe.AllocEventID<HardEvent::V_MTE3>();
    CHECK(a == 0 && b == 1);
    CHECK(pipe.FetchEventID<HardEvent::V_MTE3>() == 2 && pipe.FetchEventID(HardEvent::V_MTE3) == 2);
    CHECK(pipe.AllocEventID<HardEvent::MTE2_V>() == 0);  // each HardEvent has its own ids
    pipe.ReleaseEventID<HardEvent::V_MTE3>(a);
    CHECK(pipe.FetchEventID<HardEvent::V_MTE3>() == 0);
    // Two flags in flight on two allocated ids: no violation.
    SetFlag<HardEvent::V_MTE3>(b);
    const TEventID c = pipe.AllocEventID<HardEvent::V_MTE3>();
    CHECK(c == 0);
    SetFlag<HardEvent::V_MTE3>(c);
    WaitFlag<HardEvent::V_MTE3>(b);
    WaitFlag<HardEvent::V_MTE3>(c);
    // A VECOUT queue: EnQue takes the next V_MTE3 id (2) until DeQue; FreeTensor an MTE3_V id.
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 16);
    q.EnQue(t);
    CHECK(pipe.FetchEventID<HardEvent::V_MTE3>() == 3);
    LocalTensor<float> u = q.DeQue<float>();
    CHECK(pipe.FetchEventID<HardEvent::V_MTE3>() == 2);
    q.FreeTensor(u);
    CHECK(pipe.FetchEventID<HardEvent::MTE3_V>() == 1);
    (void)q.AllocTensor<float>();
    CHECK(pipe.FetchEventID<HardEvent::MTE3_V>() == 0);
    // A new TPipe starts with every id free.
    pipe.ReleaseEventID<HardEvent::V_MTE3>(b);
    pipe.ReleaseEventID<HardEvent::V_MTE3>(c);
}

/// --auto-sync off: vector calls touching the same bytes are ordered by PipeBarrier<PIPE_V>,
/// PIPE_ALL or flags through another pipe; one call may write in place what it reads; calls on
/// other bytes, or reading what another read, need nothing.
void TestVectorOrder()
{
    AutoSyncOff off;
    Core core;
    Buffers<2> ub(1024);
    LocalTensor<float> t = ub.Get<float>(0);
    LocalTensor<float> u = ub.Get<float>(1);
    Duplicate(t, 2.0f, 64);
    Duplicate(u, 1.0f, 64);  // other bytes
    PipeBarrier<PIPE_V>();
    Muls(t, t, 3.0f, 64);  // in place: one call
    PipeBarrier<PIPE_V>();
    Adds(u, t, 1.0f, 32);
    Maxs(u[32], t, 0.0f, 32);  // reads what Adds read, writes other bytes
    PipeBarrier<PIPE_ALL>();
    Adds(t, u, 0.0f, 32);
    // V -> MTE3 -> V: the copy-out's flags order the next write after the earlier reads.
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(EightFloats(), t, 8);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    Duplicate(t, 0.0f, 64);
    // A V_V flag pair orders V too.
    SetFlag<HardEvent::V_V>(EVENT_ID0);
    WaitFlag<HardEvent::V_V>(EVENT_ID0);
    Adds(t, t, 5.0f, 64);
    CHECK(t.GetValue(0) == 5.0f && u.GetValue(0) == 7.0f && u.GetValue(32) == 6.0f);
    // A strided Copy touches only its lanes' blocks: a write of a block it skips is no hazard.
    PipeBarrier<PIPE_V>();
    Duplicate(u[8], 1.0f, 8);
    Copy(t, u, 8, 2, CopyRepeatParams{1, 1, 8, 8});  // reads u's blocks 0 and 8
    CHECK(ascendc_cpu::Rt().deferred == 0);
}

/// With the compiler's automatic synchronisation (the default) the same calls need no barrier.
void TestVectorOrderAutoSyncOn()
{
    Core core;
    Buffers<1> ub(256);
    LocalTensor<float> t = ub.Get<float>(0);
    Duplicate(t, 2.0f, 64);
    Muls(t, t, 3.0f, 64);
    Adds(t, t, 1.0f, 64);
    CHECK(t.GetValue(63) == 7.0f);
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
    TestEventIds();
    TestVectorOrder();
    TestVectorOrderAutoSyncOn();
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
    // Event ids (test_ascendc_cpu_model.py checks that the messages name both lines).
    v["fetched_ids_reused"] = {"SetFlag", [] {
        TPipe pipe;
        const TEventID first = pipe.FetchEventID<HardEvent::MTE3_V>();
        const TEventID second = pipe.FetchEventID<HardEvent::MTE3_V>();
        SetFlag<HardEvent::MTE3_V>(first);  // @first-fetched-set
        SetFlag<HardEvent::MTE3_V>(second);  // @second-fetched-set
    }};
    v["fixed_id_a_queue_holds"] = {"SetFlag", [] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 64);
        LocalTensor<float> t = q.AllocTensor<float>();
        Duplicate(t, 1.0f, 16);
        q.EnQue(t);  // @queue-enque
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);  // @fixed-set
    }};
    v["event_ids_exhausted"] = {"AllocEventID", [] {
        TPipe pipe;
        for (int i = 0; i < 9; ++i) {
            (void)pipe.AllocEventID<HardEvent::V_MTE2>();
        }
    }};
    v["release_not_allocated"] = {"ReleaseEventID", [] {
        TPipe pipe;
        pipe.ReleaseEventID<HardEvent::V_S>(3);
    }};
    v["event_id_out_of_range"] = {"SetFlag", [] { SetFlag<HardEvent::S_V>(8); }};
    // --auto-sync off: vector calls on the same bytes without a PipeBarrier<PIPE_V>.
    v["vector_read_after_write"] = {"Adds", [] {
        CheckVectorOrder();
        Buffers<1> ub(256);
        LocalTensor<float> t = ub.Get<float>(0);
        Muls(t, t, 2.0f, 64);  // @raw-first
        Adds(t, t, 1.0f, 64);  // @raw-second
    }};
    v["vector_write_after_read"] = {"Duplicate", [] {
        CheckVectorOrder();
        Buffers<2> ub(256);
        Adds(ub.Get<float>(1), ub.Get<float>(0), 1.0f, 64);
        Duplicate(ub.Get<float>(0)[32], 0.0f, 8);
    }};
    v["vector_write_after_write"] = {"Cast", [] {
        CheckVectorOrder();
        Buffers<2> ub(256);
        Duplicate(ub.Get<half>(0), half(1.0f), 128);
        Cast(ub.Get<half>(0), ub.Get<float>(1), RoundMode::CAST_RINT, 16);
    }};
    v["select_reads_a_fresh_mask"] = {"Select", [] {
        CheckVectorOrder();
        Buffers<2> ub(256);
        LocalTensor<uint8_t> mask = ub.Get<uint8_t>(1);
        Muls(ub.Get<float>(0), ub.Get<float>(0), 2.0f, 64);
        PipeBarrier<PIPE_V>();  // orders Muls before the compare, not the compare before Select
        Compares(mask, ub.Get<float>(0), 1.0f, CMPMODE::GT, 64);
        Select(ub.Get<float>(0), mask, ub.Get<float>(0), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    }};
    v["strided_copy_after_write"] = {"Copy", [] {
        CheckVectorOrder();
        Buffers<2> ub(1024);
        Duplicate(ub.Get<float>(0)[64], 1.0f, 8);  // one block of the second repeat's source
        Copy(ub.Get<float>(1), ub.Get<float>(0), 8, 2, CopyRepeatParams{1, 1, 8, 8});
    }};
    v["assert_false"] = {"ASSERT", [] { ASSERT(GetBlockNum() == 0 && "block dim can not be zero!"); }};
}

}  // namespace selftest
