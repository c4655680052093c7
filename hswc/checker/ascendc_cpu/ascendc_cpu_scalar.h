// ascendc_cpu_scalar.h - scalar conversions and the device compiler's scalar builtins.
//
// Part of the AscendC CPU model (see README.md).
//   AscendC::ToFloat(bfloat16_t)   exact widening (kernel_scalar_convert.h)
//   AscendC::Cast(float) / ToBfloat16(float) -> bfloat16_t: the device's
//                                  software rounding: nearest-even, NaN -> 0x7FFF
//   min(a, b), max(a, b)           the compiler's scalar builtins (both operands one type)
#ifndef ASCENDC_CPU_SCALAR_H
#define ASCENDC_CPU_SCALAR_H

#include <cstdint>
#include <type_traits>

#include "ascendc_cpu_float.h"

namespace AscendC {

/// bfloat16_t -> float, exactly.
inline float ToFloat(const bfloat16_t& bVal) { return static_cast<float>(bVal); }

/// float -> bfloat16_t as the device's scalar Cast does it: round to nearest
/// even (subnormals and overflow to inf as IEEE), but every NaN becomes 0x7FFF.
inline bfloat16_t Cast(const float& fVal)
{
    if (fVal != fVal) {
        return bfloat16_t::FromBits(0x7FFFu);
    }
    return bfloat16_t::FromBits(static_cast<uint16_t>(
        ascendc_cpu::RoundDoubleTo(static_cast<double>(fVal), ascendc_cpu::kBF16, ascendc_cpu::Rounding::kRint)));
}

inline bfloat16_t ToBfloat16(const float& fVal) { return Cast(fVal); }

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
