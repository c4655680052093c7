// ascendc_cpu_vec_reduce.h - the reductions (ReduceSum, ReduceMax, ReduceMin; WholeReduceSum,
// WholeReduceMax, WholeReduceMin), Brcb, and the level-0 (mask/repeat) forms of Add, Sub, Mul,
// Div, Max and Min.
//
// Part of the AscendC CPU model (see README.md). Signatures: asc-devkit 82b89a1
// include/basic_api/kernel_operator_vec_reduce_intf.h, impl/basic_api/kernel_operator_vec_reduce_
// intf_impl.h (the WholeReduce* names, which ReduceRepeat<SUM|MAX|MIN> now replaces),
// kernel_operator_vec_brcb_intf.h, kernel_struct_brcb.h, kernel_operator_vec_binary_intf.h.
//
// The order of combination is the one hswc's interpreter uses, written from the same description
// (hswc/reduce_semantics.py, which cites every source; in short):
//   * one repeat (L = 256 / sizeof(T) lanes) is reduced as a binary tree of neighbours: lane 2i
//     with lane 2i + 1, then the pairs' results pairwise again (归约计算/ReduceDataBlock.md,
//     关键特性说明; C-API vector_compute/asc_repeat_reduce_sum.md). A lane the mask or count
//     leaves out takes no part: a pair with one such lane passes the other on (assumed);
//   * ReduceSum(dst, src, work, count), Atlas A2/A3: each repeat's tree, the repeats' results
//     accumulated in order, ((s0 + s1) + s2) + ... (ReduceSum.md 方式一; dav_c220
//     ReduceSumImpl: vcadd in counter mode with accumulation, get_acc_val); Ascend 950
//     (dav_3510 ReduceSumCounterMode): count <= L one tree; <= 4L the repeats added lane by lane
//     (2: r0 + r1 on the tail's lanes; 3: (r0 + r1) + r2 on the tail's lanes; 4: (r0 + r1) +
//     (r2 + r3 on the tail's lanes)), then one tree of L lanes; beyond, a tree per repeat, then
//     trees of those in groups of L until one value is left;
//   * ReduceMax / ReduceMin (calIndex false): A2/A3 a tree per repeat of the whole repeats (or of
//     the one partial repeat), trees of those in groups of L/2, the tail repeat's tree, then the
//     two (dav_c220 ReduceImplNoIndex, ReduceTailCompute); Ascend 950 a lane-by-lane running
//     Max / Min over the repeats from the lowest (highest) finite value of T, then one tree of L
//     lanes (dav_3510 ReduceNoIndexTemplate, GetMinValue): a row of -inf gives -65504 / -FLT_MAX;
//   * every step is the level-2 lane operation: Add rounds once in T (RNE, subnormals kept, half
//     overflowing to inf: the default non-saturating mode), Max / Min are IEEE 754-2019
//     maximum / minimum with the first operand's NaN first.
// Rules (each a violation naming the call): ReduceSum / Max / Min: count 0 a NOP on A2/A3 and
// refused on Ascend 950 ("不保证该接口被视为NOP"); `work` (sharedTmpBuffer) at least the documented
// minimum (ReduceSum.md: A2/A3 none, 950 DivCeil(max(1, count / L), 32 / sizeof(T)) * 32 /
// sizeof(T) elements and ceil(count / L) where count > 4L, what ReduceSumImpl stores there;
// ReduceMax.md / ReduceMin.md: A2/A3 DivCeil(2 * max(1, count / L), 32 / sizeof(T)) * 32 /
// sizeof(T), 950 none); those work elements hold a quiet NaN afterwards (their contents are
// unspecified); dst needs only its element's alignment (ReduceRepeat.md 表3); calIndex = true
// and the level-0 forms (mask, repeatTime, srcRepStride) are not modelled.
// WholeReduceSum / Max / Min(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
// srcRepStride[, order]): each repeat's enabled lanes (the mask argument, or with isSetMask =
// false the vector mask register in Normal or Counter mode: ascendc_cpu_mask.h) reduced by the
// tree into dst's result r at r * dstRepStride units (表3: a unit is the result's bytes: an
// element of T for SUM and ORDER_ONLY_VALUE, two for ORDER_VALUE_INDEX / ORDER_INDEX_VALUE, a
// uint32_t for ORDER_ONLY_INDEX; dst aligned to it); the index is the lane within the repeat, the
// lowest holding the result ("如果存在多个最值，该指令会将最小索引写入目的操作数"), stored as
// the integer of T's width ("索引按操作数的数据类型存储"); repeatTime in [0, 255] and the strides
// in [0, 65535] (ReduceRepeat.md).
// Brcb(dst, src, repeatTime, {dstBlkStride, dstRepStride}): element 8r + j of src fills the
// 32-byte block j of repeat r of dst at block r * dstRepStride + j * dstBlkStride (Brcb.md's
// pseudo-code); src and dst may not overlap; dstBlkStride 0 is undefined behaviour.
// Level-0 Add, Sub, Mul, Div, Max, Min(dst, src0, src1, mask, repeatTime, BinaryRepeatParams):
// the level-2 lane operation on the enabled lanes of each repeat (ascendc_cpu_vec_level0.h's
// addressing and masks), the other lanes of dst untouched. Overlap (通用地址重叠约束): within a
// repeat dst and a source are the same lanes or disjoint; a later repeat may not read an
// earlier one's dst, except src1 of Add, Sub, Mul, Max, Min on half, int32_t, float when
// src1RepStride or dstRepStride is 0 (accumulation). Repeats run in order. For every call
// repeatTime 0 (and a mask that enables no lane) is a NOP on A2/A3 and refused on Ascend 950.
#ifndef ASCENDC_CPU_VEC_REDUCE_H
#define ASCENDC_CPU_VEC_REDUCE_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_mask.h"
#include "ascendc_cpu_vec_level0.h"

namespace AscendC {

/// Where WholeReduceMax / WholeReduceMin put the value and its index (kernel_utils_mode.h).
enum class ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX,
};

/// Brcb's strides, in 32-byte blocks (kernel_struct_brcb.h; the other fields are reserved).
struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn)
    {}

    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

}  // namespace AscendC

namespace ascendc_cpu {
namespace reduce {

using level0::kDav3510;
using level0::kLanes;

enum class Kind { kSum, kMax, kMin };

template <typename T>
inline T Combine(Kind kind, T a, T b)
{
    switch (kind) {
        case Kind::kSum: return ArithAdd(a, b);
        case Kind::kMax: return ArithMax(a, b);
        case Kind::kMin: break;
    }
    return ArithMin(a, b);
}

/// A lane's value and whether it takes part.
template <typename T>
struct Lane {
    T v{};
    bool on = false;
};

/// The neighbour tree over `lanes` (a power of two of them): header comment.
template <typename T>
inline Lane<T> Tree(Kind kind, std::vector<Lane<T>> lanes)
{
    while (lanes.size() > 1) {
        std::vector<Lane<T>> next(lanes.size() / 2);
        for (size_t i = 0; i < next.size(); ++i) {
            const Lane<T>& a = lanes[2 * i];
            const Lane<T>& b = lanes[2 * i + 1];
            next[i] = a.on && b.on ? Lane<T>{Combine(kind, a.v, b.v), true} : (a.on ? a : b);
        }
        lanes.swap(next);
    }
    return lanes[0];
}

/// The tree of each `width`-lane repeat of values[0:count] (the last one partial).
template <typename T>
inline std::vector<T> RepeatTrees(Kind kind, const std::vector<T>& values, size_t count, size_t width)
{
    std::vector<T> out;
    for (size_t start = 0; start < count; start += width) {
        std::vector<Lane<T>> lanes(width);
        for (size_t k = 0; k < width && start + k < count; ++k) {
            lanes[k] = Lane<T>{values[start + k], true};
        }
        out.push_back(Tree(kind, lanes).v);
    }
    return out;
}

template <typename T>
inline std::vector<Lane<T>> AllOn(const std::vector<T>& v)
{
    std::vector<Lane<T>> lanes(v.size());
    for (size_t k = 0; k < v.size(); ++k) {
        lanes[k] = Lane<T>{v[k], true};
    }
    return lanes;
}

/// Reg::Add with a MERGING mask of the first `enabled` lanes: acc + more there, acc elsewhere.
template <typename T>
inline std::vector<T> MaskedCombine(Kind kind, std::vector<T> acc, const T* more, size_t enabled)
{
    for (size_t k = 0; k < enabled; ++k) {
        acc[k] = Combine(kind, acc[k], more[k]);
    }
    return acc;
}

/// ReduceSum's count form: header comment.
template <typename T>
inline T Sum(const std::vector<T>& x)
{
    const size_t width = kLanes<T>;
    const size_t count = x.size();
    if (!kDav3510) {
        const std::vector<T> sums = RepeatTrees(Kind::kSum, x, count, width);
        T acc = sums[0];
        for (size_t r = 1; r < sums.size(); ++r) {
            acc = ArithAdd(acc, sums[r]);
        }
        return acc;
    }
    if (count <= width) {
        return RepeatTrees(Kind::kSum, x, count, width)[0];
    }
    if (count <= 4 * width) {
        const size_t n = (count + width - 1) / width;
        const size_t last = count - (n - 1) * width;
        const auto rep = [&](size_t r) { return std::vector<T>(x.begin() + r * width, x.begin() + (r + 1) * width); };
        const T* tail = x.data() + (n - 1) * width;
        std::vector<T> acc;
        if (n == 2) {
            acc = MaskedCombine(Kind::kSum, rep(0), tail, last);
        } else {
            acc = rep(0);
            const std::vector<T> r1 = rep(1);
            for (size_t k = 0; k < width; ++k) {
                acc[k] = ArithAdd(acc[k], r1[k]);
            }
            if (n == 3) {
                acc = MaskedCombine(Kind::kSum, acc, tail, last);
            } else {
                const std::vector<T> w = MaskedCombine(Kind::kSum, rep(2), tail, last);
                for (size_t k = 0; k < width; ++k) {
                    acc[k] = ArithAdd(acc[k], w[k]);
                }
            }
        }
        return Tree(Kind::kSum, AllOn(acc)).v;
    }
    std::vector<T> level = RepeatTrees(Kind::kSum, x, count, width);
    while (level.size() > 1) {
        level = RepeatTrees(Kind::kSum, level, level.size(), width);
    }
    return level[0];
}

/// The lowest finite value of T (dav_3510 GetMinValue: half 0xFBFF, float 0xFF7FFFFF).
template <typename T>
inline T LowestFinite()
{
    if constexpr (std::is_same<T, half>::value) {
        return half::FromBits(0xFBFF);
    } else {
        return F32FromBits(0xFF7FFFFFu);
    }
}

template <typename T>
inline T Negate(T v)
{
    if constexpr (std::is_same<T, half>::value) {
        return half::FromBits(static_cast<uint16_t>(v.ToBits() ^ 0x8000u));
    } else {
        return F32FromBits(F32Bits(v) ^ 0x80000000u);
    }
}

/// ReduceMax / ReduceMin's count form, calIndex false: header comment.
template <typename T>
inline T Extremum(Kind kind, const std::vector<T>& x)
{
    const size_t width = kLanes<T>;
    const size_t count = x.size();
    if (kDav3510) {
        const T start = kind == Kind::kMax ? LowestFinite<T>() : Negate(LowestFinite<T>());
        std::vector<T> acc(width, start);
        for (size_t r = 0; r * width < count; ++r) {
            acc = MaskedCombine(kind, acc, x.data() + r * width, std::min(width, count - r * width));
        }
        return Tree(kind, AllOn(acc)).v;
    }
    const size_t body = count < width ? count : count / width * width;
    std::vector<T> level = RepeatTrees(kind, x, body, width);
    while (level.size() > 1) {
        level = RepeatTrees(kind, level, level.size(), width / 2);
    }
    if (body == count) {
        return level[0];
    }
    const std::vector<T> tail(x.begin() + static_cast<std::ptrdiff_t>(body), x.end());
    return Combine(kind, level[0], RepeatTrees(kind, tail, tail.size(), width)[0]);
}

ASCENDC_CPU_FN const char* CallName(Kind kind)
{
    return kind == Kind::kSum ? "ReduceSum" : kind == Kind::kMax ? "ReduceMax" : "ReduceMin";
}

/// (the work elements the count form needs, where that figure comes from): header comment.
template <typename T>
inline std::pair<uint64_t, std::string> WorkElements(Kind kind, uint64_t count)
{
    const uint64_t lanes = kLanes<T>;
    const uint64_t perBlock = kUbBlockBytes / sizeof(T);
    const uint64_t first = std::max<uint64_t>(1, count / lanes);
    if ((kind == Kind::kSum) != kDav3510) {
        return {0, Msg(CallName(kind), ".md: no sharedTmpBuffer used on ", kDav3510 ? "Ascend 950" : "Atlas A2/A3")};
    }
    if (kind == Kind::kSum) {
        const uint64_t documented = (first + perBlock - 1) / perBlock * perBlock;
        const uint64_t used = count > 4 * lanes ? (count + lanes - 1) / lanes : 0;
        if (used > documented) {
            return {used, Msg("ReduceSum.md's DivCeil(max(1, count / ", lanes, "), ", perBlock, ") * ", perBlock,
                " = ", documented, ", and the ceil(count / ", lanes, ") = ", used,
                " repeat sums dav_3510's ReduceSumImpl stores there")};
        }
        return {documented, Msg("ReduceSum.md: DivCeil(max(1, count / ", lanes, "), ", perBlock, ") * ", perBlock)};
    }
    return {(2 * first + perBlock - 1) / perBlock * perBlock,
        Msg(CallName(kind), ".md: DivCeil(2 * max(1, count / ", lanes, "), ", perBlock, ") * ", perBlock)};
}

/// The poison a reduction leaves in its work elements (a quiet NaN; their contents are unspecified).
template <typename T>
inline T Poison()
{
    if constexpr (std::is_same<T, half>::value) {
        return half::FromBits(0x7E00);
    } else {
        return F32FromBits(0x7FC00000u);
    }
}

/// One element-sized span at `at` bytes of a tensor, as StridedAccess takes it.
ASCENDC_CPU_FN std::vector<std::pair<uint64_t, uint64_t>> Span(uint64_t at, uint64_t bytes)
{
    return {std::make_pair(at, bytes)};
}

/// ReduceSum / ReduceMax / ReduceMin(dst, src, work, count): header comment.
template <typename T>
inline void Count(Kind kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    const AscendC::LocalTensor<T>& work, int64_t count)
{
    const char* api = CallName(kind);
    const uint32_t n = CheckCount(api, count);
    if (n == 0) {
        if (kDav3510) {
            Fail(api, "count 0 is not modelled on Ascend 950 (the docs do not promise a NOP there)");
        }
        return;
    }
    CheckUb(api, "src", src.cpu_, uint64_t{n} * sizeof(T), Access::kVecRead);
    const auto need = WorkElements<T>(kind, n);
    if (uint64_t{work.cpu_.bytes} < need.first * sizeof(T)) {
        Fail(api, Msg("work holds ", work.cpu_.bytes / sizeof(T), " elements; count ", n, " of ", TypeName<T>(),
            " needs at least ", need.first, " (", need.second, ")"));
    }
    if (need.first != 0) {
        CheckUb(api, "work", work.cpu_, need.first * sizeof(T), Access::kVecWrite);
    }
    std::vector<std::pair<uint64_t, uint64_t>> dstSpan = Span(0, sizeof(T));
    StridedAccess(api, "dst", dst.cpu_, dstSpan, true, sizeof(T));
    std::vector<T> x(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = Load<T>(src.cpu_.ptr + uint64_t{i} * sizeof(T));
    }
    const T result = kind == Kind::kSum ? Sum(x) : Extremum(kind, x);
    for (uint64_t i = 0; i < need.first; ++i) {
        Store<T>(work.cpu_.ptr + i * sizeof(T), Poison<T>());
    }
    Store<T>(dst.cpu_.ptr, result);
}

/// Only the lanes of repeat r of `touches`.
ASCENDC_CPU_FN std::vector<level0::Touch> OfRepeat(const std::vector<level0::Touch>& touches, uint32_t r)
{
    std::vector<level0::Touch> out;
    for (const level0::Touch& t : touches) {
        if (t.repeat == r) {
            out.push_back(t);
        }
    }
    return out;
}

/// A NOP (repeat 0, or no lane) on A2/A3; refused on Ascend 950 (header comment).
ASCENDC_CPU_FN bool Nothing(const char* api, uint8_t repeatTime, const std::vector<bool>& on)
{
    if (repeatTime == 0) {
        if (kDav3510) {
            Fail(api, "repeatTime 0 is not modelled on Ascend 950 (the docs do not promise a NOP there)");
        }
        return true;
    }
    if (!level0::Any(on)) {
        if (kDav3510) {
            Fail(api, "a mask of 0 lanes is not modelled on Ascend 950 (the docs do not promise a NOP there)");
        }
        return true;
    }
    return false;
}

/// The level-0 binary calls: header comment. `accumulates`: the call may read dst's earlier
/// repeats through src1 when a repeat stride of the two is 0.
template <typename T, typename Mask, typename F>
inline void Binary(const char* api, bool accumulates, const AscendC::LocalTensor<T>& dst,
    const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1, Mask mask, uint8_t repeatTime,
    const AscendC::BinaryRepeatParams& p, F lane)
{
    using level0::Strides;
    using level0::Touch;
    level0::CheckDstBlkStride(api, p.dstBlkStride);
    const std::vector<bool> on = level0::MaskLanes<T>(api, mask);
    if (Nothing(api, repeatTime, on)) {
        return;
    }
    const Strides sd{p.dstBlkStride, p.dstRepStride};
    const Strides s0{p.src0BlkStride, p.src0RepStride};
    const Strides s1{p.src1BlkStride, p.src1RepStride};
    std::vector<std::pair<uint64_t, uint64_t>> spansD, spans0, spans1;
    const std::vector<Touch> written = level0::LaneTouches<T>(dst, on, repeatTime, sd, spansD);
    const std::vector<Touch> read0 = level0::LaneTouches<T>(src0, on, repeatTime, s0, spans0);
    const std::vector<Touch> read1 = level0::LaneTouches<T>(src1, on, repeatTime, s1, spans1);
    StridedAccess(api, "src0", src0.cpu_, spans0, false);
    StridedAccess(api, "src1", src1.cpu_, spans1, false);
    StridedAccess(api, "dst", dst.cpu_, spansD, true);
    level0::CheckOverlap(api, "src0", written, read0, level0::Overlap::kSameLanes);
    const bool laterAllowed = accumulates && kIsOneOf<T, half, int32_t, float> &&
        (p.src1RepStride == 0 || p.dstRepStride == 0);
    if (!laterAllowed) {
        level0::CheckOverlap(api, "src1", written, read1, level0::Overlap::kSameLanes);
    } else {
        for (uint32_t r = 0; r < repeatTime; ++r) {
            level0::CheckOverlap(api, "src1", OfRepeat(written, r), OfRepeat(read1, r), level0::Overlap::kSameLanes);
        }
    }
    const uint32_t lanes = kLanes<T>;
    for (uint32_t r = 0; r < repeatTime; ++r) {  // in order: a repeat sees what earlier ones wrote
        std::vector<std::pair<uint32_t, T>> out;
        for (uint32_t k = 0; k < lanes; ++k) {
            if (on[k]) {
                const T a = Load<T>(src0.cpu_.ptr + level0::LaneByte<T>(r, k, s0));
                const T b = Load<T>(src1.cpu_.ptr + level0::LaneByte<T>(r, k, s1));
                out.emplace_back(k, lane(a, b));
            }
        }
        for (const auto& kv : out) {
            Store<T>(dst.cpu_.ptr + level0::LaneByte<T>(r, kv.first, sd), kv.second);
        }
    }
}

/// A level-0 reduction with no repeat or a repeat of no lane: Nothing's NOP on A2/A3, refused on
/// Ascend 950 (header comment; every repeat has the same lanes but in counter mode's last).
ASCENDC_CPU_FN bool NoRepeat(const char* api, const std::vector<std::vector<bool>>& repeats)
{
    if (repeats.empty()) {
        return Nothing(api, 0, {});
    }
    for (const std::vector<bool>& on : repeats) {
        if (!level0::Any(on)) {
            return Nothing(api, 1, on);
        }
    }
    return false;
}

/// The range checks of a level-0 reduction's repeatTime and strides (ReduceRepeat.md,
/// ReduceDataBlock.md: repeatTime in [0, 255], the strides in [0, 65535]).
ASCENDC_CPU_FN void CheckRepeatArgs(const char* api, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
    int32_t srcRepStride)
{
    if (repeatTime < 0 || repeatTime > 255) {
        Fail(api, Msg("repeatTime ", repeatTime, " is outside [0, 255] (ReduceRepeat.md)"));
    }
    const std::pair<const char*, int32_t> strides[] = {
        {"dstRepStride", dstRepStride}, {"srcBlkStride", srcBlkStride}, {"srcRepStride", srcRepStride}};
    for (const auto& s : strides) {
        if (s.second < 0 || s.second > 0xFFFF) {
            Fail(api, Msg(s.first, " ", s.second, " is outside [0, 65535] (ReduceRepeat.md)"));
        }
    }
}

/// A level-0 reduction's arguments checked and the lanes of each of its repeats in `on`
/// (ascendc_cpu_mask.h's RepeatMasks); false for a NOP (NoRepeat), the mask register kept.
template <typename T, bool isSetMask, typename Mask>
inline bool RepeatLanes(const char* api, Mask mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
    int32_t srcRepStride, std::vector<std::vector<bool>>& on)
{
    CheckRepeatArgs(api, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
    on = level0::RepeatMasks<T, isSetMask>(api, mask, static_cast<uint8_t>(repeatTime));
    if (NoRepeat(api, on)) {
        level0::RegisterKept<isSetMask>();
        return false;
    }
    return true;
}

/// The bytes of one repeat's result of WholeReduceMax / Min in `order` (ReduceRepeat.md 表3:
/// value and index two elements of T, the value one, the index alone a uint32_t).
template <typename T>
inline uint32_t ResultBytes(AscendC::ReduceOrder order)
{
    switch (order) {
        case AscendC::ReduceOrder::ORDER_VALUE_INDEX:
        case AscendC::ReduceOrder::ORDER_INDEX_VALUE: return 2 * sizeof(T);
        case AscendC::ReduceOrder::ORDER_ONLY_VALUE: break;
        case AscendC::ReduceOrder::ORDER_ONLY_INDEX: return sizeof(uint32_t);
    }
    return sizeof(T);
}

/// The lane of a repeat's maximum / minimum: the lowest enabled lane holding its bits
/// (ReduceRepeat.md: "如果存在多个最值，该指令会将最小索引写入目的操作数"); of a NaN result, the
/// lowest enabled lane holding a NaN (assumed: the docs say nothing of NaN).
template <typename T>
inline uint32_t IndexOf(const char* api, const std::vector<Lane<T>>& values, T result)
{
    const bool nan = IsNan(result);
    for (uint32_t k = 0; k < values.size(); ++k) {
        if (values[k].on && (nan ? IsNan(values[k].v) : std::memcmp(&values[k].v, &result, sizeof(T)) == 0)) {
            return k;
        }
    }
    Fail(api, "the index of a result no lane holds is not modelled");
}

/// WholeReduceSum / Max / Min (ORDER_ONLY_VALUE): header comment; each repeat's lanes as
/// ascendc_cpu_mask.h's RepeatMasks gives them (the mask argument, or the register).
template <typename T, bool isSetMask, typename Mask>
inline void Whole(const char* api, Kind kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    Mask mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
    AscendC::ReduceOrder order = AscendC::ReduceOrder::ORDER_ONLY_VALUE)
{
    using AscendC::ReduceOrder;
    using level0::Touch;
    std::vector<std::vector<bool>> on;
    if (!RepeatLanes<T, isSetMask>(api, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, on)) {
        return;
    }
    const uint32_t repeats = static_cast<uint32_t>(on.size());
    std::vector<std::pair<uint64_t, uint64_t>> spansS, spansD;
    const level0::Strides ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    const std::vector<Touch> read = level0::LaneTouches<T>(src, on, ss, spansS);
    std::vector<Touch> written;
    const uint64_t base = static_cast<uint64_t>(dst.cpu_.ptr - Arena());
    const uint32_t unit = ResultBytes<T>(order);
    for (uint32_t r = 0; r < repeats; ++r) {
        const uint64_t at = uint64_t{r} * static_cast<uint64_t>(dstRepStride) * unit;
        // lane 0xFFFFFFFF: no source lane is the same element, so any overlap within a repeat is partial
        written.push_back(Touch{base + at, unit, r, 0xFFFFFFFFu});
        spansD.emplace_back(at, unit);
    }
    StridedAccess(api, "src", src.cpu_, spansS, false);
    StridedAccess(api, "dst", dst.cpu_, spansD, true, unit);
    // A result written over its own repeat's source (WholeReduceMax(t, t, ...): GeluQuant's
    // ComputeReduceMax) breaks the general overlap rule, and the docs leave its result open;
    // with --record-rules the run goes on as the model computes it: every result from the
    // sources read before any is written (assumed, as a reduction must read its lanes first).
    level0::CheckOverlap(api, "src", written, read, level0::Overlap::kSameLanes, true);
    const uint32_t lanes = kLanes<T>;
    std::vector<T> results(repeats);
    std::vector<uint32_t> indices(repeats);
    for (uint32_t r = 0; r < repeats; ++r) {
        std::vector<Lane<T>> values(lanes);
        for (uint32_t k = 0; k < lanes; ++k) {
            if (on[r][k]) {
                values[k] = Lane<T>{Load<T>(src.cpu_.ptr + level0::LaneByte<T>(r, k, ss)), true};
            }
        }
        results[r] = Tree(kind, values).v;
        if (order != ReduceOrder::ORDER_ONLY_VALUE) {
            indices[r] = IndexOf(api, values, results[r]);
        }
    }
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    for (uint32_t r = 0; r < repeats; ++r) {
        uint8_t* at = dst.cpu_.ptr + uint64_t{r} * static_cast<uint64_t>(dstRepStride) * unit;
        const Bits index = static_cast<Bits>(indices[r]);
        switch (order) {
            case ReduceOrder::ORDER_VALUE_INDEX:
                Store<T>(at, results[r]);
                std::memcpy(at + sizeof(T), &index, sizeof(T));
                break;
            case ReduceOrder::ORDER_INDEX_VALUE:
                std::memcpy(at, &index, sizeof(T));
                Store<T>(at + sizeof(T), results[r]);
                break;
            case ReduceOrder::ORDER_ONLY_VALUE:
                Store<T>(at, results[r]);
                break;
            case ReduceOrder::ORDER_ONLY_INDEX:
                std::memcpy(at, &indices[r], sizeof(uint32_t));
                break;
        }
    }
    level0::RegisterKept<isSetMask>();
}

}  // namespace reduce
}  // namespace ascendc_cpu

namespace AscendC {

// region ReduceSum, ReduceMax, ReduceMin (count form)

/// dst[0] = the sum of src[0:count], in the SoC's order: ascendc_cpu_vec_reduce.h's header.
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
    const int32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if constexpr (!ascendc_cpu::api::CheckReduceSum<T>()) {
        ascendc_cpu::NotModelledType<T>("ReduceSum");
    } else {
        ascendc_cpu::reduce::Count(ascendc_cpu::reduce::Kind::kSum, dst, src, sharedTmpBuffer, count);
    }
}

#define ASCENDC_CPU_REDUCE_EXTREMUM(Name, kind)                                                               \
    template <typename T>                                                                                     \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, \
        const int32_t count, bool calIndex = 0, ascendc_cpu::Site site = ascendc_cpu::Site())                 \
    {                                                                                                         \
        ascendc_cpu::CallScope call(site);                                                                    \
        if constexpr (!ascendc_cpu::api::Check##Name<T>()) {                                                  \
            ascendc_cpu::NotModelledType<T>(#Name);                                                           \
        } else {                                                                                              \
            if (calIndex) {                                                                                   \
                ascendc_cpu::Fail(#Name, "calIndex = true (the index result) is not modelled");               \
            }                                                                                                 \
            ascendc_cpu::reduce::Count(ascendc_cpu::reduce::Kind::kind, dst, src, sharedTmpBuffer, count);    \
        }                                                                                                     \
    }

/// dst[0] = maximum / minimum of src[0:count] (calIndex false): the header's order and start value.
ASCENDC_CPU_REDUCE_EXTREMUM(ReduceMax, kMax)
ASCENDC_CPU_REDUCE_EXTREMUM(ReduceMin, kMin)
#undef ASCENDC_CPU_REDUCE_EXTREMUM

// The level-0 forms (mask, repeatTime, srcRepStride) are not modelled: compile errors naming them.
#define ASCENDC_CPU_REDUCE_LEVEL0(Name, MaskType, ...)                                                        \
    template <typename T>                                                                                     \
    inline void Name(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, MaskType,           \
        const int32_t, const int32_t __VA_ARGS__)                                                             \
    {                                                                                                         \
        static_assert(ascendc_cpu::kFalse<T>, "ascendc_cpu: " #Name " is not modelled in its mask/repeat "    \
            "form (the count form is)");                                                                      \
    }
ASCENDC_CPU_REDUCE_LEVEL0(ReduceSum, const int32_t)
ASCENDC_CPU_REDUCE_LEVEL0(ReduceSum, const uint64_t[])
ASCENDC_CPU_REDUCE_LEVEL0(ReduceMax, const int32_t, , bool = 0)
ASCENDC_CPU_REDUCE_LEVEL0(ReduceMax, const uint64_t[], , bool = 0)
ASCENDC_CPU_REDUCE_LEVEL0(ReduceMin, const int32_t, , bool = 0)
ASCENDC_CPU_REDUCE_LEVEL0(ReduceMin, const uint64_t[], , bool = 0)
#undef ASCENDC_CPU_REDUCE_LEVEL0

// endregion
// region WholeReduceSum, WholeReduceMax, WholeReduceMin

#define ASCENDC_CPU_WHOLE_REDUCE(Name, kind, MaskType, ...)                                                   \
    template <typename T, bool isSetMask = true>                                                              \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskType mask,                     \
        const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,                    \
        const int32_t srcRepStride __VA_ARGS__, ascendc_cpu::Site site = ascendc_cpu::Site())                 \
    {                                                                                                         \
        ascendc_cpu::CallScope call(site);                                                                    \
        if constexpr (!ascendc_cpu::api::Check##Name<T, ascendc_cpu::api::FormMask>()) {                      \
            ascendc_cpu::NotModelledType<T>(#Name);                                                           \
        } else {                                                                                              \
            ascendc_cpu::reduce::Whole<T, isSetMask>(#Name, ascendc_cpu::reduce::Kind::kind, dst, src, mask,  \
                repeatTime, dstRepStride, srcBlkStride, srcRepStride, ASCENDC_CPU_WHOLE_REDUCE_ORDER_##kind);  \
        }                                                                                                     \
    }
#define ASCENDC_CPU_WHOLE_REDUCE_ORDER_kSum ReduceOrder::ORDER_ONLY_VALUE
#define ASCENDC_CPU_WHOLE_REDUCE_ORDER_kMax order
#define ASCENDC_CPU_WHOLE_REDUCE_ORDER_kMin order

/// dst[r * dstRepStride] = the tree sum of repeat r's enabled lanes (ReduceRepeat<SUM>).
ASCENDC_CPU_WHOLE_REDUCE(WholeReduceSum, kSum, const int32_t)
ASCENDC_CPU_WHOLE_REDUCE(WholeReduceSum, kSum, const uint64_t*)
/// repeat r's maximum / minimum and / or its lane at dst's result r, in `order` (Whole's comment).
ASCENDC_CPU_WHOLE_REDUCE(WholeReduceMax, kMax, const int32_t, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
ASCENDC_CPU_WHOLE_REDUCE(WholeReduceMax, kMax, const uint64_t*, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
ASCENDC_CPU_WHOLE_REDUCE(WholeReduceMin, kMin, const int32_t, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
ASCENDC_CPU_WHOLE_REDUCE(WholeReduceMin, kMin, const uint64_t*, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
#undef ASCENDC_CPU_WHOLE_REDUCE
#undef ASCENDC_CPU_WHOLE_REDUCE_ORDER_kSum
#undef ASCENDC_CPU_WHOLE_REDUCE_ORDER_kMax
#undef ASCENDC_CPU_WHOLE_REDUCE_ORDER_kMin

// endregion
// region Brcb

/// Element 8r + j of src fills block j of repeat r of dst: ascendc_cpu_vec_reduce.h's header.
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
    const BrcbRepeatParams& repeatParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    const char* api = "Brcb";
    if constexpr (!ascendc_cpu::api::CheckBrcb<T, ascendc_cpu::api::FormMask>()) {
        ascendc_cpu::NotModelledType<T>(api);
    } else {
        using ascendc_cpu::level0::Touch;
        if (repeatParams.dstBlkStride == 0) {
            ascendc_cpu::Fail(api, "dstBlkStride 0 is not supported (Brcb.md: undefined behaviour)");
        }
        if (ascendc_cpu::reduce::Nothing(api, repeatTime, std::vector<bool>{true})) {
            return;
        }
        constexpr uint32_t perBlock = ascendc_cpu::kUbBlockBytes / sizeof(T);
        const uint32_t n = 8u * repeatTime;
        std::vector<std::pair<uint64_t, uint64_t>> spansS{{0, uint64_t{n} * sizeof(T)}}, spansD;
        const uint64_t srcBase = static_cast<uint64_t>(src.cpu_.ptr - ascendc_cpu::Arena());
        const uint64_t dstBase = static_cast<uint64_t>(dst.cpu_.ptr - ascendc_cpu::Arena());
        std::vector<Touch> read{Touch{srcBase, static_cast<uint32_t>(n * sizeof(T)), 0, 0}};
        std::vector<Touch> written;
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t block = uint64_t{i / 8} * repeatParams.dstRepStride + uint64_t{i % 8} * repeatParams.dstBlkStride;
            spansD.emplace_back(block * ascendc_cpu::kUbBlockBytes, ascendc_cpu::kUbBlockBytes);
            written.push_back(Touch{dstBase + block * ascendc_cpu::kUbBlockBytes, ascendc_cpu::kUbBlockBytes, 0, i});
        }
        ascendc_cpu::StridedAccess(api, "src", src.cpu_, spansS, false);
        ascendc_cpu::StridedAccess(api, "dst", dst.cpu_, spansD, true);
        ascendc_cpu::level0::CheckOverlap(api, "src", written, read, ascendc_cpu::level0::Overlap::kNone);
        std::vector<T> values(n);
        for (uint32_t i = 0; i < n; ++i) {
            values[i] = ascendc_cpu::Load<T>(src.cpu_.ptr + uint64_t{i} * sizeof(T));
        }
        for (uint32_t i = 0; i < n; ++i) {  // in order: a block written twice keeps the later value
            const uint64_t block = uint64_t{i / 8} * repeatParams.dstRepStride + uint64_t{i % 8} * repeatParams.dstBlkStride;
            uint8_t* at = dst.cpu_.ptr + block * ascendc_cpu::kUbBlockBytes;
            for (uint32_t e = 0; e < perBlock; ++e) {
                ascendc_cpu::Store<T>(at + uint64_t{e} * sizeof(T), values[i]);
            }
        }
    }
}

// endregion
// region Add, Sub, Mul, Div, Max, Min (level 0)

#define ASCENDC_CPU_BINARY_LEVEL0(Name, Row, accumulates, lane, MaskType)                                     \
    template <typename T, bool isSetMask = true>                                                              \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
        MaskType, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,                           \
        ascendc_cpu::Site site = ascendc_cpu::Site())                                                         \
    {                                                                                                         \
        ascendc_cpu::CallScope call(site);                                                                    \
        if constexpr (!ascendc_cpu::api::Check##Row<T, ascendc_cpu::api::FormMask>()) {                       \
            ascendc_cpu::NotModelledType<T>(#Name);                                                           \
        } else {                                                                                              \
            if (!isSetMask) {                                                                                 \
                ascendc_cpu::level0::VectorMaskNotModelled(#Name);                                            \
            }                                                                                                 \
            ascendc_cpu::reduce::Binary(#Name, accumulates, dst, src0, src1, mask, repeatTime, repeatParams,  \
                [](T a, T b) { return lane(a, b); });                                                         \
        }                                                                                                     \
    }
#define ASCENDC_CPU_BINARY_LEVEL0_BOTH(Name, accumulates, lane)                                               \
    ASCENDC_CPU_BINARY_LEVEL0(Name, Name, accumulates, lane, const uint64_t mask[])                           \
    ASCENDC_CPU_BINARY_LEVEL0(Name, Name, accumulates, lane, uint64_t mask)

/// dst = src0 <op> src1 on the enabled lanes of each repeat: ascendc_cpu_vec_reduce.h's header.
ASCENDC_CPU_BINARY_LEVEL0_BOTH(Add, true, ascendc_cpu::ArithAdd)
ASCENDC_CPU_BINARY_LEVEL0_BOTH(Sub, true, ascendc_cpu::ArithSub)
ASCENDC_CPU_BINARY_LEVEL0_BOTH(Mul, true, ascendc_cpu::ArithMul)
ASCENDC_CPU_BINARY_LEVEL0_BOTH(Div, false, ascendc_cpu::ArithDiv)
ASCENDC_CPU_BINARY_LEVEL0_BOTH(Max, true, ascendc_cpu::ArithMax)
ASCENDC_CPU_BINARY_LEVEL0_BOTH(Min, true, ascendc_cpu::ArithMin)
#undef ASCENDC_CPU_BINARY_LEVEL0_BOTH
#undef ASCENDC_CPU_BINARY_LEVEL0

// endregion

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_REDUCE_H
