// ascendc_cpu_vector.h - vector instructions (level-2 "count" interfaces).
//
// Part of the AscendC CPU model (see README.md). Every operation:
//   * checks its operands (ascendc_cpu::CheckUb): 32-byte aligned UB
//     addresses, enough elements, live and correctly synchronised buffers;
//   * touches exactly `count` elements (elements past count are untouched);
//   * reads all inputs before writing the output, so full overlap of dst with
//     a source (dst == src) is fine.
// Floating-point results are IEEE round-to-nearest-even in the tensor's type
// (f16 results computed exactly in double and rounded once; f32 via double,
// where double rounding is innocuous for one + or *). No flush-to-zero.
#ifndef ASCENDC_CPU_VECTOR_H
#define ASCENDC_CPU_VECTOR_H

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

template <typename T>
constexpr bool kIsFloatLike = std::is_same<T, half>::value || std::is_same<T, float>::value;

template <typename T>
constexpr bool kIsArith = kIsFloatLike<T> || std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value;

/// Rounds an exactly (or innocuously) computed double to T.
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
inline T ArithMul(T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        // wrap-around in 32-bit unsigned arithmetic (no signed overflow)
        return static_cast<T>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
    } else {
        return FromDouble<T>(static_cast<double>(static_cast<float>(a)) * static_cast<double>(static_cast<float>(b)));
    }
}

template <typename T>
inline T ArithAdd(T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        // wrap-around in 32-bit unsigned arithmetic (no signed overflow)
        return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    } else {
        return FromDouble<T>(static_cast<double>(static_cast<float>(a)) + static_cast<double>(static_cast<float>(b)));
    }
}

template <typename T>
inline T ArithSub(T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        // wrap-around in 32-bit unsigned arithmetic (no signed overflow)
        return static_cast<T>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
    } else {
        return FromDouble<T>(static_cast<double>(static_cast<float>(a)) - static_cast<double>(static_cast<float>(b)));
    }
}

inline uint32_t CheckCount(const char* api, int64_t count)
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

/// src0 OP src1 with IEEE semantics: NaN makes LT/GT/EQ/LE/GE false and NE true.
inline bool CompareValues(double a, double b, AscendC::CMPMODE mode)
{
    using AscendC::CMPMODE;
    switch (mode) {
        case CMPMODE::LT: return a < b;
        case CMPMODE::GT: return a > b;
        case CMPMODE::EQ: return a == b;
        case CMPMODE::LE: return a <= b;
        case CMPMODE::GE: return a >= b;
        case CMPMODE::NE: return !(a == b);
    }
    return false;
}

template <typename T>
inline double AsDouble(const T& v)
{
    return static_cast<double>(static_cast<float>(v));
}

inline bool MaskBit(const uint8_t* mask, uint64_t i)
{
    return ((mask[i / 8] >> (i % 8)) & 1u) != 0;
}

/// Shared body of the Select overloads; `src1` is null for the scalar form.
template <typename T, typename U>
inline void SelectImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
    const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1, const T& scalar,
    AscendC::SELMODE selMode, uint32_t count)
{
    static_assert(kIsFloatLike<T>, "Select supports half and float");
    static_assert(std::is_integral<U>::value && std::is_unsigned<U>::value, "Select mask must be an unsigned type");
    const char* api = "Select";
    using AscendC::SELMODE;
    if (src1 != nullptr && selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail(api, "VSEL_TENSOR_SCALAR_MODE needs a scalar src1");
    }
    if (src1 == nullptr && selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail(api, "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
    }
    if (count == 0) {
        return;
    }
    const uint32_t perRepeat = kRepeatBytes / sizeof(T);
    const uint64_t maskBits = selMode == SELMODE::VSEL_CMPMASK_SPR ? perRepeat : count;
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    CheckUb(api, "selMask", selMask.cpu_, (maskBits + 7) / 8, Access::kVecRead);
    CheckUb(api, "src0", src0.cpu_, bytes, Access::kVecRead);
    if (src1 != nullptr) {
        CheckUb(api, "src1", src1->cpu_, bytes, Access::kVecRead);
    }
    CheckUb(api, "dst", dst.cpu_, bytes, Access::kVecWrite);
    const uint8_t* m = selMask.cpu_.ptr;
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t bit = selMode == SELMODE::VSEL_CMPMASK_SPR ? i % perRepeat : i;
        const bool take0 = MaskBit(m, bit);
        out[i] = take0 ? Load<T>(src0.cpu_.ptr + i * sizeof(T))
                       : (src1 != nullptr ? Load<T>(src1->cpu_.ptr + i * sizeof(T)) : scalar);
    }
    std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), bytes);
}

inline Rounding ToRounding(AscendC::RoundMode m)
{
    using AscendC::RoundMode;
    switch (m) {
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT: return Rounding::kRint;
        case RoundMode::CAST_FLOOR: return Rounding::kFloor;
        case RoundMode::CAST_CEIL: return Rounding::kCeil;
        case RoundMode::CAST_ROUND: return Rounding::kRound;
        case RoundMode::CAST_TRUNC: return Rounding::kTrunc;
        case RoundMode::CAST_ODD: return Rounding::kOdd;
    }
    return Rounding::kRint;
}

inline const char* RoundModeName(AscendC::RoundMode m)
{
    using AscendC::RoundMode;
    switch (m) {
        case RoundMode::CAST_NONE: return "CAST_NONE";
        case RoundMode::CAST_RINT: return "CAST_RINT";
        case RoundMode::CAST_FLOOR: return "CAST_FLOOR";
        case RoundMode::CAST_CEIL: return "CAST_CEIL";
        case RoundMode::CAST_ROUND: return "CAST_ROUND";
        case RoundMode::CAST_TRUNC: return "CAST_TRUNC";
        case RoundMode::CAST_ODD: return "CAST_ODD";
    }
    return "?";
}

}  // namespace ascendc_cpu

namespace AscendC {

/// dst[i] = scalarValue for i < count (any 2- or 4-byte element type).
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Duplicate supports 2- and 4-byte types");
    const char* api = "Duplicate";
    const uint32_t n = ascendc_cpu::CheckCount(api, count);
    if (n == 0) {
        return;
    }
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, static_cast<uint64_t>(n) * sizeof(T), ascendc_cpu::Access::kVecWrite);
    for (uint32_t i = 0; i < n; ++i) {
        ascendc_cpu::Store<T>(dst.cpu_.ptr + i * sizeof(T), scalarValue);
    }
}

/// dst[i] = src[i] * scalarValue, rounded in T (half, float, int16_t, int32_t).
template <typename T>
inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count)
{
    static_assert(ascendc_cpu::kIsArith<T>, "Muls supports half, float, int16_t, int32_t");
    const T s = scalarValue;
    ascendc_cpu::Unary("Muls", dst, src, count, [s](T a) { return ascendc_cpu::ArithMul(a, s); });
}

/// dst[i] = src[i] + scalarValue, rounded in T (half, float, int16_t, int32_t).
template <typename T>
inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count)
{
    static_assert(ascendc_cpu::kIsArith<T>, "Adds supports half, float, int16_t, int32_t");
    const T s = scalarValue;
    ascendc_cpu::Unary("Adds", dst, src, count, [s](T a) { return ascendc_cpu::ArithAdd(a, s); });
}

/// dst[i] = src0[i] * src1[i], rounded in T.
template <typename T>
inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    const int32_t& count)
{
    static_assert(ascendc_cpu::kIsArith<T>, "Mul supports half, float, int16_t, int32_t");
    ascendc_cpu::Binary("Mul", dst, src0, src1, count, [](T a, T b) { return ascendc_cpu::ArithMul(a, b); });
}

/// dst[i] = src0[i] + src1[i], rounded in T.
template <typename T>
inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    const int32_t& count)
{
    static_assert(ascendc_cpu::kIsArith<T>, "Add supports half, float, int16_t, int32_t");
    ascendc_cpu::Binary("Add", dst, src0, src1, count, [](T a, T b) { return ascendc_cpu::ArithAdd(a, b); });
}

/// dst[i] = src0[i] - src1[i], rounded in T.
template <typename T>
inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    const int32_t& count)
{
    static_assert(ascendc_cpu::kIsArith<T>, "Sub supports half, float, int16_t, int32_t");
    ascendc_cpu::Binary("Sub", dst, src0, src1, count, [](T a, T b) { return ascendc_cpu::ArithSub(a, b); });
}

/// Bit mask of (src0[i] OP src1[i]): element i -> bit i%8 of byte i/8, 1 = true.
/// Rule: count * sizeof(T) must be a multiple of 256 bytes (whole repeats);
/// dst needs count/8 bytes. T: half or float. NaN: see CompareValues.
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    CMPMODE cmpMode, uint32_t count)
{
    static_assert(ascendc_cpu::kIsFloatLike<T>, "Compare supports half and float");
    static_assert(std::is_same<U, uint8_t>::value, "Compare writes a uint8_t mask");
    const char* api = "Compare";
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (bytes % ascendc_cpu::kRepeatBytes != 0) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("count ", count, " x ", sizeof(T),
            " bytes is not a multiple of 256 bytes (only whole repeats are compared)"));
    }
    if (count == 0) {
        return;
    }
    ascendc_cpu::CheckUb(api, "src0", src0.cpu_, bytes, ascendc_cpu::Access::kVecRead);
    ascendc_cpu::CheckUb(api, "src1", src1.cpu_, bytes, ascendc_cpu::Access::kVecRead);
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, count / 8, ascendc_cpu::Access::kVecWrite);
    std::vector<uint8_t> out(count / 8, 0);
    for (uint32_t i = 0; i < count; ++i) {
        const double a = ascendc_cpu::AsDouble(ascendc_cpu::Load<T>(src0.cpu_.ptr + i * sizeof(T)));
        const double b = ascendc_cpu::AsDouble(ascendc_cpu::Load<T>(src1.cpu_.ptr + i * sizeof(T)));
        if (ascendc_cpu::CompareValues(a, b, cmpMode)) {
            out[i / 8] = static_cast<uint8_t>(out[i / 8] | (1u << (i % 8)));
        }
    }
    std::memcpy(dst.cpu_.ptr, out.data(), out.size());
}

/// Bit mask of (src0[i] OP src1Scalar), packed as Compare. Any count; writes
/// ceil(count/8) bytes, bits past count in the last byte are 0.
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
    CMPMODE cmpMode, uint32_t count)
{
    static_assert(ascendc_cpu::kIsFloatLike<T>, "CompareScalar supports half and float");
    static_assert(std::is_same<U, uint8_t>::value, "CompareScalar writes a uint8_t mask");
    const char* api = "CompareScalar";
    if (count == 0) {
        return;
    }
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    const uint32_t maskBytes = (count + 7) / 8;
    ascendc_cpu::CheckUb(api, "src0", src0.cpu_, bytes, ascendc_cpu::Access::kVecRead);
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, maskBytes, ascendc_cpu::Access::kVecWrite);
    const double b = ascendc_cpu::AsDouble(src1Scalar);
    std::vector<uint8_t> out(maskBytes, 0);
    for (uint32_t i = 0; i < count; ++i) {
        const double a = ascendc_cpu::AsDouble(ascendc_cpu::Load<T>(src0.cpu_.ptr + i * sizeof(T)));
        if (ascendc_cpu::CompareValues(a, b, cmpMode)) {
            out[i / 8] = static_cast<uint8_t>(out[i / 8] | (1u << (i % 8)));
        }
    }
    std::memcpy(dst.cpu_.ptr, out.data(), out.size());
}

/// Newer spelling of CompareScalar.
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
    uint32_t count)
{
    CompareScalar(dst, src0, src1Scalar, cmpMode, count);
}

/// dst[i] = bit ? src0[i] : src1[i]. Modes: VSEL_CMPMASK_SPR (bit i % (256 /
/// sizeof(T)) of selMask, i.e. the first repeat's bits reused for every
/// repeat) or VSEL_TENSOR_TENSOR_MODE (bit i). Any count; dst may be src0.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
    const LocalTensor<T>& src1, SELMODE selMode, uint32_t count)
{
    ascendc_cpu::SelectImpl(dst, selMask, src0, &src1, T(), selMode, count);
}

/// dst[i] = bit i ? src0[i] : src1 (scalar); selMode must be
/// VSEL_TENSOR_SCALAR_MODE. Any count; dst may be src0.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
    SELMODE selMode, uint32_t count)
{
    ascendc_cpu::SelectImpl<T, U>(dst, selMask, src0, nullptr, src1, selMode, count);
}

/// Precision conversion of `count` elements. Supported (as on ascend910b):
///   half -> float, bfloat16_t -> float : CAST_NONE only (exact)
///   float -> half      : every mode; CAST_NONE == CAST_RINT
///   float -> bfloat16_t: CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND,
///                        CAST_TRUNC (CAST_NONE and CAST_ODD are violations)
/// Directed modes are bit-exact incl. subnormals, overflow (to inf or the
/// largest finite value as IEEE directed rounding prescribes), NaN (quiet,
/// sign and top payload bits kept) and signed zero.
template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
    const uint32_t count)
{
    constexpr bool kWiden = std::is_same<T, float>::value &&
        (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value);
    constexpr bool kToHalf = std::is_same<T, half>::value && std::is_same<U, float>::value;
    constexpr bool kToBf16 = std::is_same<T, bfloat16_t>::value && std::is_same<U, float>::value;
    static_assert(kWiden || kToHalf || kToBf16,
        "ascendc_cpu Cast models f16->f32, bf16->f32, f32->f16 and f32->bf16 only");
    const char* api = "Cast";
    if constexpr (kWiden) {
        if (roundMode != RoundMode::CAST_NONE) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg(std::is_same<U, half>::value ? "half" : "bfloat16_t",
                " -> float supports CAST_NONE only, got ", ascendc_cpu::RoundModeName(roundMode)));
        }
    }
    if constexpr (kToBf16) {
        if (roundMode == RoundMode::CAST_NONE || roundMode == RoundMode::CAST_ODD) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg("float -> bfloat16_t does not support ",
                ascendc_cpu::RoundModeName(roundMode), " on ascend910b (use CAST_RINT)"));
        }
    }
    if (count == 0) {
        return;
    }
    ascendc_cpu::CheckUb(api, "src", src.cpu_, static_cast<uint64_t>(count) * sizeof(U),
        ascendc_cpu::Access::kVecRead);
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, static_cast<uint64_t>(count) * sizeof(T),
        ascendc_cpu::Access::kVecWrite);
    const ascendc_cpu::Rounding r = ascendc_cpu::ToRounding(roundMode);
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        const U v = ascendc_cpu::Load<U>(src.cpu_.ptr + i * sizeof(U));
        if constexpr (kWiden) {
            out[i] = static_cast<float>(v);
        } else if constexpr (kToHalf) {
            out[i] = half::FromBits(static_cast<uint16_t>(
                ascendc_cpu::RoundDoubleTo(static_cast<double>(v), ascendc_cpu::kF16, r)));
        } else {
            out[i] = bfloat16_t::FromBits(static_cast<uint16_t>(
                ascendc_cpu::RoundDoubleTo(static_cast<double>(v), ascendc_cpu::kBF16, r)));
        }
    }
    std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), static_cast<size_t>(count) * sizeof(T));
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VECTOR_H
