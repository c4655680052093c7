"""Prints the coefficients of hswc's erf decomposition (hswc/math_decompositions.py, ERFC_FIT).

For 1 <= |x| < 4.5 hswc computes erf(|x|) = 1 - exp(-x^2) * g(t), t = 1 / (1 + |x| / 2), where
g is a degree-9 polynomial fitted by least squares (relative error) to erfc(a) * exp(a^2) at
4000 points of [1, 4.5] (mpmath's erfc, 50 digits), its coefficients rounded to f32. Run:
`python tools/fit_erf_coefficients.py`; the output is the tuple to paste.
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


if __name__ == "__main__":
    main()
