// ascendc_cpu_adv_reduce.h - the library's reductions over a Pattern (adv_api/reduce): ReduceSum,
// ReduceMax and ReduceMin of a 2-D tensor along its R axis: Pattern::Reduce::AR (srcShape {A, R}:
// A rows of R elements, one result a row) and RA (srcShape {R, A}: one result a column).
//
// Part of the AscendC CPU model (see README.md). The pages (asc-devkit 82b89a15f docs/zh/api/
// SIMD-API/高阶API/归约操作/ReduceSum接口/ReduceSum-90.md, ReduceMax-91.md, ReduceMin-92.md) say what
// is combined, not in which order, and a float sum's bits depend on the order. On Ascend 950 the
// order below is the one asc-devkit 82b89a15f implements (impl/adv_api/detail/reduce/, paths
// below relative to it; not documented). Each step is the register call the implementation makes,
// as the model has it: Reg::Add (one RNE rounding in T) or Reg::Max / Min (IEEE maximum /
// minimum, -0 < +0, NaN kept) lane by lane, and last Reg::ReduceSum / ReduceMax / ReduceMin
// (Reduce.md: a binary tree of neighbouring lanes, for SUM the lanes off as 0) or
// ReduceDataBlock (ReduceDataBlock.md: the same tree within each 32-byte block).
//   VL = 256 / sizeof(T) lanes; M = the largest power of two <= R (CalculateMainR,
//   reduce_common_util_3510_impl.h:60-75; FindClosestPowerOfTwo, reduce_common_util_impl.h:68);
//   FOLD: x[r] op= x[M + r] for r < R - M; HALVING of n (a power of two) parts: part i op= part
//   i + n/2, then again on the first half, down to one part; GROUPED: runs of 16 consecutive
//   parts, each reduced to one by HALVING, while 16 or more are left, then HALVING of the rest.
//   AR, R * sizeof(T) a multiple of 32 or R 1 (reduce_sum/reduce_sum_3510_impl.h:55-69,
//   reduce_common_ar_reuse_align_3510_impl.h:526-542):
//     R 1: copied. R <= VL (reduce_common_ar_reuse_align_less_than_vl_3510_impl.h:165-189): R the
//     32-byte block's elements: ReduceDataBlock; R < VL / 2: the row's blocks added to the first
//     one by one (block j op acc, :115-145), then ReduceDataBlock; otherwise one Reduce of R
//     lanes. R > VL (reduce_common_ar_reuse_align_3510_impl.h:480-521, :267-476): FOLD, GROUPED
//     over the row's VL-element parts lane by lane (16 consecutive loads, :357-392), one Reduce
//     of VL lanes. isReuseSource false: where R = M, M is halved first; the tail's last partial
//     VL part is added to the first part (:300-329).
//   AR, otherwise (reduce_common_ar_ra_reuse_unalign_3510_impl.h:1248-1270): R < VL: one Reduce of
//   R lanes; else FOLD, HALVING over the VL-element parts (loads M / 16 apart, :906-977), one
//   Reduce of VL lanes.
//   RA, A * sizeof(T) a multiple of 32 (reduce_common_ra_reuse_align_3510_impl.h:596-608): A <=
//   VL / 2 or A > 65535 (:469-594) and A > VL (:224-258, :28-222): FOLD, HALVING over the rows;
//   VL / 2 < A <= VL (:439-467, :270-437): FOLD, GROUPED over the rows (isReuseSource false:
//   where R = M, M halved first). R 1: copied.
//   RA, otherwise (reduce_common_ar_ra_reuse_unalign_3510_impl.h:580-600, :295-578): FOLD, HALVING.
// Types (the pages' Ascend 950 lists, else a compile error): ReduceSum int32_t, uint32_t, float
// (integers wrap); ReduceMax / ReduceMin 8- to 32-bit integers, half, bfloat16_t, float (exact in
// any order; bfloat16_t and 8-bit lanes go through float / half casts, which are exact); 64-bit
// types compile and are refused when run. Assumed: a NaN a ReduceMax / Min's last step meets comes
// out as the default quiet NaN (Reduce.md says "该数据类型的nan"). Refused when run: a 0 in srcShape,
// R > 65535, AR with A > 65535 (the implementation's 16-bit loop counters), src overlapping dst or
// sharedTmpBuffer overlapping either (the pages' 约束说明), and a ReduceMax (Min) whose last
// Reduce has lanes off and every lane on -inf (+inf): the lanes off count as the type's minimum
// (maximum), for a float -inf or the lowest finite value (Reduce.md does not say which).
// isReuseSource true lets the implementation overwrite src with partial results; the model leaves
// src as it was (a kernel reading it afterwards is not caught). The sharedTmpBuffer's size is not
// checked. Atlas A2/A3 (impl/.../*_v220_impl.h) are not modelled: running one there ends the run
// with one line naming the call.
#ifndef ASCENDC_CPU_ADV_REDUCE_H
#define ASCENDC_CPU_ADV_REDUCE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"
#include "ascendc_cpu_vec_reduce.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
struct R {};
struct RA {};
struct AR {};
struct ARA {};
struct RAR {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace ascendc_cpu {
namespace pattern {

using reduce::Kind;

/// The elements of one register (GetVecLen() / sizeof(T)).
template <typename T>
constexpr size_t kVl = 256 / sizeof(T);

/// The largest power of two <= n (n >= 1).
ASCENDC_CPU_FN size_t MainR(size_t n)
{
    size_t m = 1;
    while (m * 2 <= n) {
        m *= 2;
    }
    return m;
}

/// HALVING of the first n parts of `width` elements of x (n a power of two): header comment.
template <typename T>
inline void Halving(Kind kind, std::vector<T>& x, size_t n, size_t width)
{
    for (; n > 1; n /= 2) {
        const size_t half = n / 2 * width;
        for (size_t i = 0; i < half; ++i) {
            x[i] = reduce::Combine(kind, x[i], x[i + half]);
        }
    }
}

/// GROUPED over the first n parts of `width` elements of x: header comment.
template <typename T>
inline void Grouped(Kind kind, std::vector<T>& x, size_t n, size_t width)
{
    for (; n >= 16; n /= 16) {
        for (size_t g = 0; g < n / 16; ++g) {
            std::vector<T> run(x.begin() + static_cast<std::ptrdiff_t>(g * 16 * width),
                x.begin() + static_cast<std::ptrdiff_t>((g + 1) * 16 * width));
            Halving(kind, run, 16, width);
            std::copy(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(width),
                x.begin() + static_cast<std::ptrdiff_t>(g * width));
        }
    }
    Halving(kind, x, n, width);
}

/// FOLD: the first m values of x, x[m + r] combined into value r.
template <typename T>
inline std::vector<T> Fold(Kind kind, const std::vector<T>& x, size_t m)
{
    std::vector<T> y(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(m));
    for (size_t r = 0; m + r < x.size(); ++r) {
        y[r] = reduce::Combine(kind, y[r], x[m + r]);
    }
    return y;
}

/// AR's aligned FOLD with isReuseSource false (header comment): m the parts' span.
template <typename T>
inline std::vector<T> FoldToTemporary(Kind kind, const std::vector<T>& x, size_t& m)
{
    const size_t vl = kVl<T>;
    if (m == x.size()) {
        m /= 2;
    }
    const size_t whole = (x.size() - m) / vl * vl;
    std::vector<T> y(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(m));
    for (size_t i = 0; i < whole; ++i) {
        y[i] = reduce::Combine(kind, y[i], x[m + i]);
    }
    for (size_t j = 0; m + whole + j < x.size(); ++j) {
        y[j] = reduce::Combine(kind, y[j], x[m + whole + j]);
    }
    return y;
}

template <typename T>
inline T Zero()
{
    if constexpr (std::is_integral<T>::value) {
        return T(0);
    } else {
        return FromDouble<T>(0.0);
    }
}

template <typename T>
inline bool IsNanValue(const T& v)
{
    if constexpr (std::is_integral<T>::value) {
        (void)v;
        return false;
    } else {
        return IsNan(v);
    }
}

/// Reg::ReduceSum / ReduceMax / ReduceMin (or ReduceDataBlock, width the block's elements) of the
/// first `on` of `width` lanes: header comment.
template <typename T>
inline T Last(const char* api, Kind kind, const T* lanes, size_t on, size_t width)
{
    std::vector<reduce::Lane<T>> all(width);
    bool nan = false;
    bool allExtreme = true;
    for (size_t i = 0; i < width; ++i) {
        if (i < on) {
            all[i] = reduce::Lane<T>{lanes[i], true};
            nan = nan || IsNanValue(lanes[i]);
            if constexpr (!std::is_integral<T>::value) {
                const double d = AsDouble(lanes[i]);
                allExtreme = allExtreme && std::isinf(d) && (d < 0) == (kind == Kind::kMax);
            }
        } else if (kind == Kind::kSum) {
            all[i] = reduce::Lane<T>{Zero<T>(), true};
        }
    }
    if (kind == Kind::kSum) {
        return reduce::Tree(kind, all).v;
    }
    if (nan) {
        return FromDouble<T>(std::numeric_limits<double>::quiet_NaN());
    }
    if (!std::is_integral<T>::value && on < width && allExtreme) {
        Fail(api, Msg("a result whose ", on, " values are all ", kind == Kind::kMax ? "-inf" : "+inf",
            " is not modelled: the register Reduce counts its ", width - on, " lanes off as the type's ",
            kind == Kind::kMax ? "minimum" : "maximum", ", -inf or the lowest finite value (Reduce.md does not say)"));
    }
    return reduce::Tree(kind, all).v;
}

/// One AR row's result: header comment.
template <typename T>
inline T Row(const char* api, Kind kind, const std::vector<T>& x, bool reuse)
{
    const size_t r = x.size();
    const size_t vl = kVl<T>;
    const size_t block = kUbBlockBytes / sizeof(T);
    constexpr bool cast = std::is_same<T, bfloat16_t>::value || sizeof(T) == 1;
    if (r == 1) {
        return x[0];
    }
    const bool aligned = r * sizeof(T) % kUbBlockBytes == 0;
    if (r <= vl && (!aligned || cast || r >= vl / 2)) {
        return Last(api, kind, x.data(), r, vl);
    }
    if (r <= vl) {
        std::vector<T> acc(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(block));
        for (size_t j = 1; j < r / block; ++j) {
            for (size_t l = 0; l < block; ++l) {
                acc[l] = reduce::Combine(kind, x[j * block + l], acc[l]);
            }
        }
        return Last(api, kind, acc.data(), block, block);
    }
    size_t m = MainR(r);
    std::vector<T> y = aligned && !reuse ? FoldToTemporary(kind, x, m) : Fold(kind, x, m);
    if (aligned) {
        Grouped(kind, y, m / vl, vl);
    } else {
        Halving(kind, y, m / vl, vl);
    }
    return Last(api, kind, y.data(), vl, vl);
}

/// One RA column's result (x its R values, a the columns): header comment.
template <typename T>
inline T Column(Kind kind, const std::vector<T>& x, size_t a, bool reuse)
{
    const size_t vl = kVl<T>;
    size_t m = MainR(x.size());
    if (x.size() == 1) {
        return x[0];
    }
    const bool grouped = a * sizeof(T) % kUbBlockBytes == 0 && a > vl / 2 && a <= vl;
    if (grouped && !reuse && m == x.size()) {
        m /= 2;
    }
    std::vector<T> y = Fold(kind, x, m);
    if (grouped) {
        Grouped(kind, y, m, 1);
    } else {
        Halving(kind, y, m, 1);
    }
    return y[0];
}

/// Whether the first aBytes of a and the first bBytes of b share a byte.
ASCENDC_CPU_FN bool Overlap(const UbView& a, uint64_t aBytes, const UbView& b, uint64_t bBytes)
{
    return a.ptr != nullptr && b.ptr != nullptr && a.ptr < b.ptr + bBytes && b.ptr < a.ptr + aBytes;
}

/// ReduceSum / ReduceMax / ReduceMin over a Pattern: header comment.
template <typename T, bool kAr, bool kReuse>
inline void Run(Kind kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    const AscendC::LocalTensor<uint8_t>& tmp, const uint32_t srcShape[])
{
    const char* api = reduce::CallName(kind);
#if !defined(ASCENDC_CPU_DAV_3510)
    (void)dst, (void)src, (void)tmp, (void)srcShape;
    Fail(api, "the library's reduction over a Pattern is modelled for Ascend 950 only (its Atlas A2/A3 "
        "implementation, adv_api/detail/reduce/*_v220_impl.h, is not)");
#else
    if (sizeof(T) == 8) {
        Fail(api, Msg("a Pattern reduction of ", TypeName<T>(), " is not modelled"));
    }
    const uint64_t a = kAr ? srcShape[0] : srcShape[1];
    const uint64_t r = kAr ? srcShape[1] : srcShape[0];
    if (a == 0 || r == 0) {
        Fail(api, Msg("srcShape {", srcShape[0], ", ", srcShape[1], "} has a 0"));
    }
    if (r > 65535 || (kAr && a > 65535)) {
        Fail(api, Msg("srcShape {", srcShape[0], ", ", srcShape[1], "}: ", kAr ? "A or " : "",
            "R above 65535 is not modelled (the implementation's 16-bit loop counters)"));
    }
    const uint64_t srcBytes = a * r * sizeof(T);
    const uint64_t dstBytes = a * sizeof(T);
    CheckUb(api, "src", src.cpu_, srcBytes, Access::kVecRead);
    CheckUb(api, "dst", dst.cpu_, dstBytes, Access::kVecWrite);
    const bool srcDst = Overlap(src.cpu_, srcBytes, dst.cpu_, dstBytes);
    if (srcDst || Overlap(tmp.cpu_, tmp.cpu_.bytes, src.cpu_, srcBytes) ||
        Overlap(tmp.cpu_, tmp.cpu_.bytes, dst.cpu_, dstBytes)) {
        Fail(api, Msg(srcDst ? "src's" : "sharedTmpBuffer and src's or dst's", srcDst ? " and dst's" : "",
            " elements overlap (the page's 约束说明: not supported)"));
    }
    std::vector<T> out(a);
    std::vector<T> x(r);
    for (uint64_t i = 0; i < a; ++i) {
        for (uint64_t k = 0; k < r; ++k) {
            x[k] = Load<T>(src.cpu_.ptr + (kAr ? i * r + k : k * a + i) * sizeof(T));
        }
        out[i] = kAr ? Row(api, kind, x, kReuse) : Column(kind, x, a, kReuse);
    }
    for (uint64_t i = 0; i < a; ++i) {
        Store<T>(dst.cpu_.ptr + i * sizeof(T), out[i]);
    }
#endif
}

}  // namespace pattern
}  // namespace ascendc_cpu

namespace AscendC {

#define ASCENDC_CPU_PATTERN_REDUCE(Name, kind, typesOk, typesText)                                           \
    template <class T, class pattern, bool isReuseSource = false>                                           \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, \
        const uint32_t srcShape[], bool srcInnerPad)                                                        \
    {                                                                                                       \
        static_assert(std::is_same<pattern, Pattern::Reduce::AR>::value ||                                  \
                std::is_same<pattern, Pattern::Reduce::RA>::value,                                          \
            #Name " over a Pattern supports AR and RA");                                                    \
        static_assert(typesOk, #Name " over a Pattern supports " typesText);                                \
        (void)srcInnerPad; /* reserved on Ascend 950 (the page's srcInnerPad row) */                        \
        ascendc_cpu::pattern::Run<T, std::is_same<pattern, Pattern::Reduce::AR>::value, isReuseSource>(     \
            ascendc_cpu::reduce::Kind::kind, dst, src, tmp, srcShape);                                      \
    }                                                                                                       \
    template <class T, class pattern, bool isReuseSource = false>                                           \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[], bool pad) \
    {                                                                                                       \
        Name<T, pattern, isReuseSource>(dst, src, LocalTensor<uint8_t>(), srcShape, pad);                   \
    }

#define ASCENDC_CPU_PATTERN_SUM_TYPES ascendc_cpu::kIsOneOf<T, int32_t, uint32_t, float, int64_t, uint64_t>
#define ASCENDC_CPU_PATTERN_EXTREMUM_TYPES                                                                  \
    ascendc_cpu::kIsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float, \
        int64_t, uint64_t>
ASCENDC_CPU_PATTERN_REDUCE(ReduceSum, kSum, ASCENDC_CPU_PATTERN_SUM_TYPES,
    "int32_t, uint32_t, float, int64_t, uint64_t (ReduceSum-90.md)")
ASCENDC_CPU_PATTERN_REDUCE(ReduceMax, kMax, ASCENDC_CPU_PATTERN_EXTREMUM_TYPES,
    "8- to 64-bit integers, half, bfloat16_t, float (ReduceMax-91.md)")
ASCENDC_CPU_PATTERN_REDUCE(ReduceMin, kMin, ASCENDC_CPU_PATTERN_EXTREMUM_TYPES,
    "8- to 64-bit integers, half, bfloat16_t, float (ReduceMin-92.md)")

#undef ASCENDC_CPU_PATTERN_EXTREMUM_TYPES
#undef ASCENDC_CPU_PATTERN_SUM_TYPES
#undef ASCENDC_CPU_PATTERN_REDUCE

}  // namespace AscendC

#endif  // ASCENDC_CPU_ADV_REDUCE_H
