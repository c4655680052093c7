"""Numerical semantics of the AscendC vector and copy APIs (SPEC.md section 6), over numpy.

Each function models one AscendC call: it checks the rule the hardware enforces (raising
`ApiError` with the call, the operand and the numbers involved) and writes its result into
the caller's `dst` view in place, as the hardware writes into the unified buffer. The
interpreter passes LocalTensors as typed views of a core's uint8 UB arena and GM as 1-D arrays.

Every tensor operand is either 1-D `(n,)` or batched `(B, n)`: B cores executing the same
instruction in lock-step. `count` applies to the last axis; elements past it are untouched.
Nothing loops over elements in Python.

This module is the public face; the calls live in ascendc_arith.py (Add, Sub, Mul, Div, Max,
Min, Adds, Muls, Maxs, Mins, Abs, Relu, Exp, Ln, Sqrt, Rsqrt, And, Or, Not, Duplicate),
ascendc_vector.py (Compare, CompareScalar, Select), ascendc_cast.py (Cast and the exact
rounding every f16 / bf16 result goes through) and ascendc_copy.py (DataCopy, DataCopyPad),
the shared checks in ascendc_checks.py.

Interpretation decisions (where SPEC.md leaves room):
- Max, Min, Maxs, Mins and Relu are IEEE 754-2019 maximum / minimum: NaN if either operand is
  NaN, else the larger (smaller) value with -0 ordered below +0 (Max(-0, +0) = +0, Min(-0, +0)
  = -0, Relu(-0) = +0). No public document states this of the hardware: it is an assumption.
  The NaN returned is the NaN operand's (src0's when both are), with its quiet bit set.
- Add, Sub, Mul, Div, Adds, Muls: one IEEE round-to-nearest-even rounding in T, subnormals
  kept (no flush to zero). The vector unit of A2/A3 has no bfloat16 arithmetic: these calls,
  Max, Min, Abs and Relu refuse bf16 (Duplicate takes it). NaN payloads are not documented for
  the hardware; here a NaN operand comes out quieted, src0's when both are NaN (IEEE's
  recommendation; the host's + leaves the choice to its compiler, so ascendc_arith and the CPU
  model's ArithNan pick it explicitly: in a reduction, the order of hswc.reduce_semantics then
  decides which NaN a row's sum ends in), and an invalid operation (inf - inf, 0 * inf, 0 / 0)
  with no NaN operand gives the host's default NaN (x86: the negative quiet NaN).
- Abs clears the sign bit and leaves a NaN's payload alone; And, Or, Not act on the 16-bit
  patterns (uint16 or int16 lanes; masks are combined as their uint16 view).
- Compare: NaN makes LT/GT/GE/EQ/LE false and NE true (IEEE: NE is the negation of EQ).
- Cast f32 -> bf16 rejects ODD as well as NONE: the AscendC documentation lists ODD for
  f32 -> f16 only. Directed modes overflow like IEEE: a mode rounding away from zero (RINT,
  ROUND, CEIL above zero, FLOOR below zero) gives +-inf, the others the largest finite value.
  ODD is round-to-odd ("von Neumann" jamming): an inexact result gets an odd last bit, so it
  never overflows to inf and tiny values become the smallest subnormal.
- DataCopyPad GM -> UB with `is_pad=False` fills the tail of the last 32-byte block with the
  first element of that block (SPEC.md: "the pad is the first element of the block").
- Several cores writing the same GM bytes in one batched call: the highest core index wins.
"""

from __future__ import annotations

from hswc.interpreter.ascendc_arith import (
    abs_,
    add,
    adds,
    and_,
    div,
    duplicate,
    exp,
    ln,
    max_,
    maxs,
    min_,
    mins,
    mul,
    muls,
    not_,
    or_,
    relu,
    rsqrt,
    sqrt,
    sub,
)
from hswc.interpreter.ascendc_cast import ROUND_MODES, cast
from hswc.interpreter.ascendc_checks import ApiError, Offset, Scalar
from hswc.interpreter.ascendc_copy import (
    data_copy_gm_to_ub,
    data_copy_pad_gm_to_ub,
    data_copy_pad_ub_to_gm,
    data_copy_ub_to_gm,
    data_copy_ub_to_ub,
)
from hswc.interpreter.ascendc_shift import shift_left, shift_right
from hswc.interpreter.ascendc_vector import (
    SELECT_MODES,
    compare,
    compare_scalar,
    select,
)

__all__ = [
    "ROUND_MODES",
    "SELECT_MODES",
    "ApiError",
    "Offset",
    "Scalar",
    "abs_",
    "add",
    "adds",
    "and_",
    "cast",
    "compare",
    "compare_scalar",
    "data_copy_gm_to_ub",
    "data_copy_pad_gm_to_ub",
    "data_copy_pad_ub_to_gm",
    "data_copy_ub_to_gm",
    "data_copy_ub_to_ub",
    "div",
    "duplicate",
    "exp",
    "ln",
    "max_",
    "maxs",
    "min_",
    "mins",
    "mul",
    "muls",
    "not_",
    "or_",
    "relu",
    "rsqrt",
    "select",
    "shift_left",
    "shift_right",
    "sqrt",
    "sub",
]
