// ascendc_cpu_macros.h - the macros and idioms hand-written kernels rely on.
//
// Part of the AscendC CPU model (see README.md). The model is an ascend910b /
// ascend910_93 AI vector core, so the target macros say so (kernels pick
// their A2/A3 code with `#if __CCE_AICORE__ == 220`), and the macros of the
// device's kernel_utils_macros.h and kernel_macros.h exist:
//   __CCE_AICORE__ 220, __NPU_ARCH__ 2201, ASCEND_IS_AIV / ASCEND_IS_AIC
//   KERNEL_TASK_TYPE_DEFAULT(t), KERNEL_TASK_TYPE(k, t)   checked, no effect
//   TILING_KEY_IS(k)              the launch's tiling key (set by the harness) == k
//   ASSERT(x)                     as the device's debug build: a violation if false
//   ENABLE_PRINTF()               nothing
//   GET_TILING_DATA_WITH_STRUCT(S, d, p)        declares `S d` filled from the tiling buffer
//   GET_TILING_DATA_PTR_WITH_STRUCT(S, d, p)    declares `const S* d` over a copy of it
//   GET_TILING_DATA(d, p)         only with -DHSWC_TILING_STRUCT=S (the struct the
//                                 device build generates from op_host); ops-nn's
//                                 tests/ut/op_kernel/*_tiling_def.h define their own
//   AscendC::Std::is_same / enable_if / conditional (the device's Std namespace)
#ifndef ASCENDC_CPU_MACROS_H
#define ASCENDC_CPU_MACROS_H

#include <cstdint>
#include <cstring>
#include <memory>
#include <tuple>
#include <utility>
#include <type_traits>

#include "ascendc_cpu_runtime.h"

#if defined(ASCENDC_CPU_DAV_3510)
// Ascend 950 (ascendc_cpu_api.h): __NPU_ARCH__ 3510 as asc-devkit tests it;
// __CCE_AICORE__ 310 is assumed (asc-devkit's dav_3510 pipe is kernel_tpipe_impl_c310.h).
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 310
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 3510
#endif
#else
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#endif

/// Every core of the model is an AI vector core: g_coreType is AIV (asc-devkit
/// impl/utils/sys_constants.h: AIC = 1, AIV = 2; sys_macros.h's ASCEND_IS_AIV compares it).
namespace AscendC {
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC
constexpr int32_t g_coreType = AscendC::AIV;
#define ASCEND_IS_AIV (true)
#define ASCEND_IS_AIC (false)
#define ASCEND_IS_NOT_AIV (false)
#define ASCEND_IS_NOT_AIC (true)

/// Kernel types of KERNEL_TASK_TYPE_DEFAULT (names and order as on the device).
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};

#define KERNEL_TASK_TYPE_DEFAULT(value) \
    static_assert(static_cast<int>(value) < static_cast<int>(KERNEL_TYPE_MAX), "KERNEL_TASK_TYPE_DEFAULT")
#define KERNEL_TASK_TYPE(key, value) \
    static_assert(static_cast<int>(value) < static_cast<int>(KERNEL_TYPE_MAX), "KERNEL_TASK_TYPE")

/// Device printf support: nothing to enable on the CPU.
#define ENABLE_PRINTF() static_cast<void>(0)
#define ENABLE_PRINTF_DUMP_SIZE() static_cast<void>(0)

/// True when the launch's tiling key is k (the harness sets it from --tiling-key).
#define TILING_KEY_IS(k) (::ascendc_cpu::Rt().tilingKey == static_cast<uint64_t>(k))

#ifndef ASSERT
#define ASSERT(x)                                                    \
    do {                                                             \
        if (!(x)) {                                                  \
            ::ascendc_cpu::Fail("ASSERT", "(" #x ") is false");      \
        }                                                            \
    } while (0)
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

/// GET_TILING_DATA_PTR_WITH_STRUCT: a properly aligned copy of the tiling
/// struct that lives until the core ends.
template <typename T>
inline const T* TilingPointer(const uint8_t* tiling)
{
    static std::unique_ptr<T> copy;
    copy.reset(new T());
    LoadTiling(*copy, tiling);
    return copy.get();
}

}  // namespace ascendc_cpu

/// The qualifier of a pointer to tiling data: const, as asc-devkit's generated tiling header
/// has it with GET_TILING_DATA_PTR_WITH_STRUCT's const data.
#ifndef __tiling_data_ptr__
#define __tiling_data_ptr__ const
#endif

/// Declares the default tiling struct of a kernel: a compile-time check only.
#define REGISTER_TILING_DEFAULT(tiling_struct) \
    static_assert(sizeof(tiling_struct) > 0, "REGISTER_TILING_DEFAULT needs a complete type")
#define REGISTER_TILING_FOR_TILINGKEY(expression, tiling_struct) \
    static_assert(sizeof(tiling_struct) > 0, "REGISTER_TILING_FOR_TILINGKEY needs a complete type")
/// A kernel registering no tiling struct (a marker for the device's build; nothing here).
#define REGISTER_NONE_TILING static_assert(true, "REGISTER_NONE_TILING")

/// Declares `tiling_struct tiling_data` and fills it from the GM tiling buffer.
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data;                                              \
    ::ascendc_cpu::LoadTiling<tiling_struct>(tiling_data, (tiling_arg))

/// Declares `const tiling_struct* tiling_data` pointing at the tiling struct.
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    const tiling_struct* tiling_data = ::ascendc_cpu::TilingPointer<tiling_struct>(tiling_arg)

#if defined(HSWC_TILING_STRUCT) && !defined(GET_TILING_DATA)
/// Declares `HSWC_TILING_STRUCT tiling_data` filled from the tiling buffer.
#define GET_TILING_DATA(tiling_data, tiling_arg) GET_TILING_DATA_WITH_STRUCT(HSWC_TILING_STRUCT, tiling_data, tiling_arg)
#endif

namespace AscendC {
/// The device's type-traits namespace.
namespace Std {
template <typename A, typename B>
using is_same = std::is_same<A, B>;
template <typename A, typename B>
inline constexpr bool is_same_v = std::is_same<A, B>::value;
template <bool B, typename T = void>
using enable_if = std::enable_if<B, T>;
template <bool B, typename T, typename F>
using conditional = std::conditional<B, T, F>;
// The tuple and index sequences of the device's Std (opbase's ATVOSS schedules use them).
using std::get;
using std::index_sequence;
using std::make_index_sequence;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
}  // namespace Std

/// AscendC's own type trait (impl/basic_api/utils: IsSameType<T, U>::value, true only for T = U),
/// which opbase's ATVOSS broadcast copies dispatch on.
template <typename T, typename U>
struct IsSameType : std::false_type {};
template <typename T>
struct IsSameType<T, T> : std::true_type {};
}  // namespace AscendC

// The ge::DataType numbers a kernel compares its ORIG_DTYPE_<INPUT> macros with (`#if
// ORIG_DTYPE_X == DT_FLOAT16`): asc-devkit include/basic_api/kernel_type.h defines them for the
// device build, and its kernel build passes -DORIG_DTYPE_<N>=DT_<TYPE> beside -DDTYPE_<N>
// (cmake/asc/fwk_modules/util/ascendc_impl_build.py); the checker passes both (cases.py).
#ifndef DT_FLOAT
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_BOOL 12
#define DT_BF16 27
#define DT_HIFLOAT8 34
#define DT_FLOAT8_E5M2 35
#define DT_FLOAT8_E4M3FN 36
#endif

// Branch hints, as asc-devkit defines them (impl/basic_api/utils/kernel_utils_macros.h:30-33).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#endif  // ASCENDC_CPU_MACROS_H
