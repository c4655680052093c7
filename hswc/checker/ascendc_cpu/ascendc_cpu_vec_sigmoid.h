// ascendc_cpu_vec_sigmoid.h - the library's Sigmoid (adv_api/activation/sigmoid.h), as the
// sequence of vector instructions asc-devkit's implementation runs.
//
// Part of the AscendC CPU model (see README.md). Sigmoid is not an instruction: asc-devkit
// composes it from basic calls this model already has (docs: 高阶API/激活函数/Sigmoid接口/
// Sigmoid.md, formula 1 / (1 + e^-x)), so it is modelled as that composition, lane for lane:
//   Atlas A2/A3: impl/adv_api/detail/activation/sigmoid/sigmoid_impl.h. In T itself (half is not
//     widened): Muls(x, -1), Exp, Adds(1), then Div(ones, .) with the ones Duplicated into the
//     sharedTmpBuffer; the buffer only splits the count into passes of its size / sizeof(T)
//     (counter mode), which does not change a lane's value.
//   Ascend 950: impl/adv_api/detail/activation/sigmoid/sigmoid_3510_impl.h. half widened to float
//     (exact), Muls(-1), Exp, Adds(1), Div(1, .) in float, half narrowed with CAST_RINT
//     (impl/adv_api/detail/common/common.h's castTraitB32ToB16).
// Each step rounds as the basic call it is (ascendc_cpu_vec_common.h's Arith*, Exp as
// ascendc_cpu_vec_math.h's MathExp). T is half or float (the implementation's SupportType).
// The rules the API documents (Sigmoid.md 约束说明 and GetSigmoidMaxMinTmpSize.md) are checked on
// both SoC families: the sharedTmpBuffer in UB and at least GetSigmoidMaxMinTmpSize's minimum,
// 256 bytes (impl/adv_api/tiling/activation/sigmoid_tiling_impl.cpp: SIGMOID_MEMORY_SIZE); src and
// dst may not overlap (in place too: "不支持源操作数与目的操作数地址重叠"), nor the
// sharedTmpBuffer either of them. What the call leaves in the sharedTmpBuffer is not modelled.
// The forms without a sharedTmpBuffer take the library's own stack buffer (PopStackBuffer), which
// the model does not place in UB.
#ifndef ASCENDC_CPU_VEC_SIGMOID_H
#define ASCENDC_CPU_VEC_SIGMOID_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <type_traits>

#include "ascendc_cpu_vec_cast.h"
#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_vec_math.h"

namespace ascendc_cpu {

/// GetSigmoidMaxMinTmpSize's minValue (sigmoid_tiling_impl.cpp: SIGMOID_MEMORY_SIZE).
constexpr uint32_t kSigmoidMinTmpBytes = 256;

/// One lane of the sequence Muls(-1), Exp, Adds(1), Div(1, .), every step in U.
template <typename U>
inline U SigmoidLane(U x)
{
    const U one = FromDouble<U>(1.0);
    const U e = MathExp(ArithMul(x, FromDouble<U>(-1.0)));
    return ArithDiv(one, ArithAdd(e, one));
}

/// The overlap rule of Sigmoid.md's 约束说明 for operands `x` and `y`.
ASCENDC_CPU_FN void CheckSigmoidApart(const char* xName, const UbView& x, uint64_t xBytes, const char* yName,
    const UbView& y, uint64_t yBytes)
{
    if (xBytes > 0 && yBytes > 0 && UbOverlaps(x, xBytes, y, yBytes)) {
        Broken("Sigmoid", Msg(xName, " and ", yName, " overlap (Sigmoid.md: not supported)"),
            Msg("Sigmoid/overlap/", xName, "/", yName));
    }
}

template <typename T>
inline void SigmoidModel(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count)
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
        "ascendc_cpu: Sigmoid takes half and float (asc-devkit sigmoid_3510_impl.h's SupportType)");
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    CheckSigmoidApart("src", src.cpu_, bytes, "dst", dst.cpu_, bytes);
#if defined(ASCENDC_CPU_DAV_3510)
    uint32_t index = 0;
    Unary("Sigmoid", dst, src, count, [&](T v) {
        if constexpr (std::is_same<T, half>::value) {
            const float wide = CastLane<float, half>(v, Rounding::kRint, index);
            return CastLane<half, float>(SigmoidLane(wide), Rounding::kRint, index++);
        } else {
            return SigmoidLane(v);
        }
    });
#else
    Unary("Sigmoid", dst, src, count, [](T v) { return SigmoidLane(v); });
#endif
}

template <typename T>
inline void SigmoidWithTmp(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    const AscendC::LocalTensor<uint8_t>& tmp, uint32_t count)
{
    CheckUb("Sigmoid", "sharedTmpBuffer", tmp.cpu_, kSigmoidMinTmpBytes, Access::kVecWrite);
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    CheckSigmoidApart("sharedTmpBuffer", tmp.cpu_, tmp.cpu_.bytes, "src", src.cpu_, bytes);
    CheckSigmoidApart("sharedTmpBuffer", tmp.cpu_, tmp.cpu_.bytes, "dst", dst.cpu_, bytes);
    SigmoidModel(dst, src, count);
}

}  // namespace ascendc_cpu

namespace AscendC {

/// Sigmoid(x) = 1 / (1 + e^-x), elementwise (adv_api/activation/sigmoid.h): the sequence in the
/// header comment.
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SigmoidWithTmp(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SigmoidWithTmp(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SigmoidModel(dstTensor, srcTensor, calCount);
}

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SigmoidModel(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_SIGMOID_H
