// ascendc_cpu_scalar_bits.h - the device compiler's scalar bit builtins, as kernels call them.
//
// Part of the AscendC CPU model (see README.md). ops-nn's arch35 kernels call the builtins
// the library's documented scalar functions are made of, unqualified and outside AscendC::
// (softmax_grad_ext: `63 - clz(num)`, `bcnt1(idx ^ (idx + 1)) - 1`,
// op_kernel/arch35/softmax_grad_ext_base.h:86, :93):
//   clz(v)    the zeros above the highest 1 of a uint64_t, 64 for 0: what CountLeadingZero
//             and asc_clz return (asc-devkit 82b89a15f impl/basic_api/kernel_scalar.h:38
//             `CountLeadingZeroImpl(v) { return clz(v); }`, impl/c_api/instr_impl/npu_arch_3510/
//             scalar_compute_impl/asc_clz_impl.h:16; docs/zh/api/SIMD-API/基础API/标量计算/
//             CountLeadingZero.md:37 "输入为0时返回64", SIMD-API/C-API/scalar_compute/asc_clz.md)
//   bcnt1(v)  the 1 bits of a uint64_t: GetBitCount<1> and asc_popc (kernel_scalar.h:29,
//             npu_arch_3510/scalar_compute_impl/asc_popc_impl.h:21; GetBitCount.md, asc_popc.md)
//   bcnt0(v)  the 0 bits: GetBitCount<0> (kernel_scalar.h:31; GetBitCount.md)
// Each is the model's AscendC function of the same documented meaning (ascendc_cpu_scalar.h),
// so the two spellings cannot disagree. Both SoCs: the pages list Atlas A2/A3 and Ascend 950.
#ifndef ASCENDC_CPU_SCALAR_BITS_H
#define ASCENDC_CPU_SCALAR_BITS_H

#include <cstdint>

#include "ascendc_cpu_fn.h"
#include "ascendc_cpu_scalar.h"

ASCENDC_CPU_FN int64_t clz(uint64_t valueIn) { return AscendC::CountLeadingZero(valueIn); }

ASCENDC_CPU_FN int64_t bcnt1(uint64_t valueIn) { return AscendC::GetBitCount<1>(valueIn); }

ASCENDC_CPU_FN int64_t bcnt0(uint64_t valueIn) { return AscendC::GetBitCount<0>(valueIn); }

#endif  // ASCENDC_CPU_SCALAR_BITS_H
