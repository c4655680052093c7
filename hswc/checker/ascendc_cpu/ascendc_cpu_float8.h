// ascendc_cpu_float8.h - Ascend 950's 8-bit floats: fp8_e4m3fn_t, fp8_e5m2_t and hifloat8_t.
//
// Part of the AscendC CPU model (see README.md). Each is a 1-byte trivially copyable struct
// holding its bit pattern, read as float exactly (an implicit conversion, as half's); nothing
// converts to one but Cast (ascendc_cpu_vec_cast.h, MicroAPI::Cast), which calls the encoders
// here with the saturation the CTRL register selects (SetCtrlSpr, ascendc_cpu_ctrl.h).
// Sources: asc-devkit docs/zh/api/SIMD-API/基础API/数据结构/内置数据类型.md (the formats: fp8_e5m2_t
// 1-5-2, fp8_e4m3fn_t 1-4-3, ranges +-57344 and +-448; hifloat8_t's dot field D and its table 6),
// precision_conversion.md (CAST_RINT: ties to even; CAST_ROUND: ties away from zero),
// Reg矢量计算/类型转换/Cast.md table 4 and 特殊寄存器访问/SetCtrlSpr(ISASI).md table 3 (saturation).
//   * fp8: E5M2 is IEEE-like (exponent field 31: inf and NaN); E4M3FN has no inf, its only NaN
//     is S.1111.111 (448 = S.1111.110 the largest finite value). Encoding rounds to nearest, ties
//     to even, subnormals kept; beyond the largest finite value (after rounding) and for +-inf:
//     saturating, +-max; else E5M2 +-inf and E4M3FN NaN. NaN: saturating, 0 (CTRL[50] = 0) or
//     NaN; the NaN pattern S.1111.111 (E4M3FN) or S.11111.10 (E5M2), sign kept, is assumed (the
//     docs' figure of the special values is not in the mirror; ml_dtypes and the interpreter
//     give the same).
//   * hifloat8_t: sign, then D: 0000 subnormal (value 2^(M-23), M the last 3 bits, M = 0 zero),
//     0001 exponent 0 with 3 mantissa bits, 001 |E| = 1 (1 exponent bit: its sign) with 3, 01
//     |E| in 2..3 (2 bits: the sign, then |E| - 2) with 3, 10 |E| in 4..7 (3 bits) with 2, 11
//     |E| in 8..15 (4 bits) with 1; value 2^E * (1 + M / 2^bits). The special values (the docs'
//     figure is not in the mirror) are taken from asc-devkit's own conversion script
//     (examples/01_simd_cpp_api/04_advanced_api/00_matmul/matmul_fp8/scripts/hif8.py): 0x00 zero,
//     0x80 NaN, 0x6F +inf, 0xEF -inf (so 0x6E = 2^15 is the largest finite value). CAST_ROUND
//     rounds the significand to the exponent's mantissa bits, ties away from zero (the script's
//     "TA"), in the subnormal range to a power of two (no mantissa bits); a magnitude of at least
//     1.25 * 2^15 overflows (inf, or saturating 2^15), one that rounds below 2^-22 is zero.
//     CAST_HYBRID (random rounding) is not modelled.
#ifndef ASCENDC_CPU_FLOAT8_H
#define ASCENDC_CPU_FLOAT8_H

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ascendc_cpu {

/// An OCP-style 8-bit float: mantissa bits, exponent bias, and whether the top exponent field
/// holds inf and NaN (E5M2) or normal values but the all-ones pattern, NaN (E4M3FN).
struct Fp8Format {
    int mantBits;
    int bias;
    bool ieeeTop;
};
constexpr Fp8Format kE4M3FN{3, 7, false};
constexpr Fp8Format kE5M2{2, 15, true};

constexpr uint8_t Fp8MaxBits(Fp8Format f)
{
    return f.ieeeTop ? 0x7B : 0x7E;  // 57344, 448
}

constexpr uint8_t Fp8NanBits(Fp8Format f)
{
    return f.ieeeTop ? 0x7E : 0x7F;
}

/// The float a fp8 bit pattern stands for (exact).
inline float Fp8ToFloat(uint8_t bits, Fp8Format f)
{
    const bool neg = (bits & 0x80) != 0;
    const int expBits = 7 - f.mantBits;
    const int field = (bits >> f.mantBits) & ((1 << expBits) - 1);
    const int mant = bits & ((1 << f.mantBits) - 1);
    const int top = (1 << expBits) - 1;
    double v;
    if (f.ieeeTop && field == top) {
        v = mant == 0 ? INFINITY : NAN;
    } else if (!f.ieeeTop && field == top && mant == (1 << f.mantBits) - 1) {
        v = NAN;
    } else if (field == 0) {
        v = std::ldexp(static_cast<double>(mant), 1 - f.bias - f.mantBits);
    } else {
        v = std::ldexp(static_cast<double>(mant | (1 << f.mantBits)), field - f.bias - f.mantBits);
    }
    return static_cast<float>(neg ? -v : v);
}

/// `x` rounded to nearest, ties to even, to the format; `saturate`: beyond the largest finite
/// value and +-inf give +-max, NaN gives 0 unless `keepNan`.
inline uint8_t FloatToFp8(double x, Fp8Format f, bool saturate, bool keepNan)
{
    const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
    const uint8_t overflow = saturate ? Fp8MaxBits(f) : (f.ieeeTop ? 0x7C : 0x7F);
    if (std::isnan(x)) {
        return saturate && !keepNan ? 0 : static_cast<uint8_t>(sign | Fp8NanBits(f));
    }
    if (std::isinf(x)) {
        return static_cast<uint8_t>(sign | overflow);
    }
    const double a = std::fabs(x);
    if (a == 0) {
        return sign;
    }
    int e2 = 0;
    std::frexp(a, &e2);  // a = m * 2^e2, m in [0.5, 1)
    const int exponent = e2 - 1;
    const int quantum = (exponent < 1 - f.bias ? 1 - f.bias : exponent) - f.mantBits;
    const double scaled = std::ldexp(a, -quantum);  // exact
    double k = std::floor(scaled);
    const double rest = scaled - k;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(k, 2.0) != 0)) {
        k += 1;
    }
    int q = quantum;
    auto n = static_cast<int64_t>(k);
    if (n >= (int64_t{1} << (f.mantBits + 1))) {  // carried into the next binade
        n >>= 1;
        q += 1;
    }
    if (n < (int64_t{1} << f.mantBits)) {
        return static_cast<uint8_t>(sign | n);  // subnormal or zero
    }
    const int field = q + f.mantBits + f.bias;
    const int mant = static_cast<int>(n) - (1 << f.mantBits);
    const int top = (1 << (7 - f.mantBits)) - 1;
    const bool beyond = f.ieeeTop ? field >= top : (field > top || (field == top && mant == (1 << f.mantBits) - 1));
    if (beyond) {
        return static_cast<uint8_t>(sign | overflow);
    }
    return static_cast<uint8_t>(sign | (field << f.mantBits) | mant);
}

constexpr uint8_t kHif8Nan = 0x80;
constexpr uint8_t kHif8Inf = 0x6F;
constexpr uint8_t kHif8Max = 0x6E;  // 2^15

/// The exponent field width and mantissa bits of hifloat8's dot field for |E| (E in -15..15).
struct Hif8Layout {
    int dot;       // the D field's value
    int dotBits;   // its width
    int expBits;   // exponent bits (the first: E's sign)
    int mantBits;
};

inline Hif8Layout Hif8LayoutOf(int absExponent)
{
    if (absExponent == 0) {
        return {1, 4, 0, 3};
    }
    if (absExponent == 1) {
        return {1, 3, 1, 3};
    }
    if (absExponent <= 3) {
        return {1, 2, 2, 3};
    }
    if (absExponent <= 7) {
        return {2, 2, 3, 2};
    }
    return {3, 2, 4, 1};
}

/// The float a hifloat8_t bit pattern stands for (exact; 0x80 NaN, 0x6F / 0xEF +-inf).
inline float Hif8ToFloat(uint8_t bits)
{
    if (bits == kHif8Nan) {
        return NAN;
    }
    const bool neg = (bits & 0x80) != 0;
    const int body = bits & 0x7F;
    if (body == kHif8Inf) {
        return neg ? -INFINITY : INFINITY;
    }
    double v = 0;
    if ((body >> 3) == 0) {  // D = 0000: 2^(M - 23), M = 0 zero
        const int m = body & 7;
        v = m == 0 ? 0.0 : std::ldexp(1.0, m - 23);
    } else if ((body >> 3) == 1) {  // D = 0001: E = 0
        v = 1.0 + (body & 7) / 8.0;
    } else {
        int dotBits = 2;
        int expBits = 0;
        int mantBits = 0;
        if ((body >> 4) == 1) {  // D = 001
            dotBits = 3;
            expBits = 1;
            mantBits = 3;
        } else {
            const int dot = body >> 5;  // 01, 10, 11
            expBits = dot + 1;
            mantBits = dot == 1 ? 3 : (dot == 2 ? 2 : 1);
        }
        const int rest = body & ((1 << (7 - dotBits)) - 1);
        const int e = rest >> mantBits;
        const int m = rest & ((1 << mantBits) - 1);
        const bool negExp = ((e >> (expBits - 1)) & 1) != 0;
        const int magnitude = (e & ((1 << (expBits - 1)) - 1)) | (1 << (expBits - 1));
        v = std::ldexp(1.0 + m / static_cast<double>(1 << mantBits), negExp ? -magnitude : magnitude);
    }
    return static_cast<float>(neg ? -v : v);
}

/// `x` converted to hifloat8_t with CAST_ROUND (ties away from zero); `saturate`: overflow and
/// +-inf give +-2^15, NaN 0.
inline uint8_t FloatToHif8Round(double x, bool saturate)
{
    const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
    if (std::isnan(x)) {
        return saturate ? 0 : kHif8Nan;
    }
    const uint8_t overflow = static_cast<uint8_t>(sign | (saturate ? kHif8Max : kHif8Inf));
    const double a = std::fabs(x);
    if (std::isinf(x) || a >= 1.25 * 32768.0) {
        return overflow;
    }
    if (a == 0) {
        return 0;  // both zeros: 0x80 is NaN
    }
    int e2 = 0;
    const double m = std::frexp(a, &e2) * 2.0;  // a = m * 2^exponent, m in [1, 2)
    int exponent = e2 - 1;
    const int mantBits = exponent < -15 ? 0 : Hif8LayoutOf(exponent < 0 ? -exponent : exponent).mantBits;
    const double scaled = std::ldexp(m - 1.0, mantBits);  // exact
    double k = std::floor(scaled);
    if (scaled - k >= 0.5) {
        k += 1;
    }
    int frac = static_cast<int>(k);
    if (frac >= (1 << mantBits)) {  // carried: 2^(exponent + 1)
        exponent += 1;
        frac = 0;
    }
    if (exponent < -22) {
        return 0;
    }
    if (exponent > 15) {
        return overflow;
    }
    if (exponent < -15) {  // D = 0000: 2^(M - 23)
        return static_cast<uint8_t>(sign | (exponent + 23));
    }
    const int absExponent = exponent < 0 ? -exponent : exponent;
    const Hif8Layout l = Hif8LayoutOf(absExponent);
    if (l.expBits == 0) {
        return static_cast<uint8_t>(sign | (1 << 3) | frac);
    }
    const int lowBits = absExponent - (1 << (l.expBits - 1));  // |E| without its leading one
    const int e = ((exponent < 0 ? 1 : 0) << (l.expBits - 1)) | lowBits;
    const int fieldBits = 7 - l.dotBits;
    return static_cast<uint8_t>(sign | (l.dot << fieldBits) | (e << l.mantBits) | frac);
}

}  // namespace ascendc_cpu

namespace ascendc_cpu {

inline float E4M3FNToFloat(uint8_t bits) { return Fp8ToFloat(bits, kE4M3FN); }
inline float E5M2ToFloat(uint8_t bits) { return Fp8ToFloat(bits, kE5M2); }

/// An 8-bit float of Ascend 950, modelled as its bit pattern, read as float by `Decode`.
template <float (*Decode)(uint8_t)>
struct Float8 {
    Float8() = default;
    operator float() const { return Decode(bits_); }  // NOLINT(google-explicit-constructor)
    static constexpr Float8 FromBits(uint8_t bits) { return Float8(bits, Raw{}); }
    constexpr uint8_t ToBits() const { return bits_; }

private:
    struct Raw {};
    constexpr Float8(uint8_t bits, Raw) : bits_(bits) {}
    uint8_t bits_;
};

}  // namespace ascendc_cpu

/// fp8_e4m3fn_t (1-4-3, no inf), fp8_e5m2_t (1-5-2), hifloat8_t (a dot field choosing the
/// exponent and mantissa widths): three distinct types.
using fp8_e4m3fn_t = ascendc_cpu::Float8<ascendc_cpu::E4M3FNToFloat>;
using fp8_e5m2_t = ascendc_cpu::Float8<ascendc_cpu::E5M2ToFloat>;
using hifloat8_t = ascendc_cpu::Float8<ascendc_cpu::Hif8ToFloat>;

static_assert(sizeof(fp8_e4m3fn_t) == 1 && std::is_trivially_copyable<fp8_e4m3fn_t>::value,
    "fp8_e4m3fn_t must be a 1-byte POD");
static_assert(sizeof(fp8_e5m2_t) == 1 && std::is_trivially_copyable<fp8_e5m2_t>::value,
    "fp8_e5m2_t must be a 1-byte POD");
static_assert(sizeof(hifloat8_t) == 1 && std::is_trivially_copyable<hifloat8_t>::value,
    "hifloat8_t must be a 1-byte POD");

#endif  // ASCENDC_CPU_FLOAT8_H
