// ascendc_cpu_vec_math.h - the vector math instructions: Exp, Ln, Sqrt, Rsqrt, Reciprocal (and
// the library's Log, modelled as Ln).
//
// Part of the AscendC CPU model (see README.md). Level-2 ("count") forms of
// include/basic_api/kernel_operator_vec_unary_intf.h for half and float. The
// hardware's bits are not published; each instruction is modelled as in
// hswc/math_semantics.py, which the interpreter runs: the function evaluated
// in double by a fixed algorithm of IEEE +, -, *, /, sqrt, nearbyint, frexp
// and ldexp (no libm transcendental), then rounded once (RNE) to T. Both
// sides perform the same double operations in the same order, so they give
// the same bits (the build must not contract a*b+c into a fused multiply-add:
// x86-64's baseline has none, and the functions below keep every product and
// sum in its own statement). A NaN input gives that NaN quieted; an invalid
// one (Ln, Sqrt or Rsqrt of a number below zero) the positive quiet NaN.
// Reciprocal is 1 / x correctly rounded (assumed; it is not in hswc's
// interpreter, which divides with Div).
#ifndef ASCENDC_CPU_VEC_MATH_H
#define ASCENDC_CPU_VEC_MATH_H

#include "ascendc_cpu_fn.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_api.h"

namespace ascendc_cpu {

constexpr double kLn2Hi = 0x1.62e42feep-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;
constexpr double kExpClamp = 200.0;

/// exp(x) in double: x = k ln2 + r (Cody and Waite), exp(r) by its Taylor
/// polynomial to r^13 (coefficients 1/n!, each a correctly rounded quotient),
/// times 2^k. As math_semantics.exp_double.
ASCENDC_CPU_FN double ExpDouble(double x)
{
    if (x < -kExpClamp) {
        x = -kExpClamp;
    } else if (x > kExpClamp) {
        x = kExpClamp;
    }
    const double k = std::nearbyint(x * kInvLn2);
    double r = x - k * kLn2Hi;
    r = r - k * kLn2Lo;
    double factorial = 1.0;
    for (int n = 2; n <= 13; ++n) {
        factorial *= n;
    }
    double p = 1.0 / factorial;  // 1/13!
    for (int n = 12; n >= 0; --n) {
        factorial /= (n + 1);  // n! exactly: each n! < 2^53
        p = p * r;
        p = p + 1.0 / factorial;
    }
    return std::ldexp(p, static_cast<int>(k));
}

/// ln(x) in double for finite x > 0: x = m 2^e, m in [sqrt(1/2), sqrt(2)),
/// e ln2 + 2 atanh((m-1)/(m+1)) by its series to z^12. As math_semantics.ln_double.
ASCENDC_CPU_FN double LnDouble(double x)
{
    int e = 0;
    double m = std::frexp(x, &e);
    if (m < kSqrtHalf) {
        m = m + m;
        e -= 1;
    }
    const double s = (m - 1.0) / (m + 1.0);
    const double z = s * s;
    double q = 1.0 / 25.0;
    for (int n = 11; n >= 0; --n) {
        q = q * z;
        q = q + 1.0 / (2 * n + 1);
    }
    const double t = s * q;
    const double logM = t + t;
    const double ef = static_cast<double>(e);
    double lo = ef * kLn2Lo;
    lo = lo + logM;
    const double hi = ef * kLn2Hi;
    return hi + lo;
}

template <typename T>
inline T PositiveQuietNan()
{
    return FromDouble<T>(std::numeric_limits<double>::quiet_NaN());
}

template <typename T>
inline T MathExp(T a)
{
    if (IsNan(a)) {
        return Quiet(a);
    }
    return FromDouble<T>(ExpDouble(AsDouble(a)));
}

template <typename T>
inline T MathLn(T a)
{
    if (IsNan(a)) {
        return Quiet(a);
    }
    const double x = AsDouble(a);
    if (x < 0) {
        return PositiveQuietNan<T>();
    }
    if (x == 0) {
        return FromDouble<T>(-std::numeric_limits<double>::infinity());
    }
    if (std::isinf(x)) {
        return a;
    }
    return FromDouble<T>(LnDouble(x));
}

template <typename T>
inline T MathSqrt(T a)
{
    if (IsNan(a)) {
        return Quiet(a);
    }
    const double x = AsDouble(a);
    return x < 0 ? PositiveQuietNan<T>() : FromDouble<T>(std::sqrt(x));
}

template <typename T>
inline T MathRsqrt(T a)
{
    if (IsNan(a)) {
        return Quiet(a);
    }
    const double x = AsDouble(a);
    return x < 0 ? PositiveQuietNan<T>() : FromDouble<T>(1.0 / std::sqrt(x));
}

}  // namespace ascendc_cpu

namespace AscendC {

#define ASCENDC_CPU_MATH(Name, lane)                                                                     \
    template <typename T, bool isSetMask = true>                                                         \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,          \
        ascendc_cpu::Site site = ascendc_cpu::Site())                                                    \
    {                                                                                                    \
        ascendc_cpu::CallScope call(site);                                                               \
        ascendc_cpu::api::Check##Name<T>();                                                              \
        ascendc_cpu::Unary(#Name, dst, src, count, [](T a) { return lane(a); });                         \
    }

/// dst[i] = e^src[i], ln(src[i]), sqrt(src[i]), 1/sqrt(src[i]), 1/src[i],
/// each rounded once to T (the models above).
ASCENDC_CPU_MATH(Exp, ascendc_cpu::MathExp)
ASCENDC_CPU_MATH(Ln, ascendc_cpu::MathLn)
ASCENDC_CPU_MATH(Sqrt, ascendc_cpu::MathSqrt)
ASCENDC_CPU_MATH(Rsqrt, ascendc_cpu::MathRsqrt)
ASCENDC_CPU_MATH(Reciprocal, [](T a) { return ascendc_cpu::ArithDiv(T(1), a); })

#undef ASCENDC_CPU_MATH

/// The library's natural logarithm (adv_api/math/log.h; opbase's ATVOSS Vec::Log calls it): the
/// same model as Ln, lane for lane (the library documents an approximation, not its bits), Ln's
/// element types. `Log(dst, src)` takes all of src. Log2 and Log10 stay refused
/// (ascendc_cpu_unmodelled.h).
template <typename T, bool isReuseSource = false>
inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::api::CheckLn<T>();
    ascendc_cpu::Unary("Log", dstTensor, srcTensor, calCount, [](T a) { return ascendc_cpu::MathLn(a); });
}

template <typename T, bool isReuseSource = false>
inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_MATH_H
