"""Input values for the packages' examples and kernel unit tests (hswc.ops.docs.OpDocs), shared
by the ops whose thresholds sit at the same places.

Example data is a handful of plain values, no NaN or infinity (the example checks with a
tolerance). Kernel test data has 21 values: each threshold, values just inside and outside it,
signed zeros, and values far outside; grads of both signs and of several sizes.
"""

from __future__ import annotations

GRAD_EXAMPLE = (1.0, 2.0, 3.0, -4.0, 5.0, -6.0, 7.0, 8.0, -9.0)
GRAD_TEST = (1.0, 2.0, -3.0, 4.0, -5.0, 0.0, 0.5, -0.75, 1.25, 2.0, -2.0, 3.0, -4.0, 5.0, -6.0,
             7.0, -8.0, 9.0, -10.0, 11.0, -12.0)

AROUND_3_EXAMPLE = (-4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0)
"""x for the ops with thresholds at -3 and 3 (HardSwish, HardSigmoid and their gradients)."""
AROUND_3_TEST = (-4.0, -3.0, -2.5, -2.0, -1.0, 0.0, 1.0, 2.0, 2.5, 3.0, 4.0, -10.0, -3.0, 3.0,
                 10.0, -0.25, 0.25, -2.999, 2.999, -1.5, 1.5)

AROUND_1_EXAMPLE = (-2.0, -1.0, -0.75, -0.5, 0.0, 0.5, 0.75, 1.0, 2.0)
"""x for the ops with thresholds at -1 and 1 (Hardtanh's default bounds)."""
AROUND_1_TEST = (-10.0, -2.0, -1.001, -1.0, -0.999, -0.75, -0.5, -0.25, -0.0, 0.0, 0.25, 0.5,
                 0.75, 0.999, 1.0, 1.001, 2.0, 10.0, -1.5, 1.5, 0.125)

AROUND_HALF_EXAMPLE = (-2.0, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 2.0)
"""x for the ops with thresholds at -0.5 and 0.5 (the shrink ops' default lambd)."""
AROUND_HALF_TEST = (-10.0, -2.0, -1.0, -0.75, -0.501, -0.5, -0.499, -0.25, -0.0, 0.0, 0.25,
                    0.499, 0.5, 0.501, 0.75, 1.0, 2.0, 10.0, -0.125, 0.125, 3.0)

AROUND_0_EXAMPLE = (-4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0)
"""x for the ops with a threshold at 0 (LeakyRelu; Threshold as relu)."""
AROUND_0_TEST = (-10.0, -4.0, -2.0, -1.0, -0.5, -0.25, -0.001, -1e-05, -0.0, 0.0, 1e-05, 0.001,
                 0.25, 0.5, 1.0, 2.0, 4.0, 10.0, -3.0, 3.0, 100.0)
