// ascendc_cpu_ctrl.h - SetCtrlSpr / GetCtrlSpr / ResetCtrlSpr: the core's CTRL register.
//
// Part of the AscendC CPU model (see README.md). asc-devkit docs/zh/api/SIMD-API/基础API/
// 特殊寄存器访问/SetCtrlSpr(ISASI).md: SetCtrlSpr<startBit, endBit>(value) writes value into
// CTRL[endBit:startBit] (a value wider than the range does not compile on the device: here a
// violation); ResetCtrlSpr<startBit, endBit>() writes the bits' defaults. The model keeps the
// register per core (Runtime::ctrl, CTRL[60] = 1 and the rest 0 at a kernel's start) and reads
// CTRL[60], CTRL[48] and CTRL[50]: the saturation of Casts to 8-bit floats
// (ascendc_cpu_vec_cast.h, Fp8Saturation); CTRL[60] and CTRL[59]: that of MicroAPI Casts to integers
// (ascendc_cpu_micro.h, RegIntSaturates). The other bits are kept and change nothing.
#ifndef ASCENDC_CPU_CTRL_H
#define ASCENDC_CPU_CTRL_H

#include <cstdint>

#include "ascendc_cpu_runtime.h"

namespace ascendc_cpu {

constexpr int kCtrlGlobalSat = 60;
constexpr int kCtrlNoSat = 48;
constexpr int kCtrlIntNoSat = 59;  // float -> integer and integer -> integer conversions (Reg Cast.md table 5)
constexpr int kCtrlKeepNan = 50;

/// How a Cast to an 8-bit float treats what does not fit, under the core's CTRL register.
struct Fp8Saturation {
    bool known;     ///< false: CTRL[60] = 0, the per-instruction mode (a Reg Cast's SatMode)
    bool saturate;  ///< CTRL[48] = 0
    bool keepNan;   ///< CTRL[50] = 1
};

inline Fp8Saturation CtrlSaturation()
{
    const uint64_t ctrl = Rt().ctrl;
    return {((ctrl >> kCtrlGlobalSat) & 1u) != 0, ((ctrl >> kCtrlNoSat) & 1u) == 0,
        ((ctrl >> kCtrlKeepNan) & 1u) != 0};
}

}  // namespace ascendc_cpu

namespace AscendC {

template <int8_t startBit, int8_t endBit>
static inline void SetCtrlSpr(int64_t value)
{
    static_assert(0 <= startBit && startBit <= endBit && endBit < 64, "SetCtrlSpr: bits 0 to 63");
    constexpr int width = endBit - startBit + 1;
    const uint64_t mask = (width == 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1)) << startBit;
    if (value < 0 || (width < 64 && static_cast<uint64_t>(value) >> width != 0)) {
        ascendc_cpu::Fail("SetCtrlSpr", ascendc_cpu::Msg(value, " does not fit CTRL[", static_cast<int>(endBit),
            ":", static_cast<int>(startBit), "]"));
    }
    uint64_t& ctrl = ascendc_cpu::Rt().ctrl;
    ctrl = (ctrl & ~mask) | ((static_cast<uint64_t>(value) << startBit) & mask);
}

template <int8_t startBit, int8_t endBit>
static inline int64_t GetCtrlSpr()
{
    constexpr int width = endBit - startBit + 1;
    const uint64_t bits = ascendc_cpu::Rt().ctrl >> startBit;
    return static_cast<int64_t>(width == 64 ? bits : bits & ((uint64_t{1} << width) - 1));
}

template <int8_t startBit, int8_t endBit>
static inline void ResetCtrlSpr()
{
    constexpr int width = endBit - startBit + 1;
    const uint64_t mask = (width == 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1)) << startBit;
    uint64_t& ctrl = ascendc_cpu::Rt().ctrl;
    ctrl = (ctrl & ~mask) | (ascendc_cpu::kDefaultCtrl & mask);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_CTRL_H
