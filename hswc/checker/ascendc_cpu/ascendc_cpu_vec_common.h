// ascendc_cpu_vec_common.h - what every vector instruction of the model shares.
//
// Part of the AscendC CPU model (see README.md): the mode enums (RoundMode,
// CMPMODE, SELMODE), element load/store, the operand checks and loops of the
// level-2 "count" interfaces (Unary, Binary), and the scalar arithmetic of one
// lane. Every operation built on Unary/Binary:
//   * checks its operands (ascendc_cpu::CheckUb): 32-byte aligned UB
//     addresses, enough elements, live and correctly synchronised buffers;
//   * touches exactly `count` elements (elements past count are untouched);
//   * reads all inputs before writing the output, so full overlap of dst with
//     a source (dst == src) is fine.
// Floating-point lanes are IEEE: one round-to-nearest-even rounding in the
// tensor's type (see ascendc_cpu_float.h for why one double operation and
// one rounding is that), subnormals kept, inf and NaN as IEEE 754 says.
#ifndef ASCENDC_CPU_VEC_COMMON_H
#define ASCENDC_CPU_VEC_COMMON_H

#include "ascendc_cpu_fn.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_float.h"
#include "ascendc_cpu_tensor.h"

namespace AscendC {

enum class RoundMode : uint8_t {
    CAST_NONE = 0,  ///< exact when lossless, else as CAST_RINT (where legal)
    CAST_RINT,      ///< nearest, ties to even
    CAST_FLOOR,     ///< toward -inf
    CAST_CEIL,      ///< toward +inf
    CAST_ROUND,     ///< nearest, ties away from zero
    CAST_TRUNC,     ///< toward zero
    CAST_ODD,       ///< round to odd
#if defined(ASCENDC_CPU_DAV_3510)
    CAST_HYBRID,    ///< Ascend 950: hifloat8's hybrid rounding (no conversion of the model takes it)
    CAST_EVEN,      ///< Ascend 950 (asc-devkit kernel_utils_mode.h; no conversion of the model takes it)
    CAST_ZERO,      ///< Ascend 950 (likewise)
#endif
    UNKNOWN = 0xFF,  ///< no rounding named: MicroAPI's CastTrait for the exact conversions
};

/// Compare modes: the result bit is (src0 OP src1).
enum class CMPMODE : uint8_t {
    LT = 0,
    GT,
    EQ,
    LE,
    GE,
    NE,
};

enum class SELMODE : uint8_t {
    VSEL_CMPMASK_SPR = 0,     ///< first 256/sizeof(T) mask bits reused for every 256-byte repeat
    VSEL_TENSOR_SCALAR_MODE,  ///< src1 is a scalar; mask consumed continuously
    VSEL_TENSOR_TENSOR_MODE,  ///< src1 is a tensor; mask consumed continuously
};

}  // namespace AscendC

namespace ascendc_cpu {

template <typename T>
inline T Load(const uint8_t* p)
{
    T v;
    std::memcpy(static_cast<void*>(&v), p, sizeof(T));
    return v;
}

template <typename T>
inline void Store(uint8_t* p, const T& v)
{
    std::memcpy(p, static_cast<const void*>(&v), sizeof(T));
}

/// For static_assert(kFalse<T>, ...): false, but only once T is known.
template <typename... T>
constexpr bool kFalse = false;

template <typename T, typename... Ts>
constexpr bool kIsOneOf = (std::is_same<T, Ts>::value || ...);

template <typename T>
constexpr bool kIsFloatLike = kIsOneOf<T, half, float>;

/// Element types of Add/Sub/Mul/Max/Min and the scalar forms on ascend910b.
template <typename T>
constexpr bool kIsArith = kIsOneOf<T, half, float, int16_t, int32_t>;

/// The spelling of an element type in messages.
template <typename T>
constexpr const char* TypeName()
{
    if constexpr (std::is_same<T, half>::value) {
        return "half";
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        return "bfloat16_t";
    } else if constexpr (std::is_same<T, float>::value) {
        return "float";
    } else if constexpr (std::is_same<T, int8_t>::value) {
        return "int8_t";
    } else if constexpr (std::is_same<T, uint8_t>::value) {
        return "uint8_t";
    } else if constexpr (std::is_same<T, int16_t>::value) {
        return "int16_t";
    } else if constexpr (std::is_same<T, uint16_t>::value) {
        return "uint16_t";
    } else if constexpr (std::is_same<T, int32_t>::value) {
        return "int32_t";
    } else if constexpr (std::is_same<T, uint32_t>::value) {
        return "uint32_t";
    } else if constexpr (std::is_same<T, int64_t>::value) {
        return "int64_t";
    } else if constexpr (std::is_same<T, uint64_t>::value) {
        return "uint64_t";
    } else if constexpr (std::is_same<T, fp8_e4m3fn_t>::value) {
        return "fp8_e4m3fn_t";
    } else if constexpr (std::is_same<T, fp8_e5m2_t>::value) {
        return "fp8_e5m2_t";
    } else if constexpr (std::is_same<T, hifloat8_t>::value) {
        return "hifloat8_t";
    } else {
        return "an unsupported type";
    }
}

/// A call on an element type the SoC's call takes but the model has no lanes for (an
/// ASCENDC_SOC_TYPES type of hswc/api_tables.def outside the call's ASCENDC_API row): it compiles,
/// and running it ends the run here.
template <typename T>
[[noreturn]] inline void NotModelledType(const char* api)
{
    Fail(api, Msg("element type ", TypeName<T>(), ": the SoC's call takes it, the CPU model has no lanes for it "
        "(not modelled)"));
}

/// The value of a half/bfloat16_t/float lane, exactly, as a double.
template <typename T>
inline double AsDouble(const T& v)
{
    return static_cast<double>(static_cast<float>(v));
}

/// Rounds an exactly (or innocuously, see ascendc_cpu_float.h) computed double to T (RNE).
template <typename T>
inline T FromDouble(double v)
{
    if constexpr (std::is_same<T, half>::value) {
        return half::FromBits(static_cast<uint16_t>(RoundDoubleTo(v, kF16, Rounding::kRint)));
    } else {
        return RoundToF32(v);
    }
}

template <typename T>
inline bool IsNan(const T& v)
{
    const double d = AsDouble(v);
    return d != d;
}

/// The lane's NaN made quiet (sign and payload kept): what an arithmetic
/// instruction returns for a NaN operand.
template <typename T>
inline T Quiet(const T& v)
{
    if constexpr (std::is_same<T, half>::value) {
        return half::FromBits(static_cast<uint16_t>(v.ToBits() | 0x0200u));
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        return bfloat16_t::FromBits(static_cast<uint16_t>(v.ToBits() | 0x0040u));
    } else {
        return F32FromBits(F32Bits(v) | 0x00400000u);
    }
}

/// Sign bit of a half/bfloat16_t/float lane (so -0 and NaNs are seen).
template <typename T>
inline bool SignBit(const T& v)
{
    if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
        return (v.ToBits() & 0x8000u) != 0;
    } else {
        return (F32Bits(v) >> 31) != 0;
    }
}

/// Whether a or b is a NaN, and then in `out` the NaN an arithmetic instruction gives: a's
/// quieted, else b's (src0's when both are, as hswc/interpreter/ascendc_api.py decides; the
/// host's + would leave that choice to the compiler, which may swap the operands).
template <typename T>
inline bool ArithNan(const T& a, const T& b, T& out)
{
    if constexpr (std::is_integral<T>::value) {
        return false;
    } else {
        if (IsNan(a) || IsNan(b)) {
            out = Quiet(IsNan(a) ? a : b);
            return true;
        }
        return false;
    }
}

template <typename T>
inline T ArithAdd(T a, T b)
{
    T nan{};
    if constexpr (std::is_integral<T>::value) {
        // wrap-around in 32-bit unsigned arithmetic (no signed overflow)
        return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    } else if (ArithNan(a, b, nan)) {
        return nan;
    } else {
        return FromDouble<T>(AsDouble(a) + AsDouble(b));
    }
}

template <typename T>
inline T ArithSub(T a, T b)
{
    T nan{};
    if constexpr (std::is_integral<T>::value) {
        return static_cast<T>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
    } else if (ArithNan(a, b, nan)) {
        return nan;
    } else {
        return FromDouble<T>(AsDouble(a) - AsDouble(b));
    }
}

template <typename T>
inline T ArithMul(T a, T b)
{
    T nan{};
    if constexpr (std::is_integral<T>::value) {
        return static_cast<T>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
    } else if (ArithNan(a, b, nan)) {
        return nan;
    } else {
        return FromDouble<T>(AsDouble(a) * AsDouble(b));
    }
}

/// a / b correctly rounded in T (half or float): IEEE inf and NaN for
/// division by zero.
template <typename T>
inline T ArithDiv(T a, T b)
{
    T nan{};
    return ArithNan(a, b, nan) ? nan : FromDouble<T>(AsDouble(a) / AsDouble(b));
}

/// round_T(a * b + c) with one rounding (a fused multiply-add) for half and float lanes: the
/// product is exact in double (at most 2 * 24 significant bits); the sum is rounded to double
/// with round-to-odd (TwoSum's error decides the sticky bit), and rounding that again to T (24 or
/// 11 bits, at most 53 - 2) is the correctly rounded T result (Boldo and Melquiond 2008).
template <typename T>
inline T FusedMulAdd(T a, T b, T c)
{
    const double p = AsDouble(a) * AsDouble(b);
    const double q = AsDouble(c);
    double s = p + q;
    if (std::isfinite(s)) {
        const double bv = s - p;
        const double err = (p - (s - bv)) + (q - bv);
        uint64_t bits = 0;
        std::memcpy(&bits, &s, sizeof bits);
        if (err != 0 && (bits & 1u) == 0) {
            s = std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
        }
    }
    return FromDouble<T>(s);
}

/// IEEE 754-2019 maximum (kMax) or minimum: NaN if either operand is NaN
/// (src0's first), else the larger / smaller, with -0 < +0. Integers: plainly.
template <bool kMax, typename T>
inline T ArithExtremum(T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        return (kMax ? a < b : b < a) ? b : a;
    } else {
        if (IsNan(a)) {
            return Quiet(a);
        }
        if (IsNan(b)) {
            return Quiet(b);
        }
        const double x = AsDouble(a);
        const double y = AsDouble(b);
        if (x == y) {
            return SignBit(a) == kMax ? b : a;  // +-0: max takes +0, min takes -0
        }
        return (kMax ? x < y : y < x) ? b : a;
    }
}

template <typename T>
inline T ArithMax(T a, T b)
{
    return ArithExtremum<true>(a, b);
}

template <typename T>
inline T ArithMin(T a, T b)
{
    return ArithExtremum<false>(a, b);
}

ASCENDC_CPU_FN uint32_t CheckCount(const char* api, int64_t count)
{
    if (count < 0) {
        Fail(api, Msg("count ", count, " is negative"));
    }
    if (count > 0xFFFFFFFFll) {
        Fail(api, Msg("count ", count, " is too large"));
    }
    return static_cast<uint32_t>(count);
}

/// dst[i] = f(src0[i], src1[i]) for i < count.
template <typename T, typename F>
inline void Binary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
    const AscendC::LocalTensor<T>& src1, int64_t count, F f)
{
    const uint32_t n = CheckCount(api, count);
    if (n == 0) {
        return;
    }
    const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
    CheckUb(api, "src0", src0.cpu_, bytes, Access::kVecRead);
    CheckUb(api, "src1", src1.cpu_, bytes, Access::kVecRead);
    CheckUb(api, "dst", dst.cpu_, bytes, Access::kVecWrite);
    std::vector<T> out(n);
    for (uint32_t i = 0; i < n; ++i) {
        out[i] = f(Load<T>(src0.cpu_.ptr + i * sizeof(T)), Load<T>(src1.cpu_.ptr + i * sizeof(T)));
    }
    std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), bytes);
}

/// dst[i] = f(src[i]) for i < count.
template <typename T, typename F>
inline void Unary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    int64_t count, F f)
{
    const uint32_t n = CheckCount(api, count);
    if (n == 0) {
        return;
    }
    const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
    CheckUb(api, "src", src.cpu_, bytes, Access::kVecRead);
    CheckUb(api, "dst", dst.cpu_, bytes, Access::kVecWrite);
    std::vector<T> out(n);
    for (uint32_t i = 0; i < n; ++i) {
        out[i] = f(Load<T>(src.cpu_.ptr + i * sizeof(T)));
    }
    std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), bytes);
}

}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_VEC_COMMON_H
