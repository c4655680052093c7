"""Golden model of hsg.relu_mask (hswc.dialects.hsg_relu_mask), written from PyTorch's
definitions independently of its decomposition (hswc.ops.relu_mask): y = torch.relu(x) (a copy
of x with every element that is not above 0 set to +0: NaN, which compares false, stays), and
mask = x > 0 (PyTorch's comparison: false for NaN), a bool per element.
"""

from __future__ import annotations

import numpy as np


def relu_mask(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(y in x's dtype, the mask as bools) for x of any float (ml_dtypes bfloat16 too) or
    signed integer dtype."""
    x = np.asarray(x)
    with np.errstate(invalid="ignore"):
        kept = x > np.zeros((), dtype=x.dtype)
        not_kept = x <= np.zeros((), dtype=x.dtype)
    y = x.copy()
    y[not_kept] = 0  # +0, also for -0; NaN is neither kept nor not kept
    return y, np.asarray(kept, dtype=np.bool_)
