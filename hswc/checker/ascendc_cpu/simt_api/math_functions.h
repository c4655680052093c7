// simt_api/math_functions.h - the SIMT math functions, refused where a kernel calls one: their
// results are documented within 1 ulp or more at best (asc-devkit docs/zh/api/附录/
// SIMT接口精度标准汇总.md), and erfinvf and its kin are built on such functions
// (impl/simt_api/math_functions_impl.h: erfinvf on log2f and rsqrtf), so the model has no exact
// result for them (../ascendc_cpu_simt.h). The names libc also declares (expf, ...) are macros
// here, so that a SIMT kernel's call does not silently run the host's libm; <cmath> is included
// first, so that its own declarations are read before the macros exist.
#ifndef ASCENDC_CPU_SIMT_MATH_FUNCTIONS_H
#define ASCENDC_CPU_SIMT_MATH_FUNCTIONS_H

#include <cmath>

#include "../ascendc_cpu_simt.h"
#include "../ascendc_cpu_vec_common.h"

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
ASCENDC_CPU_SIMT_MATH(erfinvf, erfinvf)
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
