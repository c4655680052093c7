// ascendc_cpu_vec_library.h - the library's Erf and Tanh (adv_api/math), as the sequences of
// vector instructions asc-devkit's implementation runs.
//
// Part of the AscendC CPU model (see README.md). The library functions are not instructions:
// asc-devkit's public sources compose them from basic calls whose models this CPU model already
// has, so each is modelled as that composition, lane for lane, every step rounded as the basic
// call it is (Mins/Maxs: ArithMin/ArithMax; Mul/Muls/Add/Adds/Sub: one rounding in float; Div:
// ArithDiv; Exp and Ln: ascendc_cpu_vec_math.h's models; MicroAPI MulDstAdd: one fused rounding,
// as the precision appendix docs/zh/api/附录/Reg矢量计算接口精度标准汇总.md documents it):
//   Erf, Atlas A2/A3: impl/adv_api/detail/math/erf/erf_common_impl.h. x clipped to [-3.92, 3.92],
//     then P(x) / Q(x), two polynomials in x^2 by Horner's rule (Muls/Adds/Mul, no fusing), Div.
//     half: widened to float (exact), the result narrowed with CAST_ROUND (dav_c220's
//     GetErfCastType). float: in float. bfloat16_t: not taken (the library's SupportType).
//   Erf, Ascend 950: impl/adv_api/detail/math/erf/erf_3510_impl.h. ErfConfig's default
//     PADE_APPROXIMATION is the same P/Q sequence; SUBSECTION_POLYNOMIAL_APPROXIMATION (opbase's
//     ATVOSS Vec::Erf asks for it) is two degree-6 polynomials chosen by |x| < 0x3F8060FE, each
//     step a MulDstAdd, and for the large branch 1 - 2^(p ln 2) (Ln of 2, Mul, Exp, Sub) with x's
//     sign OR-ed in. half narrows with CAST_RINT.
//   Tanh, Atlas A2/A3: impl/adv_api/detail/math/tanh/tanh_common_impl.h. x clipped to
//     [-8.8, 8.8], e = Exp(2x), (e - 1) / (e + 1). half: CAST_NONE both ways (RINT narrowing).
//   Tanh, Ascend 950: impl/adv_api/detail/math/tanh/tanh_3510_impl.h. TanhConfig's default
//     INTRINSIC is the A2 sequence (half narrows with CAST_RINT); SUBSECTION_COMPENSATION is an
//     odd polynomial (MulDstAdd steps) for |x| < 0.55 and (e - 1) / (e + 1) with x clipped above at
//     20 otherwise.
// The library's own accuracy claims are not used: the bits follow from the sequence. The forms
// with a sharedTmpBuffer check it is in UB and, on Atlas A2/A3, at least the smallest buffer the
// implementation accepts (its CheckTmpBufferSize: one 32-element block per intermediate); what
// the library leaves in it is not modelled (the kernel must not read it).
#ifndef ASCENDC_CPU_VEC_LIBRARY_H
#define ASCENDC_CPU_VEC_LIBRARY_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ascendc_cpu_vec_cast.h"
#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_vec_math.h"

namespace AscendC {

// The library functions' configurations (asc-devkit include/adv_api/math/erf_utils.h,
// tanh_utils.h).
enum class ErfAlgo { PADE_APPROXIMATION, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig {
    ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

enum class TanhAlgo { INTRINSIC, SUBSECTION_COMPENSATION };
struct TanhConfig {
    TanhAlgo algo = TanhAlgo::INTRINSIC;
};
constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};

}  // namespace AscendC

namespace ascendc_cpu {

/// One float of the Pade form of Erf: clip, P(x) / Q(x).
ASCENDC_CPU_FN float ErfPadeLane(float x)
{
    const float bound = static_cast<float>(3.92);
    const float c = ArithMax(ArithMin(x, bound), -bound);
    const float x2 = ArithMul(c, c);
    const float p5 = static_cast<float>(0.053443748819);
    const float pk[] = {static_cast<float>(0.75517016694e1), static_cast<float>(0.10162808918e3),
        static_cast<float>(0.13938061484e4), static_cast<float>(0.50637915060e4),
        static_cast<float>(0.29639384698e5)};
    float p = ArithMul(x2, p5);
    p = ArithAdd(p, pk[0]);
    for (int k = 1; k < 5; ++k) {
        p = ArithMul(x2, p);
        p = ArithAdd(p, pk[k]);
    }
    p = ArithMul(c, p);
    const float qk[] = {static_cast<float>(0.31212858877e2), static_cast<float>(0.39856963806e3),
        static_cast<float>(0.30231248150e4), static_cast<float>(0.13243365831e5),
        static_cast<float>(0.26267224157e5)};
    float q = ArithAdd(x2, qk[0]);
    for (int k = 1; k < 5; ++k) {
        q = ArithMul(x2, q);
        q = ArithAdd(q, qk[k]);
    }
    return ArithDiv(p, q);
}

/// One float of Ascend 950's subsection form of Erf.
ASCENDC_CPU_FN float ErfSubsectionLane(float x)
{
    const float edge = F32FromBits(0x3F8060FEu);
    const uint32_t kLarge[] = {0x38EB4C3Au, 0xBAAE005Bu, 0x3C09919Fu, 0xBD24D99Au, 0x3E235519u, 0x3F69B4F9u,
        0x3F210A14u};
    const uint32_t kSmall[] = {0x38B1E96Au, 0xBA574D20u, 0x3BAAD5EAu, 0xBCDC1BE7u, 0x3DE718AFu, 0xBEC093ACu,
        0x3E0375D3u};
    const float a = F32FromBits(F32Bits(x) & 0x7FFFFFFFu);  // Abs
    const bool isLarge = a >= edge;                       // Compare GE (false for NaN)
    const float t = isLarge ? a : ArithMul(x, x);
    const uint32_t* coeff = isLarge ? kLarge : kSmall;
    float r = F32FromBits(coeff[0]);
    for (int k = 1; k < 7; ++k) {
        r = FusedMulAdd(r, t, F32FromBits(coeff[k]));
    }
    const float s = isLarge ? F32FromBits(F32Bits(a) ^ 0x80000000u) : x;  // Neg(a) or x
    const float f26 = FusedMulAdd(r, s, s);
    if (a < edge) {  // Compare LT (false for NaN): the small branch's value
        return f26;
    }
    const float f23 = MathExp(ArithMul(f26, MathLn(2.0f)));
    const float f25 = ArithSub(1.0f, f23);
    return F32FromBits((F32Bits(x) & 0x80000000u) | F32Bits(f25));
}

/// One float of Tanh's exponential form: clip to [-lo, hi], e = Exp(2x), (e - 1) / (e + 1).
ASCENDC_CPU_FN float TanhExpLane(float x, float lo, float hi)
{
    const float c = ArithMax(ArithMin(x, hi), lo);
    const float e = MathExp(ArithMul(c, 2.0f));
    return ArithDiv(ArithAdd(e, -1.0f), ArithAdd(e, 1.0f));
}

/// One float of Ascend 950's SUBSECTION_COMPENSATION Tanh.
ASCENDC_CPU_FN float TanhCompensationLane(float x)
{
    const float x2 = ArithMul(x, x);
    float o = ArithMul(x2, static_cast<float>(0.0157296831));
    o = ArithAdd(o, static_cast<float>(-0.0523029624));
    o = FusedMulAdd(o, x2, static_cast<float>(0.133152977));
    o = FusedMulAdd(o, x2, static_cast<float>(-0.333327681));
    o = ArithMul(o, x2);
    o = FusedMulAdd(o, x, x);
    const float a = F32FromBits(F32Bits(x) & 0x7FFFFFFFu);
    const float mid = TanhExpLane(x, -std::numeric_limits<float>::infinity(), 20.0f);
    return a < static_cast<float>(0.55) ? o : mid;  // CompareScalar LT: false for NaN
}

/// dst[i] = lane(src[i]) for i < count, T half (widened, narrowed with `narrow`) or float.
template <typename T, typename F>
inline void LibraryUnary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    int64_t count, Rounding narrow, F lane)
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
        "ascendc_cpu: the library's Erf and Tanh take half and float (asc-devkit include/adv_api/math)");
    uint32_t index = 0;
    Unary(api, dst, src, count, [&](T v) {
        if constexpr (std::is_same<T, half>::value) {
            const float wide = CastLane<float, half>(v, Rounding::kRint, index);
            return CastLane<half, float>(lane(wide), narrow, index++);
        } else {
            return lane(v);
        }
    });
}

/// The sharedTmpBuffer rule of a library call: in UB; on Atlas A2/A3 at least the implementation's
/// smallest buffer (its CheckTmpBufferSize: a 32-element block per intermediate), `halfBytes` for
/// half and `floatBytes` for float.
template <typename T>
inline void CheckLibraryTmp(const char* api, const AscendC::LocalTensor<uint8_t>& tmp, uint32_t halfBytes,
    uint32_t floatBytes)
{
#if defined(ASCENDC_CPU_DAV_3510)
    (void)halfBytes;
    (void)floatBytes;
    CheckUb(api, "sharedTmpBuffer", tmp.cpu_, 0, Access::kVecWrite);
#else
    CheckUb(api, "sharedTmpBuffer", tmp.cpu_, std::is_same<T, half>::value ? halfBytes : floatBytes,
        Access::kVecWrite);
#endif
}

#if defined(ASCENDC_CPU_DAV_3510)
constexpr Rounding kErfHalfNarrowing = Rounding::kRint;  // erf_3510_impl.h: CAST_RINT
#else
constexpr Rounding kErfHalfNarrowing = Rounding::kRound;  // erf_common_impl.h: CAST_ROUND on 2201
#endif

template <typename T, const AscendC::ErfConfig& config>
inline void ErfModel(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count)
{
    if constexpr (config.algo == AscendC::ErfAlgo::PADE_APPROXIMATION) {
        LibraryUnary("Erf", dst, src, count, kErfHalfNarrowing, ErfPadeLane);
    } else {
#if defined(ASCENDC_CPU_DAV_3510)
        LibraryUnary("Erf", dst, src, count, kErfHalfNarrowing, ErfSubsectionLane);
#else
        static_assert(kFalse<T>, "ascendc_cpu: Erf's SUBSECTION_POLYNOMIAL_APPROXIMATION exists on Ascend 950 only");
#endif
    }
}

template <typename T, AscendC::TanhAlgo algo>
inline void TanhModel(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count)
{
    const float bound = static_cast<float>(8.8);
    if constexpr (algo == AscendC::TanhAlgo::INTRINSIC) {
        LibraryUnary("Tanh", dst, src, count, Rounding::kRint, [bound](float x) {
            return TanhExpLane(x, -bound, bound);
        });
    } else {
        LibraryUnary("Tanh", dst, src, count, Rounding::kRint, TanhCompensationLane);
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

/// Erf(x), elementwise (adv_api/math/erf.h): the sequence in the header comment.
///
/// A class template whose constructors are erf.h's four overloads, not function templates: a call
/// `Erf<float, false, config>(dst, src, n)` reads the same (a temporary constructed), and
/// `Erf(dst, src, n)` deduces T from the tensors (CTAD). g++ 12 crashes (internal compiler error,
/// a segmentation fault) on a call of a *function* template whose reference template argument is
/// a function-local `static constexpr` of another template, as ge_glu_v2's Ascend 950 kernel
/// writes it (`arch35/ge_glu_v2_base.h:275-276`); a class template's constructor compiles.
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
struct Erf {
    Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
        const uint32_t calCount, ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        ascendc_cpu::CallScope call(site);
        // erf_common_impl.h: 8 (half) or 3 (float) blocks of 32 T
        ascendc_cpu::CheckLibraryTmp<T>("Erf", sharedTmpBuffer, 8 * 32 * 2, 3 * 32 * 4);
        ascendc_cpu::ErfModel<T, config>(dstTensor, srcTensor, calCount);
    }

    Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
        ascendc_cpu::Site site = ascendc_cpu::Site())
        : Erf(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), site)
    {
    }

    Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
        ascendc_cpu::Site site = ascendc_cpu::Site())
    {
        ascendc_cpu::CallScope call(site);
        ascendc_cpu::ErfModel<T, config>(dstTensor, srcTensor, calCount);
    }

    Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, ascendc_cpu::Site site = ascendc_cpu::Site())
        : Erf(dstTensor, srcTensor, srcTensor.GetSize(), site)
    {
    }
};

#if defined(ASCENDC_CPU_DAV_3510)
#define ASCENDC_CPU_TANH_TEMPLATE template <typename T, bool isReuseSource = false, const TanhConfig& config = DEFAULT_TANH_CONFIG>
#define ASCENDC_CPU_TANH_ARGS T, isReuseSource, config
#define ASCENDC_CPU_TANH_ALGO config.algo
#else
// Atlas A2/A3's Tanh takes no configuration (tanh.h declares the config form for dav_3510 only).
#define ASCENDC_CPU_TANH_TEMPLATE template <typename T, bool isReuseSource = false>
#define ASCENDC_CPU_TANH_ARGS T, isReuseSource
#define ASCENDC_CPU_TANH_ALGO TanhAlgo::INTRINSIC
#endif

/// Tanh(x), elementwise (adv_api/math/tanh.h): the sequence in the header comment.
ASCENDC_CPU_TANH_TEMPLATE
inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    // tanh_common_impl.h: 2 (half) or 1 (float) blocks of 32 float
    ascendc_cpu::CheckLibraryTmp<T>("Tanh", sharedTmpBuffer, 2 * 32 * 4, 1 * 32 * 4);
    ascendc_cpu::TanhModel<T, ASCENDC_CPU_TANH_ALGO>(dstTensor, srcTensor, calCount);
}

ASCENDC_CPU_TANH_TEMPLATE
inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    Tanh<ASCENDC_CPU_TANH_ARGS>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}

ASCENDC_CPU_TANH_TEMPLATE
inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::TanhModel<T, ASCENDC_CPU_TANH_ALGO>(dstTensor, srcTensor, calCount);
}

ASCENDC_CPU_TANH_TEMPLATE
inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    Tanh<ASCENDC_CPU_TANH_ARGS>(dstTensor, srcTensor, srcTensor.GetSize());
}

#undef ASCENDC_CPU_TANH_TEMPLATE
#undef ASCENDC_CPU_TANH_ARGS
#undef ASCENDC_CPU_TANH_ALGO

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_LIBRARY_H
