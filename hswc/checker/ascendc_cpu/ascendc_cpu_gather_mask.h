// ascendc_cpu_gather_mask.h - GatherMask with a built-in pattern in Normal mode (V pipe, exact).
//
// asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/比较与选择/GatherMask.md: Normal mode
// (reduceMode = false, mask ignored) runs repeatTimes repeats of 256 bytes of src0 (8 blocks of
// 32 bytes, block b of repeat r at (r * src0RepeatStride + b * src0BlockStride) blocks); the
// built-in pattern (src1Pattern 1 .. 7, the same in every repeat, src1RepeatStride ignored)
// keeps element k of a repeat where its bit k is 1: 1 the even k, 2 the odd k, 3 .. 6 the k
// with k % 4 == 0 .. 3, 7 every k. The kept elements are written to dst one after another,
// across the repeats (the docs' example: [1 .. 256] of 4-byte elements, pattern 2, 4 repeats
// -> [2 4 .. 256], rsvdCnt 128), and rsvdCnt is their count. A user pattern tensor and Counter
// mode are not modelled: a violation when they run.
#ifndef ASCENDC_CPU_GATHER_MASK_H
#define ASCENDC_CPU_GATHER_MASK_H

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ascendc_cpu_copy.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"

namespace AscendC {

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
        const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn),
          repeatTimes(repeatTimesIn),
          src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn)
    {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
    const bool reduceMode, const uint32_t mask, const GatherMaskParams& params, uint64_t& rsvdCnt,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    (void)mask;  // ignored in Normal mode
    constexpr const char* api = "GatherMask";
    constexpr uint32_t es = sizeof(T);
    static_assert(es == 1 || es == 2 || es == 4, "ascendc_cpu: GatherMask takes 1-, 2- or 4-byte elements");
    if (reduceMode) {
        ascendc_cpu::Fail(api, "Counter mode (reduceMode = true) is not modelled");
    }
    if (src1Pattern < 1 || src1Pattern > 7) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("src1Pattern ", static_cast<int>(src1Pattern),
            " is not a built-in pattern (1 .. 7)"));
    }
    constexpr uint32_t lanes = 256 / es;
    std::vector<std::pair<uint64_t, uint64_t>> reads;
    for (uint32_t r = 0; r < params.repeatTimes; ++r) {
        for (uint32_t k = 0; k < lanes; ++k) {
            const bool kept = src1Pattern == 7 || (src1Pattern == 1 && k % 2 == 0) ||
                (src1Pattern == 2 && k % 2 == 1) || (src1Pattern >= 3 && src1Pattern <= 6 && k % 4 == src1Pattern - 3u);
            if (!kept) {
                continue;
            }
            const uint64_t block = k * es / ascendc_cpu::kUbBlockBytes;
            const uint64_t in = k * es % ascendc_cpu::kUbBlockBytes;
            reads.emplace_back(
                (r * uint64_t{params.src0RepeatStride} + block * params.src0BlockStride) * ascendc_cpu::kUbBlockBytes + in,
                es);
        }
    }
    std::vector<std::pair<uint64_t, uint64_t>> writes;
    if (!reads.empty()) {
        writes.emplace_back(0, reads.size() * es);
    }
    std::vector<std::pair<uint64_t, uint64_t>> readSpans = reads, writeSpans = writes;
    ascendc_cpu::StridedAccess(api, "src0", src0.cpu_, readSpans, false);
    ascendc_cpu::StridedAccess(api, "dst", dst.cpu_, writeSpans, true);
    std::vector<uint8_t> data(reads.size() * es);
    for (size_t i = 0; i < reads.size(); ++i) {
        std::memcpy(data.data() + i * es, src0.cpu_.ptr + reads[i].first, es);
    }
    if (!data.empty()) {
        std::memcpy(dst.cpu_.ptr, data.data(), data.size());
    }
    rsvdCnt = reads.size();
}

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
    const bool reduceMode, const uint32_t mask, const GatherMaskParams& params, uint64_t& rsvdCnt,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    (void)dst, (void)src0, (void)src1Pattern, (void)reduceMode, (void)mask, (void)params, (void)rsvdCnt;
    ascendc_cpu::Fail("GatherMask", "a pattern tensor (user-defined mode) is not modelled");
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_GATHER_MASK_H
