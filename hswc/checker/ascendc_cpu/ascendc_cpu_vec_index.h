// ascendc_cpu_vec_index.h - CreateVecIndex, the count form.
//
// Part of the AscendC CPU model (see README.md).
//   CreateVecIndex(dst, firstValue, count)   dst[i] = firstValue + i for i < count (asc-devkit
//       docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/CreateVecIndex.md: Atlas A2/A3 and
//       Ascend 950, lines 3-12; the reference pseudo-code np.arange(firstValue, firstValue +
//       count), line 27; dst in UB, 32-byte aligned, line 53; element types int16_t, half,
//       int32_t, float on Atlas A2/A3, int8_t and int64_t too on Ascend 950, lines 58-66; count 0
//       a NOP on Atlas A2/A3, not promised on the 950, lines 74-85: modelled as a NOP on both).
// Integer lanes are exact (firstValue must stay in range, line 72: leaving it is a violation);
// float lanes are firstValue + i rounded once to T (RNE; the page names no rounding: assumed), so
// half lanes past 2048 step by 2 as np.arange's float16 values do.
#ifndef ASCENDC_CPU_VEC_INDEX_H
#define ASCENDC_CPU_VEC_INDEX_H

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ascendc_cpu_vec_common.h"

namespace AscendC {

template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
#if defined(ASCENDC_CPU_DAV_3510)
    static_assert(ascendc_cpu::kIsOneOf<T, int8_t, int16_t, half, int32_t, float, int64_t>,
        "CreateVecIndex supports (int8_t, int16_t, half, int32_t, float, int64_t) on Ascend 950 (dav_3510)");
#else
    static_assert(ascendc_cpu::kIsOneOf<T, int16_t, half, int32_t, float>,
        "CreateVecIndex supports (int16_t, half, int32_t, float) on Atlas A2/A3 (dav_c220)");
#endif
    ascendc_cpu::CallScope call(site);
    const char* api = "CreateVecIndex";
    if (count == 0) {
        return;
    }
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, static_cast<uint64_t>(count) * sizeof(T),
        ascendc_cpu::Access::kVecWrite);
    for (uint32_t i = 0; i < count; ++i) {
        T v;
        if constexpr (std::is_integral<T>::value) {
            const int64_t last = static_cast<int64_t>(firstValue) + static_cast<int64_t>(count - 1);
            if (i == 0 && last > static_cast<int64_t>(std::numeric_limits<T>::max())) {
                ascendc_cpu::Fail(api, ascendc_cpu::Msg("firstValue ", static_cast<int64_t>(firstValue), " + count - 1 = ",
                    last, " leaves ", ascendc_cpu::TypeName<T>(), " (CreateVecIndex.md: firstValue must stay in range)"));
            }
            v = static_cast<T>(static_cast<int64_t>(firstValue) + static_cast<int64_t>(i));
        } else {
            v = ascendc_cpu::FromDouble<T>(ascendc_cpu::AsDouble(firstValue) + static_cast<double>(i));
        }
        ascendc_cpu::Store<T>(dst.cpu_.ptr + static_cast<uint64_t>(i) * sizeof(T), v);
    }
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_INDEX_H
