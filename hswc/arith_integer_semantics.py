"""What arith's integer ops compute on tensor elements, over numpy arrays of the type's width.

An iN value is held in numpy's signed N-bit integer (int8, ..., int64; `index` as int64), an
i1 as bool: arith's integers are signless, and each op says how it reads the bits. Addition,
subtraction and multiplication wrap modulo 2^N; the `u` ops (divui, remui, maxui, cmpi ult,
extui, uitofp, ...) read the bits as unsigned; division by zero, and the signed division of the
smallest value by -1, are an error for the caller to name (undefined behaviour in MLIR). The
conversions to float round once to nearest even (through f64, exact below 2^53 in magnitude);
fptosi / fptoui round toward zero (a NaN or a value out of range is poison in MLIR: here what
numpy's conversion gives).

hswc.interpreter.body runs these for the integer ops of a body (indices an exporter computes,
an argmax's index, masks); hswc.integer_semantics keeps the host's `index` arithmetic on ints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np

from hswc.arith_semantics import F64, I1, convert

Array = np.ndarray

SIGNED: Final = {1: I1, 8: np.dtype(np.int8), 16: np.dtype(np.int16), 32: np.dtype(np.int32),
                 64: np.dtype(np.int64)}
"""The numpy dtype holding iN, by N."""


class IntegerError(ArithmeticError):
    """An operation MLIR leaves undefined (a division by zero): the caller names the op."""


def unsigned(a: Array) -> Array:
    """The bits of `a` read as an unsigned integer of the same width (i1 stays bool)."""
    a = np.asarray(a)
    return a if a.dtype == I1 else a.view(a.dtype.str.replace("i", "u"))


def _wrapping(fn: Callable[[Array, Array], Array]) -> Callable[[Array, Array], Array]:
    def run(a: Array, b: Array) -> Array:
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype == I1:  # i1 arithmetic is modulo 2: + and - are xor, * is and
            ints = fn(a.astype(np.int8), b.astype(np.int8))
            return np.asarray((ints & 1).astype(I1))
        with np.errstate(over="ignore"):
            return np.asarray(fn(a, b)).astype(a.dtype)
    return run


def _divisor(b: Array) -> Array:
    b = np.asarray(b)
    if np.any(b == 0):
        raise IntegerError("divides by zero (undefined behaviour in MLIR)")
    return b


def _signed_division(a: Array, b: Array) -> tuple[Array, Array]:
    """The quotient rounded toward zero and its remainder (C's / and %)."""
    a, b = np.asarray(a), _divisor(b)
    if a.dtype != I1 and np.any((a == np.iinfo(a.dtype).min) & (b == -1)):
        raise IntegerError("divides the smallest value by -1 (undefined behaviour in MLIR)")
    wide_a, wide_b = a.astype(np.int64), b.astype(np.int64)
    quotient = np.abs(wide_a) // np.abs(wide_b) * np.sign(wide_a) * np.sign(wide_b)
    return quotient.astype(a.dtype), (wide_a - quotient * wide_b).astype(a.dtype)


def _floor_division(a: Array, b: Array) -> Array:
    return np.floor_divide(np.asarray(a), _divisor(b))


def _ceil_division(a: Array, b: Array) -> Array:
    """a / b rounded toward +infinity, computed in int64: -a in a's own width wraps for its
    smallest value (ceildivsi(-128, -73) is 2, not -1)."""
    a = np.asarray(a)
    wide = -np.floor_divide(-a.astype(np.int64), _divisor(b).astype(np.int64))
    return wide.astype(a.dtype)


def _unsigned_ceil_division(a: Array, b: Array) -> Array:
    ua, ub = unsigned(a), unsigned(_divisor(b))
    rounded_up = ua // ub + (ua % ub != 0)
    return rounded_up.astype(ua.dtype).view(np.asarray(a).dtype)


def _unsigned_division(a: Array, b: Array) -> Array:
    return (unsigned(a) // unsigned(_divisor(b))).view(np.asarray(a).dtype)


def _unsigned_remainder(a: Array, b: Array) -> Array:
    return (unsigned(a) % unsigned(_divisor(b))).view(np.asarray(a).dtype)


def _unsigned_pick(fn: Callable[[Array, Array], Array]) -> Callable[[Array, Array], Array]:
    return lambda a, b: np.asarray(fn(unsigned(a), unsigned(b))).view(np.asarray(a).dtype)


BINARY: Final[dict[str, Callable[[Array, Array], Array]]] = {
    "arith.addi": _wrapping(np.add),
    "arith.subi": _wrapping(np.subtract),
    "arith.muli": _wrapping(np.multiply),
    "arith.divsi": lambda a, b: _signed_division(a, b)[0],
    "arith.remsi": lambda a, b: _signed_division(a, b)[1],
    "arith.floordivsi": _floor_division,
    "arith.ceildivsi": _ceil_division,
    "arith.divui": _unsigned_division,
    "arith.remui": _unsigned_remainder,
    "arith.ceildivui": _unsigned_ceil_division,
    "arith.maxsi": np.maximum,
    "arith.minsi": np.minimum,
    "arith.maxui": _unsigned_pick(np.maximum),
    "arith.minui": _unsigned_pick(np.minimum),
    "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor,
    "arith.shli": _wrapping(np.left_shift),
    "arith.shrsi": np.right_shift,
    "arith.shrui": lambda a, b: (unsigned(a) >> unsigned(b)).view(np.asarray(a).dtype),
}
"""The binary integer ops, both operands and the result of one type."""

CMPI: Final[tuple[Callable[[Array, Array], Array], ...]] = (
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    lambda a, b: unsigned(a) < unsigned(b),
    lambda a, b: unsigned(a) <= unsigned(b),
    lambda a, b: unsigned(a) > unsigned(b),
    lambda a, b: unsigned(a) >= unsigned(b),
)
"""arith.cmpi by predicate number: eq ne slt sle sgt sge ult ule ugt uge."""


def absolute(a: Array) -> Array:
    """math.absi: |a|, the smallest value its own absolute value (-(-2^(N-1)) wraps)."""
    a = np.asarray(a)
    with np.errstate(over="ignore"):
        return np.where(a < 0, (np.zeros_like(a) - a).astype(a.dtype), a).astype(a.dtype)


def extend(a: Array, dtype: np.dtype, signed: bool) -> Array:
    """extsi / extui (and index_cast / index_castui from a narrower type)."""
    a = np.asarray(a)
    if a.dtype == I1:
        return np.where(a, -1 if signed and dtype != I1 else 1, 0).astype(dtype)
    return (a if signed else unsigned(a)).astype(dtype)


def truncate(a: Array, dtype: np.dtype) -> Array:
    """trunci (and index_cast to a narrower type): the low bits."""
    a = np.asarray(a)
    if dtype == I1:
        return (a & 1).astype(I1)
    return a.astype(dtype)


def resize(a: Array, dtype: np.dtype, signed: bool = True) -> Array:
    """An integer to another width: extended (signed or not) or truncated."""
    a = np.asarray(a)
    if dtype == I1 or (a.dtype != I1 and dtype.itemsize < a.dtype.itemsize):
        return truncate(a, dtype)
    return extend(a, dtype, signed)


def to_float(a: Array, dtype: np.dtype, signed: bool) -> Array:
    """sitofp / uitofp: rounded once to nearest even (an i1 true is -1 signed, 1 unsigned)."""
    a = np.asarray(a)
    if a.dtype == I1:
        ints = np.where(a, -1 if signed else 1, 0)
    else:
        ints = a if signed else unsigned(a)
    return convert(ints.astype(F64), dtype)


def to_integer(a: Array, dtype: np.dtype, signed: bool) -> Array:
    """fptosi / fptoui: rounded toward zero."""
    with np.errstate(invalid="ignore", over="ignore"):
        whole = np.trunc(np.asarray(a).astype(F64))
        if signed:
            return whole.astype(dtype)
        return whole.astype(dtype.str.replace("i", "u")).view(dtype)


def constant(value: int, dtype: np.dtype) -> Array:
    """An integer constant of the type: its low bits (an i1 `true` may be written 1 or -1)."""
    if dtype == I1:
        return np.asarray(bool(value & 1))
    bits = dtype.itemsize * 8
    value &= (1 << bits) - 1
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return np.asarray(value, dtype=dtype)
