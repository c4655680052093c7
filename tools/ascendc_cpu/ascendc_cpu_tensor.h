// ascendc_cpu_tensor.h - positions, pipes, events, tensors, TPipe/TQue/TBuf.
//
// Part of the AscendC CPU model (see README.md). Spellings follow the public
// AscendC headers; only the subset HardSwishGrad-style kernels need exists.
#ifndef ASCENDC_CPU_TENSOR_H
#define ASCENDC_CPU_TENSOR_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ascendc_cpu_runtime.h"

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif

/// Hardware pipes (global, as on the device). PipeBarrier<PIPE_ALL>() is a
/// synchronisation point for the sync checker; the other barriers are no-ops
/// (instructions of one pipe already execute in order here).
enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
};

/// Event ids for SetFlag / WaitFlag.
enum event_t : uint8_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

namespace AscendC {

/// Logical buffer positions. All vector positions live in the one UB.
enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

/// Cross-pipe events for SetFlag/WaitFlag (names as on the device).
enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};
using TEventID = int8_t;

constexpr uint32_t ONE_BLK_SIZE = 32;           // bytes of one UB data block
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes of one vector repeat

}  // namespace AscendC

namespace ascendc_cpu {

inline const char* PositionName(AscendC::TPosition p)
{
    using AscendC::TPosition;
    switch (p) {
        case TPosition::GM: return "GM";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        default: return "non-vector position";
    }
}

/// What an API call does with a UB operand (drives the sync checker).
enum class Access {
    kCopyIn,    // MTE2 writes it (GM -> UB)
    kCopyOut,   // MTE3 reads it (UB -> GM)
    kVecRead,   // V reads it
    kVecWrite,  // V writes it
    kScalar,    // scalar GetValue/SetValue (no sync tracking)
};

/// The part of a LocalTensor the model needs: where it points, how many
/// bytes it may touch, and which UB buffer (and allocation) it came from.
struct UbView {
    uint8_t* ptr = nullptr;
    uint32_t bytes = 0;     // logical length (GetSize() * sizeof(T))
    uint32_t capacity = 0;  // bytes from ptr to the end of its buffer
    BufferRecord* rec = nullptr;
    uint64_t generation = 0;
    AscendC::TPosition position = AscendC::TPosition::VECCALC;
};

inline const char* StateName(BufState s)
{
    switch (s) {
        case BufState::kFree: return "free";
        case BufState::kAllocated: return "allocated";
        case BufState::kEnqueued: return "enqueued";
        case BufState::kDequeued: return "dequeued";
    }
    return "?";
}

/// Checks one UB operand of `api`: non-empty, 32-byte aligned (except scalar
/// access), at least `bytesNeeded` bytes long, its queue buffer live and not
/// enqueued, and no unsynchronised cross-pipe hazard (see BufferRecord).
inline void CheckUb(const char* api, const char* operand, const UbView& v, uint64_t bytesNeeded, Access access)
{
    if (v.ptr == nullptr) {
        Fail(api, Msg(operand, " is an empty LocalTensor (not from AllocTensor/DeQue/TBuf::Get)"));
    }
    const uint8_t* base = Arena();
    const uint64_t off = static_cast<uint64_t>(v.ptr - base);
    if (access != Access::kScalar && off % kUbBlockBytes != 0) {
        Fail(api, Msg(operand, " UB address (offset ", off, ") is not 32-byte aligned"));
    }
    if (bytesNeeded > v.bytes) {
        Fail(api, Msg(operand, " needs ", bytesNeeded, " bytes but the LocalTensor has ", v.bytes));
    }
    BufferRecord* r = v.rec;
    if (r == nullptr) {
        return;
    }
    if (r->isQueueSlot) {
        if (r->state == BufState::kFree || r->generation != v.generation) {
            Fail(api, Msg(operand, " is used after FreeTensor"));
        }
        if (r->state == BufState::kEnqueued) {
            Fail(api, Msg(operand, " is used while enqueued (DeQue it first)"));
        }
    }
    switch (access) {
        case Access::kScalar:
            break;
        case Access::kCopyIn:
            if (r->vecPending) {
                Fail(api, Msg("GM->UB copy into ", operand,
                    " overwrites a buffer the vector unit used without sync (V->MTE2: FreeTensor+AllocTensor, "
                    "WaitFlag<V_MTE2> or PipeBarrier<PIPE_ALL>)"));
            }
            if (r->copyOutPending) {
                Fail(api, Msg("GM->UB copy into ", operand,
                    " overwrites a buffer still being copied to GM without sync (MTE3->MTE2)"));
            }
            r->copyInPending = true;
            break;
        case Access::kVecRead:
        case Access::kVecWrite:
            if (r->copyInPending) {
                Fail(api, Msg("vector access to ", operand,
                    " races with its GM->UB copy (MTE2->V: EnQue/DeQue on a VECIN queue, WaitFlag<MTE2_V> or "
                    "PipeBarrier<PIPE_ALL>)"));
            }
            if (access == Access::kVecWrite && r->copyOutPending) {
                Fail(api, Msg("vector write to ", operand,
                    " overwrites a buffer still being copied to GM (MTE3->V: FreeTensor+AllocTensor on a VECOUT "
                    "queue, WaitFlag<MTE3_V> or PipeBarrier<PIPE_ALL>)"));
            }
            r->vecPending = true;
            if (access == Access::kVecWrite) {
                r->vecWritePending = true;
            }
            break;
        case Access::kCopyOut:
            if (r->vecWritePending) {
                Fail(api, Msg("UB->GM copy from ", operand,
                    " reads vector results without sync (V->MTE3: EnQue/DeQue on a VECOUT queue, "
                    "WaitFlag<V_MTE3> or PipeBarrier<PIPE_ALL>)"));
            }
            if (r->copyInPending) {
                Fail(api, Msg("UB->GM copy from ", operand, " races with its GM->UB copy (MTE2->MTE3)"));
            }
            r->copyOutPending = true;
            break;
    }
}

inline void Unregister(BufferRecord* r)
{
    std::vector<BufferRecord*>& v = Rt().records;
    v.erase(std::remove(v.begin(), v.end(), r), v.end());
}

/// Reserves `count` buffers of `len` bytes (already 32-byte aligned) in the
/// UB of the current core; fails with the whole layout on overflow.
inline uint32_t AllocateUb(const char* what, uint32_t count, uint32_t len)
{
    Runtime& rt = Rt();
    Arena();
    const uint64_t need = static_cast<uint64_t>(count) * len;
    const std::string entry = Msg(what, " ", static_cast<unsigned>(count), "x", len);
    if (rt.ubUsed + need > rt.ubBytes) {
        Fail("TPipe::InitBuffer", Msg("UB overflow: ", entry, " at offset ", rt.ubUsed, " would end at byte ",
            rt.ubUsed + need, " but the UB has ", rt.ubBytes, " bytes; buffers so far: [",
            rt.ubLayout.empty() ? std::string("none") : rt.ubLayout, "]"));
    }
    const uint32_t off = rt.ubUsed;
    rt.ubUsed += static_cast<uint32_t>(need);
    rt.ubPeak = std::max(rt.ubPeak, rt.ubUsed);
    rt.ubLayout += (rt.ubLayout.empty() ? "" : ", ") + entry;
    return off;
}

}  // namespace ascendc_cpu

namespace AscendC {

template <typename T>
class LocalTensor;

/// Tensor in the Unified Buffer: a view (address, element count, position)
/// of a buffer from TQue::AllocTensor / DeQue or TBuf::Get.
///   operator[](offset)  sub-tensor starting `offset` elements in (as on the
///                       device; NOT element access)
///   operator()(i)       element reference; GetValue / SetValue by index
///   ReinterpretCast<U>  same bytes viewed as U (size = bytes / sizeof(U))
template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;

    uint32_t GetSize() const { return cpu_.bytes / static_cast<uint32_t>(sizeof(T)); }
    uint32_t GetLength() const { return cpu_.bytes; }
    /// Sets the logical element count (must fit in the underlying buffer).
    void SetSize(uint32_t size)
    {
        if (static_cast<uint64_t>(size) * sizeof(T) > cpu_.capacity) {
            ascendc_cpu::Fail("LocalTensor::SetSize",
                ascendc_cpu::Msg("size ", size, " exceeds the buffer (", cpu_.capacity / sizeof(T), " elements)"));
        }
        cpu_.bytes = static_cast<uint32_t>(size * sizeof(T));
    }
    TPosition GetPosition() const { return cpu_.position; }
    __ubuf__ T* GetPhyAddr() const { return reinterpret_cast<T*>(cpu_.ptr); }

    /// Sub-tensor at element `offset` (offset <= GetSize()).
    LocalTensor operator[](const uint32_t offset) const
    {
        const uint64_t byteOff = static_cast<uint64_t>(offset) * sizeof(T);
        if (byteOff > cpu_.bytes) {
            ascendc_cpu::Fail("LocalTensor::operator[]",
                ascendc_cpu::Msg("offset ", offset, " is past the end (size ", GetSize(), ")"));
        }
        LocalTensor r = *this;
        r.cpu_.ptr += byteOff;
        r.cpu_.bytes -= static_cast<uint32_t>(byteOff);
        r.cpu_.capacity -= static_cast<uint32_t>(byteOff);
        return r;
    }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const
    {
        LocalTensor<U> r;
        r.cpu_ = cpu_;
        r.cpu_.bytes = cpu_.bytes / static_cast<uint32_t>(sizeof(U)) * static_cast<uint32_t>(sizeof(U));
        return r;
    }

    T GetValue(const uint32_t index) const
    {
        CheckIndex("LocalTensor::GetValue", index);
        T v;
        std::memcpy(static_cast<void*>(&v), cpu_.ptr + static_cast<size_t>(index) * sizeof(T), sizeof(T));
        return v;
    }
    void SetValue(const uint32_t index, const T& value) const
    {
        CheckIndex("LocalTensor::SetValue", index);
        std::memcpy(cpu_.ptr + static_cast<size_t>(index) * sizeof(T), static_cast<const void*>(&value), sizeof(T));
    }
    T& operator()(const uint32_t index) const
    {
        CheckIndex("LocalTensor::operator()", index);
        return *reinterpret_cast<T*>(cpu_.ptr + static_cast<size_t>(index) * sizeof(T));
    }

    /// Model internals (public so the free functions can reach them).
    ascendc_cpu::UbView cpu_;

private:
    void CheckIndex(const char* api, uint32_t index) const
    {
        ascendc_cpu::CheckUb(api, "tensor", cpu_, 0, ascendc_cpu::Access::kScalar);
        if (index >= GetSize()) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg("index ", index, " out of range (size ", GetSize(), ")"));
        }
    }
};

/// Tensor in global memory. SetGlobalBuffer(ptr, len) bounds every access
/// to [0, len) elements; operator[](offset) is the tensor at that element
/// offset with the same bound. Accesses must also lie inside a GM tensor the
/// harness registered; writes to inputs are rejected.
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    GlobalTensor() = default;

    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize)
    {
        base_ = buffer;
        size_ = bufferSize;
        offset_ = 0;
        sized_ = true;
    }
    void SetGlobalBuffer(__gm__ T* buffer)
    {
        base_ = buffer;
        size_ = 0;
        offset_ = 0;
        sized_ = false;
    }

    GlobalTensor operator[](const uint64_t offset) const
    {
        GlobalTensor r = *this;
        r.offset_ += offset;
        return r;
    }

    /// Elements left before the SetGlobalBuffer bound (0 if unbounded).
    uint64_t GetSize() const { return sized_ && offset_ <= size_ ? size_ - offset_ : 0; }
    __gm__ T* GetPhyAddr() const { return Address(0); }
    __gm__ T* GetPhyAddr(const uint64_t offset) const { return Address(offset); }

    T GetValue(const uint64_t offset) const
    {
        const T* p = Checked("GlobalTensor::GetValue", offset, 1, false, nullptr);
        T v;
        std::memcpy(static_cast<void*>(&v), static_cast<const void*>(p), sizeof(T));
        return v;
    }
    void SetValue(const uint64_t offset, const T& value) const
    {
        T* p = Checked("GlobalTensor::SetValue", offset, 1, true, &value);
        std::memcpy(static_cast<void*>(p), static_cast<const void*>(&value), sizeof(T));
    }

    /// Model internal: pointer to elements [start, start+count) relative to
    /// this tensor, after the bound and GM-region checks (`src` = new bytes
    /// for writes).
    T* Checked(const char* api, uint64_t start, uint64_t count, bool write, const void* src) const
    {
        if (base_ == nullptr) {
            ascendc_cpu::Fail(api, "GlobalTensor used before SetGlobalBuffer");
        }
        const uint64_t first = offset_ + start;
        if (sized_ && (first > size_ || count > size_ - first)) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg(write ? "write" : "read", " of elements [", first, ", ",
                first + count, ") outside the GlobalTensor bound of ", size_, " elements"));
        }
        T* p = Address(start);
        ascendc_cpu::CheckGm(api, p, static_cast<size_t>(count * sizeof(T)), write, src);
        return p;
    }

private:
    T* Address(uint64_t start) const
    {
        const uintptr_t a = reinterpret_cast<uintptr_t>(base_) + static_cast<uintptr_t>((offset_ + start) * sizeof(T));
        return reinterpret_cast<T*>(a);
    }

    T* base_ = nullptr;
    uint64_t size_ = 0;
    uint64_t offset_ = 0;
    bool sized_ = false;
};

}  // namespace AscendC

namespace ascendc_cpu {

template <typename T>
inline AscendC::LocalTensor<T> MakeTensor(BufferRecord* rec, AscendC::TPosition pos, uint32_t byteOffset,
    uint32_t bytes)
{
    AscendC::LocalTensor<T> t;
    t.cpu_.ptr = Arena() + rec->offset + byteOffset;
    t.cpu_.bytes = bytes / static_cast<uint32_t>(sizeof(T)) * static_cast<uint32_t>(sizeof(T));
    t.cpu_.capacity = rec->length - byteOffset;
    t.cpu_.rec = rec;
    t.cpu_.generation = rec->generation;
    t.cpu_.position = pos;
    return t;
}

/// State of one TQue: `num` UB buffers, a FIFO of at most `depth` enqueued
/// buffers, round-robin allocation (so num=2 alternates buffers).
class QueueCore {
public:
    QueueCore(AscendC::TPosition pos, int32_t depth) : pos_(pos), depth_(depth) {}
    QueueCore(const QueueCore&) = delete;
    QueueCore& operator=(const QueueCore&) = delete;
    ~QueueCore()
    {
        for (uint32_t i = 0; i < num_; ++i) {
            Unregister(&slots_[i]);
        }
    }

    void Init(uint8_t num, uint32_t len)
    {
        const char* api = "TPipe::InitBuffer";
        if (num_ != 0) {
            Fail(api, "InitBuffer called twice for the same TQue");
        }
        if (num == 0 || len == 0) {
            Fail(api, Msg("TQue needs num >= 1 and len >= 1 (got num ", static_cast<unsigned>(num), ", len ", len, ")"));
        }
        const uint32_t aligned = static_cast<uint32_t>(RoundUp(len, kUbBlockBytes));
        const uint32_t off = AllocateUb(Msg("TQue<", PositionName(pos_), ">").c_str(), num, aligned);
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
    AscendC::LocalTensor<T> Alloc()
    {
        const char* api = "TQue::AllocTensor";
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
            // Waiting for the free-buffer event of the previous use.
            if (pos_ == AscendC::TPosition::VECIN) {
                r.vecPending = r.vecWritePending = false;  // V -> MTE2
            } else if (pos_ == AscendC::TPosition::VECOUT) {
                r.copyOutPending = false;  // MTE3 -> V
            }
            return MakeTensor<T>(&r, pos_, 0, r.length);
        }
        Fail(api, Msg("all ", num_, " buffers of the TQue<", PositionName(pos_),
            "> are in use (FreeTensor missing, or InitBuffer num too small)"));
    }

    template <typename T>
    bool EnQue(const AscendC::LocalTensor<T>& t)
    {
        const char* api = "TQue::EnQue";
        BufferRecord& r = Own(api, t.cpu_);
        if (r.state != BufState::kAllocated) {
            Fail(api, Msg("tensor is ", StateName(r.state), "; only an allocated (not yet enqueued) tensor can be "
                "enqueued"));
        }
        if (static_cast<int32_t>(fifo_.size()) >= depth_) {
            Fail(api, Msg("queue depth ", depth_, " exceeded (DeQue missing)"));
        }
        r.state = BufState::kEnqueued;
        fifo_.push_back(&r);
        return true;
    }

    template <typename T>
    AscendC::LocalTensor<T> DeQue()
    {
        const char* api = "TQue::DeQue";
        if (fifo_.empty()) {
            Fail(api, Msg("TQue<", PositionName(pos_), "> is empty (DeQue without EnQue)"));
        }
        BufferRecord* r = fifo_.front();
        fifo_.pop_front();
        r->state = BufState::kDequeued;
        if (pos_ == AscendC::TPosition::VECIN) {
            r->copyInPending = false;  // MTE2 -> V
        } else if (pos_ == AscendC::TPosition::VECOUT) {
            r->vecPending = r->vecWritePending = false;  // V -> MTE3
        }
        return MakeTensor<T>(r, pos_, 0, r->length);
    }

    template <typename T>
    void Free(const AscendC::LocalTensor<T>& t)
    {
        const char* api = "TQue::FreeTensor";
        BufferRecord& r = Own(api, t.cpu_);
        if (r.state == BufState::kEnqueued) {
            Fail(api, "tensor is still enqueued");
        }
        r.state = BufState::kFree;
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
    BufferRecord& Own(const char* api, const UbView& v)
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

    AscendC::TPosition pos_;
    int32_t depth_;
    std::unique_ptr<BufferRecord[]> slots_;
    uint32_t num_ = 0;
    uint32_t cursor_ = 0;
    std::deque<BufferRecord*> fifo_;
};

/// State of one TBuf: one UB buffer, always usable by Get().
class BufCore {
public:
    explicit BufCore(AscendC::TPosition pos) : pos_(pos) {}
    BufCore(const BufCore&) = delete;
    BufCore& operator=(const BufCore&) = delete;
    ~BufCore()
    {
        if (rec_) {
            Unregister(rec_.get());
        }
    }

    void Init(uint32_t len)
    {
        const char* api = "TPipe::InitBuffer";
        if (rec_) {
            Fail(api, "InitBuffer called twice for the same TBuf");
        }
        if (len == 0) {
            Fail(api, "TBuf needs len >= 1");
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

private:
    AscendC::TPosition pos_;
    std::unique_ptr<BufferRecord> rec_;
};

/// One SetFlag not yet matched by a WaitFlag: which buffers had the
/// producer-side hazard when the flag was set.
struct PendingFlag {
    AscendC::HardEvent event;
    int32_t id;
    std::vector<BufferRecord*> covered;
};

inline std::vector<PendingFlag>& Flags()
{
    static std::vector<PendingFlag> flags;
    return flags;
}

inline const char* EventName(AscendC::HardEvent e)
{
    static const char* const kNames[] = {"MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2",
        "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V", "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1",
        "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3", "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S",
        "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
    const size_t i = static_cast<size_t>(e);
    return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

/// Pointer to one of the hazard flags of BufferRecord.
using HazardFlag = bool BufferRecord::*;

/// Which hazard flag an event resolves (nullptr: none tracked).
inline HazardFlag FlagFor(AscendC::HardEvent e)
{
    using AscendC::HardEvent;
    switch (e) {
        case HardEvent::MTE2_V:
        case HardEvent::MTE2_MTE3:
            return &BufferRecord::copyInPending;
        case HardEvent::V_MTE3:
            return &BufferRecord::vecWritePending;
        case HardEvent::V_MTE2:
            return &BufferRecord::vecPending;
        case HardEvent::MTE3_V:
        case HardEvent::MTE3_MTE2:
            return &BufferRecord::copyOutPending;
        default:
            return nullptr;
    }
}

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
    TPipe()
    {
        ascendc_cpu::Runtime& rt = ascendc_cpu::Rt();
        if (rt.livePipes != 0) {
            ascendc_cpu::Fail("TPipe", "only one TPipe may be alive on a core");
        }
        ++rt.livePipes;
        rt.ubUsed = 0;
        rt.ubLayout.clear();
        ascendc_cpu::Flags().clear();
    }
    ~TPipe() { --ascendc_cpu::Rt().livePipes; }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    void Init() {}
    void Destroy() {}

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

    /// Event ids are not a limited resource in the model.
    template <HardEvent evt>
    TEventID AllocEventID()
    {
        return 0;
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID)
    {}
    template <HardEvent evt>
    TEventID FetchEventID()
    {
        return 0;
    }
    TEventID FetchEventID(HardEvent) { return 0; }
};

/// Queue of UB buffers at `pos` (VECIN: GM->UB data for the vector unit,
/// EnQue/DeQue = MTE2->V sync; VECOUT: vector results for UB->GM,
/// EnQue/DeQue = V->MTE3 sync). At most `depth` tensors can be enqueued.
///   AllocTensor<T>()  next free buffer (round robin); violation if all
///                     `num` buffers are allocated, enqueued or dequeued
///   EnQue(t)          t must be allocated and not yet enqueued
///   DeQue<T>()        oldest enqueued buffer; violation if none
///   FreeTensor(t)     t must be allocated or dequeued
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue {
    static_assert(depth >= 1, "TQue depth must be >= 1");

public:
    static constexpr bool kAscendcCpuIsQueue = true;

    TQue() : cpu_(pos, depth) {}

    template <typename T>
    LocalTensor<T> AllocTensor()
    {
        return cpu_.template Alloc<T>();
    }
    template <typename T>
    void FreeTensor(LocalTensor<T>& tensor)
    {
        cpu_.Free(tensor);
    }
    template <typename T>
    bool EnQue(const LocalTensor<T>& tensor)
    {
        return cpu_.EnQue(tensor);
    }
    template <typename T>
    LocalTensor<T> DeQue()
    {
        return cpu_.template DeQue<T>();
    }
    bool VacantInQue() { return cpu_.Count() < cpu_.Depth(); }
    bool HasTensorInQue() { return cpu_.Count() > 0; }
    int32_t GetTensorCountInQue() { return cpu_.Count(); }
    bool HasIdleBuffer() { return cpu_.HasIdle(); }

    ascendc_cpu::QueueCore cpu_;  // model internals
};

/// One UB buffer for temporaries (no queue, no sync points of its own).
///   Get<T>()                     the whole buffer
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

    ascendc_cpu::BufCore cpu_;  // model internals
};

/// Index of this core in the launch, in [0, GetBlockNum()).
inline int64_t GetBlockIdx() { return ascendc_cpu::Rt().blockIdx; }
/// Number of cores of the launch (the block dim).
inline int64_t GetBlockNum() { return ascendc_cpu::Rt().blockNum; }

/// Barrier inside one pipe. PIPE_ALL waits for every pipe: it clears all
/// pending hazards of the sync checker. The others are no-ops here.
template <pipe_t pipe>
inline void PipeBarrier()
{
    if constexpr (pipe == PIPE_ALL) {
        for (ascendc_cpu::BufferRecord* r : ascendc_cpu::Rt().records) {
            r->ClearSync();
        }
        ascendc_cpu::Flags().clear();
    }
}

/// Cross-pipe event: SetFlag<evt>(id) then WaitFlag<evt>(id). A WaitFlag
/// with no matching earlier SetFlag is a violation (it hangs a device).
/// For MTE2_V, MTE2_MTE3, V_MTE3, V_MTE2, MTE3_V and MTE3_MTE2 the pair
/// resolves the hazards that existed when SetFlag was issued.
template <HardEvent event>
inline void SetFlag(int32_t eventID)
{
    ascendc_cpu::PendingFlag f{event, eventID, {}};
    if (ascendc_cpu::HazardFlag flag = ascendc_cpu::FlagFor(event)) {
        for (ascendc_cpu::BufferRecord* r : ascendc_cpu::Rt().records) {
            if (r->*flag) {
                f.covered.push_back(r);
            }
        }
    }
    ascendc_cpu::Flags().push_back(std::move(f));
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID)
{
    std::vector<ascendc_cpu::PendingFlag>& flags = ascendc_cpu::Flags();
    for (size_t i = 0; i < flags.size(); ++i) {
        if (flags[i].event != event || flags[i].id != eventID) {
            continue;
        }
        if (ascendc_cpu::HazardFlag flag = ascendc_cpu::FlagFor(event)) {
            const std::vector<ascendc_cpu::BufferRecord*>& live = ascendc_cpu::Rt().records;
            for (ascendc_cpu::BufferRecord* r : flags[i].covered) {
                if (std::find(live.begin(), live.end(), r) != live.end()) {
                    r->*flag = false;
                }
            }
        }
        flags.erase(flags.begin() + static_cast<std::ptrdiff_t>(i));
        return;
    }
    ascendc_cpu::Fail("WaitFlag", ascendc_cpu::Msg("no pending SetFlag<HardEvent::", ascendc_cpu::EventName(event),
        ">(", eventID, ") (the device would hang)"));
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_TENSOR_H
