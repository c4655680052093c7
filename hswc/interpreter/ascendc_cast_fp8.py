"""Ascend 950's Cast between float and fp8_e4m3fn_t / fp8_e5m2_t, under the CTRL register's
saturation mode (hswc.float8_casts says what each mode does and where that is documented).

float -> fp8 (CAST_RINT, the one mode the 950's table lists) rounds to nearest, ties to even,
as ml_dtypes' conversion does; without saturation that conversion is the result (beyond the
largest finite value NaN for E4M3FN, +-inf for E5M2; NaN stays NaN: ml_dtypes' pattern, which
the hardware's is assumed to be, and which tests compare by class). Saturating, a result that is
not finite becomes +-the largest finite value, and a NaN input 0 (or NaN with CTRL[50] = 1).
fp8 -> float (CAST_NONE) is exact.
"""

from __future__ import annotations

import numpy as np

from hswc.float8_casts import keeps_nan, saturates
from hswc.interpreter.ascendc_checks import ApiError


def to_float8(x: np.ndarray, dtype: np.dtype, ctrl: int) -> np.ndarray:
    """float values cast to `dtype` (an fp8) with CAST_RINT under the CTRL register `ctrl`."""
    saturating = saturates(ctrl)
    if saturating is None:
        raise ApiError("Cast: CTRL[60] = 0 leaves the saturation mode to a Reg Cast's SatMode, "
                       "which the Memory-level Cast to an 8-bit float has none of (not modelled)")
    with np.errstate(all="ignore"):
        out = np.asarray(x, dtype=np.float32).astype(dtype)
    if not saturating:
        return out
    nan_in = np.isnan(x)
    beyond = ~np.isfinite(out.astype(np.float32)) & ~nan_in
    top = np.asarray(np.finfo(dtype).max, dtype=dtype)
    out = np.where(beyond, np.where(np.signbit(x), -top, top), out).astype(dtype)
    if not keeps_nan(ctrl):
        out = np.where(nan_in, np.zeros((), dtype), out).astype(dtype)
    return out


def from_float8(x: np.ndarray) -> np.ndarray:
    """fp8 values widened to float, exactly."""
    return x.astype(np.float32)
