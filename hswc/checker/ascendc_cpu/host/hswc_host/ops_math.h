// hswc_host/ops_math.h - opbase's host helpers ops-nn tilings call (op_common/op_host/util/
// math_util.h and platform_util.h): integer division and alignment, IsFloatEqual, the platform's block and
// register sizes, EnsureNotScalar, ToString. Written from their documented behaviour: FloorDiv
// and CeilDiv by 0 give x, the alignments to 0 give 0, CeilAlign saturates; GetUbBlockSize is 32 bytes, GetVRegSize 256 bytes and
// GetCacheLineSize 256 bytes, GetNddmaDcacheSize 8192 bytes, whatever the SoC (opbase's own
// constants).
#ifndef HSWC_HOST_OPS_MATH_H
#define HSWC_HOST_OPS_MATH_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "context.h"

namespace Ops {
namespace Base {
template <typename T>
auto FloorDiv(T x, T y) -> typename std::enable_if<std::is_integral<T>::value, T>::type
{
    return y == 0 ? x : x / y;
}
template <typename T>
auto FloorAlign(T x, T align) -> typename std::enable_if<std::is_integral<T>::value, T>::type
{
    return align == 0 ? 0 : x / align * align;
}
template <typename T>
auto CeilDiv(T x, T y) -> typename std::enable_if<std::is_integral<T>::value, T>::type
{
    if (y == 0) {
        return x;
    }
    const T q = x / y;  // truncated; one more when the exact quotient is positive and not whole
    const bool positive = std::is_unsigned<T>::value || ((x < 0) == (y < 0));
    return (x % y != 0 && positive) ? q + 1 : q;
}
template <typename T>
auto CeilAlign(T x, T align) -> typename std::enable_if<std::is_integral<T>::value, T>::type
{
    if (align == 0) {
        return 0;
    }
    const T blocks = CeilDiv(x, align);
    return blocks > std::numeric_limits<T>::max() / align ? std::numeric_limits<T>::max() : blocks * align;
}
/// opbase's float comparison: never equal when either is NaN; when either is infinite, equal
/// when their signs agree (opbase compares only the signs then); else within one epsilon.
template <typename T>
auto IsFloatEqual(T a, T b) -> typename std::enable_if<std::is_floating_point<T>::value, bool>::type
{
    if (std::isnan(a) || std::isnan(b)) {
        return false;
    }
    if (std::isinf(a) || std::isinf(b)) {
        return std::signbit(a) == std::signbit(b);
    }
    const T d = a > b ? a - b : b - a;
    return d <= std::numeric_limits<T>::epsilon();
}
template <typename T>
uint32_t GetAivCoreNum(const T* context)
{
    return context == nullptr || context->GetPlatformInfo() == nullptr ? 0 : context->GetPlatformInfo()->coreNumAiv;
}
template <typename T>
uint32_t GetAicCoreNum(const T* context)
{
    return context == nullptr || context->GetPlatformInfo() == nullptr ? 0 : context->GetPlatformInfo()->coreNumAic;
}
template <typename T>
uint32_t GetUbSize(const T* context)
{
    return context == nullptr || context->GetPlatformInfo() == nullptr
        ? 0 : static_cast<uint32_t>(context->GetPlatformInfo()->ubSize);
}
template <typename T>
uint32_t GetUbBlockSize(const T*) { return 32U; }
template <typename T>
uint32_t GetVRegSize(const T*) { return 256U; }
template <typename T>
uint32_t GetCacheLineSize(const T*) { return 256U; }

template <typename T>
uint32_t GetNddmaDcacheSize(const T*) { return 8192U; }

/// Declared only, as opbase's tiling_base_util.h has it (opbase's broadcast_tiling.h defines it
/// inline); tiling_harness.cpp defines it.
const gert::Shape& EnsureNotScalar(const gert::Shape& s);
inline std::string ToString(ge::DataType t) { return ge::TypeUtils::DataTypeToSerialString(t); }
inline std::string ToString(const gert::Shape& s)
{
    std::string out = "[";
    for (size_t i = 0; i < s.GetDimNum(); ++i) {
        out += (i ? ", " : "") + std::to_string(s.GetDim(i));
    }
    return out + "]";
}
}  // namespace Base
}  // namespace Ops

#endif  // HSWC_HOST_OPS_MATH_H
