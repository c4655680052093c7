"""Numerical semantics of the AscendC vector and copy APIs (SPEC.md section 6), over numpy.

Each function models one AscendC call: it checks the rule the hardware enforces (raising
`ApiError` with the call, the operand and the numbers involved) and writes its result into
the caller's `dst` view in place, as the hardware writes into the unified buffer. The
interpreter passes LocalTensors as typed views of a core's uint8 UB arena and GM as 1-D arrays.

Every tensor operand is either 1-D `(n,)` or batched `(B, n)`: B cores executing the same
instruction in lock-step. `count` applies to the last axis; elements past it are untouched.
Nothing loops over elements in Python.

This module is the public face; the calls live in ascendc_vector.py (Compare, Select, Muls,
Adds, Mul, Duplicate), ascendc_cast.py (Cast and the exact rounding every f16/bf16 result goes
through) and ascendc_copy.py (DataCopy, DataCopyPad), the shared checks in ascendc_checks.py.

Interpretation decisions (where SPEC.md leaves room):
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

from hswc.interpreter.ascendc_cast import ROUND_MODES, cast
from hswc.interpreter.ascendc_checks import ApiError, Offset, Scalar
from hswc.interpreter.ascendc_copy import (
    data_copy_gm_to_ub,
    data_copy_pad_gm_to_ub,
    data_copy_pad_ub_to_gm,
    data_copy_ub_to_gm,
)
from hswc.interpreter.ascendc_vector import (
    SELECT_MODES,
    adds,
    compare,
    compare_scalar,
    duplicate,
    mul,
    muls,
    select,
)

__all__ = [
    "ROUND_MODES",
    "SELECT_MODES",
    "ApiError",
    "Offset",
    "Scalar",
    "adds",
    "cast",
    "compare",
    "compare_scalar",
    "data_copy_gm_to_ub",
    "data_copy_pad_gm_to_ub",
    "data_copy_pad_ub_to_gm",
    "data_copy_ub_to_gm",
    "duplicate",
    "mul",
    "muls",
    "select",
]
