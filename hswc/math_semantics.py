"""The one model of each AscendC vector math instruction: Exp, Ln, Sqrt, Rsqrt, over numpy arrays.

AscendC's Exp, Ln, Sqrt and Rsqrt on Atlas A2/A3 are hardware instructions whose results are not
published (asc-devkit documents them only as "dst = e^src", "dst = ln(src)", ...). hswc models each
as the exact function, evaluated in double by the algorithm below and rounded once (RNE) to T:
correctly rounded in T, assumed, except where the exact value lies within about 2^-50 (relatively)
of a rounding boundary of T. The algorithms use only IEEE double +, -, *, /, sqrt, rint, frexp and
ldexp (no libm transcendental, whose last bit differs between libraries), in a fixed order, so the
C++ CPU model (hswc/checker/ascendc_cpu/ascendc_cpu_vec_math.h), which performs the same double
operations in the same order (with no fused multiply-add), computes the same bits; the interpreter
runs these functions at every IR level, so every level and the CPU build agree to the bit.

Special values, the same for every T: a NaN input gives that NaN quieted (sign and payload
kept); an invalid operation (Ln or Sqrt or Rsqrt of a negative number, -inf included) gives the
positive quiet NaN. Exp(+inf) = +inf, Exp(-inf) = +0; Ln(+-0) = -inf, Ln(+inf) = +inf;
Sqrt(-0) = -0; Rsqrt(+0) = +inf, Rsqrt(-0) = -inf, Rsqrt(+inf) = +0.

T is float or half (the instructions take both; the A2/A3 vector unit has no bfloat16).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np

from hswc.arith_semantics import BF16, convert

F64: Final = np.dtype(np.float64)

LN2_HI: Final = float.fromhex("0x1.62e42feep-1")
"""ln 2 to 32 significant bits: k * LN2_HI is exact for |k| < 2^21."""
LN2_LO: Final = float.fromhex("0x1.a39ef35793c76p-33")
"""ln 2 - LN2_HI, rounded to double."""
INV_LN2: Final = float.fromhex("0x1.71547652b82fep+0")
"""1 / ln 2, rounded to double."""
SQRT_HALF: Final = float.fromhex("0x1.6a09e667f3bcdp-1")
EXP_CLAMP: Final = 200.0
"""|x| beyond which exp(x) is outside every T's range whatever the polynomial (exp(200) > 2^288)."""

EXP_TAYLOR: Final = tuple(1.0 / float(np.prod(np.arange(1, n + 1, dtype=np.float64)))
                          for n in range(13, -1, -1))
"""1/n! for n = 13 down to 0 (each n! is exact in double, the quotient correctly rounded):
Horner's coefficients for exp(r), |r| <= ln(2)/2, truncation error below 2^-60."""
LOG_SERIES: Final = tuple(1.0 / (2 * n + 1) for n in range(12, -1, -1))
"""1/(2n+1) for n = 12 down to 0: log(m) = 2s * sum z^n / (2n+1), s = (m-1)/(m+1), z = s^2 <=
0.0295 for m in [sqrt(1/2), sqrt(2)), truncation error below 2^-64."""


def _horner(coefficients: tuple[float, ...], z: np.ndarray) -> np.ndarray:
    p = np.full_like(z, coefficients[0])
    for c in coefficients[1:]:
        p = p * z
        p = p + c
    return p


def exp_double(x: np.ndarray) -> np.ndarray:
    """e^x in double: x = k ln2 + r (Cody and Waite), exp(r) by its Taylor polynomial, times 2^k."""
    x = np.clip(x, -EXP_CLAMP, EXP_CLAMP)
    k = np.rint(x * INV_LN2)
    r = x - k * LN2_HI
    r = r - k * LN2_LO
    p = _horner(EXP_TAYLOR, r)
    return np.ldexp(p, np.nan_to_num(k).astype(np.int64))


def ln_double(x: np.ndarray) -> np.ndarray:
    """ln x in double for finite x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), then
    e ln2 + 2 atanh((m-1)/(m+1)) by its series."""
    m, e = np.frexp(x)
    low = m < SQRT_HALF
    m = np.where(low, m + m, m)
    ef = (e - low).astype(F64)
    s = (m - 1.0) / (m + 1.0)
    q = _horner(LOG_SERIES, s * s)
    t = s * q
    log_m = t + t
    lo = ef * LN2_LO
    lo = lo + log_m
    hi = ef * LN2_HI
    return hi + lo


def _quiet_nan(dtype: np.dtype) -> np.ndarray:
    return np.asarray(np.nan, dtype=dtype)


_QUIET: Final = {np.dtype(np.float16): (np.uint16, 0x0200), BF16: (np.uint16, 0x0040),
                  np.dtype(np.float32): (np.uint32, 0x00400000)}
"""(bit view, quiet bit) of each float dtype."""


def _quieted(x: np.ndarray) -> np.ndarray:
    view, quiet = _QUIET[x.dtype]
    return (x.view(view) | view(quiet)).view(x.dtype)


def abs_(x: np.ndarray) -> np.ndarray:
    """AscendC::Abs (and math.absf): the sign bit cleared, a NaN's payload kept."""
    view, _ = _QUIET[x.dtype]
    magnitude = (1 << (8 * x.dtype.itemsize - 1)) - 1
    return (np.asarray(x).view(view) & view(magnitude)).view(x.dtype)


Model = Callable[[np.ndarray], np.ndarray]


def _model(core: Model, invalid: Model | None = None) -> Model:
    """x (float16, float32; bfloat16 for the interpreter's bodies, which the vector unit lacks)
    -> core(x as double) rounded once to x's dtype; NaN inputs kept (quieted), `invalid(x)`
    lanes the positive quiet NaN."""
    def model(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x)
        if x.dtype not in _QUIET:
            raise TypeError(f"no vector math model for {x.dtype}")
        with np.errstate(all="ignore"):
            result = convert(core(x.astype(F64)), x.dtype)
            if invalid is not None:
                result = np.where(invalid(x), _quiet_nan(x.dtype), result)
            nan = np.isnan(x)
            if nan.any():
                result = np.where(nan, _quieted(x), result)
        return np.asarray(result, dtype=x.dtype)
    return model


def _ln_core(x: np.ndarray) -> np.ndarray:
    finite = np.isfinite(x) & (x > 0)
    safe = np.where(finite, x, 1.0)
    return np.where(finite, ln_double(safe), np.where(x == 0, -np.inf, x))


def _rsqrt_core(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


exp: Final = _model(exp_double)
"""AscendC::Exp: e^x rounded once to T (model: correctly rounded, assumed)."""
ln: Final = _model(_ln_core, lambda x: x < 0)
"""AscendC::Ln: ln x rounded once to T (model: correctly rounded, assumed)."""
sqrt: Final = _model(np.sqrt, lambda x: x < 0)
"""AscendC::Sqrt: the square root rounded once to T (correctly rounded: the double square root
is, and rounding it to T again is innocuous, 53 >= 2 * 24 + 2)."""
rsqrt: Final = _model(_rsqrt_core, lambda x: x < 0)
"""AscendC::Rsqrt: 1 / sqrt(x) rounded once to T (model: correctly rounded, assumed)."""

MODELS: Final[dict[str, Model]] = {
    "exp": exp, "ln": ln, "sqrt": sqrt, "rsqrt": rsqrt, "abs": abs_,
}
"""Node kind (hswc.vectorizer.dag) -> its instruction's model."""
