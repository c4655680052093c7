// ascendc_cpu_vec_transpose.h - TransDataTo5HD on 16- and 32-bit elements: 16 DataBlocks in, 16
// out per repeat, each element moved (no arithmetic).
//
// Part of the AscendC CPU model (see README.md). Sources (asc-devkit 82b89a1):
//   [t5hd]  docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据排布转换/TransDataTo5HD.md
//   [capi]  docs/zh/api/SIMD-API/C-API/vector_compute/asc_transto5hd.md
//   [struct] include/basic_api/kernel_struct_transpose.h (TransDataTo5HDParams)
// Forms: TransDataTo5HD<T>(uint64_t dstList[16], uint64_t srcList[16], params), the addresses
// from LocalTensor::GetPhyAddr(offset) (the model's are host addresses),
// TransDataTo5HD<T>(LocalTensor<T> (&dstList)[16], LocalTensor<T> (&srcList)[16], params), and
// the implementation's TransDataTo5HDImpl(__ubuf__ T* dstList[16], __ubuf__ T* srcList[16], params).
// Each list entry is the start of a 32-byte DataBlock (B = 32 / sizeof(T) elements). Per repeat:
//   * 16-bit T: dst block j, element i = src block i, element j ([t5hd]: "从指定的16个DataBlock
//     中的对应位置取值，组成1个新的DataBlock放入目的地址中"; the docs' fp16 transpose example, a
//     16 x 16 matrix's transpose);
//   * 32-bit T: 8 rounds j ([capi]: "指令内部会循环8次，每次循环都会分别从指定的16个DataBlock中的
//     对应位置取值，组成2个新的DataBlock放入目的地址中"): element j of src blocks 0..7 fill dst
//     block 2j, those of blocks 8..15 dst block 2j + 1 (which of the two goes to which address
//     is in a figure only: assumed as the 16-bit order, element i of the 16 values from src
//     block i, as ops-nn's kernels read it: log_softmax_grad's reduce_tail.h:235-237);
//   * 8-bit T (dstHighHalf / srcHighHalf) is not modelled (refused when run).
// Repeats ([t5hd] repeatTimes): repeat r reads each src block + r * srcRepStride blocks and writes
// each dst block + r * dstRepStride blocks, except that one repeat (repeatTimes 1) uses the
// strides once ("当repeatTimes为1时，目的操作数/源操作数的有效起始位置为dstList/srcList序列输入的
// 起始位置加上dstRepStride/srcRepStride"); repeatTimes 0 is a NOP. A repeat reads its 16 blocks
// before writing (assumed). Rules: every block 32-byte aligned inside the UB (an address list names
// no LocalTensor, so the model checks the UB and the V pipe's ordering, not the tensor's bounds),
// and no byte both written and read in one repeat, nor written by one and read by a later one
// (通用地址重叠约束; partial overlap is not supported, and a transposition has no full one).
#ifndef ASCENDC_CPU_VEC_TRANSPOSE_H
#define ASCENDC_CPU_VEC_TRANSPOSE_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_tensor.h"
#include "ascendc_cpu_vec_level0.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

/// [struct]
struct TransDataTo5HDParams {
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
        const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn)
    {}

    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace ascendc_cpu {
namespace transpose {

constexpr uint32_t kBlocks = 16;

/// The UB byte offset of a list entry (a host address), refused outside the UB or unaligned.
ASCENDC_CPU_FN uint64_t UbOffset(const char* api, const char* list, uint32_t i, uint64_t address)
{
    const uint64_t base = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(Arena()));
    if (address < base || address >= base + Rt().ubBytes) {
        Fail(api, Msg(list, "[", i, "] is not an address in the UB (LocalTensor::GetPhyAddr gives one)"));
    }
    const uint64_t off = address - base;
    if (off % kUbBlockBytes != 0) {
        Fail(api, Msg(list, "[", i, "] (UB byte ", off, ") is not 32-byte aligned"));
    }
    return off;
}

/// TransDataTo5HD on the UB offsets of the 16 dst and 16 src blocks: header comment.
template <typename T>
inline void Run(const char* api, const uint64_t dst[kBlocks], const uint64_t src[kBlocks],
    const AscendC::TransDataTo5HDParams& params)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ascendc_cpu: TransDataTo5HD is modelled for 16- and "
        "32-bit elements only (the 8-bit form's high and low halves are not)");
    const uint32_t repeats = params.repeatTimes;
    constexpr uint32_t per = kUbBlockBytes / sizeof(T);
    UbView whole;
    whole.ptr = Arena();
    whole.bytes = Rt().ubBytes;
    whole.capacity = Rt().ubBytes;
    std::vector<level0::Touch> read, written;
    std::vector<std::pair<uint64_t, uint64_t>> spansS, spansD;
    const auto step = [&](uint32_t r, uint16_t stride) {
        return uint64_t{repeats == 1 ? 1u : r} * stride * kUbBlockBytes;
    };
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t b = 0; b < kBlocks; ++b) {
            const uint64_t s = src[b] + step(r, params.srcRepStride);
            const uint64_t d = dst[b] + step(r, params.dstRepStride);
            read.push_back(level0::Touch{s, kUbBlockBytes, r, b});
            written.push_back(level0::Touch{d, kUbBlockBytes, r, b + kBlocks});
            spansS.emplace_back(s, kUbBlockBytes);
            spansD.emplace_back(d, kUbBlockBytes);
        }
    }
    StridedAccess(api, "src", whole, spansS, false);
    StridedAccess(api, "dst", whole, spansD, true);
    level0::CheckOverlap(api, "src", written, read, level0::Overlap::kNone);
    uint8_t* ub = Arena();
    for (uint32_t r = 0; r < repeats; ++r) {
        T in[kBlocks][per];
        for (uint32_t b = 0; b < kBlocks; ++b) {
            std::memcpy(in[b], ub + src[b] + step(r, params.srcRepStride), kUbBlockBytes);
        }
        for (uint32_t b = 0; b < kBlocks; ++b) {
            T out[per];
            for (uint32_t i = 0; i < per; ++i) {
                // 16-bit: block b takes element b of every source block; 32-bit: element b / 2 of
                // source blocks 0..7 (b even) or 8..15 (b odd)
                out[i] = sizeof(T) == 2 ? in[i][b] : in[(b % 2) * 8 + i][b / 2];
            }
            std::memcpy(ub + dst[b] + step(r, params.dstRepStride), out, kUbBlockBytes);
        }
    }
}

}  // namespace transpose
}  // namespace ascendc_cpu

namespace AscendC {

/// The address-list form (addresses from LocalTensor::GetPhyAddr): the header comment.
template <typename T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
    const TransDataTo5HDParams& nchwconvParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    uint64_t dst[ascendc_cpu::transpose::kBlocks], src[ascendc_cpu::transpose::kBlocks];
    for (uint32_t i = 0; i < ascendc_cpu::transpose::kBlocks; ++i) {
        dst[i] = ascendc_cpu::transpose::UbOffset("TransDataTo5HD", "dstList", i, dstList[i]);
        src[i] = ascendc_cpu::transpose::UbOffset("TransDataTo5HD", "srcList", i, srcList[i]);
    }
    ascendc_cpu::transpose::Run<T>("TransDataTo5HD", dst, src, nchwconvParams);
}

/// asc-devkit's implementation entry on UB pointers (impl/basic_api/dav_c220/
/// kernel_operator_vec_transpose_impl.h TransDataTo5HDImpl(__ubuf__ T* dstList[16], __ubuf__ T*
/// srcList[16], params)), which ops-nn's GeGluGradV2 calls directly: the same call.
template <typename T>
inline void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE], __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
    const TransDataTo5HDParams& nchwconvParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE], src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dst[i] = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(dstList[i]));
        src[i] = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(srcList[i]));
    }
    TransDataTo5HD<T>(dst, src, nchwconvParams, site);
}

/// The LocalTensor-list form: each tensor's start is its block.
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& nchwconvParams,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE], src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dst[i] = dstList[i].GetPhyAddr(0);
        src[i] = srcList[i].GetPhyAddr(0);
    }
    TransDataTo5HD<T>(dst, src, nchwconvParams, site);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_TRANSPOSE_H
