"""Cast's one-astype round-to-nearest-even path equals the bit-level rounding, checks included."""

from __future__ import annotations

import numpy as np
import pytest

from hswc.interpreter import ascendc_api as api
from hswc.interpreter.ascendc_cast import FORMATS, round_to
from hswc.interpreter.dtypes import BF16, F16, F32


def f32_patterns() -> np.ndarray:
    """Every f32 pattern near the f16/bf16 rounding boundaries, plus random ones."""
    rng = np.random.default_rng(3)
    random = rng.integers(0, 1 << 32, 400_000, dtype=np.uint64).astype(np.uint32)
    # Exact halfway points (and one ulp either side) of f16 and of bf16, normal and subnormal.
    f16 = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
    f16_halves = f16 + np.uint32(1 << 12)
    bf16_halves = (np.arange(1 << 16, dtype=np.uint32) << 16) | np.uint32(0x8000)
    boundaries = np.concatenate([f16_halves, bf16_halves])
    near = np.concatenate([boundaries - 1, boundaries, boundaries + 1])
    specials = np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
                         0x477FF000, 0x477FEFFF, 0x7F7FFFFF, 0x00000001, 0x80000000],
                        dtype=np.uint32)
    return np.concatenate([random, near, specials])


@pytest.mark.parametrize(("dst", "mode"), [(F16, "none"), (F16, "rint"), (BF16, "rint")])
def test_astype_path_equals_the_bit_level_rounding(dst: np.dtype, mode: str) -> None:
    src = f32_patterns().view(F32).reshape(1, -1)
    fast = np.zeros(src.shape, dst)
    api.cast(fast, src, mode, src.shape[1])
    slow = round_to(src, FORMATS[dst], "rint")
    np.testing.assert_array_equal(fast.view(np.uint16), slow.astype(dst).view(np.uint16))


def test_other_modes_and_errors() -> None:
    src = np.array([[1.5, 2.5, -1.5, 65519.0]], F32)
    floor = np.zeros((1, 4), F16)
    api.cast(floor, src, "floor", 4)
    assert floor.tolist() == [[1.5, 2.5, -1.5, 65504.0]]
    with pytest.raises(api.ApiError, match="does not support round mode 'none'"):
        api.cast(np.zeros((1, 4), BF16), src, "none", 4)
    with pytest.raises(api.ApiError, match="count 5 exceeds"):
        api.cast(np.zeros((1, 4), F16), src, "rint", 5)


def test_elements_past_count_are_untouched() -> None:
    dst = np.full((2, 8), 7.0, F16)
    api.cast(dst, np.ones((2, 8), F32), "rint", 3)
    assert dst.tolist() == [[1, 1, 1, 7, 7, 7, 7, 7]] * 2


@pytest.mark.parametrize("src_dtype", [F16, BF16])
def test_widening_is_exact_over_every_pattern(src_dtype: np.dtype) -> None:
    """Every f16 / bf16 pattern widens to the f32 of the same value (bf16: its bits << 16;
    f16: its value, NaNs staying NaN with the sign kept)."""
    patterns = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    src = patterns.view(src_dtype).reshape(2, -1)
    dst = np.zeros(src.shape, F32)
    api.cast(dst, src, "none", src.shape[1])
    if src_dtype == BF16:
        np.testing.assert_array_equal(dst.view(np.uint32).ravel(), patterns.astype(np.uint32) << 16)
    else:
        nan = np.isnan(src)
        np.testing.assert_array_equal(np.isnan(dst), nan)
        np.testing.assert_array_equal(np.signbit(dst), np.signbit(src))
        np.testing.assert_array_equal(dst[~nan], src[~nan].astype(np.float64))
