// ascendc_cpu_tensor.h - positions, pipes, events, LocalTensor, GlobalTensor.
//
// Part of the AscendC CPU model (see README.md). Spellings follow the public
// AscendC headers. The UB operand check every API call runs (CheckUb, with the
// cross-pipe sync checker) lives here; TPipe/TQue/TBuf are in
// ascendc_cpu_pipe.h, PipeBarrier/SetFlag/WaitFlag in ascendc_cpu_sync.h.
#ifndef ASCENDC_CPU_TENSOR_H
#define ASCENDC_CPU_TENSOR_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ascendc_cpu_hb.h"
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
/// (instructions of one pipe already execute in order).
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

ASCENDC_CPU_FN const char* PositionName(AscendC::TPosition p)
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
/// LocalTensor::GetPhyAddr(offset)'s address: a T* or, as the device's uint64_t, its bits.
template <typename T>
struct UbAddress {
    T* p;
    operator T*() const { return p; }
    operator uint64_t() const { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }
};

struct UbView {
    uint8_t* ptr = nullptr;
    uint32_t bytes = 0;     // logical length (GetSize() * sizeof(T))
    uint32_t capacity = 0;  // bytes from ptr to the end of its buffer
    BufferRecord* rec = nullptr;
    uint64_t generation = 0;
    AscendC::TPosition position = AscendC::TPosition::VECCALC;
};

ASCENDC_CPU_FN const char* StateName(BufState s)
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
/// enqueued, and its first `bytesNeeded` bytes accessed without a cross-pipe
/// race (ascendc_cpu_hb.h).
/// Whether the first `aBytes` of `a` and the first `bBytes` of `b` share a byte.
ASCENDC_CPU_FN bool UbOverlaps(const UbView& a, uint64_t aBytes, const UbView& b, uint64_t bBytes)
{
    return a.ptr < b.ptr + bBytes && b.ptr < a.ptr + aBytes;
}

ASCENDC_CPU_FN void CheckUb(const char* api, const char* operand, const UbView& v, uint64_t bytesNeeded, Access access)
{
    if (v.ptr == nullptr) {
        Fail(api, Msg(operand, " is an empty LocalTensor (not from AllocTensor/DeQue/TBuf::Get)"));
    }
    const uint8_t* base = Arena();
    const uint64_t off = static_cast<uint64_t>(v.ptr - base);
    if (access != Access::kScalar && off % kUbBlockBytes != 0) {
        Broken(api, Msg(operand, " UB address (offset ", off, ") is not 32-byte aligned"),
            Msg(api, "/align/", operand));
    }
    if (bytesNeeded > v.bytes) {
        const std::string rule = Msg(operand, " needs ", bytesNeeded, " bytes but the LocalTensor has ", v.bytes);
        if (off + bytesNeeded > Rt().ubBytes) {
            Fail(api, rule);  // past the UB: nothing to go on with
        }
        Broken(api, rule, Msg(api, "/short/", operand));
    }
    const BufferRecord* r = v.rec;
    if (r != nullptr && r->isQueueSlot) {
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
            HbAccess(api, operand, Pipe::kMte2, off, bytesNeeded, true);
            break;
        case Access::kVecRead:
            HbAccess(api, operand, Pipe::kV, off, bytesNeeded, false);
            break;
        case Access::kVecWrite:
            HbAccess(api, operand, Pipe::kV, off, bytesNeeded, true);
            break;
        case Access::kCopyOut:
            HbAccess(api, operand, Pipe::kMte3, off, bytesNeeded, false);
            break;
    }
}

/// CheckUb for an operand a strided vector instruction touches in pieces (Copy's and the
/// level-0 calls' repeats): `at` holds each touched byte range's (offset, length) within the
/// tensor (sorted here); the tensor must be live, `align`-byte aligned (32 unless the call
/// documents less, as a reduction's dst) and long enough for the last byte, and the sync
/// checker sees each run of touched bytes as one V-pipe access.
ASCENDC_CPU_FN void StridedAccess(const char* api, const char* operand, const UbView& v,
    std::vector<std::pair<uint64_t, uint64_t>>& at, bool write, uint64_t align = kUbBlockBytes)
{
    if (at.empty()) {
        return;
    }
    std::sort(at.begin(), at.end());
    uint64_t end = 0;
    for (const auto& r : at) {
        end = std::max(end, r.first + r.second);
    }
    CheckUb(api, operand, v, 0, Access::kScalar);  // live, not enqueued
    const uint64_t off = static_cast<uint64_t>(v.ptr - Arena());
    if (off % align != 0) {
        Broken(api, Msg(operand, " UB address (offset ", off, ") is not ", align, "-byte aligned"),
            Msg(api, "/align/", operand));
    }
    if (end > v.bytes) {
        const std::string rule = Msg(operand, " needs ", end, " bytes but the LocalTensor has ", v.bytes);
        if (off + end > Rt().ubBytes) {
            Fail(api, rule);
        }
        Broken(api, rule, Msg(api, "/short/", operand));
    }
    for (size_t i = 0; i < at.size();) {
        uint64_t lo = at[i].first;
        uint64_t hi = lo + at[i].second;
        size_t k = i + 1;
        while (k < at.size() && at[k].first <= hi) {
            hi = std::max(hi, at[k].first + at[k].second);
            ++k;
        }
        HbAccess(api, operand, Pipe::kV, off + lo, hi - lo, write);
        i = k;
    }
}

ASCENDC_CPU_FN void Unregister(BufferRecord* r)
{
    std::vector<BufferRecord*>& v = Rt().records;
    v.erase(std::remove(v.begin(), v.end(), r), v.end());
}

/// Reserves `count` buffers of `len` bytes (already 32-byte aligned) in the
/// UB of the current core; fails with the whole layout on overflow.
ASCENDC_CPU_FN uint32_t AllocateUb(const char* what, uint32_t count, uint32_t len)
{
    Runtime& rt = Rt();
    Arena();
    const uint64_t need = static_cast<uint64_t>(count) * len;
    const std::string entry = Msg(what, " ", static_cast<unsigned>(count), "x", len);
    if (rt.ubUsed + need > rt.ubPipeBytes) {
        Fail("TPipe::InitBuffer", Msg("UB overflow: ", entry, " at offset ", rt.ubUsed, " would end at byte ",
            rt.ubUsed + need, " but the UB has ", rt.ubPipeBytes, " bytes; buffers so far: [",
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
    /// A static tensor (asc-devkit kernel_tensor_impl.h): `tileSize` elements at byte `addr`
    /// of the UB, owned by no queue or TBuf. Outside the UB is a violation.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
    {
        const uint64_t end = static_cast<uint64_t>(addr) + static_cast<uint64_t>(tileSize) * sizeof(T);
        if (end > ascendc_cpu::Rt().ubBytes) {
            ascendc_cpu::Fail("LocalTensor(pos, addr, tileSize)", ascendc_cpu::Msg("bytes [", addr, ", ", end,
                ") are outside the UB (", ascendc_cpu::Rt().ubBytes, " bytes)"));
        }
        cpu_.ptr = ascendc_cpu::Arena() + addr;
        cpu_.bytes = static_cast<uint32_t>(tileSize * sizeof(T));
        cpu_.capacity = ascendc_cpu::Rt().ubBytes - addr;
        cpu_.position = pos;
    }

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
    /// The tensor's length in elements and, on Ascend 950, the upper bound of its UB accesses
    /// (asc-devkit kernel_tensor_impl.h): both become `dataLen` elements, which must fit in
    /// the buffer.
    void SetBufferLen(uint32_t dataLen)
    {
        SetSize(dataLen);
        cpu_.capacity = cpu_.bytes;
    }
    TPosition GetPosition() const { return cpu_.position; }
    __ubuf__ T* GetPhyAddr() const { return reinterpret_cast<T*>(cpu_.ptr); }
    /// The address of element `offset`: on the device a uint64_t UB address (kernel_tensor_impl.h),
    /// which kernels store in TransDataTo5HD's address lists; here the host address, as a T* or
    /// a uint64_t (ascendc_cpu::UbAddress), which the model's address lists take back.
    ascendc_cpu::UbAddress<T> GetPhyAddr(const uint32_t offset) const
    {
        return ascendc_cpu::UbAddress<T>{reinterpret_cast<T*>(cpu_.ptr + static_cast<uint64_t>(offset) * sizeof(T))};
    }

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
        ascendc_cpu::RecordUbScalar(false);
        T v;
        std::memcpy(static_cast<void*>(&v), cpu_.ptr + static_cast<size_t>(index) * sizeof(T), sizeof(T));
        return v;
    }
    void SetValue(const uint32_t index, const T& value) const
    {
        CheckIndex("LocalTensor::SetValue", index);
        ascendc_cpu::RecordUbScalar(true);
        std::memcpy(cpu_.ptr + static_cast<size_t>(index) * sizeof(T), static_cast<const void*>(&value), sizeof(T));
    }
    T& operator()(const uint32_t index) const
    {
        CheckIndex("LocalTensor::operator()", index);
        ascendc_cpu::RecordUbScalar(false);
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

/// GlobalTensor::SetL2CacheHint's modes, as asc-devkit declares them
/// (impl/basic_api/utils/kernel_utils_macros.h; CACHE_MODE_DISABLE bypasses L2).
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

/// asc-devkit's DivCeil (impl/basic_api/utils/kernel_utils_ceil_oom_que.h): a / b rounded up.
constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
/// asc-devkit's AlignUp (the same file): a rounded up to a multiple of b.
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }

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

    /// The L2 cache policy of this tensor's GM accesses (asc-devkit docs, GlobalTensor's
    /// SetL2CacheHint: CACHE_MODE_DISABLE reads and writes bypass L2). No effect on the values;
    /// the cost model (--profile) times a copy of a bypassing tensor by its own figure.
    template <CacheRwMode rwMode = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode mode)
    {
        cacheMode_ = mode;
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
            const std::string rule = ascendc_cpu::Msg(write ? "write" : "read", " of elements [", first, ", ",
                first + count, ") outside the GlobalTensor bound of ", size_, " elements");
            if (write || !ascendc_cpu::Rt().recordGmReads) {
                ascendc_cpu::Fail(api, rule);
            }
            // --record-gm-reads: reported once, the read goes on (CheckGm still bounds it).
            ascendc_cpu::Defer(api, rule, ascendc_cpu::Msg(api, " outside the GlobalTensor bound"));
        }
        T* p = Address(start);
        ascendc_cpu::RecordGm(api, count * sizeof(T), cacheMode_ == CacheMode::CACHE_MODE_DISABLE ? 1 : 0);
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
    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
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

}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_TENSOR_H
