// ascendc_cpu_vec_arith.h - elementwise arithmetic, bitwise ops and Duplicate.
//
// Part of the AscendC CPU model (see README.md). Level-2 ("count") forms with
// the signatures of include/basic_api/kernel_operator_vec_{binary,
// binary_scalar,unary,duplicate}_intf.h and the element types the ascend910b
// table (ascendc_cpu_api.h: hswc/api_tables.def, the SoC's column) accepts; any
// other element type fails to compile, and so does a rounding call on
// bfloat16_t whose rounding is documented nowhere (Div; Ascend 950 has it: Add, Sub, Mul and
// Adds, documented as the float result rounded to bf16, and Muls, which 950 runs as Duplicate
// then that Mul, compile there). Lanes
// follow ascendc_cpu_vec_common.h: one IEEE RNE rounding in T, IEEE 754-2019
// maximum/minimum, integer lanes wrap around.
#ifndef ASCENDC_CPU_VEC_ARITH_H
#define ASCENDC_CPU_VEC_ARITH_H

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_vec_common.h"

namespace ascendc_cpu {

/// And/Or take 16-bit lanes. The device compiles other element types too and
/// runs them as `count` int16_t lanes (so uint8_t covers 2*count bytes and
/// int32_t half the elements); its debug build rejects all but int16_t /
/// uint16_t (int32_t / uint32_t with a warning). Here that is a violation after
/// which the run may go on (Defer, --keep-going): the call then does what the
/// device does, on `count` 16-bit lanes, so an operand too short for them is
/// reported next.
/// On Ascend 950 the count form takes every integer type of 1 to 8 bytes, `count` lanes of T
/// (asc-devkit impl/basic_api/dav_3510/kernel_operator_vec_binary_continuous_impl.h).
template <typename T, typename F>
inline void Bitwise(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
    const AscendC::LocalTensor<T>& src1, int64_t count, F f)
{
#if defined(ASCENDC_CPU_DAV_3510)
    constexpr bool kLanesOfT = kIsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
#else
    constexpr bool kLanesOfT = kIsOneOf<T, int16_t, uint16_t>;
#endif
    if constexpr (kLanesOfT) {
        Binary(api, dst, src0, src1, count, f);
    } else {
        Defer(api, Msg("element type ", TypeName<T>(), " is not int16_t/uint16_t: the count form runs `count` "
            "int16_t lanes (2*count bytes); ReinterpretCast<uint16_t>() the operands and count 16-bit lanes"),
            Msg(api, "/type/", TypeName<T>()));
        Binary(api, dst.template ReinterpretCast<uint16_t>(), src0.template ReinterpretCast<uint16_t>(),
            src1.template ReinterpretCast<uint16_t>(), count, f);
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

/// dst[i] = scalarValue for i < count.
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::api::CheckDuplicate<T>();
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

// region binary and scalar forms, one row per op

#define ASCENDC_CPU_BINARY(Name, lane)                                                                    \
    template <typename T>                                                                                \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
        const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())                              \
    {                                                                                                    \
        ascendc_cpu::CallScope call(site);                                                               \
        if constexpr (ascendc_cpu::api::Check##Name<T>()) {                                              \
            ascendc_cpu::Binary(#Name, dst, src0, src1, count, [](T a, T b) { return lane(a, b); });     \
        } else {                                                                                         \
            ascendc_cpu::NotModelledType<T>(#Name);                                                      \
        }                                                                                                \
    }

#define ASCENDC_CPU_SCALAR(Name, lane)                                                                   \
    template <typename T, bool isSetMask = true>                                                         \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,          \
        const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())                              \
    {                                                                                                    \
        ascendc_cpu::CallScope call(site);                                                               \
        if constexpr (ascendc_cpu::api::Check##Name<T>()) {                                              \
            const T s = scalarValue;                                                                     \
            ascendc_cpu::Unary(#Name, dst, src, count, [s](T a) { return lane(a, s); });                 \
        } else {                                                                                         \
            ascendc_cpu::NotModelledType<T>(#Name);                                                      \
        }                                                                                                \
    }

/// dst[i] = src0[i] OP src1[i]: + - * rounded in T, / correctly rounded,
/// maximum / minimum (IEEE 754-2019); element types: the SoC's API table.
ASCENDC_CPU_BINARY(Add, ascendc_cpu::ArithAdd)
ASCENDC_CPU_BINARY(Sub, ascendc_cpu::ArithSub)
ASCENDC_CPU_BINARY(Mul, ascendc_cpu::ArithMul)
ASCENDC_CPU_BINARY(Div, ascendc_cpu::ArithDiv)
ASCENDC_CPU_BINARY(Max, ascendc_cpu::ArithMax)
ASCENDC_CPU_BINARY(Min, ascendc_cpu::ArithMin)

/// dst[i] = src[i] OP scalarValue, as the binary forms.
ASCENDC_CPU_SCALAR(Adds, ascendc_cpu::ArithAdd)
ASCENDC_CPU_SCALAR(Muls, ascendc_cpu::ArithMul)
ASCENDC_CPU_SCALAR(Maxs, ascendc_cpu::ArithMax)
ASCENDC_CPU_SCALAR(Mins, ascendc_cpu::ArithMin)

#undef ASCENDC_CPU_BINARY
#undef ASCENDC_CPU_SCALAR

/// LeakyRelu(dst, src, scalarValue, count): dst[i] = src[i] where it is not below zero, else
/// src[i] * scalarValue rounded once in T (half, float), as Muls (the pages state the formula,
/// not the rounding: assumed). Atlas A2/A3: asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/
/// 基础算术/LeakyRelu.md, "src_i >= 0: src_i", so -0 stays -0. Ascend 950: the count form is the
/// register call (impl/basic_api/dav_3510/kernel_operator_vec_binary_scalar_impl.h,
/// RegLeakyRelu: vlrelu), whose page (Reg矢量计算/基础算术/LeakyRelu.md) says "srcReg_i > 0:
/// srcReg_i, else srcReg_i * scalarValue", so a zero is multiplied too. The two differ only at a
/// zero src with a negative, infinite or NaN scalar. A NaN src gives NaN * scalar: that NaN, quiet.
template <typename T, bool isSetMask = true>
inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if constexpr (ascendc_cpu::api::CheckLeakyRelu<T>()) {
        const T s = scalarValue;
        ascendc_cpu::Unary("LeakyRelu", dst, src, count, [s](T a) {
#if defined(ASCENDC_CPU_DAV_3510)
            const bool kept = ascendc_cpu::AsDouble(a) > 0.0;
#else
            const bool kept = ascendc_cpu::AsDouble(a) >= 0.0;
#endif
            return kept ? a : ascendc_cpu::ArithMul(a, s);
        });
    } else {
        ascendc_cpu::NotModelledType<T>("LeakyRelu");
    }
}

/// dst[i] = src[i] / scalarValue, or scalarValue / src[i] (the scalar may be either operand,
/// asc-devkit's kernel_operator_vec_binary_scalar_intf.h): modelled as Div is, one correctly
/// rounded IEEE division (RNE) in T, the same assumption (the docs promise no exact result), and
/// Div's element types.
template <typename T, bool isSetMask = true>
inline void Divs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if constexpr (ascendc_cpu::api::CheckDiv<T>()) {
        const T s = scalarValue;
        ascendc_cpu::Unary("Divs", dst, src, count, [s](T a) { return ascendc_cpu::ArithDiv(a, s); });
    } else {
        ascendc_cpu::NotModelledType<T>("Divs");
    }
}

template <typename T, bool isSetMask = true>
inline void Divs(const LocalTensor<T>& dst, const T& scalarValue, const LocalTensor<T>& src, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if constexpr (ascendc_cpu::api::CheckDiv<T>()) {
        const T s = scalarValue;
        ascendc_cpu::Unary("Divs", dst, src, count, [s](T a) { return ascendc_cpu::ArithDiv(s, a); });
    } else {
        ascendc_cpu::NotModelledType<T>("Divs");
    }
}

#if defined(ASCENDC_CPU_DAV_3510)
/// Ascend 950's "flexible scalar position" (Divs（灵活标量位置）.md:43, :69): the scalar is one element
/// of a LocalTensor, src1[0] (config.scalarTensorIndex 1, the default) or src0[0] (0), read by the
/// vector unit when the call runs; the other operand is the vector. The element is 32-byte aligned
/// as any LocalTensor operand (the page's parameter table, line 79) and must not overlap dst (its
/// 约束说明, line 102). The division as the scalar forms above.
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};
struct BinaryDefaultType {};

}  // namespace AscendC

namespace ascendc_cpu {

/// The flexible scalar position's element form (above): the scalar is `src1[0]` (`right`) or
/// `src0[0]`, the other operand the vector; dst[i] = lane(vector[i], s) or lane(s, vector[i]).
template <typename E, typename F>
inline void ScalarElement(const char* api, const AscendC::LocalTensor<E>& dst, const AscendC::LocalTensor<E>& src0,
    const AscendC::LocalTensor<E>& src1, int32_t count, bool right, F lane)
{
    const AscendC::LocalTensor<E>& element = right ? src1 : src0;
    const AscendC::LocalTensor<E>& vector = right ? src0 : src1;
    const char* name = right ? "src1" : "src0";
    CheckUb(api, name, element.cpu_, sizeof(E), Access::kVecRead);
    const uint64_t dstBytes = static_cast<uint64_t>(count > 0 ? count : 0) * sizeof(E);
    if (dstBytes > 0 && UbOverlaps(element.cpu_, sizeof(E), dst.cpu_, dstBytes)) {
        Broken(api, Msg("the scalar element ", name, "[0] overlaps dst (", api, "（灵活标量位置）.md: not supported)"),
            Msg(api, "/scalar-element-overlap"));
    }
    const E s = Load<E>(element.cpu_.ptr);
    if (right) {
        Unary(api, dst, vector, count, [s, lane](E a) { return lane(a, s); });
    } else {
        Unary(api, dst, vector, count, [s, lane](E a) { return lane(s, a); });
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

template <typename T = BinaryDefaultType, bool isSetMask = true, const BinaryConfig& config = DEFAULT_BINARY_CONFIG,
    typename E>
inline void Divs(const LocalTensor<E>& dst, const LocalTensor<E>& src0, const LocalTensor<E>& src1,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    static_assert(config.scalarTensorIndex == 0 || config.scalarTensorIndex == 1,
        "Divs: BinaryConfig::scalarTensorIndex is 0 (src0[0]) or 1 (src1[0])");
    if constexpr (ascendc_cpu::api::CheckDiv<E>()) {
        ascendc_cpu::ScalarElement("Divs", dst, src0, src1, count, config.scalarTensorIndex == 1,
            [](E a, E b) { return ascendc_cpu::ArithDiv(a, b); });
    } else {
        ascendc_cpu::NotModelledType<E>("Divs");
    }
}

/// Ascend 950's Subs (asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/基础算术/Subs（灵活标量位置）.md:
/// 950 only, lines 5-13; dst_i = src_i - scalar or scalar - src_i, lines 31-37; the scalar a value or
/// a LocalTensor's element as Divs above, lines 41-44 and 69): modelled as Sub is, one RNE rounding
/// in T (the page states no rounding: assumed, as Adds and Sub), Sub's element types (the page's
/// 数据类型 list, line 86, is Sub's on the 950 less the 8-bit and unsigned types).
template <typename T, bool isSetMask = true>
inline void Subs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if constexpr (ascendc_cpu::api::CheckSub<T>()) {
        const T s = scalarValue;
        ascendc_cpu::Unary("Subs", dst, src, count, [s](T a) { return ascendc_cpu::ArithSub(a, s); });
    } else {
        ascendc_cpu::NotModelledType<T>("Subs");
    }
}

template <typename T, bool isSetMask = true>
inline void Subs(const LocalTensor<T>& dst, const T& scalarValue, const LocalTensor<T>& src, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if constexpr (ascendc_cpu::api::CheckSub<T>()) {
        const T s = scalarValue;
        ascendc_cpu::Unary("Subs", dst, src, count, [s](T a) { return ascendc_cpu::ArithSub(s, a); });
    } else {
        ascendc_cpu::NotModelledType<T>("Subs");
    }
}

template <typename T = BinaryDefaultType, bool isSetMask = true, const BinaryConfig& config = DEFAULT_BINARY_CONFIG,
    typename E>
inline void Subs(const LocalTensor<E>& dst, const LocalTensor<E>& src0, const LocalTensor<E>& src1,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    static_assert(config.scalarTensorIndex == 0 || config.scalarTensorIndex == 1,
        "Subs: BinaryConfig::scalarTensorIndex is 0 (src0[0]) or 1 (src1[0])");
    if constexpr (ascendc_cpu::api::CheckSub<E>()) {
        ascendc_cpu::ScalarElement("Subs", dst, src0, src1, count, config.scalarTensorIndex == 1,
            [](E a, E b) { return ascendc_cpu::ArithSub(a, b); });
    } else {
        ascendc_cpu::NotModelledType<E>("Subs");
    }
}
#endif

#if defined(ASCENDC_CPU_DAV_3510)
/// Ascend 950's level-2 Axpy, dst[i] = scalarValue * src[i] + dst[i], as asc-devkit's
/// impl/basic_api/dav_3510/kernel_operator_vec_ternary_scalar_impl.h computes it: half/half and
/// float/float are MicroAPI Axpy, fused (one rounding: docs/zh/api/附录/Reg矢量计算接口精度标准汇总.md,
/// "同比Fma"); float dst with half src is the exact Cast to float, Muls and Add in float (two
/// roundings). bfloat16_t (Mul then Add in bf16) is refused as every bf16 rounding is; int64_t and
/// uint64_t compile and are refused when they run. The mask/repeat forms are not modelled.
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    constexpr bool kFused = std::is_same<T, U>::value && ascendc_cpu::kIsOneOf<T, half, float>;
    constexpr bool kMixed = std::is_same<T, float>::value && std::is_same<U, half>::value;
    constexpr bool kWide = std::is_same<T, U>::value && ascendc_cpu::kIsOneOf<T, int64_t, uint64_t>;
    static_assert(kFused || kMixed || kWide || (std::is_same<T, U>::value && std::is_same<T, bfloat16_t>::value),
        "Axpy supports (half, half), (float, float), (float, half), (bfloat16_t, bfloat16_t), (int64_t, int64_t), "
        "(uint64_t, uint64_t) on Ascend 950 (dav_3510)");
    static_assert(!std::is_same<T, bfloat16_t>::value,
        "ascendc_cpu: Axpy is not modelled: its bfloat16_t rounding is not documented");
    const char* api = "Axpy";
    if constexpr (kWide) {
        ascendc_cpu::NotModelledType<T>(api);
    } else {
        const uint32_t n = ascendc_cpu::CheckCount(api, count);
        if (n == 0) {
            return;
        }
        ascendc_cpu::CheckUb(api, "src", src.cpu_, static_cast<uint64_t>(n) * sizeof(U), ascendc_cpu::Access::kVecRead);
        ascendc_cpu::CheckUb(api, "dst", dst.cpu_, static_cast<uint64_t>(n) * sizeof(T), ascendc_cpu::Access::kVecRead);
        ascendc_cpu::CheckUb(api, "dst", dst.cpu_, static_cast<uint64_t>(n) * sizeof(T), ascendc_cpu::Access::kVecWrite);
        std::vector<T> out(n);
        for (uint32_t i = 0; i < n; ++i) {
            const U x = ascendc_cpu::Load<U>(src.cpu_.ptr + i * sizeof(U));
            const T d = ascendc_cpu::Load<T>(dst.cpu_.ptr + i * sizeof(T));
            if constexpr (kFused) {
                out[i] = ascendc_cpu::FusedMulAdd(scalarValue, x, d);
            } else {
                const float p = ascendc_cpu::ArithMul(static_cast<float>(x), static_cast<float>(scalarValue));
                out[i] = ascendc_cpu::ArithAdd(p, d);
            }
        }
        std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), static_cast<size_t>(n) * sizeof(T));
    }
}

template <typename T, typename U, bool isSetMask = true, typename M, typename P>
inline void Axpy(const LocalTensor<T>&, const LocalTensor<U>&, const U&, M, const uint8_t, const P&)
{
    static_assert(ascendc_cpu::kFalse<T, M>,
        "ascendc_cpu: Axpy is not modelled: its mask/repeat forms are not (the count form is)");
}
#endif

/// dst[i] = src[i] >> scalarValue (ShiftRight) or << (ShiftLeft), count form (asc-devkit
/// docs/zh/api/SIMD-API/基础API/Memory矢量计算/逻辑计算/ShiftRight.md, ShiftLeft.md): unsigned lanes
/// shift logically, signed lanes right arithmetically (the sign copied in), left shifts fill 0.
/// Atlas A2/A3: int16_t, uint16_t, int32_t, uint32_t, a shift in [0, bits] (else a violation);
/// Ascend 950 also int8_t, uint8_t, int64_t, uint64_t, any shift >= 0. A shift by the width or
/// more gives 0, or -1 for a negative signed lane shifted right (the 950 docs; at exactly the width
/// on A2/A3 the same, assumed).
template <bool kRight, typename T>
inline void ShiftCount(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalarValue,
    const int32_t& count)
{
#if defined(ASCENDC_CPU_DAV_3510)
    static_assert(ascendc_cpu::kIsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>,
        "ShiftLeft/ShiftRight support (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t) on "
        "Ascend 950 (dav_3510)");
    constexpr bool kBounded = false;
#else
    static_assert(ascendc_cpu::kIsOneOf<T, int16_t, uint16_t, int32_t, uint32_t>,
        "ShiftLeft/ShiftRight support (int16_t, uint16_t, int32_t, uint32_t) on Atlas A2/A3 (dav_c220)");
    constexpr bool kBounded = true;
#endif
    constexpr int64_t kBits = static_cast<int64_t>(sizeof(T)) * 8;
    const int64_t k = static_cast<int64_t>(scalarValue);
    if (k < 0 || (kBounded && k > kBits)) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("shift ", k, " outside [0, ", kBounded ? kBits : INT64_MAX, "] for ",
            ascendc_cpu::TypeName<T>()));
    }
    ascendc_cpu::Unary(api, dst, src, count, [k](T a) {
        using W = typename std::make_unsigned<T>::type;
        if (k >= kBits) {
            return (kRight && std::is_signed<T>::value && a < 0) ? static_cast<T>(-1) : T(0);
        }
        if constexpr (kRight) {
            if constexpr (std::is_signed<T>::value) {
                return static_cast<T>(a < 0 ? ~(~a >> k) : (a >> k));  // arithmetic, without relying on >>'s sign
            } else {
                return static_cast<T>(a >> k);
            }
        } else {
            return static_cast<T>(static_cast<W>(static_cast<W>(a) << k));
        }
    });
}

template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ShiftCount<true>("ShiftRight", dst, src, scalarValue, count);
}

template <typename T, bool isSetMask = true>
inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ShiftCount<false>("ShiftLeft", dst, src, scalarValue, count);
}

/// dst[i] = src0[i] & src1[i] on 16-bit lanes (int16_t, uint16_t; see Bitwise).
template <typename T>
inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::Bitwise("And", dst, src0, src1, count, [](auto a, auto b) { return static_cast<decltype(a)>(a & b); });
}

/// dst[i] = src0[i] | src1[i] on 16-bit lanes (int16_t, uint16_t; see Bitwise).
template <typename T>
inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    const int32_t& count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::Bitwise("Or", dst, src0, src1, count, [](auto a, auto b) { return static_cast<decltype(a)>(a | b); });
}

// endregion

// region unary

/// dst[i] = |src[i]|: the sign bit cleared (half, float; NaN stays NaN).
template <typename T>
inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::api::CheckAbs<T>();
    ascendc_cpu::Unary("Abs", dst, src, count, [](T a) {
        if constexpr (std::is_same<T, half>::value) {
            return half::FromBits(static_cast<uint16_t>(a.ToBits() & 0x7FFFu));
        } else {
            return ascendc_cpu::F32FromBits(ascendc_cpu::F32Bits(a) & 0x7FFFFFFFu);
        }
    });
}

/// dst[i] = maximum(src[i], +0) (IEEE 754-2019: Relu(-0) = +0, Relu(NaN) = NaN;
/// half, float, int32_t).
template <typename T>
inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::api::CheckRelu<T>();
    ascendc_cpu::Unary("Relu", dst, src, count, [](T a) { return ascendc_cpu::ArithMax(a, T(0)); });
}

/// dst[i] = ~src[i] (int16_t, uint16_t).
template <typename T>
inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::api::CheckNot<T>();
    ascendc_cpu::Unary("Not", dst, src, count, [](T a) { return static_cast<T>(~a); });
}

// endregion

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_ARITH_H
