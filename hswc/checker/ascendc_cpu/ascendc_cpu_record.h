// ascendc_cpu_record.h - the call stream of each core, for the cost model (--profile).
//
// Part of the AscendC CPU model (see README.md). With the harness's --profile FILE, every call
// a kernel makes is written to FILE as one line, per core and in program order, for
// hswc.cost_model.recorded to turn into the pipe streams hswc.cost_model.schedule times (the
// same streams hswc.cost_model.stream reads from a generated kernel's IR). The recorder hangs
// on the hooks every call already passes through, so no call describes itself twice:
//   * CallScope (ascendc_cpu_hb.h): a kernel's call begins and ends; what it touched in
//     between is one record of its API on its pipe;
//   * HbAccess: each UB operand access (pipe, UB offset, bytes, read or write), so a vector
//     call's operands (its repeats, its UB addresses for bank conflicts) and a copy's UB side;
//   * GlobalTensor::Checked: each GM burst of a copy (bytes, and the tensor's L2 cache mode);
//   * SetFlagAt / WaitFlag / QueueWaited (ascendc_cpu_sync.h): every flag set and waited for,
//     the kernel's and the queues' (EnQue, DeQue, FreeTensor, AllocTensor) alike;
//   * PipeBarrier.
// Scalar GetValue / SetValue are counted, not recorded one by one (a scalar loop over a large
// tensor makes hundreds of millions): their counts since the last record are written before
// the next one. So are Ascend 950's register calls (MicroAPI, inside a VF function: a load or
// store between UB and a register, or a computation on registers), by API, in the order first
// seen: RecordRegister.
//
// Lines (fields separated by one space; a site is file:line):
//   core B                                  the block index B begins
//   scalar UB_GETS UB_SETS GM_GETS GM_SETS  scalar accesses since the last line
//   V API SITE OFF:BYTES:r|w ...            a vector call and its UB operand accesses
//   MTE2|MTE3 API SITE UB_BYTES GM_BYTES BURSTS CACHE   a copy: UB side, GM side, GM bursts,
//                                           the GM tensor's CacheMode (0 normal, 1 disabled)
//   set EVENT ID / wait EVENT ID            a flag (EVENT as HardEvent spells it, e.g. MTE2_V)
//   barrier ALL|V                           PipeBarrier<PIPE_ALL> / <PIPE_V>
//   other API SITE PIPE                     a call touching a pipe the stream has no line for
//   R API COUNT                             Ascend 950's register calls (MicroAPI) since the
//                                           last line, COUNT of API (each on one register)
#ifndef ASCENDC_CPU_RECORD_H
#define ASCENDC_CPU_RECORD_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_site.h"

namespace ascendc_cpu {

/// One UB access of the call being recorded.
struct RecordedAccess {
    uint64_t off;
    uint64_t bytes;
    bool write;
};

struct Recorder {
    std::FILE* out = nullptr;
    // The call being recorded (CallScope depth 0).
    bool inCall = false;
    Site site = Site(nullptr, 0);
    const char* api = nullptr;
    Pipe pipe = Pipe::kNone;
    bool mixed = false;  // accesses on more than one pipe
    std::vector<RecordedAccess> ub;
    uint64_t gmBytes = 0;
    uint64_t bursts = 0;
    int cacheMode = 0;
    // Scalar accesses not yet written.
    uint64_t ubGets = 0;
    uint64_t ubSets = 0;
    uint64_t gmGets = 0;
    uint64_t gmSets = 0;
    // APIs already named as touching UB outside a kernel's call.
    std::vector<std::string> outside;
    // MicroAPI register calls not yet written: (API, count), in the order first seen.
    std::vector<std::pair<std::string, uint64_t>> registers;
};

ASCENDC_CPU_FN Recorder& Rec()
{
    static Recorder r;
    return r;
}

ASCENDC_CPU_FN bool Recording() { return Rec().out != nullptr; }

/// --profile FILE: opens FILE for the stream (false if it cannot be written).
ASCENDC_CPU_FN bool RecordTo(const char* path)
{
    Rec().out = std::fopen(path, "w");
    return Rec().out != nullptr;
}

ASCENDC_CPU_FN std::string RecordSite(const Site& s)
{
    std::string w = Where(s);
    for (char& c : w) {
        if (c == ' ') {
            c = '_';  // one field
        }
    }
    return w;
}

/// Writes the scalar accesses counted since the last line.
ASCENDC_CPU_FN void RecordFlushScalars()
{
    Recorder& r = Rec();
    if (r.ubGets + r.ubSets + r.gmGets + r.gmSets == 0) {
        return;
    }
    std::fprintf(r.out, "scalar %llu %llu %llu %llu\n", static_cast<unsigned long long>(r.ubGets),
        static_cast<unsigned long long>(r.ubSets), static_cast<unsigned long long>(r.gmGets),
        static_cast<unsigned long long>(r.gmSets));
    r.ubGets = r.ubSets = r.gmGets = r.gmSets = 0;
}

/// Writes the register calls counted since the last line.
ASCENDC_CPU_FN void RecordFlushRegisters()
{
    Recorder& r = Rec();
    for (const auto& [api, count] : r.registers) {
        std::fprintf(r.out, "R %s %llu\n", api.c_str(), static_cast<unsigned long long>(count));
    }
    r.registers.clear();
}

/// One MicroAPI call on one register (a VF function's instruction): counted by API.
ASCENDC_CPU_FN void RecordRegister(const char* api)
{
    Recorder& r = Rec();
    if (r.out == nullptr) {
        return;
    }
    for (auto& [name, count] : r.registers) {
        if (name == api) {
            ++count;
            return;
        }
    }
    r.registers.emplace_back(api, 1);
}

ASCENDC_CPU_FN void RecordLine(const std::string& line)
{
    if (!Recording()) {
        return;
    }
    RecordFlushRegisters();
    RecordFlushScalars();
    std::fputs(line.c_str(), Rec().out);
    std::fputc('\n', Rec().out);
}

ASCENDC_CPU_FN void RecordCore(int64_t block)
{
    if (Recording()) {
        RecordFlushRegisters();
        RecordFlushScalars();
        std::fprintf(Rec().out, "core %lld\n", static_cast<long long>(block));
    }
}

ASCENDC_CPU_FN void RecordFinish()
{
    if (Recording()) {
        RecordFlushRegisters();
        RecordFlushScalars();
        std::fclose(Rec().out);
        Rec().out = nullptr;
    }
}

/// A kernel's call begins (CallScope at depth 0).
ASCENDC_CPU_FN void RecordCallBegin(const Site& site)
{
    Recorder& r = Rec();
    if (r.out == nullptr) {
        return;
    }
    r.inCall = true;
    r.site = site;
    r.api = nullptr;
    r.pipe = Pipe::kNone;
    r.mixed = false;
    r.ub.clear();
    r.gmBytes = 0;
    r.bursts = 0;
    r.cacheMode = 0;
}

/// A UB access of pipe p (HbAccess): noted on the call being recorded.
ASCENDC_CPU_FN void RecordUb(const char* api, Pipe p, uint64_t off, uint64_t bytes, bool write)
{
    Recorder& r = Rec();
    if (r.out == nullptr) {
        return;
    }
    if (!r.inCall && p == Pipe::kV && std::string(api).rfind("MicroAPI::", 0) == 0) {
        RecordRegister(api);  // a register load or store (MicroAccess): one register
        return;
    }
    if (!r.inCall) {
        for (const std::string& seen : r.outside) {
            if (seen == api) {
                return;
            }
        }
        r.outside.emplace_back(api);
        RecordLine(Msg("other ", api, " - ", p == Pipe::kV ? "V" : "?"));
        return;
    }
    if (r.api == nullptr) {
        r.api = api;
    }
    if (r.pipe != Pipe::kNone && r.pipe != p) {
        r.mixed = true;
    }
    r.pipe = p;
    r.ub.push_back({off, bytes, write});
}

/// A GM access (GlobalTensor::Checked) of `bytes` (a read, or a write: the copy's pipe says which);
/// a scalar GetValue / SetValue is counted.
ASCENDC_CPU_FN void RecordGm(const char* api, uint64_t bytes, int cacheMode)
{
    Recorder& r = Rec();
    if (r.out == nullptr) {
        return;
    }
    const std::string a = api;
    if (a == "GlobalTensor::GetValue") {
        ++r.gmGets;
    } else if (a == "GlobalTensor::SetValue") {
        ++r.gmSets;
    } else if (r.inCall) {
        r.gmBytes += bytes;
        ++r.bursts;
        r.cacheMode = cacheMode;
    }
}

/// A scalar LocalTensor access (GetValue: a read).
ASCENDC_CPU_FN void RecordUbScalar(bool write)
{
    Recorder& r = Rec();
    if (r.out != nullptr) {
        ++(write ? r.ubSets : r.ubGets);
    }
}

/// The call being recorded ends (CallScope at depth 0): its line, if it touched a pipe.
ASCENDC_CPU_FN void RecordCallEnd()
{
    Recorder& r = Rec();
    if (r.out == nullptr || !r.inCall) {
        return;
    }
    r.inCall = false;
    if (r.api == nullptr) {
        return;  // no pipe work (a queue call: its flags are lines of their own)
    }
    const std::string site = RecordSite(r.site);
    if (r.mixed) {
        RecordLine(Msg("other ", r.api, " ", site, " several"));
        return;
    }
    uint64_t ubBytes = 0;
    for (const RecordedAccess& a : r.ub) {
        ubBytes += a.bytes;
    }
    switch (r.pipe) {
        case Pipe::kV: {
            std::string line = Msg("V ", r.api, " ", site);
            for (const RecordedAccess& a : r.ub) {
                line += Msg(" ", a.off, ":", a.bytes, ":", a.write ? "w" : "r");
            }
            RecordLine(line);
            break;
        }
        case Pipe::kMte2:
        case Pipe::kMte3:
            RecordLine(Msg(r.pipe == Pipe::kMte2 ? "MTE2 " : "MTE3 ", r.api, " ", site, " ", ubBytes, " ", r.gmBytes,
                " ", r.bursts, " ", r.cacheMode));
            break;
        default:
            RecordLine(Msg("other ", r.api, " ", site, " S"));
            break;
    }
}

}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_RECORD_H
