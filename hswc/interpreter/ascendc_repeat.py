"""The mask/repeat (level-0) calls over a batch of UB arenas: binary arithmetic with repeat
parameters, WholeReduceSum / Max / Min, Brcb and Duplicate's bitwise-mask form over one repeat.

The operands are `Operand`s: a LocalTensor's UB bytes with its block and repeat strides (in
32-byte blocks). Lane k of repeat r is at byte (r * rep + (k * size / 32) * blk) * 32 +
(k * size) % 32 of its tensor (hswc.dialects.ascend_repeat cites the rules). Checked, each an
`ApiError` naming the call and the operand:
- repeat in [0, 255] and a continuous mask in [0, 256 / sizeof(T)]; repeat 0 or mask 0 touch
  nothing on Atlas A2/A3 (documented NOPs) and are refused on Ascend 950, which does not promise
  a NOP ("不保证该接口被视为NOP");
- every byte a call touches inside its tensor; tensors 32-byte aligned (a WholeReduce dst: its
  element's size);
- overlap (通用地址重叠约束): within a repeat dst and a source are the same lanes or disjoint; no
  repeat reads bytes an earlier repeat wrote, except a binary call's src1 where the docs allow
  it (Add, Sub, Mul, Max, Min with src1RepStride or dstRepStride 0); Brcb's src and dst share
  no byte.
Repeats run in order (a later repeat's write wins; a repeat reads what earlier ones wrote
where that is allowed). Each call returns the UB byte offsets it wrote, per element.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np

from hswc import reduce_semantics
from hswc.interpreter.ascendc_arith import LANE_OPS
from hswc.interpreter.ascendc_cast import scalar_operand
from hswc.interpreter.ascendc_checks import ApiError, Scalar
from hswc.interpreter.dtypes import BF16, F16, F32
from hswc.platform import MAX_REPEAT_TIMES, UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES

Lanes = Callable[[np.ndarray, np.ndarray], np.ndarray]
ACCUMULATING: Final = ("add", "sub", "mul", "max", "min")
"""The binary calls whose dst may feed a later repeat's src1 (通用地址重叠约束), for half, float."""


@dataclass(frozen=True)
class Operand:
    """A tensor operand of a level-0 call: `nbytes` UB bytes from `addr`, its strides."""

    name: str
    addr: int
    nbytes: int
    dtype: np.dtype
    blk: int = 1
    rep: int = 8

    @property
    def size(self) -> int:
        return self.dtype.itemsize

    def lanes(self, repeat: int, on: np.ndarray) -> np.ndarray:
        """UB byte offsets of the enabled lanes `on` of every repeat: shape (repeat, lanes)."""
        at = on * self.size
        blocks = np.arange(repeat)[:, None] * self.rep + (at // UB_BLOCK_BYTES) * self.blk
        return self.addr + blocks * UB_BLOCK_BYTES + at % UB_BLOCK_BYTES

    def check(self, api: str, at: np.ndarray, align: int = UB_BLOCK_BYTES) -> None:
        """`at` (UB byte offsets of elements) inside the tensor, which is `align`-aligned."""
        if self.addr % align:
            raise ApiError(f"{api}: {self.name} UB address {self.addr} is not {align}-byte "
                           "aligned")
        if at.size and int(at.max()) + self.size > self.addr + self.nbytes:
            need = int(at.max()) + self.size - self.addr
            raise ApiError(f"{api}: {self.name} needs {need} bytes but the LocalTensor has "
                           f"{self.nbytes}")


def runs(api: str, family: str, repeat: int, mask: int | None, lanes: int) -> bool:
    """Whether a call with these repeat and mask values computes anything (module docstring);
    an ApiError for values outside their ranges."""
    for what, value, high in (("repeat", repeat, MAX_REPEAT_TIMES), ("mask", mask, lanes)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ApiError(f"{api}: {what} must be an integer, got {value!r}")
        if not 0 <= value <= high:
            suffix = " (repeatTime is a uint8_t)" if what == "repeat" else \
                f", the lanes of a repeat of {VECTOR_REPEAT_BYTES} bytes"
            raise ApiError(f"{api}: {what} {value} is outside [0, {high}]{suffix}")
    zero = "repeat" if repeat == 0 else "mask" if mask == 0 else None
    if zero is not None and family == "dav_3510":
        raise ApiError(f"{api}: {zero} 0 is not modelled on Ascend 950 (the docs do not promise "
                       "a NOP there)")
    return zero is None


# region overlap


def _bytes(at: np.ndarray, size: int) -> np.ndarray:
    return (at.reshape(-1, 1) + np.arange(size)).ravel()


def overlap(api: str, dst: np.ndarray, dst_lanes: np.ndarray | None, src: np.ndarray,
            src_name: str, size: int, allowed_later: bool = False, none: bool = False) -> bool:
    """The overlap rules between dst and one source (module docstring). dst and src are UB
    byte offsets of elements, shape (repeats, lanes); `dst_lanes` the lane of each dst element
    (None: a reduction's one element per repeat, which no source lane overlaps fully). `none`:
    no byte may be shared. Whether a repeat reads what an earlier one wrote (allowed)."""
    if dst.size == 0 or src.size == 0:
        return False
    d_rep = np.repeat(np.broadcast_to(np.arange(dst.shape[0])[:, None], dst.shape).ravel(), size)
    d_lane = np.repeat((np.broadcast_to(np.arange(dst.shape[1]), dst.shape) if dst_lanes is None
                        else np.broadcast_to(dst_lanes, dst.shape)).ravel(), size)
    d_start = np.repeat(dst.ravel(), size)
    d_byte = _bytes(dst, size)
    order = np.lexsort((d_rep, d_byte))
    d_byte, first = np.unique(d_byte[order], return_index=True)
    f_rep, f_lane, f_start = (v[order][first] for v in (d_rep, d_lane, d_start))
    s_byte = _bytes(src, size)
    s_rep = np.repeat(np.broadcast_to(np.arange(src.shape[0])[:, None], src.shape).ravel(), size)
    s_lane = np.repeat(np.broadcast_to(np.arange(src.shape[1]), src.shape).ravel(), size)
    s_start = np.repeat(src.ravel(), size)
    i = np.minimum(np.searchsorted(d_byte, s_byte), d_byte.size - 1)
    hit = d_byte[i] == s_byte
    if not hit.any():
        return False
    where = np.flatnonzero(hit)
    if none:
        b = int(s_byte[where[0]])
        raise ApiError(f"{api}: dst and {src_name} share UB byte {b}: they may not overlap")
    i = i[where]
    later = s_rep[where] > f_rep[i]
    partial = (s_rep[where] == f_rep[i]) & (
        (s_lane[where] != f_lane[i]) | (s_start[where] != f_start[i]) | (dst_lanes is None))
    bad = partial | (later & (not allowed_later))
    if bad.any():  # the first in the source's order of repeats, lanes and bytes
        j = int(np.argmax(bad))
        rep, byte = int(s_rep[where][j]), int(s_byte[where][j])
        if partial[j]:
            raise ApiError(f"{api}: dst and {src_name} overlap partially in repeat {rep} (UB "
                           f"byte {byte}): within a repeat they must be the same lanes or "
                           "disjoint (通用地址重叠约束)")
        raise ApiError(f"{api}: {src_name} of repeat {rep} reads UB byte {byte}, which dst of "
                       f"repeat {int(f_rep[i][j])} wrote (a later repeat may not read an "
                       "earlier one's dst: 通用地址重叠约束)")
    return bool(later.any())


def _store_last(typed: np.ndarray, at: np.ndarray, values: np.ndarray) -> None:
    """typed[:, at] = values (last axis flattened), the last write of an element winning."""
    flat = at.ravel()
    vals = values.reshape(values.shape[0], -1)
    _, last = np.unique(flat[::-1], return_index=True)
    keep = flat.size - 1 - last
    typed[:, flat[keep]] = vals[:, keep]


# endregion
# region the calls


def _typed(ub: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return ub.view(dtype)


def binary_repeat(api: str, lane_op: str, family: str, ub: np.ndarray, dst: Operand,
                  src0: Operand, src1: Operand, mask: int, repeat: int) -> np.ndarray:
    """Add, Sub, Mul, Div, Max, Min(dst, src0, src1, mask, repeatTime, BinaryRepeatParams) on
    the UB rows `ub` (B, ub_size) bytes: dst lane = src0 lane <op> src1 lane for the first
    `mask` lanes of each repeat. The written UB byte offsets."""
    dtype = dst.dtype
    if dtype not in (F16, F32, BF16) or src0.dtype != dtype or src1.dtype != dtype:
        raise ApiError(f"{api}: operands of dtypes {dst.dtype}, {src0.dtype}, {src1.dtype}; one "
                       "of float16, float32 (bfloat16 where the SoC documents it) expected")
    lanes = VECTOR_REPEAT_BYTES // dtype.itemsize
    if not runs(api, family, repeat, mask, lanes):
        return np.zeros(0, dtype=np.int64)
    on = np.arange(mask)
    at = {o.name: o.lanes(repeat, on) for o in (dst, src0, src1)}
    for o in (dst, src0, src1):
        o.check(api, at[o.name])
    overlap(api, at["dst"], on, at["src0"], "src0", dtype.itemsize)
    accumulate = lane_op in ACCUMULATING and dtype in (F16, F32) and 0 in (src1.rep, dst.rep)
    sequential = overlap(api, at["dst"], on, at["src1"], "src1", dtype.itemsize, accumulate)
    typed = _typed(ub, dtype)
    e = {name: offsets // dtype.itemsize for name, offsets in at.items()}
    combine = LANE_OPS[lane_op]
    with np.errstate(all="ignore"):
        if sequential:
            for r in range(repeat):
                typed[:, e["dst"][r]] = combine(typed[:, e["src0"][r]], typed[:, e["src1"][r]])
        else:
            _store_last(typed, e["dst"], np.asarray(combine(typed[:, e["src0"]],
                                                            typed[:, e["src1"]])))
    return at["dst"].ravel()


def whole_reduce(kind: str, family: str, ub: np.ndarray, dst: Operand, src: Operand, mask: int,
                 repeat: int) -> np.ndarray:
    """WholeReduceSum / Max / Min(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride) on the UB rows `ub`: dst element r * dst.rep = the tree of the first `mask`
    lanes of repeat r (hswc.reduce_semantics.whole_repeats). dst.rep counts elements. The
    written UB byte offsets."""
    api = {"sum": "WholeReduceSum", "max": "WholeReduceMax", "min": "WholeReduceMin"}[kind]
    dtype = src.dtype
    if dtype not in (F16, F32) or dst.dtype != dtype:
        raise ApiError(f"{api}: dst {dst.dtype} and src {src.dtype}; float16 or float32 "
                       "expected, the same for both")
    lanes = VECTOR_REPEAT_BYTES // dtype.itemsize
    if not runs(api, family, repeat, mask, lanes):
        return np.zeros(0, dtype=np.int64)
    on = np.arange(mask)
    read = src.lanes(repeat, on)
    src.check(api, read)
    written = (dst.addr + np.arange(repeat) * dst.rep * dtype.itemsize)[:, None]
    dst.check(api, written, align=dtype.itemsize)
    overlap(api, written, None, read, "src", dtype.itemsize)
    typed = _typed(ub, dtype)
    values = np.zeros((typed.shape[0], repeat, lanes), dtype=dtype)
    values[..., :mask] = typed[:, read // dtype.itemsize]
    sums = reduce_semantics.whole_repeats(values, mask,
                                          LANE_OPS["add" if kind == "sum" else kind])
    _store_last(typed, written // dtype.itemsize, sums)
    return written.ravel()


def brcb(family: str, ub: np.ndarray, dst: Operand, src: Operand, repeat: int) -> np.ndarray:
    """Brcb(dst, src, repeatTime, {dstBlkStride, dstRepStride}) on the UB rows `ub`: element
    8r + j of src fills block j of repeat r of dst (at block r * dst.rep + j * dst.blk). The
    written UB byte offsets."""
    api = "Brcb"
    dtype = dst.dtype
    if src.dtype != dtype:
        raise ApiError(f"{api}: dst {dst.dtype} and src {src.dtype} differ")
    if not runs(api, family, repeat, None, 0):
        return np.zeros(0, dtype=np.int64)
    per_block = UB_BLOCK_BYTES // dtype.itemsize
    read = (src.addr + np.arange(8 * repeat) * dtype.itemsize)[None, :]
    src.check(api, read)
    blocks = (np.arange(repeat)[:, None] * dst.rep + np.arange(8) * dst.blk).ravel()
    written = (dst.addr + blocks[:, None] * UB_BLOCK_BYTES
               + np.arange(per_block) * dtype.itemsize)
    dst.check(api, written)
    overlap(api, written, None, read, "src", dtype.itemsize, none=True)
    typed = _typed(ub, dtype)
    values = np.repeat(typed[:, read[0] // dtype.itemsize][:, :, None], per_block, axis=2)
    _store_last(typed, written // dtype.itemsize, values)
    return written.ravel()


def duplicate_lanes(family: str, ub: np.ndarray, dst: Operand, scalar: Scalar, first: int,
                    count: int, word_lanes: int, repeat: int = 1) -> np.ndarray:
    """Duplicate(dst, scalar, mask, repeat, 1, dst.rep) with mask[] = {bits [first, first +
    count), 0} on the UB rows `ub` (hswc.dialects.ascend_vector.DuplicateLanesOp, of one
    repeat; ascend.DuplicateLanesRepeatOp): those lanes of each of dst's repeats take the
    scalar, rounded once to dst's dtype; every other element keeps its value.
    The lanes must lie in mask[0] (`word_lanes`) and in the repeat; an empty mask is a NOP on
    Atlas A2/A3 and refused on Ascend 950 (module docstring). The written UB byte offsets."""
    api = "Duplicate"
    dtype = dst.dtype
    if dtype not in (F16, F32, BF16):
        raise ApiError(f"{api}: dst of dtype {dtype}; float16, float32 or bfloat16 expected")
    lanes = VECTOR_REPEAT_BYTES // dtype.itemsize
    if first < 0 or first + count > min(lanes, word_lanes):
        raise ApiError(f"{api}: mask lanes [{first}, {first + count}) are outside mask[0]'s "
                       f"{min(lanes, word_lanes)} lanes of a repeat of {dtype}")
    if not runs(api, family, repeat, count, lanes):
        return np.zeros(0, dtype=np.int64)
    written = dst.lanes(repeat, np.arange(first, first + count))
    dst.check(api, written)
    typed = _typed(ub, dtype)
    typed[:, written.ravel() // dtype.itemsize] = scalar_operand(scalar, dtype)
    return written.ravel()


# endregion
