// ascendc_cpu_vec_fill.h - Duplicate's mask/repeat (level-0) forms.
//
// Part of the AscendC CPU model (see README.md). Signatures: asc-devkit
// include/basic_api/kernel_operator_vec_duplicate_intf.h; the page:
// docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md (lines 72-84: the bitwise and
// continuous mask forms, `Duplicate(dst, scalarValue, mask, repeatTime, dstBlockStride,
// dstRepeatStride)`). Lanes and masks are ascendc_cpu_vec_level0.h's ([hd], [mask] 表5): lane k
// of repeat r is at byte (r * dstRepeatStride + (k * sizeof(T) / 32) * dstBlockStride) * 32 +
// (k * sizeof(T)) % 32 of dst; the lanes the mask enables take scalarValue, every other element
// keeps its value (Normal mode: "Mask用来控制单次迭代内参与计算的元素", 掩码.md:113-132). A
// dstBlockStride of 0 is refused ([hd]); repeatTime 0 or a mask of no lane is a NOP on Atlas A2/A3
// and refused on Ascend 950 (Duplicate.md:141-155: "不保证该接口将被视为NOP"). dst is checked byte
// by byte where a lane is on (live, 32-byte aligned, inside the tensor, pipe V). isSetMask =
// false (the SetVectorMask register) is not modelled: refused when run.
#ifndef ASCENDC_CPU_VEC_FILL_H
#define ASCENDC_CPU_VEC_FILL_H

#include <cstdint>
#include <utility>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_vec_level0.h"
#include "ascendc_cpu_vec_reduce.h"

namespace ascendc_cpu {
namespace fill {

/// Duplicate's level-0 form (header comment); Mask is uint64_t (continuous) or const uint64_t*
/// (bitwise).
template <typename T, bool isSetMask, typename Mask>
inline void Duplicate(const AscendC::LocalTensor<T>& dst, const T& scalarValue, Mask mask, uint8_t repeatTime,
    uint16_t dstBlockStride, uint8_t dstRepeatStride)
{
    const char* api = "Duplicate";
    if constexpr (!api::CheckDuplicate<T, api::FormMask>()) {
        NotModelledType<T>(api);
    } else {
        if constexpr (!isSetMask) {
            level0::VectorMaskNotModelled(api);
        }
        level0::CheckDstBlkStride(api, dstBlockStride);
        const std::vector<bool> on = level0::MaskLanes<T>(api, mask);
        if (reduce::Nothing(api, repeatTime, on)) {
            return;
        }
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        const level0::Strides s{dstBlockStride, dstRepeatStride};
        level0::LaneTouches<T>(dst, on, repeatTime, s, spans);
        StridedAccess(api, "dst", dst.cpu_, spans, true);
        for (const auto& span : spans) {  // repeats in order: a later repeat's write wins
            Store<T>(dst.cpu_.ptr + span.first, scalarValue);
        }
    }
}

}  // namespace fill
}  // namespace ascendc_cpu

namespace AscendC {

/// Duplicate's bitwise-mask form: the lanes bit k of mask[k / 64] enables.
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[], const uint8_t repeatTime,
    const uint16_t dstBlockStride, const uint8_t dstRepeatStride, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::fill::Duplicate<T, isSetMask, const uint64_t*>(dst, scalarValue, mask, repeatTime, dstBlockStride,
        dstRepeatStride);
}

/// Duplicate's continuous-mask form: the first `mask` lanes of every repeat.
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
    const uint16_t dstBlockStride, const uint8_t dstRepeatStride, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::fill::Duplicate<T, isSetMask, uint64_t>(dst, scalarValue, mask, repeatTime, dstBlockStride,
        dstRepeatStride);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_FILL_H
