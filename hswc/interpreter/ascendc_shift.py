"""ShiftLeft and ShiftRight by a scalar amount, over numpy views of integer lanes.

asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/逻辑计算/ShiftLeft.md and ShiftRight.md:
an unsigned type shifts logically (zeros in); a signed type shifts arithmetically: right, the
sign bit copied in; left, "次高位被丢弃" (the bit below the sign is dropped, the sign bit
kept: int16_t 1010101010101010 << 1 is 1101010101010100). Atlas A2/A3 takes int16_t, uint16_t,
int32_t, uint32_t and an amount in [0, width]; Ascend 950 any amount >= 0 (a shift by the width
or more gives 0, or -1 for a negative signed value shifted right). The model refuses an amount
outside [0, width] on both (the stricter rule); which SoC takes which type is hswc.soc_api's
table, checked before these run. A shift by exactly the width follows the 950 text on both
(assumed for A2/A3, whose docs admit the amount without saying what it gives).
"""

from __future__ import annotations

import numpy as np

from hswc.interpreter.ascendc_checks import ApiError, Scalar, check_count, check_operand, store

_LANES = (np.dtype(np.int16), np.dtype(np.uint16), np.dtype(np.int32), np.dtype(np.uint32))


def _amount(api: str, dtype: np.dtype, scalar: Scalar) -> int:
    bits = dtype.itemsize * 8
    if isinstance(scalar, bool) or not float(scalar).is_integer() or not 0 <= int(scalar) <= bits:
        raise ApiError(f"{api}: shift amount {scalar} outside [0, {bits}] for {dtype}")
    return int(scalar)


def _shift(api: str, dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int,
           right: bool) -> None:
    check_operand(api, "dst", dst)
    dtype = dst.dtype
    if dtype not in _LANES:
        raise ApiError(f"{api}: unsupported dtype {dtype} (int16, uint16, int32, uint32)")
    check_operand(api, "src", src, dtype)
    check_count(api, count, dst=dst, src=src)
    k = _amount(api, dtype, scalar)
    if count == 0:
        return
    bits = dtype.itemsize * 8
    a = src[..., :count]
    signed = dtype.kind == "i"
    if k == bits:
        out = np.where(a < 0, -1, 0).astype(dtype) if right and signed else np.zeros_like(a)
    elif right:
        out = a >> dtype.type(k)  # numpy: arithmetic for signed, logical for unsigned
    elif signed:
        sign = dtype.type(np.iinfo(dtype).min)
        out = (a & sign) | ((a << dtype.type(k)) & ~sign)
    else:
        out = a << dtype.type(k)
    store(api, dst, np.asarray(out, dtype))


def shift_left(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """ShiftLeft(dst, src, scalar, count): logical on unsigned lanes; on signed ones the sign
    bit kept."""
    _shift("ShiftLeft", dst, src, scalar, count, right=False)


def shift_right(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """ShiftRight(dst, src, scalar, count): logical on unsigned lanes, arithmetic on signed."""
    _shift("ShiftRight", dst, src, scalar, count, right=True)
