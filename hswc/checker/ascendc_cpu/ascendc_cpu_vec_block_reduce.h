// ascendc_cpu_vec_block_reduce.h - BlockReduceSum, BlockReduceMax, BlockReduceMin (their current
// name: ReduceDataBlock<SUM | MAX | MIN>): one result per 32-byte block of each repeat.
//
// Part of the AscendC CPU model (see README.md). Source: asc-devkit 82b89a1
// docs/zh/api/SIMD-API/基础API/Memory矢量计算/归约计算/ReduceDataBlock.md ([rdb]); the signatures
// impl/basic_api/kernel_operator_vec_reduce_intf_impl.h (BlockReduceSum(dst, src, repeatTime,
// mask, dstRepStride, srcBlkStride, srcRepStride), mask an int32_t or uint64_t mask[]), and
// dav_c220 kernel_operator_vec_reduce_impl.h (vcgadd / vcgmax / vcgmin after SetMask).
//
// Each repeat takes 8 blocks of 32 bytes (B = 32 / sizeof(T) lanes each) at the level-0
// addressing (ascendc_cpu_vec_level0.h: srcBlkStride, srcRepStride in blocks); the lanes on are
// ascendc_cpu_mask.h's RepeatMasks (the mask argument, or with isSetMask = false the vector mask
// register, in Normal or Counter mode). Block j of repeat r gives the binary tree of its enabled
// lanes ([rdb] 关键特性说明: neighbours pairwise, then the pairs' results pairwise; a lane off
// passes the other on, as the level-0 whole-repeat reductions, ascendc_cpu_vec_reduce.h), written
// to dst element r * dstRepStride * 8 + j ([rdb] 表2: dstRepStride in units of one repeat's
// results, 16 bytes of half, 32 of float). A block with no lane on: Atlas A2/A3 write nothing
// there ("不会有值写入对应目的操作数，保留目的操作数原有数据"); Ascend 950 write 0 (SUM), -inf
// (MAX), +inf (MIN). Sums round in T at every step (the non-saturating mode, the default); Max /
// Min are IEEE maximum / minimum as the other reductions. half and float ([rdb] 数据类型). Rules:
// repeatTime and the strides in range, src 32-byte and dst 8 * sizeof(T)-byte aligned ([rdb]
// 约束说明), the overlap rules of the level-0 calls (a result written over its own repeat's source
// is recorded with --record-rules and the results computed from the sources as read: assumed, as
// ascendc_cpu_vec_reduce.h's Whole), repeatTime or mask 0 a NOP on A2/A3 and refused on 950.
#ifndef ASCENDC_CPU_VEC_BLOCK_REDUCE_H
#define ASCENDC_CPU_VEC_BLOCK_REDUCE_H

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_mask.h"
#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_vec_level0.h"
#include "ascendc_cpu_vec_reduce.h"

namespace ascendc_cpu {
namespace reduce {

/// Ascend 950's value for a block with no lane on ([rdb] 约束说明).
template <typename T>
inline T EmptyBlock(Kind kind)
{
    if (kind == Kind::kSum) {
        return T(0.0f);
    }
    const float inf = std::numeric_limits<float>::infinity();
    return T(kind == Kind::kMax ? -inf : inf);
}

/// BlockReduceSum / Max / Min: header comment.
template <typename T, bool isSetMask, typename Mask>
inline void Blocks(const char* api, Kind kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    int32_t repeatTime, Mask mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride)
{
    using level0::Touch;
    std::vector<std::vector<bool>> on;
    if (!RepeatLanes<T, isSetMask>(api, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, on)) {
        return;
    }
    constexpr uint32_t perBlock = kUbBlockBytes / sizeof(T);
    constexpr uint32_t blocks = kLanes<T> / perBlock;
    const uint32_t repeats = static_cast<uint32_t>(on.size());
    const level0::Strides ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    std::vector<std::pair<uint64_t, uint64_t>> spansS, spansD;
    const std::vector<Touch> read = level0::LaneTouches<T>(src, on, ss, spansS);
    // results[r][j]: block j of repeat r, and whether it is written
    std::vector<std::vector<Lane<T>>> results(repeats, std::vector<Lane<T>>(blocks));
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t j = 0; j < blocks; ++j) {
            std::vector<Lane<T>> values(perBlock);
            for (uint32_t i = 0; i < perBlock; ++i) {
                const uint32_t k = j * perBlock + i;
                if (on[r][k]) {
                    values[i] = Lane<T>{Load<T>(src.cpu_.ptr + level0::LaneByte<T>(r, k, ss)), true};
                }
            }
            results[r][j] = Tree(kind, values);
            if (!results[r][j].on && kDav3510) {
                results[r][j] = Lane<T>{EmptyBlock<T>(kind), true};
            }
        }
    }
    std::vector<Touch> written;
    const uint64_t base = static_cast<uint64_t>(dst.cpu_.ptr - Arena());
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t j = 0; j < blocks; ++j) {
            if (results[r][j].on) {
                const uint64_t at = (uint64_t{r} * static_cast<uint64_t>(dstRepStride) * blocks + j) * sizeof(T);
                written.push_back(Touch{base + at, static_cast<uint32_t>(sizeof(T)), r, 0xFFFFFFFFu});
                spansD.emplace_back(at, sizeof(T));
            }
        }
    }
    StridedAccess(api, "src", src.cpu_, spansS, false);
    StridedAccess(api, "dst", dst.cpu_, spansD, true, blocks * sizeof(T));
    level0::CheckOverlap(api, "src", written, read, level0::Overlap::kSameLanes, true);
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t j = 0; j < blocks; ++j) {
            if (results[r][j].on) {
                Store<T>(dst.cpu_.ptr + (uint64_t{r} * static_cast<uint64_t>(dstRepStride) * blocks + j) * sizeof(T),
                    results[r][j].v);
            }
        }
    }
    level0::RegisterKept<isSetMask>();
}

}  // namespace reduce
}  // namespace ascendc_cpu

namespace AscendC {

#define ASCENDC_CPU_BLOCK_REDUCE(Name, kind, MaskType)                                                        \
    template <typename T, bool isSetMask = true>                                                              \
    inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,          \
        MaskType mask, const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,    \
        ascendc_cpu::Site site = ascendc_cpu::Site())                                                         \
    {                                                                                                         \
        ascendc_cpu::CallScope call(site);                                                                    \
        if constexpr (!ascendc_cpu::api::Check##Name<T, ascendc_cpu::api::FormMask>()) {                      \
            ascendc_cpu::NotModelledType<T>(#Name);                                                           \
        } else {                                                                                              \
            ascendc_cpu::reduce::Blocks<T, isSetMask>(#Name, ascendc_cpu::reduce::Kind::kind, dst, src,       \
                repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);                                  \
        }                                                                                                     \
    }

/// dst[r * dstRepStride * 8 + j] = the tree of block j of repeat r: the header comment.
ASCENDC_CPU_BLOCK_REDUCE(BlockReduceSum, kSum, const int32_t)
ASCENDC_CPU_BLOCK_REDUCE(BlockReduceSum, kSum, const uint64_t*)
ASCENDC_CPU_BLOCK_REDUCE(BlockReduceMax, kMax, const int32_t)
ASCENDC_CPU_BLOCK_REDUCE(BlockReduceMax, kMax, const uint64_t*)
ASCENDC_CPU_BLOCK_REDUCE(BlockReduceMin, kMin, const int32_t)
ASCENDC_CPU_BLOCK_REDUCE(BlockReduceMin, kMin, const uint64_t*)
#undef ASCENDC_CPU_BLOCK_REDUCE

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_BLOCK_REDUCE_H
