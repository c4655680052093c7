"""A faster Cast for the narrowing the reference kernel does on every chunk.

ascendc_api.cast rounds f32 -> f16/bf16 with an exact, mode-general bit-level method that costs
about 20 numpy passes. For round-to-nearest-even (CAST_RINT, and CAST_NONE where it is allowed)
numpy's float32 -> float16 and ml_dtypes' float32 -> bfloat16 conversions are already correctly
rounded (test_interpreter_fast_cast.py checks the two agree bit for bit, NaNs included), so those
pairs take one `astype`. Everything else, and every check, stays with ascendc_api.cast.
"""

from __future__ import annotations

import numpy as np

from hswc.interpreter import ascendc_api as api
from hswc.interpreter.dtypes import BF16, F16, F32

_ASTYPE_RNE = {(F32, F16, "none"), (F32, F16, "rint"), (F32, BF16, "rint")}


def cast(dst: np.ndarray, src: np.ndarray, round_mode: str, count: int) -> None:
    """ascendc_api.cast, with one astype for the round-to-nearest-even narrowings."""
    fast = (
        (src.dtype, dst.dtype, round_mode) in _ASTYPE_RNE
        and isinstance(count, int) and 0 < count <= min(src.shape[-1], dst.shape[-1])
        and src.shape[:-1] == dst.shape[:-1]
    )
    if not fast:
        api.cast(dst, src, round_mode, count)
        return
    with np.errstate(over="ignore", invalid="ignore"):
        dst[..., :count] = src[..., :count].astype(dst.dtype)
