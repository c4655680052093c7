// kernel_operator.h - CPU model of the AscendC kernel API subset used by the
// hswc HardSwishGrad kernels (see README.md in this folder).
//
// Include this instead of the device header and compile with any C++17
// compiler:  g++ -std=c++17 -I tools/ascendc_cpu ...
// The model runs one AI vector core at a time (ascendc_cpu::BeginBlock /
// EndBlock, driven by harness.cpp) and turns every rule violation into one
// line "ascendc_cpu: <API>: <rule>" on stderr and exit status 3.
#ifndef ASCENDC_CPU_KERNEL_OPERATOR_H
#define ASCENDC_CPU_KERNEL_OPERATOR_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc_cpu_copy.h"
#include "ascendc_cpu_float.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"
#include "ascendc_cpu_vector.h"

// Function qualifiers of the device compiler: nothing on the CPU.
#ifndef __global__
#define __global__
#endif

/// Kernel parameter type for GM addresses.
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

namespace ascendc_cpu {

/// GET_TILING_DATA_WITH_STRUCT: copies sizeof(T) bytes of the tiling buffer
/// into `out`. Violation if the buffer is null or shorter than the struct.
template <typename T>
inline void LoadTiling(T& out, const uint8_t* tiling)
{
    static_assert(std::is_trivially_copyable<T>::value, "tiling struct must be trivially copyable");
    const char* api = "GET_TILING_DATA_WITH_STRUCT";
    if (tiling == nullptr) {
        Fail(api, "tiling pointer is null");
    }
    if (sizeof(T) > Rt().tilingBytes) {
        Fail(api, Msg("tiling struct has ", sizeof(T), " bytes but the tiling buffer only ", Rt().tilingBytes));
    }
    std::memcpy(static_cast<void*>(&out), tiling, sizeof(T));
}

}  // namespace ascendc_cpu

/// Declares the default tiling struct of a kernel: a compile-time check only.
#define REGISTER_TILING_DEFAULT(tiling_struct) \
    static_assert(sizeof(tiling_struct) > 0, "REGISTER_TILING_DEFAULT needs a complete type")

/// Declares `tiling_struct tiling_data` and fills it from the GM tiling buffer.
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data;                                              \
    ::ascendc_cpu::LoadTiling<tiling_struct>(tiling_data, (tiling_arg))

#endif  // ASCENDC_CPU_KERNEL_OPERATOR_H
