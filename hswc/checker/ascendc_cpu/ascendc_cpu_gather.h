// ascendc_cpu_gather.h - Gather's count form and ArithProgression (V pipe, exact).
//
// Gather(dst, src, srcOffset, srcBaseAddr, count) (asc-devkit docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/离散与聚合/Gather.md, "tensor前n个数据计算"): dst[i] = the element of src at byte
// srcBaseAddr + srcOffset[i] (srcOffset uint32_t, in bytes), for i < count; count 0 is a no-op
// on A2/A3. Its rules: offsets aligned to the element ("否则会导致非预期行为": a broken rule
// here), within src, and dst not src's memory ("不支持源操作数与目的操作数使用同一块内存地址").
// The mask/repeat forms are not modelled (a violation when they run).
//
// ArithProgression(dst, firstValue, diffValue, count) (include/adv_api/index/
// kernel_operator_arithprogression_intf.h: dst[i + 1] = dst[i] + diffValue): dst[i] =
// firstValue + i * diffValue, wrapped to T, for the integer types; the call writes whole 32-byte
// blocks past count when count is over a block (impl/adv_api/detail/index/arithprogression/
// arithprogression_common_impl.h: its Adds fill CeilAlign(count, block) elements), so the
// model writes those too, with the same sequence continued. Its float sequences are refused
// when they run (hswc/api_tables.def).
#ifndef ASCENDC_CPU_GATHER_H
#define ASCENDC_CPU_GATHER_H

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"
#include "ascendc_cpu_vec_common.h"

namespace AscendC {

template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
    const uint32_t srcBaseAddr, const uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    constexpr const char* api = "Gather";
    if constexpr (!ascendc_cpu::api::CheckGather<T>()) {
        ascendc_cpu::NotModelledType<T>(api);
    } else {
        constexpr uint64_t es = sizeof(T);
        if (count == 0) {
            return;
        }
        ascendc_cpu::CheckUb(api, "srcOffset", srcOffset.cpu_, uint64_t{count} * sizeof(uint32_t),
            ascendc_cpu::Access::kVecRead);
        std::vector<std::pair<uint64_t, uint64_t>> reads;
        std::vector<uint64_t> at(count);
        for (uint32_t i = 0; i < count; ++i) {
            uint32_t offset = 0;
            std::memcpy(&offset, srcOffset.cpu_.ptr + uint64_t{i} * sizeof(uint32_t), sizeof(offset));
            at[i] = uint64_t{srcBaseAddr} + offset;
            if (at[i] % es != 0) {
                ascendc_cpu::Broken(api, ascendc_cpu::Msg("srcBaseAddr + srcOffset[", i, "] = ", at[i],
                    " bytes is not a multiple of the element's ", es), ascendc_cpu::Msg(api, "/align/srcOffset"));
            }
            reads.emplace_back(at[i], es);
        }
        const uint8_t* d = dst.cpu_.ptr;
        const uint8_t* s = src.cpu_.ptr;
        if (d < s + src.cpu_.bytes && s < d + uint64_t{count} * es) {
            ascendc_cpu::Broken(api, "dst and src share memory (Gather.md: not supported)",
                ascendc_cpu::Msg(api, "/overlap"));
        }
        ascendc_cpu::StridedAccess(api, "src", src.cpu_, reads, false);
        ascendc_cpu::CheckUb(api, "dst", dst.cpu_, uint64_t{count} * es, ascendc_cpu::Access::kVecWrite);
        std::vector<uint8_t> data(uint64_t{count} * es);
        for (uint32_t i = 0; i < count; ++i) {
            std::memcpy(data.data() + uint64_t{i} * es, src.cpu_.ptr + at[i], es);
        }
        std::memcpy(dst.cpu_.ptr, data.data(), data.size());
    }
}

template <typename T>
inline void ArithProgression(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    constexpr const char* api = "ArithProgression";
    if constexpr (!ascendc_cpu::api::CheckArithProgression<T>()) {
        ascendc_cpu::NotModelledType<T>(api);
    } else {
        const uint32_t n = ascendc_cpu::CheckCount(api, count);
        constexpr uint32_t block = ascendc_cpu::kUbBlockBytes / sizeof(T);
        const uint32_t written = n > block ? (n + block - 1) / block * block : n;
        if (written == 0) {
            return;
        }
        ascendc_cpu::CheckUb(api, "dst", dst.cpu_, uint64_t{written} * sizeof(T), ascendc_cpu::Access::kVecWrite);
        for (uint32_t i = 0; i < written; ++i) {
            const int64_t v = static_cast<int64_t>(firstValue) + static_cast<int64_t>(diffValue) * i;
            ascendc_cpu::Store<T>(dst.cpu_.ptr + uint64_t{i} * sizeof(T), static_cast<T>(v));
        }
    }
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_GATHER_H
