// ascendc_cpu_pipe.h - TPipe, TQueBind / TQue, TBuf: the UB buffers of a core.
//
// Part of the AscendC CPU model (see README.md). TPipe::InitBuffer carves
// buffers out of the core's UB arena (ascendc_cpu_runtime.h); queues hand
// them out as LocalTensors and carry the EnQue/DeQue synchronisation.
#ifndef ASCENDC_CPU_PIPE_H
#define ASCENDC_CPU_PIPE_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_sync.h"
#include "ascendc_cpu_tensor.h"

namespace ascendc_cpu {

/// Why len 0 is refused: InitBuffer.md does not say, asc-devkit 82b89a15f's implementation asserts
/// it (ASCENDC_ASSERT, checked in its CPU debug builds: with ASCENDC_CPU_DEBUG it raises SIGABRT,
/// for the device it expands to nothing, impl/basic_api/kernel_log.h:29-73, so the NPU itself does
/// not refuse it: the device code rounds len 0 to a TBuf of 0 bytes).
constexpr const char* kInitBufferLenRule =
    "asc-devkit's TPipe::InitBuffer asserts len > 0: impl/basic_api/dav_3510/kernel_tpipe_impl_c310.h:244, "
    ":334; Atlas A2/A3 impl/basic_api/kernel_tpipe_impl.h:269, :354; an ASCENDC_ASSERT, which aborts its CPU "
    "debug build and is empty in a device build: impl/basic_api/kernel_log.h:29-73; InitBuffer.md does not say";

/// The pipes a queue synchronises, from its (src, dst) logical positions:
/// (GM, VECIN) = TQue<VECIN>: MTE2 -> V; (VECOUT, GM) = TQue<VECOUT>: V -> MTE3;
/// (VECIN, VECOUT) = TQueBind<VECIN, VECOUT>: MTE2 -> MTE3; (VECCALC, VECCALC) = TQue<VECCALC>:
/// V -> V, a queue of temporaries (asc-devkit's Fma.md:96 and Hypot.md:111 allocate their
/// sharedTmpBuffer from one; kernel_tquebind_impl.h:176-181 lets EnQue / DeQue name VECCALC),
/// whose EnQue and DeQue order nothing the vector unit's program order does not. DeQue resolves
/// the producer's hazard, AllocTensor (the free-buffer event of the previous
/// use) the consumer's.
struct QueueRoute {
    AscendC::TPosition bufferPos;  // where the buffers live
    bool producerIsCopyIn;          // else the vector unit produces
    bool consumerIsCopyOut;         // else the vector unit consumes
};

constexpr bool IsModelledQueue(AscendC::TPosition src, AscendC::TPosition dst)
{
    using AscendC::TPosition;
    return (src == TPosition::GM && dst == TPosition::VECIN) || (src == TPosition::VECOUT && dst == TPosition::GM) ||
        (src == TPosition::VECIN && dst == TPosition::VECOUT) || (src == TPosition::VECCALC && dst == TPosition::VECCALC);
}

constexpr QueueRoute RouteOf(AscendC::TPosition src, AscendC::TPosition dst)
{
    using AscendC::TPosition;
    return QueueRoute{dst == TPosition::GM ? src : dst, src == TPosition::GM || src == TPosition::VECIN,
        dst == TPosition::GM || dst == TPosition::VECOUT};
}

ASCENDC_CPU_FN Pipe Producer(const QueueRoute& r)
{
    return r.producerIsCopyIn ? Pipe::kMte2 : Pipe::kV;
}

ASCENDC_CPU_FN Pipe Consumer(const QueueRoute& r)
{
    return r.consumerIsCopyOut ? Pipe::kMte3 : Pipe::kV;
}

ASCENDC_CPU_FN const char* RouteName(const QueueRoute& r)
{
    if (r.producerIsCopyIn) {
        return r.consumerIsCopyOut ? "MTE2 -> MTE3" : "MTE2 -> V";
    }
    return r.consumerIsCopyOut ? "V -> MTE3" : "V -> V";
}

/// TQue<pos>'s logical source and destination (as the device's GetBufferLogicPos).
constexpr AscendC::TPosition QueSrc(AscendC::TPosition pos)
{
    return pos == AscendC::TPosition::VECIN ? AscendC::TPosition::GM : pos;
}
constexpr AscendC::TPosition QueDst(AscendC::TPosition pos)
{
    return pos == AscendC::TPosition::VECOUT ? AscendC::TPosition::GM : pos;
}

/// State of one queue (TQue or TQueBind): `num` UB buffers, a FIFO of at most
/// `depth` enqueued buffers, round-robin allocation (so num=2 alternates
/// buffers). `name` spells the queue in messages, e.g. "TQue<VECIN>".
class QueueCore {
public:
    ASCENDC_CPU_FN QueueCore(std::string name, QueueRoute route, int32_t depth)
        : name_(std::move(name)), route_(route), pos_(route.bufferPos), depth_(depth)
    {}
    QueueCore(const QueueCore&) = delete;
    QueueCore& operator=(const QueueCore&) = delete;
    ASCENDC_CPU_FN ~QueueCore()
    {
        for (uint32_t i = 0; i < num_; ++i) {
            Unregister(&slots_[i]);
        }
    }

    ASCENDC_CPU_FN void Init(uint8_t num, uint32_t len)
    {
        const char* api = "TPipe::InitBuffer";
        if (num_ != 0) {
            Fail(api, "InitBuffer called twice for the same TQue");
        }
        if (num == 0 || len == 0) {
            Fail(api, Msg("TQue needs num >= 1 and len >= 1 (got num ", static_cast<unsigned>(num), ", len ", len,
                "; ", kInitBufferLenRule, ")"));
        }
        const uint32_t aligned = static_cast<uint32_t>(RoundUp(len, kUbBlockBytes));
        const uint32_t off = AllocateUb(name_.c_str(), num, aligned);
        slots_.reset(new BufferRecord[num]);
        num_ = num;
        for (uint32_t i = 0; i < num; ++i) {
            BufferRecord& r = slots_[i];
            r.kind = "TQue";
            r.position = PositionName(pos_);
            r.offset = off + i * aligned;
            r.length = aligned;
            r.isQueueSlot = true;
            Rt().records.push_back(&r);
        }
    }

    template <typename T>
    AscendC::LocalTensor<T> Alloc(const Site& site)
    {
        const char* api = "TQue::AllocTensor";
        CallScope call(site);
        if (num_ == 0) {
            Fail(api, "queue has no buffers (missing TPipe::InitBuffer)");
        }
        for (uint32_t i = 0; i < num_; ++i) {
            const uint32_t idx = (cursor_ + i) % num_;
            BufferRecord& r = slots_[idx];
            if (r.state != BufState::kFree) {
                continue;
            }
            cursor_ = (idx + 1) % num_;
            r.state = BufState::kAllocated;
            ++r.generation;
            // The producer waits for the free-buffer event of the previous use.
            JoinInto(Producer(route_), r.freeClock);
            if (r.freeEventId >= 0) {
                const AscendC::HardEvent freed = EventOf(Consumer(route_), Producer(route_));
                QueueWaited(freed, r.freeEventId);
                ReleaseEventId(api, freed, r.freeEventId, site);
                r.freeEventId = -1;
            }
            return MakeTensor<T>(&r, pos_, 0, r.length);
        }
        Fail(api, Msg("all ", num_, " buffers of the ", name_,
            " are in use (FreeTensor missing, or InitBuffer num too small)"));
    }

    /// EnQue on the queue's own route; `userRoute` (EnQue<srcUserPos, dstUserPos>) names
    /// one leg of a TQueBind's way instead. An allocated tensor or a dequeued one (enqueued
    /// again, as GeGluV2's kernel passes its copied-out gelu on to the Mul) may be enqueued:
    /// asc-devkit's TQueBind::EnQue asserts the buffer's state is OCCUPIED or DEQUE
    /// (impl/basic_api/kernel_tquebind_impl.h, EnQue(TBufHandle), its ASCENDC_DEBUG_ASSERT).
    template <typename T>
    bool EnQue(const AscendC::LocalTensor<T>& t, const Site& site, const QueueRoute* userRoute = nullptr)
    {
        const char* api = "TQue::EnQue";
        CallScope call(site);
        BufferRecord& r = Own(api, t.cpu_);
        if (r.state != BufState::kAllocated && r.state != BufState::kDequeued) {
            Fail(api, Msg("tensor is ", StateName(r.state), "; only an allocated or a dequeued tensor can be "
                "enqueued"));
        }
        if (static_cast<int32_t>(fifo_.size()) >= depth_) {
            Fail(api, Msg("queue depth ", depth_, " exceeded (DeQue missing)"));
        }
        r.state = BufState::kEnqueued;
        const QueueRoute route = userRoute != nullptr ? *userRoute : route_;
        // Its flag: an id of the producer -> consumer event, taken until the DeQue (a V -> V
        // EnQue sets id 0 without taking it).
        const AscendC::HardEvent event = EventOf(Producer(route), Consumer(route));
        const bool untaken = event == AscendC::HardEvent::V_V;
        const int32_t id = untaken ? 0 : FreeEventId(api, event, site, Msg(name_, "::EnQue"), true);
        SetFlagAt(api, event, id, site, Msg(name_, "::EnQue's ", FlagCall("SetFlag", event, id)), true);
        fifo_.push_back({&r, route, Snapshot(Producer(route)), id});
        return true;
    }

    /// DeQue on the queue's own route, or on `userRoute`, which must be the
    /// route the tensor was enqueued on.
    template <typename T>
    AscendC::LocalTensor<T> DeQue(const Site& site, const QueueRoute* userRoute = nullptr)
    {
        const char* api = "TQue::DeQue";
        CallScope call(site);
        if (fifo_.empty()) {
            Fail(api, Msg(name_, " is empty (DeQue without EnQue)"));
        }
        const Entry e = fifo_.front();
        const QueueRoute want = userRoute != nullptr ? *userRoute : route_;
        if (e.route.producerIsCopyIn != want.producerIsCopyIn || e.route.consumerIsCopyOut != want.consumerIsCopyOut) {
            Fail(api, Msg("the tensor was enqueued for ", RouteName(e.route), " but is dequeued for ",
                RouteName(want), " (the event waited for is never set)"));
        }
        fifo_.pop_front();
        BufferRecord* r = e.rec;
        r->state = BufState::kDequeued;
        JoinInto(Consumer(e.route), e.clock);
        const AscendC::HardEvent event = EventOf(Producer(e.route), Consumer(e.route));
        QueueWaited(event, e.eventId);
        if (event != AscendC::HardEvent::V_V) {
            ReleaseEventId(api, event, e.eventId, site);
        }
        return MakeTensor<T>(r, pos_, 0, r->length);
    }

    template <typename T>
    void Free(const AscendC::LocalTensor<T>& t, const Site& site)
    {
        const char* api = "TQue::FreeTensor";
        CallScope call(site);
        BufferRecord& r = Own(api, t.cpu_);
        if (r.state == BufState::kEnqueued) {
            Fail(api, "tensor is still enqueued");
        }
        r.state = BufState::kFree;
        r.freeClock = Snapshot(Consumer(route_));  // the free-buffer event: the consumer is done with it
        // Its flag: an id of the consumer -> producer event, taken until the buffer's next
        // AllocTensor.
        const AscendC::HardEvent event = EventOf(Consumer(route_), Producer(route_));
        r.freeEventId = FreeEventId(api, event, site, Msg(name_, "::FreeTensor"), true);
        SetFlagAt(api, event, r.freeEventId, site, Msg(name_, "::FreeTensor's ", FlagCall("SetFlag", event,
            r.freeEventId)), true);
    }

    int32_t Count() const { return static_cast<int32_t>(fifo_.size()); }
    int32_t Depth() const { return depth_; }
    bool HasIdle() const
    {
        for (uint32_t i = 0; i < num_; ++i) {
            if (slots_[i].state == BufState::kFree) {
                return true;
            }
        }
        return false;
    }

private:
    ASCENDC_CPU_FN BufferRecord& Own(const char* api, const UbView& v)
    {
        for (uint32_t i = 0; i < num_; ++i) {
            if (v.rec == &slots_[i]) {
                BufferRecord& r = slots_[i];
                if (r.state == BufState::kFree || r.generation != v.generation) {
                    Fail(api, "tensor was already freed");
                }
                return r;
            }
        }
        Fail(api, "tensor does not belong to this queue");
    }

    std::string name_;
    QueueRoute route_;
    AscendC::TPosition pos_;
    int32_t depth_;
    std::unique_ptr<BufferRecord[]> slots_;
    uint32_t num_ = 0;
    uint32_t cursor_ = 0;
    struct Entry {
        BufferRecord* rec;
        QueueRoute route;
        Clock clock;  // the producer's, at EnQue
        int32_t eventId;  // its flag's
    };
    std::deque<Entry> fifo_;
};

/// State of one TBuf: one UB buffer, always usable by Get().
class BufCore {
public:
    explicit BufCore(AscendC::TPosition pos) : pos_(pos) {}
    BufCore(const BufCore&) = delete;
    BufCore& operator=(const BufCore&) = delete;
    ASCENDC_CPU_FN ~BufCore()
    {
        if (rec_) {
            Unregister(rec_.get());
        }
    }

    ASCENDC_CPU_FN void Init(uint32_t len)
    {
        const char* api = "TPipe::InitBuffer";
        if (rec_) {
            Fail(api, "InitBuffer called twice for the same TBuf");
        }
        if (len == 0) {
            Fail(api, Msg("TBuf needs len >= 1 (got 0; ", kInitBufferLenRule, ")"));
        }
        const uint32_t aligned = static_cast<uint32_t>(RoundUp(len, kUbBlockBytes));
        const uint32_t off = AllocateUb(Msg("TBuf<", PositionName(pos_), ">").c_str(), 1, aligned);
        rec_.reset(new BufferRecord());
        rec_->kind = "TBuf";
        rec_->position = PositionName(pos_);
        rec_->offset = off;
        rec_->length = aligned;
        rec_->state = BufState::kAllocated;
        Rt().records.push_back(rec_.get());
    }

    template <typename T>
    AscendC::LocalTensor<T> Get(const char* api, uint64_t byteOffset, uint64_t bytes)
    {
        if (!rec_) {
            Fail(api, "TBuf has no buffer (missing TPipe::InitBuffer)");
        }
        if (byteOffset % kUbBlockBytes != 0 || byteOffset > rec_->length || bytes > rec_->length - byteOffset) {
            Fail(api, Msg("range [", byteOffset, ", ", byteOffset + bytes, ") bytes is not a 32-byte aligned part of "
                "the ", rec_->length, "-byte TBuf"));
        }
        return MakeTensor<T>(rec_.get(), pos_, static_cast<uint32_t>(byteOffset), static_cast<uint32_t>(bytes));
    }

    uint32_t Length() const { return rec_ ? rec_->length : 0; }

    void CheckOwns(const char* api, const UbView& v) const
    {
        if (!rec_ || v.rec != rec_.get()) {
            Fail(api, "tensor does not belong to this TBuf");
        }
    }

private:
    AscendC::TPosition pos_;
    std::unique_ptr<BufferRecord> rec_;
};
}  // namespace ascendc_cpu

namespace AscendC {

template <TPosition pos>
class TBuf;

/// Owns the UB of the core. InitBuffer rounds every length up to 32 bytes
/// and places buffers back to back from UB offset 0 (32-byte aligned); a
/// layout that does not fit the platform UB size is a violation (the message
/// lists every buffer). Only one TPipe may be alive per core.
class TPipe {
public:
    ASCENDC_CPU_FN TPipe()
    {
        ascendc_cpu::Runtime& rt = ascendc_cpu::Rt();
        if (rt.livePipes != 0) {
            ascendc_cpu::Fail("TPipe", "only one TPipe may be alive on a core");
        }
        ++rt.livePipes;
        rt.pipe = this;
        rt.ubUsed = 0;
        rt.ubLayout.clear();
        rt.flags.clear();  // the TPipe's event id pools start empty (kernel_tpipe_impl.h)
        for (std::vector<ascendc_cpu::HeldId>& ids : rt.heldIds) {
            ids.assign(ascendc_cpu::kEventIds, ascendc_cpu::HeldId());
        }
        ascendc_cpu::MutexClocks().clear();
    }
    ASCENDC_CPU_FN ~TPipe()
    {
        ascendc_cpu::Runtime& rt = ascendc_cpu::Rt();
        --rt.livePipes;
        if (rt.pipe == this) {
            rt.pipe = nullptr;
        }
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    void Init() {}
    void Destroy() {}
    void Reset() {}

    /// `num` buffers of `len` bytes (rounded up to 32) for a TQue.
    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        static_assert(T::kAscendcCpuIsQueue, "TPipe::InitBuffer(que, num, len) needs a TQue");
        que.cpu_.Init(num, len);
        return true;
    }
    /// One buffer of `len` bytes (rounded up to 32) for a TBuf.
    template <TPosition pos>
    bool InitBuffer(TBuf<pos>& buf, uint32_t len)
    {
        buf.cpu_.Init(len);
        return true;
    }
    /// A TBufPool of `len` bytes (rounded up to 32) where the next buffer would go
    /// (ascendc_cpu_bufpool.h; Ascend 950 only).
    template <class T>
    bool InitBufPool(T& pool, uint32_t len)
    {
        static_assert(T::isTbufPool, "TPipe::InitBufPool(pool, len) needs a TBufPool");
        pool.cpu_.Init(len);
        return true;
    }

    /// Event ids (ascendc_cpu_sync.h): AllocEventID takes the lowest free id of the HardEvent
    /// until ReleaseEventID gives it back; FetchEventID returns the lowest free one, taking
    /// nothing.
    template <HardEvent evt>
    TEventID AllocEventID(ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        return static_cast<TEventID>(ascendc_cpu::FreeEventId("AllocEventID", evt, site,
            ascendc_cpu::Msg("AllocEventID<HardEvent::", ascendc_cpu::EventName(evt), ">()"), true));
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID id, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        ascendc_cpu::ReleaseEventId("ReleaseEventID", evt, id, site);
    }
    template <HardEvent evt>
    TEventID FetchEventID(ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        return FetchEventID(evt, site);
    }
    TEventID FetchEventID(HardEvent evt, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        return static_cast<TEventID>(ascendc_cpu::FreeEventId("FetchEventID", evt, site,
            ascendc_cpu::Msg("FetchEventID<HardEvent::", ascendc_cpu::EventName(evt), ">()"), false));
    }
};

/// Queue of UB buffers between logical positions src and dst (the modelled
/// routes are listed at QueueRoute): data enters at src and leaves at dst,
/// EnQue/DeQue being the producer -> consumer synchronisation. At most
/// `depth` tensors can be enqueued.
///   AllocTensor<T>()  next free buffer (round robin); violation if all
///                     `num` buffers are allocated, enqueued or dequeued
///   EnQue(t)          t must be allocated and not yet enqueued
///   DeQue<T>()        oldest enqueued buffer; violation if none
///   FreeTensor(t)     t must be allocated or dequeued
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
    static_assert(depth >= 1, "TQue depth must be >= 1");
    static_assert(ascendc_cpu::IsModelledQueue(src, dst),
        "ascendc_cpu models the vector queues only: TQue<VECIN>, TQue<VECOUT>, TQue<VECCALC>, TQueBind<VECIN, VECOUT>");

public:
    static constexpr bool kAscendcCpuIsQueue = true;

    TQueBind() : TQueBind(ascendc_cpu::Msg("TQueBind<", ascendc_cpu::PositionName(src), ", ",
        ascendc_cpu::PositionName(dst), ">")) {}

    template <typename T>
    LocalTensor<T> AllocTensor(ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        return cpu_.template Alloc<T>(site);
    }
    template <typename T>
    void AllocTensor(LocalTensor<T>& tensor, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        tensor = cpu_.template Alloc<T>(site);
    }
    template <typename T>
    void FreeTensor(LocalTensor<T>& tensor, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        cpu_.Free(tensor, site);
    }
    template <typename T>
    bool EnQue(const LocalTensor<T>& tensor, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        return cpu_.EnQue(tensor, site);
    }
    template <typename T>
    LocalTensor<T> DeQue(ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        return cpu_.template DeQue<T>(site);
    }
    template <typename T>
    void DeQue(LocalTensor<T>& tensor, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        tensor = cpu_.template DeQue<T>(site);
    }
    /// One leg of a TQueBind's way, e.g. EnQue<GM, VECIN>(t) after the copy-in,
    /// DeQue<GM, VECIN>() before compute, EnQue<VECOUT, GM>(t), DeQue<VECOUT, GM>()
    /// before the copy-out.
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T>& tensor, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        static_assert(ascendc_cpu::IsModelledQueue(srcUserPos, dstUserPos), "unmodelled EnQue positions");
        constexpr ascendc_cpu::QueueRoute route = ascendc_cpu::RouteOf(srcUserPos, dstUserPos);
        return cpu_.EnQue(tensor, site, &route);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue(ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        static_assert(ascendc_cpu::IsModelledQueue(srcUserPos, dstUserPos), "unmodelled DeQue positions");
        constexpr ascendc_cpu::QueueRoute route = ascendc_cpu::RouteOf(srcUserPos, dstUserPos);
        return cpu_.template DeQue<T>(site, &route);
    }
    bool VacantInQue() { return cpu_.Count() < cpu_.Depth(); }
    bool HasTensorInQue() { return cpu_.Count() > 0; }
    int32_t GetTensorCountInQue() { return cpu_.Count(); }
    bool HasIdleBuffer() { return cpu_.HasIdle(); }

    ascendc_cpu::QueueCore cpu_;  // model internals

protected:
    explicit TQueBind(std::string name) : cpu_(std::move(name), ascendc_cpu::RouteOf(src, dst), depth) {}
};

/// The queue of one vector position: TQue<VECIN, d> is TQueBind<GM, VECIN, d>
/// (GM -> UB data for the vector unit, MTE2 -> V), TQue<VECOUT, d> is
/// TQueBind<VECOUT, GM, d> (vector results for UB -> GM, V -> MTE3).
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<ascendc_cpu::QueSrc(pos), ascendc_cpu::QueDst(pos), depth, mask> {
public:
    TQue() : TQueBind<ascendc_cpu::QueSrc(pos), ascendc_cpu::QueDst(pos), depth, mask>(
        ascendc_cpu::Msg("TQue<", ascendc_cpu::PositionName(pos), ">")) {}
};

/// One UB buffer for temporaries (no queue, no sync points of its own).
///   Get<T>(), AllocTensor<T>()   the whole buffer
///   Get<T>(len)                  the first `len` elements
///   GetWithOffset<T>(size, off)  `size` elements from byte offset `off`
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    static constexpr bool kAscendcCpuIsQueue = false;

    TBuf() : cpu_(pos) {}

    template <typename T>
    LocalTensor<T> Get()
    {
        return cpu_.template Get<T>("TBuf::Get", 0, cpu_.Length());
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t len)
    {
        return cpu_.template Get<T>("TBuf::Get", 0, static_cast<uint64_t>(len) * sizeof(T));
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset)
    {
        return cpu_.template Get<T>("TBuf::GetWithOffset", bufOffset, static_cast<uint64_t>(size) * sizeof(T));
    }
    /// As Get<T>(): a TBuf has one buffer and no queue state.
    template <typename T>
    LocalTensor<T> AllocTensor()
    {
        return cpu_.template Get<T>("TBuf::AllocTensor", 0, cpu_.Length());
    }
    /// Nothing to release; the tensor must come from this TBuf.
    template <typename T>
    void FreeTensor(LocalTensor<T>& tensor)
    {
        cpu_.CheckOwns("TBuf::FreeTensor", tensor.cpu_);
    }

    ascendc_cpu::BufCore cpu_;  // model internals
};

/// Index of this core in the launch, in [0, GetBlockNum()).
ASCENDC_CPU_FN int64_t GetBlockIdx() { return ascendc_cpu::Rt().blockIdx; }
/// Number of cores of the launch (the block dim).
ASCENDC_CPU_FN int64_t GetBlockNum() { return ascendc_cpu::Rt().blockNum; }
/// The user's part of the workspace: asc-devkit's CPU-debug build returns `workspace` itself,
/// asserting it is not null (impl/basic_api/dav_c220/kernel_operator_common_impl.h,
/// ASCENDC_CPU_DEBUG); on the device it is the system workspace + RESERVED_WORKSPACE (16 MiB on
/// A2/A3), which the tiling's workspace size includes. Modelled as the CPU-debug build: the
/// harness passes a workspace of the size the op's tiling asked for (--workspace-bytes; of no
/// bytes, never null, when it asked for none: harness.cpp).
ASCENDC_CPU_FN uint8_t* GetUserWorkspace(uint8_t* workspace)
{
    if (workspace == nullptr) {
        ascendc_cpu::Fail("GetUserWorkspace", "the workspace is null (the op's tiling asked for none)");
    }
    return workspace;
}
/// Sets the system workspace the library's Matmul and such use (asc-devkit docs/zh/api/SIMD-API/
/// 基础API/资源管理/workspace/SetSysWorkSpace.md:36, 59); no modelled call reads it, so only a null
/// pointer is refused.
inline void SetSysWorkspace(uint8_t* workspace)
{
    if (workspace == nullptr) {
        ascendc_cpu::Fail("SetSysWorkspace", "the workspace is null (the op's tiling asked for none)");
    }
}
/// Resets the core's control registers (mask, ...) at a kernel's start: the model keeps no
/// such state between calls, so nothing.
ASCENDC_CPU_FN void InitSocState() {}

/// The TPipe alive on this core; a violation if there is none.
ASCENDC_CPU_FN TPipe* GetTPipePtr()
{
    void* pipe = ascendc_cpu::Rt().pipe;
    if (pipe == nullptr) {
        ascendc_cpu::Fail("GetTPipePtr", "no TPipe is alive on this core");
    }
    return static_cast<TPipe*>(pipe);
}
}  // namespace AscendC

/// asc-devkit declares GetTPipePtr at global scope (include/basic_api/kernel_common.h).
using AscendC::GetTPipePtr;

#endif  // ASCENDC_CPU_PIPE_H
