"""f16, bf16 and f32 scalars as Python floats, rounded bit for bit as the interpreter rounds them.

The compiler rounds an op's constants to their types (MLIR's APFloat semantics: round to
nearest, ties to even; out of range -> infinity), merges constants by their bits, and prints
f32 literals. It does that with these integer operations on a double's bits, so that compiling
imports neither numpy nor ml_dtypes (together 0.2 s of start-up with ml_dtypes 0.6, 0.8 s with
0.7: as much as the rest of `hswc-opt` or more). The interpreter keeps computing with numpy
(hswc.arith_semantics); the two agree bit for bit, NaNs included (test/test_float_formats.py
checks every f16 and bf16 value and random doubles against hswc.arith_semantics.convert,
numpy's and ml_dtypes' conversions):

- f16 (numpy's conversion): a NaN keeps the top 10 bits of its payload (at least one bit set);
- bf16 (ml_dtypes'): every NaN becomes the quiet NaN 0x7fc0, with its sign;
- f32 (the C cast): a NaN keeps the top 23 bits of its payload, quiet bit set.
"""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from typing import Final, NamedTuple


class FloatFormat(NamedTuple):
    exponent_bits: int
    mantissa_bits: int

    @property
    def bias(self) -> int:
        return (1 << (self.exponent_bits - 1)) - 1

    @property
    def exponent_mask(self) -> int:
        return (1 << self.exponent_bits) - 1


FORMATS: Final = {"f16": FloatFormat(5, 10), "bf16": FloatFormat(8, 7), "f32": FloatFormat(8, 23)}
"""The float types of a body, by the names hswc gives them."""

_DOUBLE_MANTISSA = 52
_DOUBLE_EXPONENT_MASK = 0x7FF


def _double_bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def _double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _nan_bits(payload: int, fmt: FloatFormat, dtype: str) -> int:
    """The mantissa field a NaN with this double payload converts to."""
    if dtype == "bf16":
        return 1 << (fmt.mantissa_bits - 1)
    mantissa = payload >> (_DOUBLE_MANTISSA - fmt.mantissa_bits)
    if dtype == "f32":
        return mantissa | 1 << (fmt.mantissa_bits - 1)
    return mantissa or 1


def float_bits(value: float, dtype: str) -> int:
    """The bits of `value` rounded to `dtype` ('f16', 'bf16' or 'f32'), as an unsigned int."""
    fmt = FORMATS[dtype]
    bits = _double_bits(value)
    sign = (bits >> 63) << (fmt.exponent_bits + fmt.mantissa_bits)
    exponent = (bits >> _DOUBLE_MANTISSA) & _DOUBLE_EXPONENT_MASK
    payload = bits & ((1 << _DOUBLE_MANTISSA) - 1)
    infinity = fmt.exponent_mask << fmt.mantissa_bits
    if exponent == _DOUBLE_EXPONENT_MASK:
        return sign | infinity | (_nan_bits(payload, fmt, dtype) if payload else 0)
    if exponent == 0:  # zero or a subnormal double: significand * 2**-1074
        significand, scale = payload, -1074
    else:
        significand, scale = payload | 1 << _DOUBLE_MANTISSA, exponent - 1075
    if significand == 0:
        return sign
    # The result is k * 2**quantum, k with at most mantissa_bits + 1 bits (fewer: subnormal).
    top = significand.bit_length() - 1 + scale
    quantum = max(top, 1 - fmt.bias) - fmt.mantissa_bits
    k = _round_half_even(significand, quantum - scale)
    if k >> (fmt.mantissa_bits + 1):  # rounding carried into the next binade
        k >>= 1
        quantum += 1
    if k >> fmt.mantissa_bits == 0:
        return sign | k  # subnormal (exponent field 0)
    field = quantum + fmt.mantissa_bits + fmt.bias
    if field >= fmt.exponent_mask:
        return sign | infinity
    return sign | field << fmt.mantissa_bits | (k & ((1 << fmt.mantissa_bits) - 1))


def _round_half_even(significand: int, shift: int) -> int:
    """significand / 2**shift rounded to the nearest integer, ties to even."""
    if shift <= 0:
        return significand << -shift
    k, rest = significand >> shift, significand & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    return k + (rest > half or (rest == half and k & 1))


def from_bits(bits: int, dtype: str) -> float:
    """The Python float a `dtype` value with these bits converts to (exactly; a NaN's payload
    moves to the top of the double's, as numpy and ml_dtypes widen it, bf16 and f32 NaNs
    quieted as the hardware conversion from f32 does)."""
    fmt = FORMATS[dtype]
    width = fmt.exponent_bits + fmt.mantissa_bits
    sign = -1.0 if bits >> width else 1.0
    field = (bits >> fmt.mantissa_bits) & fmt.exponent_mask
    mantissa = bits & ((1 << fmt.mantissa_bits) - 1)
    if field == fmt.exponent_mask:
        if not mantissa:
            return sign * math.inf
        payload = mantissa << (_DOUBLE_MANTISSA - fmt.mantissa_bits)
        if dtype != "f16":
            payload |= 1 << (_DOUBLE_MANTISSA - 1)
        return _double((bits >> width) << 63 | _DOUBLE_EXPONENT_MASK << _DOUBLE_MANTISSA | payload)
    if field == 0:
        return sign * math.ldexp(mantissa, 1 - fmt.bias - fmt.mantissa_bits)
    significand = mantissa | 1 << fmt.mantissa_bits
    return sign * math.ldexp(significand, field - fmt.bias - fmt.mantissa_bits)


def f32_bits(bits: int, dtype: str) -> int:
    """The bits of the f32 that the `dtype` value with these bits widens to, exactly (a NaN keeps
    its payload and its quiet bit, as numpy, ml_dtypes and the hardware's Cast widen it)."""
    fmt = FORMATS[dtype]
    width = fmt.exponent_bits + fmt.mantissa_bits
    if dtype == "f32":
        return bits
    if dtype == "bf16":
        return bits << 16
    sign = (bits >> width) << 31
    field = (bits >> fmt.mantissa_bits) & fmt.exponent_mask
    mantissa = bits & ((1 << fmt.mantissa_bits) - 1)
    if field != fmt.exponent_mask:
        return float_bits(from_bits(bits, dtype), "f32")
    return sign | 0xFF << 23 | mantissa << (23 - fmt.mantissa_bits)


def round_float(value: float, dtype: str) -> float:
    """`value` rounded to `dtype`, as a Python float."""
    return from_bits(float_bits(value, dtype), dtype)


def next_f32(value: float, up: bool) -> float:
    """The f32 next to the f32 `value` towards +inf (`up`) or -inf, as numpy.nextafter gives
    it (from a zero of either sign, the smallest subnormal of that direction's sign; from an
    infinity, the largest finite value, or the infinity itself in its own direction)."""
    if math.isinf(value) and (value > 0) == up:
        return value
    bits = float_bits(value, "f32")
    if bits & 0x7FFFFFFF == 0:
        return from_bits(1 if up else 0x80000001, "f32")
    negative = bits >> 31
    return from_bits(bits + (-1 if up == bool(negative) else 1), "f32")


def shortest_f32(value: float) -> str:
    """The shortest decimal spelling that reads back to the f32 `value` (finite), the closest
    to it among those, as numpy prints an f32: positional from 1e-4 up to 1e6 (`0.5`, `3.0`),
    scientific outside (`1e-05`, `1.5e+07`)."""
    if value == 0:
        return repr(value)
    for digits in range(1, 10):
        spellings = [f"{value:.{digits - 1}e}"]
        # The nearest spelling of this length may miss the value's rounding interval where a
        # neighbour on the other side hits it (the interval is uneven at a power of 2).
        step = 10.0 ** (math.floor(math.log10(abs(value))) - digits + 1)
        spellings += [f"{float(spellings[0]) + d * step:.{digits - 1}e}" for d in (-1, 1)]
        hits = [s for s in spellings if round_float(float(s), "f32") == value]
        if hits:  # the closest; halfway between two, the even last digit
            return _numpy_style(min(hits, key=lambda s: (_distance(s, value), _odd(s))))
    raise ValueError(f"{value!r} is not an f32 value")


def _distance(spelling: str, value: float) -> Decimal:
    return abs(Decimal(spelling) - Decimal(value))


def _odd(spelling: str) -> bool:
    return spelling.split("e")[0][-1] in "13579"


def _numpy_style(scientific: str) -> str:
    """`d.ddde+XX` as numpy prints an f32 scalar of those digits."""
    if 1e-4 <= abs(float(scientific)) < 1e6:
        return repr(float(scientific))  # positional, as Python spells doubles below 1e16
    mantissa, exponent = scientific.split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent):+03d}"
