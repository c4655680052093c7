// ascendc_cpu_copy.h - DataCopy / DataCopyPad between GM and UB, and UB -> UB.
//
// Part of the AscendC CPU model (see README.md). Parameter structs have the
// field names, types and constructors of the device headers
// (kernel_struct_data_copy.h).
#ifndef ASCENDC_CPU_COPY_H
#define ASCENDC_CPU_COPY_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ascendc_cpu_atomic.h"
#include "ascendc_cpu_mask.h"
#include "ascendc_cpu_tensor.h"

namespace AscendC {

/// The default gap of DataCopyParams / DataCopyExtParams (asc-devkit impl/basic_api/utils/
/// kernel_utils_constants.h; include/basic_api/kernel_struct_data_copy.h's member defaults).
const uint8_t DEFAULT_DATA_COPY_STRIDE = 0;

/// blockCount blocks of blockLen each. Units: DataCopyPad -> blockLen in
/// bytes, GM stride in bytes, UB stride in 32-byte blocks; DataCopy -> all
/// in 32-byte blocks. Strides are gaps between the end of one block and the
/// start of the next. NOTE: blockLen is uint16_t as on the device.
struct DataCopyParams {
    DataCopyParams() {}
    DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn)
    {}
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
};

/// Like DataCopyParams with a 32-bit blockLen (used with DataCopyPadExtParams).
struct DataCopyExtParams {
    DataCopyExtParams() {}
    DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
        const uint32_t dstStrideIn, const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn)
    {}
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

/// GM->UB padding. isPad=false: the tail of each block's last 32-byte UB
/// block (past the data) is filled with the first element of that 32-byte
/// block. isPad=true: leftPadding elements before and rightPadding elements
/// after the data, and the rest of the last 32-byte block, are filled with
/// paddingValue, whose low sizeof(T) bytes are taken as T's bit pattern.
struct DataCopyPadParams {
    DataCopyPadParams() {}
    DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
        const uint64_t padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

/// As DataCopyPadParams with a typed padding value.
template <typename T>
struct DataCopyPadExtParams {
    DataCopyPadExtParams() : paddingValue(T(0)) {}
    DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue;
};

}  // namespace AscendC

namespace ascendc_cpu {

/// GM -> UB with padding (shared by both DataCopyPad parameter forms).
/// Rules: blockCount >= 1; blockLen % sizeof(T) == 0 (0 = no-op); each
/// padding <= 32 bytes and only with isPad=true; the UB footprint
/// (every block rounded up to 32 bytes, plus dst gaps) must fit in dst.
template <typename T>
inline void CopyPadIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t blockCount,
    uint32_t blockLen, uint64_t srcGapBytes, uint64_t dstGapBlocks, bool isPad, uint32_t left, uint32_t right,
    const uint8_t* padBits)
{
    const char* api = "DataCopyPad";
    const uint32_t es = sizeof(T);
    if (blockCount == 0) {
        Fail(api, "blockCount must be >= 1");
    }
    if (blockLen % es != 0) {
        Fail(api, Msg("blockLen ", blockLen, " bytes is not a multiple of the element size ", es));
    }
    if (blockLen == 0) {
        return;
    }
    if (!isPad && (left != 0 || right != 0)) {
        Fail(api, "leftPadding/rightPadding need isPad = true");
    }
    if (left * es > kUbBlockBytes || right * es > kUbBlockBytes) {
        Fail(api, Msg("leftPadding ", left, " / rightPadding ", right, " elements exceed 32 bytes"));
    }
    const uint64_t blockUb = RoundUp(static_cast<uint64_t>(left) * es + blockLen + static_cast<uint64_t>(right) * es,
        kUbBlockBytes);
    const uint64_t ubBytes = blockUb * blockCount + dstGapBlocks * kUbBlockBytes * (blockCount - 1);
    CheckUb(api, "dst", dst.cpu_, ubBytes, Access::kCopyIn);

    const uint64_t elemsPerBlock = blockLen / es;
    const uint64_t gmStrideElems = (blockLen + srcGapBytes) / es;
    if (srcGapBytes % es != 0) {
        Fail(api, Msg("GM stride ", srcGapBytes, " bytes is not a multiple of the element size ", es));
    }
    uint8_t* ub = dst.cpu_.ptr;
    for (uint32_t b = 0; b < blockCount; ++b) {
        const T* g = src.Checked(api, b * gmStrideElems, elemsPerBlock, false, nullptr);
        uint8_t* p = ub;
        for (uint32_t i = 0; i < left; ++i, p += es) {
            std::memcpy(p, padBits, es);
        }
        std::memcpy(p, static_cast<const void*>(g), blockLen);
        p += blockLen;
        uint8_t* end = ub + blockUb;
        if (isPad) {
            for (; p < end; p += es) {
                std::memcpy(p, padBits, es);
            }
        } else if (p < end) {
            const uint8_t* first = ub + (static_cast<uint64_t>(p - ub) / kUbBlockBytes) * kUbBlockBytes;
            for (; p < end; p += es) {
                std::memcpy(p, first, es);
            }
        }
        ub += blockUb + dstGapBlocks * kUbBlockBytes;
    }
}

/// UB -> GM, exactly blockLen bytes per block; UB blocks start 32-byte
/// aligned (each block occupies blockLen rounded up to 32, plus the UB gap).
template <typename T>
inline void CopyPadOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t blockCount,
    uint32_t blockLen, uint64_t srcGapBlocks, uint64_t dstGapBytes, bool compact = false)
{
    const char* api = "DataCopyPad";
    const uint32_t es = sizeof(T);
    if (blockCount == 0) {
        Fail(api, "blockCount must be >= 1");
    }
    if (blockLen % es != 0 || dstGapBytes % es != 0) {
        Fail(api, Msg("blockLen ", blockLen, " / GM stride ", dstGapBytes,
            " bytes is not a multiple of the element size ", es));
    }
    if (blockLen == 0) {
        return;
    }
    if (compact && srcGapBlocks != 0) {
        Fail(api, "PaddingMode::Compact with a UB stride (srcStride) is not modelled");
    }
    // Compact: the blocks one after another in the UB, not each padded to 32 bytes.
    const uint64_t blockUb = compact ? blockLen : RoundUp(blockLen, kUbBlockBytes);
    const uint64_t ubBytes = blockUb * (blockCount - 1) + srcGapBlocks * kUbBlockBytes * (blockCount - 1) + blockLen;
    CheckUb(api, "src", src.cpu_, ubBytes, Access::kCopyOut);
    const uint8_t* ub = src.cpu_.ptr;
    for (uint32_t b = 0; b < blockCount; ++b) {
        StoreGm(api, dst, b * ((blockLen + dstGapBytes) / es), blockLen / es, ub);
        ub += blockUb + srcGapBlocks * kUbBlockBytes;
    }
}

/// Whether Ascend 950's loop mode (SetLoopModePara, ascendc_cpu_nddma.h) is on for a direction
/// (toUb: GM -> UB).
ASCENDC_CPU_FN bool LoopModeOn(bool toUb)
{
    const Runtime::LoopMode& m = Rt().loopMode[toUb ? 1 : 0];
    return m.loop1Size != 1 || m.loop2Size != 1;
}

/// DataCopyPad under loop mode: the copy `once(ub, gm)` repeated loop2Size (outer) x loop1Size
/// (inner) times, each iteration's UB and GM start moved by the loops' byte strides (the
/// SetLoopModePara docs: every iteration is the whole DataCopyPad, its 5-D example's
/// loop1DstStride is one copy's UB footprint). Off: one copy.
template <typename T, typename Once>
inline void InLoopMode(bool toUb, const AscendC::LocalTensor<T>& ub, const AscendC::GlobalTensor<T>& gm, Once once)
{
    if (!LoopModeOn(toUb)) {
        once(ub, gm);
        return;
    }
    const char* api = "DataCopyPad";
    const Runtime::LoopMode m = Rt().loopMode[toUb ? 1 : 0];
    if (m.loop1Size == 0 || m.loop2Size == 0) {
        Fail(api, Msg("loop mode with loop1Size ", m.loop1Size, ", loop2Size ", m.loop2Size,
            ": what a size of 0 does is not documented"));
    }
    const uint64_t ub1 = toUb ? m.loop1DstStride : m.loop1SrcStride;
    const uint64_t ub2 = toUb ? m.loop2DstStride : m.loop2SrcStride;
    const uint64_t gm1 = toUb ? m.loop1SrcStride : m.loop1DstStride;
    const uint64_t gm2 = toUb ? m.loop2SrcStride : m.loop2DstStride;
    if (gm1 % sizeof(T) != 0 || gm2 % sizeof(T) != 0) {
        Fail(api, Msg("loop mode GM strides ", gm1, " / ", gm2, " bytes are not multiples of the element size ",
            sizeof(T)));
    }
    for (uint32_t l2 = 0; l2 < m.loop2Size; ++l2) {
        for (uint32_t l1 = 0; l1 < m.loop1Size; ++l1) {
            const uint64_t ubOff = l2 * ub2 + l1 * ub1;
            if (ubOff > ub.cpu_.bytes) {
                Fail(api, Msg("loop mode iteration (", l1, ", ", l2, ") starts ", ubOff,
                    " bytes into a LocalTensor of ", ub.cpu_.bytes));
            }
            AscendC::LocalTensor<T> at = ub;
            at.cpu_.ptr += ubOff;
            at.cpu_.bytes -= static_cast<uint32_t>(ubOff);
            at.cpu_.capacity -= static_cast<uint32_t>(std::min<uint64_t>(ubOff, at.cpu_.capacity));
            once(at, gm[(l2 * gm2 + l1 * gm1) / sizeof(T)]);
        }
    }
}

/// Aligned copy in 32-byte blocks; `toUb` selects the direction.
template <typename T>
inline void CopyBlocks(const AscendC::LocalTensor<T>& ubT, const AscendC::GlobalTensor<T>& gmT, uint32_t blockCount,
    uint32_t blockLenBlocks, uint32_t srcGapBlocks, uint32_t dstGapBlocks, bool toUb)
{
    const char* api = "DataCopy";
    const uint32_t es = sizeof(T);
    if (LoopModeOn(toUb)) {
        Fail(api, "DataCopy under loop mode (SetLoopModePara) is not modelled (only DataCopyPad is)");
    }
    if (blockCount == 0 || blockLenBlocks == 0) {
        return;
    }
    if (kUbBlockBytes % es != 0) {
        Fail(api, Msg("element size ", es, " does not divide the 32-byte block"));
    }
    const uint64_t len = static_cast<uint64_t>(blockLenBlocks) * kUbBlockBytes;
    const uint64_t ubGap = static_cast<uint64_t>(toUb ? dstGapBlocks : srcGapBlocks) * kUbBlockBytes;
    const uint64_t gmGap = static_cast<uint64_t>(toUb ? srcGapBlocks : dstGapBlocks) * kUbBlockBytes;
    CheckUb(api, toUb ? "dst" : "src", ubT.cpu_, len * blockCount + ubGap * (blockCount - 1),
        toUb ? Access::kCopyIn : Access::kCopyOut);
    uint8_t* ub = ubT.cpu_.ptr;
    for (uint32_t b = 0; b < blockCount; ++b) {
        const uint64_t gmElem = b * ((len + gmGap) / es);
        if (toUb) {
            const T* g = gmT.Checked(api, gmElem, len / es, false, nullptr);
            std::memcpy(ub, static_cast<const void*>(g), len);
        } else {
            StoreGm(api, gmT, gmElem, len / es, ub);
        }
        ub += len + ubGap;
    }
}

/// UB -> UB in 32-byte blocks (blockCount blocks of blockLenBlocks, gaps in
/// blocks). It runs on the vector pipe, so the sync checker treats it as a
/// vector read of src and a vector write of dst. All of src is read before
/// dst is written.
template <typename T>
inline void CopyUbBlocks(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t blockCount,
    uint32_t blockLenBlocks, uint32_t srcGapBlocks, uint32_t dstGapBlocks)
{
    const char* api = "DataCopy";
    if (blockCount == 0 || blockLenBlocks == 0) {
        return;
    }
    const uint64_t len = static_cast<uint64_t>(blockLenBlocks) * kUbBlockBytes;
    const uint64_t srcGap = static_cast<uint64_t>(srcGapBlocks) * kUbBlockBytes;
    const uint64_t dstGap = static_cast<uint64_t>(dstGapBlocks) * kUbBlockBytes;
    CheckUb(api, "src", src.cpu_, len * blockCount + srcGap * (blockCount - 1), Access::kVecRead);
    CheckUb(api, "dst", dst.cpu_, len * blockCount + dstGap * (blockCount - 1), Access::kVecWrite);
    std::vector<uint8_t> data(static_cast<size_t>(len * blockCount));
    for (uint32_t b = 0; b < blockCount; ++b) {
        std::memcpy(data.data() + b * len, src.cpu_.ptr + b * (len + srcGap), static_cast<size_t>(len));
    }
    for (uint32_t b = 0; b < blockCount; ++b) {
        std::memcpy(dst.cpu_.ptr + b * (len + dstGap), data.data() + b * len, static_cast<size_t>(len));
    }
}

/// Copy's mask/repeat form: repeat r, lane k (256 / sizeof(T) lanes, 32-byte block k*es/32)
/// moves the element at byte r*srcRepeatSize*32 + block*srcStride*32 + (k*es) % 32 of src to the
/// same place under the dst strides, for the lanes the mask enables (`lanes[k]`); every source
/// element is read before any is written.
template <typename T>
inline void CopyRepeats(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    const std::vector<bool>& lanes, uint8_t repeatTime, uint16_t dstStride, uint16_t srcStride,
    uint16_t dstRepeatSize, uint16_t srcRepeatSize)
{
    const char* api = "Copy";
    constexpr uint32_t es = sizeof(T);
    std::vector<std::pair<uint64_t, uint64_t>> reads, writes;
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t k = 0; k < lanes.size(); ++k) {
            if (!lanes[k]) {
                continue;
            }
            const uint64_t block = k * es / kUbBlockBytes;
            const uint64_t in = k * es % kUbBlockBytes;
            reads.emplace_back((r * uint64_t{srcRepeatSize} + block * srcStride) * kUbBlockBytes + in, es);
            writes.emplace_back((r * uint64_t{dstRepeatSize} + block * dstStride) * kUbBlockBytes + in, es);
        }
    }
    std::vector<std::pair<uint64_t, uint64_t>> readSpans = reads, writeSpans = writes;
    StridedAccess(api, "src", src.cpu_, readSpans, false);
    StridedAccess(api, "dst", dst.cpu_, writeSpans, true);
    std::vector<uint8_t> data(reads.size() * es);
    for (size_t i = 0; i < reads.size(); ++i) {
        std::memcpy(data.data() + i * es, src.cpu_.ptr + reads[i].first, es);
    }
    for (size_t i = 0; i < writes.size(); ++i) {
        std::memcpy(dst.cpu_.ptr + writes[i].first, data.data() + i * es, es);
    }
}

/// The 32-byte blocks that `count` elements of T fill, for DataCopy by count;
/// a count that leaves a partial block is a violation (DataCopyPad copies those).
template <typename T>
inline uint32_t WholeBlocks(const uint32_t count)
{
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (bytes % kUbBlockBytes != 0) {
        Fail("DataCopy",
            Msg("count ", count, " x ", sizeof(T), " bytes is not a multiple of 32 bytes (use DataCopyPad)"));
    }
    return static_cast<uint32_t>(bytes / kUbBlockBytes);
}

}  // namespace ascendc_cpu

namespace AscendC {

/// DataCopyPad's UB layout: Normal pads every block to 32 bytes; Compact (Ascend 950: the blocks
/// one after another in the UB, padded to 32 bytes at the end alone; DataCopyPad（UBToGM非对齐数据
/// 搬运）.md:96, 204) is modelled for UB -> GM without a UB stride, a run-time violation otherwise.
enum class PaddingMode : uint8_t {
    Normal = 0,
    Compact,
};

}  // namespace AscendC

namespace ascendc_cpu {

ASCENDC_CPU_FN void CheckPaddingMode(AscendC::PaddingMode mode)
{
    if (mode != AscendC::PaddingMode::Normal) {
        Fail("DataCopyPad", "PaddingMode::Compact is not modelled");
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

/// GM -> UB, `count` elements; count * sizeof(T) must be a multiple of 32
/// bytes (violation otherwise), the UB address 32-byte aligned.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CopyBlocks(dst, src, 1, ascendc_cpu::WholeBlocks<T>(count), 0, 0, true);
}

/// UB -> GM, `count` elements; same 32-byte rule.
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CopyBlocks(src, dst, 1, ascendc_cpu::WholeBlocks<T>(count), 0, 0, false);
}

/// GM -> UB with DataCopyParams in 32-byte block units (length and gaps).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CopyBlocks(dst, src, params.blockCount, params.blockLen, params.srcStride, params.dstStride, true);
}

/// UB -> GM with DataCopyParams in 32-byte block units (length and gaps).
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CopyBlocks(src, dst, params.blockCount, params.blockLen, params.srcStride, params.dstStride, false);
}

/// UB -> UB, `count` elements (count * sizeof(T) a multiple of 32 bytes), on
/// the vector pipe.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CopyUbBlocks(dst, src, 1, ascendc_cpu::WholeBlocks<T>(count), 0, 0);
}

/// UB -> UB with DataCopyParams in 32-byte block units (length and gaps).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CopyUbBlocks(dst, src, repeatParams.blockCount, repeatParams.blockLen, repeatParams.srcStride,
        repeatParams.dstStride);
}

/// Copy's repeat strides, in 32-byte blocks: within a repeat between adjacent blocks
/// (dstStride/srcStride), between repeats (dstRepeatSize/srcRepeatSize).
struct CopyRepeatParams {
    CopyRepeatParams() {}
    CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
        uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn)
    {}
    uint16_t dstStride = 1;
    uint16_t srcStride = 1;
    uint16_t dstRepeatSize = 8;
    uint16_t srcRepeatSize = 8;
};

}  // namespace AscendC

namespace ascendc_cpu {

/// Copy's mask form with isSetMask = false: the lanes the vector mask register gives
/// (ascendc_cpu_mask.h). In Normal mode the register's bits, in each of repeatTime repeats. In
/// Counter mode Copy differs from the other level-0 calls (asc-devkit docs/zh/api/SIMD-API/
/// 基础API/Memory矢量计算/数据搬运/Copy（UBToUB掩码式高维数据搬运）.md:169-174): the count is the
/// elements of EACH repeat and repeatTime counts ("Mask代表每次Repeat中处理的元素个数，迭代次数
/// 生效"), a repeat spanning ceil(count * sizeof(T) / 32) blocks, block j at j * the block
/// stride (its 场景3: 144 int32 of 18 rows, srcStride 8); a count of 0 copies nothing. The
/// register is read as by every isSetMask = false call (level0::RegisterRead).
template <typename T, typename Params>
inline void RegisterCopy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
    uint8_t repeatTime, const Params& params)
{
    const char* api = "Copy";
    const Runtime& rt = Rt();
    level0::RegisterRead<T>(api);
    std::vector<bool> on;
    if (rt.maskCounter) {
        on.assign(static_cast<size_t>(rt.vectorMask[0]), true);
    } else {
        const uint64_t words[2] = {rt.vectorMask[0], sizeof(T) == 4 ? 0 : rt.vectorMask[1]};
        on = level0::MaskLanes<T>(api, words);
    }
    if (!on.empty()) {
        CopyRepeats(dst, src, on, repeatTime, params.dstStride, params.srcStride, params.dstRepeatSize,
            params.srcRepeatSize);
    }
    mask::Known();
}

}  // namespace ascendc_cpu

namespace AscendC {

/// UB -> UB vector copy (V pipe, exact), mask/repeat forms (asc-devkit "Copy（UBToUB掩码式高维数据搬运）"):
/// repeatTime repeats of 256 bytes (256 / sizeof(T) lanes, 8 blocks of 32 bytes), the lanes the
/// mask enables: continuous, the first `mask` lanes (1 .. 256 / sizeof(T)); bitwise, bit k of
/// mask[k / 64] (mask[1] only for 2-byte T). 2- and 4-byte elements (the A2/A3 list). With
/// isSetMask false the mask argument is a placeholder and the register gives the lanes
/// (RegisterCopyLanes).
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
    const CopyRepeatParams& repeatParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ascendc_cpu: Copy's mask form is modelled for 2- and 4-byte T");
    constexpr uint64_t lanes = 256 / sizeof(T);
    if constexpr (!isSetMask) {
        ascendc_cpu::RegisterCopy(dst, src, repeatTime, repeatParams);
        return;
    }
    ascendc_cpu::NormalMaskMode("Copy");
    if (mask == 0 || mask > lanes) {
        ascendc_cpu::Fail("Copy", ascendc_cpu::Msg("mask ", mask, " must be in [1, ", lanes, "]"));
    }
    std::vector<bool> on(lanes, false);
    for (uint64_t k = 0; k < mask; ++k) {
        on[k] = true;
    }
    ascendc_cpu::CopyRepeats(dst, src, on, repeatTime, repeatParams.dstStride, repeatParams.srcStride,
        repeatParams.dstRepeatSize, repeatParams.srcRepeatSize);
}

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
    const uint8_t repeatTime, const CopyRepeatParams& repeatParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ascendc_cpu: Copy's mask form is modelled for 2- and 4-byte T");
    constexpr uint32_t lanes = 256 / sizeof(T);
    if constexpr (!isSetMask) {
        ascendc_cpu::RegisterCopy(dst, src, repeatTime, repeatParams);
        return;
    }
    ascendc_cpu::NormalMaskMode("Copy");
    std::vector<bool> on(lanes, false);
    for (uint32_t k = 0; k < lanes; ++k) {
        on[k] = ((mask[k / 64] >> (k % 64)) & 1u) != 0;
    }
    ascendc_cpu::CopyRepeats(dst, src, on, repeatTime, repeatParams.dstStride, repeatParams.srcStride,
        repeatParams.dstRepeatSize, repeatParams.srcRepeatSize);
}

#if defined(ASCENDC_CPU_DAV_3510)
/// UB -> UB vector copy of `count` elements (Ascend 950, "Copy（UBToUB连续数据搬运）"): exact, any
/// count, both addresses 32-byte aligned; all of src is read before dst is written.
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    const char* api = "Copy";
    if (count == 0) {
        return;
    }
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    ascendc_cpu::CheckUb(api, "src", src.cpu_, bytes, ascendc_cpu::Access::kVecRead);
    ascendc_cpu::CheckUb(api, "dst", dst.cpu_, bytes, ascendc_cpu::Access::kVecWrite);
    std::memmove(dst.cpu_.ptr, src.cpu_.ptr, static_cast<size_t>(bytes));
}
#endif

/// GM -> UB, blockLen in bytes (need not be 32-byte aligned); the UB tail of
/// every block is padded up to 32 bytes (see DataCopyPadParams).
template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& dataCopyParams,
    const DataCopyPadParams& padParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CheckPaddingMode(mode);
    uint8_t bits[sizeof(uint64_t)];
    std::memcpy(bits, &padParams.paddingValue, sizeof bits);  // little-endian host: low bytes first
    ascendc_cpu::InLoopMode(true, dst, src, [&](const LocalTensor<T>& u, const GlobalTensor<T>& g) {
        ascendc_cpu::CopyPadIn(u, g, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
            dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding, padParams.rightPadding, bits);
    });
}

/// UB -> GM, exactly blockLen bytes per block.
template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& dataCopyParams,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::InLoopMode(false, src, dst, [&](const LocalTensor<T>& u, const GlobalTensor<T>& g) {
        ascendc_cpu::CopyPadOut(g, u, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
            dataCopyParams.dstStride, mode == PaddingMode::Compact);
    });
}

/// GM -> UB, DataCopyExtParams form (32-bit blockLen, typed padding value).
template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
    const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CheckPaddingMode(mode);
    uint8_t bits[sizeof(T)];
    std::memcpy(bits, static_cast<const void*>(&padParams.paddingValue), sizeof(T));
    ascendc_cpu::InLoopMode(true, dst, src, [&](const LocalTensor<T>& u, const GlobalTensor<T>& g) {
        ascendc_cpu::CopyPadIn(u, g, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
            dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding, padParams.rightPadding, bits);
    });
}

/// UB -> GM, DataCopyExtParams form.
template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
    const DataCopyExtParams& dataCopyParams, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::InLoopMode(false, src, dst, [&](const LocalTensor<T>& u, const GlobalTensor<T>& g) {
        ascendc_cpu::CopyPadOut(g, u, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
            dataCopyParams.dstStride, mode == PaddingMode::Compact);
    });
}

/// GM [0, size) of gmWorkspaceAddr = value (the deprecated InitOutput, which has no documentation
/// page: asc-devkit impl/basic_api/kernel_operator_common_intf_impl.h:123-160 duplicates value in a
/// stack buffer of its own, outside the kernel's UB, and copies it out with DataCopyPad; its V -> MTE3
/// flag is its own). The copies are the model's UB -> GM stores (bounds and other cores' bytes).
template <typename T>
inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value,
    ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    if (size == 0) {
        return;
    }
    std::vector<T> fill(size, value);
    ascendc_cpu::StoreGm("InitOutput", gmWorkspaceAddr, 0, size, reinterpret_cast<const uint8_t*>(fill.data()));
}

}  // namespace AscendC

#include "ascendc_cpu_nddma.h"

#endif  // ASCENDC_CPU_COPY_H
