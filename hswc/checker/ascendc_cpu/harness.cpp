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
#include <array>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <type_traits>
#include <utility>

#include "harness_driver.h"

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

// The kernel's part of the harness: how its entry is called (the per-kernel macros above);
// the rest, the same for every kernel, is harness_driver.h.
namespace hswc_harness {

constexpr size_t kInputs = HSWC_GM_INPUTS;
constexpr size_t kOutputs = HSWC_GM_OUTPUTS;

/// Calls `entry` with the GM arrays, the workspace and the tiling buffer (an entry taking GM
/// tensors only, HSWC_GM_ONLY: the GM arrays).
template <typename F, size_t... I>
void Invoke(F entry, uint8_t* const* gm, uint8_t* tiling, std::index_sequence<I...>)
{
#if defined(HSWC_GM_ONLY)
    (void)tiling;
    entry(gm[I]...);
#else
    entry(gm[I]..., Workspace(), tiling);
#endif
}

template <typename F>
void Invoke(F entry, uint8_t* const* gm, uint8_t* tiling)
{
    Invoke(entry, gm, tiling, std::make_index_sequence<kInputs + kOutputs>{});
}

#if defined(HSWC_KERNEL_INSTANCES)
#define HSWC_INSTANCE(key, ...) static_cast<uint64_t>(key),
constexpr uint64_t kKeys[] = {HSWC_KERNEL_INSTANCES};
#undef HSWC_INSTANCE

/// Runs the instance of key k; false if this build has none.
bool Launch(uint64_t k, uint8_t* const* gm, uint8_t* tiling)
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

/// Runs the instance at position `index` of HSWC_KERNEL_INSTANCES (--instance), whatever its key.
void LaunchInstance(size_t index, uint8_t* const* gm, uint8_t* tiling)
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

bool Launch(uint64_t, uint8_t* const* gm, uint8_t* tiling)
{
    Invoke([](auto... args) { HSWC_KERNEL_ENTRY(args...); }, gm, tiling);
    return true;
}
#else
constexpr uint64_t kKeys[] = {HSWC_TILING_KEYS};

template <uint64_t K>
bool LaunchKey(uint8_t* const* gm, uint8_t* tiling)
{
    Invoke([](auto... args) { HSWC_KERNEL_ENTRY<K>(args...); }, gm, tiling);
    return true;
}

template <size_t... J>
bool LaunchKeyed(uint64_t k, uint8_t* const* gm, uint8_t* tiling, std::index_sequence<J...>)
{
    return ((k == kKeys[J] && LaunchKey<kKeys[J]>(gm, tiling)) || ...);
}

/// Runs ENTRY<k>; false if k is not one of HSWC_TILING_KEYS.
bool Launch(uint64_t k, uint8_t* const* gm, uint8_t* tiling)
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

const Kernel kKernel{kInputs, kOutputs, {std::begin(kKeys), std::end(kKeys)}, Launch,
#if defined(HSWC_KERNEL_INSTANCES)
    LaunchInstance,
#else
    nullptr,
#endif
#if defined(HSWC_TILING_STRUCT) && defined(HSWC_TILING_FIELDS)
    PrintTilingLayout,
#else
    nullptr,
#endif
};

}  // namespace hswc_harness

int main(int argc, char** argv)
{
    return hswc_harness::Main(argc, argv, hswc_harness::kKernel);
}
