"""The operand checks every AscendC call model shares (hswc.interpreter.ascendc_api).

A call names itself (`api`, as AscendC spells it) in every `ApiError`, with the operand and the
numbers involved. Tensor operands are 1-D `(n,)` or batched `(B, n)` numpy views.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from hswc.interpreter.dtypes import BF16, F16, F32

FLOATS: Final = (F16, F32, BF16)

Offset = int | np.integer | np.ndarray
"""An element offset into GM: one for every core, or a (cores,) vector."""
Scalar = float | int | np.generic
"""A scalar operand; it is rounded once (RNE) to the tensor's dtype."""


class ApiError(Exception):
    """An AscendC call that breaks a hardware rule (alignment, capacity, unsupported mode)."""


def check_operand(api: str, name: str, a: np.ndarray, dtype: np.dtype | None = None) -> None:
    """`a` is a 1-D or (cores, n) array, of `dtype` when one is given."""
    if not isinstance(a, np.ndarray) or a.ndim not in (1, 2):
        shape = getattr(a, "shape", type(a).__name__)
        raise ApiError(f"{api}: {name} must be a 1-D or (cores, n) array, got {shape}")
    if dtype is not None and a.dtype != dtype:
        raise ApiError(f"{api}: {name} has dtype {a.dtype}, expected {dtype}")


def check_count(api: str, count: int, **views: np.ndarray) -> None:
    """`count` is a non-negative integer no larger than any of the named views."""
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise ApiError(f"{api}: count must be a non-negative integer, got {count!r}")
    for name, view in views.items():
        if view.shape[-1] < count:
            raise ApiError(f"{api}: count {count} exceeds {name} ({view.shape[-1]} elements)")


def store(api: str, dst: np.ndarray, values: np.ndarray) -> None:
    """dst[..., :len(values)] = values; batch shapes that do not match are an ApiError."""
    try:
        dst[..., : values.shape[-1]] = values
    except ValueError as err:
        raise ApiError(
            f"{api}: operands of shapes {values.shape} and {dst.shape} do not batch together"
        ) from err


def overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a and b share an element of memory: exactly, since the bounds of any two views
    of one batched UB arena overlap (for the interpreter's 1-D and (cores, n) views the exact
    answer is a small Diophantine problem)."""
    return bool(np.shares_memory(a, b))


def float_dtype(api: str, a: np.ndarray) -> np.dtype:
    """The dtype of `a`, which must be one the vector unit computes in."""
    if a.dtype not in FLOATS:
        raise ApiError(f"{api}: unsupported dtype {a.dtype} (float16, float32, bfloat16)")
    return a.dtype
