// ascendc_cpu_broadcast.h - the library's UB Broadcast with a BroadcastTiling (Ascend 950):
// GetBroadcastTilingInfo and Broadcast(dst, src, dstShape, srcShape, &tiling), which opbase's
// ATVOSS broadcast schedules call on UB tensors.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510 (asc-devkit
// defines the tiling form for __NPU_ARCH__ 3510 only). Reached through adv_api/pad/broadcast.h.
// BroadcastTiling has the fields of asc-devkit's include/adv_api/pad/broadcast_utils.h; the model
// fills them with its own (unfused) reading, which only its Broadcast reads.
#ifndef ASCENDC_CPU_BROADCAST_H
#define ASCENDC_CPU_BROADCAST_H

#include <cstdint>
#include <cstring>
#include <vector>

#include "ascendc_cpu_tensor.h"

#if defined(ASCENDC_CPU_DAV_3510)

namespace AscendC {

struct BroadcastTiling {
    uint32_t oriRank;
    uint32_t rank;
    uint32_t dstSize;
    uint32_t srcSize;
    uint32_t loopNum = 0;
    uint32_t oriSrcShape[9];
    uint32_t oriDstShape[9];
    uint32_t dstShape[9];
    uint32_t dstStride[9];
    uint32_t srcStride[10];
};

/// Records the shapes of one broadcast (rank in [1, 9], else a violation): in the model,
/// oriDstShape/oriSrcShape are the shapes, dstStride/srcStride their row-major strides in elements;
/// with srcInnerPad the source's last dimension is padded to whole 32-byte blocks (assumed: the
/// header says only "if srcShape[rank-1] is aligned").
template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr>
inline void GetBroadcastTilingInfo(
    uint32_t rank, const uint32_t* dstShape, const uint32_t* srcShape, bool srcInnerPad, BroadcastTiling& tiling,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    static_assert(constRank == -1 || (constRank <= 9 && constRank > 0),
        "constRank only supports -1 and the range between 1 and 9");
    const char* api = "GetBroadcastTilingInfo";
    if (rank == 0 || rank > 9 || (constRank != -1 && static_cast<uint32_t>(constRank) != rank)) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("rank ", rank, " must be in [1, 9] (and equal constRank)"));
    }
    tiling.oriRank = rank;
    tiling.rank = rank;
    tiling.loopNum = 0;
    uint32_t dstSize = 1;
    uint32_t srcSize = 1;
    uint32_t dStride = 1;
    uint32_t sStride = 1;
    for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
        if (srcShape[i] != 1 && srcShape[i] != dstShape[i]) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg("source dimension ", i, " is ", srcShape[i],
                ", neither 1 nor the destination's ", dstShape[i]));
        }
        tiling.oriDstShape[i] = tiling.dstShape[i] = dstShape[i];
        tiling.oriSrcShape[i] = srcShape[i];
        tiling.dstStride[i] = dStride;
        tiling.srcStride[i] = sStride;
        uint32_t inner = srcShape[i];
        if (srcInnerPad && i == static_cast<int>(rank) - 1) {
            const uint32_t perBlock = ascendc_cpu::kUbBlockBytes / sizeof(T);
            inner = (inner + perBlock - 1) / perBlock * perBlock;
        }
        dStride *= dstShape[i];
        sStride *= inner;
        dstSize *= dstShape[i];
        srcSize *= srcShape[i];
    }
    tiling.dstSize = dstSize;
    tiling.srcSize = srcSize;
}

/// numpy broadcasting on UB (V pipe): dst, row-major of the tiling's destination shape, gets at
/// each index the source element whose index is 0 in every dimension where the source has size 1.
/// The shapes are the tiling's (those GetBroadcastTilingInfo recorded; dstShape/srcShape must be
/// the same, else a violation). Exact (a copy); all of src is read before dst is written.
template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr,
    bool constSrcInnerPad = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
    const uint32_t* srcShape, BroadcastTiling* tiling, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    const char* api = "Broadcast";
    const uint32_t rank = tiling->oriRank;
    if (rank == 0 || rank > 9) {
        ascendc_cpu::Fail(api, "the BroadcastTiling was not filled by GetBroadcastTilingInfo");
    }
    for (uint32_t i = 0; i < rank; ++i) {
        if (dstShape[i] != tiling->oriDstShape[i] || srcShape[i] != tiling->oriSrcShape[i]) {
            ascendc_cpu::Fail(api, ascendc_cpu::Msg("dimension ", i, ": shapes ", dstShape[i], " / ", srcShape[i],
                " differ from the tiling's ", tiling->oriDstShape[i], " / ", tiling->oriSrcShape[i]));
        }
    }
    const uint64_t srcElems = static_cast<uint64_t>(tiling->srcStride[0]) * tiling->oriSrcShape[0];
    ascendc_cpu::CheckUb(api, "src", src.cpu_, srcElems * sizeof(T), ascendc_cpu::Access::kVecRead);
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, static_cast<uint64_t>(tiling->dstSize) * sizeof(T),
        ascendc_cpu::Access::kVecWrite);
    std::vector<uint8_t> in(static_cast<size_t>(srcElems * sizeof(T)));
    std::memcpy(in.data(), src.cpu_.ptr, in.size());
    uint32_t idx[9] = {0};
    for (uint64_t n = 0; n < tiling->dstSize; ++n) {
        uint64_t s = 0;
        for (uint32_t i = 0; i < rank; ++i) {
            s += (tiling->oriSrcShape[i] == 1 ? 0 : idx[i]) * static_cast<uint64_t>(tiling->srcStride[i]);
        }
        std::memcpy(dst.cpu_.ptr + n * sizeof(T), in.data() + s * sizeof(T), sizeof(T));
        for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {  // next index, last dimension fastest
            if (++idx[i] < tiling->oriDstShape[i]) {
                break;
            }
            idx[i] = 0;
        }
    }
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_BROADCAST_H
