// ascendc_cpu_micro_reduce.h - Ascend 950's MicroAPI calls ops-nn's arch35 row kernels (the
// softmax family, ClippedSwiglu, SwishGrad, SoftmaxCrossEntropyWithLogits) make beyond
// ascendc_cpu_micro.h: the register reduction, Move, the fused multiply-adds, Duplicate's Tensor
// form, UnPack, LocalMemBar, the mask intrinsics and the unaligned store.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. Pages cited
// below are under asc-devkit's docs/zh/api/SIMD-API/基础API/Reg矢量计算/ (REG) and docs/zh/api/附录/
// (APPENDIX); the declarations follow include/basic_api/reg_compute/.
//
//   Reduce<ReduceType::SUM>(d, s, mask)  REG/归约计算/Reduce.md:33, 101, 108, 140-148, 155: the lanes on,
//                           the others as 0, added as a binary tree of pairs (lane 2i + lane 2i+1,
//                           then pairs of those ...), each addition the lane Add's (one RNE
//                           rounding in T; APPENDIX/Reg矢量计算接口精度标准汇总.md:28 "half/float:
//                           0ulp, 采用二叉树结构的成对累加策略"); d lane 0 the sum. half, float, and the
//                           integer pairs int16 -> int32, uint16 -> uint32, int32, uint32 (wrapping);
//                           64-bit lanes compile and are refused when run.
//   Reduce<ReduceType::MAX / MIN>           Reduce.md:35-37, 102-105, 114, 156-158: d lane 0 the
//                           largest (smallest) of the lanes on, lane 1 the index of the first lane
//                           holding it, stored in T's bits (half: uint16_t, float: uint32_t);
//                           max(-0, +0) = +0, min(-0, +0) = -0; a NaN lane gives NaN and the index of
//                           the first NaN. Not specified, refused when run: no lane on, or every lane
//                           on -inf (MAX) / +inf (MIN) for floats (the page says the lanes off count as
//                           "该数据类型的最小值/最大值", which for a float may be -inf or the lowest
//                           finite value; the result then depends on which). Assumed: the NaN written
//                           is the default quiet NaN (the page says "该数据类型的nan", not its bits);
//                           d's other lanes are 0 (ZEROING; the page does not say).
//   Move(d, s, mask)        REG/Reg数据搬入/Move.md:31, 58, 79: the lanes on copied, the others keep d
//                           (MERGING, the only mode); Move(d, s) copies every lane. The MaskReg form,
//                           REG/MaskReg计算/Move.md:31: d bit = mask bit && s bit; without a mask d = s.
//   MulDstAdd(d, s0, s1, mask)  REG/复合计算/MulDstAdd.md:31-35: d = d * s0 + s1 with one rounding
//                           (APPENDIX/Reg矢量计算接口精度标准汇总.md:25 "同比Fma(x, y, z)"); ZEROING only
//                           (MulDstAdd.md:51); half, bfloat16_t, float (the page's theoretical-
//                           performance table; its own type table's "half, half -> float" cannot
//                           be one RegTensor type U, so it is not modelled).
//   Duplicate(d, s, mask)   REG/数据填充/Duplicate.md:31-35 (Tensor mode): s's lane 0 to the lanes on
//   UnPack<T, U, HighLowPart>(d, s)  REG/数据压缩/UnPack.md:31-33: the low or high half of s's integer lanes
//                           widened (sign- or zero-extended) into d's
//   LocalMemBar<src, dst>() REG/同步控制/LocalMemBar.md:31: orders the VF's vector pipelines as
//                           ascendc_cpu_vf.h says (a load, or store, of bytes an earlier store
//                           of the same VF wrote through another register, with no barrier
//                           between, is a broken rule); a pair outside its table 3 does not
//                           compile; the SCALAR_* pairs order nothing the model sees.
//   plt_b8 / plt_b16 / plt_b32(count, POST_UPDATE)  UpdateMask<bN>(count), which asc-devkit's
//                           implementation is (kernel_reg_compute_maskreg_impl.h:30-56)
//   MulAddDst(d, s0, s1, mask)  REG/复合计算/MulAddDst.md:31-35: d = s0 * s1 + d, fused (precision table
//                           :26 "同比Fma"); ZEROING only
//   UnalignRegForStore, StoreUnAlign(dst, s, ureg, n) and StoreUnAlignPost(dst, ureg, k)
//                           REG/Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md:46-55, 95, 126-146, 161: the
//                           first n elements of s go to dst (any address), dst += n; the bytes past
//                           the last 32-byte boundary they reach stay in ureg (32 bytes); the next
//                           StoreUnAlign, which must continue where they end (the page's 场景二
//                           joins them), writes them with its own up to its last boundary, and
//                           StoreUnAlignPost writes what ureg holds (then dst += k with
//                           POST_MODE_UPDATE). n above the register's lanes is refused.
//   UnalignRegForLoad, LoadUnAlignPre(ureg, src), LoadUnAlign(d, ureg, src[, n])  REG/Reg数据搬入/
//                           连续非对齐搬入（LoadUnAlign）.md:46, 65, 111, 122-138 (图1, 图2): one
//                           register's bytes from src (any address; with n, then src += n). The
//                           bytes before src's next 32-byte boundary come from ureg, which holds
//                           the 32-byte block LoadUnAlignPre read, or the one holding the byte after
//                           the previous LoadUnAlign's last: a LoadUnAlign whose src lies in
//                           another block (never prepared, or not continuing) is refused.
#ifndef ASCENDC_CPU_MICRO_REDUCE_H
#define ASCENDC_CPU_MICRO_REDUCE_H

#if defined(ASCENDC_CPU_DAV_3510)

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ascendc_cpu_micro.h"

namespace AscendC {
namespace Reg {

enum class ReduceType { SUM = 0, MAX, MIN };
enum class HighLowPart { LOWEST, HIGHEST };
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };

/// A barrier between a VF's UB pipelines (REG/同步控制/LocalMemBar.md:31, table 3 the pairs it
/// takes): dst waits for src (ascendc_cpu_vf.h's rule; VEC_ALL both vector pipelines).
template <MemType src, MemType dst>
inline void LocalMemBar()
{
    using M = MemType;
    static_assert((src == M::VEC_STORE && (dst == M::VEC_LOAD || dst == M::VEC_STORE || dst == M::SCALAR_LOAD ||
                                              dst == M::SCALAR_STORE)) ||
            (src == M::VEC_LOAD && (dst == M::VEC_STORE || dst == M::SCALAR_STORE)) ||
            (src == M::SCALAR_STORE && (dst == M::VEC_LOAD || dst == M::VEC_STORE)) ||
            (src == M::SCALAR_LOAD && dst == M::VEC_STORE) ||
            (src == M::VEC_ALL && (dst == M::VEC_ALL || dst == M::SCALAR_ALL)) ||
            (src == M::SCALAR_ALL && dst == M::VEC_ALL),
        "LocalMemBar: this src / dst pair is not one LocalMemBar.md's table 3 allows");
    constexpr bool all = src == M::VEC_ALL && dst == M::VEC_ALL;
    ascendc_cpu::VfBarrier(all || (src == M::VEC_STORE && dst == M::VEC_LOAD),
        all || (src == M::VEC_STORE && dst == M::VEC_STORE));
}

/// The 32-byte unaligned store register: bytes written by StoreUnAlign and not yet in the UB.
struct UnalignRegForStore {
    uint8_t* addr = nullptr;  ///< where the pending bytes go
    uint32_t bytes = 0;       ///< how many (fewer than 32)
    uint8_t data[32] = {};
};

/// The 32-byte unaligned load register: which 32-byte block of the UB it holds.
struct UnalignRegForLoad {
    const uint8_t* block = nullptr;
};

}  // namespace Reg
}  // namespace AscendC

/// The compiler's predicate intrinsics MicroAPI::UpdateMask is made of (asc-devkit impl/basic_api/
/// reg_compute/dav_3510/kernel_reg_compute_maskreg_impl.h:30-56: UpdateMask<bN type>(count) is
/// `plt_bN(count, POST_UPDATE)`), which ops-nn's softmax kernels call themselves.
enum AscendcCpuPostMode { POST_UPDATE = 1 };
inline AscendC::Reg::MaskReg plt_b8(uint32_t& count, AscendcCpuPostMode)
{
    return AscendC::Reg::UpdateMask<uint8_t>(count);
}
inline AscendC::Reg::MaskReg plt_b16(uint32_t& count, AscendcCpuPostMode)
{
    return AscendC::Reg::UpdateMask<uint16_t>(count);
}
inline AscendC::Reg::MaskReg plt_b32(uint32_t& count, AscendcCpuPostMode)
{
    return AscendC::Reg::UpdateMask<uint32_t>(count);
}

namespace ascendc_cpu {

/// a > b in Reduce's order: -0 < +0 (Reduce.md:104-105); NaN is handled by the caller.
template <typename E>
inline bool MicroAbove(E a, E b)
{
    if constexpr (std::is_integral<E>::value) {
        return a > b;
    } else {
        const double x = CompareOperand(a);
        const double y = CompareOperand(b);
        return x > y || (x == 0 && y == 0 && !std::signbit(x) && std::signbit(y));
    }
}

/// lane 0 = the sum of the lanes on (the others 0) as a binary tree of pairs in T.
template <typename D, typename S, typename V>
inline D MicroTreeSum(const V& src, const AscendC::Reg::MaskReg& mask)
{
    constexpr uint32_t n = V::kLanes;
    D part[n];
    for (uint32_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral<D>::value) {
            part[i] = LaneOn<V>(mask, i) ? static_cast<D>(src.lane[i]) : D(0);
        } else {
            part[i] = LaneOn<V>(mask, i) ? src.lane[i] : FromDouble<D>(0.0);
        }
    }
    for (uint32_t width = n; width > 1; width /= 2) {
        for (uint32_t i = 0; i < width / 2; ++i) {
            if constexpr (std::is_integral<D>::value) {
                using W = std::make_unsigned_t<D>;
                part[i] = static_cast<D>(static_cast<W>(part[2 * i]) + static_cast<W>(part[2 * i + 1]));
            } else {
                part[i] = ArithAdd(part[2 * i], part[2 * i + 1]);
            }
        }
    }
    return part[0];
}

/// The index i as T's bits (Reduce.md:114).
template <typename E>
inline E MicroIndexBits(uint32_t i)
{
    if constexpr (std::is_integral<E>::value) {
        return static_cast<E>(i);
    } else {
        using Bits = std::conditional_t<sizeof(E) == 2, uint16_t, uint32_t>;
        const Bits b = static_cast<Bits>(i);
        E e;
        std::memcpy(static_cast<void*>(&e), &b, sizeof e);
        return e;
    }
}

template <bool kMax, typename V>
inline void MicroExtremum(V& dst, const V& src, const AscendC::Reg::MaskReg& mask, const char* api)
{
    using E = typename V::ActualT;
    bool any = false;
    bool allInf = true;
    uint32_t at = 0;
    E best{};
    for (uint32_t i = 0; i < V::kLanes; ++i) {
        if (!LaneOn<V>(mask, i)) {
            continue;
        }
        const E v = src.lane[i];
        if constexpr (!std::is_integral<E>::value) {
            const double d = CompareOperand(v);
            if (std::isnan(d)) {
                best = FromDouble<E>(std::numeric_limits<double>::quiet_NaN());
                at = i;
                any = true;
                allInf = false;
                break;
            }
            allInf = allInf && std::isinf(d) && (d < 0) == kMax;
        }
        if (!any || (kMax ? MicroAbove(v, best) : MicroAbove(best, v))) {
            best = v;
            at = i;
        }
        any = true;
    }
    if constexpr (std::is_integral<E>::value) {
        if (!any) {
            best = kMax ? std::numeric_limits<E>::lowest() : std::numeric_limits<E>::max();
        }
    } else if (!any || allInf) {
        Fail(api, Msg(any ? "every lane on is " : "no lane is on: the result is ", any ? (kMax ? "-inf" : "+inf") : "",
            any ? ": the lanes off count as the type's " : "the type's ", kMax ? "minimum" : "maximum",
            ", which Reduce.md leaves unspecified for a float (-inf or the lowest finite value; not modelled)"));
    }
    V out;
    out.lane[0] = best;
    out.lane[1] = MicroIndexBits<E>(any ? at : 0);
    dst = out;
}

/// The pending bytes of an UnalignRegForStore go to the UB.
inline void MicroFlushUnaligned(const char* api, AscendC::Reg::UnalignRegForStore& ureg)
{
    if (ureg.bytes != 0) {
        MicroAccess(api, ureg.addr, ureg.bytes, true, 1);
        std::memcpy(ureg.addr, ureg.data, ureg.bytes);
    }
    ureg.bytes = 0;
}

/// dstReg lane i = a_i * b_i + c_i with one rounding, for the lanes on (the others 0): the register
/// multiply-adds MulDstAdd and MulAddDst, on half, bfloat16_t, float.
template <typename U>
inline void MicroFusedMulAdd(const char* api, U& dstReg, const U& a, const U& b, const U& c,
    const AscendC::Reg::MaskReg& mask)
{
    RecordRegister(api);
    using E = typename U::ActualT;
    static_assert(kIsOneOf<E, half, bfloat16_t, float>,
        "ascendc_cpu: MicroAPI::MulDstAdd / MulAddDst are modelled for half, bfloat16_t, float");
    MicroLanes<AscendC::Reg::MaskMergeMode::ZEROING>(dstReg, mask,
        [&](uint32_t i) { return FusedMulAdd(a.lane[i], b.lane[i], c.lane[i]); });
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

/// Reduce (see the header comment): SUM, MAX or MIN of the lanes on into dstReg.
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
    MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
inline void Reduce(S& dstReg, V srcReg, MaskReg mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Reduce");
    using D = typename S::ActualT;
    using E = typename V::ActualT;
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::Reduce takes MaskMergeMode::ZEROING only (Reduce.md)");
    static_assert(S::REG_NUM == 1 && V::REG_NUM == 1, "ascendc_cpu: MicroAPI::Reduce is modelled for one register");
    if constexpr (type == ReduceType::SUM) {
        static_assert((std::is_same<D, E>::value && ascendc_cpu::kIsOneOf<E, half, float, int32_t, uint32_t,
                          int64_t, uint64_t>) ||
                (std::is_same<D, int32_t>::value && std::is_same<E, int16_t>::value) ||
                (std::is_same<D, uint32_t>::value && std::is_same<E, uint16_t>::value),
            "MicroAPI::Reduce SUM supports (half, half), (float, float), (int32_t, int16_t), (uint32_t, uint16_t), "
            "(int32_t, int32_t), (uint32_t, uint32_t), 64-bit integers (Reduce.md table 3)");
        if constexpr (sizeof(E) == 8) {
            ascendc_cpu::MicroNotModelled<E>("MicroAPI::Reduce");
        } else {
            S out;
            out.lane[0] = ascendc_cpu::MicroTreeSum<D, E>(srcReg, mask);
            dstReg = out;
        }
    } else {
        static_assert(std::is_same<D, E>::value && ascendc_cpu::kIsOneOf<E, half, float, int16_t, uint16_t,
                          int32_t, uint32_t, int64_t, uint64_t>,
            "MicroAPI::Reduce MAX / MIN supports half, float and 16-64-bit integers, dst as src (Reduce.md table 4)");
        if constexpr (sizeof(E) == 8) {
            ascendc_cpu::MicroNotModelled<E>("MicroAPI::Reduce");
        } else {
            ascendc_cpu::MicroExtremum<type == ReduceType::MAX>(dstReg, srcReg, mask, "MicroAPI::Reduce");
        }
    }
}

/// The lanes of srcReg the mask enables into dstReg, the others kept (MERGING, Move.md).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
inline void Move(U& dstReg, U& srcReg, MaskReg mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Move");
    static_assert(mode == MaskMergeMode::MERGING, "MicroAPI::Move does not support MaskMergeMode::ZEROING (Move.md)");
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        if (ascendc_cpu::LaneOn<U>(mask, i)) {
            dstReg.lane[i] = srcReg.lane[i];
        }
    }
}

template <typename T = DefaultType, typename U>
inline void Move(U& dstReg, U& srcReg)
{
    ascendc_cpu::RecordRegister("MicroAPI::Move");
    dstReg = srcReg;
}

/// MaskReg Move: dst bit = mask bit && src bit (MaskReg计算/Move.md: the others 0).
inline void Move(MaskReg& dst, MaskReg& src, MaskReg& mask)
{
    MaskReg out;
    for (uint32_t k = 0; k < VECTOR_REG_WIDTH; ++k) {
        out.on[k] = mask.on[k] && src.on[k];
    }
    dst = out;
}

inline void Move(MaskReg& dst, MaskReg& src)
{
    dst = src;
}

/// Duplicate's Tensor form (REG/数据填充/Duplicate.md:31-35): srcReg's lowest lane to every lane of
/// dstReg the mask enables, the others 0 (ZEROING) or kept (MERGING); `pos` LOWEST only.
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
    typename S>
inline void Duplicate(S& dstReg, S& srcReg, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Duplicate");
    static_assert(pos == HighLowPart::LOWEST, "MicroAPI::Duplicate: pos takes LOWEST only (Duplicate.md)");
    const auto first = srcReg.lane[0];
    ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t) { return first; });
}

/// The low (LOWEST) or high (HIGHEST) half of srcReg's lanes, each widened to T: sign-extended for
/// signed, zero-extended for unsigned lanes (UnPack.md:31-33, table 3).
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
    typename V>
inline void UnPack(S& dstReg, V& srcReg)
{
    ascendc_cpu::RecordRegister("MicroAPI::UnPack");
    using D = typename S::ActualT;
    using E = typename V::ActualT;
    static_assert(std::is_integral<D>::value && std::is_integral<E>::value && sizeof(D) == 2 * sizeof(E) &&
            std::is_signed<D>::value == std::is_signed<E>::value,
        "MicroAPI::UnPack takes (int16_t, int8_t), (uint16_t, uint8_t) ... (uint64_t, uint32_t) (UnPack.md table 3)");
    static_assert(S::REG_NUM == 1 && V::REG_NUM == 1, "ascendc_cpu: MicroAPI::UnPack is modelled for one register");
    const uint32_t from = part == HighLowPart::HIGHEST ? V::kLanes / 2 : 0;
    S out;
    for (uint32_t i = 0; i < S::kLanes; ++i) {
        out.lane[i] = static_cast<D>(srcReg.lane[from + i]);
    }
    dstReg = out;
}

/// dstReg = dstReg * srcReg0 + srcReg1, fused (one rounding), ZEROING.
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void MulDstAdd(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::MulDstAdd's MERGING mode is not supported (MulDstAdd.md)");
    const U d = dstReg;
    ascendc_cpu::MicroFusedMulAdd("MicroAPI::MulDstAdd", dstReg, d, srcReg0, srcReg1, mask);
}

/// dstReg = srcReg0 * srcReg1 + dstReg, fused (one rounding: the precision table's "同比Fma"),
/// ZEROING (REG/复合计算/MulAddDst.md:31-35, 51); half, bfloat16_t, float (the integer types of its
/// table are not modelled).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void MulAddDst(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::MulAddDst's MERGING mode is not supported (MulAddDst.md)");
    const U d = dstReg;
    ascendc_cpu::MicroFusedMulAdd("MicroAPI::MulAddDst", dstReg, srcReg0, srcReg1, d, mask);
}

/// The first postUpdateStride elements of srcReg to dstAddr (any alignment), dstAddr advanced; the
/// bytes past the last 32-byte boundary (with those ureg held before) wait in ureg.
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, uint32_t postUpdateStride)
{
    using E = typename U::ActualT;
    static_assert(std::is_same<T, DefaultType>::value || sizeof(T) == sizeof(E),
        "StoreUnAlign: the address's element type and the register's differ");
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreUnAlign: POST_MODE_NORMAL is not supported");
    static_assert(U::REG_NUM == 1, "ascendc_cpu: MicroAPI::StoreUnAlign is modelled for one register");
    const char* api = "MicroAPI::StoreUnAlign";
    if (postUpdateStride > U::kLanes) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("stores ", postUpdateStride, " elements from a register of ",
            U::kLanes, " (the page: an element count of at most one register)"));
    }
    uint8_t* p = reinterpret_cast<uint8_t*>(dstAddr);
    if (ureg.bytes != 0 && ureg.addr + ureg.bytes != p) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("the UnalignRegForStore holds ", ureg.bytes,
            " bytes ending elsewhere than this store's address (StoreUnAlignPost first: the page joins them)"));
    }
    const uint64_t bytes = static_cast<uint64_t>(postUpdateStride) * sizeof(E);
    if (bytes != 0) {
        // What ureg holds and this store's bytes, one run from `start`; written up to the last
        // 32-byte boundary it reaches, the rest kept in ureg.
        uint8_t run[32 + sizeof(srcReg.lane)];
        const uint32_t held = ureg.bytes;
        uint8_t* start = held != 0 ? ureg.addr : p;
        std::memcpy(run, ureg.data, held);
        std::memcpy(run + held, reinterpret_cast<const uint8_t*>(srcReg.lane), bytes);
        const uint8_t* base = ascendc_cpu::Arena();
        const uint64_t from = static_cast<uint64_t>(start - base);
        const uint64_t end = from + held + bytes;
        const uint64_t cut = end - end % ascendc_cpu::kUbBlockBytes;
        const uint64_t now = cut > from ? cut - from : 0;
        if (now != 0) {
            ascendc_cpu::MicroAccess(api, start, now, true, 1);
            std::memcpy(start, run, now);
        }
        ureg.addr = start + now;
        ureg.bytes = static_cast<uint32_t>(held + bytes - now);
        std::memcpy(ureg.data, run + now, ureg.bytes);
    }
    dstAddr += postUpdateStride;
}

/// Writes what ureg holds; dstAddr += postUpdateStride with POST_MODE_UPDATE.
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
inline void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride)
{
    ascendc_cpu::MicroFlushUnaligned("MicroAPI::StoreUnAlignPost", ureg);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) {
        dstAddr += postUpdateStride;
    }
}

/// The 32-byte block of the UB holding address p.
inline const uint8_t* UnalignBlockOf(const void* p)
{
    const uint8_t* base = ascendc_cpu::Arena();
    const uint64_t off = static_cast<uint64_t>(static_cast<const uint8_t*>(p) - base);
    return base + off / ascendc_cpu::kUbBlockBytes * ascendc_cpu::kUbBlockBytes;
}

/// The unaligned load register's 32-byte block (LoadUnAlignPre's, then each LoadUnAlign's next).
template <typename T>
inline void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr)
{
    ascendc_cpu::RecordRegister("MicroAPI::LoadUnAlignPre");
    ureg.block = UnalignBlockOf(srcAddr);
    ascendc_cpu::MicroAccess("MicroAPI::LoadUnAlignPre", ureg.block, ascendc_cpu::kUbBlockBytes, false);
}

/// One register from srcAddr (any alignment): header comment.
template <typename T = DefaultType, typename U>
inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T* srcAddr)
{
    using E = typename U::ActualT;
    static_assert(std::is_same<T, DefaultType>::value || sizeof(T) == sizeof(E),
        "LoadUnAlign: the address's element type and the register's differ");
    const char* api = "MicroAPI::LoadUnAlign";
    ascendc_cpu::RecordRegister(api);
    constexpr uint64_t kBytes = sizeof(dstReg.lane);
    if (ureg.block == nullptr || ureg.block != UnalignBlockOf(srcAddr)) {
        ascendc_cpu::Fail(api, ureg.block == nullptr ? std::string("the UnalignRegForLoad was never prepared "
            "(LoadUnAlignPre first: 连续非对齐搬入（LoadUnAlign）.md:46, :111)") : ascendc_cpu::Msg("the "
            "UnalignRegForLoad holds the 32-byte block at UB offset ", ureg.block - ascendc_cpu::Arena(),
            ", not this load's (offset ", reinterpret_cast<const uint8_t*>(srcAddr) - ascendc_cpu::Arena(),
            "): LoadUnAlignPre again, or load where the previous LoadUnAlign ended (the page's 图2)"));
    }
    ascendc_cpu::MicroAccess(api, srcAddr, kBytes, false, 1);
    std::memcpy(reinterpret_cast<uint8_t*>(dstReg.lane), static_cast<const void*>(srcAddr), kBytes);
    ureg.block = UnalignBlockOf(reinterpret_cast<const uint8_t*>(srcAddr) + kBytes);
}

template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadUnAlign: POST_MODE_NORMAL is not supported");
    LoadUnAlign<T>(dstReg, ureg, static_cast<__ubuf__ T*>(srcAddr));
    srcAddr += postUpdateStride;
}

}  // namespace Reg

// An unqualified `StoreAlign<float, StoreDist::...>(addr, reg, mask)` in a namespace that only says
// `using namespace AscendC` (ops-nn's softmax_cross_entropy_with_logits_full_load.h:398) finds
// Reg::StoreAlign by argument-dependent lookup under C++20's rule for template arguments (P0846),
// which the device compiler applies and g++ -std=c++17 does not: the names made visible here.
// So are `Reduce<ReduceType::SUM>(d, s, mask)` and `Move<float, MaskMergeMode::MERGING>(d, s,
// mask)` (softmax_grad_ext_base.h:123, :144); ReduceType is AscendC's, Reg's an alias of it
// (asc-devkit impl/utils/common_types.h:25, include/basic_api/reg_compute/
// kernel_reg_compute_utils.h:304).
using Reg::LoadAlign;
using Reg::StoreAlign;
using Reg::Move;
using Reg::Reduce;
using Reg::ReduceType;
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_REDUCE_H
