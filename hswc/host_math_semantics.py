"""What the `math` ops compute on the host where the vector unit's models do not apply: on f64,
the ops it has no instruction for, and math.fpowi.

hswc.math_decompositions defines math.exp, log, sqrt, rsqrt, absf, log1p, expm1, tanh and erf
on f16, bf16 and f32 (what a kernel computes, and every IR level with it). Everything else an
exporter writes is computed here:

- a unary function (`DOUBLE`) in double precision by numpy (within an ulp of the exact value
  in double; sqrt, floor, ceil, trunc, round, roundeven and absf exactly) and rounded once to
  the op's type: MLIR leaves these functions' last bit to the library it calls (libm), so the
  host's is one faithful result among several. On f64 the double result is the result; f16 and
  bf16 go through f32 (the f32 function's result, rounded again to the type), as MLIR's
  lowering widens them (math-extend-to-supported-types).
- math.fpowi(x, n) as compiler-rt's __powisf2 / __powidf2 computes it (the loop MLIR's
  convert-math-to-funcs outlines, and LLVM's powi calls): r = 1; square-and-multiply over the
  bits of |n| from the lowest, r = r * x^(2^i) for each set bit, each product rounded in f32 or
  f64; 1 / r for a negative n. f16 and bf16 are computed so in f32 and rounded once at the end,
  as every other math op on them (tools/mlir_oracle.py's widening).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

import numpy as np

from hswc.arith_semantics import BF16, F16, F32, F64, convert

Array = np.ndarray


def _round(x: Array) -> Array:
    """Half away from zero (math.round), exact in double."""
    whole = np.trunc(x)
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole)


_ERF = np.vectorize(math.erf, otypes=[np.float64])

DOUBLE: Final[dict[str, Callable[[Array], Array]]] = {
    "math.absf": np.abs,
    "math.acos": np.arccos,
    "math.asin": np.arcsin,
    "math.atan": np.arctan,
    "math.cbrt": np.cbrt,
    "math.ceil": np.ceil,
    "math.cos": np.cos,
    "math.cosh": np.cosh,
    "math.erf": _ERF,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.floor": np.floor,
    "math.log": np.log,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.log2": np.log2,
    "math.round": _round,
    "math.roundeven": np.rint,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
    "math.sin": np.sin,
    "math.sinh": np.sinh,
    "math.sqrt": np.sqrt,
    "math.tan": np.tan,
    "math.tanh": np.tanh,
    "math.trunc": np.trunc,
}
"""Unary math ops computed in double, by name."""

BINARY_DOUBLE: Final[dict[str, Callable[[Array, Array], Array]]] = {
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
    "math.powf": np.power,
}
"""Binary math ops computed in double, by name (copysign exactly)."""


def in_double(name: str, *operands: Array) -> Array:
    """The math op `name` on operands of one float type: computed in double, rounded once to
    that type."""
    dtype = np.asarray(operands[0]).dtype
    fn = DOUBLE[name] if len(operands) == 1 else BINARY_DOUBLE[name]
    with np.errstate(all="ignore"):
        result = np.asarray(fn(*(np.asarray(a).astype(F64) for a in operands)), dtype=F64)
    if dtype in (F16, BF16):
        return convert(convert(result, F32), dtype)
    return convert(result, dtype)


def fpowi(x: Array, n: Array) -> Array:
    """math.fpowi (module docstring): x of f16, bf16, f32 or f64, n any integer array."""
    x = np.asarray(x)
    work = F32 if x.dtype in (F16, BF16) else x.dtype
    base = x.astype(work)
    exponent = np.abs(np.asarray(n).astype(np.int64))
    shape = np.broadcast_shapes(base.shape, exponent.shape)
    base, exponent = np.broadcast_to(base, shape).copy(), np.broadcast_to(exponent, shape).copy()
    result = np.ones(shape, work)
    with np.errstate(all="ignore"):
        while np.any(exponent):
            odd = (exponent & 1) == 1
            result = np.where(odd, result * base, result).astype(work)
            exponent >>= 1
            base = np.where(exponent != 0, base * base, base).astype(work)
        result = np.where(np.asarray(n) < 0, np.asarray(1, work) / result, result).astype(work)
    return convert(result, x.dtype) if work != x.dtype else result
