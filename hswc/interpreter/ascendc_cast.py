"""Cast, and exact rounding of f32/f64 values to f16 / bf16 under every AscendC RoundMode.

`round_to` is the one exact rounding routine of the AscendC model under every mode: Cast's
directed modes round through it (RNE from f32, as in half arithmetic, is numpy's astype, which
rounds correctly; hswc.interpreter.ascendc_arith). The scalar operand of
Muls/Adds/Duplicate/CompareScalar/Select (`scalar_operand`) is its double rounded once, as
hswc.arith_semantics rounds a constant. Directed modes overflow like
IEEE: a mode rounding away from zero (RINT, ROUND, CEIL above zero, FLOOR below zero) gives
+-inf, the others the largest finite value. ODD is round-to-odd ("von Neumann" jamming): an
inexact result gets an odd last bit, so it never overflows to inf and tiny values become the
smallest subnormal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from hswc import arith_semantics as sem
from hswc import soc_api
from hswc.float8_casts import DEFAULT_CTRL
from hswc.interpreter.ascendc_cast_fp8 import from_float8, to_float8
from hswc.interpreter.ascendc_checks import (
    FLOATS,
    ApiError,
    Scalar,
    check_count,
    check_operand,
    store,
)
from hswc.interpreter.dtypes import BF16, F16, F32, FLOAT8


@dataclass(frozen=True)
class Format:
    """A binary16-like target: `precision` significand bits (with the hidden one), exponents."""

    dtype: np.dtype
    precision: int
    emin: int
    emax: int

    @property
    def inf_bits(self) -> int:
        # Bit patterns of non-negative values are monotonic: (exponent - emin) * 2^(p-1) + the
        # integer significand; +inf is the pattern of 2^(emax+1).
        return (self.emax - self.emin + 2) << (self.precision - 1)


FORMATS: Final = {
    F16: Format(F16, precision=11, emin=-14, emax=15),
    BF16: Format(BF16, precision=8, emin=-126, emax=127),
}

ROUND_MODES: Final = ("none", "rint", "floor", "ceil", "round", "trunc", "odd")


def _increment(
    mode: str, rem: np.ndarray, n: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Whether to add one unit to the truncated magnitude, and whether an overflow goes to inf.

    rem in [0, 1) is what truncation dropped, in units of the last place; n the kept significand.
    """
    inexact = rem > 0
    odd = n % 2 == 1
    always = np.ones_like(neg)
    never = np.zeros_like(neg)
    table = {
        "rint": ((rem > 0.5) | ((rem == 0.5) & odd), always),
        "round": (rem >= 0.5, always),  # half away from zero
        "floor": (inexact & neg, neg),
        "ceil": (inexact & ~neg, ~neg),
        "trunc": (never, never),
        "odd": (inexact & ~odd, never),  # an inexact result takes the odd neighbour
    }
    if mode not in table:
        raise ApiError(f"unknown round mode {mode!r} (known: {', '.join(ROUND_MODES)})")
    return table[mode]


def round_to(x: np.ndarray, fmt: Format, mode: str) -> np.ndarray:
    """Round f32/f64 values to fmt exactly once under `mode`; NaN stays NaN, signed zeros kept.

    The value is split exactly (frexp/ldexp are exact in f64) into an integer significand n in
    units of the target quantum and a remainder in [0, 1); the mode then decides +0 or +1.
    """
    p1 = fmt.precision - 1
    with np.errstate(all="ignore"):
        neg = np.signbit(x)
        finite = np.isfinite(x)
        ax = np.where(finite, np.abs(x.astype(np.float64)), 0.0)
        _, e = np.frexp(ax)  # ax = m * 2^e with m in [0.5, 1)
        # The exponent of ax, clamped to emin: subnormals (and zero) share emin's quantum.
        exp = np.where(ax < 2.0**fmt.emin, fmt.emin, e.astype(np.int64) - 1)
        q = np.ldexp(ax, p1 - exp)
        n = np.floor(q)
        rem = q - n
        n = n.astype(np.int64)
        pattern = (exp - fmt.emin) * (1 << p1) + n  # the truncated magnitude's bit pattern
        inc, away = _increment(mode, rem, n, neg)
        mag = pattern + inc
        # Beyond the finite range: inf when rounding away from zero, else the largest finite.
        overflow = np.where(away, fmt.inf_bits, fmt.inf_bits - 1)
        mag = np.where(pattern >= fmt.inf_bits, overflow, mag)
        mag = np.where(finite, mag, fmt.inf_bits)
        bits = (mag | (neg.astype(np.int64) << 15)).astype(np.uint16)
        nan = np.isnan(x)
        if np.any(nan):  # keep the library's NaN (payload truncated, sign kept)
            bits = np.where(nan, x.astype(fmt.dtype).view(np.uint16), bits)
    return bits.view(fmt.dtype)


_WIDENED: Final = {
    dtype: np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype).astype(F32)
    for dtype in (F16, BF16)
}
"""numpy's (ml_dtypes') f32 of each f16 / bf16 bit pattern: a lookup widens ~1.7x faster than
the conversion loop (uint16 indices are always in range: mode "wrap" skips the check)."""


def widened(x: np.ndarray) -> np.ndarray:
    """x (f16 or bf16, any shape, 0-d included) as the f32 values it holds: exactly astype's."""
    return np.take(_WIDENED[x.dtype], x.view(np.uint16), mode="wrap")


def scalar_operand(value: Scalar | np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A 0-d array of `dtype` holding value rounded once (RNE), as the hardware's scalar."""
    if isinstance(value, np.ndarray | np.generic) and value.dtype == dtype:
        return np.asarray(value).reshape(())
    if dtype not in FLOATS:
        return np.asarray(value, dtype=dtype)
    return sem.constant(float(value), dtype)


def cast_modes(src: np.dtype, dst: np.dtype, family: str) -> tuple[str, ...]:
    """The RoundModes (`none`, `rint`, ...) the family's Cast takes from src to dst
    (hswc.soc_api's ASCENDC_CAST rows); () for a pair it does not convert."""
    from hswc.interpreter.dtypes import element_name

    names = element_name(src), element_name(dst)
    if None in names:
        return ()
    return tuple(m.removeprefix("cast_")
                 for m in soc_api.table(family).cast_modes(*names))  # type: ignore[arg-type]


def cast(dst: np.ndarray, src: np.ndarray, round_mode: str, count: int,
         family: str = "dav_c220", ctrl: int = DEFAULT_CTRL) -> None:
    """Cast(dst, src, RoundMode, count) on the SoC family's pairs and modes: widening is exact,
    narrowing rounds by round_mode; to and from integers as hswc.interpreter.ascendc_cast_int
    says, to and from 8-bit floats as hswc.interpreter.ascendc_cast_fp8 says (under the CTRL
    register `ctrl`)."""
    api = "Cast"
    check_operand(api, "dst", dst)
    check_operand(api, "src", src)
    modes = cast_modes(src.dtype, dst.dtype, family)
    if not modes:
        raise ApiError(f"{api}: {src.dtype} -> {dst.dtype} is not a supported conversion")
    if round_mode not in modes:
        raise ApiError(
            f"{api}: {src.dtype} -> {dst.dtype} does not support round mode {round_mode!r} "
            f"(supported: {', '.join(modes)})"
        )
    check_count(api, count, dst=dst, src=src)
    if count == 0:
        return
    part = src[..., :count]
    if dst.dtype in FLOAT8:
        store(api, dst, to_float8(part, dst.dtype, ctrl))
        return
    if src.dtype in FLOAT8:
        store(api, dst, from_float8(part))
        return
    if src.dtype not in FLOATS or dst.dtype not in FLOATS or src.dtype == dst.dtype:
        from hswc.interpreter.ascendc_cast_int import convert

        store(api, dst, convert(part, dst.dtype, round_mode))
        return
    if dst.dtype == F32:
        out = dst[..., :count]
        if out.shape == part.shape:
            # The f32 of every 16-bit pattern, looked up: the astype result by construction.
            np.take(_WIDENED[src.dtype], part.view(np.uint16), out=out, mode="wrap")
        else:
            store(api, dst, part)  # batches by broadcasting (or says why it cannot)
        return
    mode = "rint" if round_mode == "none" else round_mode  # NONE rounds like RINT if lossy
    if mode == "rint":
        # numpy's f32 -> f16 and ml_dtypes' f32 -> bf16 are correctly rounded RNE (checked
        # against round_to in test_ascendc_api_cast_rne.py): one conversion instead of ~20
        # passes, made by the assignment (the astype loop) straight into dst.
        with np.errstate(over="ignore", invalid="ignore"):
            store(api, dst, part)
    else:
        store(api, dst, round_to(part, FORMATS[dst.dtype], mode))
