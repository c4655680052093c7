// ascendc_cpu_mask.h - the vector mask register and its mode: SetMaskCount, SetMaskNorm,
// SetVectorMask, ResetMask, MASK_PLACEHOLDER; and the lanes each repeat of a level-0 call takes
// (RepeatMasks), from its mask argument or, with isSetMask = false, from the register.
//
// Part of the AscendC CPU model (see README.md). Sources (asc-devkit 82b89a1):
//   [mask]  docs/zh/api/SIMD-API/基础API/Memory矢量计算/SIMD计算说明/掩码.md
//   [svm]   .../Memory矢量计算/掩码操作/SetVectorMask.md, SetMaskCount.md, SetMaskNorm.md
//   [reg]   impl/basic_api/kernel_reg.h (MASK_PLACEHOLDER, MaskMode, SetVectorMaskImpl,
//           ResetMaskImpl), impl/basic_api/kernel_utils_base.h (AscendCUtils::SetMask)
//
// The register (per core, Runtime::maskCounter / vectorMask, swapped with the core): its mode,
// Normal (the default) or Counter, set by SetMaskNorm / SetMaskCount, and two 64-bit words,
// vectorMask[0] the low word (lanes 0-63), [1] the high one. SetVectorMask<T, mode>(maskHigh,
// maskLow) writes the words as given ([reg]: set_vector_mask(maskHigh, maskLow)); the one-word
// SetVectorMask<T, mode>(len) writes (0, len) with mode COUNTER, else the first len lanes of a
// repeat of T as AscendCUtils::SetMask<T>(len) spells them (len 64: low word full; len of a whole
// repeat or >= 128: both full). ResetMask sets both words full. A run starts in Normal mode with
// both words full (the default: [svm] "Normal为默认模式").
//
// A level-0 call (dst, src..., mask, repeatTime, strides) takes, per repeat ([mask]):
//   * Normal mode, isSetMask = true: the lanes its mask argument enables, in each of repeatTime
//     repeats (level0::MaskLanes);
//   * Normal mode, isSetMask = false: the lanes the register enables (lane k on iff bit k % 64 of
//     word k / 64; a 4-byte T reads the low word only), in each of repeatTime repeats; the mask
//     argument is a placeholder ([svm]: "接口入参中的mask值设置为占位符MASK_PLACEHOLDER");
//   * Counter mode, isSetMask = false: the low word is a count of elements N ("Counter模式下，mask
//     参数表示整个矢量计算参与计算的元素个数"); repeatTime is ignored ("高维切分矢量计算接口的
//     repeatTime参数会被忽略，由系统内部根据元素数量自动计算"): ceil(N / L) repeats of L = 256 /
//     sizeof(T) lanes, the last with the first N - (repeats - 1) * L lanes on (the figures of
//     [mask] 图4 / 图8: 130 half elements are one whole repeat and 2 lanes of a second). N = 0 is
//     a NOP on Atlas A2/A3 ([svm]: "mask = 0表示指令不会执行计算操作") and refused on Ascend 950;
//     N beyond the UB's elements of T is refused;
//   * Counter mode, isSetMask = true: refused when run, by every level-0 call that takes a mask
//     (NormalMaskMode: [mask] 表3 documents only a bitwise mask[] whose low word is the count;
//     the model does not take the form).
// The model knows the register only until another vector call: on the device a level-2 call, or
// a level-0 call with isSetMask = true, writes it ([mask]: level-2 calls set Counter mode and the
// count, then ResetMask and SetMaskNorm), and the model does not follow those writes. So a call
// reading the register after another vector call ran on the core (the V pipe's clock moved since
// the register was last set or read, Runtime::maskEpoch) is refused when run, naming the call:
// set the mask again (SetVectorMask, as [svm]'s examples do before the calls that read it).
#ifndef ASCENDC_CPU_MASK_H
#define ASCENDC_CPU_MASK_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <vector>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_vec_level0.h"

namespace AscendC {

constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

}  // namespace AscendC

namespace ascendc_cpu {
namespace mask {

ASCENDC_CPU_FN uint32_t VClock()
{
    return Rt().pipeClock[static_cast<int>(Pipe::kV)].t[static_cast<int>(Pipe::kV)];
}

/// The register is known as of now (set, reset, or read by a call that leaves it as it was).
ASCENDC_CPU_FN void Known()
{
    Rt().maskEpoch = VClock();
}

ASCENDC_CPU_FN void Set(uint64_t high, uint64_t low)
{
    Runtime& rt = Rt();
    rt.vectorMask[0] = low;
    rt.vectorMask[1] = high;
    Known();
}

/// AscendCUtils::SetMask<T>(len)'s two words (kernel_utils_base.h): (high, low).
template <typename T>
inline std::pair<uint64_t, uint64_t> ContinuousWords(int32_t len)
{
    constexpr int32_t repeatLanes = static_cast<int32_t>(level0::kLanes<T>);
    constexpr uint64_t full = ~uint64_t{0};
    if (len == 64) {
        return {0, full};
    }
    if (len == repeatLanes || len >= 128) {
        return {full, full};
    }
    const uint64_t high = len > 64 ? (uint64_t{1} << static_cast<uint32_t>(len - 64)) - 1 : 0;
    const uint64_t low = len > 64 ? full : (uint64_t{1} << static_cast<uint32_t>(len)) - 1;
    return {high, low};
}

}  // namespace mask
}  // namespace ascendc_cpu

namespace AscendC {

/// Counter mode ([svm] SetMaskCount.md).
ASCENDC_CPU_FN void SetMaskCount()
{
    ascendc_cpu::Rt().maskCounter = true;
    ascendc_cpu::mask::Known();
}

/// Normal mode, the default ([svm] SetMaskNorm.md).
ASCENDC_CPU_FN void SetMaskNorm()
{
    ascendc_cpu::Rt().maskCounter = false;
    ascendc_cpu::mask::Known();
}

/// The register's two words as given ([reg] SetVectorMaskImpl: set_vector_mask(maskHigh, maskLow)).
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow)
{
    ascendc_cpu::mask::Set(maskHigh, maskLow);
}

/// COUNTER: (0, len); NORMAL: the first len lanes of a repeat of T ([reg], header comment).
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len)
{
    if constexpr (mode == MaskMode::COUNTER) {
        ascendc_cpu::mask::Set(0, static_cast<uint64_t>(static_cast<int64_t>(len)));
    } else {
        const auto words = ascendc_cpu::mask::ContinuousWords<T>(len);
        ascendc_cpu::mask::Set(words.first, words.second);
    }
}

/// Both words full ([reg] ResetMaskImpl: set_vector_mask(FULL_MASK, FULL_MASK)).
ASCENDC_CPU_FN void ResetMask()
{
    ascendc_cpu::mask::Set(~uint64_t{0}, ~uint64_t{0});
}

}  // namespace AscendC

namespace ascendc_cpu {
namespace level0 {

/// The register as a call with isSetMask = false reads it (header comment): refused unless it is
/// known (set since the last other vector call), and in Counter mode unless its count is within
/// the UB's elements of T.
template <typename T>
inline void RegisterRead(const char* api)
{
    const Runtime& rt = Rt();
    if (rt.maskEpoch != mask::VClock()) {
        Fail(api, "isSetMask = false after another vector call: the vector mask register that call may "
            "have set (掩码.md: level-2 calls and isSetMask = true calls write it) is not modelled; "
            "SetVectorMask before the call");
    }
    if (rt.maskCounter && rt.vectorMask[0] > rt.ubBytes / sizeof(T)) {
        Fail(api, Msg("counter mode: the count ", rt.vectorMask[0], " of SetVectorMask is more elements of ",
            TypeName<T>(), " than the UB holds"));
    }
}

/// The lanes each repeat of a level-0 call takes (header comment): one vector of lanes per
/// repeat. repeatTime is the call's argument (its range is the caller's to check).
template <typename T, bool isSetMask, typename Mask>
inline std::vector<std::vector<bool>> RepeatMasks(const char* api, Mask maskArg, uint8_t repeatTime)
{
    Runtime& rt = Rt();
    constexpr uint32_t lanes = kLanes<T>;
    if (isSetMask) {
        NormalMaskMode(api);
    } else {
        RegisterRead<T>(api);
    }
    if (rt.maskCounter) {
        const uint64_t count = rt.vectorMask[0];
        std::vector<std::vector<bool>> out;
        for (uint64_t start = 0; start < count; start += lanes) {
            std::vector<bool> on(lanes, false);
            for (uint64_t k = 0; k < lanes && start + k < count; ++k) {
                on[k] = true;
            }
            out.push_back(on);
        }
        if (out.empty() && kDav3510) {
            Fail(api, "counter mode with a count of 0 is not modelled on Ascend 950 (the docs promise a "
                "NOP on Atlas A2/A3 only)");
        }
        return out;
    }
    std::vector<bool> on;
    if constexpr (isSetMask) {
        on = MaskLanes<T>(api, maskArg);
    } else {
        const uint64_t words[2] = {rt.vectorMask[0], sizeof(T) == 4 ? 0 : rt.vectorMask[1]};
        on = MaskLanes<T>(api, words);
    }
    return std::vector<std::vector<bool>>(repeatTime, on);
}

/// A call that read the register leaves it as it was: known again after its own accesses.
template <bool isSetMask>
inline void RegisterKept()
{
    if (!isSetMask) {
        mask::Known();
    }
}

}  // namespace level0
}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_MASK_H
