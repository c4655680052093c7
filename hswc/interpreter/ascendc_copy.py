"""DataCopy and DataCopyPad between GM (a 1-D array) and UB tensors (1-D or (cores, n) views),
and DataCopy from one UB tensor to another.

Batched calls take one GM element offset per core: when the offsets form a non-decreasing
arithmetic progression (base + blockIdx * blockFactor) the cores' GM ranges are one strided view,
otherwise a gather/scatter. Several cores writing the same GM bytes in one batched call: the
highest core index wins. DataCopyPad GM -> UB with `is_pad=False` fills the tail of the last
32-byte block with the first element of that block (SPEC.md: "the pad is the first element of
the block").
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from hswc.interpreter.ascendc_cast import scalar_operand
from hswc.interpreter.ascendc_checks import (
    ApiError,
    Offset,
    Scalar,
    check_count,
    check_operand,
    store,
)
from hswc.interpreter.dtypes import FLOAT8, U8
from hswc.platform import UB_BLOCK_BYTES


def _typed(api: str, ub: np.ndarray, gm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """UB and GM as views of one element type; a uint8 side takes the other side's type."""
    check_operand(api, "UB tensor", ub)
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
    if base.dtype in FLOAT8:  # as_strided rebuilds the array from its typestr, '<f1': unknown
        bytes_ = as_strided(base.view(np.uint8), (offs.size, n), (step * item, item),
                            writeable=write)
        return bytes_.view(base.dtype)
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
    store(api, ub, _gather(api, g, offset, n))
    if padded > n:
        block_start = padded - UB_BLOCK_BYTES // item
        if is_pad:
            ub[..., n:padded] = scalar_operand(pad_value, ub.dtype)
        else:
            ub[..., n:padded] = ub[..., block_start : block_start + 1]


def data_copy_pad_ub_to_gm(gm: np.ndarray, offset: Offset, src: np.ndarray, nbytes: int) -> None:
    """DataCopyPad UB -> GM: exactly nbytes from the UB tensor to GM at element `offset`."""
    api = "DataCopyPad(UB->GM)"
    ub, g = _typed(api, src, gm)
    n = _elements(api, nbytes, g.dtype.itemsize)
    check_count(api, n, src=ub)
    if n:
        _scatter(api, g, offset, ub[..., :n])


def _aligned_count(api: str, count: int, item: int,
                   hint: str = "use DataCopyPad for unaligned lengths") -> None:
    if count * item % UB_BLOCK_BYTES:
        raise ApiError(
            f"{api}: count {count} x {item} bytes = {count * item} bytes is not a multiple "
            f"of {UB_BLOCK_BYTES} bytes ({hint})"
        )


def data_copy_gm_to_ub(dst: np.ndarray, gm: np.ndarray, offset: Offset, count: int) -> None:
    """DataCopy GM -> UB of count elements; count * sizeof(T) must be a multiple of 32 bytes."""
    api = "DataCopy(GM->UB)"
    ub, g = _typed(api, dst, gm)
    check_count(api, count, dst=ub)
    _aligned_count(api, count, g.dtype.itemsize)
    if count:
        store(api, ub, _gather(api, g, offset, int(count)))


def data_copy_ub_to_gm(gm: np.ndarray, offset: Offset, src: np.ndarray, count: int) -> None:
    """DataCopy UB -> GM of count elements; count * sizeof(T) must be a multiple of 32 bytes."""
    api = "DataCopy(UB->GM)"
    ub, g = _typed(api, src, gm)
    check_count(api, count, src=ub)
    _aligned_count(api, count, g.dtype.itemsize)
    if count:
        _scatter(api, g, offset, ub[..., : int(count)])


def data_copy_ub_to_ub(dst: np.ndarray, src: np.ndarray, count: int) -> None:
    """DataCopy UB -> UB of count elements of one dtype; count * sizeof(T) must be a multiple
    of 32 bytes (the copy moves whole 32-byte blocks)."""
    api = "DataCopy(UB->UB)"
    check_operand(api, "dst", dst)
    check_operand(api, "src", src, dst.dtype)
    check_count(api, count, dst=dst, src=src)
    _aligned_count(api, count, dst.dtype.itemsize, "a UB -> UB copy moves whole 32-byte blocks")
    if count:
        store(api, dst, src[..., : int(count)])
