"""Cast to and from integer element types: the rounding to an integer and the overflow rules.

asc-devkit docs/zh/api/SIMD-API/基础API/数据结构/precision_conversion.md defines them:
- float -> integer: the value rounded to an integer by the RoundMode (CAST_NONE as CAST_RINT),
  then "溢出默认按照饱和模式处理": out of the destination's range it saturates (half 2^7 ->
  int8_t 2^7 - 1). NaN, and a negative value converted to an unsigned type ("负数输入会被视为异常"),
  have no documented result: they are errors here, as in the CPU model.
- float -> float of the same type (float -> float): rounded to an integral value by the mode.
- integer -> float: the value rounded to the float type by the mode (int16_t -> half, int32_t
  -> float: "按照精度舍入模式取到half所能表示的数").
- integer -> wider integer: exact. integer -> narrower signed: saturated (int32_t 2^31 - 1 ->
  int16_t 2^15 - 1); -> narrower unsigned: the low bits kept ("高位截断"), a negative value an
  error.
"""

from __future__ import annotations

import numpy as np

from hswc.interpreter.ascendc_checks import FLOATS, ApiError


def _directed(x: np.ndarray, nearest: np.ndarray, mode: str) -> np.ndarray:
    """x (float64, exact) rounded to nearest's dtype by `mode`, from its RNE rounding `nearest`
    (the two neighbours of x in that dtype are nearest and the one beyond it)."""
    dtype = nearest.dtype.type
    wide = nearest.astype(np.float64)
    lo = np.where(wide <= x, nearest, np.nextafter(nearest, dtype(-np.inf)))
    hi = np.where(wide >= x, nearest, np.nextafter(nearest, dtype(np.inf)))
    if mode == "floor":
        return lo
    if mode == "ceil":
        return hi
    if mode == "trunc":
        return np.where(x >= 0, lo, hi)
    below, above = x - lo.astype(np.float64), hi.astype(np.float64) - x
    return np.where(below < above, lo, np.where(above < below, hi, np.where(x > 0, hi, lo)))


def integer_to_float(src: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    """Integers (int8 to int64) rounded to a float dtype by the mode: exactly, through float64
    (which holds every integer of 53 bits; an int64 beyond that is refused)."""
    if src.dtype.itemsize == 8 and np.any(np.abs(src) > 2**53):
        raise ApiError("Cast: an int64 value beyond 2^53 is not modelled")
    x = src.astype(np.float64)
    with np.errstate(over="ignore"):
        nearest = x.astype(dtype)
    if mode in ("none", "rint"):
        return nearest
    return _directed(x, nearest, mode)


def to_integral(x: np.ndarray, mode: str) -> np.ndarray:
    """Float values rounded to integral values by the mode (sign of zero kept; inf and NaN as
    they are)."""
    rounders = {"none": np.rint, "rint": np.rint, "floor": np.floor, "ceil": np.ceil,
                "trunc": np.trunc}
    if mode == "round":  # half away from zero
        return np.copysign(np.floor(np.abs(x) + 0.5), x)
    return rounders[mode](x)


def float_to_integer(src: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    """Float values rounded to integers by the mode and saturated to the dtype's range."""
    x = src.astype(np.float64)
    if np.any(np.isnan(x)):
        raise ApiError(f"Cast: {src.dtype} -> {dtype} of NaN: the hardware result is not "
                       "exactly specified")
    info = np.iinfo(dtype)
    if info.min == 0 and np.any(x < 0):
        raise ApiError(f"Cast: {src.dtype} -> {dtype} of a negative value: the hardware result "
                       "is not exactly specified")
    y = np.clip(to_integral(x, mode), float(info.min), float(info.max))
    return y.astype(dtype)


def integer_to_integer(src: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Integers converted: exact when they fit; saturated into a signed type, their low bits
    kept in an unsigned one."""
    info = np.iinfo(dtype)
    if info.min == 0:
        if np.iinfo(src.dtype).min < 0 and np.any(src < 0):
            raise ApiError(f"Cast: {src.dtype} -> {dtype} of a negative value: the hardware "
                           "result is not exactly specified")
        return src.astype(dtype)
    return np.clip(src.astype(np.int64), info.min, info.max).astype(dtype)


def convert(src: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    """One Cast of src to dtype where either side is an integer type, or float -> float of one
    type (to an integral value)."""
    if src.dtype in FLOATS and dtype in FLOATS:
        return to_integral(src.astype(np.float64), mode).astype(dtype)
    if src.dtype in FLOATS:
        return float_to_integer(src, dtype, mode)
    if dtype in FLOATS:
        return integer_to_float(src, dtype, mode)
    return integer_to_integer(src, dtype)
