"""Bit-exact golden models of HardSwishGrad, and a bitwise comparison helper.

`hard_swish_grad_cann` is the CANN ops-nn AscendC kernel (SPEC.md section 2): every step in
f32 with round-to-nearest-even, the slope taken as `x * 0.333333343f` (not `x / 3`), the two
range selects applied in the kernel's order, then one RNE rounding back to the input dtype.
`hard_swish_grad_torch` is current PyTorch `hardswish_backward` (SPEC.md "Other semantics").

This module depends on numpy and ml_dtypes only, never on the rest of `hswc`: it is the
independent side of every interpreter-vs-reference test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np

SUPPORTED_DTYPES: tuple[np.dtype, ...] = (
    np.dtype(np.float16),
    np.dtype(np.float32),
    np.dtype(ml_dtypes.bfloat16),
)

# The kernel's Muls scalar, 0.333333343f; spelt by its bits so nothing rounds it on the way.
ONE_THIRD_F32 = np.uint32(0x3EAAAAAB).view(np.float32)

_F32 = np.float32
_HALF, _ONE, _THREE, _ZERO = _F32(0.5), _F32(1.0), _F32(3.0), _F32(0.0)


def _operands(grad: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """grad and x as arrays, checked like the operator contract: same dtype and shape."""
    grad, x = np.asarray(grad), np.asarray(x)
    if grad.dtype != x.dtype:
        raise ValueError(f"grad and x differ in dtype: {grad.dtype} vs {x.dtype}")
    if grad.dtype not in SUPPORTED_DTYPES:
        raise ValueError(f"unsupported dtype {grad.dtype} (supported: float16, float32, bfloat16)")
    if grad.shape != x.shape:
        raise ValueError(f"grad and x differ in shape: {grad.shape} vs {x.shape}")
    return grad, x


def hard_swish_grad_cann(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The CANN kernel's result, bit for bit (SPEC.md section 2), in grad's dtype and shape."""
    grad, x = _operands(grad, x)
    # inf*0, inf-inf and f16 overflow are part of the semantics, not accidents: no warnings.
    with np.errstate(all="ignore"):
        xf = x.astype(_F32)  # exact widening for f16 / bf16
        gf = grad.astype(_F32)
        s = xf * ONE_THIRD_F32  # Muls: an f32 product, rounded RNE
        s = s + _HALF  # Adds
        s = np.where(xf > -_THREE, s, _ZERO)  # Compare GT + Select (NaN compares false)
        s = np.where(xf < _THREE, s, _ONE)  # Compare LT + Select, applied second
        yf = gf * s  # Mul: x <= -3 gives grad*0, so -0.0 or NaN, never a constant
        return np.asarray(yf.astype(grad.dtype))  # RNE back to the input dtype


def hard_swish_grad_torch(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Current PyTorch hardswish_backward: +0.0 at x <= -3, grad*(x/3 + 0.5), grad at x >= 3.

    Reduced dtypes compute in f32 (PyTorch's opmath type) with a true division by 3.
    """
    grad, x = _operands(grad, x)
    with np.errstate(all="ignore"):
        xf = x.astype(_F32)
        gf = grad.astype(_F32)
        linear = gf * (xf / _THREE + _HALF)
        yf = np.where(xf <= -_THREE, _ZERO, np.where(xf < _THREE, linear, gf))
        return np.asarray(yf.astype(grad.dtype))


REFERENCES: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "cann": hard_swish_grad_cann,
    "torch": hard_swish_grad_torch,
}


# region bitwise comparison


@dataclass(frozen=True)
class Difference:
    """One kind of mismatch: how many elements differ that way, and the first of them."""

    count: int
    first_index: tuple[int, ...] | None
    """Index (into the shape) of the first such element, in C order; None if there is none."""
    first_actual_bits: int | None
    first_expected_bits: int | None


@dataclass(frozen=True)
class Comparison:
    """The outcome of a bit-for-bit comparison of two same-shaped float arrays.

    Differing elements fall in exactly one of three kinds, counted apart: `values` (two
    numbers, infinities included, that differ in value), `zero_signs` (+0.0 against -0.0) and
    `nans` (NaN against a number, either way round). Two NaNs are equal whatever their payload.
    """

    dtype: str
    size: int
    mismatches: int
    """All differing elements: values + zero_signs + nans."""
    first_index: tuple[int, ...] | None
    """Index of the first differing element of any kind, in C order; None if all agree."""
    first_actual_bits: int | None
    first_expected_bits: int | None
    values: Difference
    zero_signs: Difference
    nans: Difference
    max_abs_error: float
    """Over the `values` mismatches (inf against a finite number: inf); 0.0 if none."""
    max_ulp_error: int
    """Over the `values` mismatches: the largest difference of the ordered integer
    representations (+0 and -0 both map to 0); 0 if none."""

    @property
    def equal(self) -> bool:
        return self.mismatches == 0

    def summary(self) -> str:
        """A short human-readable report: the total, then each kind with its first index."""
        if self.equal:
            return f"bit-exact: all {self.size} {self.dtype} elements match"
        assert self.first_actual_bits is not None and self.first_expected_bits is not None
        first = self._pair(self.first_actual_bits, self.first_expected_bits)
        values = self._kind(self.values)
        if self.values.count:
            values += (f"; max abs error {self.max_abs_error:.9g}, "
                       f"max ulp error {self.max_ulp_error}")
        return "\n".join([
            f"MISMATCH: {self.mismatches} of {self.size} {self.dtype} elements differ",
            f"first difference at index {self.first_index}: {first}",
            f"  values differ:        {values}",
            f"  signs of zero differ: {self._kind(self.zero_signs)}",
            f"  NaN against a number: {self._kind(self.nans)}",
        ])

    def _kind(self, kind: Difference) -> str:
        if not kind.count:
            return "0"
        assert kind.first_actual_bits is not None and kind.first_expected_bits is not None
        pair = self._pair(kind.first_actual_bits, kind.first_expected_bits)
        return f"{kind.count}, first at index {kind.first_index}: {pair}"

    def _pair(self, actual: int, expected: int) -> str:
        width = 2 * np.dtype(_DTYPES_BY_NAME[self.dtype]).itemsize
        return (f"actual 0x{actual:0{width}x} ({_value_of(actual, self.dtype)!r}), "
                f"expected 0x{expected:0{width}x} ({_value_of(expected, self.dtype)!r})")


_DTYPES_BY_NAME = {str(d): d for d in SUPPORTED_DTYPES}
_UINT_OF_SIZE = {2: np.uint16, 4: np.uint32}


def _value_of(bits: int, dtype_name: str) -> float:
    dtype = _DTYPES_BY_NAME[dtype_name]
    return float(np.array(bits, dtype=_UINT_OF_SIZE[dtype.itemsize]).view(dtype))


def _ordered(bits: np.ndarray, nbits: int) -> np.ndarray:
    """Sign-magnitude float bits -> integers in the same order as the values (+0 == -0 == 0)."""
    b = bits.astype(np.int64)
    sign = np.int64(1) << (nbits - 1)
    return np.where(b & sign, -(b & (sign - 1)), b)


def _difference(where: np.ndarray, abits: np.ndarray, ebits: np.ndarray) -> Difference:
    """The count and first element of the mask `where` (over the flattened arrays)."""
    count = int(np.count_nonzero(where))
    if not count:
        return Difference(0, None, None, None)
    flat = int(np.argmax(where))
    index = tuple(int(i) for i in np.unravel_index(flat, abits.shape))
    return Difference(count, index, int(abits.flat[flat]), int(ebits.flat[flat]))


def compare_bitwise(actual: np.ndarray, expected: np.ndarray) -> Comparison:
    """Compare bit patterns; NaN equals NaN whatever the payload, -0.0 differs from +0.0."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        raise ValueError(f"shapes differ: actual {actual.shape} vs expected {expected.shape}")
    if actual.dtype != expected.dtype:
        raise ValueError(f"dtypes differ: actual {actual.dtype} vs expected {expected.dtype}")
    if actual.dtype not in SUPPORTED_DTYPES:
        raise ValueError(f"unsupported dtype {actual.dtype}")
    uint = _UINT_OF_SIZE[actual.dtype.itemsize]
    abits, ebits = actual.view(uint), expected.view(uint)
    anan, enan = np.isnan(actual), np.isnan(expected)
    differ = (abits != ebits) & ~(anan & enan)
    nans = differ & (anan != enan)
    zero_signs = differ & (actual == 0) & (expected == 0)
    values = differ & ~nans & ~zero_signs
    max_abs, max_ulp = 0.0, 0
    if values.any():
        a64 = actual[values].astype(np.float64)
        e64 = expected[values].astype(np.float64)
        # Two equal infinities cannot differ bitwise, so the difference is never NaN.
        max_abs = float(np.max(np.abs(a64 - e64)))
        nbits = 8 * actual.dtype.itemsize
        ulp = np.abs(_ordered(abits[values], nbits) - _ordered(ebits[values], nbits))
        max_ulp = int(ulp.max())
    overall = _difference(differ, abits, ebits)
    return Comparison(
        dtype=str(actual.dtype),
        size=int(actual.size),
        mismatches=overall.count,
        first_index=overall.first_index,
        first_actual_bits=overall.first_actual_bits,
        first_expected_bits=overall.first_expected_bits,
        values=_difference(values, abits, ebits),
        zero_signs=_difference(zero_signs, abits, ebits),
        nans=_difference(nans, abits, ebits),
        max_abs_error=max_abs,
        max_ulp_error=max_ulp,
    )


# endregion
