// ascendc_cpu_hb.h - the sync checker: happens-before between the pipes of a core.
//
// Part of the AscendC CPU model (see README.md). On the device MTE2 (GM->UB
// copies), V (vector instructions) and MTE3 (UB->GM copies) run
// concurrently; the scalar unit S issues their instructions in program
// order. An instruction of one pipe is ordered before one of another pipe
// only through synchronisation: SetFlag/WaitFlag, the EnQue/DeQue of a queue,
// the free-buffer event between FreeTensor and the next AllocTensor of a
// queue buffer, PipeBarrier<PIPE_ALL>. The CPU runs everything in program
// order, so without this checker a missing synchronisation would go unseen.
//
// Each pipe keeps a vector clock (what it knows of every pipe's progress);
// every UB access ticks its pipe's own entry, and every UB byte remembers its
// last write and the last read of each pipe. Two accesses of the same byte
// from different pipes, at least one a write, must be ordered by
// happens-before (transitively: V -> MTE3 -> MTE2 orders V before MTE2), or
// the later one is a violation (with --keep-going reported once per operand and
// pair of pipes, and the run goes on as if the pipes had been synchronised there).
// Accesses of one pipe are in program order.
// Scalar GetValue/SetValue accesses are not checked.
#ifndef ASCENDC_CPU_HB_H
#define ASCENDC_CPU_HB_H

#include <cstdint>
#include <string>
#include <vector>

#include "ascendc_cpu_runtime.h"

namespace ascendc_cpu {

inline const char* PipeName(Pipe p)
{
    switch (p) {
        case Pipe::kMte2: return "MTE2 (GM->UB copy)";
        case Pipe::kV: return "V (vector)";
        case Pipe::kMte3: return "MTE3 (UB->GM copy)";
        case Pipe::kS: return "S (scalar)";
        case Pipe::kNone: break;
    }
    return "?";
}

inline const char* PipeShortName(Pipe p)
{
    static const char* const kNames[] = {"MTE2", "V", "MTE3", "S", "?"};
    return kNames[static_cast<int>(p)];
}

/// How a kernel orders pipe `from` before pipe `to`.
inline std::string SyncHint(Pipe from, Pipe to)
{
    std::string queue;
    if (from == Pipe::kMte2 && to == Pipe::kV) {
        queue = "EnQue/DeQue on a VECIN queue, ";
    } else if (from == Pipe::kV && to == Pipe::kMte3) {
        queue = "EnQue/DeQue on a VECOUT queue, ";
    } else if (from == Pipe::kV && to == Pipe::kMte2) {
        queue = "FreeTensor + AllocTensor of a VECIN queue buffer, ";
    } else if (from == Pipe::kMte3 && to == Pipe::kV) {
        queue = "FreeTensor + AllocTensor of a VECOUT queue buffer, ";
    } else if (from == Pipe::kMte2 && to == Pipe::kMte3) {
        queue = "EnQue/DeQue on a TQueBind<VECIN, VECOUT>, ";
    }
#if defined(ASCENDC_CPU_DAV_3510)
    queue += "Mutex::Unlock then Mutex::Lock of one id, ";
#endif
    return Msg(PipeShortName(from), "->", PipeShortName(to), " needs ", queue, "SetFlag/WaitFlag<HardEvent::",
        PipeShortName(from), "_", PipeShortName(to), "> or PipeBarrier<PIPE_ALL>");
}

inline Clock Snapshot(Pipe p)
{
    return p == Pipe::kNone ? Clock() : Rt().pipeClock[static_cast<int>(p)];
}

/// Pipe p waits for what `c` says happened (WaitFlag, DeQue, AllocTensor).
inline void JoinInto(Pipe p, const Clock& c)
{
    if (p != Pipe::kNone) {
        Rt().pipeClock[static_cast<int>(p)].Join(c);
    }
}

/// PipeBarrier<PIPE_ALL>: every pipe waits for every other.
inline void JoinAll()
{
    Runtime& rt = Rt();
    Clock all;
    for (const Clock& c : rt.pipeClock) {
        all.Join(c);
    }
    for (Clock& c : rt.pipeClock) {
        c = all;
    }
}

/// One UB access of `api`'s `operand` by pipe p: bytes [off, off + bytes) of
/// the arena, read or written. A violation if it races with an earlier access.
inline void HbAccess(const char* api, const char* operand, Pipe p, uint64_t off, uint64_t bytes, bool write)
{
    Runtime& rt = Rt();
    if (bytes == 0 || off + bytes > rt.shadow.size()) {
        return;  // outside the arena: CheckUb reports it
    }
    const int me = static_cast<int>(p);
    Clock& mine = rt.pipeClock[me];
    const uint32_t epoch = ++mine.t[me];
    bool raced = false;
    for (uint64_t b = off; b < off + bytes; ++b) {
        ShadowByte& s = rt.shadow[b];
        int other = -1;
        bool otherWrote = false;
        if (s.writeEpoch != 0 && s.writer != me && s.writeEpoch > mine.t[s.writer]) {
            other = s.writer;
            otherWrote = true;
        } else if (write) {
            for (int q = 0; q < kDataPipes; ++q) {
                if (q != me && s.readEpoch[q] > mine.t[q]) {
                    other = q;
                    break;
                }
            }
        }
        if (other >= 0 && !raced) {
            raced = true;
            Defer(api, Msg(write ? "write of " : "read of ", operand, " (UB byte ", b, ") races with an earlier ",
                otherWrote ? "write" : "read", " by ", PipeName(static_cast<Pipe>(other)), ": ",
                SyncHint(static_cast<Pipe>(other), p)), Msg(api, "/", operand, "/", other, "/", me));
            // --keep-going: go on as if the missing synchronisation were there, so that what
            // follows from this one race is not reported again.
            mine.Join(rt.pipeClock[other]);
        }
        if (write) {
            s.writeEpoch = epoch;
            s.writer = static_cast<uint8_t>(me);
            for (uint32_t& r : s.readEpoch) {
                r = 0;
            }
        } else {
            s.readEpoch[me] = epoch;
        }
    }
}

}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_HB_H
