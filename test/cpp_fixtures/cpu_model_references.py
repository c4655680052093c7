"""Independent references for the AscendC CPU model's vector API (numpy, exact rationals).

Written from the semantics hswc/checker/ascendc_cpu/README.md states, not from the model's code:
IEEE 754-2019 maximum/minimum, correctly rounded division by exact rational arithmetic, the
rounding modes of Cast to integers with saturation, and the per-element formula of
elementwise_fixture.cpp. Used by check_ascendc_cpu.py and test/test_ascendc_cpu_model.py.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

# (stored mantissa bits, exponent bits) of the binary formats
FORMAT_BITS = {np.dtype(np.float16): (10, 5), np.dtype(np.float32): (23, 8)}


def ieee_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 maximum: NaN if either is NaN, else the larger with -0 < +0."""
    with np.errstate(invalid="ignore"):
        r = np.where(a > b, a, b)
        r = np.where((a == b) & np.signbit(b), a, r)  # equal: prefer the operand without the sign
        r = np.where(np.isnan(a) | np.isnan(b), np.array(np.nan, a.dtype), r)
    return r.astype(a.dtype)


def ieee_minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 minimum: NaN if either is NaN, else the smaller with -0 < +0."""
    with np.errstate(invalid="ignore"):
        r = np.where(a < b, a, b)
        r = np.where((a == b) & np.signbit(a), a, r)
        r = np.where(np.isnan(a) | np.isnan(b), np.array(np.nan, a.dtype), r)
    return r.astype(a.dtype)


def round_rational(q: Fraction, dtype: np.dtype) -> float:
    """The value of `dtype` nearest to q (ties to even), overflowing to +-inf, subnormals kept."""
    mant, expbits = FORMAT_BITS[np.dtype(dtype)]
    bias = (1 << (expbits - 1)) - 1
    if q == 0:
        return 0.0
    neg = q < 0
    mag = -q if neg else q
    e = mag.numerator.bit_length() - mag.denominator.bit_length()  # floor(log2 mag) or one more
    if Fraction(2) ** e > mag:
        e -= 1
    e = max(e, 1 - bias)
    quantum = Fraction(2) ** (e - mant)
    n, rem = divmod(mag, quantum)
    n = int(n)
    if rem > quantum / 2 or (rem == quantum / 2 and n % 2 == 1):
        n += 1
    value = n * quantum
    largest = (2 - Fraction(2) ** -mant) * Fraction(2) ** bias
    result = float("inf") if value > largest else float(value)
    return -result if neg else result


def exact_quotients(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b correctly rounded in a's dtype for finite operands with b != 0 (others: NaN)."""
    out = np.full(a.shape, np.nan, dtype=np.float64)
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        if np.isfinite(x) and np.isfinite(y) and y != 0:
            r = round_rational(Fraction(x) / Fraction(y), a.dtype)
            negative = bool(np.signbit(x)) != bool(np.signbit(y))
            out[i] = math.copysign(r, -1.0 if negative else 1.0) if r == 0 else r
    return out.astype(a.dtype)


def round_to_integer(x: np.ndarray, mode: str) -> np.ndarray:
    """x (float64, no NaN) rounded to an integral value by a Cast mode."""
    if mode == "RINT":
        return np.rint(x)
    if mode == "FLOOR":
        return np.floor(x)
    if mode == "CEIL":
        return np.ceil(x)
    if mode == "TRUNC":
        return np.trunc(x)
    if mode == "ROUND":
        return np.sign(x) * np.floor(np.abs(x) + 0.5)
    raise ValueError(mode)


def cast_to_int(x: np.ndarray, mode: str, int_dtype: type) -> np.ndarray:
    """Cast float -> integer: round by `mode`, then saturate to the type's range."""
    info = np.iinfo(int_dtype)
    r = round_to_integer(x.astype(np.float64), mode)
    return np.clip(r, info.min, info.max).astype(int_dtype)


def int32_to_f32(v: np.ndarray, mode: str) -> np.ndarray:
    """Cast int32 -> float with a rounding mode, from the two float neighbours of each value."""
    out = np.empty(v.shape, dtype=np.float32)
    for i, n in enumerate(v.tolist()):
        mag = abs(n)
        if mag < 1 << 24:
            out[i] = n
            continue
        shift = mag.bit_length() - 24
        lo, hi = (mag >> shift) << shift, ((mag >> shift) + 1) << shift
        if lo == mag:
            out[i] = n
            continue
        toward_zero, away = (lo, hi)
        tie = 2 * mag == lo + hi
        nearer_hi = 2 * mag > lo + hi
        pick = {
            "TRUNC": toward_zero,
            "FLOOR": toward_zero if n > 0 else away,
            "CEIL": away if n > 0 else toward_zero,
            "ROUND": away if (nearer_hi or tie) else toward_zero,
            "RINT": away if nearer_hi or (tie and (lo >> shift) % 2 == 1) else toward_zero,
        }[mode]
        out[i] = pick if n > 0 else -pick
    return out


def elementwise_expected(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, lo: float, hi: float, scale: float
) -> tuple[np.ndarray, np.ndarray]:
    """(clamped, scaled) of elementwise_fixture.cpp, from its header comment."""
    f32 = np.float32
    with np.errstate(all="ignore"):
        af, bf, cf = (v.astype(f32) for v in (a, b, c))
        q = ieee_minimum(
            ieee_maximum((af / bf).astype(f32), np.full_like(af, lo)), np.full_like(af, hi)
        )
        q = np.where(bf != 0, q, f32(0)).astype(f32)
        if a.dtype == np.float16:
            clamped = round_half_away_to_f16(q)
        else:
            clamped = q
        mask = ~((af <= 0) & (cf >= 0)) | (bf == 0)
        relu = ieee_maximum(af, np.zeros_like(af))
        sel = np.where(mask, np.abs(cf), relu).astype(f32)
        scaled = cast_to_int((sel * f32(scale)).astype(f32), "ROUND", np.int32)
    return clamped, scaled


def round_half_away_to_f16(x: np.ndarray) -> np.ndarray:
    """float32 -> float16 rounding to nearest, ties away from zero (Cast CAST_ROUND)."""
    rne = x.astype(np.float16)
    up = np.nextafter(rne, np.array(np.inf, np.float16))
    down = np.nextafter(rne, np.array(-np.inf, np.float16))
    out = rne.copy()
    for nb in (up, down):
        with np.errstate(all="ignore"):
            tie = (
                np.isfinite(nb)
                & np.isfinite(rne)
                & (np.abs(nb.astype(np.float64) - x) == np.abs(rne.astype(np.float64) - x))
                & (nb != rne)
            )
            away = np.abs(nb.astype(np.float64)) > np.abs(rne.astype(np.float64))
        out = np.where(tie & away, nb, out)
    return out
