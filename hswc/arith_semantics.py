"""What the scalar arith ops of an elementwise body compute, over numpy arrays, bit for bit.

One function per op, in the op's own element type: f16 as numpy float16, bf16 as
ml_dtypes.bfloat16, f32 as float32, i1 as bool. numpy and ml_dtypes compute a reduced-precision
+, -, *, / in f32 and round once to the type, which is the correctly rounded result (24 >= 2p + 2
for p = 11 and 8, so the double rounding is innocuous). maximumf / minimumf follow MLIR: NaN if
either operand is NaN, and -0 orders below +0. cmpf follows MLIR's ordered / unordered predicates.
A double (a constant's value) is rounded once to its type, as APFloat and hswc.float_formats
round it, whichever ml_dtypes is installed (`convert`).

The interpreter runs bodies with these (hswc.interpreter.body); the vectorizer folds constant
operations with them, so a folded constant is the value the unfolded op would compute.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import ml_dtypes
import numpy as np

F16: Final = np.dtype(np.float16)
F32: Final = np.dtype(np.float32)
F64: Final = np.dtype(np.float64)
BF16: Final = np.dtype(ml_dtypes.bfloat16)
I1: Final = np.dtype(np.bool_)
DTYPES: Final = {"f16": F16, "bf16": BF16, "f32": F32, "i1": I1}
BODY_DTYPES: Final = {**DTYPES, "f64": F64}
"""What the interpreter computes a body in: DTYPES, and f64 as exporters write it (a body as
written, before hsg-exact-f64 rewrites it)."""

Array = np.ndarray


def _maximum(a: Array, b: Array) -> Array:
    larger = np.maximum(a, b)  # NaN-propagating
    # Equal operands are either the same value or +0 and -0: take the one without a sign bit.
    return np.where(a == b, np.where(np.signbit(a), b, a), larger)


def _minimum(a: Array, b: Array) -> Array:
    smaller = np.minimum(a, b)
    return np.where(a == b, np.where(np.signbit(a), a, b), smaller)


def _ordered(a: Array, b: Array) -> Array:
    return ~np.isnan(a) & ~np.isnan(b)


CMPF: Final[dict[str, Callable[[Array, Array], Array]]] = {
    "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    "oeq": np.equal,
    "ogt": np.greater,
    "oge": np.greater_equal,
    "olt": np.less,
    "ole": np.less_equal,
    "one": lambda a, b: (a != b) & _ordered(a, b),
    "ord": _ordered,
    "ueq": lambda a, b: (a == b) | ~_ordered(a, b),
    "ugt": lambda a, b: ~(a <= b),
    "uge": lambda a, b: ~(a < b),
    "ult": lambda a, b: ~(a >= b),
    "ule": lambda a, b: ~(a > b),
    "une": np.not_equal,
    "uno": lambda a, b: ~_ordered(a, b),
    "true": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
}
"""arith.cmpf by predicate name; NaN makes every ordered predicate false and every unordered
one true."""

BINARY: Final[dict[str, Callable[[Array, Array], Array]]] = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.maximumf": _maximum,
    "arith.minimumf": _minimum,
    "arith.andi": np.logical_and,
    "arith.ori": np.logical_or,
    "arith.xori": np.logical_xor,
}
"""The binary ops, both operands and the result of one type."""


def binary(name: str, a: Array, b: Array) -> Array:
    with np.errstate(all="ignore"):
        return np.asarray(BINARY[name](a, b))


def cmpf(predicate: str, a: Array, b: Array) -> Array:
    with np.errstate(invalid="ignore"):
        return np.asarray(CMPF[predicate](a, b))


def negf(a: Array) -> Array:
    return np.negative(a)


def select(cond: Array, a: Array, b: Array) -> Array:
    return np.where(cond, a, b)


def convert(a: Array, dtype: np.dtype) -> Array:
    """extf (exact) or truncf (round to nearest even, overflow to +-inf) to `dtype`; a double
    is rounded to it once.

    ml_dtypes before 0.7 rounds a double to bf16 through f32 (twice to nearest: 1 + 3 * 2**-8
    - 2**-40 becomes the tie 1 + 3 * 2**-8, then 1 + 2**-6 instead of 1 + 2**-7). Rounding to
    f32 to odd first keeps what the second rounding needs, so f32 -> bf16 then rounds as
    the double would (Boldo and Melquiond: 24 >= 8 + 2 bits).
    """
    a = np.asarray(a)
    with np.errstate(all="ignore"):
        if dtype == BF16 and a.dtype == F64:
            a = _f32_to_odd(a)
        return a.astype(dtype)


def _f32_to_odd(a: Array) -> Array:
    """Doubles rounded to f32 to odd: an exact one stays, an inexact one becomes the f32
    neighbour with an odd last bit (beyond the f32 range the largest finite); inf and NaN stay
    as astype makes them."""
    nearest = a.astype(F32)
    inexact = (nearest.astype(F64) != a) & np.isfinite(a)
    even = (nearest.view(np.uint32) & 1) == 0
    towards = np.where(a > nearest, np.float32(np.inf), np.float32(-np.inf))
    return np.where(inexact & even, np.nextafter(nearest, towards), nearest)


def constant(value: float | bool, dtype: np.dtype) -> Array:
    """A 0-d array of the constant, rounded once to its type (the double the IR's attribute
    states)."""
    if dtype == I1:
        return np.asarray(value, dtype=I1)
    return convert(np.asarray(value, dtype=F64), dtype)
