// ascendc_cpu_simt.h - Ascend 950's SIMT VFs in SIMD and SIMT mixed programming: a __simt_vf__
// function launched over threads by asc_vf_call<f>(dim3(...), args...), its threads' built-in
// indices, and what of the SIMT API the model refuses.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510 (the SIMT API is
// Ascend 950's; built for Atlas A2/A3, including a simt_api/ header is one compile error). Sources
// are asc-devkit 82b89a15f (bare mirror mirror-cann+asc-devkit); MIX is
// docs/zh/api/SIMT-API/SIMD与SIMT混合编程简介/.
//
//   asc_vf_call<f>(dim3 threads, args...)   include/simt_api/common_functions.h:35-41: launches
//       the SIMT VF f on one thread block of `threads` threads (MIX/编程模型-140.md, 线程架构: a
//       thread block is at most 2048 threads; the grid is the launch's AIV cores). Here the block's
//       threads run one after another, x fastest, then y, then z, each calling f(args...) with
//       threadIdx set: the same result as the hardware's for threads that do not share data (each
//       thread reads what no other thread of the VF writes and writes bytes no other one does),
//       which is what the sync, warp and atomic functions are for; their headers
//       (simt_api/device_sync_functions.h, device_warp_functions.h, device_atomic_functions.h)
//       stay one compile error each. Assumed, not checked: that the VF's threads do not share data
//       that way (the model runs them in order, so a race between them gives the in-order result).
//   threadIdx, blockDim, blockIdx, gridDim  MIX/扩展语法/内置变量-145.md and 编程模型-140.md
//       (线程索引): blockDim is the dim3 of the call, threadIdx the thread's index in it,
//       blockIdx.x the core's index (GetBlockIdx()) and gridDim.x the launch's core count
//       (GetBlockNum(); 核函数配置-147.md: "gridDim.x=block_num, gridDim.y和gridDim.z均为1"),
//       their y and z 0 and 1. warpSize is 32 (内置变量-145.md).
//   __launch_bounds__(N), LAUNCH_BOUND(N), __simt_vf__, __simt_callee__   empty (核函数配置-147.md: N bounds the
//       threads a launch of the function may use; the model does not see N, so a launch above it
//       is not caught; a launch above 2048 threads is).
//   GM through raw __gm__ pointers   a SIMT VF reads and writes GM through plain pointers, which
//       the model's GM checks (GlobalTensor calls) do not see: the guard pages around each GM
//       tensor catch an access outside it (harness_driver.h), and after the VF every byte of a
//       writable GM tensor that changed is counted as written by this core, as a GlobalTensor
//       store is (so the output check sees it, and a byte another core wrote with a different
//       value is a broken rule). A store of the value a byte already holds is not seen (the
//       harness fills outputs with 0xA5 bytes).
//   UB through raw __ubuf__ pointers   plain memory of the core's UB, not checked (as scalar UB
//       accesses inside a SIMD VF are not: ascendc_cpu_vf.h).
//   math functions (simt_api/math_functions.h)   refused where called: their results are documented
//       within 1 ulp or more at best (docs/zh/api/附录/SIMT接口精度标准汇总.md), and erfcinvf and its
//       kin are built on such functions (impl/simt_api/math_functions_impl.h), so a bit-exact model
//       has no result for them. erfinvf runs as that file composes it from log2f and rsqrtf, those
//       two taken as the double function rounded once (assumed): a kernel's erfinv is compared
//       within a tolerance.
#ifndef ASCENDC_CPU_SIMT_H
#define ASCENDC_CPU_SIMT_H

#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
// LAUNCH_BOUND(N), __launch_bounds__'s other spelling in ops-nn's SIMT kernels: no asc-devkit
// header defines it (the device compiler does; ops-nn's pooling kernels define it empty for their
// __CCE_KT_TEST__ builds, max_pool_with_argmax_v3_simt.h:23-25).
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(...)
#endif

#if !defined(ASCENDC_CPU_DAV_3510)

static_assert(sizeof(char) == 0,
    "ascendc_cpu: SIMT is not modelled: SIMT kernels (simt_api/, __simt_vf__ functions) are Ascend 950's; "
    "build for it (--soc ascend950)");

#else

#include <cstdint>
#include <cstring>
#include <vector>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_vec_common.h"

/// A SIMT thread-block or grid shape (include/simt_api/device_types.h's dim3).
struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}  // NOLINT
};

inline dim3 threadIdx{0, 0, 0};
inline dim3 blockDim{1, 1, 1};
inline dim3 blockIdx{0, 0, 0};
inline dim3 gridDim{1, 1, 1};
constexpr int32_t warpSize = 32;

namespace ascendc_cpu {

constexpr uint64_t kSimtMaxThreads = 2048;  // MIX/编程模型-140.md: a thread block holds at most 2048

/// The bytes of every writable GM tensor, before a SIMT VF.
inline std::vector<std::vector<uint8_t>> SimtGmBefore()
{
    std::vector<std::vector<uint8_t>> before;
    for (const GmRegion& r : Rt().gm) {
        before.emplace_back(r.writable ? std::vector<uint8_t>(r.base, r.base + r.bytes) : std::vector<uint8_t>());
    }
    return before;
}

/// After a SIMT VF: each byte of a writable GM tensor that changed is this core's write (a byte
/// another core wrote before with a different value is CheckGm's broken rule).
inline void SimtGmAfter(const std::vector<std::vector<uint8_t>>& before)
{
    Runtime& rt = Rt();
    const uint16_t me = static_cast<uint16_t>(rt.blockIdx + 1);
    for (size_t k = 0; k < rt.gm.size() && k < before.size(); ++k) {
        GmRegion& r = rt.gm[k];
        if (!r.writable) {
            continue;
        }
        for (size_t i = 0; i < r.bytes; ++i) {
            if (r.base[i] == before[k][i]) {
                continue;
            }
            const uint16_t w = r.writer[i];
            if (w != 0 && w != kGmWriteOrdered && w != me) {
                Fail("asc_vf_call", Msg("byte ", i, " of GM tensor '", r.name, "' was written by block ", w - 1,
                    " and is overwritten with a different value by a SIMT VF"));
            }
            r.writer[i] = me;
        }
    }
}

}  // namespace ascendc_cpu

/// asc-devkit's asc_vf_call of a SIMT VF (include/simt_api/common_functions.h:35-41): f(args...)
/// on each thread of a block of `threads`, one after another (see the header comment).
template <auto funcPtr, typename... Args>
inline void asc_vf_call(dim3 threads, Args&&... args)
{
    const uint64_t count = static_cast<uint64_t>(threads.x) * threads.y * threads.z;
    if (count == 0 || count > ascendc_cpu::kSimtMaxThreads) {
        ascendc_cpu::Fail("asc_vf_call", ascendc_cpu::Msg("a SIMT VF of dim3(", threads.x, ", ", threads.y, ", ",
            threads.z, ") = ", count, " threads: a thread block holds 1 to 2048 (SIMD与SIMT混合编程简介/编程模型)"));
    }
    const std::vector<std::vector<uint8_t>> before = ascendc_cpu::SimtGmBefore();
    blockDim = threads;
    blockIdx = dim3(static_cast<uint32_t>(ascendc_cpu::Rt().blockIdx), 0, 0);
    gridDim = dim3(static_cast<uint32_t>(ascendc_cpu::Rt().blockNum), 1, 1);
    for (uint32_t z = 0; z < threads.z; ++z) {
        for (uint32_t y = 0; y < threads.y; ++y) {
            for (uint32_t x = 0; x < threads.x; ++x) {
                threadIdx = dim3(x, y, z);
                funcPtr(args...);
            }
        }
    }
    threadIdx = dim3(0, 0, 0);
    ascendc_cpu::SimtGmAfter(before);
}

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_SIMT_H
