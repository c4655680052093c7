// ascendc_cpu_nddma.h - Ascend 950's multi-dimensional GM -> UB copy (NDDMA: DataCopy with
// MultiCopyParams / NdDmaParams) and the loop mode of DataCopyPad (SetLoopModePara).
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510 (the device
// declares these for __NPU_ARCH__ 3510 only). The structs have the fields, defaults and names
// (old and new) of asc-devkit's include/basic_api/kernel_struct_data_copy.h; the semantics are
// those of its docs, "DataCopy（GMToUB多维数据搬运NDDMA）" and "SetLoopModePara", with the limits
// its dav_3510 implementation asserts.
#ifndef ASCENDC_CPU_NDDMA_H
#define ASCENDC_CPU_NDDMA_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ascendc_cpu_tensor.h"

#if defined(ASCENDC_CPU_DAV_3510)

namespace AscendC {

/// The direction SetLoopModePara configures.
enum class DataCopyMVType : uint8_t {
    UB_TO_OUT = 0,
    OUT_TO_UB = 1,
};

/// NDDMA options. Padding sizes (elements, <= 255) for every dimension at once, or unsetPad to
/// take NdDmaLoopInfo's per-dimension sizes; isNearestValueMode pads with the nearest element of
/// the dimension instead of constantValue.
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;
    uint16_t loopRpSize = unsetPad;
    bool ascOptimize = false;  // reserved ("暂不支持")
};
using MultiCopyConfig = NdDmaConfig;
constexpr NdDmaConfig kDefaultNdDmaConfig = {false, NdDmaConfig::unsetPad, NdDmaConfig::unsetPad, false};
constexpr NdDmaConfig kDefaultMultiCopyConfig = kDefaultNdDmaConfig;

/// Per dimension, index 0 the innermost: strides in elements, loopSize elements copied (without
/// padding), left/right padding in elements.
template <uint8_t dim>
struct MultiCopyLoopInfo {
    static_assert(dim >= 1 && dim <= 5, "MultiCopy Dims must be between 1 and 5.");
    uint64_t loopSrcStride[dim] = {0};
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};
    uint8_t loopRpSize[dim] = {0};
};
template <uint8_t dim>
using NdDmaLoopInfo = MultiCopyLoopInfo<dim>;

template <typename T, uint8_t dim>
struct MultiCopyParams {
    MultiCopyLoopInfo<dim> loopInfo;
    T constantValue;
};
template <typename T, uint8_t dim>
using NdDmaParams = MultiCopyParams<T, dim>;

/// DataCopyPad's loop mode: the copy repeated loop1Size times (inner) and loop2Size times
/// (outer), each iteration's source and destination moved by the loop's strides in bytes.
struct LoopModeParams {
    LoopModeParams() {}
    LoopModeParams(const uint32_t loop1SizeIn, const uint32_t loop2SizeIn, const uint64_t loop1SrcStrideIn,
        const uint64_t loop1DstStrideIn, const uint64_t loop2SrcStrideIn, const uint64_t loop2DstStrideIn)
        : loop1Size(loop1SizeIn), loop2Size(loop2SizeIn), loop1SrcStride(loop1SrcStrideIn),
          loop1DstStride(loop1DstStrideIn), loop2SrcStride(loop2SrcStrideIn), loop2DstStride(loop2DstStrideIn)
    {}
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
};

/// Enables the loop mode of `type`'s DataCopyPad (see DataCopyPad in ascendc_cpu_copy.h). The
/// documented limits are violations: sizes < 2^21; the UB side's strides < 2^21 and multiples of
/// 32 bytes, the GM side's < 2^40. A size of 0 (which the docs allow without saying what it
/// does) makes the next DataCopyPad of that direction a violation.
ASCENDC_CPU_FN void SetLoopModePara(const LoopModeParams& p, DataCopyMVType type)
{
    const char* api = "SetLoopModePara";
    const bool toUb = type == DataCopyMVType::OUT_TO_UB;
    const uint64_t ubStride1 = toUb ? p.loop1DstStride : p.loop1SrcStride;
    const uint64_t ubStride2 = toUb ? p.loop2DstStride : p.loop2SrcStride;
    const uint64_t gmStride1 = toUb ? p.loop1SrcStride : p.loop1DstStride;
    const uint64_t gmStride2 = toUb ? p.loop2SrcStride : p.loop2DstStride;
    if (p.loop1Size >= (1u << 21) || p.loop2Size >= (1u << 21)) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("loop1Size ", p.loop1Size, " / loop2Size ", p.loop2Size,
            " must be below 2^21"));
    }
    if (ubStride1 >= (1u << 21) || ubStride2 >= (1u << 21) || ubStride1 % ascendc_cpu::kUbBlockBytes != 0 ||
        ubStride2 % ascendc_cpu::kUbBlockBytes != 0) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("UB strides ", ubStride1, " / ", ubStride2,
            " bytes must be multiples of 32 below 2^21"));
    }
    if (gmStride1 >= (uint64_t{1} << 40) || gmStride2 >= (uint64_t{1} << 40)) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg("GM strides ", gmStride1, " / ", gmStride2,
            " bytes must be below 2^40"));
    }
    ascendc_cpu::Runtime::LoopMode& m = ascendc_cpu::Rt().loopMode[static_cast<int>(type)];
    m.loop1Size = p.loop1Size;
    m.loop2Size = p.loop2Size;
    m.loop1SrcStride = p.loop1SrcStride;
    m.loop1DstStride = p.loop1DstStride;
    m.loop2SrcStride = p.loop2SrcStride;
    m.loop2DstStride = p.loop2DstStride;
}

/// Back to one copy per DataCopyPad (the implementation's reset: both sizes 1).
ASCENDC_CPU_FN void ResetLoopModePara(DataCopyMVType type)
{
    ascendc_cpu::Rt().loopMode[static_cast<int>(type)] = ascendc_cpu::Runtime::LoopMode();
}

/// Refreshes the NDDMA cache of GM; the model reads GM directly, so nothing to do.
ASCENDC_CPU_FN void NdDmaDci() {}

}  // namespace AscendC

namespace ascendc_cpu {

/// The NDDMA copy (see AscendC::DataCopy below) on raw element bytes of size `es`.
template <typename T, uint8_t dim>
inline void NdDmaCopy(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
    const AscendC::MultiCopyLoopInfo<dim>& info, const uint8_t* padBits, const uint16_t configLp,
    const uint16_t configRp, const bool nearest)
{
    const char* api = "DataCopy";
    constexpr uint32_t es = sizeof(T);
    uint64_t extent[dim];
    uint32_t lp[dim];
    uint64_t total = 1;
    uint64_t srcSpan = 0;  // largest source offset read, + 1
    uint64_t dstSpan = 0;
    for (int d = 0; d < dim; ++d) {
        lp[d] = configLp == AscendC::NdDmaConfig::unsetPad ? info.loopLpSize[d] : configLp;
        const uint32_t rp = configRp == AscendC::NdDmaConfig::unsetPad ? info.loopRpSize[d] : configRp;
        if (info.loopSize[d] == 0 || info.loopSize[d] >= (1u << 20)) {
            Fail(api, Msg("loopSize[", d, "] ", info.loopSize[d], " must be in [1, 2^20)"));
        }
        if (info.loopDstStride[d] >= (1u << 20) || info.loopSrcStride[d] >= (uint64_t{1} << 40)) {
            Fail(api, Msg("loopDstStride[", d, "] ", info.loopDstStride[d], " must be below 2^20, loopSrcStride[",
                d, "] ", info.loopSrcStride[d], " below 2^40"));
        }
        extent[d] = static_cast<uint64_t>(lp[d]) + info.loopSize[d] + rp;
        total *= extent[d];
        srcSpan += (info.loopSize[d] - 1) * info.loopSrcStride[d];
        dstSpan += (extent[d] - 1) * info.loopDstStride[d];
    }
    ++srcSpan;
    ++dstSpan;
    // The UB address need only be element-aligned (the dav_3510 implementation: "ND DMA Instr
    // allows ub addr byte align"; its 8-byte form copies 4-byte halves at a 4-byte offset).
    CheckUb(api, "dst", dst.cpu_, 0, Access::kScalar);
    const uint64_t off = static_cast<uint64_t>(dst.cpu_.ptr - Arena());
    if (off % es != 0) {
        Broken(api, Msg("dst UB address (offset ", off, ") is not ", es, "-byte aligned"), Msg(api, "/align/dst"));
    }
    if (dstSpan * es > dst.cpu_.bytes) {
        const std::string rule = Msg("dst needs ", dstSpan * es, " bytes but the LocalTensor has ", dst.cpu_.bytes);
        if (off + dstSpan * es > Rt().ubBytes) {
            Fail(api, rule);
        }
        Broken(api, rule, Msg(api, "/short/dst"));
    }
    const T* g = src.Checked(api, 0, srcSpan, false, nullptr);
    std::vector<uint64_t> written;
    written.reserve(static_cast<size_t>(total));
    uint64_t idx[dim] = {0};
    uint8_t* ub = dst.cpu_.ptr;
    for (uint64_t n = 0; n < total; ++n) {
        uint64_t dOff = 0;
        uint64_t sOff = 0;
        bool pad = false;
        for (int d = 0; d < dim; ++d) {
            dOff += idx[d] * info.loopDstStride[d];
            int64_t j = static_cast<int64_t>(idx[d]) - lp[d];
            if (j < 0 || j >= static_cast<int64_t>(info.loopSize[d])) {
                pad = true;
                j = j < 0 ? 0 : static_cast<int64_t>(info.loopSize[d]) - 1;
            }
            sOff += static_cast<uint64_t>(j) * info.loopSrcStride[d];
        }
        written.push_back(dOff);
        const uint8_t* from = pad && !nearest ? padBits : reinterpret_cast<const uint8_t*>(g) + sOff * es;
        std::memcpy(ub + dOff * es, from, es);
        for (int d = 0; d < dim; ++d) {  // next index, dimension 0 fastest
            if (++idx[d] < extent[d]) {
                break;
            }
            idx[d] = 0;
        }
    }
    // The sync checker sees the destination elements as runs of bytes written by MTE2.
    std::sort(written.begin(), written.end());
    for (size_t i = 1; i < written.size(); ++i) {
        if (written[i] == written[i - 1]) {
            Fail(api, Msg("destination element ", written[i],
                " is written twice (overlapping loops: the docs leave the result open)"));
        }
    }
    for (size_t i = 0; i < written.size();) {
        size_t k = i + 1;
        while (k < written.size() && written[k] == written[k - 1] + 1) {
            ++k;
        }
        HbAccess(api, "dst", Pipe::kMte2, off + written[i] * es, (written[k - 1] - written[i] + 1) * es, true);
        i = k;
    }
}

}  // namespace ascendc_cpu

namespace AscendC {

/// GM -> UB in up to 5 dimensions (MTE2). Destination element (i_0, ..., i_{dim-1}), i_d in
/// [0, lp_d + loopSize[d] + rp_d), sits at sum i_d * loopDstStride[d] elements from dst; it is
/// the source element at sum (i_d - lp_d) * loopSrcStride[d] when every i_d - lp_d lies in
/// [0, loopSize[d]), else padding: constantValue, or with isNearestValueMode the source element
/// of the index clamped into that range (the docs' 2-D figures; more dimensions assumed alike).
/// A stride 0 repeats (broadcasts) an element. Violations: a loopSize outside [1, 2^20), a
/// loopDstStride >= 2^20 or loopSrcStride >= 2^40, a destination element written twice, a
/// destination past dst, a source past the GlobalTensor; 8-byte T only with constant padding 0
/// (as the implementation asserts).
template <typename T, uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const MultiCopyParams<T, dim>& params)
{
    static_assert(config.loopLpSize <= 0xff || config.loopLpSize == NdDmaConfig::unsetPad,
        "loopLpSize in config must be either <= 255 or unset");
    static_assert(config.loopRpSize <= 0xff || config.loopRpSize == NdDmaConfig::unsetPad,
        "loopRpSize in config must be either <= 255 or unset");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
        "NDDMA copies 1-, 2-, 4- and 8-byte elements");
    static_assert(sizeof(T) != 8 || !config.isNearestValueMode, "nddma b64 only supports constant value mode");
    uint8_t bits[sizeof(T)];
    std::memcpy(bits, static_cast<const void*>(&params.constantValue), sizeof(T));
    if (sizeof(T) == 8) {
        for (uint8_t b : bits) {
            if (b != 0) {
                ascendc_cpu::Fail("DataCopy", "nddma b64 only support const pad value 0");
            }
        }
    }
    ascendc_cpu::NdDmaCopy<T, dim>(dst, src, params.loopInfo, bits, config.loopLpSize, config.loopRpSize,
        config.isNearestValueMode);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_NDDMA_H
