// ascendc_cpu_vec_cast.h - Cast (precision conversion), level-2 form.
//
// Part of the AscendC CPU model (see README.md). The (src, dst, RoundMode)
// combinations are those of the Atlas A2 table of the Cast documentation
// (docs/zh/api/.../Cast.md, matching impl/basic_api/dav_c220), with the
// rounding rules of its precision-conversion page:
//   * CAST_NONE rounds as CAST_RINT when the conversion loses precision;
//     CAST_ROUND is nearest with ties away from zero, CAST_ODD round-to-odd.
//   * Float results are bit-exact incl. subnormals, overflow (to inf or the
//     largest finite value as IEEE directed rounding prescribes), NaN (quiet,
//     sign and top payload bits kept) and signed zero.
//   * Integer results are rounded to an integer by the mode, then saturated
//     to the destination's range (the documented default overflow mode); an
//     integer narrowed to an unsigned type keeps its low bits, as documented.
//     NaN, and a negative value converted to uint8_t, have no documented
//     result: they are violations.
// A combination outside the table fails to compile; int32_t -> half (which
// takes SetDeqScale's scale) is not modelled. A mode outside the table is a
// run-time violation: the device compiles every mode.
#ifndef ASCENDC_CPU_VEC_CAST_H
#define ASCENDC_CPU_VEC_CAST_H

#include "ascendc_cpu_fn.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_ctrl.h"
#include "ascendc_cpu_vec_common.h"

namespace ascendc_cpu {

/// The RoundModes Cast supports from U to T on the SoC the model is built for (bit i: RoundMode
/// value i; 0: unsupported): its ASCENDC_CAST row of hswc/api_tables.def (ascendc_cpu_api.h).
template <typename T, typename U>
constexpr uint32_t CastModes()
{
    return api::CastTable<U, T>::value;
}

ASCENDC_CPU_FN Rounding ToRounding(AscendC::RoundMode m)
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
        default: break;  // UNKNOWN (exact conversions only) and Ascend 950's modes no conversion here takes
    }
    return Rounding::kRint;
}

ASCENDC_CPU_FN const char* RoundModeName(AscendC::RoundMode m)
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
        case RoundMode::UNKNOWN: return "UNKNOWN";
        default: break;
    }
    return "CAST_HYBRID/CAST_EVEN/CAST_ZERO";
}

ASCENDC_CPU_FN std::string ModeList(uint32_t modes)
{
    std::string s;
    for (uint32_t i = 0; i < 7; ++i) {
        if ((modes >> i) & 1u) {
            s += (s.empty() ? "" : ", ") + std::string(RoundModeName(static_cast<AscendC::RoundMode>(i)));
        }
    }
    return s;
}

/// x rounded to an integral value by `mode` (sign of zero kept), exactly.
ASCENDC_CPU_FN double RoundToIntegral(double x, Rounding mode)
{
    double r = x;
    if (std::fabs(x) < 4503599627370496.0) {  // 2^52: beyond it every double is an integer
        const double lo = std::floor(x);
        const double frac = x - lo;  // exact: in [0, 1)
        switch (mode) {
            case Rounding::kFloor: r = lo; break;
            case Rounding::kCeil: r = frac > 0 ? lo + 1 : lo; break;
            case Rounding::kTrunc: r = x < 0 ? (frac > 0 ? lo + 1 : lo) : lo; break;
            case Rounding::kRound: r = frac > 0.5 || (frac == 0.5 && x > 0) ? lo + 1 : lo; break;
            case Rounding::kRint:
            case Rounding::kOdd:  // not offered for integer results (CastModes)
                r = frac > 0.5 || (frac == 0.5 && std::fmod(lo, 2.0) != 0) ? lo + 1 : lo;
                break;
        }
    }
    return r == 0 ? std::copysign(0.0, x) : r;
}

template <typename T>
constexpr bool kIsFloat8 = kIsOneOf<T, fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t>;

/// The saturation of a Cast to an 8-bit float: the CTRL register's (ascendc_cpu_ctrl.h), or,
/// from a Reg Cast (`sat`: its SatMode, -1 UNKNOWN) in the per-instruction mode, the trait's.
inline Fp8Saturation Float8Saturation(const char* api, int sat)
{
    Fp8Saturation s = CtrlSaturation();
    if (!s.known) {
        if (sat < 0) {
            Fail(api, "a conversion to an 8-bit float with CTRL[60] = 0 (the per-instruction saturation "
                      "mode) and no SatMode: its saturation is not specified");
        }
        s.saturate = sat == 1;
    }
    return s;
}

/// One lane of a Cast to an 8-bit float (CAST_RINT to fp8, CAST_ROUND to hifloat8_t: the only
/// modes the tables list besides CAST_HYBRID, which is refused) from half or float.
template <typename T, typename U>
inline T Float8Lane(const U& v, AscendC::RoundMode m, const Fp8Saturation& s)
{
    const double x = static_cast<double>(static_cast<float>(v));
    if constexpr (std::is_same<T, hifloat8_t>::value) {
        if (m != AscendC::RoundMode::CAST_ROUND) {
            Fail("Cast", "hifloat8_t's CAST_HYBRID (random rounding) is not modelled");
        }
        return T::FromBits(FloatToHif8Round(x, s.saturate));
    } else {
        const Fp8Format f = std::is_same<T, fp8_e4m3fn_t>::value ? kE4M3FN : kE5M2;
        return T::FromBits(FloatToFp8(x, f, s.saturate, s.keepNan));
    }
}

/// One lane of Cast: `v` (a U) converted to T with rounding `r`; `index` names
/// the element in messages.
template <typename T, typename U>
inline T CastLane(const U& v, Rounding r, uint32_t index)
{
    const char* api = "Cast";
    constexpr bool kSrcFloat = kIsOneOf<U, half, bfloat16_t, float>;
    static_assert(!kIsFloat8<T>, "ascendc_cpu: a Cast to an 8-bit float goes through Float8Lane");
    if constexpr (kIsFloat8<U>) {
        return static_cast<T>(static_cast<float>(v));  // exact widening to half or float
    } else if constexpr (std::is_same<T, float>::value && kIsOneOf<U, half, bfloat16_t>) {
        return static_cast<float>(v);  // exact widening, NaN payloads (even signalling) kept as they are
    } else if constexpr (std::is_same<T, float>::value && std::is_same<U, float>::value) {
        return static_cast<float>(RoundToIntegral(AsDouble(v), r));  // float -> float: to an integral value
    } else if constexpr (kIsOneOf<T, half, bfloat16_t, float>) {
        const FloatFormat fmt = std::is_same<T, half>::value ? kF16 : (std::is_same<T, float>::value ? kF32 : kBF16);
        uint32_t bits = 0;
        if constexpr (kSrcFloat) {
            bits = RoundDoubleTo(AsDouble(v), fmt, r);
        } else {
            bits = RoundIntegerTo(static_cast<int64_t>(v), fmt, r);
        }
        if constexpr (std::is_same<T, float>::value) {
            return F32FromBits(bits);
        } else {
            return T::FromBits(static_cast<uint16_t>(bits));
        }
    } else {
        constexpr int64_t lo = static_cast<int64_t>(std::numeric_limits<T>::min());
        constexpr int64_t hi = static_cast<int64_t>(std::numeric_limits<T>::max());
        if constexpr (kSrcFloat) {
            const double x = AsDouble(v);
            if (x != x) {
                Fail(api, Msg(TypeName<U>(), " -> ", TypeName<T>(), " of NaN (element ", index,
                    "): the hardware result is not exactly specified"));
            }
            if (std::is_unsigned<T>::value && x < 0) {
                Fail(api, Msg(TypeName<U>(), " -> ", TypeName<T>(), " of the negative value ", x, " (element ", index,
                    "): the hardware result is not exactly specified"));
            }
            const double y = RoundToIntegral(x, r);
            if (y <= static_cast<double>(lo)) {
                return static_cast<T>(lo);
            }
            if (y >= static_cast<double>(hi)) {  // also 2^63 for int64_t, where hi is not a double
                return static_cast<T>(hi);
            }
            return static_cast<T>(static_cast<int64_t>(y));
        } else {
            // Into a signed type: saturated (int32_t 2^31 - 1 -> int16_t 2^15 - 1); into a
            // narrower unsigned one: its low bits ("高位截断", int16_t / int32_t -> uint8_t), a
            // negative value having no documented result (precision_conversion.md).
            const int64_t x = static_cast<int64_t>(v);
            if constexpr (std::is_unsigned<T>::value) {
                if (x < 0) {
                    Fail(api, Msg(TypeName<U>(), " -> ", TypeName<T>(), " of the negative value ", x, " (element ",
                        index, "): the hardware result is not exactly specified"));
                }
                return static_cast<T>(static_cast<uint64_t>(x));
            } else {
                return static_cast<T>(x < lo ? lo : (x > hi ? hi : x));
            }
        }
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

/// Precision conversion of `count` elements from U to T (see the header
/// comment for the supported combinations and rounding). Elements past count
/// are untouched; dst and src may be the same bytes only if sizeof(T) ==
/// sizeof(U) (the result is formed before it is stored).
template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
    const uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    static_assert(!(std::is_same<T, half>::value && std::is_same<U, int32_t>::value),
        "ascendc_cpu: Cast int32_t -> half is not modelled: its hardware result depends on SetDeqScale");
    constexpr uint32_t kModes = ascendc_cpu::CastModes<T, U>();
    static_assert(kModes != 0 || (std::is_same<T, half>::value && std::is_same<U, int32_t>::value),
        "ascendc_cpu: this Cast source/destination type pair does not exist on " ASCENDC_CPU_SOC_WORDS " (hswc/api_tables.def)");
    const char* api = "Cast";
    if (static_cast<uint32_t>(roundMode) >= 7 || ((kModes >> static_cast<uint32_t>(roundMode)) & 1u) == 0) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg(ascendc_cpu::TypeName<U>(), " -> ", ascendc_cpu::TypeName<T>(),
            " does not support ", ascendc_cpu::RoundModeName(roundMode), " on " ASCENDC_CPU_SOC_WORDS " (supported: ",
            ascendc_cpu::ModeList(kModes), ")"));
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
    if constexpr (ascendc_cpu::kIsFloat8<T>) {
        const ascendc_cpu::Fp8Saturation s = ascendc_cpu::Float8Saturation(api, -1);
        for (uint32_t i = 0; i < count; ++i) {
            out[i] = ascendc_cpu::Float8Lane<T, U>(ascendc_cpu::Load<U>(src.cpu_.ptr + i * sizeof(U)), roundMode, s);
        }
    } else {
        for (uint32_t i = 0; i < count; ++i) {
            out[i] = ascendc_cpu::CastLane<T, U>(ascendc_cpu::Load<U>(src.cpu_.ptr + i * sizeof(U)), r, i);
        }
    }
    std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), static_cast<size_t>(count) * sizeof(T));
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_CAST_H
