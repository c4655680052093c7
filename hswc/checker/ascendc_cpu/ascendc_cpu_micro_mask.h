// ascendc_cpu_micro_mask.h - Ascend 950's MicroAPI mask-register logic and register Copy beyond
// ascendc_cpu_micro.h: Not on a MaskReg, and the older names opbase's ATVOSS reduce template
// (atvoss/reduce/reduce_operator.h) and ops-nn's arch35 kernels still call.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. Pages cited
// below are under asc-devkit's docs/zh/api/SIMD-API/基础API/Reg矢量计算/ (REG); the older names are
// asc-devkit's impl/basic_api/reg_compute/ (IMPL), which keeps them beside the new ones.
//
//   Not(dst, src, mask)     REG/逻辑计算/Not.md:37-39, 53, 84: dst bit = mask bit && !src bit, every
//   MaskNot(dst, src, mask)   VL/8 bit. The page says "根据mask对输入数据src执行按位取反操作" and leaves
//                           the bits mask leaves off open: 0 assumed, as the model's And / Or / Xor
//                           MaskReg forms (ascendc_cpu_micro.h) take them. MaskNot is Not's older
//                           name (IMPL/kernel_reg_compute_maskreg_intf_impl.h:50-51: both call
//                           MaskNotImpl, the compiler's pnot).
//   MaskAnd / MaskOr / MaskXor(dst, src0, src1, mask)  the older names of the MaskReg And / Or / Xor
//                           (IMPL/kernel_reg_compute_maskreg_intf_impl.h:59-83; Xor.md:37-39, 53)
//   MaskMov(dst, src[, mask])  the older name of the MaskReg Move (IMPL/..._maskreg_intf_impl.h:85-89)
//   Copy(dstReg, srcReg[, mask])  the register Move under its other name (IMPL/
//                           kernel_reg_compute_copy_intf_impl.h:38-59: Copy and Move both call
//                           CopyImpl, the compiler's vmov; MERGING only, dav_3510/
//                           kernel_reg_compute_copy_impl.h:40-42): the lanes on copied, the others
//                           kept (REG/Reg数据搬入/Move.md:31, 58, 79).
#ifndef ASCENDC_CPU_MICRO_MASK_H
#define ASCENDC_CPU_MICRO_MASK_H

#if defined(ASCENDC_CPU_DAV_3510)

#include <cstdint>

#include "ascendc_cpu_micro.h"
#include "ascendc_cpu_micro_reduce.h"

namespace AscendC {
namespace Reg {

/// The MaskReg Not: dst bit = mask bit && !src bit (the bits mask leaves off 0, assumed).
inline void Not(MaskReg& dst, MaskReg& src, MaskReg& mask)
{
    MaskReg out;
    for (uint32_t k = 0; k < VECTOR_REG_WIDTH; ++k) {
        out.on[k] = mask.on[k] && !src.on[k];
    }
    dst = out;
}

inline void MaskNot(MaskReg& dst, MaskReg& src, MaskReg& mask)
{
    Not(dst, src, mask);
}

inline void MaskAnd(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)
{
    And(dst, src0, src1, mask);
}

inline void MaskOr(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)
{
    Or(dst, src0, src1, mask);
}

inline void MaskXor(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)
{
    Xor(dst, src0, src1, mask);
}

inline void MaskMov(MaskReg& dst, MaskReg& src, MaskReg& mask)
{
    Move(dst, src, mask);
}

inline void MaskMov(MaskReg& dst, MaskReg& src)
{
    Move(dst, src);
}

/// The register Move under its other name: the lanes on copied, the others kept (MERGING only).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
inline void Copy(U& dstReg, U& srcReg, MaskReg mask)
{
    static_assert(std::is_same<T, DefaultType>::value || std::is_same<T, typename U::ActualT>::value,
        "MicroAPI::Copy: T is not the register's element type");
    static_assert(mode == MaskMergeMode::MERGING, "MicroAPI::Copy takes MaskMergeMode::MERGING only (Move.md)");
    Move<T, mode>(dstReg, srcReg, mask);
}

template <typename T = DefaultType, typename U>
inline void Copy(U& dstReg, U& srcReg)
{
    Move<T>(dstReg, srcReg);
}

}  // namespace Reg
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_MASK_H
