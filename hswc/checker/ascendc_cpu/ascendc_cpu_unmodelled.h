// ascendc_cpu_unmodelled.h - AscendC calls the model refuses to guess.
//
// Part of the AscendC CPU model (see README.md). The hardware results of these
// calls are not exactly specified (the library's transcendental functions
// are approximations documented within 1 ulp at best; the vector unit's Exp,
// Ln, Sqrt, Rsqrt and Reciprocal have one chosen model each, in
// ascendc_cpu_vec_math.h; the multiply-adds do not say whether the
// product is rounded first), so
// a bit-exact model cannot compute them. Every
// overload exists, so a kernel using one compiles up to the call, and the
// call itself is a compile error whose text names it:
//   ascendc_cpu: <Call> is not modelled: its hardware result is not exactly specified
// (a static_assert on a dependent false, so it fires only where the call is
// instantiated). Forms covered: Call(args...), Call<T>(args...),
// Call<T, isSetMask or mode>(args...) and Call<T, isReuseSource, config>(args...); the
// config structs of the library functions (SinConfig, ...) exist with their algorithm enums.
#ifndef ASCENDC_CPU_UNMODELLED_H
#define ASCENDC_CPU_UNMODELLED_H

#include "ascendc_cpu_vec_common.h"

#define ASCENDC_CPU_UNMODELLED(Call)                                                                    \
    template <typename ascendcCpuT = void, typename... ascendcCpuArgs>                                  \
    inline void Call(const ascendcCpuArgs&...)                                                          \
    {                                                                                                   \
        static_assert(::ascendc_cpu::kFalse<ascendcCpuT, ascendcCpuArgs...>,                            \
            "ascendc_cpu: " #Call " is not modelled: its hardware result is not exactly specified");    \
    }                                                                                                   \
    template <typename ascendcCpuT, auto ascendcCpuFlag, typename... ascendcCpuArgs>                    \
    inline void Call(const ascendcCpuArgs&...)                                                          \
    {                                                                                                   \
        static_assert(::ascendc_cpu::kFalse<ascendcCpuT, ascendcCpuArgs...>,                            \
            "ascendc_cpu: " #Call " is not modelled: its hardware result is not exactly specified");    \
    } \
    template <typename ascendcCpuT, auto ascendcCpuFlag, auto ascendcCpuConfig, typename... ascendcCpuArgs> \
    inline void Call(const ascendcCpuArgs&...)                                                          \
    {                                                                                                   \
        static_assert(::ascendc_cpu::kFalse<ascendcCpuT, ascendcCpuArgs...>,                            \
            "ascendc_cpu: " #Call " is not modelled: its hardware result is not exactly specified");    \
    }

namespace AscendC {

// Multiply-adds: whether the product is rounded before the addition is not documented (Ascend
// 950's level-2 Axpy is: fused, ascendc_cpu_vec_arith.h).
#if !defined(ASCENDC_CPU_DAV_3510)
ASCENDC_CPU_UNMODELLED(Axpy)
#endif
ASCENDC_CPU_UNMODELLED(FusedMulAdd)
ASCENDC_CPU_UNMODELLED(FusedMulAddRelu)
ASCENDC_CPU_UNMODELLED(MulAddDst)
ASCENDC_CPU_UNMODELLED(MulAddRelu)
// (The sums ReduceSum, WholeReduceSum and BlockReduceSum are modelled: ascendc_cpu_vec_reduce.h
// and ascendc_cpu_vec_block_reduce.h, their order as asc-devkit documents and implements it.)
// Library functions built on them (adv_api math).
// (Log, the natural logarithm, is modelled as Ln: ascendc_cpu_vec_math.h; Erf and Tanh as the
// sequences of basic calls asc-devkit's implementation runs: ascendc_cpu_vec_library.h; Sigmoid
// likewise: ascendc_cpu_vec_sigmoid.h.)
ASCENDC_CPU_UNMODELLED(Log2)
ASCENDC_CPU_UNMODELLED(Log10)
ASCENDC_CPU_UNMODELLED(Power)
ASCENDC_CPU_UNMODELLED(Erfc)
ASCENDC_CPU_UNMODELLED(Sin)
ASCENDC_CPU_UNMODELLED(Cos)
ASCENDC_CPU_UNMODELLED(Tan)
ASCENDC_CPU_UNMODELLED(Asin)
ASCENDC_CPU_UNMODELLED(Acos)
ASCENDC_CPU_UNMODELLED(Atan)
ASCENDC_CPU_UNMODELLED(Sinh)
ASCENDC_CPU_UNMODELLED(Cosh)
ASCENDC_CPU_UNMODELLED(Asinh)
ASCENDC_CPU_UNMODELLED(Acosh)
ASCENDC_CPU_UNMODELLED(Atanh)
ASCENDC_CPU_UNMODELLED(Fmod)
ASCENDC_CPU_UNMODELLED(Truncate)
// Not modelled yet (exact, but no kernel checked so far needed them). (LeakyRelu's count form
// is modelled: ascendc_cpu_vec_arith.h.)
ASCENDC_CPU_UNMODELLED(Ands)
ASCENDC_CPU_UNMODELLED(Ors)

// The library functions' configurations (asc-devkit adv_api/math/*.h), so that code naming
// them compiles up to the call.
enum class SinAlgo { POLYNOMIAL_APPROXIMATION, RADIAN_REDUCTION };
enum class CosAlgo { POLYNOMIAL_APPROXIMATION, RADIAN_REDUCTION };
enum class AtanAlgo { TAYLOR_EXPANSION, POLYNOMIAL_APPROXIMATION };
enum class SqrtAlgo { INTRINSIC, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE,
    PRECISION_1ULP_FTZ_FALSE };
enum class FmodAlgo { NORMAL, ITERATION_COMPENSATION };
enum class DivAlgo { INTRINSIC, DIFF_COMPENSATION, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
enum class PowerAlgo { DOUBLE_FLOAT_TECH };  // the one value opbase names (not in asc-devkit's include/)
struct SinConfig { SinAlgo algo; };
struct CosConfig { CosAlgo algo; };
struct AtanConfig { AtanAlgo algo; };
struct SqrtConfig { SqrtAlgo algo; };
struct FmodConfig { FmodAlgo algo; uint32_t iterationNum; };
struct DivConfig { DivAlgo algo; };
struct PowerConfig { PowerAlgo algo; };

}  // namespace AscendC

#undef ASCENDC_CPU_UNMODELLED

#endif  // ASCENDC_CPU_UNMODELLED_H
