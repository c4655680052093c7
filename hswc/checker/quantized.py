"""The quantizing ops the checker compares: ops-nn's GeluQuant as the generic hswc compiles.

`--op gelu_quant` (the sweep's mapping of activation/gelu_quant) is the computation of
activation/gelu_quant/README.md, by default in its dynamic mode, its definition's default
(op_host/gelu_quant_def.cpp: quant_mode "dynamic", dst_type int8, round_mode "rint"):

    g = gelu(x) * input_scale          (in f32; gelu's erf form, or its tanh form)
    out_scale = max(|g|) / 127         (per row: every dim but the last)
    y = round_half_even(g / out_scale) to int8, saturated to [-128, 127]

written as linalg.generics (a row reduction and the quantization: the same ops torch-mlir
exports for it, test/fixtures/torch_models/gated/gelu_quant_dynamic_f32) and run by hswc's
interpreter for each run's shape: x of [rows, L] (hswc.checker.halves' x), input_scale of [L]
(the smooth scales, a "column"), y of [rows, L] int8 and out_scale of [rows] f32 (a "row").
input_offset, which the dynamic mode does not read, is left out (a null address).

`--attr quant_mode=static` is the README's static mode:

    y = round_half_even(gelu(x) * input_scale + input_offset) to int8, saturated

(in f32: a product, then a sum, each rounded once), input_scale and input_offset of [L] (per
channel: the checker's own attribute `scales=channel`, the default) or of one element (per
tensor: `scales=tensor`); the tiling takes both alike (op_host/gelu_quant_tiling.cpp:161-238:
an input of one element is a scalar, otherwise a [L] vector; the static mode needs
input_scale, `:199`). The static kernels do not write out_scale, which the caller passes as a
null address (docs/aclnnGeluQuant.md:215), as the checker does (hswc.checker.halves'
"none"). Where the A2/A3 kernels round (op_kernel/gelu_static_quant.h:241-243,
gelu_static_quant_block.h:268-270, gelu_static_quant_per_tensor.h:240-242) is two Casts: f32
to half with CAST_ODD, then half to int8 with CAST_RINT. That chain is the one rounding above for
every value that is not NaN (`odd_then_rint`, tested against it): half keeps 11 significand
bits, so below 512 in magnitude (half's spacing 1/4 or finer) round-to-odd keeps two bits or
more below the integer grid, enough for the second rounding to see the first's direction (a
tie stays a tie only where it was exact); beyond 128 both saturate (round-to-odd is monotone
and 128 is a half, so nothing crosses it), an inf stays inf and saturates. A definition with
round-to-nearest in the first Cast would round twice: 2.5000002 to half is 2.5, then to 2,
where one rounding gives 3.

Inputs are drawn as for every check, then made such that each row's quantization is defined
(`defined`): an inf or NaN makes a row's out_scale inf or NaN, whose quantization neither the
README nor MLIR defines (fptosi of NaN), so values that are not finite become 0 and magnitudes
above 2^32 are clipped to it (|g| stays finite in f32); in the dynamic mode, a row none of
whose elements has x >= 1/16 with a smooth scale of |input_scale| >= 1/16 gets x = 1 at its
first element (and input_scale[0] = 1 where it is smaller), so that its largest |g| is at least
about 0.002 (a negative x gives GELU's tail, -0 in f32 below about -5.5 and in the kernel's
form below -13.15 / FLT_MAX's reach) and its
scale neither 0 (every quotient 0 / 0) nor so small that the kernel's 127 / max overflows (a
row max below 127 / FLT_MAX, about 3.7e-37, makes it inf and the quotients NaN: see
bench/check_kernel_ops_nn.md). A row whose expected scale is 0 or not finite anyway is left
out of the comparison (`undefined_rows`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from hswc.checker.errors import CheckError

OPS = ("gelu_quant",)
"""The op names `--op` takes for this module's references."""
INPUTS = ("x", "input_scale")
STATIC_INPUTS = ("x", "input_scale", "input_offset")
OUTPUT_DTYPES = ("int8", "float32")
"""y, out_scale: numpy dtypes (the run's dtype is x's)."""
KINDS = {"x": "x", "input_scale": "column"}
SCALE_KINDS = {"channel": "column", "tensor": "one"}
"""`scales` -> hswc.checker.halves' kind of input_scale and input_offset in the static mode."""
OUTPUT_KINDS = ("x", "row")
"""hswc.checker.halves' kinds of the tensors: x and y [rows, L], input_scale [L], out_scale
[rows]."""
STATIC_OUTPUT_KINDS = ("x", "none")
"""The static mode's: out_scale a null address (docs/aclnnGeluQuant.md:215: in the static mode
outScaleOptional is to be a null pointer), which the static kernels do not write."""
DEFAULTS = {"approximate": "none", "quant_mode": "dynamic", "scales": "channel"}
CHECKER_ONLY = ("scales",)
"""Attributes of the checker's alone, not of GeluQuant's definition (its tiling never sees
them): how input_scale and input_offset are shaped."""
ELEMENT = {"f16": "f16", "bf16": "bf16", "f32": "f32"}
INT8_MAX = 127.0


def is_quantized(name: str | None) -> bool:
    return name in OPS


def attributes(attrs: Mapping[str, str]) -> dict[str, str]:
    """The attributes compared (their definition's defaults for those not given); a CheckError
    for a value the reference does not compute."""
    values = dict(DEFAULTS)
    for name, text in attrs.items():
        if name in ("dst_type", "round_mode"):
            if (name, text) not in (("dst_type", "2"), ("round_mode", "rint")):
                raise CheckError(f"--attr {name}={text}: the checker compares GeluQuant's int8 "
                                 "output (dst_type 2, DT_INT8) rounded half to even (rint)")
            continue
        if name not in DEFAULTS:
            raise CheckError(f"gelu_quant has no attribute '{name}' (its attributes: "
                             "approximate, quant_mode, dst_type, round_mode; the checker's "
                             "scales)")
        values[name] = text
    if values["approximate"] not in ("none", "tanh"):
        raise CheckError(f"--attr approximate={values['approximate']}: must be none or tanh")
    if values["quant_mode"] not in ("dynamic", "static"):
        raise CheckError(f"--attr quant_mode={values['quant_mode']}: must be static or dynamic")
    if values["scales"] not in SCALE_KINDS:
        raise CheckError(f"--attr scales={values['scales']}: must be channel (input_scale and "
                         "input_offset of [L]) or tensor (of one element)")
    if values["quant_mode"] == "dynamic" and values["scales"] != "channel":
        raise CheckError("--attr scales=tensor: the dynamic mode's smooth scales are compared "
                         "per channel (of [L]) only")
    return values


def tiling_attributes(attrs: Mapping[str, str]) -> dict[str, str]:
    """The `--attr`s GeluQuant's tiling takes: all but the checker's own (CHECKER_ONLY)."""
    return {k: v for k, v in attrs.items() if k not in CHECKER_ONLY}


def is_static(values: Mapping[str, str]) -> bool:
    return values["quant_mode"] == "static"


def input_names(values: Mapping[str, str]) -> tuple[str, ...]:
    """The inputs the reference takes (the others are left out: a null address)."""
    return STATIC_INPUTS if is_static(values) else INPUTS


def output_kinds(values: Mapping[str, str]) -> tuple[str, ...]:
    return STATIC_OUTPUT_KINDS if is_static(values) else OUTPUT_KINDS


def kinds(values: Mapping[str, str]) -> dict[str, str]:
    """hswc.checker.halves' kind of each input."""
    if not is_static(values):
        return dict(KINDS)
    kind = SCALE_KINDS[values["scales"]]
    return {"x": "x", "input_scale": kind, "input_offset": kind}


def _gelu(x: str, approximate: str) -> str:
    """Body lines computing gelu of the f32 value `x` into %gelu (PyTorch's two forms)."""
    if approximate == "none":
        return f"""      %h = arith.mulf {x}, %rsqrt2 : f32
      %erf = math.erf %h : f32
      %one_erf = arith.addf %erf, %one : f32
      %half_x = arith.mulf {x}, %half : f32
      %gelu = arith.mulf %half_x, %one_erf : f32"""
    return f"""      %x2 = arith.mulf {x}, {x} : f32
      %x3 = arith.mulf %x2, {x} : f32
      %cx3 = arith.mulf %x3, %kappa : f32
      %inner = arith.addf {x}, %cx3 : f32
      %arg = arith.mulf %inner, %sqrt2pi : f32
      %t = math.tanh %arg : f32
      %one_t = arith.addf %t, %one : f32
      %half_x = arith.mulf {x}, %half : f32
      %gelu = arith.mulf %half_x, %one_t : f32"""


_CONSTANTS = f"""  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %kappa = arith.constant 0.044715 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %max_q = arith.constant {INT8_MAX} : f32
  %lo = arith.constant -128.0 : f32
"""
"""The f32 constants both modes' bodies use (GELU's, int8's range)."""


def _to_int8(value: str) -> str:
    """Body lines rounding the f32 `value` half to even, saturating it to int8 and yielding
    it."""
    return f"""      %r = math.roundeven {value} : f32
      %below = arith.cmpf ult, %r, %lo : f32
      %r1 = arith.select %below, %lo, %r : f32
      %above = arith.cmpf ugt, %r1, %max_q : f32
      %r2 = arith.select %above, %max_q, %r1 : f32
      %i = arith.fptosi %r2 : f32 to i8
      linalg.yield %i : i8"""


def _widened(name: str, element: str) -> tuple[str, str]:
    """(a line extending block argument `name` to f32 or nothing, the f32 value's name)."""
    if element == "f32":
        return "", f"%{name}"
    return f"      %{name}_f = arith.extf %{name} : {element} to f32\n", f"%{name}_f"


def module_text(rows: int, length: int, dtype: str, approximate: str) -> str:
    """The reference's module for x of [rows, length] of `dtype` (module docstring)."""
    t = ELEMENT[dtype]
    xw, xf = _widened("a", t)
    sw, sf = _widened("w", t)
    m, v, i8 = f"{rows}x{length}", f"{length}", f"{rows}x{length}xi8"
    return f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#one = affine_map<(d0) -> (d0)>
func.func @gelu_quant(%x: tensor<{m}x{t}>, %input_scale: tensor<{v}x{t}>)
    -> (tensor<{i8}>, tensor<{rows}xf32>) {{
{_CONSTANTS}  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<{m}xf32>
  %g = linalg.generic {{indexing_maps = [#id, #col, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%x, %input_scale : tensor<{m}x{t}>, tensor<{v}x{t}>) outs(%e : tensor<{m}xf32>) {{
    ^bb0(%a: {t}, %w: {t}, %o: f32):
{xw}{sw}{_gelu(xf, approximate)}
      %smooth = arith.mulf %gelu, {sf} : f32
      linalg.yield %smooth : f32
  }} -> tensor<{m}xf32>
  %re = tensor.empty() : tensor<{rows}xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%re : tensor<{rows}xf32>) -> tensor<{rows}xf32>
  %amax = linalg.generic {{indexing_maps = [#id, #row],
      iterator_types = ["parallel", "reduction"]}}
      ins(%g : tensor<{m}xf32>) outs(%init : tensor<{rows}xf32>) {{
    ^bb0(%in: f32, %acc: f32):
      %abs = math.absf %in : f32
      %mx = arith.maximumf %abs, %acc : f32
      linalg.yield %mx : f32
  }} -> tensor<{rows}xf32>
  %scale = linalg.generic {{indexing_maps = [#one, #one], iterator_types = ["parallel"]}}
      ins(%amax : tensor<{rows}xf32>) outs(%re : tensor<{rows}xf32>) {{
    ^bb0(%in: f32, %o: f32):
      %s = arith.divf %in, %max_q : f32
      linalg.yield %s : f32
  }} -> tensor<{rows}xf32>
  %ye = tensor.empty() : tensor<{i8}>
  %y = linalg.generic {{indexing_maps = [#id, #row, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%g, %scale : tensor<{m}xf32>, tensor<{rows}xf32>) outs(%ye : tensor<{i8}>) {{
    ^bb0(%in: f32, %s: f32, %o: i8):
      %q = arith.divf %in, %s : f32
{_to_int8("%q")}
  }} -> tensor<{i8}>
  return %y, %scale : tensor<{i8}>, tensor<{rows}xf32>
}}
"""


def static_module_text(rows: int, length: int, dtype: str, approximate: str,
                       per_tensor: bool) -> str:
    """The static mode's module for x of [rows, length] of `dtype`, input_scale and
    input_offset of [length] or [1] (module docstring)."""
    t = ELEMENT[dtype]
    xw, xf = _widened("a", t)
    sw, sf = _widened("w", t)
    ow, of = _widened("b", t)
    m, v, i8 = f"{rows}x{length}", "1" if per_tensor else f"{length}", f"{rows}x{length}xi8"
    col = "(0)" if per_tensor else "(d1)"
    return f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> {col}>
func.func @gelu_quant(%x: tensor<{m}x{t}>, %input_scale: tensor<{v}x{t}>,
    %input_offset: tensor<{v}x{t}>) -> tensor<{i8}> {{
{_CONSTANTS}  %ye = tensor.empty() : tensor<{i8}>
  %y = linalg.generic {{indexing_maps = [#id, #col, #col, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%x, %input_scale, %input_offset : tensor<{m}x{t}>, tensor<{v}x{t}>, tensor<{v}x{t}>)
      outs(%ye : tensor<{i8}>) {{
    ^bb0(%a: {t}, %w: {t}, %b: {t}, %o: i8):
{xw}{sw}{ow}{_gelu(xf, approximate)}
      %scaled = arith.mulf %gelu, {sf} : f32
      %shifted = arith.addf %scaled, {of} : f32
{_to_int8("%shifted")}
  }} -> tensor<{i8}>
  return %y : tensor<{i8}>
}}
"""


@functools.lru_cache(maxsize=32)
def _kernel(rows: int, length: int, dtype: str, approximate: str) -> object:
    from hswc.runner import compile_text

    return compile_text(module_text(rows, length, dtype, approximate), name="gelu_quant",
                        level="linalg")


@functools.lru_cache(maxsize=32)
def _static_kernel(rows: int, length: int, dtype: str, approximate: str,
                   per_tensor: bool) -> object:
    from hswc.runner import compile_text

    return compile_text(static_module_text(rows, length, dtype, approximate, per_tensor),
                        name="gelu_quant", level="linalg")


def outputs(dtype: str, args: Sequence[np.ndarray], attrs: Mapping[str, str]
            ) -> tuple[np.ndarray, ...]:
    """y and out_scale for x of [rows, L] and input_scale of [L] (hswc's interpreter); in the
    static mode (x, input_scale, input_offset) y and an empty out_scale (a null address)."""
    if is_static(attrs):
        x, scale, offset = args
        rows, length = x.shape
        static = _static_kernel(rows, length, dtype, attrs["approximate"],
                                attrs["scales"] == "tensor")
        y = static.run(x, scale, offset).outputs[0]  # type: ignore[attr-defined]
        return y, np.zeros(0, np.float32)
    x, scale = args
    rows, length = x.shape
    kernel = _kernel(rows, length, dtype, attrs["approximate"])
    return tuple(kernel.run(x, scale).outputs)  # type: ignore[attr-defined]


def odd_then_rint(v: np.ndarray) -> np.ndarray:
    """The A2/A3 static kernels' rounding of f32 values `v` to int8 (module docstring): Cast
    to half with CAST_ODD (round to odd: the half below or above |v| whose significand is odd
    when v is not a half; a finite v beyond half's range gives 65504, whose significand is
    odd), then to int8 with CAST_RINT (half to even), saturated. A model of the Casts written
    from their definition alone, for the test that the chain is one rounding."""
    wide = np.asarray(v, np.float32).astype(np.float64)
    with np.errstate(over="ignore"):  # beyond half's range: inf, made 65504 below
        nearest = wide.astype(np.float16)
    bits = nearest.view(np.uint16).astype(np.int32)
    magnitude = bits & 0x7FFF
    inexact = np.isfinite(wide) & (nearest.astype(np.float64) != wide)
    away = np.abs(nearest.astype(np.float64)) > np.abs(wide)  # RNE rounded away from zero
    toward = np.where(inexact & away, magnitude - 1, magnitude)  # |v| rounded toward zero
    odd = np.where(inexact, toward | 1, magnitude)
    half = ((bits & 0x8000) | odd).astype(np.uint16).view(np.float16)
    rounded = np.rint(half.astype(np.float64))
    return np.clip(rounded, -128, 127).astype(np.int8)


LARGEST = float(2**32)
SMALLEST = 1.0 / 16


def defined(args: Sequence[np.ndarray], rows: int, static: bool = False) -> list[np.ndarray]:
    """x (flat, `rows` rows) and input_scale (and input_offset in the static mode) made such
    that every row's quantization is defined (module docstring)."""
    out = []
    for a in (np.asarray(a) for a in args):
        wide = a.astype(np.float32)
        wide = np.where(np.isfinite(wide), np.clip(wide, -LARGEST, LARGEST), 0)
        out.append(wide.astype(a.dtype))
    if static:
        return out
    x, scale = out
    wx, ws = x.astype(np.float32).reshape(rows, -1), scale.astype(np.float32)
    sizable = (wx >= SMALLEST) & (np.abs(ws) >= SMALLEST)[None, :]
    empty = ~sizable.any(axis=1)
    if empty.any():
        x = x.reshape(rows, -1).copy()
        x[empty, 0] = 1
        x = x.reshape(-1)
        if abs(float(ws[0])) < SMALLEST:
            scale = scale.copy()
            scale[0] = 1
    return [x, scale]


def undefined_rows(out_scale: np.ndarray) -> np.ndarray:
    """The rows whose quantization is undefined (a scale of 0: every quotient 0 / 0)."""
    wide = np.asarray(out_scale, np.float32)
    return ~(np.isfinite(wide) & (wide > 0))


def left_out(values: Mapping[str, str], wanted: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each output's elements left out of the comparison: y's of a row whose quantization is
    undefined, such rows' out_scale; none in the static mode (every y defined)."""
    if is_static(values):
        return [np.zeros(np.asarray(w).size, bool) for w in wanted]
    rows = undefined_rows(wanted[1])
    length = np.asarray(wanted[0]).size // max(rows.size, 1)
    return [np.repeat(rows, length), rows]
