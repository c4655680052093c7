// ascendc_cpu_adv_reduce.h - the library's reductions over a Pattern (adv_api/reduce): ReduceSum,
// ReduceMax and ReduceMin of a 2-D tensor along its R axis (Pattern::Reduce::AR, RA).
//
// Part of the AscendC CPU model (see README.md). asc-devkit's page (docs/zh/api/SIMD-API/高阶API/
// 归约操作/ReduceSum接口/ReduceSum-90.md:27, 50-62) gives what is summed, not in which order, and
// a float sum's bits depend on the order (its implementation, impl/adv_api/detail/reduce/*_3510_
// impl.h, folds the rows in several ways chosen by shape and alignment). So these calls are not
// modelled: they compile (the pattern structs of include/adv_api/reduce/reduce_common.h:26-50
// exist, so a kernel's other tiling-key branches still build) and running one ends the run with
// one line naming the call. ReduceMax and ReduceMin compute an exact result whatever the order,
// but their NaN and -0 / +0 rules are not documented on their pages either.
#ifndef ASCENDC_CPU_ADV_REDUCE_H
#define ASCENDC_CPU_ADV_REDUCE_H

#include <cstdint>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"

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

#define ASCENDC_CPU_PATTERN_REDUCE(Name)                                                                    \
    template <class T, class pattern, bool isReuseSource = false>                                           \
    inline void Name(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t[], \
        bool)                                                                                               \
    {                                                                                                       \
        ascendc_cpu::Fail(#Name, "the library's " #Name " over a Pattern is not modelled: its page documents "   \
            "no order of combination (adv_api/reduce; ascendc_cpu_adv_reduce.h)");                          \
    }                                                                                                       \
    template <class T, class pattern, bool isReuseSource = false>                                           \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[], bool pad) \
    {                                                                                                       \
        Name<T, pattern, isReuseSource>(dst, src, LocalTensor<uint8_t>(), srcShape, pad);                   \
    }

ASCENDC_CPU_PATTERN_REDUCE(ReduceSum)
ASCENDC_CPU_PATTERN_REDUCE(ReduceMax)
ASCENDC_CPU_PATTERN_REDUCE(ReduceMin)

#undef ASCENDC_CPU_PATTERN_REDUCE

}  // namespace AscendC

#endif  // ASCENDC_CPU_ADV_REDUCE_H
