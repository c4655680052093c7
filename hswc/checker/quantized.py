"""The quantizing ops the checker compares: ops-nn's GeluQuant as the generic hswc compiles.

`--op gelu_quant` (the sweep's mapping of activation/gelu_quant) is the computation of
activation/gelu_quant/README.md in its dynamic mode, its definition's default
(op_host/gelu_quant_def.cpp: quant_mode "dynamic", dst_type int8, round_mode "rint"):

    g = gelu(x) * input_scale          (in f32; gelu's erf form, or its tanh form)
    out_scale = max(|g|) / 127         (per row: every dim but the last)
    y = round_half_even(g / out_scale) to int8, saturated to [-128, 127]

written as linalg.generics (a row reduction and the quantization: the same ops torch-mlir
exports for it, test/fixtures/torch_models/gated/gelu_quant_dynamic_f32) and run by hswc's
interpreter for each run's shape: x of [rows, L] (hswc.checker.halves' x), input_scale of [L]
(the smooth scales, a "column"), y of [rows, L] int8 and out_scale of [rows] f32 (a "row").
input_offset, which the dynamic mode does not read, is left out (a null address).

The static mode (y = round(gelu(x) * input_scale + input_offset)) is not compared: `--attr
quant_mode=static` is refused with that reason.

Inputs are drawn as for every check, then made such that each row's quantization is defined
(`defined`): an inf or NaN makes a row's out_scale inf or NaN, whose quantization neither the
README nor MLIR defines (fptosi of NaN), so values that are not finite become 0 and magnitudes
above 2^32 are clipped to it (|g| stays finite in f32); a row none of whose elements has
x >= 1/16 with a smooth scale of |input_scale| >= 1/16 gets x = 1 at its first element (and
input_scale[0] = 1 where it is smaller), so that its largest |g| is at least about 0.002 (a
negative x gives GELU's tail, -0 in f32 below about -5.5 and in the kernel's form below
-13.15 / FLT_MAX's reach) and its
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
OUTPUT_DTYPES = ("int8", "float32")
"""y, out_scale: numpy dtypes (the run's dtype is x's)."""
KINDS = {"x": "x", "input_scale": "column"}
OUTPUT_KINDS = ("x", "row")
"""hswc.checker.halves' kinds of the tensors: x and y [rows, L], input_scale [L], out_scale
[rows]."""
DEFAULTS = {"approximate": "none", "quant_mode": "dynamic"}
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
                             "approximate, quant_mode, dst_type, round_mode)")
        values[name] = text
    if values["approximate"] not in ("none", "tanh"):
        raise CheckError(f"--attr approximate={values['approximate']}: must be none or tanh")
    if values["quant_mode"] != "dynamic":
        raise CheckError(f"--attr quant_mode={values['quant_mode']}: the checker compares "
                         "GeluQuant's dynamic mode (a scale per row); its static mode is not "
                         "compared yet")
    return values


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
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %kappa = arith.constant 0.044715 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %max_q = arith.constant {INT8_MAX} : f32
  %lo = arith.constant -128.0 : f32
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
      %r = math.roundeven %q : f32
      %below = arith.cmpf ult, %r, %lo : f32
      %r1 = arith.select %below, %lo, %r : f32
      %above = arith.cmpf ugt, %r1, %max_q : f32
      %r2 = arith.select %above, %max_q, %r1 : f32
      %i = arith.fptosi %r2 : f32 to i8
      linalg.yield %i : i8
  }} -> tensor<{i8}>
  return %y, %scale : tensor<{i8}>, tensor<{rows}xf32>
}}
"""


@functools.lru_cache(maxsize=32)
def _kernel(rows: int, length: int, dtype: str, approximate: str) -> object:
    from hswc.runner import compile_text

    return compile_text(module_text(rows, length, dtype, approximate), name="gelu_quant",
                        level="linalg")


def outputs(dtype: str, args: Sequence[np.ndarray], attrs: Mapping[str, str]
            ) -> tuple[np.ndarray, ...]:
    """y and out_scale for x of [rows, L] and input_scale of [L] (hswc's interpreter)."""
    x, scale = args
    rows, length = x.shape
    kernel = _kernel(rows, length, dtype, attrs["approximate"])
    return tuple(kernel.run(x, scale).outputs)  # type: ignore[attr-defined]


LARGEST = float(2**32)
SMALLEST = 1.0 / 16


def defined(args: Sequence[np.ndarray], rows: int) -> list[np.ndarray]:
    """x (flat, `rows` rows) and input_scale made such that every row's quantization is
    defined (module docstring)."""
    x, scale = (np.asarray(a) for a in args)
    out = []
    for a in (x, scale):
        wide = a.astype(np.float32)
        wide = np.where(np.isfinite(wide), np.clip(wide, -LARGEST, LARGEST), 0)
        out.append(wide.astype(a.dtype))
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
