// ascendc_cpu_scalar.h - scalar conversions and the device compiler's scalar builtins.
//
// Part of the AscendC CPU model (see README.md).
//   AscendC::ToFloat(bfloat16_t)   exact widening (kernel_scalar_convert.h)
//   AscendC::Cast(float) / ToBfloat16(float) -> bfloat16_t: the device's
//                                  software rounding: nearest-even, NaN -> 0x7FFF
//   min(a, b), max(a, b)           the compiler's scalar builtins (both operands one type)
//   GetBitCount<v> / ScalarGetCountOfValue<v>, CountLeadingZero / ScalarCountLeadingZero: the bits
//                                  of a uint64_t equal to v (0 or 1), its leading zeros (64 for 0)
//                                  (asc-devkit docs/zh/api/SIMD-API/基础API/标量计算/GetBitCount.md,
//                                  CountLeadingZero.md; the Scalar* names are their old ones)
#ifndef ASCENDC_CPU_SCALAR_H
#define ASCENDC_CPU_SCALAR_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <type_traits>

#include "ascendc_cpu_float.h"

namespace AscendC {

/// bfloat16_t -> float, exactly.
ASCENDC_CPU_FN float ToFloat(const bfloat16_t& bVal) { return static_cast<float>(bVal); }

/// float -> bfloat16_t as the device's scalar Cast does it: round to nearest
/// even (subnormals and overflow to inf as IEEE), but every NaN becomes 0x7FFF.
ASCENDC_CPU_FN bfloat16_t Cast(const float& fVal)
{
    if (fVal != fVal) {
        return bfloat16_t::FromBits(0x7FFFu);
    }
    return bfloat16_t::FromBits(static_cast<uint16_t>(
        ascendc_cpu::RoundDoubleTo(static_cast<double>(fVal), ascendc_cpu::kBF16, ascendc_cpu::Rounding::kRint)));
}

ASCENDC_CPU_FN bfloat16_t ToBfloat16(const float& fVal) { return Cast(fVal); }

/// The bits of valueIn equal to countValue (0 or 1): GetBitCount.md.
template <int countValue>
inline int64_t GetBitCount(uint64_t valueIn)
{
    static_assert(countValue == 0 || countValue == 1, "GetBitCount counts bits of value 0 or 1");
    int64_t ones = 0;
    for (uint64_t v = valueIn; v != 0; v &= v - 1) {
        ++ones;
    }
    return countValue == 1 ? ones : 64 - ones;
}

template <int countValue>
inline int64_t ScalarGetCountOfValue(uint64_t valueIn)
{
    return GetBitCount<countValue>(valueIn);
}

/// The zeros above the highest 1 of valueIn, 64 for 0: CountLeadingZero.md.
ASCENDC_CPU_FN int64_t CountLeadingZero(uint64_t valueIn)
{
    int64_t zeros = 0;
    for (uint64_t bit = uint64_t{1} << 63; bit != 0 && (valueIn & bit) == 0; bit >>= 1) {
        ++zeros;
    }
    return zeros;
}

ASCENDC_CPU_FN int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }

namespace Std {
template <typename T, typename U>
inline constexpr auto min(const T& src0, const U& src1)
{
    return (src0 < src1) ? src0 : src1;
}
template <typename T, typename U>
inline constexpr auto max(const T& src0, const U& src1)
{
    return (src0 > src1) ? src0 : src1;
}
}  // namespace Std

}  // namespace AscendC

/// The device compiler's scalar min/max builtins.
template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
inline constexpr T min(T a, T b)
{
    return b < a ? b : a;
}
template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
inline constexpr T max(T a, T b)
{
    return a < b ? b : a;
}

#endif  // ASCENDC_CPU_SCALAR_H
