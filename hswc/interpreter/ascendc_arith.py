"""Elementwise vector calls over numpy views: arithmetic, maximum / minimum, Abs, Relu, the
bitwise calls and Duplicate.

- Integer lanes (int16_t, int32_t, and what else the SoC's table lists): Add, Sub, Mul, Adds and
  Muls wrap around (two's complement, an assumption: asc-devkit documents no overflow rule for
  them; the CPU model does the same), Max, Min, Maxs, Mins and Relu compare plainly.
- Add, Sub, Mul, Div, Adds, Muls: one IEEE rounding to nearest even in T, subnormals kept, inf
  and NaN as IEEE; a NaN operand gives that NaN quieted, src0's when both are (ascendc_api).
  float is numpy's native f32 arithmetic (IEEE, correctly rounded); half is
  computed in f32 and rounded to half, which is the correctly rounded result: for + - * / a
  second rounding is innocuous when the wide format has at least 2p + 2 bits (24 >= 2 * 11 + 2).
  Add, Sub, Mul, Adds and Muls also take bfloat16, computed the same way: in f32, rounded to
  bfloat16 (RNE), which is how asc-devkit documents Ascend 950's (hswc/api_tables.def,
  ASCENDC_ROUNDS_BF16_IN_FLOAT; Muls is Duplicate then Mul there); A2/A3 has no such call (the
  table, checked before these run).
- Max, Min, Maxs, Mins, Relu: IEEE 754-2019 maximum / minimum (an assumption about the
  hardware, see ascendc_api): a NaN operand gives a NaN (src0's when both are, its quiet bit
  set), otherwise the larger / smaller value with -0 ordered below +0. Relu is maximum(x, +0).
- Exp, Ln, Sqrt, Rsqrt: hswc.math_semantics' one model of each (the double function rounded
  once to T), the same as the CPU model's.
- Abs clears the sign bit; And, Or, Not work on the 16-bit patterns of uint16 / int16 lanes.
- Duplicate fills with the scalar (half, float or bfloat16). Max, Min, Maxs and Mins also take
  bfloat16 (exact: no rounding; Ascend 950 has them, A2/A3 not: which SoC takes what is
  hswc.soc_api's table, which the interpreter checks before it calls these). Div and the
  math calls refuse bfloat16 (its rounding is documented nowhere for them).

count 0 is a no-op, elements past count are untouched, and every tensor must hold count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np

from hswc.interpreter.ascendc_cast import scalar_operand, widened
from hswc.interpreter.ascendc_checks import (
    ApiError,
    Scalar,
    check_count,
    check_operand,
    float_dtype,
    overlaps,
    store,
)
from hswc.interpreter.dtypes import BF16, F16, F32, I16, U16

Compute = Callable[[np.ndarray, np.ndarray], np.ndarray]
DtypeRule = Callable[[str, np.ndarray], np.dtype]

_BITS: Final = {F16: (np.uint16, 0x7FFF, 0x0200), F32: (np.uint32, 0x7FFFFFFF, 0x00400000),
                BF16: (np.uint16, 0x7FFF, 0x0040)}
"""(unsigned view, magnitude mask, quiet-NaN bit) of each arithmetic dtype."""

# region operand rules


def arith_dtype(api: str, a: np.ndarray) -> np.dtype:
    """The dtype of `a`, which must be one the vector unit does arithmetic in (half, float)."""
    if a.dtype not in (F16, F32):
        raise ApiError(f"{api}: unsupported dtype {a.dtype} (float16, float32; the A2/A3 vector "
                       "unit has no bfloat16 arithmetic)")
    return a.dtype


def integer_or(rule: DtypeRule) -> DtypeRule:
    """`rule`, but for an integer `a` (int8 to int64, signed or not), its dtype: which integer
    types a call takes on a SoC is hswc.soc_api's table, checked before the call runs."""
    def checked(api: str, a: np.ndarray) -> np.dtype:
        return a.dtype if a.dtype.kind in "iu" else rule(api, a)
    return checked


def bf16_in_float_dtype(api: str, a: np.ndarray) -> np.dtype:
    """The dtype of `a`, which must be one the call computes in: half, float, or bfloat16 for
    the calls documented as float arithmetic rounded to bfloat16 (Add, Sub, Mul, Adds, Muls), or an
    integer type."""
    if a.dtype.kind in "iu":
        return a.dtype
    return a.dtype if a.dtype == BF16 else arith_dtype(api, a)


def extremum_dtype(api: str, a: np.ndarray) -> np.dtype:
    """The dtype of `a`, which must be one maximum / minimum is computed in (half, float,
    bfloat16: no rounding is involved; an integer type)."""
    if a.dtype not in (F16, F32, BF16) and a.dtype.kind not in "iu":
        raise ApiError(f"{api}: unsupported dtype {a.dtype} (float16, float32, bfloat16, "
                       "integers)")
    return a.dtype


def bitwise_dtype(api: str, a: np.ndarray) -> np.dtype:
    """The dtype of `a`, which must be a 16- or 32-bit integer (int16_t / uint16_t lanes on
    every SoC, int32_t / uint32_t on Ascend 950: hswc.soc_api's table says which SoC takes
    which, checked before the call runs)."""
    if a.dtype not in (U16, I16) and a.dtype not in (np.dtype(np.int32), np.dtype(np.uint32)):
        raise ApiError(f"{api}: unsupported dtype {a.dtype} (uint16, int16, int32, uint32)")
    return a.dtype


def _apply(api: str, rule: DtypeRule, compute: Compute, dst: np.ndarray, count: int,
           sources: dict[str, np.ndarray], scalar: Scalar | None = None) -> None:
    """dst[..., :count] = compute(first source, second source or the scalar), after the checks
    every call makes: shapes, one dtype the call takes, count within every tensor. A call with
    one source and no scalar gets a zero of the dtype as the second operand (and ignores it)."""
    check_operand(api, "dst", dst)
    dtype = rule(api, dst)
    for name, src in sources.items():
        check_operand(api, name, src, dtype)
    check_count(api, count, dst=dst, **sources)
    if count == 0:
        return
    first, *rest = (src[..., :count] for src in sources.values())
    second = rest[0] if rest else scalar_operand(0 if scalar is None else scalar, dtype)
    with np.errstate(all="ignore"):
        if isinstance(compute, _Direct) and compute.into(first, second, dst[..., :count]):
            return
        store(api, dst, np.asarray(compute(first, second)))


# endregion
# region the computations


class _Direct:
    """A computation that can also write its result straight into dst's view."""

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def into(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
        """Whether the result was written into `out` (else the caller stores it)."""
        raise NotImplementedError


def _same_shape(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
    """The operands have out's shape (b may be a scalar): the result fills out exactly."""
    return a.shape == out.shape and b.shape in (out.shape, ())


@dataclass(frozen=True)
class _Rounded(_Direct):
    """op(a, b) rounded once to the operands' dtype."""

    op: np.ufunc

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype == F32 or a.dtype.kind in "iu":
            result = self.op(a, b)  # native f32 arithmetic: IEEE RNE; integers wrap around
        else:
            # half: in f32, then numpy's correctly rounded (RNE) astype; module docstring.
            result = self.op(widened(a), widened(b)).astype(a.dtype)
        if a.dtype.kind == "f" and np.isnan(a).any():
            # Which NaN the host's + keeps when both are is its compiler's choice: the rule
            # (ascendc_api, and ascendc_cpu_vec_common.h's ArithNan) is src0's.
            return _nan_first(a, b, result)
        return result

    def into(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
        """Whether op(a, b) was written straight into `out`, which it is when the operands have
        out's shape (or b is a scalar): what storing the result would write, without the copy
        (numpy buffers an operand that overlaps out; assigning f32 to half rounds as astype)."""
        if not _same_shape(a, b, out) or (a.dtype.kind == "f" and np.isnan(a).any()):
            return False  # a NaN in src0: __call__ picks the NaN (out may overlap a)
        if a.dtype == F32 or a.dtype.kind in "iu":
            self.op(a, b, out=out)
        else:
            out[...] = self.op(widened(a), widened(b))
        return True


def _quieted(x: np.ndarray) -> np.ndarray:
    """x with the quiet bit set in every NaN lane (a signalling NaN becomes quiet)."""
    view, _, quiet = _BITS[x.dtype]
    bits = x.view(view)
    return np.where(np.isnan(x), bits | view(quiet), bits).view(x.dtype)


def _nan_first(a: np.ndarray, b: np.ndarray, result: np.ndarray) -> np.ndarray:
    """result, except a NaN operand's lanes: a's NaN where a is one, else b's, quieted."""
    result = np.where(np.isnan(b), b, result)
    return _quieted(np.where(np.isnan(a), a, result))


@dataclass(frozen=True)
class _Extremum(_Direct):
    """IEEE maximum or minimum: numpy's `op`, which propagates NaNs, and where a == b `pick` of
    the two bit patterns (equal non-NaN values have one pattern, but for -0 == +0: & gives -0
    only if both are, | if either is); NaN lanes fixed by _nan_first when there is one."""

    op: np.ufunc
    pick: np.ufunc

    def _op(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """op(a, b) in a's dtype; half through f32, which is exact: widening is, op picks one of
        its (non-NaN) operands and narrowing that back is (NaN lanes are fixed afterwards)."""
        if a.dtype == F32:
            return self.op(a, b)
        return self.op(widened(a), widened(b)).astype(a.dtype)

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype.kind in "iu":
            return self.op(a, b)
        view = _BITS[a.dtype][0]
        picked = self.pick(a.view(view), b.view(view)).view(a.dtype)
        result = np.where(a == b, picked, self._op(a, b))
        return _nan_first(a, b, result) if np.isnan(result).any() else result

    def into(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
        """Written in several passes that read a and b after out is written: into an `out` an
        operand overlaps (in place) through a scratch of out's shape, then one copy."""
        if not _same_shape(a, b, out):
            return False
        if a.dtype.kind in "iu":
            self.op(a, b, out=out)
            return True
        if overlaps(out, a) or overlaps(out, b):
            scratch = np.empty_like(out)
            self._into(a, b, scratch)
            out[...] = scratch
        else:
            self._into(a, b, out)
        return True

    def _into(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        view = _BITS[a.dtype][0]
        if a.dtype == F32:
            self.op(a, b, out=out)
            equal, nan = a == b, np.isnan(out).any()
        else:
            # Exact, as in _op; a == b and "any NaN" asked of the f32 values, which have the
            # same answers (widening is exact and keeps NaNs) and numpy's f32 loops are faster.
            wide_a, wide_b = widened(a), widened(b)
            wide = self.op(wide_a, wide_b)
            out[...] = wide
            equal, nan = wide_a == wide_b, np.isnan(wide).any()
        self.pick(a.view(view), b.view(view), out=out.view(view), where=equal)
        if nan:
            out[...] = _nan_first(a, b, out)


_MAXIMUM: Final = _Extremum(np.maximum, np.bitwise_and)
_MINIMUM: Final = _Extremum(np.minimum, np.bitwise_or)


def ieee_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 maximum: NaN if either is NaN, else the larger; maximum(-0, +0) = +0."""
    return _MAXIMUM(a, b)


def ieee_minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 minimum: NaN if either is NaN, else the smaller; minimum(-0, +0) = -0."""
    return _MINIMUM(a, b)


_ROUNDED: Final = {"add": _Rounded(np.add), "sub": _Rounded(np.subtract),
                   "mul": _Rounded(np.multiply), "div": _Rounded(np.divide)}

LANE_OPS: Final[dict[str, Compute]] = {
    **_ROUNDED, "max": _MAXIMUM, "min": _MINIMUM,
}
"""Each two-operand lane operation by name, over numpy arrays of half or float (bfloat16 for
add, sub, mul, max, min): what the level-2 Add, Sub, Mul, Div, Max and Min compute per element,
for the calls that combine lanes in another arrangement (the level-0 forms, the reductions:
hswc.interpreter.ascendc_reduce, ascendc_repeat). `a` is the first operand."""


def _abs(a: np.ndarray, _: np.ndarray) -> np.ndarray:
    view, magnitude, _quiet = _BITS[a.dtype]
    return (a.view(view) & view(magnitude)).view(a.dtype)


def _relu(a: np.ndarray, zero: np.ndarray) -> np.ndarray:
    return ieee_maximum(a, zero)  # `zero` is the scalar +0 in a's dtype


def _not(a: np.ndarray, _: np.ndarray) -> np.ndarray:
    return np.invert(a)


# endregion
# region tensor-tensor calls


def add(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Add(dst, src0, src1, count): dst[i] = src0[i] + src1[i], rounded once."""
    _apply("Add", bf16_in_float_dtype, _ROUNDED["add"], dst, count, {"src0": src0, "src1": src1})


def sub(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Sub(dst, src0, src1, count): dst[i] = src0[i] - src1[i], rounded once."""
    _apply("Sub", bf16_in_float_dtype, _Rounded(np.subtract), dst, count,
           {"src0": src0, "src1": src1})


def mul(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Mul(dst, src0, src1, count): dst[i] = src0[i] * src1[i], rounded once."""
    _apply("Mul", bf16_in_float_dtype, _Rounded(np.multiply), dst, count,
           {"src0": src0, "src1": src1})


def div(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Div(dst, src0, src1, count): dst[i] = src0[i] / src1[i], correctly rounded."""
    _apply("Div", arith_dtype, _Rounded(np.divide), dst, count, {"src0": src0, "src1": src1})


def max_(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Max(dst, src0, src1, count): dst[i] = maximum(src0[i], src1[i]) (IEEE 754-2019)."""
    _apply("Max", extremum_dtype, _MAXIMUM, dst, count, {"src0": src0, "src1": src1})


def min_(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Min(dst, src0, src1, count): dst[i] = minimum(src0[i], src1[i]) (IEEE 754-2019)."""
    _apply("Min", extremum_dtype, _MINIMUM, dst, count, {"src0": src0, "src1": src1})


def and_(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """And(dst, src0, src1, count): dst[i] = src0[i] & src1[i] on 16-bit lanes."""
    _apply("And", bitwise_dtype, np.bitwise_and, dst, count, {"src0": src0, "src1": src1})


def or_(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Or(dst, src0, src1, count): dst[i] = src0[i] | src1[i] on 16-bit lanes."""
    _apply("Or", bitwise_dtype, np.bitwise_or, dst, count, {"src0": src0, "src1": src1})


# endregion
# region tensor-scalar and unary calls


def adds(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """Adds(dst, src, scalar, count): dst[i] = src[i] + scalar, scalar of the tensor's dtype."""
    _apply("Adds", bf16_in_float_dtype, _Rounded(np.add), dst, count, {"src": src}, scalar)


def muls(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """Muls(dst, src, scalar, count): dst[i] = src[i] * scalar, scalar of the tensor's dtype."""
    _apply("Muls", bf16_in_float_dtype, _Rounded(np.multiply), dst, count, {"src": src}, scalar)


def maxs(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """Maxs(dst, src, scalar, count): dst[i] = maximum(src[i], scalar)."""
    _apply("Maxs", extremum_dtype, _MAXIMUM, dst, count, {"src": src}, scalar)


def mins(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """Mins(dst, src, scalar, count): dst[i] = minimum(src[i], scalar)."""
    _apply("Mins", extremum_dtype, _MINIMUM, dst, count, {"src": src}, scalar)


def abs_(dst: np.ndarray, src: np.ndarray, count: int) -> None:
    """Abs(dst, src, count): dst[i] = src[i] with the sign bit cleared."""
    _apply("Abs", arith_dtype, _abs, dst, count, {"src": src})


def _math(api: str, kind: str) -> Callable[[np.ndarray, np.ndarray, int], None]:
    """A math instruction over count elements: hswc.math_semantics' model of it, in T."""
    from hswc import math_semantics

    model = math_semantics.MODELS[kind]

    def call(dst: np.ndarray, src: np.ndarray, count: int) -> None:
        _apply(api, arith_dtype, lambda a, _: model(a), dst, count, {"src": src})
    call.__doc__ = f"{api}(dst, src, count): hswc.math_semantics.{kind} of each element."
    return call


exp = _math("Exp", "exp")
ln = _math("Ln", "ln")
sqrt = _math("Sqrt", "sqrt")
rsqrt = _math("Rsqrt", "rsqrt")


def relu(dst: np.ndarray, src: np.ndarray, count: int) -> None:
    """Relu(dst, src, count): dst[i] = maximum(src[i], +0): Relu(-0) = +0, NaN stays NaN."""
    _apply("Relu", integer_or(arith_dtype), _relu, dst, count, {"src": src}, 0)


def not_(dst: np.ndarray, src: np.ndarray, count: int) -> None:
    """Not(dst, src, count): dst[i] = ~src[i] on 16-bit lanes."""
    _apply("Not", bitwise_dtype, _not, dst, count, {"src": src})


def duplicate(dst: np.ndarray, scalar: Scalar, count: int) -> None:
    """Duplicate(dst, scalar, count): the first count elements of dst become scalar."""
    check_operand("Duplicate", "dst", dst)
    dtype = dst.dtype if dst.dtype.kind in "iu" else float_dtype("Duplicate", dst)
    check_count("Duplicate", count, dst=dst)
    dst[..., :count] = scalar_operand(scalar, dtype)


# endregion
