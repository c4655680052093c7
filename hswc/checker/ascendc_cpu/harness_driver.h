// harness_driver.h - the harness's code that is the same for every kernel: its options, the
// GM tensors between guard pages, the launch of every core, the outputs and their checks.
//
// harness.cpp compiles a kernel in (its per-kernel macros HSWC_KERNEL_*, HSWC_GM_*,
// HSWC_TILING_*) and hands this driver a `Kernel`; nothing here reads those macros, so the
// driver's functions are ASCENDC_CPU_FN (ascendc_cpu_fn.h) and are compiled once per flag set
// with the model (model_object.cpp). harness.cpp's header comment documents the options.
#ifndef HSWC_HARNESS_DRIVER_H
#define HSWC_HARNESS_DRIVER_H

#include <algorithm>
#include <array>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include <sys/mman.h>
#include <unistd.h>

#include "ascendc_cpu_fn.h"
#include "kernel_operator.h"

namespace hswc_harness {

/// What the driver needs of the kernel harness.cpp compiled in.
struct Kernel {
    size_t inputs;   ///< HSWC_GM_INPUTS
    size_t outputs;  ///< HSWC_GM_OUTPUTS
    std::vector<uint64_t> keys;  ///< the tiling keys built (HSWC_KERNEL_INSTANCES: by position)
    /// Runs the entry of tiling key `key` with the GM arrays; false if this build has none.
    bool (*launch)(uint64_t key, uint8_t* const* gm, uint8_t* tiling);
    /// Runs the instance at a position of HSWC_KERNEL_INSTANCES (--instance); null without.
    void (*launchInstance)(size_t index, uint8_t* const* gm, uint8_t* tiling);
    /// --tiling-layout (HSWC_TILING_STRUCT, HSWC_TILING_FIELDS); null without.
    void (*printLayout)();
};

[[noreturn]] ASCENDC_CPU_FN void UsageError(const std::string& msg)
{
    std::fprintf(stderr, "run_kernel: %s\n", msg.c_str());
    std::fprintf(stderr,
        "usage: run_kernel --tiling-key K --block-dim N --ub-size BYTES "
        "(--tiling-file FILE | --tiling TOTAL,BLOCKFACTOR,UBFACTOR) [--instance I] [--keep-going] "
        "[--record-gm-reads] [--record-rules] [--auto-sync on|off] [--ub-fill BYTE] [--verbose] [--profile FILE] [--ub-physical BYTES] [--workspace-bytes N] "
        "--input FILE ... --output FILE ... [--output-bytes N ...]\n");
    // _Exit, not exit: a core's thread may call this while the others wait for their turn
    // (ascendc_cpu_cores.h), and exit would destroy the condition variable they wait on.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(2);
}

/// The workspace the entries are called with (--workspace-bytes; of 0 bytes without).
ASCENDC_CPU_FN uint8_t*& Workspace()
{
    static uint8_t* workspace = nullptr;
    return workspace;
}

ASCENDC_CPU_FN std::string KeyList(const Kernel& k)
{
    std::string s;
    for (uint64_t key : k.keys) {
        s += (s.empty() ? "" : ", ") + std::to_string(key);
    }
    return s;
}


ASCENDC_CPU_FN bool ParseInt(const std::string& s, int64_t& out)
{
    if (s.empty()) {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 0);
    if (errno != 0 || end == nullptr || *end != '\0') {
        return false;
    }
    out = v;
    return true;
}

ASCENDC_CPU_FN int64_t IntArg(const std::string& name, const std::string& s, int64_t lo, int64_t hi)
{
    int64_t v = 0;
    if (!ParseInt(s, v) || v < lo || v > hi) {
        UsageError(name + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" +
            s + "'");
    }
    return v;
}

ASCENDC_CPU_FN uint64_t KeyArg(const std::string& s)
{
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || s[0] == '-' || errno != 0 || end == nullptr || *end != '\0') {
        UsageError("--tiling-key expects a non-negative integer, got '" + s + "'");
    }
    return v;
}

ASCENDC_CPU_FN std::vector<uint8_t> ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        UsageError("cannot open '" + path + "'");
    }
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        UsageError("cannot read '" + path + "'");
    }
    return data;
}

ASCENDC_CPU_FN void WriteFile(const std::string& path, const std::vector<uint8_t>& data)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        UsageError("cannot create '" + path + "'");
    }
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    if (!out) {
        UsageError("cannot write '" + path + "'");
    }
}

/// The three int64 values of --tiling TOTAL,BLOCKFACTOR,UBFACTOR as 24 little-endian bytes.
ASCENDC_CPU_FN std::vector<uint8_t> ShorthandTiling(const std::string& s)
{
    int64_t vals[3] = {0, 0, 0};
    size_t start = 0;
    for (int k = 0; k < 3; ++k) {
        const size_t comma = s.find(',', start);
        const bool last = k == 2;
        if (last != (comma == std::string::npos)) {
            UsageError("--tiling expects TOTAL,BLOCKFACTOR,UBFACTOR, got '" + s + "'");
        }
        const std::string part = s.substr(start, last ? std::string::npos : comma - start);
        if (!ParseInt(part, vals[k])) {
            UsageError("--tiling expects three integers, got '" + s + "'");
        }
        start = comma + 1;
    }
    std::vector<uint8_t> bytes(sizeof vals);
    std::memcpy(bytes.data(), vals, sizeof vals);  // little-endian host
    return bytes;
}

struct Options {
    bool layout = false;
    bool keepGoing = false;
    bool recordGmReads = false;
    bool recordRules = false;
    bool autoSyncOff = false;
    int64_t instance = -1;
    bool haveKey = false;
    uint64_t key = 0;
    int64_t blockDim = -1;
    int64_t ubSize = -1;
    int64_t ubPhysical = -1;
    int64_t workspaceBytes = 0;
    int64_t fill = 0xA5;
    bool verbose = false;
    std::string profile;
    bool haveTiling = false;
    std::vector<uint8_t> tiling;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<int64_t> outputBytes;
    std::vector<int64_t> writtenBytes;
    std::vector<std::string> positional;
};

ASCENDC_CPU_FN Options Parse(int argc, char** argv, const Kernel& k)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                UsageError(a + " needs a value");
            }
            return argv[++i];
        };
        auto setTiling = [&](std::vector<uint8_t> bytes) {
            if (o.haveTiling) {
                UsageError("give the tiling once (--tiling-file or --tiling)");
            }
            o.tiling = std::move(bytes);
            o.haveTiling = true;
        };
        if (a == "--tiling-key") {
            o.key = KeyArg(value());
            o.haveKey = true;
        } else if (a == "--block-dim") {
            o.blockDim = IntArg(a, value(), 1, 65535);
        } else if (a == "--ub-size") {
            o.ubSize = IntArg(a, value(), 32, int64_t{1} << 30);
            if (o.ubSize % 32 != 0) {
                UsageError("--ub-size must be a multiple of 32");
            }
        } else if (a == "--ub-physical") {
            o.ubPhysical = IntArg(a, value(), 32, int64_t{1} << 30);
            if (o.ubPhysical % 32 != 0) {
                UsageError("--ub-physical must be a multiple of 32");
            }
        } else if (a == "--workspace-bytes") {
            o.workspaceBytes = IntArg(a, value(), 0, int64_t{1} << 34);
        } else if (a == "--ub-fill") {
            o.fill = IntArg(a, value(), 0, 255);
        } else if (a == "--tiling") {
            setTiling(ShorthandTiling(value()));
        } else if (a == "--tiling-file") {
            setTiling(ReadFile(value()));
        } else if (a == "--input") {
            o.inputs.push_back(value());
        } else if (a == "--output") {
            o.outputs.push_back(value());
        } else if (a == "--output-bytes") {
            o.outputBytes.push_back(IntArg(a, value(), 0, int64_t{1} << 40));
        } else if (a == "--written-bytes") {
            o.writtenBytes.push_back(IntArg(a, value(), 0, int64_t{1} << 40));
        } else if (a == "--profile") {
            o.profile = value();
        } else if (a == "--verbose") {
            o.verbose = true;
        } else if (a == "--keep-going") {
            o.keepGoing = true;
        } else if (a == "--record-gm-reads") {
            o.recordGmReads = true;
        } else if (a == "--record-rules") {
            o.recordGmReads = true;
            o.recordRules = true;
        } else if (a == "--auto-sync") {
            const std::string v = value();
            if (v != "on" && v != "off") {
                UsageError("--auto-sync takes on or off, not '" + v + "'");
            }
            o.autoSyncOff = v == "off";
        } else if (a == "--instance") {
            o.instance = IntArg(a, value(), 0, 1 << 20);
        } else if (a == "--tiling-layout") {
            o.layout = true;
        } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
            UsageError("unknown option " + a);
        } else {
            o.positional.push_back(a);
        }
    }
    if (o.layout) {
        return o;
    }
    if (!o.haveKey || o.blockDim < 0 || o.ubSize < 0 || !o.haveTiling) {
        UsageError("--tiling-key, --block-dim, --ub-size and --tiling-file (or --tiling) are required");
    }
    if (!o.positional.empty()) {
        if (!o.inputs.empty() || !o.outputs.empty()) {
            UsageError("give the files either as --input/--output or positionally, not both");
        }
        if (o.positional.size() != k.inputs + k.outputs) {
            UsageError("expected " + std::to_string(k.inputs) + " input and " + std::to_string(k.outputs) +
                " output files, got " + std::to_string(o.positional.size()) + " file arguments");
        }
        o.inputs.assign(o.positional.begin(), o.positional.begin() + static_cast<std::ptrdiff_t>(k.inputs));
        o.outputs.assign(o.positional.begin() + static_cast<std::ptrdiff_t>(k.inputs), o.positional.end());
    }
    if (o.inputs.size() != k.inputs || o.outputs.size() != k.outputs) {
        UsageError("this kernel takes " + std::to_string(k.inputs) + " --input and " + std::to_string(k.outputs) +
            " --output files (HSWC_GM_INPUTS, HSWC_GM_OUTPUTS), got " + std::to_string(o.inputs.size()) + " and " +
            std::to_string(o.outputs.size()));
    }
    if (!o.outputBytes.empty() && o.outputBytes.size() != k.outputs) {
        UsageError("give --output-bytes once per output (" + std::to_string(k.outputs) + "), got " +
            std::to_string(o.outputBytes.size()));
    }
    if (!o.writtenBytes.empty() && o.writtenBytes.size() != k.outputs) {
        UsageError("give --written-bytes once per output (" + std::to_string(k.outputs) + "), got " +
            std::to_string(o.writtenBytes.size()));
    }
    if (o.outputBytes.empty() && k.outputs > 0 && k.inputs == 0) {
        UsageError("a kernel without inputs needs --output-bytes for every output");
    }
    return o;
}

/// A GM tensor in memory of its own: guard pages (no access) before and after it, its bytes
/// from a page boundary, then `slack` readable bytes of the fill byte up to the back guard.
struct GmBuffer {
    uint8_t* data = nullptr;
    size_t bytes = 0;
    size_t slack = 0;
    size_t guard = 0;  // bytes of each guard region
    std::string name;
};

constexpr size_t kGuardPages = 16;

/// Every GM buffer of the launch, for the SIGSEGV handler and the end-of-block check.
ASCENDC_CPU_FN std::vector<GmBuffer>& GmBuffers()
{
    static std::vector<GmBuffer> buffers;
    return buffers;
}

/// A GM buffer of `bytes` bytes (copied from `content`, else the fill byte) with `readable`
/// fill bytes kept readable after it; read-only when `readOnly`.
ASCENDC_CPU_FN GmBuffer MapGm(const std::vector<uint8_t>* content, size_t bytes, size_t readable, uint8_t fill,
    bool readOnly, const std::string& name)
{
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    GmBuffer b;
    b.bytes = bytes;
    b.name = name;
    b.guard = kGuardPages * page;
    const size_t body = (bytes + readable + page - 1) / page * page;
    b.slack = body - bytes;
    void* map = mmap(nullptr, b.guard + body + b.guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        UsageError("cannot allocate " + std::to_string(bytes) + " bytes for " + name + ": " + std::strerror(errno));
    }
    uint8_t* base = static_cast<uint8_t*>(map);
    b.data = base + b.guard;
    std::memset(b.data, fill, body);
    if (content != nullptr && bytes != 0) {
        std::memcpy(b.data, content->data(), bytes);
    }
    mprotect(base, b.guard, PROT_NONE);
    mprotect(b.data + body, b.guard, PROT_NONE);
    if (readOnly) {
        mprotect(b.data, body, PROT_READ);
    }
    return b;
}

/// Where `address` lies relative to the GM buffers ("byte 12 past the end of input 0 (x)"),
/// or "" when it is near none of them.
ASCENDC_CPU_FN std::string GmPlace(uintptr_t address)
{
    for (const GmBuffer& b : GmBuffers()) {
        const uintptr_t lo = reinterpret_cast<uintptr_t>(b.data);
        const uintptr_t hi = lo + b.bytes;
        if (address >= lo - b.guard && address < lo) {
            return ascendc_cpu::Msg(lo - address, " bytes before the start of ", b.name);
        }
        if (address >= hi && address < hi + b.slack + b.guard) {
            return ascendc_cpu::Msg("byte ", address - hi, " past the end of ", b.name, " (", b.bytes, " bytes)");
        }
        if (address >= lo && address < hi) {
            return ascendc_cpu::Msg("byte ", address - lo, " of ", b.name, ", which is read-only");
        }
    }
    return "";
}

/// SIGSEGV in a guard page or a read-only input: the rule, then exit 3. Elsewhere the signal
/// is delivered as it would have been (a crash the checker reports as such).
ASCENDC_CPU_FN void OnSegv(int signal, siginfo_t* info, void*)
{
    const std::string place = GmPlace(reinterpret_cast<uintptr_t>(info->si_addr));
    if (place.empty()) {
        std::signal(signal, SIG_DFL);
        return;  // the access faults again, without this handler
    }
    ascendc_cpu::Fail("GM", "a load or store through a raw pointer at " + place +
        ": outside every GM tensor of the launch (the model checks GlobalTensor calls; a raw "
        "__gm__ pointer is not checked before it is used)");
}

/// After each block: the readable bytes after each GM tensor still hold the fill byte, or a
/// store through a raw pointer went past its end (reported once per tensor and block).
ASCENDC_CPU_FN void CheckGmSlack(uint8_t fill)
{
    for (GmBuffer& b : GmBuffers()) {
        uint8_t* after = b.data + b.bytes;
        size_t first = b.slack;
        size_t changed = 0;
        for (size_t i = 0; i < b.slack; ++i) {
            if (after[i] != fill) {
                first = changed == 0 ? i : first;
                ++changed;
            }
        }
        if (changed == 0) {
            continue;
        }
        std::memset(after, fill, b.slack);
        ascendc_cpu::Defer("GM", ascendc_cpu::Msg("a store through a raw pointer at byte ", first,
            " past the end of ", b.name, " (", b.bytes, " bytes; ", changed, " bytes changed): outside every GM "
            "tensor of the launch (the model checks GlobalTensor calls; a raw __gm__ pointer is not checked before "
            "it is used)"), "GM: raw store past the end of " + b.name);
    }
}

/// An output's GM region (index into Rt().gm), its name in messages, and how many of its
/// leading bytes the kernel writes (the rest it must leave: --written-bytes).
struct OutputRegion {
    size_t region;
    std::string name;
    size_t written;
};

/// One line naming every output with bytes no core wrote, or written past its --written-bytes,
/// or "".
ASCENDC_CPU_FN std::string Unwritten(const std::vector<OutputRegion>& outputs)
{
    std::string report;
    for (const OutputRegion& o : outputs) {
        const ascendc_cpu::GmRegion& r = ascendc_cpu::Rt().gm[o.region];
        size_t missing = 0;
        size_t first = 0;
        size_t extra = 0;
        size_t firstExtra = 0;
        for (size_t i = 0; i < r.writer.size(); ++i) {
            if (i < o.written && r.writer[i] == 0) {
                first = missing == 0 ? i : first;
                ++missing;
            } else if (i >= o.written && r.writer[i] != 0) {
                firstExtra = extra == 0 ? i : firstExtra;
                ++extra;
            }
        }
        if (missing != 0) {
            report += ascendc_cpu::Msg(report.empty() ? "" : "; ", missing, " of ", r.bytes, " bytes of ", o.name,
                " were never written (first at byte ", first, ")");
        }
        if (extra != 0) {
            report += ascendc_cpu::Msg(report.empty() ? "" : "; ", extra, " bytes of ", o.name,
                " were written past its --written-bytes ", o.written, " (first at byte ", firstExtra, ")");
        }
    }
    return report;
}

/// Runs block `b`'s kernel: the instance at --instance's position, else the one of the key.
ASCENDC_CPU_FN void LaunchBlock(const Kernel& k, Options& o, uint8_t* const* gm)
{
    if (o.instance >= 0 && k.launchInstance == nullptr) {
        UsageError("--instance needs a build with HSWC_KERNEL_INSTANCES");
    }
    if (o.instance >= 0) {
        if (static_cast<size_t>(o.instance) >= k.keys.size()) {
            UsageError("--instance " + std::to_string(o.instance) + " is not below the " +
                std::to_string(k.keys.size()) + " entries of HSWC_KERNEL_INSTANCES");
        }
        k.launchInstance(static_cast<size_t>(o.instance), gm, o.tiling.data());
        return;
    }
    if (!k.launch(o.key, gm, o.tiling.data())) {
        UsageError("tiling key " + std::to_string(o.key) + " is not instantiated in this build (keys: " + KeyList(k) +
            ")");
    }
}

ASCENDC_CPU_FN int Main(int argc, char** argv, const Kernel& k)
{
    Options o = Parse(argc, argv, k);
    if (o.layout) {
        if (k.printLayout == nullptr) {
            UsageError("--tiling-layout needs a build with HSWC_TILING_STRUCT and HSWC_TILING_FIELDS");
        }
        k.printLayout();
        return 0;
    }
    std::vector<std::vector<uint8_t>> data;
    for (const std::string& path : o.inputs) {
        data.push_back(ReadFile(path));
    }
    std::vector<size_t> sizes;
    for (const std::vector<uint8_t>& d : data) {
        sizes.push_back(d.size());
    }
    for (size_t i = 0; i < k.outputs; ++i) {
        sizes.push_back(o.outputBytes.empty() ? sizes[0] : static_cast<size_t>(o.outputBytes[i]));
    }
    o.tiling.reserve(1);  // a non-null buffer also when the tiling file is empty

    ascendc_cpu::Configure(static_cast<uint32_t>(std::max(o.ubSize, o.ubPhysical)), static_cast<uint8_t>(o.fill));
    ascendc_cpu::Rt().ubPipeBytes = static_cast<uint32_t>(o.ubSize);
    ascendc_cpu::Rt().keepGoing = o.keepGoing;
    ascendc_cpu::Rt().recordGmReads = o.recordGmReads;
    ascendc_cpu::Rt().recordRules = o.recordRules;
#if !defined(ASCENDC_CPU_DAV_3510)
    ascendc_cpu::Rt().vOrderChecked = o.autoSyncOff;
#endif
    ascendc_cpu::ClearGm();
    // Readable fill bytes after each tensor: those the model reads past its end with
    // --record-gm-reads (kGmGuardBytes), else none beyond the tensor's last page.
    const size_t readable = o.recordGmReads ? ascendc_cpu::kGmGuardBytes : 0;
    std::vector<OutputRegion> outputs;
    std::vector<uint8_t*> gm(k.inputs + k.outputs);
    for (size_t i = 0; i < k.inputs + k.outputs; ++i) {
        const bool isInput = i < k.inputs;
        const size_t index = isInput ? i : i - k.inputs;
        const std::string name = (isInput ? "input " : "output ") + std::to_string(index) + " (" +
            (isInput ? o.inputs[index] : o.outputs[index]) + ")";
        if (sizes[i] == 0) {
            gm[i] = nullptr;
            continue;
        }
        if (!isInput) {
            outputs.push_back({ascendc_cpu::Rt().gm.size(), name,
                o.writtenBytes.empty() ? sizes[i] : static_cast<size_t>(o.writtenBytes[index])});
        }
        GmBuffers().push_back(MapGm(isInput ? &data[i] : nullptr, sizes[i], readable, static_cast<uint8_t>(o.fill),
            isInput, name));
        ascendc_cpu::RegisterGm(GmBuffers().back().data, sizes[i], name, !isInput);
        gm[i] = GmBuffers().back().data;
    }
    struct sigaction onSegv {};
    onSegv.sa_sigaction = OnSegv;
    onSegv.sa_flags = SA_SIGINFO;
    sigemptyset(&onSegv.sa_mask);
    sigaction(SIGSEGV, &onSegv, nullptr);
    {  // read and written by the kernel, never compared; never null, even of 0 bytes (below)
        const size_t bytes = static_cast<size_t>(o.workspaceBytes);
        GmBuffers().push_back(MapGm(nullptr, bytes, bytes == 0 ? 0 : readable, static_cast<uint8_t>(o.fill), false,
            "workspace"));
        ascendc_cpu::RegisterGm(GmBuffers().back().data, bytes, "workspace", true);
        Workspace() = GmBuffers().back().data;
    }
    ascendc_cpu::RegisterGm(o.tiling.data(), o.tiling.size(), "tiling", false);
    ascendc_cpu::SetTilingBytes(o.tiling.size());
    ascendc_cpu::Rt().tilingKey = o.key;
    if (!o.profile.empty() && !ascendc_cpu::RecordTo(o.profile.c_str())) {
        UsageError("--profile: cannot write " + o.profile);
    }

    // One core at a time, each on a host thread of its own so that a SyncAll can wait for the
    // others (ascendc_cpu_cores.h).
    ascendc_cpu::LaunchCores().Run(o.blockDim, [&k, &o, &gm](int64_t b) {
        ascendc_cpu::BeginBlock(b, o.blockDim);
        ascendc_cpu::RecordCore(b);
        LaunchBlock(k, o, gm.data());
        if (o.verbose) {
            std::fprintf(stderr, "run_kernel: block %" PRId64 ": UB used %u of %u bytes [%s]\n", b,
                ascendc_cpu::Rt().ubPeak, ascendc_cpu::Rt().ubBytes, ascendc_cpu::Rt().ubLayout.c_str());
        }
        CheckGmSlack(static_cast<uint8_t>(o.fill));
        ascendc_cpu::EndBlock();
    });

    for (size_t i = 0; i < k.outputs; ++i) {
        const uint8_t* bytes = gm[k.inputs + i];
        WriteFile(o.outputs[i], std::vector<uint8_t>(bytes, bytes + (bytes == nullptr ? 0 : sizes[k.inputs + i])));
    }
    ascendc_cpu::RecordFinish();
    const std::string report = Unwritten(outputs);
    if (!report.empty()) {
        ascendc_cpu::Fail("harness", report);
    }
    return ascendc_cpu::Rt().deferred == 0 ? 0 : ascendc_cpu::kViolationExitCode;
}

}  // namespace hswc_harness

#endif  // HSWC_HARNESS_DRIVER_H
