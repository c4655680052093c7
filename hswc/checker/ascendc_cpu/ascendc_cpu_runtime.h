// ascendc_cpu_runtime.h - per-core state of the AscendC CPU model.
//
// Holds what the device would hold for one AI vector core while a kernel
// runs: block index / block count, the Unified Buffer (UB) arena, the list of
// UB buffers handed out by TPipe::InitBuffer, and the GM regions the harness
// registered (for bounds and write-coverage checks). Cores run one after the
// other, each on a host thread of its own (ascendc_cpu_cores.h: a SyncAll hands over to the
// next core, which swaps the per-core part in); BeginBlock() resets the per-core part.
//
// Rule violations: Fail() prints ONE line
//     ascendc_cpu: <API>: <rule> [block <idx>]
// to stderr and terminates the process with exit status 3 (std::_Exit, so no
// destructors or leak checkers run and the status is always 3).
#ifndef ASCENDC_CPU_RUNTIME_H
#define ASCENDC_CPU_RUNTIME_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_site.h"

namespace ascendc_cpu {

constexpr int kViolationExitCode = 3;
constexpr uint32_t kUbBlockBytes = 32;     // UB data block
constexpr uint32_t kRepeatBytes = 256;     // one vector instruction repeat
constexpr uint32_t kDefaultUbBytes = 196608;  // ascend910b / ascend910_93 AIV core
constexpr uint64_t kDefaultCtrl = uint64_t{1} << 60;  // CTRL[60] = 1: global saturation mode
/// The GM writer mark of a byte written before the last completed SyncAll, or by an atomic add
/// (ascendc_cpu_cores.h, ascendc_cpu_atomic.h): another core's later write is ordered after it,
/// or commutes with it.
constexpr uint16_t kGmWriteOrdered = 0xFFFF;
constexpr size_t kGmGuardBytes = 64 * 1024;  // readable bytes the harness keeps after each GM tensor

struct Runtime;
ASCENDC_CPU_FN Runtime& Rt();

namespace detail {
ASCENDC_CPU_FN void AppendAll(std::ostringstream&) {}
template <typename A, typename... Rest>
inline void AppendAll(std::ostringstream& os, const A& a, const Rest&... rest)
{
    os << a;
    AppendAll(os, rest...);
}
}  // namespace detail

/// Builds a message from streamable pieces.
template <typename... Args>
inline std::string Msg(const Args&... args)
{
    std::ostringstream os;
    detail::AppendAll(os, args...);
    return os.str();
}

[[noreturn]] ASCENDC_CPU_FN void Fail(const char* api, const std::string& rule);

ASCENDC_CPU_FN uint64_t RoundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/// Lifecycle of one UB buffer of a TQue (TBuf buffers stay kInUse).
enum class BufState { kFree, kAllocated, kEnqueued, kDequeued };

/// The pipes the sync checker tracks (S carries orderings between the others).
enum class Pipe : uint8_t { kMte2 = 0, kV, kMte3, kS, kNone };
constexpr int kPipes = 4;
constexpr int kDataPipes = 3;  // pipes that access UB: MTE2, V, MTE3

/// A vector clock: t[Q] is the epoch of pipe Q's latest access known to be
/// ordered before the owner's next one (see ascendc_cpu_hb.h).
struct Clock {
    uint32_t t[kPipes] = {0, 0, 0, 0};

    void Join(const Clock& o)
    {
        for (int q = 0; q < kPipes; ++q) {
            t[q] = t[q] < o.t[q] ? o.t[q] : t[q];
        }
    }
};

/// The last accesses of one UB byte.
struct ShadowByte {
    uint32_t writeEpoch = 0;  // 0: never written on this core
    uint8_t writer = 0;       // Pipe of the last write
    uint32_t readEpoch[kDataPipes] = {0, 0, 0};
};

/// One UB buffer handed out by TPipe::InitBuffer (a TQue slot or a TBuf).
/// Cross-pipe ordering is tracked per UB byte (ascendc_cpu_hb.h); a queue
/// slot keeps the clock of its free-buffer event (FreeTensor -> AllocTensor).
struct BufferRecord {
    const char* kind = "";   // "TQue" or "TBuf"
    const char* position = "";
    uint32_t offset = 0;     // byte offset in the UB arena
    uint32_t length = 0;     // bytes (multiple of 32)
    bool isQueueSlot = false;
    BufState state = BufState::kFree;
    uint64_t generation = 0;  // bumped by every AllocTensor
    Clock freeClock;  // what the freeing pipe had done at FreeTensor
    int32_t freeEventId = -1;  // the event id its FreeTensor's flag holds until the next AllocTensor
};

constexpr int kEventKinds = 35;  // AscendC::HardEvent::MAX (ascendc_cpu_tensor.h)
/// Event ids per HardEvent: QUE_MAX_EVENT, 8 on NPU architectures 2201 (Atlas A2/A3) and 3510
/// (Ascend 950) (asc-devkit impl/basic_api/kernel_macros.h).
constexpr int kEventIds = 8;

/// A SetFlag not yet matched by its WaitFlag (ascendc_cpu_sync.h): what the signalling pipe had
/// done, and which call set it where. A queue's own flags (its EnQue's, its FreeTensor's) are
/// listed too, so that a kernel's SetFlag on an id one of them holds is seen.
struct PendingFlag {
    uint8_t event;
    int32_t id;
    Clock clock;
    Site site;
    std::string by;  // the call that set it, e.g. "SetFlag<HardEvent::MTE3_V>(0)"
    bool queue;      // set by a queue call (waited for by the queue, never by a WaitFlag)
};

/// Who holds an event id (AllocEventID until ReleaseEventID; a queue's EnQue until its DeQue, its
/// FreeTensor until the buffer's next AllocTensor).
struct HeldId {
    bool held = false;
    Site site = Site(nullptr, 0);
    std::string by;
};

/// A vector call since the V pipe's last known completion (ascendc_cpu_hb.h, --auto-sync off):
/// the V epoch of its first UB access, where the kernel made it, and its API.
struct VecCall {
    uint32_t firstEpoch;
    Site site;
    const char* api;
};

/// A GM allocation registered by the harness.
struct GmRegion {
    const uint8_t* base = nullptr;
    size_t bytes = 0;
    std::string name;
    bool writable = false;
    std::vector<uint16_t> writer;  // per byte: 0 = never written, kGmWriteOrdered, else blockIdx + 1
};

struct Runtime {
    // Launch state.
    uint64_t tilingKey = 0;  // TILING_KEY_IS compares with it
    int64_t blockIdx = 0;
    int64_t blockNum = 1;
    bool inBlock = false;

    // UB arena (capacity = platform UB size).
    uint32_t ubBytes = kDefaultUbBytes;  // the arena: what a static LocalTensor(pos, addr, len) may use
    uint32_t ubPipeBytes = kDefaultUbBytes;  // what TPipe::InitBuffer hands out (GetCoreMemSize(UB))
    uint8_t fillByte = 0xA5;
    std::unique_ptr<uint8_t[]> arenaStorage;
    uint8_t* arena = nullptr;  // 32-byte aligned
    uint32_t ubUsed = 0;       // bytes handed out by the live TPipe
    uint32_t ubPeak = 0;       // max ubUsed during the current block
    std::string ubLayout;      // human-readable list of buffers, for messages
    int livePipes = 0;
    Clock pipeClock[kPipes];           // the sync checker's clocks, one per pipe
    std::vector<ShadowByte> shadow;    // one per UB byte
    void* pipe = nullptr;  // the live AscendC::TPipe (GetTPipePtr)
    std::vector<BufferRecord*> records;

    // The kernel's call being modelled (ascendc_cpu_hb.h, CallScope): where it was made, and the
    // V epoch its first UB access takes (every later access of the call has a later one).
    Site callSite = Site(nullptr, 0);
    int callDepth = 0;
    uint32_t vCallStart = 1;

    // The synchronisation calls' state (ascendc_cpu_sync.h): flags set and not yet waited for,
    // and the event ids held, per HardEvent (ids past kEventIds only after a broken rule).
    std::vector<PendingFlag> flags;
    std::vector<HeldId> heldIds[kEventKinds];

    // --auto-sync off (Atlas A2/A3; ascendc_cpu_hb.h): vector calls that touch the same UB bytes,
    // at least one writing, must be ordered by a PipeBarrier<PIPE_V> (or PIPE_ALL, or flags
    // through another pipe). vDone: the V epoch up to which V's accesses are known complete;
    // vPrevRead: per UB byte, the V read before the last one of another call; vCalls: the calls
    // since vDone, to name an earlier one.
    bool vOrderChecked = false;
    uint32_t vDone = 0;
    std::vector<uint32_t> vPrevRead;
    std::deque<VecCall> vCalls;

    // Violations the run may go on after (Defer): with keepGoing, each distinct one is
    // reported once and counted; the harness exits 3 at the end.
    bool keepGoing = false;
    // --record-gm-reads: a GM read past the end of its tensor (into the harness's guard bytes
    // after it, kGmGuardBytes) is reported once and the read goes on, so that the outputs can
    // still be compared; writes and reads farther out still stop the run.
    bool recordGmReads = false;
    // --record-rules: also the broken rules after which the model can still compute what the
    // device does (Broken: a misaligned or too short UB operand inside the UB, a partial
    // Compare repeat) are reported once and the run goes on.
    bool recordRules = false;
    uint64_t deferred = 0;
    std::vector<std::string> deferredKeys;

    // Ascend 950's loop mode of DataCopyPad (SetLoopModePara), per direction: [0] UB -> GM,
    // [1] GM -> UB (DataCopyMVType's values); sizes 1 is the normal (reset) state.
    struct LoopMode {
        uint32_t loop1Size = 1, loop2Size = 1;
        uint64_t loop1SrcStride = 0, loop1DstStride = 0, loop2SrcStride = 0, loop2DstStride = 0;
    } loopMode[2];

    // Per core, as the device's registers (ascendc_cpu_cores.h swaps them with the core): GM
    // atomic accumulation of copies to GM (ascendc_cpu_atomic.h; `storing` while a copy's
    // accumulating store is checked) and the vector mask mode (ascendc_cpu_mask.h: counter mode,
    // SetVectorMask's two words; maskEpoch, the V pipe's clock when the model last knew them).
    struct Atomic {
        uint8_t kind = 0;
        const char* type = "";
        size_t size = 0;
        bool storing = false;
    } atomic;
    bool maskCounter = false;
    uint64_t vectorMask[2] = {~uint64_t{0}, ~uint64_t{0}};
    uint32_t maskEpoch = 0;
    // The CTRL register's bits the model reads (SetCtrlSpr, ascendc_cpu_ctrl.h): at a kernel's
    // start CTRL[60] = 1 and every other bit 0 (SetCtrlSpr(ISASI).md's defaults).
    uint64_t ctrl = kDefaultCtrl;

    // GM regions and tiling size registered by the harness.
    std::vector<GmRegion> gm;
    size_t tilingBytes = SIZE_MAX;
};

ASCENDC_CPU_FN Runtime& Rt()
{
    static Runtime rt;
    return rt;
}

[[noreturn]] ASCENDC_CPU_FN void Fail(const char* api, const std::string& rule)
{
    std::fflush(stdout);
    const Runtime& rt = Rt();
    if (rt.inBlock) {
        std::fprintf(stderr, "ascendc_cpu: %s: %s [block %lld]\n", api, rule.c_str(),
            static_cast<long long>(rt.blockIdx));
    } else {
        std::fprintf(stderr, "ascendc_cpu: %s: %s\n", api, rule.c_str());
    }
    std::fflush(stderr);
    std::_Exit(kViolationExitCode);
}

/// A violation after which the model's state is still sound (a race between pipes, which the
/// CPU's program order hides). Without keepGoing it is Fail(); with it, the first one of each
/// `key` is printed as Fail() prints it, all are counted, and the run goes on.
ASCENDC_CPU_FN void Defer(const char* api, const std::string& rule, const std::string& key)
{
    Runtime& rt = Rt();
    if (!rt.keepGoing) {
        Fail(api, rule);
    }
    ++rt.deferred;
    for (const std::string& k : rt.deferredKeys) {
        if (k == key) {
            return;
        }
    }
    rt.deferredKeys.push_back(key);
    std::fflush(stdout);
    std::fprintf(stderr, "ascendc_cpu: %s: %s [block %lld]\n", api, rule.c_str(), static_cast<long long>(rt.blockIdx));
    std::fflush(stderr);
}

/// A broken rule after which the model can still do what the device does: with --record-rules
/// recorded as Defer records it, else Fail().
ASCENDC_CPU_FN void Broken(const char* api, const std::string& rule, const std::string& key)
{
    if (!Rt().recordRules) {
        Fail(api, rule);
    }
    const bool keep = Rt().keepGoing;
    Rt().keepGoing = true;
    Defer(api, rule, key);
    Rt().keepGoing = keep;
}

/// A call that takes its mask as an argument (isSetMask = true) runs in the register's Normal
/// mode; in Counter mode (SetMaskCount: ascendc_cpu_mask.h) it is refused.
ASCENDC_CPU_FN void NormalMaskMode(const char* api)
{
    if (Rt().maskCounter) {
        Fail(api, "counter mode (SetMaskCount) with isSetMask = true is not modelled");
    }
}

/// (Re)allocates the UB arena. `ubBytes` must be a positive multiple of 32.
ASCENDC_CPU_FN void Configure(uint32_t ubBytes, uint8_t fillByte = 0xA5)
{
    Runtime& rt = Rt();
    if (ubBytes == 0 || ubBytes % kUbBlockBytes != 0) {
        Fail("Configure", Msg("UB size ", ubBytes, " must be a positive multiple of 32"));
    }
    rt.ubBytes = ubBytes;
    rt.ubPipeBytes = ubBytes;
    rt.fillByte = fillByte;
    rt.arenaStorage.reset(new uint8_t[static_cast<size_t>(ubBytes) + 64]);
    const uintptr_t raw = reinterpret_cast<uintptr_t>(rt.arenaStorage.get());
    rt.arena = rt.arenaStorage.get() + (RoundUp(raw, 64) - raw);
    std::memset(rt.arena, fillByte, ubBytes);
}

ASCENDC_CPU_FN uint8_t* Arena()
{
    Runtime& rt = Rt();
    if (rt.arena == nullptr) {
        Configure(kDefaultUbBytes);
    }
    return rt.arena;
}

/// Starts core `idx` of a launch with `num` cores: fills the UB with the
/// garbage byte (so stale lanes are visible), forgets all UB buffers and the
/// sync checker's accesses and orderings.
ASCENDC_CPU_FN void BeginBlock(int64_t idx, int64_t num)
{
    Runtime& rt = Rt();
    Arena();
    std::memset(rt.arena, rt.fillByte, rt.ubBytes);
    rt.blockIdx = idx;
    rt.blockNum = num;
    rt.inBlock = true;
    rt.ubUsed = 0;
    rt.ubPeak = 0;
    rt.ubLayout.clear();
    rt.livePipes = 0;
    for (Clock& c : rt.pipeClock) {
        c = Clock();
    }
    rt.shadow.assign(rt.ubBytes, ShadowByte());
    rt.pipe = nullptr;
    rt.records.clear();
    rt.callDepth = 0;
    rt.vCallStart = 1;
    rt.flags.clear();
    for (std::vector<HeldId>& ids : rt.heldIds) {
        ids.assign(kEventIds, HeldId());
    }
    rt.vDone = 0;
    rt.vCalls.clear();
    if (rt.vOrderChecked) {
        rt.vPrevRead.assign(rt.ubBytes, 0);
    }
    rt.loopMode[0] = Runtime::LoopMode();
    rt.loopMode[1] = Runtime::LoopMode();
    rt.atomic = Runtime::Atomic();
    rt.maskCounter = false;
    rt.ctrl = kDefaultCtrl;
    rt.vectorMask[0] = ~uint64_t{0};
    rt.vectorMask[1] = ~uint64_t{0};
    rt.maskEpoch = 0;
}

/// Ends the current core; a TPipe still alive here is a violation.
ASCENDC_CPU_FN void EndBlock()
{
    Runtime& rt = Rt();
    if (rt.livePipes != 0) {
        Fail("TPipe", "a TPipe outlived the kernel call");
    }
    rt.inBlock = false;
}

/// Registers a GM allocation. Every GM access made through GlobalTensor must
/// then lie inside one registered region; writes to read-only regions fail.
ASCENDC_CPU_FN void RegisterGm(const void* base, size_t bytes, const std::string& name, bool writable)
{
    if (base == nullptr) {
        return;
    }
    GmRegion r;
    r.base = static_cast<const uint8_t*>(base);
    r.bytes = bytes;
    r.name = name;
    r.writable = writable;
    if (writable) {
        r.writer.assign(bytes, 0);
    }
    Rt().gm.push_back(std::move(r));
}

ASCENDC_CPU_FN void ClearGm() { Rt().gm.clear(); }

ASCENDC_CPU_FN const GmRegion* FindGm(const std::string& name)
{
    for (const GmRegion& r : Rt().gm) {
        if (r.name == name) {
            return &r;
        }
    }
    return nullptr;
}

/// Size in bytes of the tiling buffer the harness passes (checked by
/// GET_TILING_DATA_WITH_STRUCT).
ASCENDC_CPU_FN void SetTilingBytes(size_t bytes) { Rt().tilingBytes = bytes; }

/// Checks a GM access of `bytes` bytes at `p` against the registered regions.
/// For writes, `src` holds the new bytes (used to detect two cores writing
/// different values to the same byte).
ASCENDC_CPU_FN void CheckGm(const char* api, const void* p, size_t bytes, bool write, const void* src)
{
    Runtime& rt = Rt();
    if (bytes == 0 || rt.gm.empty()) {
        return;
    }
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (GmRegion& r : rt.gm) {
        const uintptr_t lo = reinterpret_cast<uintptr_t>(r.base);
        const uintptr_t at = reinterpret_cast<uintptr_t>(q);
        if (at < lo || at - lo >= r.bytes) {
            continue;
        }
        const size_t off = at - lo;
        if (bytes > r.bytes - off) {
            if (!write && rt.recordGmReads && bytes - (r.bytes - off) <= kGmGuardBytes) {
                Defer(api, Msg("read of ", bytes, " bytes at byte ", off, " of GM tensor '", r.name,
                    "' runs past its end (", r.bytes, " bytes)"), Msg(api, " past the end of ", r.name));
                return;
            }
            Fail(api, Msg(write ? "write" : "read", " of ", bytes, " bytes at byte ", off, " of GM tensor '",
                r.name, "' runs past its end (", r.bytes, " bytes)"));
        }
        if (write) {
            if (!r.writable) {
                Fail(api, Msg("write to read-only GM tensor '", r.name, "' at byte ", off));
            }
            const uint16_t me = static_cast<uint16_t>(rt.blockIdx + 1);
            const uint8_t* s = static_cast<const uint8_t*>(src);
            if (rt.atomic.storing) {  // an atomic add commutes with other cores' (ascendc_cpu_atomic.h)
                std::fill(r.writer.begin() + static_cast<std::ptrdiff_t>(off),
                    r.writer.begin() + static_cast<std::ptrdiff_t>(off + bytes), kGmWriteOrdered);
                return;
            }
            for (size_t i = 0; i < bytes; ++i) {
                const uint16_t w = r.writer[off + i];
                if (w != 0 && w != kGmWriteOrdered && w != me && q[i] != s[i]) {
                    Fail(api, Msg("byte ", off + i, " of GM tensor '", r.name, "' was written by block ", w - 1,
                        " and is overwritten with a different value"));
                }
                r.writer[off + i] = me;
            }
        }
        return;
    }
    if (!write && rt.recordGmReads) {
        for (const GmRegion& r : rt.gm) {
            const uintptr_t end = reinterpret_cast<uintptr_t>(r.base) + r.bytes;
            const uintptr_t at = reinterpret_cast<uintptr_t>(q);
            if (at >= end && at - end + bytes <= kGmGuardBytes) {
                Defer(api, Msg("read of ", bytes, " bytes at byte ", at - end + r.bytes, " of GM tensor '", r.name,
                    "' runs past its end (", r.bytes, " bytes)"), Msg(api, " past the end of ", r.name));
                return;
            }
        }
    }
    for (const GmRegion& r : rt.gm) {  // just past a tensor's end (a workspace of 0 bytes too)
        const uintptr_t end = reinterpret_cast<uintptr_t>(r.base) + r.bytes;
        const uintptr_t at = reinterpret_cast<uintptr_t>(q);
        if (at >= end && at - end < kGmGuardBytes) {
            Fail(api, Msg(write ? "write" : "read", " of ", bytes, " bytes at byte ", at - end + r.bytes,
                " of GM tensor '", r.name, "' runs past its end (", r.bytes, " bytes)"));
        }
    }
    Fail(api, Msg(write ? "write" : "read", " of ", bytes, " bytes at GM address ", p,
        " outside every GM tensor of the launch"));
}

}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_RUNTIME_H
