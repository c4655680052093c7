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

For a GELU rounded to f16 or bf16, G has degree 5 on t = 4 / (4 + |x|) (GELU_TAIL_FIT_HALF),
fitted to the smallest largest relative error by Lawson's iteration (least squares reweighted
by each point's error, 300 rounds; the best rounded-to-f32 coefficients kept): below 2.7e-5.

GELU's derivative (hswc/ops/exponential_grad.py) is gelu'(-a) = exp(-a^2 / 2) (a - a0) N(t) for
a = |x|, t = 4 / (4 + a), a0 its zero (GELU_GRAD_ROOT, found here), and 1 - gelu'(-a) for
x = a >= 0: N = (h(a) exp(a^2 / 2) - a / sqrt(2 pi)) / (a - a0) is fitted the same way, degree 7
(GELU_GRAD_FIT, below 4.8e-8) and degree 5 (GELU_GRAD_FIT_HALF, below 6e-6), at 7,000 points of
[0, 14.5] (1,000 of them in [0, 2], around a0).
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
    gelu_tail_half(x, g)


HALF_DEGREE = 5
HALF_OFFSET = 4.0
"""t = 4 / (4 + |x|) (hswc.ops.exponential.GELU_TAIL_HALF_OFFSET)."""


def gelu_tail_half(x: np.ndarray, g: np.ndarray) -> None:
    """GELU_TAIL_FIT_HALF (module docstring), and its largest relative error."""
    lawson("GELU_TAIL_FIT_HALF", HALF_OFFSET / (HALF_OFFSET + x), g, HALF_DEGREE)
    gelu_grad()


def lawson(name: str, t: np.ndarray, f: np.ndarray, degree: int) -> None:
    """Prints the polynomial in t of `degree` nearest f in largest relative error (Lawson's
    iteration, coefficients rounded to f32), and that error."""
    vander = np.vander(t, degree + 1) / f[:, None]
    weights = np.full(t.size, 1.0 / t.size)
    best_error, best = np.inf, np.zeros(degree + 1, np.float32)
    for _ in range(300):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(vander * root[:, None], root, rcond=None)
        rounded = coefficients.astype(np.float32)
        error = np.abs(np.polyval(rounded.astype(np.float64), t) / f - 1).max()
        if error < best_error:
            best_error, best = error, rounded
        weights = weights * np.abs(vander @ coefficients - 1)
        weights /= weights.sum()
    print(f"{name} = (" + ", ".join(repr(float(c)) for c in best) + ")")
    print(f"# largest relative error: {best_error:.3g}")


def gelu_grad() -> None:
    """GELU_GRAD_ROOT, GELU_GRAD_FIT and GELU_GRAD_FIT_HALF (module docstring)."""
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
    t = HALF_OFFSET / (HALF_OFFSET + x)
    values = np.array([n(v) for v in x])
    lawson("GELU_GRAD_FIT", t, values, 7)
    lawson("GELU_GRAD_FIT_HALF", t, values, HALF_DEGREE)


if __name__ == "__main__":
    main()
