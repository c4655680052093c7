"""Numerical semantics of the AscendC vector and copy APIs (SPEC.md section 6), over numpy.

Each function models one AscendC call: it checks the rule the hardware enforces (raising
`ApiError` with the call, the operand and the numbers involved) and writes its result into
the caller's `dst` view in place, as the hardware writes into the unified buffer. The
interpreter passes LocalTensors as typed views of a core's uint8 UB arena and GM as 1-D arrays.

Every tensor operand is either 1-D `(n,)` or batched `(B, n)`: B cores executing the same
instruction in lock-step. `count` applies to the last axis; elements past it are untouched.
Nothing loops over elements in Python.

Interpretation decisions (where SPEC.md leaves room):
- Compare: NaN makes LT/GT/GE/EQ/LE false and NE true (IEEE: NE is the negation of EQ).
- Cast f32 -> bf16 rejects ODD as well as NONE: the AscendC documentation lists ODD for
  f32 -> f16 only. Directed modes overflow like IEEE: a mode rounding away from zero (RINT,
  ROUND, CEIL above zero, FLOOR below zero) gives +-inf, the others the largest finite value.
  ODD is round-to-odd ("von Neumann" jamming): an inexact result gets an odd last bit, so it
  never overflows to inf and tiny values become the smallest subnormal.
- DataCopyPad GM -> UB with `is_pad=False` fills the tail of the last 32-byte block with the
  first element of that block (SPEC.md: "the pad is the first element of the block").
- Several cores writing the same GM bytes in one batched call: the highest core index wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import ml_dtypes
import numpy as np
from numpy.lib.stride_tricks import as_strided

from hswc.platform import UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES


class ApiError(Exception):
    """An AscendC call that breaks a hardware rule (alignment, capacity, unsupported mode)."""


F16: Final = np.dtype(np.float16)
F32: Final = np.dtype(np.float32)
BF16: Final = np.dtype(ml_dtypes.bfloat16)
U8: Final = np.dtype(np.uint8)
_FLOATS: Final = (F16, F32, BF16)

Offset = int | np.integer | np.ndarray
"""An element offset into GM: one for every core, or a (cores,) vector."""
Scalar = float | int | np.number
"""A scalar operand; it is rounded once (RNE) to the tensor's dtype."""


# region checks and helpers


def _check_operand(api: str, name: str, a: np.ndarray, dtype: np.dtype | None = None) -> None:
    if not isinstance(a, np.ndarray) or a.ndim not in (1, 2):
        shape = getattr(a, "shape", type(a).__name__)
        raise ApiError(f"{api}: {name} must be a 1-D or (cores, n) array, got {shape}")
    if dtype is not None and a.dtype != dtype:
        raise ApiError(f"{api}: {name} has dtype {a.dtype}, expected {dtype}")


def _check_count(api: str, count: int, **views: np.ndarray) -> None:
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise ApiError(f"{api}: count must be a non-negative integer, got {count!r}")
    for name, view in views.items():
        if view.shape[-1] < count:
            raise ApiError(f"{api}: count {count} exceeds {name} ({view.shape[-1]} elements)")


def _store(api: str, dst: np.ndarray, values: np.ndarray) -> None:
    """dst[..., :len(values)] = values; batch shapes that do not match are an ApiError."""
    try:
        dst[..., : values.shape[-1]] = values
    except ValueError as err:
        raise ApiError(
            f"{api}: operands of shapes {values.shape} and {dst.shape} do not batch together"
        ) from err


def _float_dtype(api: str, a: np.ndarray) -> np.dtype:
    if a.dtype not in _FLOATS:
        raise ApiError(f"{api}: unsupported dtype {a.dtype} (float16, float32, bfloat16)")
    return a.dtype


def _scalar(value: Scalar | np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A 0-d array of `dtype` holding value rounded once (RNE), as the hardware's scalar."""
    if isinstance(value, np.ndarray | np.generic) and value.dtype == dtype:
        return np.asarray(value).reshape(())
    if dtype not in _FLOATS:
        return np.asarray(value, dtype=dtype)
    v = np.asarray(float(value), dtype=np.float64)
    if dtype == F32:
        with np.errstate(over="ignore"):
            return v.astype(F32)  # numpy's double -> float rounding is correctly rounded
    # ml_dtypes rounds double -> bfloat16 through float (double rounding): use the exact path.
    return _round_to(v, _FORMATS[dtype], "rint")


# endregion
# region exact rounding to f16 / bf16


@dataclass(frozen=True)
class _Format:
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


_FORMATS: Final = {
    F16: _Format(F16, precision=11, emin=-14, emax=15),
    BF16: _Format(BF16, precision=8, emin=-126, emax=127),
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


def _round_to(x: np.ndarray, fmt: _Format, mode: str) -> np.ndarray:
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


# endregion
# region Compare and Select

_COMPARES: Final = {
    "lt": np.less,
    "gt": np.greater,
    "ge": np.greater_equal,
    "eq": np.equal,
    "ne": np.not_equal,
    "le": np.less_equal,
}


def _compare_into(
    api: str, dst_mask_u8: np.ndarray, src0: np.ndarray, src1: np.ndarray, mode: str, count: int
) -> None:
    op = _COMPARES.get(mode)
    if op is None:
        raise ApiError(f"{api}: unknown mode {mode!r} (known: {', '.join(_COMPARES)})")
    _check_operand(api, "dst mask", dst_mask_u8, U8)
    dtype = _float_dtype(api, src0)
    _check_count(api, count, src0=src0)
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
    _store(api, dst_mask_u8, np.packbits(bits, axis=-1, bitorder="little"))


def compare(
    dst_mask_u8: np.ndarray, src0: np.ndarray, src1: np.ndarray, mode: str, count: int
) -> None:
    """Compare(dst, src0, src1, CMPMODE, count): bit i of the mask = src0[i] <mode> src1[i].

    Bits are packed little-endian (element i -> bit i%8 of byte i/8); count * sizeof(T) must be
    a multiple of 256 bytes.
    """
    _check_operand("Compare", "src0", src0)
    _check_operand("Compare", "src1", src1, src0.dtype)
    _check_count("Compare", count, src1=src1)
    _compare_into("Compare", dst_mask_u8, src0, src1[..., :count], mode, count)


def compare_scalar(
    dst_mask_u8: np.ndarray, src0: np.ndarray, scalar: Scalar, mode: str, count: int
) -> None:
    """CompareScalar: Compare with a scalar (of src0's dtype) as src1."""
    _check_operand("CompareScalar", "src0", src0)
    scalar_t = _scalar(scalar, _float_dtype("CompareScalar", src0))
    _compare_into("CompareScalar", dst_mask_u8, src0, scalar_t, mode, count)


SELECT_MODES: Final = ("cmpmask_spr", "tensor_scalar", "tensor_tensor")


def _select_bits(mask_u8: np.ndarray, mode: str, count: int, itemsize: int) -> np.ndarray:
    """The mask bit deciding each of the first `count` elements, as booleans."""
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
    return bits.astype(bool)


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
    Any count; dst may be src0 itself (the result is formed before it is stored).
    """
    api = "Select"
    if mode not in SELECT_MODES:
        raise ApiError(f"{api}: unknown mode {mode!r} (known: {', '.join(SELECT_MODES)})")
    _check_operand(api, "dst", dst)
    dtype = _float_dtype(api, dst)
    _check_operand(api, "mask", mask_u8, U8)
    _check_operand(api, "src0", src0, dtype)
    _check_count(api, count, dst=dst, src0=src0)
    if mode == "tensor_scalar":
        if isinstance(src1_or_scalar, np.ndarray) and src1_or_scalar.ndim:
            raise ApiError(f"{api}: mode tensor_scalar takes a scalar src1, got a tensor")
        src1: np.ndarray = _scalar(src1_or_scalar, dtype)
    else:
        if not isinstance(src1_or_scalar, np.ndarray):
            raise ApiError(f"{api}: mode {mode} takes a tensor src1, got {src1_or_scalar!r}")
        _check_operand(api, "src1", src1_or_scalar, dtype)
        _check_count(api, count, src1=src1_or_scalar)
        src1 = src1_or_scalar[..., :count]
    if count == 0:
        return
    bits = _select_bits(mask_u8, mode, count, dtype.itemsize)
    _store(api, dst, np.where(bits, src0[..., :count], src1))


# endregion
# region Cast and elementwise arithmetic

_CASTS: Final[dict[tuple[np.dtype, np.dtype], tuple[str, ...]]] = {
    (F16, F32): ("none",),
    (BF16, F32): ("none",),
    (F32, F16): ("none", "rint", "floor", "ceil", "round", "trunc", "odd"),
    # The 910B implementation asserts on NONE; ODD is documented for f32 -> f16 only.
    (F32, BF16): ("rint", "floor", "ceil", "round", "trunc"),
}


def cast(dst: np.ndarray, src: np.ndarray, round_mode: str, count: int) -> None:
    """Cast(dst, src, RoundMode, count): widening is exact, narrowing rounds by round_mode."""
    api = "Cast"
    _check_operand(api, "dst", dst)
    _check_operand(api, "src", src)
    modes = _CASTS.get((src.dtype, dst.dtype))
    if modes is None:
        raise ApiError(f"{api}: {src.dtype} -> {dst.dtype} is not a supported conversion")
    if round_mode not in modes:
        raise ApiError(
            f"{api}: {src.dtype} -> {dst.dtype} does not support round mode {round_mode!r} "
            f"(supported: {', '.join(modes)})"
        )
    _check_count(api, count, dst=dst, src=src)
    if count == 0:
        return
    part = src[..., :count]
    if dst.dtype == F32:
        _store(api, dst, part.astype(F32))
    else:
        mode = "rint" if round_mode == "none" else round_mode  # NONE rounds like RINT if lossy
        if mode == "rint":
            # numpy's f32 -> f16 and ml_dtypes' f32 -> bf16 are correctly rounded RNE (checked
            # against _round_to in test_ascendc_api.py): one astype instead of ~20 passes.
            with np.errstate(over="ignore", invalid="ignore"):
                _store(api, dst, part.astype(dst.dtype))
        else:
            _store(api, dst, _round_to(part, _FORMATS[dst.dtype], mode))


def _elementwise(api: str, dst: np.ndarray, a: np.ndarray, b: np.ndarray, op: np.ufunc) -> None:
    """dst[..., :len] = op(a, b), computed exactly enough to round once to dst's dtype."""
    with np.errstate(all="ignore"):
        if dst.dtype == F32:
            result = op(a, b)  # native f32 arithmetic: IEEE RNE
        else:
            # In f64 a product of two f16/bf16 values is exact, and a sum rounded to f64 first
            # still rounds correctly to 11/8 bits (53 >= 2p + 2), so this is one RNE rounding.
            wide = op(a.astype(np.float64), b.astype(np.float64))
            result = _round_to(np.asarray(wide), _FORMATS[dst.dtype], "rint")
    _store(api, dst, np.asarray(result))


def _unary_checks(api: str, dst: np.ndarray, src: np.ndarray, count: int) -> np.dtype:
    _check_operand(api, "dst", dst)
    dtype = _float_dtype(api, dst)
    _check_operand(api, "src", src, dtype)
    _check_count(api, count, dst=dst, src=src)
    return dtype


def muls(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """Muls(dst, src, scalar, count): dst[i] = src[i] * scalar, scalar of the tensor's dtype."""
    dtype = _unary_checks("Muls", dst, src, count)
    if count:
        _elementwise("Muls", dst, src[..., :count], _scalar(scalar, dtype), np.multiply)


def adds(dst: np.ndarray, src: np.ndarray, scalar: Scalar, count: int) -> None:
    """Adds(dst, src, scalar, count): dst[i] = src[i] + scalar, scalar of the tensor's dtype."""
    dtype = _unary_checks("Adds", dst, src, count)
    if count:
        _elementwise("Adds", dst, src[..., :count], _scalar(scalar, dtype), np.add)


def mul(dst: np.ndarray, src0: np.ndarray, src1: np.ndarray, count: int) -> None:
    """Mul(dst, src0, src1, count): dst[i] = src0[i] * src1[i]."""
    dtype = _unary_checks("Mul", dst, src0, count)
    _check_operand("Mul", "src1", src1, dtype)
    _check_count("Mul", count, src1=src1)
    if count:
        _elementwise("Mul", dst, src0[..., :count], src1[..., :count], np.multiply)


def duplicate(dst: np.ndarray, scalar: Scalar, count: int) -> None:
    """Duplicate(dst, scalar, count): the first count elements of dst become scalar."""
    _check_operand("Duplicate", "dst", dst)
    dtype = _float_dtype("Duplicate", dst)
    _check_count("Duplicate", count, dst=dst)
    dst[..., :count] = _scalar(scalar, dtype)


# endregion
# region GM <-> UB copies


def _typed(api: str, ub: np.ndarray, gm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """UB and GM as views of one element type; a uint8 side takes the other side's type."""
    _check_operand(api, "UB tensor", ub)
    if not isinstance(gm, np.ndarray) or gm.ndim != 1:
        raise ApiError(f"{api}: GM must be a 1-D array, got {getattr(gm, 'shape', gm)!r}")
    if ub.dtype == gm.dtype:
        return ub, gm
    try:
        if ub.dtype == U8:
            return ub.view(gm.dtype), gm
        if gm.dtype == U8:
            return ub, gm.view(ub.dtype)
    except ValueError as err:
        raise ApiError(f"{api}: cannot view uint8 bytes as {gm.dtype}/{ub.dtype}: {err}") from err
    raise ApiError(f"{api}: UB dtype {ub.dtype} and GM dtype {gm.dtype} differ")


def _core_offsets(api: str, offset: Offset, n: int, gm_size: int) -> np.ndarray:
    """Per-core element offsets as an int64 vector (a plain int gives one entry), range-checked."""
    offs = np.atleast_1d(np.asarray(offset, dtype=np.int64))
    if offs.ndim != 1:
        raise ApiError(f"{api}: offset must be an int or a (cores,) array, got {offs.shape}")
    bad = (offs < 0) | (offs + n > gm_size)
    if np.any(bad):
        core = int(np.argmax(bad))
        raise ApiError(
            f"{api}: GM access out of range: offset {int(offs[core])}, length {n} elements, "
            f"GM size {gm_size} elements" + (f" (core {core})" if offs.size > 1 else "")
        )
    return offs


def _stride_if_progression(offs: np.ndarray) -> int | None:
    """The common step of offsets forming a non-decreasing arithmetic progression, else None."""
    if offs.size == 1:
        return 0
    steps = np.diff(offs)
    step = int(steps[0])
    return step if step >= 0 and np.all(steps == step) else None


def _gm_window(gm: np.ndarray, offs: np.ndarray, n: int, step: int, write: bool) -> np.ndarray:
    """A (cores, n) strided view of GM: row b starts at offs[0] + b*step."""
    base = gm[int(offs[0]) :]
    item = gm.strides[0]
    return as_strided(base, (offs.size, n), (step * item, item), writeable=write)


def _gather(api: str, gm: np.ndarray, offset: Offset, n: int) -> np.ndarray:
    if np.ndim(offset) == 0:
        off = int(_core_offsets(api, offset, n, gm.size)[0])
        return gm[off : off + n]
    offs = _core_offsets(api, offset, n, gm.size)
    step = _stride_if_progression(offs)
    if step is not None:  # the common case: core b reads at base + b*blockFactor
        return _gm_window(gm, offs, n, step, write=False)
    return gm[offs[:, None] + np.arange(n)]


def _scatter(api: str, gm: np.ndarray, offset: Offset, values: np.ndarray) -> None:
    n = values.shape[-1]
    if np.ndim(offset) == 0:
        off = int(_core_offsets(api, offset, n, gm.size)[0])
        gm[off : off + n] = values if values.ndim == 1 else values[-1]  # last core wins
        return
    offs = _core_offsets(api, offset, n, gm.size)
    if values.ndim == 2 and values.shape[0] != offs.size:
        raise ApiError(f"{api}: {values.shape[0]} cores of data for {offs.size} offsets")
    step = _stride_if_progression(offs)
    if step is not None and (step >= n or offs.size == 1):  # disjoint rows: one strided store
        _gm_window(gm, offs, n, step, write=True)[...] = values
    else:
        gm[offs[:, None] + np.arange(n)] = values


def _elements(api: str, nbytes: int, item: int) -> int:
    if isinstance(nbytes, bool) or not isinstance(nbytes, int | np.integer) or nbytes < 0:
        raise ApiError(f"{api}: length must be a non-negative byte count, got {nbytes!r}")
    if nbytes % item:
        raise ApiError(f"{api}: length {nbytes} bytes is not a multiple of the {item}-byte element")
    return int(nbytes) // item


def data_copy_pad_gm_to_ub(
    dst: np.ndarray,
    gm: np.ndarray,
    offset: Offset,
    nbytes: int,
    is_pad: bool = False,
    pad_value: Scalar = 0,
) -> None:
    """DataCopyPad GM -> UB of nbytes from element `offset`; the UB tail up to the next 32-byte
    boundary is padded: with pad_value if is_pad, else with the first element of that block."""
    api = "DataCopyPad(GM->UB)"
    ub, g = _typed(api, dst, gm)
    item = g.dtype.itemsize
    n = _elements(api, nbytes, item)
    if n == 0:
        return
    padded = -(-nbytes // UB_BLOCK_BYTES) * UB_BLOCK_BYTES // item
    if ub.shape[-1] < padded:
        raise ApiError(
            f"{api}: {nbytes} bytes pad to {padded * item} bytes, UB tensor holds "
            f"{ub.shape[-1] * item}"
        )
    _store(api, ub, _gather(api, g, offset, n))
    if padded > n:
        block_start = padded - UB_BLOCK_BYTES // item
        if is_pad:
            ub[..., n:padded] = _scalar(pad_value, ub.dtype)
        else:
            ub[..., n:padded] = ub[..., block_start : block_start + 1]


def data_copy_pad_ub_to_gm(gm: np.ndarray, offset: Offset, src: np.ndarray, nbytes: int) -> None:
    """DataCopyPad UB -> GM: exactly nbytes from the UB tensor to GM at element `offset`."""
    api = "DataCopyPad(UB->GM)"
    ub, g = _typed(api, src, gm)
    n = _elements(api, nbytes, g.dtype.itemsize)
    _check_count(api, n, src=ub)
    if n:
        _scatter(api, g, offset, ub[..., :n])


def _aligned_count(api: str, count: int, item: int) -> None:
    if count * item % UB_BLOCK_BYTES:
        raise ApiError(
            f"{api}: count {count} x {item} bytes = {count * item} bytes is not a multiple "
            f"of {UB_BLOCK_BYTES} bytes (use DataCopyPad for unaligned lengths)"
        )


def data_copy_gm_to_ub(dst: np.ndarray, gm: np.ndarray, offset: Offset, count: int) -> None:
    """DataCopy GM -> UB of count elements; count * sizeof(T) must be a multiple of 32 bytes."""
    api = "DataCopy(GM->UB)"
    ub, g = _typed(api, dst, gm)
    _check_count(api, count, dst=ub)
    _aligned_count(api, count, g.dtype.itemsize)
    if count:
        _store(api, ub, _gather(api, g, offset, int(count)))


def data_copy_ub_to_gm(gm: np.ndarray, offset: Offset, src: np.ndarray, count: int) -> None:
    """DataCopy UB -> GM of count elements; count * sizeof(T) must be a multiple of 32 bytes."""
    api = "DataCopy(UB->GM)"
    ub, g = _typed(api, src, gm)
    _check_count(api, count, src=ub)
    _aligned_count(api, count, g.dtype.itemsize)
    if count:
        _scatter(api, g, offset, ub[..., : int(count)])


# endregion
