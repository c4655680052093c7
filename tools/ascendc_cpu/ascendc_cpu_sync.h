// ascendc_cpu_sync.h - PipeBarrier, SetFlag / WaitFlag and their bookkeeping.
//
// Part of the AscendC CPU model (see README.md). The sync checker (CheckUb in
// ascendc_cpu_tensor.h) records per UB buffer which pipe touched it since the
// last synchronisation point; the calls here are such points.
#ifndef ASCENDC_CPU_SYNC_H
#define ASCENDC_CPU_SYNC_H

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"

namespace ascendc_cpu {

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

#endif  // ASCENDC_CPU_SYNC_H
