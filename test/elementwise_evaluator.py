"""An independent numpy evaluator of elementwise bodies (elementwise_bodies.Body), written for
the tests from MLIR's arith semantics, not from hswc's code (it imports nothing of hswc).

- f32 ops compute natively in numpy float32 (IEEE binary32, round to nearest even; numpy keeps
  subnormals).
- f16 +, -, *, / compute in float64 and round once to f16 (numpy's double -> half conversion
  rounds the double directly, to nearest even). That is the correctly rounded f16 result: a
  sum or product of two f16 values is exact in a double (22 significant bits for a product; a
  sum spans at most 40 bits, from 2^-24 to 2^16), and for a quotient the double rounding is
  innocuous because 53 >= 2 * 11 + 2. bf16 arithmetic is not evaluated (no supported body
  computes in bf16, and ml_dtypes before 0.7 rounds a double to bf16 through f32, twice).
- extf is exact; truncf rounds f32 to nearest even (numpy to f16, ml_dtypes to bf16), to +-inf
  beyond the largest finite value.
- maximumf / minimumf: NaN if either operand is NaN; otherwise the larger / smaller, with -0
  ordered below +0.
- cmpf: the ordered predicates (oeq ogt oge olt ole one ord) are false when either operand is
  NaN; une (unordered or not equal) is true then. +0 equals -0.
- negf flips the sign; select picks its second operand where the condition holds; andi, ori and
  xori are the i1 logic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from elementwise_bodies import NUMPY_TYPES, UINT_TYPES, Body, Op

Array = np.ndarray

F64_ARITHMETIC: dict[str, Callable[[Array, Array], Array]] = {
    "addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide,
}


def _nan(a: Array, b: Array) -> Array:
    return np.isnan(a) | np.isnan(b)


def maximumf(a: Array, b: Array) -> Array:
    both_zero = (a == 0) & (b == 0)
    zero = np.where(np.signbit(a) & np.signbit(b), a, np.abs(a))  # -0 only if both are -0
    larger = np.where(a > b, a, b)
    return np.where(_nan(a, b), np.asarray(np.nan, a.dtype), np.where(both_zero, zero, larger))


def minimumf(a: Array, b: Array) -> Array:
    both_zero = (a == 0) & (b == 0)
    zero = np.where(np.signbit(a) | np.signbit(b), -np.abs(a), a)  # -0 if either is -0
    smaller = np.where(a < b, a, b)
    return np.where(_nan(a, b), np.asarray(np.nan, a.dtype), np.where(both_zero, zero, smaller))


def cmpf(predicate: str, a: Array, b: Array) -> Array:
    ordered = ~_nan(a, b)
    table: dict[str, Callable[[], Array]] = {
        "oeq": lambda: ordered & (a == b),
        "ogt": lambda: ordered & (a > b),
        "oge": lambda: ordered & (a >= b),
        "olt": lambda: ordered & (a < b),
        "ole": lambda: ordered & (a <= b),
        "one": lambda: ordered & (a != b),
        "ord": lambda: ordered,
        "une": lambda: ~ordered | (a != b),
    }
    return table[predicate]()


def arithmetic(kind: str, t: str, a: Array, b: Array) -> Array:
    """addf, subf, mulf, divf, maximumf, minimumf in type t."""
    with np.errstate(all="ignore"):
        return _arithmetic(kind, t, a, b)


def _arithmetic(kind: str, t: str, a: Array, b: Array) -> Array:
    dtype = NUMPY_TYPES[t]
    if kind == "maximumf":
        return maximumf(a, b)
    if kind == "minimumf":
        return minimumf(a, b)
    if t == "f32":
        return F64_ARITHMETIC[kind](a.astype(np.float32), b.astype(np.float32))
    if t == "f16":
        exact = F64_ARITHMETIC[kind](a.astype(np.float64), b.astype(np.float64))
        return exact.astype(dtype)
    raise ValueError(f"{kind} on {t}: the evaluator computes f16 and f32 arithmetic only")


def constant(op: Op) -> Array:
    assert op.bits is not None
    if op.type == "i1":
        return np.asarray(bool(op.bits))
    return np.asarray(op.bits, UINT_TYPES[op.type]).view(NUMPY_TYPES[op.type])


def convert(op: Op, a: Array) -> Array:
    """extf (exact) or truncf (round to nearest even)."""
    with np.errstate(all="ignore"):
        return a.astype(NUMPY_TYPES[op.type])


def _step(op: Op, args: list[Array], inputs: Sequence[Array]) -> Array:
    if op.kind == "input":
        assert op.index is not None
        return np.asarray(inputs[op.index])
    if op.kind == "const":
        return constant(op)
    if op.kind in ("extf", "truncf"):
        return convert(op, args[0])
    if op.kind in F64_ARITHMETIC or op.kind in ("maximumf", "minimumf"):
        return arithmetic(op.kind, op.type, args[0], args[1])
    if op.kind == "negf":
        return np.negative(args[0])
    if op.kind == "cmpf":
        assert op.predicate is not None
        return cmpf(op.predicate, args[0], args[1])
    if op.kind == "select":
        return np.where(args[0], args[1], args[2])
    logic = {"andi": np.logical_and, "ori": np.logical_or, "xori": np.logical_xor}
    return logic[op.kind](args[0], args[1])


def evaluate(body: Body, inputs: Sequence[Array]) -> Array:
    """The body applied to every element of the inputs (all of the body's shape)."""
    values: list[Array] = []
    for op in body.ops:
        values.append(_step(op, [values[i] for i in op.operands], inputs))
    result = np.broadcast_to(values[body.result], body.shape)
    return result.astype(NUMPY_TYPES[body.dtype], copy=True)
