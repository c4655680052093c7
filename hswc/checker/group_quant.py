"""The checker's reference of hsg.swiglu_group_quant (ops-nn's SwigluGroupQuant, Ascend 950):
its tensors, their element types and the sizes its tiling takes.

`--op hsg.swiglu_group_quant` (the sweep's mapping of activation/swiglu_group_quant) runs the op
as hswc compiles it (hswc.ops.group_quant's generics, by hswc's interpreter at the linalg level)
on x of [rows, 2H] (hswc.checker.halves: H up to 512), its attributes the definition's defaults
(op_host/swiglu_group_quant_def.cpp:113-119: dst_type 36, FLOAT8_E4M3FN; quant_mode 0, block
FP8) unless `--attr` gives them. The kernel's tensors, in the definition's order:

    x          [rows, 2H] of the run's dtype (f16 or bf16)
    weight, group_index, scale   optional, left out (null addresses; hswc.checker.counts gives
               group_index in runs of their own)
    y          [rows, H] of dst_type's 8-bit float (f8E4M3FN, or f8E5M2 for dst_type 35)
    y_scale    quant_mode 0: f32 [rows, H / 128]; quant_mode 1 (MX): f8E8M0FNU [rows,
               ceil(H / 64), 2] (kind "mx_pairs" of hswc.checker.halves)
    y_origin   a required output of x's dtype the kernel writes only with output_origin, which
               quant_modes 0 and 1 refuse (op_host/arch35/swiglu_group_quant_tiling.cpp:192):
               no elements (kind "none")

x's last dim must be a positive multiple of 256 (the tiling's D_LIMIT check,
op_host/arch35/swiglu_group_quant_tiling.cpp:437), so every run's size is a multiple of
GRANULE (hswc.checker.cases.Sizes moves a boundary size the tiling refuses up to the next one):
its H is then 128, 256 or 512, whole blocks of 128 and of 32. The kernel's 8-bit outputs are
read back as ml_dtypes' types and compared bit for bit (`--tolerance ulp:N` counts steps of
the 8-bit type: hswc.reference).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from hswc.checker.errors import CheckError

OP = "hsg.swiglu_group_quant"
GRANULE = 256
"""x's last dim is a positive multiple of it (hswc.dialects.hsg_group_quant.D_MULTIPLE)."""
Y_DTYPES = {35: "float8_e5m2", 36: "float8_e4m3fn"}
"""y's numpy dtype by dst_type (ge::DataType numbers); FP4 (40, 41) is refused by hswc's
decomposition, and so here."""
SCALE_KINDS = {0: ("float32", "blocks"), 1: ("float8_e8m0fnu", "mx_pairs")}
"""y_scale's numpy dtype and hswc.checker.halves kind by quant_mode."""
RUN_DTYPE = ""
"""An output of the run's dtype (y_origin) in Reference.output_dtypes."""


def is_group_quant(name: str | None) -> bool:
    return name is not None and f"hsg.{name.removeprefix('hsg.')}" == OP


def checked(values: Mapping[str, object]) -> tuple[int, int]:
    """(quant_mode, dst_type) of the attribute values, a CheckError for a configuration the
    checker does not run (the HiFloat8 modes and FP4: hswc does not compute them)."""
    mode, dst = int(str(values["quant_mode"])), int(str(values["dst_type"]))
    if mode not in SCALE_KINDS:
        raise CheckError(f"--attr quant_mode={mode}: the checker runs quant_mode 0 (block FP8) "
                         "and 1 (MX); the HiFloat8 modes have no type in hswc")
    if dst not in Y_DTYPES:
        raise CheckError(f"--attr dst_type={dst}: the checker compares y of FLOAT8_E5M2 (35) "
                         "or FLOAT8_E4M3FN (36)")
    return mode, dst


def output_dtypes(values: Mapping[str, object]) -> tuple[str, str, str]:
    """y's, y_scale's and y_origin's numpy dtypes (RUN_DTYPE: the run's)."""
    mode, dst = checked(values)
    return Y_DTYPES[dst], SCALE_KINDS[mode][0], RUN_DTYPE


def output_kinds(values: Mapping[str, object]) -> tuple[str, str, str]:
    """hswc.checker.halves' kinds of y, y_scale and y_origin."""
    mode, _ = checked(values)
    return "half", SCALE_KINDS[mode][1], "none"


def _attribute(name: str, value: object) -> str:
    if isinstance(value, bool):
        return f"{name} = {str(value).lower()}"
    if isinstance(value, float):
        return f"{name} = {value!r} : f32"
    return f"{name} = {value} : i64"


def module_text(rows: int, width: int, dtype: str, values: Mapping[str, object]) -> str:
    """The op on x of [rows, width] of `dtype` with the attribute values."""
    from hswc.dialects.hsg_group_quant import SwigluGroupQuantOp

    mode, dst = checked(values)
    y_elem = {35: "f8E5M2", 36: "f8E4M3FN"}[dst]
    h = width // 2
    x, y = f"tensor<{rows}x{width}x{dtype}>", f"tensor<{rows}x{h}x{y_elem}>"
    s = f"tensor<{rows}x{h // 128}xf32>" if mode == 0 else \
        f"tensor<{rows}x{-(-h // 64)}x2xf8E8M0FNU>"
    given = {k: v for k, v in values.items() if SwigluGroupQuantOp.DEFAULTS.get(k) != v}
    attrs = ", ".join(_attribute(k, v) for k, v in given.items())
    return f"""func.func @swiglu_group_quant(%x: {x}) -> ({y}, {s}) {{
  %y, %s = hsg.swiglu_group_quant %x {{{attrs}}} : {x}
  return %y, %s : {y}, {s}
}}"""


@functools.lru_cache(maxsize=32)
def _kernel(rows: int, width: int, dtype: str, attrs: tuple[tuple[str, object], ...]) -> object:
    from hswc.runner import compile_text

    return compile_text(module_text(rows, width, dtype, dict(attrs)), name="swiglu_group_quant",
                        level="linalg", soc="ascend950")


def outputs(dtype: str, args: Sequence[np.ndarray], values: Mapping[str, object]
            ) -> tuple[np.ndarray, ...]:
    """y, y_scale and an empty y_origin for x of [rows, 2H] (hswc's interpreter)."""
    (x,) = args
    rows, width = x.shape
    kernel = _kernel(rows, width, dtype, tuple(sorted(values.items())))
    y, scale = (np.asarray(o) for o in kernel.run(x).outputs)  # type: ignore[attr-defined]
    return y, scale, np.zeros(0, x.dtype)
