"""tanh and expm1 in fewer vector calls, for an op whose result is rounded once to f16 or bf16.

An exponential op on f16 or bf16 widens its input, computes in f32 and rounds the result once
(hswc.ops.exponential). Rounding to half keeps 11 (f16) or 8 (bf16) significant bits, so the
f32 steps before it need a relative error of about 2^-12 to 2^-14, not the 2^-23 of
`math.tanh`, `math.expm1` and `math.log1p` (hswc.math_decompositions: Kahan's expm1 is Exp, Ln
and a Div with three special cases). The forms below are within 2^-12 of the function (the
bounds argued at the end), so the rounded result is the correctly rounded one but where the
function lies that close to a half-way point, where it is one ulp off:
test/test_exponential_half.py checks every f16 and bf16 pattern within an ulp of the function
in double (and fewer than 3% of them off), and docs/accuracy.md has the measured figures. They
take f32 values and give f32 values: the caller rounds.

- tanh x = (1 - E) / (1 + E), E = exp(-2 max(x, -9)); x itself where |x| < 2^-12;
- expm1 y = e^y - 1 for |y| >= 2^-11, y itself below;
- log1p z = ln(1 + z) for z >= 2^-12, z itself below, for z >= 0 only (softplus's and
  log_sigmoid's exp of something: no Abs).

Why these bounds: `1 - E` and `e^y - 1` are exact subtractions (Sterbenz) of a value rounded
once, so their absolute error is at most 2^-24 (E or e^y near 1), against a result of at least
2^-11 (tanh, expm1) above the small-argument thresholds: 2^-13; `1 + z` rounded is off by at
most 2^-24 (1 + z), which moves ln by at most 2^-24 against ln(1 + z) >= 2^-12.01: 2^-12; below
the thresholds the dropped terms are under 2^-25 of the result for tanh (x^2 / 3) and 2^-12
for expm1 and log1p (y / 2, z / 2). Measured, of every f16 pattern:
elu 0.24%, softplus and log_sigmoid 0.08% one ulp off (0.10% and 0.02% with the degree-2
series of before, which took a Muls, an Adds and a Mul more).
"""

from __future__ import annotations

from typing import Final

from xdsl.dialects.builtin import BFloat16Type, Float16Type
from xdsl.ir import SSAValue

from hswc.ops.body import BodyBuilder

TANH_SMALL: Final = 2.0 ** -12
"""Below this |x|, tanh x rounds to x in f16 and bf16 (x^2 / 3 < 2^-25)."""
TANH_LOW_CAP: Final = -9.0
"""tanh takes max(x, -9): E = exp(18) stays finite, and tanh(-9) is -1 in f32 and below."""
EXPM1_SMALL: Final = 2.0 ** -11
"""Below this |y|, expm1 y is y (relative error y / 2 < 2^-12; module docstring)."""
LOG1P_SMALL: Final = 2.0 ** -12
"""Below this z, log1p z is z (relative error z / 2 < 2^-13; module docstring)."""


def rounds_to_half(value: SSAValue) -> bool:
    """Whether an op's input (and so its result) is f16 or bf16."""
    return isinstance(value.type, Float16Type | BFloat16Type)


def tanh(b: BodyBuilder, x: SSAValue) -> SSAValue:
    """tanh of the f32 x (module docstring): -1 at -inf, 1 at +inf (E is 0), NaN at NaN."""
    one = b.const(1.0, "one")
    e = b.math("exp", b.mulf(b.maximumf(x, b.const(TANH_LOW_CAP, "tanh_cap"), "x_capped"),
                             b.const(-2.0, "minus_two"), "minus_2x"), "exp_minus_2x")
    ratio = b.divf(b.subf(one, e, "one_minus_e"), b.addf(one, e, "one_plus_e"), "tanh_ratio")
    small = b.cmpf("olt", b.math("absf", x, "abs_x"), b.const(TANH_SMALL, "tanh_small"),
                   "tanh_is_small")
    return b.select(small, x, ratio, "tanh")


def expm1(b: BodyBuilder, y: SSAValue) -> SSAValue:
    """e^y - 1 of the f32 y (module docstring): -1 at -inf, +inf at +inf, NaN at NaN."""
    one = b.const(1.0, "one")
    large = b.subf(b.math("exp", y, "exp_y"), one, "exp_minus_one")
    series = y
    small = b.cmpf("olt", b.math("absf", y, "abs_y"), b.const(EXPM1_SMALL, "expm1_small"),
                   "expm1_is_small")
    return b.select(small, series, large, "expm1")


def log1p_of_nonnegative(b: BodyBuilder, z: SSAValue) -> SSAValue:
    """ln(1 + z) of the f32 z >= 0 (module docstring): +inf at +inf, NaN at NaN."""
    one = b.const(1.0, "one")
    large = b.math("log", b.addf(one, z, "one_plus_z"), "ln_one_plus_z")
    series = z
    small = b.cmpf("olt", z, b.const(LOG1P_SMALL, "log1p_small"), "log1p_is_small")
    return b.select(small, series, large, "log1p")
