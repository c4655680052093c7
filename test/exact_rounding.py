"""Exact rounding of rationals to binary formats, for tests that need expectations computed
without floating point (nor hswc): `exact_round(Fraction, dtype)`."""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np

FORMAT = {np.dtype(np.float16): (11, -14, 15), np.dtype(np.float32): (24, -126, 127),
          np.dtype(ml_dtypes.bfloat16): (8, -126, 127)}
"""dtype -> (precision with the hidden bit, emin, emax)."""


def exact_round(q: Fraction, dtype: np.dtype) -> float:
    """q rounded to nearest, ties to even, in the format of dtype (inf beyond its range)."""
    precision, emin, emax = FORMAT[np.dtype(dtype)]
    if q == 0:
        return 0.0
    sign, q = (-1.0 if q < 0 else 1.0), abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()  # ~log2(q): the loops settle it
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    quantum = Fraction(2) ** (max(e, emin) - precision + 1)  # subnormals share emin's quantum
    n, rest = divmod(q, quantum)
    if rest > quantum / 2 or (rest == quantum / 2 and n % 2 == 1):
        n += 1
    value = n * quantum
    if value >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * float(value)  # exact: every f16/f32 value is a double
