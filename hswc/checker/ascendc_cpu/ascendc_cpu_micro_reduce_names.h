// ascendc_cpu_micro_reduce_names.h - MicroAPI ReduceSum, ReduceMax and ReduceMin: the register
// reduction by its per-kind names, as ops-nn's arch35 kernels call it (swiglu_group's group index
// sum, op_kernel/arch35/swiglu_group_base.h:211).
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. asc-devkit
// 82b89a15f impl/basic_api/reg_compute/kernel_reg_compute_vec_reduce_intf_impl.h:38-56 defines
// each as its Impl, and dav_3510/kernel_reg_compute_vec_reduce_impl.h:37-70 ReduceSumImpl as the
// vcadd that Reduce<ReduceType::SUM> is (the same type pairs, ZEROING only); ReduceMax and
// ReduceMin likewise. So each forwards to the model's Reduce (ascendc_cpu_micro_reduce.h), whose
// header says what it computes and what it refuses (64-bit lanes compile and are refused when
// run).
#ifndef ASCENDC_CPU_MICRO_REDUCE_NAMES_H
#define ASCENDC_CPU_MICRO_REDUCE_NAMES_H

#include "ascendc_cpu_fn.h"

#if defined(ASCENDC_CPU_DAV_3510)

#include "ascendc_cpu_micro_reduce.h"

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
    typename S, typename V, typename = typename S::ActualT>
inline void ReduceSum(S& dstReg, V srcReg, MaskReg mask)
{
    Reduce<ReduceType::SUM, T, U, mode>(dstReg, srcReg, mask);
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U,
    typename = typename U::ActualT>
inline void ReduceMax(U& dstReg, U srcReg, MaskReg mask)
{
    Reduce<ReduceType::MAX, T, T, mode>(dstReg, srcReg, mask);
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U,
    typename = typename U::ActualT>
inline void ReduceMin(U& dstReg, U srcReg, MaskReg mask)
{
    Reduce<ReduceType::MIN, T, T, mode>(dstReg, srcReg, mask);
}

}  // namespace Reg
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_REDUCE_NAMES_H
