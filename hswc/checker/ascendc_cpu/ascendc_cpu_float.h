// ascendc_cpu_float.h - bit-exact binary16 / bfloat16 types and rounding.
//
// Part of the AscendC CPU model (see README.md). Plain C++17, no compiler
// half-precision extensions.
//
// Everything here is exact integer arithmetic on bit patterns:
//   * RoundDoubleTo(v, fmt, mode) rounds any double to a binary format with
//     `mantBits` stored mantissa bits and `expBits` exponent bits (f16, bf16,
//     f32) with one of the six AscendC rounding behaviours, handling signed
//     zero, subnormals, overflow and NaN; RoundIntegerTo does the same for
//     any int64 (exactly, also beyond 2^53).
//   * Decoding f16 / bf16 to float is exact.
// Arithmetic on f16/f32 in the vector model (ascendc_cpu_vec_*.h) is one
// double operation followed by exactly one call of RoundDoubleTo. For f16 the
// double result of +, -, * is exact; for f32 it may not be, nor is / for
// either. It is still the correctly rounded result in T: the double result is
// the correctly rounded (RNE) double of the exact one, and rounding a
// correctly rounded p'-bit result again to p bits gives the correctly rounded
// p-bit result for +, -, *, / whenever p' >= 2p + 2 (Figueroa, "When is double
// rounding innocuous?", 1995): 53 >= 2*24 + 2 for f32 and 53 >= 2*11 + 2 for
// f16. Results that are subnormal in T are covered too: a subnormal quotient
// a/b is at least 2^-48 (relatively) away from every midpoint of T's
// subnormal grid unless it lies on one, far more than double's 2^-53, and a
// sum or product that is subnormal in T is exact in double. No double result
// of two f16/f32 operands is subnormal or infinite in double.
#ifndef ASCENDC_CPU_FLOAT_H
#define ASCENDC_CPU_FLOAT_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ascendc_cpu {

/// The rounding behaviours of AscendC's RoundMode (CAST_NONE maps to kRint
/// where it is legal; see Cast in ascendc_cpu_vector.h).
enum class Rounding {
    kRint,   ///< to nearest, ties to even (IEEE default)
    kFloor,  ///< toward -infinity
    kCeil,   ///< toward +infinity
    kRound,  ///< to nearest, ties away from zero
    kTrunc,  ///< toward zero
    kOdd,    ///< round to odd ("Von Neumann"): truncate, then set LSB if inexact
};

/// A binary floating-point format: 1 sign bit, expBits, mantBits (stored).
struct FloatFormat {
    int mantBits;
    int expBits;
};
constexpr FloatFormat kF16{10, 5};
constexpr FloatFormat kBF16{7, 8};
constexpr FloatFormat kF32{23, 8};

// Every function here is constexpr (C++17: loops, switches, no uninitialised locals), so that
// `constexpr half h = half(1.67)` and ATVOSS's `static constexpr half value = 0.0` compile as they
// do for the device compiler. The bit casts are GCC's and Clang's `__builtin_bit_cast` (constexpr
// also in C++17 mode, GCC >= 11, Clang >= 9), the C++17 spelling of C++20's std::bit_cast.
constexpr uint64_t DoubleBits(double v)
{
    return __builtin_bit_cast(uint64_t, v);
}

constexpr int HighestBit(uint64_t v)  // v != 0
{
    int p = 63;
    while (((v >> p) & 1u) == 0) {
        --p;
    }
    return p;
}

/// Rounds the finite nonzero value (-1)^neg * sig * 2^exp2 (any sig > 0 that
/// fits 64 bits) to `fmt` with rounding `mode`; returns the bit pattern in the
/// low (1 + expBits + mantBits) bits.
///   * Overflow: kRint/kRound -> inf; kTrunc/kOdd -> max finite;
///     kFloor -> +max / -inf; kCeil -> +inf / -max (IEEE directed rounding).
///   * Subnormal results are produced (no flush to zero).
constexpr uint32_t RoundScaled(bool neg, uint64_t sig, int exp2, FloatFormat fmt, Rounding mode)
{
    const int mantBits = fmt.mantBits;
    const int expBits = fmt.expBits;
    const int bias = (1 << (expBits - 1)) - 1;
    const uint32_t expAll = (1u << expBits) - 1u;
    const uint32_t mantMask = (1u << mantBits) - 1u;
    const uint32_t sign = neg ? (1u << (mantBits + expBits)) : 0u;

    const int lg = HighestBit(sig) + exp2;  // floor(log2 |v|)
    const int emin = 1 - bias;
    const int emax = bias;
    int te = lg < emin ? emin : lg;            // exponent of the result's binade
    const int shift = exp2 - (te - mantBits);  // r = |v| / quantum = sig * 2^shift

    uint64_t r = 0;
    bool inexact = false;
    int vsHalf = -1;  // remainder compared with half a quantum: -1 below, 0 equal, 1 above
    if (shift >= 0) {
        r = sig << shift;  // exact; r < 2^(mantBits+1)
    } else if (-shift >= 64) {
        r = 0;  // the whole of sig is the remainder; half a quantum is 2^(-shift-1) >= 2^63
        inexact = true;
        const uint64_t top = uint64_t{1} << 63;
        vsHalf = -shift > 64 || sig < top ? -1 : (sig == top ? 0 : 1);
    } else {
        const int k = -shift;
        r = sig >> k;
        const uint64_t rem = sig & ((uint64_t{1} << k) - 1u);
        const uint64_t half = uint64_t{1} << (k - 1);
        inexact = rem != 0;
        vsHalf = rem < half ? -1 : (rem == half ? 0 : 1);
    }

    bool increment = false;
    switch (mode) {
        case Rounding::kRint:
            increment = inexact && (vsHalf > 0 || (vsHalf == 0 && (r & 1u) != 0));
            break;
        case Rounding::kRound:
            increment = inexact && vsHalf >= 0;
            break;
        case Rounding::kTrunc:
            break;
        case Rounding::kFloor:
            increment = inexact && neg;
            break;
        case Rounding::kCeil:
            increment = inexact && !neg;
            break;
        case Rounding::kOdd:
            if (inexact) {
                r |= 1u;
            }
            break;
    }
    if (increment) {
        ++r;
    }
    if (r == (uint64_t{1} << (mantBits + 1))) {
        r >>= 1;
        ++te;
    }

    if (te > emax) {
        bool toInf = false;
        switch (mode) {
            case Rounding::kRint:
            case Rounding::kRound:
                toInf = true;
                break;
            case Rounding::kTrunc:
            case Rounding::kOdd:
                toInf = false;
                break;
            case Rounding::kFloor:
                toInf = neg;
                break;
            case Rounding::kCeil:
                toInf = !neg;
                break;
        }
        if (toInf) {
            return sign | (expAll << mantBits);
        }
        return sign | ((expAll - 1u) << mantBits) | mantMask;  // largest finite
    }

    const uint32_t mant = static_cast<uint32_t>(r) & mantMask;
    const uint32_t expField = (r >> mantBits) != 0 ? static_cast<uint32_t>(te + bias) : 0u;  // subnormal
    return sign | (expField << mantBits) | mant;
}

/// Rounds `v` to `fmt` with rounding `mode` (see RoundScaled); also:
///   * NaN -> quiet NaN, sign and top payload bits kept.
///   * +-inf -> +-inf; +-0 -> +-0.
constexpr uint32_t RoundDoubleTo(double v, FloatFormat fmt, Rounding mode)
{
    const int mantBits = fmt.mantBits;
    const uint32_t expAll = (1u << fmt.expBits) - 1u;
    const uint64_t b = DoubleBits(v);
    const bool neg = (b >> 63) != 0;
    const uint32_t sign = neg ? (1u << (mantBits + fmt.expBits)) : 0u;
    const int e = static_cast<int>((b >> 52) & 0x7FFu);
    const uint64_t m = b & ((uint64_t{1} << 52) - 1u);
    if (e == 0x7FF) {
        if (m == 0) {
            return sign | (expAll << mantBits);  // infinity
        }
        const uint32_t payload = static_cast<uint32_t>(m >> (52 - mantBits));
        return sign | (expAll << mantBits) | payload | (1u << (mantBits - 1));  // quiet NaN
    }
    if (e == 0 && m == 0) {
        return sign;  // signed zero
    }
    if (e == 0) {
        return RoundScaled(neg, m, -1074, fmt, mode);  // subnormal double
    }
    return RoundScaled(neg, m | (uint64_t{1} << 52), e - 1075, fmt, mode);
}

/// Rounds any int64 (exactly, even beyond 2^53) to `fmt`; 0 gives +0.
constexpr uint32_t RoundIntegerTo(int64_t v, FloatFormat fmt, Rounding mode)
{
    if (v == 0) {
        return 0;
    }
    const bool neg = v < 0;
    const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return RoundScaled(neg, mag, 0, fmt, mode);
}

/// Exact binary16 -> float.
constexpr float F16BitsToFloat(uint16_t h)
{
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    const uint32_t mant = h & 0x3FFu;
    uint32_t bits = 0;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else if (exp != 0) {
        bits = sign | ((exp - 15u + 127u) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign;
    } else {
        // subnormal: mant * 2^-24, normalise
        int p = HighestBit(mant);  // 0..9
        const uint32_t fexp = static_cast<uint32_t>(p - 24 + 127);
        const uint32_t fmant = (mant << (23 - p)) & 0x7FFFFFu;
        bits = sign | (fexp << 23) | fmant;
    }
    return __builtin_bit_cast(float, bits);
}

/// Exact bfloat16 -> float.
constexpr float BF16BitsToFloat(uint16_t h)
{
    return __builtin_bit_cast(float, static_cast<uint32_t>(h) << 16);
}

constexpr float F32FromBits(uint32_t bits)
{
    return __builtin_bit_cast(float, bits);
}

constexpr uint32_t F32Bits(float f)
{
    return __builtin_bit_cast(uint32_t, f);
}

/// Correctly rounded (RNE) double -> float, bit-exact and independent of
/// the host's floating-point environment.
constexpr float RoundToF32(double v)
{
    return F32FromBits(RoundDoubleTo(v, kF32, Rounding::kRint));
}

}  // namespace ascendc_cpu

/// IEEE binary16, modelled as a 2-byte trivially copyable struct.
/// Implicit conversions: from any arithmetic type (round to nearest even,
/// via an exact widening to double) and to float (exact).
struct half {
    half() = default;
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>
    constexpr half(U v)  // NOLINT(google-explicit-constructor): mirrors the device type
        : bits_(static_cast<uint16_t>(ascendc_cpu::RoundDoubleTo(static_cast<double>(v), ascendc_cpu::kF16,
              ascendc_cpu::Rounding::kRint)))
    {}
    constexpr operator float() const { return ascendc_cpu::F16BitsToFloat(bits_); }  // NOLINT
    static constexpr half FromBits(uint16_t bits) { return half(bits, Raw{}); }
    constexpr uint16_t ToBits() const { return bits_; }

private:
    struct Raw {};
    constexpr half(uint16_t bits, Raw) : bits_(bits) {}
    uint16_t bits_;
};

/// bfloat16 (1-8-7), modelled like `half`.
struct bfloat16_t {
    bfloat16_t() = default;
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>
    constexpr bfloat16_t(U v)  // NOLINT(google-explicit-constructor)
        : bits_(static_cast<uint16_t>(ascendc_cpu::RoundDoubleTo(static_cast<double>(v), ascendc_cpu::kBF16,
              ascendc_cpu::Rounding::kRint)))
    {}
    constexpr operator float() const { return ascendc_cpu::BF16BitsToFloat(bits_); }  // NOLINT
    static constexpr bfloat16_t FromBits(uint16_t bits) { return bfloat16_t(bits, Raw{}); }
    constexpr uint16_t ToBits() const { return bits_; }

private:
    struct Raw {};
    constexpr bfloat16_t(uint16_t bits, Raw) : bits_(bits) {}
    uint16_t bits_;
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable<half>::value, "half must be a 2-byte POD");
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable<bfloat16_t>::value,
    "bfloat16_t must be a 2-byte POD");

/// Device spellings of the IEEE types.
using float16_t = half;
using float32_t = float;

/// `__bf16` is the device compiler's built-in bfloat16 type, the type AscendC's `bfloat16_t`
/// names: kernels dispatch with `std::is_same_v<T, __bf16>` on T = bfloat16_t (ops-nn's
/// experimental gelu and mish), which selects their bf16 path only if the two are one type.
/// g++ before 13 has no `__bf16` on x86, and a compiler that has one would make it a type other
/// than the model's bfloat16_t, so it is the model's type, by a macro (a keyword cannot be
/// aliased). <cmath> and <limits>, whose newer versions name a native `__bf16`, are included first.
#define __bf16 bfloat16_t

#include "ascendc_cpu_float8.h"

#endif  // ASCENDC_CPU_FLOAT_H
