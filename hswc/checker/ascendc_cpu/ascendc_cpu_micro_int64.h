// ascendc_cpu_micro_int64.h - MicroAPI Add, Sub, Adds and ReduceSum on int64_t / uint64_t lanes
// (RegTraitNumOne: VL / 8 = 32 lanes a register), as ops-nn's arch35 kernels sum group_index
// (swiglu_group_quant_base.h:740-763 VFProcessGroupIndexSmallVf, swiglu_group_base.h: Adds of 0,
// Add, ReduceSum, on int64_t).
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. The Reg pages
// list the 64-bit types without saying how the instruction computes them; asc-devkit's (82b89a15f)
// 3510 implementation (impl/basic_api/reg_compute/dav_3510/) does:
//
//   Add, Sub (d, a, b, mask)  kernel_reg_compute_vec_binary_impl.h:54-76, 161-182 (AddB64Impl,
//                           SubB64Impl): the low 32-bit words added (subtracted) with a carry
//                           (borrow) out, the high words with it: lane by lane the two's-complement
//                           sum (difference) modulo 2^64, i.e. wrapping. ZEROING.
//   Adds(d, a, s, mask)     kernel_reg_compute_vec_binary_scalar_impl.h:95-110 (AddsImpl, sizeof 8):
//                           Duplicate(s1, s, mask) then Add(d, a, s1, mask): the same wrapping sum.
//   ReduceSum / Reduce<SUM>(d, a, mask)  kernel_reg_compute_vec_reduce_impl.h:73-101 (ReduceSumB64Impl):
//                           the lanes on summed by 16-bit low and middle parts and the 32-bit high
//                           words, each carry added on: lane 0 the sum of the lanes on modulo 2^64
//                           (wrapping; exact in any order), the other lanes 0 (ZEROING, vcadd's).
//
// A lane is on when the mask bit of its first byte is (ascendc_cpu_micro.h). RegTraitNumTwo
// registers of 64-bit lanes are not modelled (they do not compile).
#ifndef ASCENDC_CPU_MICRO_INT64_H
#define ASCENDC_CPU_MICRO_INT64_H

#include "ascendc_cpu_fn.h"

#if defined(ASCENDC_CPU_DAV_3510)

#include <cstdint>
#include <type_traits>

#include "ascendc_cpu_micro.h"
#include "ascendc_cpu_micro_reduce.h"

namespace ascendc_cpu {

template <typename E>
constexpr bool kReg64 = std::is_same<E, int64_t>::value || std::is_same<E, uint64_t>::value;

/// a + b or a - b modulo 2^64 (the two's-complement words of AddB64Impl / SubB64Impl).
template <bool kSub, typename E>
inline E Wrap64(E a, E b)
{
    const uint64_t x = static_cast<uint64_t>(a);
    const uint64_t y = static_cast<uint64_t>(b);
    return static_cast<E>(kSub ? x - y : x + y);
}

/// dst = a + b or a - b modulo 2^64 on the lanes on, the others 0 (ZEROING).
template <bool kSub, typename E>
inline void Micro64Binary(const char* api, AscendC::Reg::RegTensor<E>& dstReg,
    const AscendC::Reg::RegTensor<E>& srcReg0, const AscendC::Reg::RegTensor<E>& srcReg1,
    const AscendC::Reg::MaskReg& mask)
{
    RecordRegister(api);
    const AscendC::Reg::RegTensor<E> a = srcReg0;
    const AscendC::Reg::RegTensor<E> b = srcReg1;
    MicroLanes<AscendC::Reg::MaskMergeMode::ZEROING>(dstReg, mask,
        [&](uint32_t i) { return Wrap64<kSub>(a.lane[i], b.lane[i]); });
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename = std::enable_if_t<ascendc_cpu::kReg64<E>>>
inline void Add(RegTensor<E>& dstReg, RegTensor<E>& srcReg0, RegTensor<E>& srcReg1, MaskReg& mask)
{
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::Add on 64-bit lanes: ZEROING only");
    ascendc_cpu::Micro64Binary<false>("MicroAPI::Add", dstReg, srcReg0, srcReg1, mask);
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename = std::enable_if_t<ascendc_cpu::kReg64<E>>>
inline void Sub(RegTensor<E>& dstReg, RegTensor<E>& srcReg0, RegTensor<E>& srcReg1, MaskReg& mask)
{
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::Sub on 64-bit lanes: ZEROING only");
    ascendc_cpu::Micro64Binary<true>("MicroAPI::Sub", dstReg, srcReg0, srcReg1, mask);
}

template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename = std::enable_if_t<ascendc_cpu::kReg64<E>>>
inline void Adds(RegTensor<E>& dstReg, RegTensor<E>& srcReg, U scalarValue, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Adds");
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::Adds: ZEROING only");
    const E s = static_cast<E>(scalarValue);
    const RegTensor<E> a = srcReg;
    ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) { return ascendc_cpu::Wrap64<false>(a.lane[i], s); });
}

template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename = std::enable_if_t<ascendc_cpu::kReg64<E>>>
inline void ReduceSum(RegTensor<E>& dstReg, RegTensor<E> srcReg, MaskReg mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::ReduceSum");
    static_assert(mode == MaskMergeMode::ZEROING, "MicroAPI::ReduceSum: ZEROING only");
    E sum = 0;
    for (uint32_t i = 0; i < RegTensor<E>::kLanes; ++i) {
        if (ascendc_cpu::LaneOn<RegTensor<E>>(mask, i)) {
            sum = ascendc_cpu::Wrap64<false>(sum, srcReg.lane[i]);
        }
    }
    RegTensor<E> out;
    out.lane[0] = sum;
    dstReg = out;
}

}  // namespace Reg
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_INT64_H
