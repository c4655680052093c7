"""Prints the coefficients of hswc's erf decomposition (hswc/math_decompositions.py, ERFC_FIT)
and of GELU's tail (hswc/ops/exponential.py, GELU_TAIL_FIT).

For 1 <= |x| < 4.5 hswc computes erf(|x|) = 1 - exp(-x^2) * g(t), t = 1 / (1 + |x| / 2), where
g is a degree-9 polynomial fitted by least squares (relative error) to erfc(a) * exp(a^2) at
4000 points of [1, 4.5] (mpmath's erfc, 50 digits), its coefficients rounded to f32. Run:
`python tools/fit_erf_coefficients.py`; the output is the tuples to paste.

GELU (approximate = none) needs h(x) = erfc(|x| / sqrt 2) / 2 for every x, not erf on two
ranges: gelu(x) = x (1 - h) for x >= 0, x h below. hswc computes h = exp(-x^2 / 2) G(t),
t = 1 / (1 + |x| / 4), G a degree-9 polynomial fitted the same way to h(x) exp(x^2 / 2) at 6,500
points of [0, 14.5] (beyond, exp(-x^2 / 2) is 0 in f32): its relative error, coefficients
rounded to f32, is below 7e-8 (printed).

For a GELU rounded to f16 or bf16, G has degree 4 on t = 3.5 / (3.5 + |x|)
(GELU_TAIL_FIT_HALF), at 4,000 points of [0, 14.5] and 600 spread geometrically over [1e-6, 1],
fitted to the smallest largest weighted relative error by Lawson's
iteration (least squares reweighted by each point's error, 600 rounds; the best rounded-to-f32
coefficients kept). The weight asks (0.02 + |x|) / 1.02 of the error near 0 (`NEAR_ZERO`): half
patterns crowd there (a binade of 1,024 f16 patterns for each power of two), and gelu(x) = x / 2
+ x^2 / sqrt(2 pi) + ... lies next to a half-way point wherever x / 2 does, so a fit exact to
2^-12 everywhere but loose near 0 rounds more of them the wrong way.

GELU's derivative (hswc/ops/exponential_grad.py) is gelu'(-a) = exp(-a^2 / 2) (a - a0) N(t) for
a = |x|, t = c / (c + a), a0 its zero (GELU_GRAD_ROOT, found here), and 1 - gelu'(-a) for
x = a >= 0: N = (h(a) exp(a^2 / 2) - a / sqrt(2 pi)) / (a - a0) is fitted the same way at 7,000
points of [0, 14.5] (1,000 of them in [0, 2], around a0): degree 7 on c = 4 (GELU_GRAD_FIT,
below 4.8e-8, unweighted), degree 4 on c = 4 for f16 (GELU_GRAD_FIT_F16) and degree 3 on c = 3
for bf16, which keeps 8 bits (GELU_GRAD_FIT_BF16), both weighted as GELU's. hswc evaluates
the half fits on a rescaled t (hswc.ops.exponential.fitted) from the coefficients printed here.

A GELU rounded to f16 is x / (1 + exp(x r(y))), y = min(x^2, GELU_LOGIT_CAP): -x r(x^2) is
logit(Phi(x)) = ln(Phi(x) / Phi(-x)), an odd function, so r is even, and r(y) a degree-5
polynomial (GELU_LOGIT_FIT_F16) fitted by the same Lawson iteration at 3,000 points of [0, 5.75]
(beyond, every f16 result is x or rounds to -0) to the error that matters: for x < 0 the
relative error of the result is |x| times r's absolute error, asked to stay below 2^-12 of the
result, or 2^-25 where the result is an f16 subnormal (printed: the largest share of that).
"""

from __future__ import annotations

import mpmath
import numpy as np

DEGREE = 9


def main() -> None:
    mpmath.mp.dps = 50
    a = np.linspace(1.0, 4.5, 4000)
    t = 1.0 / (1.0 + 0.5 * a)
    g = np.array([float(mpmath.erfc(v) * mpmath.exp(v * v)) for v in a])
    vander = np.vander(t, DEGREE + 1) / g[:, None]
    coefficients, *_ = np.linalg.lstsq(vander, np.ones_like(g), rcond=None)
    print("ERFC_FIT = (" + ", ".join(repr(float(np.float32(c))) for c in coefficients) + ")")
    gelu_tail()


GELU_TAIL_SCALE = 0.25
"""t = 1 / (1 + |x| GELU_TAIL_SCALE) (hswc.ops.exponential.GELU_TAIL_SCALE)."""


def gelu_tail() -> None:
    """GELU_TAIL_FIT (module docstring), and its largest relative error over the fit's points."""
    x = np.concatenate([np.linspace(0.0, 14.5, 6000), np.linspace(0.0, 1.0, 500)])
    t = 1.0 / (1.0 + GELU_TAIL_SCALE * x)
    g = np.array([float(mpmath.erfc(v / mpmath.sqrt(2)) * mpmath.exp(v * v / 2) / 2) for v in x])
    vander = np.vander(t, DEGREE + 1) / g[:, None]
    coefficients, *_ = np.linalg.lstsq(vander, np.ones_like(g), rcond=None)
    rounded = coefficients.astype(np.float32)
    error = np.abs(np.polyval(rounded.astype(np.float64), t) / g - 1).max()
    print("GELU_TAIL_FIT = (" + ", ".join(repr(float(c)) for c in rounded) + ")")
    print(f"# largest relative error of G: {error:.3g}")
    gelu_tail_half()


HALF_DEGREE = 4
HALF_OFFSET = 3.5
"""t = 3.5 / (3.5 + |x|) (hswc.ops.exponential.GELU_TAIL_HALF_OFFSET)."""
NEAR_ZERO = 0.02
"""The half fits' weight: a point at |x| is allowed min(1, (NEAR_ZERO + |x|) / (1 + NEAR_ZERO))
of the largest error (module docstring)."""


def near_zero_weight(x: np.ndarray) -> np.ndarray:
    return np.minimum(1.0, (x + NEAR_ZERO) / (1.0 + NEAR_ZERO))


def gelu_tail_half() -> None:
    """GELU_TAIL_FIT_HALF (module docstring), and its largest relative error."""
    x = np.concatenate([np.linspace(0.0, 14.5, 4000), np.geomspace(1e-6, 1.0, 600)])
    g = np.array([float(mpmath.erfc(v / mpmath.sqrt(2)) * mpmath.exp(v * v / 2) / 2) for v in x])
    lawson("GELU_TAIL_FIT_HALF", HALF_OFFSET / (HALF_OFFSET + x), g, HALF_DEGREE,
           near_zero_weight(x))
    gelu_grad()


def lawson(name: str, t: np.ndarray, f: np.ndarray, degree: int,
           allowed: np.ndarray | None = None) -> None:
    """Prints the polynomial in t of `degree` nearest f in largest relative error, each point's
    divided by its `allowed` share (1 where not given) (Lawson's iteration, coefficients rounded
    to f32), and its largest plain relative error."""
    allowed = np.ones_like(t) if allowed is None else allowed
    vander = np.vander(t, degree + 1) / (f * allowed)[:, None]
    target = 1.0 / allowed
    weights = np.full(t.size, 1.0 / t.size)
    best_error, best = np.inf, np.zeros(degree + 1, np.float32)
    for _ in range(600):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(vander * root[:, None], target * root, rcond=None)
        rounded = coefficients.astype(np.float32)
        relative = np.abs(np.polyval(rounded.astype(np.float64), t) / f - 1)
        error = (relative / allowed).max()
        if error < best_error:
            best_error, best = error, rounded
        weights = weights * np.abs(vander @ coefficients - target) + 1e-300
        weights /= weights.sum()
    plain = np.abs(np.polyval(best.astype(np.float64), t) / f - 1).max()
    print(f"{name} = (" + ", ".join(repr(float(c)) for c in best) + ")")
    print(f"# largest relative error: {plain:.3g}")


def gelu_grad() -> None:
    """GELU_GRAD_ROOT, GELU_GRAD_FIT, GELU_GRAD_FIT_F16 and _BF16 (module docstring)."""
    density = 1 / mpmath.sqrt(2 * mpmath.pi)

    def mirror(a: mpmath.mpf) -> mpmath.mpf:
        """gelu'(-a) exp(a^2 / 2)."""
        return mpmath.erfc(a / mpmath.sqrt(2)) / 2 * mpmath.exp(a * a / 2) - a * density

    root = mpmath.findroot(mirror, 0.75)
    print(f"GELU_GRAD_ROOT = {float(root)!r}")

    def n(a: float) -> float:
        if abs(a - root) < 1e-12:
            return float(mpmath.diff(mirror, root))
        return float(mirror(mpmath.mpf(a)) / (a - root))

    x = np.concatenate([np.linspace(0.0, 14.5, 6000), np.linspace(0.0, 2.0, 1000)])
    values = np.array([n(v) for v in x])
    lawson("GELU_GRAD_FIT", 4.0 / (4.0 + x), values, 7)
    lawson("GELU_GRAD_FIT_F16", 4.0 / (4.0 + x), values, 4, near_zero_weight(x))
    lawson("GELU_GRAD_FIT_BF16", 3.0 / (3.0 + x), values, 3, near_zero_weight(x))
    gelu_logit_f16()


LOGIT_DEGREE = 5
LOGIT_RANGE = 5.75
"""|x| beyond which every f16 GELU is x or rounds to -0 (x Phi(x) < 2^-25)."""


def gelu_logit_f16() -> None:
    """GELU_LOGIT_FIT_F16 (module docstring), and its largest share of the allowed error."""
    x = np.linspace(0.0, LOGIT_RANGE, 3000)
    r = np.array([-4 * float(mpmath.npdf(0))] + [
        float((mpmath.log(mpmath.ncdf(-v)) - mpmath.log(mpmath.ncdf(v))) / v) for v in x[1:]])
    tail = np.array([float(v * mpmath.ncdf(-v)) for v in x])
    allowed = np.maximum(2.0 ** -12, 2.0 ** -25 / np.maximum(tail, 1e-300)) / np.maximum(x, 1e-3)
    y = x * x
    vander = np.vander(y, LOGIT_DEGREE + 1) / allowed[:, None]
    target = r / allowed
    weights = np.full(x.size, 1.0 / x.size)
    best_error, best = np.inf, np.zeros(LOGIT_DEGREE + 1, np.float32)
    for _ in range(600):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(vander * root[:, None], target * root, rcond=None)
        rounded = coefficients.astype(np.float32)
        error = (np.abs(np.polyval(rounded.astype(np.float64), y) - r) / allowed).max()
        if error < best_error:
            best_error, best = error, rounded
        weights = weights * np.abs(vander @ coefficients - target) + 1e-300
        weights /= weights.sum()
    print("GELU_LOGIT_FIT_F16 = (" + ", ".join(repr(float(c)) for c in best) + ")")
    print(f"# largest share of the allowed error: {best_error:.3g}")


if __name__ == "__main__":
    main()
