// ascendc_cpu_atomic.h - GM atomic accumulation of copies to GM: SetAtomicAdd, SetAtomicNone,
// DisableDmaAtomic, SetAtomicType.
//
// Part of the AscendC CPU model (see README.md). asc-devkit docs/zh/api/SIMD-API/基础API/原子操作/
// SetAtomicAdd.md: "对后续目的地址为GM的数据搬运开启原子累加": every later data movement whose
// destination is GM (here: DataCopy and DataCopyPad from UB, every form) adds what it copies to
// what GM holds and writes the sum, until SetAtomicNone / DisableDmaAtomic ("关闭原子累加");
// SetAtomicAdd<T>'s T is the element type of the accumulation (SetAtomicType.md sets it alone).
// Per core, as the device's register. Scalar GM stores (GlobalTensor::SetValue) are not data
// movements and stay plain.
//
// Element types: the docs list int8_t, int16_t, half, bfloat16_t, int32_t, float on Atlas A2/A3
// and Ascend 950. Modelled: half, bfloat16_t and float, the sum rounded once to T (RNE, as the
// vector Add; assumed: the docs say "求和" and nothing of its rounding), IEEE inf and NaN; the
// integer types compile and are refused when a copy accumulates (their overflow is not
// documented). A copy of another element type than the accumulation's is refused (not
// modelled). The order in which several cores' atomic adds reach one GM element is the order
// the cores run in (ascendc_cpu_cores.h: block index order between SyncAlls; assumed).
#ifndef ASCENDC_CPU_ATOMIC_H
#define ASCENDC_CPU_ATOMIC_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_float.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"
#include "ascendc_cpu_vec_common.h"

namespace ascendc_cpu {

enum AtomicKind : uint8_t { kAtomicNone = 0, kAtomicAdd = 1 };

template <typename T>
constexpr bool kAtomicTypeListed = std::is_same<T, int8_t>::value || std::is_same<T, int16_t>::value ||
    std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || std::is_same<T, int32_t>::value ||
    std::is_same<T, float>::value;

/// a + b rounded once to T (half, bfloat16_t, float): one double sum (exact for half; for
/// float and bfloat16_t correctly rounded, and 53 >= 2p + 2 makes its rounding to T correct).
template <typename T>
inline T AtomicSum(T a, T b)
{
    const double s = static_cast<double>(static_cast<float>(a)) + static_cast<double>(static_cast<float>(b));
    if constexpr (std::is_same<T, half>::value) {
        return half::FromBits(static_cast<uint16_t>(RoundDoubleTo(s, kF16, Rounding::kRint)));
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        return bfloat16_t::FromBits(static_cast<uint16_t>(RoundDoubleTo(s, kBF16, Rounding::kRint)));
    } else {
        return RoundToF32(s);
    }
}

/// Writes `count` elements from `ub` to GM element `start` of `gm` (a copy's block): a plain
/// store, or under SetAtomicAdd the sum with what GM holds.
template <typename T>
inline void StoreGm(const char* api, const AscendC::GlobalTensor<T>& gm, uint64_t start, uint64_t count,
    const uint8_t* ub)
{
    Runtime& rt = Rt();
    if (rt.atomic.kind == kAtomicNone) {
        T* g = gm.Checked(api, start, count, true, ub);
        std::memcpy(static_cast<void*>(g), ub, static_cast<size_t>(count * sizeof(T)));
        return;
    }
    if (rt.atomic.size != sizeof(T) || std::strcmp(rt.atomic.type, TypeName<T>()) != 0) {
        Fail(api, Msg("a copy of ", TypeName<T>(), " to GM under SetAtomicAdd<", rt.atomic.type,
            "> is not modelled"));
    }
    if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value ||
        std::is_same<T, float>::value) {
        rt.atomic.storing = true;
        T* g = gm.Checked(api, start, count, true, ub);
        rt.atomic.storing = false;
        for (uint64_t i = 0; i < count; ++i) {
            T add;
            std::memcpy(static_cast<void*>(&add), ub + i * sizeof(T), sizeof(T));
            g[i] = AtomicSum<T>(g[i], add);
        }
    } else {
        Fail(api, Msg("SetAtomicAdd<", TypeName<T>(), ">: an integer accumulation is not modelled (its overflow "
            "is not documented)"));
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

/// SetAtomicAdd<T>(): later copies to GM add to what GM holds (ascendc_cpu_atomic.h).
template <typename T>
inline void SetAtomicAdd()
{
    static_assert(ascendc_cpu::kAtomicTypeListed<T>,
        "ascendc_cpu: SetAtomicAdd takes int8_t, int16_t, half, bfloat16_t, int32_t or float (SetAtomicAdd.md)");
    ascendc_cpu::Runtime& rt = ascendc_cpu::Rt();
    rt.atomic.kind = ascendc_cpu::kAtomicAdd;
    rt.atomic.type = ascendc_cpu::TypeName<T>();
    rt.atomic.size = sizeof(T);
}

/// SetAtomicType<T>(): the element type of the accumulation alone (SetAtomicType.md).
template <typename T>
inline void SetAtomicType()
{
    static_assert(ascendc_cpu::kAtomicTypeListed<T>,
        "ascendc_cpu: SetAtomicType takes int8_t, int16_t, half, bfloat16_t, int32_t or float");
    ascendc_cpu::Rt().atomic.type = ascendc_cpu::TypeName<T>();
    ascendc_cpu::Rt().atomic.size = sizeof(T);
}

/// SetAtomicNone(): later copies to GM store plainly again.
ASCENDC_CPU_FN void SetAtomicNone()
{
    ascendc_cpu::Rt().atomic.kind = ascendc_cpu::kAtomicNone;
}

/// DisableDmaAtomic(): SetAtomicNone's newer name (DisableDmaAtomic.md).
ASCENDC_CPU_FN void DisableDmaAtomic() { SetAtomicNone(); }

}  // namespace AscendC

#endif  // ASCENDC_CPU_ATOMIC_H
