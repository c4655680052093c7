// ascendc_cpu_vec_level0.h - the level-0 ("mask/repeat") forms of Compare, CompareScalar /
// Compares and Select, and their parameter structs UnaryRepeatParams and BinaryRepeatParams.
//
// Part of the AscendC CPU model (see README.md). Signatures: asc-devkit
// include/basic_api/kernel_operator_vec_cmpsel_intf.h; the structs: include/basic_api/
// kernel_struct_unary.h and kernel_struct_binary.h (the constants: impl/basic_api/utils/
// kernel_utils_constants.h). The lanes are the level-2 calls' (ascendc_cpu_vec_cmpsel.h:
// CompareLane, CheckCompareMode, SelectLane, MaskBit). Sources, as cited below (asc-devkit 82b89a1):
//   [hd]    docs/zh/api/SIMD-API/基础API/Memory矢量计算/SIMD计算说明/高维切分.md
//   [mask]  docs/zh/api/SIMD-API/基础API/Memory矢量计算/SIMD计算说明/掩码.md (表5)
//   [cmp]   docs/zh/api/SIMD-API/基础API/Memory矢量计算/比较与选择/Compare.md,
//   [cmps]  .../Compares.md, [sel] .../Select.md
//   [ovl]   docs/zh/api/SIMD-API/通用说明和约束.md, 通用地址重叠约束
//   [capi]  docs/zh/api/SIMD-API/C-API/vector_compute/asc_gt.md, asc_gt_scalar.md (the dav_c220
//           instructions vcmpv / vcmpvs)
//   [c220]  impl/basic_api/dav_c220/kernel_operator_vec_cmp_impl.h, kernel_operator_vec_cmpsel_impl.h
//   [3510]  impl/basic_api/dav_3510/kernel_operator_vec_cmp_impl.h, kernel_operator_vec_sel_impl.h
//   [debug] impl/basic_api/kernel_npu_debug.h (the device's debug-build checks)
//
// Repeats ([hd]). A call runs repeatTime repeats; a repeat takes L = 256 / sizeof(T) lanes in 8
// blocks of 32 bytes: lane k is in block k * sizeof(T) / 32, at byte (k * sizeof(T)) % 32 of it.
// For an operand with block stride B and repeat stride R (both in 32-byte blocks) lane k of
// repeat r is the element at byte (r * R + (k * sizeof(T) / 32) * B) * 32 + (k * sizeof(T)) % 32
// from the tensor's start (dav_3510 loads and stores exactly that: LoadAlign / StoreAlign
// DATA_BLOCK_COPY from src + r * R blocks with B between blocks, [3510]). A source stride of 0
// re-reads ([hd]); dstBlkStride 0 is "不支持 ... 可能产生未定义行为" ([hd]): a violation.
// repeatTime is uint8_t, 0..255 ([hd]: "repeatTime不能超过255"; a wider value converts before
// the call, as on the device). repeatTime 0: on Atlas A2/A3 a NOP ([cmp]: "不会执行计算操作, 不会
// 对目的操作数进行写入"; assumed alike for Compares and Select, whose pages say nothing for A2/A3,
// as [debug]'s ReportNopWarning does); on Ascend 950 "不保证该接口将被视为NOP" ([cmp], [sel]):
// refused when run.
//
// Masks ([mask] 表5). Continuous (uint64_t mask): the first mask lanes of every repeat, mask in
// [0, L] ("当操作数为32位时，mask∈[0, 64]", ...; [debug] CheckMaskValue checks that range); a
// larger mask is a broken rule after which, with --record-rules, the model goes on as the docs
// say the device does ("超出范围按照对应数据类型下mask最大值计算": L lanes; a mask past INT32_MAX
// ends the run: dav_c220 takes it as int32_t, impl/basic_api/kernel_utils_base.h SetMask).
// Bitwise (uint64_t mask[], at least 2 words): lane k on iff bit k % 64 of mask[k / 64]; for
// 4-byte T only mask[0] has lanes and mask[1] must be 0 ("maskHigh = 0"), else a violation.
// isSetMask = false (the mask of SetVectorMask, which the model does not keep) is refused when
// run wherever the implementation then reads the vector mask register (below); where it does
// not, isSetMask changes nothing.
//
// Compare / Compares / CompareScalar write a bit mask: repeat r's L bits go to the bytes
// [r * L / 8, (r + 1) * L / 8) of dst, lane k -> bit k % 8 of byte (r * L + k) / 8, 1 = true
// ([cmp]/[cmps]: "dst按照小端顺序排序成二进制结果"); dst is int8_t/uint8_t (Compare) or
// uint8_t (Compares), as those pages list.
//   * Atlas A2/A3: the mask is a reserved parameter with no effect ([cmp], [cmps]: "保留参数，设置
//     无效"; [capi]: "当结果输出到目的地址中时，mask参数不生效"; [c220] VcmpvImpl / VcmpvsImpl:
//     `(void)(mask)`, no SetMask): every lane of every repeat is compared and its bit written,
//     whatever mask and isSetMask say. That placement is documented for the default dst strides
//     (dstBlkStride 1, dstRepStride 8: [cmps]'s example, "dstRepStride ... = 8, no gap between
//     repeats", and the level-2 calls, which run these instructions with default params, [c220]
//     CompareCompute); where other dst strides put the bits is documented nowhere, so
//     dstBlkStride != 1, or dstRepStride != 8 with more than one repeat, is refused when run.
//   * Ascend 950: only the lanes the mask enables are compared; the bits of the others are 0
//     ([3510] CompareLevel0NormalMode / CompareScalarLevel0NormalMode: Reg::Compare zeroes what
//     its mask leaves out, Reg矢量计算/比较与选择/Compare.md "未选中元素在目的操作数中被置零";
//     Reg::StoreUnAlign then stores L bits per repeat back to back, Reg数据搬出/MaskReg非对齐搬出
//     （StoreUnAlign）.md); the dst strides are not used. A mask that enables no lane is refused
//     when run: [mask] calls it a NOP, [3510] writes zero bits. isSetMask = false is refused for
//     Compares (both masks) and Compare's bitwise mask (Reg::MoveMask, the SetVectorMask state);
//     Compare's continuous mask ignores it.
//   int32_t: CMPMODE::EQ only on Atlas A2/A3 (CheckCompareMode). NaN: only NE is true.
// Select: lane k of repeat r is src0's element where its selection bit is 1, else src1's (a
// tensor, or the scalar in VSEL_TENSOR_SCALAR_MODE), for the lanes the mask enables; the others
// keep dst ([sel]: "无效位（mask的比特位为0）则保持dst原始值"). The selection bit of lane k of
// repeat r is bit r * L + k of selMask in VSEL_TENSOR_SCALAR_MODE and VSEL_TENSOR_TENSOR_MODE
// ([sel]: "每次迭代使用selMask的位数为256/sizeof(T)，多轮迭代连续消耗selMask的不同部分"; [3510]
// reads sel + r * L / 8 bytes), and bit k for every repeat in VSEL_CMPMASK_SPR ([sel]:
// "多轮迭代均使用相同的selMask有效数值"); bit i is bit i % 8 of byte i / 8 whatever U is. Each
// repeat reads its L / 8 bytes of selMask. isSetMask changes nothing (both implementations set
// the mask argument: [c220] VselImpl SetMask, [3510] VselImpl; [sel]: "保留参数"). Atlas A2/A3
// runs VSEL_TENSOR_SCALAR_MODE with selMask in vsel's src1 operand and src1's strides ([c220]
// VselIntrinsicsImpl); the docs' continuous consumption is assumed for the strides their examples
// use (src1BlkStride 1, src1RepStride 8) and other values are refused when run; Ascend 950 does
// not use them ([3510] SelectMode1Level0). The 8 KB of UB modes 1 and 2 take on Atlas A2/A3
// ([sel]) are not reserved here (as for the level-2 calls).
//
// Operands. Every byte a call touches is checked (StridedAccess: live, 32-byte aligned, inside
// the tensor (short but inside the UB: a broken rule), the sync checker on pipe V); all inputs
// are read before dst is written. Overlap ([ovl]): within a repeat dst and a source must be the
// same lanes at the same bytes (full overlap) or disjoint, and no repeat may read what an
// earlier repeat wrote ("不支持前序迭代的目的操作数与后序迭代的源操作数重叠"); a compare's bit
// mask and its sources, and Select's dst and selMask, are of different types and may share no
// byte at all (full overlap is meaningless; "API中没有描述地址重叠约束的，视为不支持"). Each is a
// violation. The struct fields blockNumber, repeatStrideMode and strideSizeMode are reserved
// (辅助数据结构/UnaryRepeatParams.md, BinaryRepeatParams.md: "保留参数，用户无需关心，使用默认值
// 即可"), halfBlock is CastDequant's; neither implementation passes them to these instructions:
// not read.
//
// Not modelled, compile errors naming the call: the register forms (Compare without dst, which
// writes the CMPMASK register; Select<T, selMode>(dst, src0, src1, repeatTime, params) and
// Select<T, U>(dst, selMask, src0, repeatTime, params), which read SetCmpMask / SetVectorMask
// state) and GetCmpMask / SetCmpMask. Ascend 950's flexible-scalar forms (Compares / Select with
// T0, T1, config, the scalar in either operand) are not declared.
#ifndef ASCENDC_CPU_VEC_LEVEL0_H
#define ASCENDC_CPU_VEC_LEVEL0_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_vec_cmpsel.h"
#include "ascendc_cpu_vec_common.h"

namespace AscendC {

// impl/basic_api/utils/kernel_utils_constants.h
const int32_t DEFAULT_BLK_NUM = 8;
const int32_t DEFAULT_BLK_STRIDE = 1;
const uint8_t DEFAULT_REPEAT_STRIDE = 8;

/// A unary level-0 call's strides, in 32-byte blocks (kernel_struct_unary.h).
struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
        const uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn)
    {}
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
        const uint8_t srcRepStrideIn, const bool halfBlockIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn)
    {}

    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

/// A binary level-0 call's strides, in 32-byte blocks (kernel_struct_binary.h).
struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
        const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn)
    {}

    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

}  // namespace AscendC

namespace ascendc_cpu {
namespace level0 {

#if defined(ASCENDC_CPU_DAV_3510)
constexpr bool kDav3510 = true;
#else
constexpr bool kDav3510 = false;
#endif

/// Lanes of one repeat of T.
template <typename T>
constexpr uint32_t kLanes = kRepeatBytes / sizeof(T);

/// An operand's block and repeat strides, in 32-byte blocks.
struct Strides {
    uint32_t blk;
    uint32_t rep;
};

/// Byte of lane k of repeat r from the operand's start (header comment, [hd]).
template <typename T>
inline uint64_t LaneByte(uint32_t r, uint32_t k, Strides s)
{
    const uint32_t at = k * static_cast<uint32_t>(sizeof(T));
    return (uint64_t{r} * s.rep + uint64_t{at / kUbBlockBytes} * s.blk) * kUbBlockBytes + at % kUbBlockBytes;
}

/// The lanes a continuous mask enables ([mask]).
template <typename T>
inline std::vector<bool> MaskLanes(const char* api, uint64_t mask)
{
    NormalMaskMode(api);
    constexpr uint32_t lanes = kLanes<T>;
    if (mask > lanes) {
        const std::string rule = Msg("mask ", mask, " is outside [0, ", lanes, "], the lanes of a repeat of ",
            TypeName<T>());
        if (mask > 0x7FFFFFFFu) {
            Fail(api, rule);
        }
        Broken(api, Msg(rule, " (the docs: computed as ", lanes, ")"), Msg(api, "/mask"));
        mask = lanes;
    }
    std::vector<bool> on(lanes, false);
    for (uint64_t k = 0; k < mask; ++k) {
        on[k] = true;
    }
    return on;
}

/// The lanes a bitwise mask enables ([mask]).
template <typename T>
inline std::vector<bool> MaskLanes(const char* api, const uint64_t mask[])
{
    NormalMaskMode(api);
    constexpr uint32_t lanes = kLanes<T>;
    if (sizeof(T) == 4 && mask[1] != 0) {
        Fail(api, Msg("mask[1] is ", mask[1], ", not 0: a 4-byte element type has its ", lanes,
            " lanes in mask[0] (maskHigh = 0)"));
    }
    std::vector<bool> on(lanes, false);
    for (uint32_t k = 0; k < lanes; ++k) {
        on[k] = ((mask[k / 64] >> (k % 64)) & 1u) != 0;
    }
    return on;
}

ASCENDC_CPU_FN bool Any(const std::vector<bool>& on)
{
    for (bool b : on) {
        if (b) {
            return true;
        }
    }
    return false;
}

/// repeatTime 0: true for the A2/A3 NOP (nothing touched), refused on Ascend 950 (header comment).
ASCENDC_CPU_FN bool NoRepeats(const char* api, uint8_t repeatTime)
{
    if (repeatTime != 0) {
        return false;
    }
    if (kDav3510) {
        Fail(api, "repeatTime 0 is not modelled on Ascend 950: the docs do not promise a NOP "
            "(Compare.md / Select.md: \"不保证该接口将被视为NOP\")");
    }
    return true;
}

ASCENDC_CPU_FN void CheckDstBlkStride(const char* api, uint32_t dstBlkStride)
{
    if (dstBlkStride == 0) {
        Fail(api, "dstBlkStride 0 is not supported (高维切分.md: undefined behaviour)");
    }
}

[[noreturn]] ASCENDC_CPU_FN void VectorMaskNotModelled(const char* api)
{
    Fail(api, "isSetMask = false (the mask of SetVectorMask) is not modelled");
}

/// One element (or mask-byte run) an operand touches in a repeat: its byte range from the UB's
/// start, its repeat and lane.
struct Touch {
    uint64_t at;
    uint32_t len;
    uint32_t repeat;
    uint32_t lane;
};

/// How dst may overlap a source ([ovl]): kSameLanes, within a repeat only as the same lane at the
/// same address (same element type); kNone, not at all (a bit mask, selMask).
enum class Overlap { kSameLanes, kNone };

/// The overlap rules of [ovl] for dst against one source: no byte dst writes in repeat r may be
/// read by the source in a later repeat, nor in repeat r but (kSameLanes) as the same lane at the
/// same address; kNone: no byte may be both.
ASCENDC_CPU_FN void CheckOverlap(const char* api, const char* srcName, const std::vector<Touch>& dst,
    const std::vector<Touch>& src, Overlap rule, bool recordable = false)
{
    if (dst.empty() || src.empty()) {
        return;
    }
    uint64_t lo = dst.front().at;
    uint64_t hi = lo;
    for (const Touch& d : dst) {
        lo = std::min(lo, d.at);
        hi = std::max(hi, d.at + d.len);
    }
    // For each byte dst writes: the first repeat writing it, and that write's lane and start.
    struct First {
        int64_t repeat = -1;
        uint32_t lane = 0;
        uint64_t at = 0;
    };
    std::vector<First> first(static_cast<size_t>(hi - lo));
    for (const Touch& d : dst) {
        for (uint64_t b = d.at; b < d.at + d.len; ++b) {
            First& f = first[static_cast<size_t>(b - lo)];
            if (f.repeat < 0 || d.repeat < f.repeat) {
                f = First{static_cast<int64_t>(d.repeat), d.lane, d.at};
            }
        }
    }
    for (const Touch& s : src) {
        for (uint64_t b = std::max(s.at, lo); b < std::min(s.at + s.len, hi); ++b) {
            const First& f = first[static_cast<size_t>(b - lo)];
            if (f.repeat < 0) {
                continue;
            }
            if (rule == Overlap::kNone) {
                Fail(api, Msg("dst and ", srcName, " share UB byte ", b, " (repeat ", f.repeat, " of dst, ", s.repeat,
                    " of ", srcName, "): operands of different types may not overlap (通用地址重叠约束)"));
            }
            if (f.repeat > static_cast<int64_t>(s.repeat)) {
                continue;  // written after this read
            }
            if (f.repeat < static_cast<int64_t>(s.repeat)) {
                Fail(api, Msg(srcName, " of repeat ", s.repeat, " reads UB byte ", b, ", which dst of repeat ",
                    f.repeat, " wrote (a later repeat may not read an earlier one's dst: 通用地址重叠约束)"));
            }
            if (f.lane != s.lane || f.at != s.at) {
                const std::string rule = Msg("dst and ", srcName, " overlap partially in repeat ", s.repeat,
                    " (UB byte ", b, "): within a repeat they must be the same lanes or disjoint (通用地址重叠约束)");
                if (!recordable) {
                    Fail(api, rule);
                }
                Broken(api, rule, Msg(api, " partial overlap"));
                return;
            }
        }
    }
}

/// The elements of `t` the enabled lanes of every repeat touch, as Touches (UB offsets) and as
/// StridedAccess spans (tensor offsets).
template <typename T>
inline std::vector<Touch> LaneTouches(const AscendC::LocalTensor<T>& t, const std::vector<bool>& on,
    uint8_t repeatTime, Strides s, std::vector<std::pair<uint64_t, uint64_t>>& spans)
{
    const uint64_t base = static_cast<uint64_t>(t.cpu_.ptr - Arena());
    std::vector<Touch> touches;
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t k = 0; k < on.size(); ++k) {
            if (on[k]) {
                const uint64_t off = LaneByte<T>(r, k, s);
                touches.push_back(Touch{base + off, static_cast<uint32_t>(sizeof(T)), r, k});
                spans.emplace_back(off, sizeof(T));
            }
        }
    }
    return touches;
}

/// LaneTouches with lanes of their own in each repeat (ascendc_cpu_mask.h's RepeatMasks).
template <typename T>
inline std::vector<Touch> LaneTouches(const AscendC::LocalTensor<T>& t, const std::vector<std::vector<bool>>& on,
    Strides s, std::vector<std::pair<uint64_t, uint64_t>>& spans)
{
    std::vector<Touch> touches;
    for (uint32_t r = 0; r < on.size(); ++r) {
        std::vector<std::pair<uint64_t, uint64_t>> mine;
        for (Touch touch : LaneTouches<T>(t, on[r], 1, s, mine)) {
            touch.at += uint64_t{r} * s.rep * kUbBlockBytes;
            touch.repeat = r;
            touches.push_back(touch);
        }
        for (const auto& span : mine) {
            spans.emplace_back(span.first + uint64_t{r} * s.rep * kUbBlockBytes, span.second);
        }
    }
    return touches;
}

/// The bytes [r * bytesPerRepeat, (r + 1) * bytesPerRepeat) of `t` for each repeat r (a
/// compare's bit mask, selMask in modes 1 and 2), or bytes [0, bytesPerRepeat) for every repeat
/// (`same`: VSEL_CMPMASK_SPR).
template <typename E>
inline std::vector<Touch> MaskTouches(const AscendC::LocalTensor<E>& t, uint8_t repeatTime,
    uint32_t bytesPerRepeat, bool same)
{
    const uint64_t base = static_cast<uint64_t>(t.cpu_.ptr - Arena());
    std::vector<Touch> touches;
    for (uint32_t r = 0; r < repeatTime; ++r) {
        touches.push_back(Touch{base + (same ? 0 : uint64_t{r} * bytesPerRepeat), bytesPerRepeat, r, 0});
    }
    return touches;
}

/// The level-0 Compare (src1 a tensor) and Compares / CompareScalar (src1 == nullptr): header
/// comment. Mask is uint64_t (continuous) or const uint64_t* (bitwise).
template <typename T, typename U, bool isSetMask, typename Mask>
inline void Compare(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
    const AscendC::LocalTensor<T>* src1, const T& scalar, AscendC::CMPMODE cmpMode, Mask mask, uint8_t repeatTime,
    uint32_t dstBlkStride, uint32_t dstRepStride, Strides s0, Strides s1)
{
    constexpr uint32_t lanes = kLanes<T>;
    CheckCompareMode<T>(api, cmpMode);
    CheckDstBlkStride(api, dstBlkStride);
    std::vector<bool> on(lanes, true);
    if constexpr (kDav3510) {
        constexpr bool bitwise = std::is_pointer<Mask>::value;
        if (!isSetMask && (src1 == nullptr || bitwise)) {
            VectorMaskNotModelled(api);
        }
        on = MaskLanes<T>(api, mask);
        if (!Any(on)) {
            Fail(api, "a mask that enables no lane is not modelled on Ascend 950 (the docs: a NOP; dav_3510's "
                "implementation writes zero bits)");
        }
    } else {
        (void)mask;  // reserved on Atlas A2/A3: every lane is compared
        if (dstBlkStride != 1 || (repeatTime > 1 && dstRepStride != AscendC::DEFAULT_REPEAT_STRIDE)) {
            Fail(api, Msg("dstBlkStride ", dstBlkStride, ", dstRepStride ", dstRepStride, " with ",
                static_cast<unsigned>(repeatTime), " repeats: where Atlas A2/A3 writes the mask bits is documented "
                "only for dstBlkStride 1 and dstRepStride 8 (not modelled)"));
        }
    }
    if (NoRepeats(api, repeatTime)) {
        return;
    }
    std::vector<std::pair<uint64_t, uint64_t>> spans0, spans1;
    const std::vector<Touch> read0 = LaneTouches<T>(src0, on, repeatTime, s0, spans0);
    const std::vector<Touch> read1 =
        src1 != nullptr ? LaneTouches<T>(*src1, on, repeatTime, s1, spans1) : std::vector<Touch>();
    const uint32_t bytesPerRepeat = lanes / 8;
    const uint64_t maskBytes = uint64_t{repeatTime} * bytesPerRepeat;
    StridedAccess(api, "src0", src0.cpu_, spans0, false);
    if (src1 != nullptr) {
        StridedAccess(api, "src1", src1->cpu_, spans1, false);
    }
    CheckUb(api, "dst", dst.cpu_, maskBytes, Access::kVecWrite);
    const std::vector<Touch> written = MaskTouches(dst, repeatTime, bytesPerRepeat, false);
    CheckOverlap(api, "src0", written, read0, Overlap::kNone);
    CheckOverlap(api, "src1", written, read1, Overlap::kNone);
    std::vector<uint8_t> out(static_cast<size_t>(maskBytes), 0);
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t k = 0; k < lanes; ++k) {
            if (!on[k]) {
                continue;  // Ascend 950: the bit stays 0
            }
            const T a = Load<T>(src0.cpu_.ptr + LaneByte<T>(r, k, s0));
            const T b = src1 != nullptr ? Load<T>(src1->cpu_.ptr + LaneByte<T>(r, k, s1)) : scalar;
            if (CompareLane(a, b, cmpMode)) {
                const uint64_t bit = uint64_t{r} * lanes + k;
                out[bit / 8] = static_cast<uint8_t>(out[bit / 8] | (1u << (bit % 8)));
            }
        }
    }
    std::memcpy(dst.cpu_.ptr, out.data(), out.size());
}

/// The level-0 Select; `src1` null for VSEL_TENSOR_SCALAR_MODE (`scalar`): header comment.
template <typename T, typename U, typename Mask>
inline void Select(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
    const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1, const T& scalar,
    AscendC::SELMODE selMode, Mask mask, uint8_t repeatTime, const AscendC::BinaryRepeatParams& p)
{
    static_assert(std::is_integral<U>::value && std::is_unsigned<U>::value, "Select mask must be an unsigned type");
    const char* api = "Select";
    using AscendC::SELMODE;
    constexpr uint32_t lanes = kLanes<T>;
    if (src1 != nullptr && selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail(api, "VSEL_TENSOR_SCALAR_MODE needs a scalar src1");
    }
    if (src1 == nullptr && selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail(api, "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
    }
    CheckDstBlkStride(api, p.dstBlkStride);
    if (!kDav3510 && src1 == nullptr && (p.src1BlkStride != 1 || p.src1RepStride != AscendC::DEFAULT_REPEAT_STRIDE)) {
        Fail(api, Msg("src1BlkStride ", static_cast<unsigned>(p.src1BlkStride), ", src1RepStride ",
            static_cast<unsigned>(p.src1RepStride), " in VSEL_TENSOR_SCALAR_MODE: Atlas A2/A3 reads selMask through "
            "src1's strides, how is documented only for 1 and 8 (not modelled)"));
    }
    const std::vector<bool> on = MaskLanes<T>(api, mask);
    if (NoRepeats(api, repeatTime) || !Any(on)) {
        return;  // no lane: a NOP ([mask]; both implementations store nothing)
    }
    const Strides sd{p.dstBlkStride, p.dstRepStride};
    const Strides s0{p.src0BlkStride, p.src0RepStride};
    const Strides s1{p.src1BlkStride, p.src1RepStride};
    std::vector<std::pair<uint64_t, uint64_t>> spansD, spans0, spans1, spansM;
    const std::vector<Touch> written = LaneTouches<T>(dst, on, repeatTime, sd, spansD);
    const std::vector<Touch> read0 = LaneTouches<T>(src0, on, repeatTime, s0, spans0);
    const std::vector<Touch> read1 =
        src1 != nullptr ? LaneTouches<T>(*src1, on, repeatTime, s1, spans1) : std::vector<Touch>();
    const bool spr = selMode == SELMODE::VSEL_CMPMASK_SPR;
    const std::vector<Touch> readM = MaskTouches(selMask, repeatTime, lanes / 8, spr);
    const uint64_t maskBase = static_cast<uint64_t>(selMask.cpu_.ptr - Arena());
    for (const Touch& t : readM) {
        spansM.emplace_back(t.at - maskBase, t.len);
    }
    StridedAccess(api, "selMask", selMask.cpu_, spansM, false);
    StridedAccess(api, "src0", src0.cpu_, spans0, false);
    if (src1 != nullptr) {
        StridedAccess(api, "src1", src1->cpu_, spans1, false);
    }
    StridedAccess(api, "dst", dst.cpu_, spansD, true);
    CheckOverlap(api, "src0", written, read0, Overlap::kSameLanes);
    CheckOverlap(api, "src1", written, read1, Overlap::kSameLanes);
    CheckOverlap(api, "selMask", written, readM, Overlap::kNone);
    const uint8_t* m = selMask.cpu_.ptr;
    std::vector<T> out;
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t k = 0; k < lanes; ++k) {
            if (on[k]) {
                const bool bit = MaskBit(m, spr ? k : uint64_t{r} * lanes + k);
                const T b = src1 != nullptr ? Load<T>(src1->cpu_.ptr + LaneByte<T>(r, k, s1)) : scalar;
                out.push_back(SelectLane(bit, Load<T>(src0.cpu_.ptr + LaneByte<T>(r, k, s0)), b));
            }
        }
    }
    size_t i = 0;
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t k = 0; k < lanes; ++k) {
            if (on[k]) {
                Store<T>(dst.cpu_.ptr + LaneByte<T>(r, k, sd), out[i++]);
            }
        }
    }
}

}  // namespace level0
}  // namespace ascendc_cpu

namespace AscendC {

// region Compare, Compares, CompareScalar (level 0)

#define ASCENDC_CPU_LEVEL0_CHECK(Row, apiName)                                                                 \
    static_assert(std::is_same<U, uint8_t>::value || (std::is_same<U, int8_t>::value && !isScalar),            \
        "ascendc_cpu: " apiName " writes a uint8_t bit mask (Compare: also int8_t)");                          \
    if constexpr (!ascendc_cpu::api::Check##Row<T, ascendc_cpu::api::FormMask>()) {                            \
        ascendc_cpu::NotModelledType<T>(apiName);                                                              \
    } else

#define ASCENDC_CPU_LEVEL0_COMPARE(MaskType)                                                                   \
    template <typename T, typename U, bool isSetMask = true>                                                   \
    inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
        CMPMODE cmpMode, MaskType, uint8_t repeatTime, const BinaryRepeatParams& repeatParams,                 \
        ascendc_cpu::Site site = ascendc_cpu::Site())                                                          \
    {                                                                                                          \
        ascendc_cpu::CallScope call(site);                                                                     \
        constexpr bool isScalar = false;                                                                       \
        ASCENDC_CPU_LEVEL0_CHECK(Compare, "Compare")                                                           \
        {                                                                                                      \
            ascendc_cpu::level0::Compare<T, U, isSetMask>("Compare", dst, src0, &src1, T(), cmpMode, mask,     \
                repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride,                              \
                {repeatParams.src0BlkStride, repeatParams.src0RepStride},                                      \
                {repeatParams.src1BlkStride, repeatParams.src1RepStride});                                     \
        }                                                                                                      \
    }

/// Bit mask of (src0 OP src1) per repeat, mask/repeat forms: ascendc_cpu_vec_level0.h's header.
ASCENDC_CPU_LEVEL0_COMPARE(const uint64_t mask[])
ASCENDC_CPU_LEVEL0_COMPARE(const uint64_t mask)

#define ASCENDC_CPU_LEVEL0_COMPARES(Name, MaskType)                                                            \
    template <typename T, typename U, bool isSetMask = true>                                                   \
    inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, \
        MaskType, uint8_t repeatTime, const UnaryRepeatParams& repeatParams,                                   \
        ascendc_cpu::Site site = ascendc_cpu::Site())                                                          \
    {                                                                                                          \
        ascendc_cpu::CallScope call(site);                                                                     \
        constexpr bool isScalar = true;                                                                        \
        ASCENDC_CPU_LEVEL0_CHECK(CompareScalar, #Name)                                                         \
        {                                                                                                      \
            ascendc_cpu::level0::Compare<T, U, isSetMask>(#Name, dst, src0, nullptr, src1Scalar, cmpMode, mask, \
                repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride,                              \
                {repeatParams.srcBlkStride, repeatParams.srcRepStride}, {0, 0});                               \
        }                                                                                                      \
    }

/// Bit mask of (src0 OP src1Scalar) per repeat, mask/repeat forms; CompareScalar is the older
/// spelling of Compares.
ASCENDC_CPU_LEVEL0_COMPARES(Compares, const uint64_t mask[])
ASCENDC_CPU_LEVEL0_COMPARES(Compares, const uint64_t mask)
ASCENDC_CPU_LEVEL0_COMPARES(CompareScalar, const uint64_t mask[])
ASCENDC_CPU_LEVEL0_COMPARES(CompareScalar, const uint64_t mask)

#undef ASCENDC_CPU_LEVEL0_COMPARES
#undef ASCENDC_CPU_LEVEL0_COMPARE
#undef ASCENDC_CPU_LEVEL0_CHECK

// region Select (level 0)

#define ASCENDC_CPU_LEVEL0_SELECT(Src1Type, src1Arg, scalarArg, MaskType)                                      \
    template <typename T, typename U, bool isSetMask = true>                                                   \
    inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,   \
        Src1Type src1, SELMODE selMode, MaskType, uint8_t repeatTime, const BinaryRepeatParams& repeatParams,  \
        ascendc_cpu::Site site = ascendc_cpu::Site())                                                          \
    {                                                                                                          \
        ascendc_cpu::CallScope call(site);                                                                     \
        if constexpr (!ascendc_cpu::api::CheckSelect<T, ascendc_cpu::api::FormMask>()) {                       \
            ascendc_cpu::NotModelledType<T>("Select");                                                         \
        } else {                                                                                               \
            ascendc_cpu::level0::Select(dst, selMask, src0, src1Arg, scalarArg, selMode, mask, repeatTime,     \
                repeatParams);                                                                                 \
        }                                                                                                      \
    }

/// dst = selMask bit ? src0 : src1 per repeat for the lanes the mask enables, the others kept;
/// modes VSEL_CMPMASK_SPR and VSEL_TENSOR_TENSOR_MODE: ascendc_cpu_vec_level0.h's header.
ASCENDC_CPU_LEVEL0_SELECT(const LocalTensor<T>&, &src1, T(), uint64_t mask[])
ASCENDC_CPU_LEVEL0_SELECT(const LocalTensor<T>&, &src1, T(), uint64_t mask)
/// dst = selMask bit ? src0 : src1 (a scalar), VSEL_TENSOR_SCALAR_MODE.
ASCENDC_CPU_LEVEL0_SELECT(T, static_cast<const LocalTensor<T>*>(nullptr), src1, uint64_t mask[])
ASCENDC_CPU_LEVEL0_SELECT(T, static_cast<const LocalTensor<T>*>(nullptr), src1, uint64_t mask)

#undef ASCENDC_CPU_LEVEL0_SELECT

// region the register forms: not modelled

/// Compare without dst: the result goes to the CMPMASK register (GetCmpMask reads it).
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>&, const LocalTensor<T>&, CMPMODE, const uint64_t[], const BinaryRepeatParams&)
{
    static_assert(ascendc_cpu::kFalse<T>, "ascendc_cpu: Compare is not modelled: the form without dst writes the "
        "CMPMASK register (GetCmpMask), which the model does not have");
}

template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>&, const LocalTensor<T>&, CMPMODE, const uint64_t, const BinaryRepeatParams&)
{
    static_assert(ascendc_cpu::kFalse<T>, "ascendc_cpu: Compare is not modelled: the form without dst writes the "
        "CMPMASK register (GetCmpMask), which the model does not have");
}

/// Select without mask: the mask of SetVectorMask and the selection of SetCmpMask.
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint8_t,
    const BinaryRepeatParams&)
{
    static_assert(ascendc_cpu::kFalse<T>, "ascendc_cpu: Select is not modelled: the form without a mask reads the "
        "SetVectorMask and SetCmpMask registers, which the model does not have");
}

template <typename T, typename U>
inline void Select(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<T>&, uint8_t,
    const BinaryRepeatParams&)
{
    static_assert(ascendc_cpu::kFalse<T, U>, "ascendc_cpu: Select is not modelled: the form without a mask reads "
        "the SetVectorMask and SetCmpMask registers, which the model does not have");
}

template <typename T>
inline void GetCmpMask(const LocalTensor<T>&)
{
    static_assert(ascendc_cpu::kFalse<T>, "ascendc_cpu: GetCmpMask is not modelled: the model has no CMPMASK "
        "register");
}

template <typename T>
inline void SetCmpMask(const LocalTensor<T>&)
{
    static_assert(ascendc_cpu::kFalse<T>, "ascendc_cpu: SetCmpMask is not modelled: the model has no CMPMASK "
        "register");
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_LEVEL0_H
