// ascendc_cpu_sync.h - PipeBarrier, SetFlag / WaitFlag, the event ids and their bookkeeping.
//
// Part of the AscendC CPU model (see README.md). The calls here order pipes
// for the sync checker (ascendc_cpu_hb.h).
//
// Event ids, as asc-devkit defines them (docs 资源管理/TPipe/AllocEventID.md, ReleaseEventID.md,
// FetchEventID.md; impl/basic_api/kernel_tpipe_impl.h, kernel_tquebind_impl.h): each HardEvent
// (pipe pair) has QUE_MAX_EVENT = 8 ids per TPipe. AllocEventID takes the lowest id nobody
// holds, ReleaseEventID gives it back (an id AllocEventID did not give is a broken rule: "需由
// 对应的AllocEventID申请而来"), FetchEventID returns the lowest free id without taking it (so two
// FetchEventID calls give the same id). The queues take ids of the same pools: EnQue one of its
// producer -> consumer event (MTE2_V for a VECIN queue, V_MTE3 for VECOUT), held until the
// DeQue, and FreeTensor one of the consumer -> producer event, held until that buffer's next
// AllocTensor; a V -> V EnQue uses id 0 without taking it. When all 8 are held, the call that
// needs one breaks a rule (the device's debug build asserts; with --record-rules it gets an id
// past the hardware's and the run goes on). A SetFlag on an id whose earlier flag of the same
// HardEvent has not been waited for (FetchEventID.md: 两者ID相同会出现程序卡死等未定义行为) is a
// broken rule, located at both calls; a queue's flags count, so a kernel's fixed id that a
// queue holds in flight is seen too. A kernel's WaitFlag waits for the kernel's own flags only.
#ifndef ASCENDC_CPU_SYNC_H
#define ASCENDC_CPU_SYNC_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_site.h"
#include "ascendc_cpu_tensor.h"

namespace ascendc_cpu {

ASCENDC_CPU_FN const char* EventName(AscendC::HardEvent e)
{
    static const char* const kNames[] = {"MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2",
        "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V", "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1",
        "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3", "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S",
        "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
    const size_t i = static_cast<size_t>(e);
    return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

/// The tracked pipe a name part ("MTE2", "V", "MTE3", "S") stands for; M,
/// MTE1 and FIX (the cube side) are not tracked.
ASCENDC_CPU_FN Pipe PipeOfName(const std::string& n)
{
    if (n == "MTE2") {
        return Pipe::kMte2;
    }
    if (n == "V") {
        return Pipe::kV;
    }
    if (n == "MTE3") {
        return Pipe::kMte3;
    }
    return n == "S" ? Pipe::kS : Pipe::kNone;
}

/// The signalling and the waiting pipe of an event, e.g. MTE2_V -> (MTE2, V).
ASCENDC_CPU_FN std::pair<Pipe, Pipe> EventPipes(AscendC::HardEvent e)
{
    const std::string name = EventName(e);
    const size_t sep = name.find('_');
    if (sep == std::string::npos) {
        return {Pipe::kNone, Pipe::kNone};
    }
    return {PipeOfName(name.substr(0, sep)), PipeOfName(name.substr(sep + 1))};
}

/// The HardEvent by which pipe `from` signals pipe `to` (a queue's route), e.g. MTE2 -> V: MTE2_V.
ASCENDC_CPU_FN AscendC::HardEvent EventOf(Pipe from, Pipe to)
{
    using AscendC::HardEvent;
    for (int e = 0; e < kEventKinds; ++e) {
        const auto pipes = EventPipes(static_cast<HardEvent>(e));
        if (pipes.first == from && pipes.second == to) {
            return static_cast<HardEvent>(e);
        }
    }
    return HardEvent::MAX;
}

/// How a message spells a flag call, e.g. "SetFlag<HardEvent::MTE3_V>(0)".
ASCENDC_CPU_FN std::string FlagCall(const char* call, AscendC::HardEvent e, int32_t id)
{
    return Msg(call, "<HardEvent::", EventName(e), ">(", id, ")");
}

/// Takes (or with `take` false, as FetchEventID, only finds) the lowest id of `e` nobody holds,
/// for `by` at `site`. All kEventIds held is a broken rule of `api`; with --record-rules an id
/// past them is handed out.
ASCENDC_CPU_FN int32_t FreeEventId(const char* api, AscendC::HardEvent e, const Site& site, const std::string& by, bool take)
{
    std::vector<HeldId>& ids = Rt().heldIds[static_cast<size_t>(e)];
    size_t i = 0;
    while (i < ids.size() && ids[i].held) {
        ++i;
    }
    if (i >= static_cast<size_t>(kEventIds)) {
        std::string holders;
        for (size_t k = 0; k < static_cast<size_t>(kEventIds); ++k) {
            holders += Msg(k == 0 ? "" : ", ", k, " by ", ids[k].by, " at ", Where(ids[k].site));
        }
        Broken(api, Msg(by, " at ", Where(site), " needs an event id of HardEvent::", EventName(e), ", but all ",
            kEventIds, " are held (QUE_MAX_EVENT; ReleaseEventID missing?): ", holders),
            Msg(api, "/ids/", EventName(e)));
    }
    if (take) {
        if (i == ids.size()) {
            ids.emplace_back();
        }
        ids[i].held = true;
        ids[i].site = site;
        ids[i].by = by;
    }
    return static_cast<int32_t>(i);
}

/// ReleaseEventID: the id must be one AllocEventID gave (or a queue took) and still holds.
ASCENDC_CPU_FN void ReleaseEventId(const char* api, AscendC::HardEvent e, int32_t id, const Site& site)
{
    std::vector<HeldId>& ids = Rt().heldIds[static_cast<size_t>(e)];
    if (id < 0 || static_cast<size_t>(id) >= ids.size() || !ids[static_cast<size_t>(id)].held) {
        Broken(api, Msg(api, "<HardEvent::", EventName(e), ">(", id, ") at ", Where(site), ": event id ", id,
            " is not allocated (ReleaseEventID takes an id AllocEventID gave, once)"),
            Msg(api, "/release/", EventName(e)));
        return;
    }
    ids[static_cast<size_t>(id)] = HeldId();
}

/// A flag of `e` and `id` set by `by` at `site` (a kernel's SetFlag, or a queue's): an id out
/// of range, or one whose earlier flag is still pending, is a broken rule; the flag is pending
/// until its WaitFlag (a queue's until the queue's own wait).
ASCENDC_CPU_FN void SetFlagAt(const char* api, AscendC::HardEvent e, int32_t id, const Site& site, const std::string& by,
    bool queue)
{
    Runtime& rt = Rt();
    const std::vector<HeldId>& ids = rt.heldIds[static_cast<size_t>(e)];
    const bool handedOut = id >= 0 && static_cast<size_t>(id) < ids.size() && ids[static_cast<size_t>(id)].held;
    if (id < 0 || (id >= kEventIds && !handedOut)) {
        Broken(api, Msg(by, " at ", Where(site), ": event id ", id, " is outside 0..", kEventIds - 1,
            " (QUE_MAX_EVENT ids per HardEvent)"), Msg(api, "/range/", EventName(e)));
    }
    for (const PendingFlag& f : rt.flags) {
        if (f.event == static_cast<uint8_t>(e) && f.id == id) {
            Defer(api, Msg(by, " at ", Where(site), " while ", f.by, " at ", Where(f.site), " is not yet waited "
                "for: event id ", id, " of HardEvent::", EventName(e), " reused in flight (two FetchEventID "
                "ids, or a fixed id; AllocEventID hands out distinct ids until ReleaseEventID)"),
                Msg(api, "/inflight/", EventName(e), "/", Where(site), "/", Where(f.site)));
            break;
        }
    }
    RecordLine(Msg("set ", EventName(e), " ", id));
    rt.flags.push_back(PendingFlag{static_cast<uint8_t>(e), id, Snapshot(EventPipes(e).first), site, by, queue});
}

/// The queue's own wait for its flag of `e` and `id` (DeQue, AllocTensor); the queue orders the
/// pipes itself (ascendc_cpu_pipe.h), so only the pending flag goes.
ASCENDC_CPU_FN void QueueWaited(AscendC::HardEvent e, int32_t id)
{
    std::vector<PendingFlag>& flags = Rt().flags;
    for (size_t i = 0; i < flags.size(); ++i) {
        if (flags[i].queue && flags[i].event == static_cast<uint8_t>(e) && flags[i].id == id) {
            RecordLine(Msg("wait ", EventName(e), " ", id));
            flags.erase(flags.begin() + static_cast<std::ptrdiff_t>(i));
            return;
        }
    }
}

/// The tracked pipe of a pipe_t (PIPE_M, MTE1, FIX: the cube side, untracked).
ASCENDC_CPU_FN Pipe PipeOf(pipe_t p)
{
    switch (p) {
        case PIPE_MTE2: return Pipe::kMte2;
        case PIPE_V: return Pipe::kV;
        case PIPE_MTE3: return Pipe::kMte3;
        case PIPE_S: return Pipe::kS;
        default: return Pipe::kNone;
    }
}

/// Mutex ids: what the pipe that last unlocked each one had done by then.
ASCENDC_CPU_FN std::vector<std::pair<bool, Clock>>& MutexClocks()
{
    static std::vector<std::pair<bool, Clock>> clocks;
    return clocks;
}

}  // namespace ascendc_cpu

namespace AscendC {

using MutexID = uint8_t;
constexpr MutexID MAX_MUTEXID = 31;

/// Ascend 950's in-core mutex (asc-devkit docs, Mutex(ISASI).md and Lock.md): Lock<pipe>(id)
/// holds the pipe's later instructions until the instructions before the last Unlock(id) are
/// done; Unlock<pipe>(id) releases once the pipe's earlier instructions are done. So a Lock
/// orders the pipe after everything the last unlocking pipe had done. An id above
/// MAX_MUTEXID is a violation (the device asserts).
class Mutex {
public:
    template <pipe_t pipe>
    static inline void Lock(MutexID id)
    {
        Check("Mutex::Lock", id);
        const auto& last = ascendc_cpu::MutexClocks()[id];
        if (last.first) {
            ascendc_cpu::JoinInto(ascendc_cpu::PipeOf(pipe), last.second);
        }
    }
    template <pipe_t pipe>
    static inline void Unlock(MutexID id)
    {
        Check("Mutex::Unlock", id);
        ascendc_cpu::MutexClocks()[id] = {true, ascendc_cpu::Snapshot(ascendc_cpu::PipeOf(pipe))};
    }

private:
    static void Check(const char* api, MutexID id)
    {
        if (id > MAX_MUTEXID) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg("MutexID ", static_cast<int>(id), " is above MAX_MUTEXID ",
                static_cast<int>(MAX_MUTEXID)));
        }
        ascendc_cpu::MutexClocks().resize(MAX_MUTEXID + 1);
    }
};

/// Barrier inside one pipe. PIPE_ALL waits for every pipe: every access
/// before it is ordered before every access after it. The others are no-ops
/// (one pipe's instructions already execute in order).
template <pipe_t pipe>
inline void PipeBarrier()
{
    if constexpr (pipe == PIPE_ALL) {
        ascendc_cpu::RecordLine("barrier ALL");
        ascendc_cpu::JoinAll();
    } else if constexpr (pipe == PIPE_V) {
        ascendc_cpu::RecordLine("barrier V");
        ascendc_cpu::VecBarrier();
    }
}

/// Cross-pipe event: SetFlag<A_B>(id) then WaitFlag<A_B>(id) orders every
/// access of pipe A before the SetFlag before every access of pipe B after
/// the WaitFlag. A SetFlag on an id whose earlier flag is not yet waited for, and a WaitFlag with
/// no matching earlier SetFlag (it hangs a device), are violations.
template <HardEvent event>
inline void SetFlag(int32_t eventID, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::SetFlagAt("SetFlag", event, eventID, site, ascendc_cpu::FlagCall("SetFlag", event, eventID), false);
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    std::vector<ascendc_cpu::PendingFlag>& flags = ascendc_cpu::Rt().flags;
    for (size_t i = 0; i < flags.size(); ++i) {
        if (flags[i].queue || flags[i].event != static_cast<uint8_t>(event) || flags[i].id != eventID) {
            continue;
        }
        ascendc_cpu::RecordLine(ascendc_cpu::Msg("wait ", ascendc_cpu::EventName(event), " ", eventID));
        ascendc_cpu::JoinInto(ascendc_cpu::EventPipes(event).second, flags[i].clock);
        flags.erase(flags.begin() + static_cast<std::ptrdiff_t>(i));
        return;
    }
    std::string queued;
    for (const ascendc_cpu::PendingFlag& f : flags) {
        if (f.event == static_cast<uint8_t>(event) && f.id == eventID) {
            queued = ascendc_cpu::Msg("; only ", f.by, " at ", ascendc_cpu::Where(f.site), ", a queue's own flag, is");
        }
    }
    ascendc_cpu::Fail("WaitFlag", ascendc_cpu::Msg("no pending SetFlag<HardEvent::", ascendc_cpu::EventName(event),
        ">(", eventID, ") at ", ascendc_cpu::Where(site), queued, " (the device would hang)"));
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_SYNC_H
