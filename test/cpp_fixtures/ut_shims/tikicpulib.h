// tikicpulib.h - the CPU-debug launch API of AscendC that the package's kernel unit test uses
// (GmAlloc, GmFree, SetKernelMode, ICPU_SET_TILING_KEY, ICPU_RUN_KF), mapped onto hswc's CPU
// model of AscendC (hswc/checker/ascendc_cpu) so that the test runs here. Test-only. ICPU_RUN_KF runs
// the kernel on blocks 0..n-1 in turn, each with a fresh UB of HSWC_UT_UB_BYTES bytes, every
// GmAlloc'd buffer registered as GM, and fails (exit 3, as the model does) when a byte of the
// buffer passed third from the end (the output, before workspace and tiling) is never written
// (when the test says HSWC_UT_EXPECT_WRITTEN(bytes) before the launch: a byte of the first
// `bytes` is never written, or one past them is: a kernel computing only the rows a
// group_index counts writes those and leaves the others alone).
#ifndef HSWC_UT_SHIM_TIKICPULIB_H
#define HSWC_UT_SHIM_TIKICPULIB_H

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>

#include "kernel_operator.h"

#ifndef HSWC_UT_UB_BYTES
#if defined(ASCENDC_CPU_DAV_3510)
#define HSWC_UT_UB_BYTES 253952  // Ascend 950's UB as hswc.platform has it
#else
#define HSWC_UT_UB_BYTES 196608  // Atlas A2/A3's
#endif
#endif

enum class KernelMode { MIX_MODE, AIC_MODE, AIV_MODE };

namespace AscendC {

inline std::map<void*, size_t>& GmBuffers()
{
    static std::map<void*, size_t> buffers;
    return buffers;
}

inline void* GmAlloc(size_t bytes)
{
    void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
    GmBuffers()[p] = bytes;
    return p;
}

inline void GmFree(void* p)
{
    GmBuffers().erase(p);
    std::free(p);
}

inline void SetKernelMode(KernelMode) {}

/// The bytes of the output the next launch must write (SIZE_MAX: all of them).
inline size_t& ExpectedWritten()
{
    static size_t bytes = SIZE_MAX;
    return bytes;
}

template <typename Kernel, typename... Args>
void RunKernelFunctionOnCpu(Kernel kernel, const char* name, uint32_t blocks, Args... args)
{
    ascendc_cpu::Configure(HSWC_UT_UB_BYTES);
    ascendc_cpu::ClearGm();
    const std::tuple<Args...> all(args...);
    void* output = static_cast<void*>(std::get<sizeof...(Args) - 3>(all));
    int index = 0;
    for (const auto& [base, bytes] : GmBuffers()) {
        ascendc_cpu::RegisterGm(base, bytes, base == output ? "y" : "gm" + std::to_string(index++),
            true);
    }
    for (uint32_t b = 0; b < blocks; ++b) {
        ascendc_cpu::BeginBlock(b, blocks);
        kernel(args...);
        ascendc_cpu::EndBlock();
    }
    const ascendc_cpu::GmRegion* y = ascendc_cpu::FindGm("y");
    const size_t expected = ExpectedWritten();
    ExpectedWritten() = SIZE_MAX;
    for (size_t i = 0; y != nullptr && i < y->writer.size(); ++i) {
        if (y->writer[i] == 0 && i < expected) {
            ascendc_cpu::Fail(name, ascendc_cpu::Msg("byte ", i, " of the output was never written"));
        }
        if (y->writer[i] != 0 && i >= expected) {
            ascendc_cpu::Fail(name, ascendc_cpu::Msg("byte ", i, " of the output was written, past the ",
                expected, " bytes the kernel should write"));
        }
    }
}

}  // namespace AscendC

#define ICPU_SET_TILING_KEY(key) ((void)(key))
#define HSWC_UT_EXPECT_WRITTEN(bytes) (::AscendC::ExpectedWritten() = (bytes))
#define ICPU_RUN_KF(func, blocks, ...) ::AscendC::RunKernelFunctionOnCpu(func, #func, blocks, __VA_ARGS__)

#endif  // HSWC_UT_SHIM_TIKICPULIB_H
