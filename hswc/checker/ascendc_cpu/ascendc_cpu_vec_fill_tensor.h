// ascendc_cpu_vec_fill_tensor.h - Ascend 950's Duplicate from a LocalTensor's first element.
//
// Part of the AscendC CPU model (see README.md).
//   Duplicate(dst, src, count)   dst[i] = src[0] for i < count (asc-devkit 82b89a15f
//                                docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md:49,
//                                :68 "该函数原型，仅支持Ascend 950PR/Ascend 950DT", :100 "会将src[0]复制多次并
//                                填充到向量中"); operands in UB and 32-byte aligned (通用地址对齐约束).
// src[0] is read before dst is written (the implementation loads src into a register, broadcasts
// lane 0 and stores it: impl/basic_api/dav_3510/kernel_operator_vec_duplicate_impl.h:163-178), so
// dst may be src. count 0 writes nothing there (repeatTime 0; Duplicate.md:153 does not promise a
// NOP): modelled as the count form with a scalar (ascendc_cpu_vec_arith.h) does. Element types:
// the count form's (the page lists more for this form: fp8, int64_t, ...; not modelled).
// Atlas A2/A3 have no such form: not declared there, so such a kernel fails to compile.
#ifndef ASCENDC_CPU_VEC_FILL_TENSOR_H
#define ASCENDC_CPU_VEC_FILL_TENSOR_H

#if defined(ASCENDC_CPU_DAV_3510)

#include <cstdint>

#include "ascendc_cpu_vec_arith.h"

namespace AscendC {

/// dst[i] = src[0] for i < count (Ascend 950).
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);  // the scalar form below runs inside this call
    ascendc_cpu::api::CheckDuplicate<T>();
    if (ascendc_cpu::CheckCount("Duplicate", count) == 0) {
        return;
    }
    ascendc_cpu::CheckUb("Duplicate", "src", src.cpu_, sizeof(T), ascendc_cpu::Access::kVecRead);
    Duplicate(dst, ascendc_cpu::Load<T>(src.cpu_.ptr), count, site);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_VEC_FILL_TENSOR_H
