"""Compare, CompareScalar and Select over numpy views.

Compare packs its mask little-endian (element i -> bit i%8 of byte i/8) and computes whole
256-byte repeats only; NaN makes LT/GT/GE/EQ/LE false and NE true (IEEE: NE is the negation of
EQ). Select reads the mask as its mode says and moves bit patterns. Integer lanes (int16_t,
int32_t) compare as integers; which SoC takes them, and in which CMPMODE, the caller checks
against hswc.soc_api's table. (The elementwise calls are in ascendc_arith.)
"""

from __future__ import annotations

from typing import Final

import numpy as np

from hswc.interpreter.ascendc_cast import scalar_operand
from hswc.interpreter.ascendc_checks import (
    ApiError,
    Scalar,
    check_count,
    check_operand,
    float_dtype,
    store,
)
from hswc.interpreter.dtypes import U8
from hswc.platform import VECTOR_REPEAT_BYTES

# region Compare and Select

_COMPARES: Final = {
    "lt": np.less,
    "gt": np.greater,
    "ge": np.greater_equal,
    "eq": np.equal,
    "ne": np.not_equal,
    "le": np.less_equal,
}


def _lane_dtype(api: str, a: np.ndarray) -> np.dtype:
    """The dtype of `a`: a float the vector unit computes in, or a 16- or 32-bit integer."""
    if a.dtype in _INTEGER_LANES:
        return a.dtype
    return float_dtype(api, a)


_INTEGER_LANES: Final = (np.dtype(np.int16), np.dtype(np.uint16), np.dtype(np.int32),
                         np.dtype(np.uint32))


def _compare_into(
    api: str, dst_mask_u8: np.ndarray, src0: np.ndarray, src1: np.ndarray, mode: str, count: int
) -> None:
    op = _COMPARES.get(mode)
    if op is None:
        raise ApiError(f"{api}: unknown mode {mode!r} (known: {', '.join(_COMPARES)})")
    check_operand(api, "dst mask", dst_mask_u8, U8)
    dtype = _lane_dtype(api, src0)
    check_count(api, count, src0=src0)
    if count * dtype.itemsize % VECTOR_REPEAT_BYTES:
        raise ApiError(
            f"{api}: count {count} x {dtype.itemsize} bytes = {count * dtype.itemsize} bytes is "
            f"not a multiple of {VECTOR_REPEAT_BYTES}: only whole repeats are computed"
        )
    nbytes = count // 8
    if dst_mask_u8.shape[-1] < nbytes:
        raise ApiError(
            f"{api}: dst mask holds {dst_mask_u8.shape[-1]} bytes, {count} elements need {nbytes}"
        )
    if count == 0:
        return
    with np.errstate(invalid="ignore"):
        bits = op(src0[..., :count], src1)
    store(api, dst_mask_u8, np.packbits(bits, axis=-1, bitorder="little"))


def compare(
    dst_mask_u8: np.ndarray, src0: np.ndarray, src1: np.ndarray, mode: str, count: int
) -> None:
    """Compare(dst, src0, src1, CMPMODE, count): bit i of the mask = src0[i] <mode> src1[i].

    Bits are packed little-endian (element i -> bit i%8 of byte i/8); count * sizeof(T) must be
    a multiple of 256 bytes.
    """
    check_operand("Compare", "src0", src0)
    check_operand("Compare", "src1", src1, src0.dtype)
    check_count("Compare", count, src1=src1)
    _compare_into("Compare", dst_mask_u8, src0, src1[..., :count], mode, count)


def compare_scalar(
    dst_mask_u8: np.ndarray, src0: np.ndarray, scalar: Scalar, mode: str, count: int
) -> None:
    """CompareScalar: Compare with a scalar (of src0's dtype) as src1."""
    check_operand("CompareScalar", "src0", src0)
    scalar_t = scalar_operand(scalar, _lane_dtype("CompareScalar", src0))
    _compare_into("CompareScalar", dst_mask_u8, src0, scalar_t, mode, count)


SELECT_MODES: Final = ("cmpmask_spr", "tensor_scalar", "tensor_tensor")
_LANES: Final = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32)}
"""The unsigned integer of each float width, for selecting bit patterns."""


def _select_bits(mask_u8: np.ndarray, mode: str, count: int, itemsize: int) -> np.ndarray:
    """The mask bit deciding each of the first `count` elements, as uint8 0s and 1s."""
    if mode == "cmpmask_spr":
        # VSEL_CMPMASK_SPR: one repeat's worth of bits (256 bytes of T) reused for every repeat.
        per_repeat = VECTOR_REPEAT_BYTES // itemsize
        used = min(per_repeat, count)
    else:
        used = count
    need = -(-used // 8)
    if mask_u8.shape[-1] < need:
        raise ApiError(f"Select: mask holds {mask_u8.shape[-1]} bytes, {used} bits need {need}")
    bits = np.unpackbits(mask_u8[..., :need], axis=-1, count=used, bitorder="little")
    if used < count:
        bits = np.tile(bits, -(-count // used))[..., :count]
    return bits


def _select_src1(api: str, src1_or_scalar: np.ndarray | Scalar, mode: str, dtype: np.dtype,
                 count: int) -> np.ndarray:
    """Select's src1 as the values to take: the scalar, or the tensor's first `count`."""
    if mode == "tensor_scalar":
        if isinstance(src1_or_scalar, np.ndarray) and src1_or_scalar.ndim:
            raise ApiError(f"{api}: mode tensor_scalar takes a scalar src1, got a tensor")
        return scalar_operand(src1_or_scalar, dtype)
    if not isinstance(src1_or_scalar, np.ndarray):
        raise ApiError(f"{api}: mode {mode} takes a tensor src1, got {src1_or_scalar!r}")
    check_operand(api, "src1", src1_or_scalar, dtype)
    check_count(api, count, src1=src1_or_scalar)
    return src1_or_scalar[..., :count]


def select(
    dst: np.ndarray,
    mask_u8: np.ndarray,
    src0: np.ndarray,
    src1_or_scalar: np.ndarray | Scalar,
    mode: str,
    count: int,
) -> None:
    """Select(dst, mask, src0, src1, SELMODE, count): bit 1 -> src0[i], bit 0 -> src1[i].

    Modes: "cmpmask_spr" (0), "tensor_scalar" (1, src1 a scalar), "tensor_tensor" (2).
    Any count; dst may be src0 or src1 itself, or overlap either.
    """
    api = "Select"
    if mode not in SELECT_MODES:
        raise ApiError(f"{api}: unknown mode {mode!r} (known: {', '.join(SELECT_MODES)})")
    check_operand(api, "dst", dst)
    dtype = _lane_dtype(api, dst)
    check_operand(api, "mask", mask_u8, U8)
    check_operand(api, "src0", src0, dtype)
    check_count(api, count, dst=dst, src0=src0)
    src1 = _select_src1(api, src1_or_scalar, mode, dtype, count)
    if count == 0:
        return
    bits = _select_bits(mask_u8, mode, count, dtype.itemsize)
    lanes = _LANES[dtype.itemsize]
    # Bit patterns: src1 ^ ((src0 ^ src1) & m) with m all ones where the bit is 1 is src0 there,
    # src1 elsewhere: numpy.where's bits in three integer passes (numpy.where is ~5x slower).
    m = np.negative(bits, dtype=lanes)
    src1_bits = src1.view(lanes)
    differ = np.bitwise_xor(src0[..., :count].view(lanes), src1_bits)
    np.bitwise_and(differ, m, out=differ)
    try:
        np.bitwise_xor(differ, src1_bits, out=dst[..., :count].view(lanes))
    except ValueError as err:
        raise ApiError(f"{api}: operands of shapes {differ.shape} and {dst.shape} do not batch "
                       "together") from err


# endregion
