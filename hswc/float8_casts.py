"""How Ascend 950's Cast to an 8-bit float treats what does not fit, and the control bits a
kernel sets so that it gives what MLIR's `arith.truncf` gives.

asc-devkit docs/zh/api/SIMD-API/基础API/特殊寄存器访问/SetCtrlSpr(ISASI).md, table 3 (Ascend 950):
- CTRL[60] (default 1): the saturation mode is global (1), or chosen per instruction by the Reg
  Cast's SatMode (0; the Memory-level Cast has no SatMode, so hswc models only 1);
- CTRL[48] (default 0), global mode only: 0 saturates ("inf输出会被饱和为±MAX", "NaN输出会被饱和
  为0"), 1 does not ("inf/NaN保持原输出"), for conversions to hifloat8_t, fp8_e5m2_t, fp8_e4m3fn_t,
  ...;
- CTRL[50] (default 0), when CTRL[48] saturates: a NaN becomes 0.0 (0) or stays NaN (1).
Reg矢量计算/类型转换/Cast.md (table 4, float to float) says the same of the two modes, and that
without saturation a value beyond fp8_e4m3fn_t's range gives NaN (it has no inf).

So by default float -> fp8 (CAST_RINT: round to nearest, ties to even) turns a value beyond the
largest finite one, and +-inf, into +-the largest finite value (448, 57344), and NaN into 0,
where `arith.truncf` gives NaN (E4M3FN) or +-inf (E5M2) and NaN. With CTRL[48] = 1 the Cast is
the IEEE-style conversion truncf is: a kernel that writes an 8-bit float sets it once at its start
(`NON_SATURATING`), as ops-nn's Ascend 950 GeluQuant sets CTRL[60] before its fp8 Casts
(gelu_quant/op_kernel/arch35/gelu_quant_base_regbase.h:87). Where the unsaturated result of a
value just past the largest finite one falls (the rounding threshold: half an ulp above it, ties
to even) is not documented; it is assumed to be IEEE's, as ml_dtypes and MLIR's APFloat place it.
"""

from __future__ import annotations

from typing import Final

GLOBAL_MODE_BIT: Final = 60
SATURATION_BIT: Final = 48
NAN_KEPT_BIT: Final = 50
DEFAULT_CTRL: Final = 1 << GLOBAL_MODE_BIT
"""The CTRL register at a kernel's start: global mode, saturating, NaN to 0."""
NON_SATURATING: Final = (SATURATION_BIT, SATURATION_BIT, 1)
"""SetCtrlSpr<start, end>(value) that makes float -> fp8 Casts keep inf and NaN."""
FLOAT8_CPP: Final = {"f8E4M3FN": "fp8_e4m3fn_t", "f8E5M2": "fp8_e5m2_t"}
"""AscendC's names of the 8-bit floats a kernel may write, by their MLIR names."""


def set_bits(ctrl: int, start: int, end: int, value: int) -> int:
    """The CTRL register after SetCtrlSpr<start, end>(value)."""
    width = end - start + 1
    mask = ((1 << width) - 1) << start
    return (ctrl & ~mask) | ((value << start) & mask)


def saturates(ctrl: int) -> bool | None:
    """Whether a float -> fp8 Cast saturates under `ctrl`; None in the per-instruction mode
    (CTRL[60] = 0), which the Memory-level Cast cannot choose."""
    if not ctrl >> GLOBAL_MODE_BIT & 1:
        return None
    return not ctrl >> SATURATION_BIT & 1


def keeps_nan(ctrl: int) -> bool:
    """Whether a saturating float -> fp8 Cast keeps NaN (else it gives 0.0)."""
    return bool(ctrl >> NAN_KEPT_BIT & 1)
