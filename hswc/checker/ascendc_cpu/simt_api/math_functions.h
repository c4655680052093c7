// simt_api/math_functions.h - the SIMT math functions, refused where a kernel calls one: their
// results are documented within 1 ulp or more at best (asc-devkit docs/zh/api/附录/
// SIMT接口精度标准汇总.md), and erfcinvf and its kin are built on such functions
// (impl/simt_api/math_functions_impl.h), so the model has no exact result for them
// (../ascendc_cpu_simt.h). erfinvf alone runs, as the implementation composes it from log2f and
// rsqrtf on the model's assumed versions of those two (below). The names libc also declares (expf, ...) are macros
// here, so that a SIMT kernel's call does not silently run the host's libm; <cmath> is included
// first, so that its own declarations are read before the macros exist.
#ifndef ASCENDC_CPU_SIMT_MATH_FUNCTIONS_H
#define ASCENDC_CPU_SIMT_MATH_FUNCTIONS_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "../ascendc_cpu_simt.h"
#include "../ascendc_cpu_vec_common.h"
#include "../ascendc_cpu_vec_math.h"

// One function a name, whose call is a compile error naming it (a static_assert on a dependent false).
#define ASCENDC_CPU_SIMT_MATH(function, name)                                                           \
    template <typename... Args>                                                                         \
    inline float function(Args...)                                                                      \
    {                                                                                                   \
        static_assert(::ascendc_cpu::kFalse<float, Args...>, "ascendc_cpu: " #name " is not modelled: "  \
            "the SIMT math functions are documented within 1 ulp at best (SIMT接口精度标准汇总.md), "          \
            "erfinvf's kin built on them");                                                             \
        return 0.0f;                                                                                    \
    }
ASCENDC_CPU_SIMT_MATH(erfcinvf, erfcinvf)
ASCENDC_CPU_SIMT_MATH(erfcxf, erfcxf)
ASCENDC_CPU_SIMT_MATH(rsqrtf, rsqrtf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_exp10f, exp10f)
ASCENDC_CPU_SIMT_MATH(normcdff, normcdff)
ASCENDC_CPU_SIMT_MATH(normcdfinvf, normcdfinvf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_expf, expf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_exp2f, exp2f)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_expm1f, expm1f)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_logf, logf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_log2f, log2f)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_log10f, log10f)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_log1pf, log1pf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_powf, powf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_sinf, sinf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_cosf, cosf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_tanf, tanf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_tanhf, tanhf)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_erff, erff)
ASCENDC_CPU_SIMT_MATH(ascendc_cpu_simt_erfcf, erfcf)
#undef ASCENDC_CPU_SIMT_MATH

namespace ascendc_cpu {

/// SIMT log2f as the model takes it: log2 of the float, in double, rounded once to float
/// (assumed: SIMT接口精度标准汇总.md gives it 1 ulp, not its bits; the vector Ln is modelled alike,
/// ascendc_cpu_vec_math.h). A negative or NaN operand gives NaN, 0 gives -inf.
inline float SimtLog2(float v)
{
    if (IsNan(v) || v < 0.0f) {
        return IsNan(v) ? Quiet(v) : std::numeric_limits<float>::quiet_NaN();
    }
    return v == 0.0f ? -std::numeric_limits<float>::infinity() : FromDouble<float>(std::log2(static_cast<double>(v)));
}

}  // namespace ascendc_cpu

/// SIMT erfinvf as asc-devkit's impl/simt_api/math_functions_impl.h:1539-1570 composes it, step for
/// step: t = fmaf(x, -x, 1), l = log2f(t); where l < -8.2 a degree-5 polynomial in r = rsqrtf(-l)
/// (fmaf steps) times 1 / r, with x's sign bit OR-ed in; else a degree-9 polynomial in -l (fmaf
/// steps) times x. fmaf is one fused rounding (std::fmaf), 1 / r and the products one IEEE rounding
/// each; log2f is SimtLog2 above and rsqrtf the model's Rsqrt (ascendc_cpu_vec_math.h MathRsqrt):
/// both assumed, so the result is the implementation's sequence on those models, not the device's
/// bits (a kernel's erfinv is compared within a tolerance).
inline float erfinvf(float x)
{
    const float l = ::ascendc_cpu::SimtLog2(std::fmaf(x, -x, 1.0f));
    const float m = -l;
    if (l < -8.2f) {
        const float r = ::ascendc_cpu::MathRsqrt(m);
        static constexpr float kTail[] = {-0.6630042f, 1.5970111f, -0.67521554f, -0.09522479f, 0.83535343f};
        float p = -0.5899144f;
        for (const float c : kTail) {
            p = std::fmaf(p, r, c);
        }
        const float magnitude = (1.0f / r) * p;
        uint32_t bits = 0;
        uint32_t sign = 0;
        std::memcpy(&bits, &magnitude, 4);
        std::memcpy(&sign, &x, 4);
        bits |= sign & 0x80000000u;
        float out = 0.0f;
        std::memcpy(&out, &bits, 4);
        return out;
    }
    static constexpr float kCentral[] = {9.427429e-9f, -1.2054752e-7f, 2.1697005e-7f, 0.0000080621484f,
        -0.000031675492f, -0.0007743631f, 0.005546588f, 0.16082023f, 0.8862269f};
    float p = -2.5172708e-10f;
    for (const float c : kCentral) {
        p = std::fmaf(p, m, c);
    }
    return p * x;
}

#define expf(...) ascendc_cpu_simt_expf(__VA_ARGS__)
#define exp10f(...) ascendc_cpu_simt_exp10f(__VA_ARGS__)
#define exp2f(...) ascendc_cpu_simt_exp2f(__VA_ARGS__)
#define expm1f(...) ascendc_cpu_simt_expm1f(__VA_ARGS__)
#define logf(...) ascendc_cpu_simt_logf(__VA_ARGS__)
#define log2f(...) ascendc_cpu_simt_log2f(__VA_ARGS__)
#define log10f(...) ascendc_cpu_simt_log10f(__VA_ARGS__)
#define log1pf(...) ascendc_cpu_simt_log1pf(__VA_ARGS__)
#define powf(...) ascendc_cpu_simt_powf(__VA_ARGS__)
#define sinf(...) ascendc_cpu_simt_sinf(__VA_ARGS__)
#define cosf(...) ascendc_cpu_simt_cosf(__VA_ARGS__)
#define tanf(...) ascendc_cpu_simt_tanf(__VA_ARGS__)
#define tanhf(...) ascendc_cpu_simt_tanhf(__VA_ARGS__)
#define erff(...) ascendc_cpu_simt_erff(__VA_ARGS__)
#define erfcf(...) ascendc_cpu_simt_erfcf(__VA_ARGS__)

#endif  // ASCENDC_CPU_SIMT_MATH_FUNCTIONS_H
