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
// happens-before (transitively: V -> MTE3 -> MTE2 orders V before MTE2, and so does a wait of
// the scalar unit, which issues every pipe's instructions: V -> S -> MTE2, JoinInto), or
// the later one is a violation (with --keep-going reported once per operand and
// pair of pipes, and the run goes on as if the pipes had been synchronised there).
// Accesses of one pipe are in program order.
// Scalar GetValue/SetValue accesses are not checked, and orders only a kernel's own waits of
// S: under --cce-auto-sync=on BiSheng also inserts V/MTE2/MTE3 <-> S syncs around GetValue and
// SetValue (asc-devkit docs, 同步控制/核内同步/关键特性说明.md, 表3 and 多流水同步), where it
// places them is not documented, and the model adds none, so a copy ordered after a vector call
// by such an inserted V -> S sync alone is reported as a race.
//
// Vector calls among themselves (--auto-sync off, Atlas A2/A3 only): one pipe's instructions
// are issued in order, but on NPU architecture 2201 a vector instruction that reads what an
// earlier one wrote, or writes what it read or wrote, needs a PipeBarrier<PIPE_V> between them,
// which BiSheng inserts itself under its default --cce-auto-sync=on (asc-devkit docs,
// 同步控制/核内同步/关键特性说明.md, "开启cce-auto-sync编译选项自动同步": PIPE_V之间由毕昇编译器自动完成同步
// 插入 on 2201; on 3510, Ascend 950, 由硬件保证; PipeBarrier(ISASI).md's Add-then-Mul example).
// With Rt().vOrderChecked (the harness's --auto-sync off; never in a -DASCENDC_CPU_DAV_3510
// build) two V accesses of one UB byte from different calls, at least one a write, are a broken
// rule unless the earlier one is known complete: vDone, the V epoch every V access up to which
// is ordered before V's next instruction, moves with PipeBarrier<PIPE_V> and PIPE_ALL, and with
// every ordering V waits for (JoinInto: a WaitFlag<X_V>, a DeQue, an AllocTensor), by what the
// other pipe knew of V (V -> MTE3 -> V: a flag set after V's instructions, waited for before
// V's next ones). Accesses of one call (CallScope) never conflict: an instruction may write in
// place what it reads. The operands' bytes are those every call already hands the race checker
// (CheckUb, StridedAccess: a Select's mask read, a Compare's bit-mask write, a strided repeat's
// touched runs), so the rule needs no second description of a call.
#ifndef ASCENDC_CPU_HB_H
#define ASCENDC_CPU_HB_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ascendc_cpu_record.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_site.h"

namespace ascendc_cpu {

ASCENDC_CPU_FN const char* PipeName(Pipe p)
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

ASCENDC_CPU_FN const char* PipeShortName(Pipe p)
{
    static const char* const kNames[] = {"MTE2", "V", "MTE3", "S", "?"};
    return kNames[static_cast<int>(p)];
}

/// How a kernel orders pipe `from` before pipe `to`.
ASCENDC_CPU_FN std::string SyncHint(Pipe from, Pipe to)
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

ASCENDC_CPU_FN Clock Snapshot(Pipe p)
{
    return p == Pipe::kNone ? Clock() : Rt().pipeClock[static_cast<int>(p)];
}

constexpr int kV = static_cast<int>(Pipe::kV);

/// V's accesses up to V epoch `e` are complete before V's next instruction: the calls wholly
/// before it are forgotten.
ASCENDC_CPU_FN void VecDoneUpTo(uint32_t e)
{
    Runtime& rt = Rt();
    if (e <= rt.vDone) {
        return;
    }
    rt.vDone = e;
    while (rt.vCalls.size() > 1 && rt.vCalls[1].firstEpoch <= e + 1) {
        rt.vCalls.pop_front();
    }
}

/// Pipe p waits for what `c` says happened (WaitFlag, DeQue, AllocTensor, Mutex::Lock).
///
/// A wait of the scalar pipe S (WaitFlag<X_S>, Lock<PIPE_S>) orders X's earlier instructions
/// before every pipe's later ones, not only S's: X -> S -> MTE2, V, MTE3. asc-devkit documents
/// the premises: the Scalar unit issues every other instruction, in program order, into the
/// other pipes' instruction queues (docs/zh/guide/编程指南/高级编程/硬件实现/基本架构.md,
/// 典型的指令流: 其他指令会被Scalar单元调度到独立的分类序列, 然后再被对应的执行单元执行; and
/// 编程模型/AI-Core-SIMD编程/抽象硬件架构.md: Scalar ... 把矢量计算、矩阵计算、数据搬运、同步指令发射给对应单元执行);
/// SetFlag<X_S> takes effect once X's earlier reads and writes are complete, and WaitFlag<X_S>
/// blocks S's later instructions until then (SetFlag-WaitFlag(ISASI).md, 功能说明). So an
/// instruction the scalar issues after its wait starts after X's earlier accesses. That this
/// order is an ordering of the other pipes is our reading of those pages: no page states it as
/// such (核内同步能力概述.md's table lists only the direct pairs). ops-nn relies on it, e.g.
/// swiglu_group_quant_base.h's ProcessGroupIndexTiling (a V_S wait, GetValue, then the x
/// copy-ins into the same TBufPool bytes with no V_MTE2 flag).
ASCENDC_CPU_FN void JoinInto(Pipe p, const Clock& c)
{
    if (p == Pipe::kNone) {
        return;
    }
    Runtime& rt = Rt();
    if (p == Pipe::kS) {
        for (Clock& issued : rt.pipeClock) {
            issued.Join(c);
        }
    } else {
        rt.pipeClock[static_cast<int>(p)].Join(c);
    }
    if (p == Pipe::kV || p == Pipe::kS) {
        VecDoneUpTo(c.t[kV]);
    }
}

/// PipeBarrier<PIPE_ALL>: every pipe waits for every other.
ASCENDC_CPU_FN void JoinAll()
{
    Runtime& rt = Rt();
    Clock all;
    for (const Clock& c : rt.pipeClock) {
        all.Join(c);
    }
    for (Clock& c : rt.pipeClock) {
        c = all;
    }
    VecDoneUpTo(all.t[kV]);
}

/// PipeBarrier<PIPE_V>: V's next instruction waits for all its earlier ones.
ASCENDC_CPU_FN void VecBarrier()
{
    VecDoneUpTo(Rt().pipeClock[kV].t[kV]);
}

/// The kernel's call being modelled, for as long as the API function runs: its site, and the
/// V epoch its first access takes. A call the model makes inside another (an overload passing
/// its arguments on) keeps the outer one.
class CallScope {
public:
    ASCENDC_CPU_FN explicit CallScope(const Site& site)
    {
        Runtime& rt = Rt();
        if (rt.callDepth++ == 0) {
            rt.callSite = site;
            rt.vCallStart = rt.pipeClock[kV].t[kV] + 1;
            RecordCallBegin(site);
        }
    }
    ASCENDC_CPU_FN ~CallScope()
    {
        if (--Rt().callDepth == 0) {
            RecordCallEnd();
        }
    }
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;
};

/// The vector call whose access took V epoch `e` (one of Rt().vCalls).
ASCENDC_CPU_FN const VecCall* VecCallAt(uint32_t e)
{
    const std::deque<VecCall>& calls = Rt().vCalls;
    auto it = std::upper_bound(calls.begin(), calls.end(), e,
        [](uint32_t epoch, const VecCall& c) { return epoch < c.firstEpoch; });
    return it == calls.begin() ? nullptr : &*(it - 1);
}

/// Notes a V access of the current call (--auto-sync off): the call is recorded at its first.
ASCENDC_CPU_FN void NoteVecCall(const char* api)
{
    Runtime& rt = Rt();
    if (rt.callDepth == 0) {
        Fail(api, "the CPU model does not know where this vector call begins (no CallScope: a defect of the "
            "model, not of the kernel)");
    }
    if (rt.vCalls.empty() || rt.vCalls.back().firstEpoch < rt.vCallStart) {
        rt.vCalls.push_back(VecCall{rt.pipeClock[kV].t[kV] + 1, rt.callSite, api});
    }
}

/// The broken rule of a V access of `operand` at UB byte `b` (write or read) that an earlier
/// vector call's access at V epoch `earlier` (wrote or read it) is not ordered before.
ASCENDC_CPU_FN void ReportVecOrder(const char* api, const char* operand, uint64_t b, bool write, uint32_t earlier,
    bool earlierWrote)
{
    const Runtime& rt = Rt();
    const VecCall* first = VecCallAt(earlier);
    const std::string firstApi = first != nullptr ? first->api : "?";
    const std::string firstAt = first != nullptr ? Where(first->site) : "?";
    const char* kind = write ? (earlierWrote ? "write-after-write" : "write-after-read") : "read-after-write";
    Defer(api, Msg(write ? "write of " : "read of ", operand, " (UB byte ", b, ") at ", Where(rt.callSite), " after ",
        firstApi, " at ", firstAt, earlierWrote ? " wrote it" : " read it",
        ", with no PipeBarrier<PIPE_V> between the two vector calls (a ", kind, " on the V pipe: with "
        "--cce-auto-sync=off nothing orders them on Atlas A2/A3)"),
        Msg("vorder/", api, "/", Where(rt.callSite), "/", firstAt));  // once per pair of calls
}

/// --auto-sync off: the vector-order rule for one UB access, before HbAccess records it. A V
/// access of a byte an earlier call wrote (RAW, WAW), or for a write read (WAR), not known
/// complete breaks it; the last V read may be this call's own, then the one before it counts
/// (vPrevRead, kept here). A write by any pipe leaves no earlier read.
ASCENDC_CPU_FN void VecOrderAccess(const char* api, const char* operand, Pipe p, uint64_t off, uint64_t bytes, bool write)
{
    Runtime& rt = Rt();
    if (p != Pipe::kV) {
        if (write) {
            std::fill(rt.vPrevRead.begin() + static_cast<std::ptrdiff_t>(off),
                rt.vPrevRead.begin() + static_cast<std::ptrdiff_t>(off + bytes), 0u);
        }
        return;
    }
    NoteVecCall(api);
    bool misordered = false;
    for (uint64_t b = off; b < off + bytes; ++b) {
        const ShadowByte& s = rt.shadow[b];
        uint32_t earlier = 0;
        bool earlierWrote = false;
        if (s.writeEpoch > rt.vDone && s.writer == kV && s.writeEpoch < rt.vCallStart) {
            earlier = s.writeEpoch;
            earlierWrote = true;
        } else if (write) {
            const uint32_t last = s.readEpoch[kV] >= rt.vCallStart ? rt.vPrevRead[b] : s.readEpoch[kV];
            earlier = last > rt.vDone ? last : 0;
        }
        if (earlier != 0 && !misordered) {
            misordered = true;
            ReportVecOrder(api, operand, b, write, earlier, earlierWrote);
        }
        if (write) {
            rt.vPrevRead[b] = 0;
        } else if (s.readEpoch[kV] != 0 && s.readEpoch[kV] < rt.vCallStart) {
            rt.vPrevRead[b] = s.readEpoch[kV];
        }
    }
}

/// One UB access of `api`'s `operand` by pipe p: bytes [off, off + bytes) of
/// the arena, read or written. A violation if it races with an earlier access.
ASCENDC_CPU_FN void HbAccess(const char* api, const char* operand, Pipe p, uint64_t off, uint64_t bytes, bool write)
{
    Runtime& rt = Rt();
    if (bytes == 0 || off + bytes > rt.shadow.size()) {
        return;  // outside the arena: CheckUb reports it
    }
    RecordUb(api, p, off, bytes, write);
    if (rt.vOrderChecked) {
        VecOrderAccess(api, operand, p, off, bytes, write);
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
            JoinInto(p, rt.pipeClock[other]);
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
