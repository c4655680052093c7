// ascendc_cpu_debug.h - the calls a kernel makes to time or print itself: GetSystemCycle, printf.
//
// Part of the AscendC CPU model (see README.md). asc-devkit's measuring examples (bank_conflict_ub:
// examples/01_simd_cpp_api/05_best_practices/04_memory_access/) time a stretch of their own code
// by GetSystemCycle and print it with AscendC::printf; neither changes a tensor.
//   * GetSystemCycle (docs/zh/api/SIMD-API/基础API/工具接口/系统资源与变量/GetSystemCycle(ISASI).md):
//     the system counter's value, a PIPE_S call. The CPU model has no clock: it returns 0, so a
//     stretch a kernel times by it measures 0 cycles here (assumed harmless: what it measured is
//     the cost model's to time, from the call stream; a kernel that branched on the value would
//     take its 0 branch).
//   * printf (asc-devkit include/utils/debug/asc_printf.h): the device's print to the host.
//     Its arguments are evaluated by the caller; nothing is printed (the harness's stdout and
//     stderr carry its own results and the model's violations, assumed more useful unmixed).
#ifndef ASCENDC_CPU_DEBUG_H
#define ASCENDC_CPU_DEBUG_H

#include <cstdint>

#include "ascendc_cpu_fn.h"

namespace AscendC {

/// The system counter (A2/A3: 50 MHz; Ascend 950: 1 GHz, the page above): 0 in the CPU model.
ASCENDC_CPU_FN int64_t GetSystemCycle() { return 0; }

/// The device's printf: nothing printed (see the header comment).
template <typename... Args>
inline void printf(const char* fmt, Args&&... args)
{
    static_cast<void>(fmt);
    (static_cast<void>(args), ...);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_DEBUG_H
