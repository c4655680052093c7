// ascendc_cpu_sync.h - PipeBarrier, SetFlag / WaitFlag and their bookkeeping.
//
// Part of the AscendC CPU model (see README.md). The calls here order pipes
// for the sync checker (ascendc_cpu_hb.h).
#ifndef ASCENDC_CPU_SYNC_H
#define ASCENDC_CPU_SYNC_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"

namespace ascendc_cpu {

/// One SetFlag not yet matched by a WaitFlag: what the signalling pipe had
/// done when the flag was set.
struct PendingFlag {
    AscendC::HardEvent event;
    int32_t id;
    Clock clock;
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

/// The tracked pipe a name part ("MTE2", "V", "MTE3", "S") stands for; M,
/// MTE1 and FIX (the cube side) are not tracked.
inline Pipe PipeOfName(const std::string& n)
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
inline std::pair<Pipe, Pipe> EventPipes(AscendC::HardEvent e)
{
    const std::string name = EventName(e);
    const size_t sep = name.find('_');
    if (sep == std::string::npos) {
        return {Pipe::kNone, Pipe::kNone};
    }
    return {PipeOfName(name.substr(0, sep)), PipeOfName(name.substr(sep + 1))};
}

/// The tracked pipe of a pipe_t (PIPE_M, MTE1, FIX: the cube side, untracked).
inline Pipe PipeOf(pipe_t p)
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
inline std::vector<std::pair<bool, Clock>>& MutexClocks()
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
        ascendc_cpu::JoinAll();
    }
}

/// Cross-pipe event: SetFlag<A_B>(id) then WaitFlag<A_B>(id) orders every
/// access of pipe A before the SetFlag before every access of pipe B after
/// the WaitFlag. A WaitFlag with no matching earlier SetFlag is a violation
/// (it hangs a device).
template <HardEvent event>
inline void SetFlag(int32_t eventID)
{
    const ascendc_cpu::Pipe from = ascendc_cpu::EventPipes(event).first;
    ascendc_cpu::Flags().push_back(ascendc_cpu::PendingFlag{event, eventID, ascendc_cpu::Snapshot(from)});
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID)
{
    std::vector<ascendc_cpu::PendingFlag>& flags = ascendc_cpu::Flags();
    for (size_t i = 0; i < flags.size(); ++i) {
        if (flags[i].event != event || flags[i].id != eventID) {
            continue;
        }
        ascendc_cpu::JoinInto(ascendc_cpu::EventPipes(event).second, flags[i].clock);
        flags.erase(flags.begin() + static_cast<std::ptrdiff_t>(i));
        return;
    }
    ascendc_cpu::Fail("WaitFlag", ascendc_cpu::Msg("no pending SetFlag<HardEvent::", ascendc_cpu::EventName(event),
        ">(", eventID, ") (the device would hang)"));
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_SYNC_H
