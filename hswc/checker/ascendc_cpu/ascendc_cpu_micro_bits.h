// ascendc_cpu_micro_bits.h - the MicroAPI calls ops-nn's SwigluGroupQuant kernels make on the
// bits of registers (activation/swiglu_group_quant/op_kernel/arch35/swiglu_group_quant_base.h:
// the scale's exponent field, the E8M0 codes), its per-block maximum, and the storage-only types
// its MX and FP4 templates name.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. Pages cited
// below are under asc-devkit's (82b89a15f) docs/zh/api/SIMD-API/基础API/Reg矢量计算/ (REG).
//
//   ShiftRights(d, s, k, mask)  REG/逻辑计算/ShiftRights.md:31-41, table 3, 约束说明: the lanes on
//                           shifted right by k: logically for unsigned lanes, arithmetically for
//                           signed ones; k at least the lane's width gives 0 (unsigned) or 0 / -1
//                           (signed, by the sign); a negative k ("负数行为未定义") is refused when
//                           run; ZEROING only (MERGING "当前不支持"); 8- to 32-bit lanes (64-bit
//                           lanes compile and are refused when run: the model has none).
//   ShiftLefts(d, s, k, mask)   REG/逻辑计算/ShiftLefts.md:31-41, 约束说明: the lanes on shifted left by
//                           k, zeros in: unsigned lanes logically; signed lanes arithmetically,
//                           the sign bit kept and the bits below it shifted (the page's int16_t
//                           example, 1010101010101010 << 3 = 1101010101010000); k at least the
//                           lane's width gives 0; otherwise as ShiftRights.
//   Pack<T, U, LOWEST>(d, s)  REG/数据压缩/Pack.md:31, table 3: the low half of each of s's lanes
//                           (uint16_t <- int16_t/uint16_t, uint32_t <- int32_t/uint32_t), in order,
//                           into d's low half; d's high half 0 (assumed: the page's figure alone
//                           shows it). HIGHEST does not compile (not modelled).
//   ReduceDataBlock<MAX / MIN>(d, s, mask), ReduceMaxWithDataBlock, ReduceMinWithDataBlock
//                           REG/归约计算/ReduceDataBlock.md:31-35 (asc-devkit's
//                           kernel_reg_compute_vec_reduce_intf_impl.h:77-112 forwards the three
//                           names to one Impl): lane b of d the largest (smallest) of the lanes on
//                           in s's 32-byte block b, in the order of Reduce (-0 < +0, a NaN lane
//                           gives NaN); d's other lanes 0 (ZEROING, the only mode). A block with no
//                           lane on, or whose lanes on are all -inf (MAX) / +inf (MIN), is refused
//                           when run, as Reduce's (the page does not say what the lanes off count
//                           as). half, float, int16_t, uint16_t, int32_t, uint32_t (the Impl's
//                           static_assert). SUM is not modelled (does not compile).
//   LoadAlign<T, dist>(d0, d1, s), LoadAlign<T, POST_MODE_UPDATE, dist>(d0, d1, s, k),
//   LoadAlign<T, dist>(d0, d1, s, AddrReg)  REG/Reg数据搬入/连续对齐搬入（LoadAlign）.md:34, 79-97,
//                           table 6: DIST_DINTLV_B8/B16/B32 read 2 * VL bytes (32-byte aligned),
//                           the elements of even index to d0, of odd index to d1; the post form
//                           then moves s on by k elements.
//   Cast<uint8_t, int32_t / uint32_t, trait>(d, s, mask)  REG/类型转换/Cast.md table 3 and its row
//                           (RegLayout ZERO..THREE, SatMode NO_SAT / SAT, ZEROING): source lane i
//                           to destination byte lane 4i + layout, on iff source lane i is, every
//                           other destination lane 0 ("目的操作数中的无效元素均为0"); a value out of
//                           [0, 255] keeps its low byte, or saturates, as table 4's 整数转整数 row
//                           says (int32_t 256 -> uint8_t 0 not saturating), under the mode of table
//                           5 (RegIntSaturates: CTRL[60] and [59], else the trait's SatMode). The
//                           trait's RoundMode is not read (the row has none).
//   Cast (level 2) float / half -> hifloat8_t  Memory矢量计算/类型转换/Cast.md's Ascend 950 table
//                           (CAST_ROUND / CAST_HYBRID): compiles, refused when run (not modelled).
//   Cast to or from fp8_e8m0_t, fp4x2_e2m1_t, fp4x2_e1m2_t  (the Cast page's rows of bfloat16_t
//                           <-> these) compile and are refused when run: not modelled.
//   fp8_e8m0_t, fp4x2_e2m1_t, fp4x2_e1m2_t  one byte each, storage only (asc-devkit
//                           impl/basic_api/utils/kernel_utils_constants.h:620-625 and
//                           impl/utils/common_types.h:36-37: the compiler's float8_e8m0_t and
//                           float4_e2m1x2_t / float4_e1m2x2_t, two 4-bit values a byte): a kernel
//                           may copy and reinterpret them; no call computes on them.
#ifndef ASCENDC_CPU_MICRO_BITS_H
#define ASCENDC_CPU_MICRO_BITS_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ascendc_cpu {
/// One byte the model stores and copies and never computes on (Tag tells the types apart).
template <typename Tag>
struct StorageByte {
    uint8_t bits;
};
struct E8M0Tag {};
struct Fp4E2M1Tag {};
struct Fp4E1M2Tag {};
}  // namespace ascendc_cpu

using fp8_e8m0_t = ascendc_cpu::StorageByte<ascendc_cpu::E8M0Tag>;
using fp4x2_e2m1_t = ascendc_cpu::StorageByte<ascendc_cpu::Fp4E2M1Tag>;
using fp4x2_e1m2_t = ascendc_cpu::StorageByte<ascendc_cpu::Fp4E1M2Tag>;
static_assert(sizeof(fp8_e8m0_t) == 1 && std::is_trivially_copyable<fp8_e8m0_t>::value,
    "fp8_e8m0_t must be a 1-byte POD");

#if defined(ASCENDC_CPU_DAV_3510)

#include "ascendc_cpu_micro.h"
#include "ascendc_cpu_micro_reduce.h"

namespace ascendc_cpu {

/// src >> k as ShiftRights.md defines it for one lane (k >= 0).
template <typename E>
inline E MicroShiftRight(E v, int64_t k)
{
    constexpr int64_t width = 8 * static_cast<int64_t>(sizeof(E));
    if constexpr (std::is_signed<E>::value) {
        return k >= width ? static_cast<E>(v < 0 ? -1 : 0) : static_cast<E>(v >> k);
    } else {
        return k >= width ? E(0) : static_cast<E>(v >> k);
    }
}

/// src << k as ShiftLefts.md defines it for one lane (k >= 0): a signed lane keeps its sign bit.
template <typename E>
inline E MicroShiftLeft(E v, int64_t k)
{
    using W = std::make_unsigned_t<E>;
    constexpr int64_t width = 8 * static_cast<int64_t>(sizeof(E));
    if (k >= width) {
        return E(0);
    }
    const W shifted = static_cast<W>(static_cast<W>(v) << k);
    if constexpr (std::is_signed<E>::value) {
        const W sign = static_cast<W>(W(1) << (width - 1));
        return static_cast<E>(static_cast<W>((static_cast<W>(v) & sign) | (shifted & static_cast<W>(~sign))));
    } else {
        return static_cast<E>(shifted);
    }
}

/// dst = f(src lane, k) for the lanes on (ZEROING): ShiftLefts and ShiftRights.
template <bool kLeft, AscendC::Reg::MaskMergeMode mode, typename S, typename U>
inline void MicroShift(const char* api, S& dstReg, const S& srcReg, U scalarValue, const AscendC::Reg::MaskReg& mask)
{
    RecordRegister(api);
    using E = typename S::ActualT;
    static_assert(std::is_integral<E>::value, "MicroAPI::ShiftLefts / ShiftRights take integer lanes (table 3)");
    static_assert(mode == AscendC::Reg::MaskMergeMode::ZEROING,
        "MicroAPI::ShiftLefts / ShiftRights: MERGING is not supported (their pages)");
    if constexpr (sizeof(E) == 8) {
        MicroNotModelled<E>(api);
    } else {
        const int64_t k = static_cast<int64_t>(scalarValue);
        if (k < 0) {
            Fail(api, Msg("a negative shift (", k, ") is undefined (its page: 负数行为未定义)"));
        }
        const S src = srcReg;
        MicroLanes<mode>(dstReg, mask, [&](uint32_t i) {
            return kLeft ? MicroShiftLeft<E>(src.lane[i], k) : MicroShiftRight<E>(src.lane[i], k);
        });
    }
}

/// The dual loads: 2 * VL bytes from src, even elements to r0, odd ones to r1.
template <AscendC::Reg::LoadDist dist, typename U, typename T>
inline void MicroLoadDual(const char* api, U& r0, U& r1, const T* src)
{
    using AscendC::Reg::LoadDist;
    using E = typename U::ActualT;
    static_assert(sizeof(T) == sizeof(E), "LoadAlign: the address's element type and the register's differ");
    static_assert(U::REG_NUM == 1, "LoadAlign: the dual loads take RegTraitNumOne registers (the page's table)");
    constexpr uint32_t b = dist == LoadDist::DIST_DINTLV_B8 ? 1 : (dist == LoadDist::DIST_DINTLV_B16 ? 2 : 4);
    static_assert(dist == LoadDist::DIST_DINTLV_B8 || dist == LoadDist::DIST_DINTLV_B16 ||
            dist == LoadDist::DIST_DINTLV_B32,
        "ascendc_cpu: the dual LoadAlign is modelled for DIST_DINTLV_B8/B16/B32");
    static_assert(sizeof(E) == b, "LoadAlign: DIST_DINTLV_Bn needs an n-bit element type");
    MicroAccess(api, src, 2 * sizeof(r0.lane), false);
    const uint8_t* from = reinterpret_cast<const uint8_t*>(src);
    uint8_t* even = reinterpret_cast<uint8_t*>(r0.lane);
    uint8_t* odd = reinterpret_cast<uint8_t*>(r1.lane);
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        std::memcpy(even + i * b, from + 2 * i * b, b);
        std::memcpy(odd + i * b, from + (2 * i + 1) * b, b);
    }
}

/// Lane b of dst = the extremum of src's lanes on in its 32-byte block b (the others 0).
template <bool kMax, typename V>
inline void MicroBlockExtremum(V& dst, const V& src, const AscendC::Reg::MaskReg& mask, const char* api)
{
    using E = typename V::ActualT;
    static_assert(V::REG_NUM == 1, "ascendc_cpu: ReduceDataBlock is modelled for one register");
    static_assert(kIsOneOf<E, half, float, int16_t, uint16_t, int32_t, uint32_t>,
        "ReduceDataBlock MAX / MIN takes half, float, int16_t, uint16_t, int32_t, uint32_t");
    constexpr uint32_t perBlock = kUbBlockBytes / sizeof(E);
    V out;
    for (uint32_t b = 0; b < V::kLanes / perBlock; ++b) {
        V block;
        AscendC::Reg::MaskReg on;
        for (uint32_t i = 0; i < perBlock; ++i) {
            block.lane[i] = src.lane[b * perBlock + i];
            SetMaskLane(on, V::kLanes, i, LaneOn<V>(mask, b * perBlock + i));
        }
        V one;
        MicroExtremum<kMax>(one, block, on, api);
        out.lane[b] = one.lane[0];
    }
    dst = out;
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void ShiftRights(S& dstReg, S& srcReg, U scalarValue, MaskReg& mask)
{
    ascendc_cpu::MicroShift<false, mode>("MicroAPI::ShiftRights", dstReg, srcReg, scalarValue, mask);
}

template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void ShiftLefts(S& dstReg, S& srcReg, U scalarValue, MaskReg& mask)
{
    ascendc_cpu::MicroShift<true, mode>("MicroAPI::ShiftLefts", dstReg, srcReg, scalarValue, mask);
}

template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
    typename V>
inline void Pack(S& dstReg, V& srcReg)
{
    ascendc_cpu::RecordRegister("MicroAPI::Pack");
    using D = typename S::ActualT;
    using E = typename V::ActualT;
    static_assert(std::is_unsigned<D>::value && std::is_integral<E>::value && sizeof(E) == 2 * sizeof(D) &&
            sizeof(E) <= 4,
        "MicroAPI::Pack takes (uint8_t, int16_t/uint16_t), (uint16_t, int32_t/uint32_t) (Pack.md table 3; 64-bit "
        "lanes not modelled)");
    static_assert(part == HighLowPart::LOWEST, "ascendc_cpu: MicroAPI::Pack is modelled for LOWEST only");
    static_assert(S::REG_NUM == 1 && V::REG_NUM == 1, "ascendc_cpu: MicroAPI::Pack is modelled for one register");
    S out;
    for (uint32_t i = 0; i < V::kLanes; ++i) {
        out.lane[i] = static_cast<D>(static_cast<std::make_unsigned_t<E>>(srcReg.lane[i]));
    }
    dstReg = out;
}

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg0);
    ascendc_cpu::MicroLoadDual<dist>("MicroAPI::LoadAlign", dstReg0, dstReg1, srcAddr);
}

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, AddrReg offset,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg0);
    ascendc_cpu::MicroLoadDual<dist>("MicroAPI::LoadAlign", dstReg0, dstReg1, srcAddr + offset.offset);
}

template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T*& srcAddr, int32_t postUpdateStride,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg0);
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign: POST_MODE_NORMAL is not supported");
    ascendc_cpu::MicroLoadDual<dist>("MicroAPI::LoadAlign", dstReg0, dstReg1, srcAddr);
    srcAddr += postUpdateStride;
}

/// A Cast the page lists to or from a type the model only stores: refused when it runs.
template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait, typename Tag,
    const RegTrait& R, typename V>
inline void Cast(RegTensor<ascendc_cpu::StorageByte<Tag>, R>&, V&, MaskReg&)
{
    ascendc_cpu::Fail("MicroAPI::Cast", ascendc_cpu::Msg("a conversion to fp8_e8m0_t or fp4x2 (from ",
        ascendc_cpu::TypeName<typename V::ActualT>(), ") is not modelled"));
}

template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait, typename S,
    typename Tag, const RegTrait& R>
inline void Cast(S&, RegTensor<ascendc_cpu::StorageByte<Tag>, R>&, MaskReg&)
{
    ascendc_cpu::Fail("MicroAPI::Cast", ascendc_cpu::Msg("a conversion from fp8_e8m0_t or fp4x2 (to ",
        ascendc_cpu::TypeName<typename S::ActualT>(), ") is not modelled"));
}

template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait,
    const RegTrait& R1, typename E, const RegTrait& R2,
    typename = std::enable_if_t<std::is_same<E, int32_t>::value || std::is_same<E, uint32_t>::value>>
inline void Cast(RegTensor<uint8_t, R1>& dstReg, RegTensor<E, R2>& srcReg, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Cast");
    static_assert(R1.REG_NUM == 1 && R2.REG_NUM == 1, "ascendc_cpu: MicroAPI::Cast is modelled for one register");
    static_assert(trait.layoutMode != RegLayout::UNKNOWN, "MicroAPI::Cast: a 32-bit -> uint8_t Cast names its RegLayout");
    static_assert(trait.mrgMode != MaskMergeMode::MERGING, "MicroAPI::Cast: ZEROING only (the Cast page's row)");
    using Src = RegTensor<E, R2>;
    const uint32_t layout = static_cast<uint32_t>(trait.layoutMode);
    const bool saturate = ascendc_cpu::RegIntSaturates(trait.satMode == SatMode::SAT ? 1 : (trait.satMode == SatMode::NO_SAT ? 0 : -1));
    RegTensor<uint8_t, R1> out;
    for (uint32_t i = 0; i < Src::kLanes; ++i) {
        if (!ascendc_cpu::LaneOn<Src>(mask, i)) {
            continue;
        }
        const int64_t v = static_cast<int64_t>(srcReg.lane[i]);
        out.lane[4 * i + layout] = !saturate ? static_cast<uint8_t>(v) : static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
    dstReg = out;
}

template <ReduceType type = ReduceType::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
    typename U>
inline void ReduceDataBlock(U& dstReg, U srcReg, MaskReg mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::ReduceDataBlock");
    static_assert(type != ReduceType::SUM, "ascendc_cpu: MicroAPI::ReduceDataBlock is modelled for MAX and MIN");
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::ReduceDataBlock: ZEROING only (ReduceDataBlock.md)");
    ascendc_cpu::MicroBlockExtremum<type == ReduceType::MAX>(dstReg, srcReg, mask, "MicroAPI::ReduceDataBlock");
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void ReduceMaxWithDataBlock(U& dstReg, U srcReg, MaskReg mask)
{
    ReduceDataBlock<ReduceType::MAX, T, mode>(dstReg, srcReg, mask);
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void ReduceMinWithDataBlock(U& dstReg, U srcReg, MaskReg mask)
{
    ReduceDataBlock<ReduceType::MIN, T, mode>(dstReg, srcReg, mask);
}

}  // namespace Reg

/// The level-2 Cast to hifloat8_t the Ascend 950 table lists: refused when it runs.
template <typename U>
inline void Cast(const LocalTensor<hifloat8_t>&, const LocalTensor<U>&, const RoundMode&, const uint32_t,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::Fail("Cast", ascendc_cpu::Msg(ascendc_cpu::TypeName<U>(), " -> hifloat8_t is not modelled"));
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_BITS_H
