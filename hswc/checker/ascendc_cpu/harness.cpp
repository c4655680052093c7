// harness.cpp - runs an AscendC kernel entry on every core of a launch.
//
// The kernel source is compiled into this translation unit. Compile-time
// macros (-D...):
//   HSWC_KERNEL_SOURCE   "path/to/kernel.cpp" (required; resolved like #include "...")
//   HSWC_KERNEL_ENTRY    the entry's name (default hard_swish_grad):
//                        ENTRY(GM_ADDR in..., GM_ADDR out..., GM_ADDR workspace, GM_ADDR tiling)
//   HSWC_GM_INPUTS       GM inputs before the outputs (default 2)
//   HSWC_GM_OUTPUTS      GM outputs before workspace (default 1)
//   HSWC_GM_ONLY         the entry takes its GM tensors only (no workspace, no tiling):
//                        ENTRY(GM_ADDR in..., GM_ADDR out...)
//   and how a tiling key selects the code to run, one of:
//   HSWC_TILING_KEYS     (default) the entry is `template <KeyType K>`; the keys
//                        to instantiate, comma-separated (default 0,1,2)
//   HSWC_KERNEL_INSTANCES  any template: a list of HSWC_INSTANCE(key, template-args...),
//                        e.g. 'HSWC_INSTANCE(0, half, 0) HSWC_INSTANCE(1, float, 1)'
//   HSWC_KERNEL_UNTEMPLATED  a plain entry run for any key (it dispatches with
//                        TILING_KEY_IS(k), which compares with --tiling-key)
//   HSWC_TILING_STRUCT   the tiling struct (GET_TILING_DATA declares it), and
//   HSWC_TILING_FIELDS   its fields, 'HSWC_TILING_FIELD(a) HSWC_TILING_FIELD(b) ...',
//                        for --tiling-layout
//
// Usage:
//   run_kernel --tiling-key K --block-dim N --ub-size BYTES
//              (--tiling-file FILE | --tiling TOTAL,BLOCKFACTOR,UBFACTOR)
//              [--instance I] [--keep-going] [--record-gm-reads] [--record-rules] [--ub-fill BYTE]
//              [--auto-sync on|off] [--verbose] [--profile FILE] [--ub-physical BYTES]
//              [--workspace-bytes N]
//              --input A.bin [--input B.bin ...] --output Y.bin [--output ...]
//              [--output-bytes N ...] [--written-bytes N ...]
//   run_kernel --tiling-layout
//   (--instance I: run the I-th entry of HSWC_KERNEL_INSTANCES, whatever its key;
//   --keep-going: report each distinct cross-pipe race once and run on, exit 3 at
//   the end; --record-gm-reads: a GM read past a tensor's end (into the 64 KiB of guard bytes,
//   --ub-fill, kept after each) is reported once and the run goes on; --record-rules: that, and
//   every broken rule the model can go on after (a misaligned or short UB operand inside the
//   UB, a partial Compare repeat), reported once each; --auto-sync off: the kernel is taken as
//   built with BiSheng's --cce-auto-sync=off, so two vector calls touching the same UB bytes (at
//   least one writing) need a PipeBarrier<PIPE_V> between them on Atlas A2/A3 (ascendc_cpu_hb.h;
//   a build for Ascend 950, whose hardware orders them, takes the option and checks nothing
//   more); --ub-physical BYTES: the UB a kernel laying out its own buffers (static
//   LocalTensor(pos, addr, len)) may use, when larger than what TPipe hands out (--ub-size; Ascend
//   950: 256 KB, of which 248 KB for TPipe); --workspace-bytes N: the workspace the op's tiling
//   asked for (GetWorkspaceSizes), a GM buffer of N bytes passed as the entry's workspace
//   (default 0: a pointer to no bytes, never nullptr: the runtime hands every AscendC kernel its
//   system workspace, so kernels test `workspace == nullptr` as a guard only, and on Ascend 950
//   GetUserWorkspace ignores its argument (asc-devkit impl/basic_api/dav_3510/
//   kernel_operator_common_impl.h); ops-nn's kernel UTs always pass one. Any access to a
//   0-byte workspace is outside every GM tensor of the launch); --profile FILE: each core's call stream is written to FILE for the cost model
//   (ascendc_cpu_record.h); --tiling-layout: print the layout of HSWC_TILING_STRUCT, whose
//   fields HSWC_TILING_FIELDS lists as HSWC_TILING_FIELD(name) ..., and exit)
// (or the input files then the output files as positional arguments). For
// block idx 0..N-1 the harness refills the UB with the garbage byte (default
// 0xA5) and calls the entry with the GM arrays, the workspace and the
// tiling buffer: the raw bytes of FILE, or for --tiling the three values as
// little-endian int64 (HardSwishGrad's TilingData). Inputs are read-only;
// each output has --output-bytes bytes (one per output, in order) or, by
// default, as many as the first input, initially all --ub-fill. --written-bytes N (once per
// output, in order): only the first N bytes of that output are the kernel's to write (a kernel
// reading its row count from a tensor, hswc.counted_rows): a byte before N left unwritten, or
// one from N on written, is a violation; the rest keep --ub-fill.
//
// Exit status: 0 ok; 2 usage / file errors (message on stderr);
// 3 kernel rule violation ("ascendc_cpu: <API>: <rule>" on stderr; a
// violation inside the kernel stops the run before any output is written),
// including output bytes that no core wrote (the outputs are still written).
//
// GM accesses outside every tensor through raw pointers (a `__gm__ T*` the kernel computes,
// not a GlobalTensor, whose calls the model checks): each GM tensor lives in memory of its own
// between inaccessible guard pages (mmap/mprotect), its start at a page boundary; the bytes
// after its end up to its last page (and the guard bytes the model reads past the end with
// --record-gm-reads) are readable and hold the fill byte, and inputs are read-only. A load or
// store into a guard page, and a store into an input, is a SIGSEGV that the harness reports
// as the rule "GM: ... outside every GM tensor of the launch" naming the tensor, the byte and
// the block; a store into the readable bytes after a tensor is found when its block ends
// (they no longer hold the fill byte) and reported the same way. Not caught: a load from those
// readable bytes, and an access that lands in another allocation of the process.
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

#include "kernel_operator.h"

#ifndef HSWC_KERNEL_SOURCE
#error "compile with -DHSWC_KERNEL_SOURCE='\"path/to/kernel.cpp\"'"
#endif
#include HSWC_KERNEL_SOURCE

#ifndef HSWC_KERNEL_ENTRY
#define HSWC_KERNEL_ENTRY hard_swish_grad
#endif
#ifndef HSWC_GM_INPUTS
#define HSWC_GM_INPUTS 2
#endif
#ifndef HSWC_GM_OUTPUTS
#define HSWC_GM_OUTPUTS 1
#endif
#if defined(HSWC_KERNEL_INSTANCES) && defined(HSWC_KERNEL_UNTEMPLATED)
#error "define at most one of HSWC_KERNEL_INSTANCES and HSWC_KERNEL_UNTEMPLATED"
#endif
#if !defined(HSWC_TILING_KEYS)
#define HSWC_TILING_KEYS 0, 1, 2
#endif

namespace hswc_harness {

constexpr size_t kInputs = HSWC_GM_INPUTS;
constexpr size_t kOutputs = HSWC_GM_OUTPUTS;
using GmArgs = std::array<uint8_t*, kInputs + kOutputs>;

[[noreturn]] void UsageError(const std::string& msg)
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
uint8_t*& Workspace()
{
    static uint8_t* workspace = nullptr;
    return workspace;
}

/// Calls `entry` with the GM arrays, the workspace and the tiling buffer (an entry taking GM
/// tensors only, HSWC_GM_ONLY: the GM arrays).
template <typename F, size_t... I>
void Invoke(F entry, const GmArgs& gm, uint8_t* tiling, std::index_sequence<I...>)
{
#if defined(HSWC_GM_ONLY)
    (void)tiling;
    entry(gm[I]...);
#else
    entry(gm[I]..., Workspace(), tiling);
#endif
}

template <typename F>
void Invoke(F entry, const GmArgs& gm, uint8_t* tiling)
{
    Invoke(entry, gm, tiling, std::make_index_sequence<kInputs + kOutputs>{});
}

#if defined(HSWC_KERNEL_INSTANCES)
#define HSWC_INSTANCE(key, ...) static_cast<uint64_t>(key),
constexpr uint64_t kKeys[] = {HSWC_KERNEL_INSTANCES};
#undef HSWC_INSTANCE

/// Runs the instance of key k; false if this build has none.
bool Launch(uint64_t k, const GmArgs& gm, uint8_t* tiling)
{
#define HSWC_INSTANCE(key, ...)                                                             \
    if (k == static_cast<uint64_t>(key)) {                                                  \
        Invoke([](auto... args) { HSWC_KERNEL_ENTRY<__VA_ARGS__>(args...); }, gm, tiling); \
        return true;                                                                        \
    }
    HSWC_KERNEL_INSTANCES
#undef HSWC_INSTANCE
    return false;
}

constexpr size_t kInstanceCount = sizeof(kKeys) / sizeof(kKeys[0]);

/// Runs the instance at position `index` of HSWC_KERNEL_INSTANCES (--instance), whatever its key.
void LaunchInstance(size_t index, const GmArgs& gm, uint8_t* tiling)
{
    size_t i = 0;
#define HSWC_INSTANCE(key, ...)                                                             \
    if (i++ == index) {                                                                     \
        Invoke([](auto... args) { HSWC_KERNEL_ENTRY<__VA_ARGS__>(args...); }, gm, tiling); \
        return;                                                                             \
    }
    HSWC_KERNEL_INSTANCES
#undef HSWC_INSTANCE
}
#elif defined(HSWC_KERNEL_UNTEMPLATED)
constexpr uint64_t kKeys[] = {0};  // unused: every key runs the one entry

bool Launch(uint64_t, const GmArgs& gm, uint8_t* tiling)
{
    Invoke([](auto... args) { HSWC_KERNEL_ENTRY(args...); }, gm, tiling);
    return true;
}
#else
constexpr uint64_t kKeys[] = {HSWC_TILING_KEYS};

template <uint64_t K>
bool LaunchKey(const GmArgs& gm, uint8_t* tiling)
{
    Invoke([](auto... args) { HSWC_KERNEL_ENTRY<K>(args...); }, gm, tiling);
    return true;
}

template <size_t... J>
bool LaunchKeyed(uint64_t k, const GmArgs& gm, uint8_t* tiling, std::index_sequence<J...>)
{
    return ((k == kKeys[J] && LaunchKey<kKeys[J]>(gm, tiling)) || ...);
}

/// Runs ENTRY<k>; false if k is not one of HSWC_TILING_KEYS.
bool Launch(uint64_t k, const GmArgs& gm, uint8_t* tiling)
{
    return LaunchKeyed(k, gm, tiling, std::make_index_sequence<sizeof(kKeys) / sizeof(kKeys[0])>{});
}
#endif

#if defined(HSWC_TILING_STRUCT) && defined(HSWC_TILING_FIELDS)
template <typename F>
const char* FieldKind()
{
    using T = std::remove_cv_t<F>;
    if constexpr (std::is_same<T, bool>::value) {
        return "bool";
    } else if constexpr (std::is_floating_point<T>::value) {
        return "float";
    } else if constexpr (std::is_integral<T>::value) {
        return std::is_signed<T>::value ? "int" : "uint";
    } else {
        return "other";
    }
}

/// --tiling-layout: "struct SIZE BYTES" (BYTES: the value-initialised struct in hex, i.e. the
/// defaults of its member initialisers), then "field NAME OFFSET SIZE KIND" per field of
/// HSWC_TILING_FIELDS, KIND one of int, uint, float, bool, other.
void PrintTilingLayout()
{
    static const HSWC_TILING_STRUCT s{};
    const unsigned char* base = reinterpret_cast<const unsigned char*>(&s);
    std::printf("struct %zu ", sizeof s);
    for (size_t i = 0; i < sizeof s; ++i) {
        std::printf("%02x", base[i]);
    }
    std::printf("\n");
#define HSWC_TILING_FIELD(f)                                                                        \
    std::printf("field %s %td %zu %s\n", #f, reinterpret_cast<const unsigned char*>(&s.f) - base, \
        sizeof(s.f), FieldKind<decltype(s.f)>());
    HSWC_TILING_FIELDS
#undef HSWC_TILING_FIELD
}
#endif

std::string KeyList()
{
    std::string s;
    for (uint64_t k : kKeys) {
        s += (s.empty() ? "" : ", ") + std::to_string(k);
    }
    return s;
}

bool ParseInt(const std::string& s, int64_t& out)
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

int64_t IntArg(const std::string& name, const std::string& s, int64_t lo, int64_t hi)
{
    int64_t v = 0;
    if (!ParseInt(s, v) || v < lo || v > hi) {
        UsageError(name + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" +
            s + "'");
    }
    return v;
}

uint64_t KeyArg(const std::string& s)
{
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || s[0] == '-' || errno != 0 || end == nullptr || *end != '\0') {
        UsageError("--tiling-key expects a non-negative integer, got '" + s + "'");
    }
    return v;
}

std::vector<uint8_t> ReadFile(const std::string& path)
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

void WriteFile(const std::string& path, const std::vector<uint8_t>& data)
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
std::vector<uint8_t> ShorthandTiling(const std::string& s)
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

Options Parse(int argc, char** argv)
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
        if (o.positional.size() != kInputs + kOutputs) {
            UsageError("expected " + std::to_string(kInputs) + " input and " + std::to_string(kOutputs) +
                " output files, got " + std::to_string(o.positional.size()) + " file arguments");
        }
        o.inputs.assign(o.positional.begin(), o.positional.begin() + static_cast<std::ptrdiff_t>(kInputs));
        o.outputs.assign(o.positional.begin() + static_cast<std::ptrdiff_t>(kInputs), o.positional.end());
    }
    if (o.inputs.size() != kInputs || o.outputs.size() != kOutputs) {
        UsageError("this kernel takes " + std::to_string(kInputs) + " --input and " + std::to_string(kOutputs) +
            " --output files (HSWC_GM_INPUTS, HSWC_GM_OUTPUTS), got " + std::to_string(o.inputs.size()) + " and " +
            std::to_string(o.outputs.size()));
    }
    if (!o.outputBytes.empty() && o.outputBytes.size() != kOutputs) {
        UsageError("give --output-bytes once per output (" + std::to_string(kOutputs) + "), got " +
            std::to_string(o.outputBytes.size()));
    }
    if (!o.writtenBytes.empty() && o.writtenBytes.size() != kOutputs) {
        UsageError("give --written-bytes once per output (" + std::to_string(kOutputs) + "), got " +
            std::to_string(o.writtenBytes.size()));
    }
    if (o.outputBytes.empty() && kOutputs > 0 && kInputs == 0) {
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
std::vector<GmBuffer>& GmBuffers()
{
    static std::vector<GmBuffer> buffers;
    return buffers;
}

/// A GM buffer of `bytes` bytes (copied from `content`, else the fill byte) with `readable`
/// fill bytes kept readable after it; read-only when `readOnly`.
GmBuffer MapGm(const std::vector<uint8_t>* content, size_t bytes, size_t readable, uint8_t fill,
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
std::string GmPlace(uintptr_t address)
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
void OnSegv(int signal, siginfo_t* info, void*)
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
void CheckGmSlack(uint8_t fill)
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
std::string Unwritten(const std::vector<OutputRegion>& outputs)
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
void LaunchBlock(Options& o, const GmArgs& gm)
{
#if defined(HSWC_KERNEL_INSTANCES)
    if (o.instance >= 0) {
        if (static_cast<size_t>(o.instance) >= kInstanceCount) {
            UsageError("--instance " + std::to_string(o.instance) + " is not below the " +
                std::to_string(kInstanceCount) + " entries of HSWC_KERNEL_INSTANCES");
        }
        LaunchInstance(static_cast<size_t>(o.instance), gm, o.tiling.data());
        return;
    }
#else
    if (o.instance >= 0) {
        UsageError("--instance needs a build with HSWC_KERNEL_INSTANCES");
    }
#endif
    if (!Launch(o.key, gm, o.tiling.data())) {
        UsageError("tiling key " + std::to_string(o.key) + " is not instantiated in this build (keys: " + KeyList() +
            ")");
    }
}

int Main(int argc, char** argv)
{
    Options o = Parse(argc, argv);
    if (o.layout) {
#if defined(HSWC_TILING_STRUCT) && defined(HSWC_TILING_FIELDS)
        PrintTilingLayout();
        return 0;
#else
        UsageError("--tiling-layout needs a build with HSWC_TILING_STRUCT and HSWC_TILING_FIELDS");
#endif
    }
    std::vector<std::vector<uint8_t>> data;
    for (const std::string& path : o.inputs) {
        data.push_back(ReadFile(path));
    }
    std::vector<size_t> sizes;
    for (const std::vector<uint8_t>& d : data) {
        sizes.push_back(d.size());
    }
    for (size_t i = 0; i < kOutputs; ++i) {
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
    GmArgs gm{};
    for (size_t i = 0; i < kInputs + kOutputs; ++i) {
        const bool isInput = i < kInputs;
        const size_t index = isInput ? i : i - kInputs;
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
    ascendc_cpu::LaunchCores().Run(o.blockDim, [&o, &gm](int64_t b) {
        ascendc_cpu::BeginBlock(b, o.blockDim);
        ascendc_cpu::RecordCore(b);
        LaunchBlock(o, gm);
        if (o.verbose) {
            std::fprintf(stderr, "run_kernel: block %" PRId64 ": UB used %u of %u bytes [%s]\n", b,
                ascendc_cpu::Rt().ubPeak, ascendc_cpu::Rt().ubBytes, ascendc_cpu::Rt().ubLayout.c_str());
        }
        CheckGmSlack(static_cast<uint8_t>(o.fill));
        ascendc_cpu::EndBlock();
    });

    for (size_t i = 0; i < kOutputs; ++i) {
        const uint8_t* bytes = gm[kInputs + i];
        WriteFile(o.outputs[i], std::vector<uint8_t>(bytes, bytes + (bytes == nullptr ? 0 : sizes[kInputs + i])));
    }
    ascendc_cpu::RecordFinish();
    const std::string report = Unwritten(outputs);
    if (!report.empty()) {
        ascendc_cpu::Fail("harness", report);
    }
    return ascendc_cpu::Rt().deferred == 0 ? 0 : ascendc_cpu::kViolationExitCode;
}

}  // namespace hswc_harness

int main(int argc, char** argv)
{
    return hswc_harness::Main(argc, argv);
}
