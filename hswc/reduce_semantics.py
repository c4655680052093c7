"""The order in which AscendC's reductions combine their elements: the one definition in Python.

f32 and f16 addition is not associative, so a sum is defined only with its order. Sources
(asc-devkit 82b89a1, `fetch github:mirror-cann/asc-devkit`):

[tree]  docs/zh/api/SIMD-API/基础API/Memory矢量计算/归约计算/ReduceDataBlock.md, 关键特性说明, and
        docs/zh/api/SIMD-API/C-API/vector_compute/asc_repeat_reduce_sum.md (vcadd on A2/A3),
        C-API/reg/reduce_compute/asc_reduce_sum.md (Ascend 950's Reg::Reduce): inside one
        repeat the lanes are summed as a binary tree of neighbours: lane 2i with lane 2i + 1,
        then those sums pairwise again, until one value is left. ReduceRepeat.md (WholeReduceSum's
        current name) says WholeReduceSum sums each repeat so.
[sum]   .../归约计算/ReduceSum.md, 关键特性说明: 方式一 ("同一repeat内采用二叉树累加" and "不同
        repeat的结果按顺序累加") is the count form (`ReduceSum(dst, src, work, count)`) on A2/A3;
        Ascend 950 uses 方式二 (the repeats' sums summed as a tree again) or, for 256 to 1024
        bytes, 方式三 (repeats first added lane by lane into one repeat, then its tree).
[c220]  impl/basic_api/dav_c220/kernel_operator_vec_reduce_impl.h, ReduceSumImpl(dst, src, count):
        one vcadd in counter mode with its accumulate flag set, then get_acc_val: the repeats'
        tree sums accumulated in order (方式一), so sum = ((s0 + s1) + s2) + ...
[3510]  impl/basic_api/dav_3510/kernel_operator_vec_reduce_impl.h: ReduceSumCounterMode picks
        a shape by count (L lanes a repeat): count <= L: one tree; <= 2L, 3L, 4L: the repeats
        added lane by lane (Reg::Add, the last repeat's lanes past count left out by a MERGING
        mask), then one tree over L lanes; <= L * L: a tree per repeat, then one tree over their
        ceil(count / L) sums; beyond: three levels. ReduceNoIndexTemplate (ReduceMax / ReduceMin
        without an index) keeps a running lane-by-lane Max / Min over the repeats, started from
        the lowest (highest) finite value of T (GetMinValue: half 0xFBFF, float 0xFF7FFFFF), then
        reduces its L lanes as a tree: so an all -inf row gives -65504 (half) or -FLT_MAX.
[c220m] the same dav_c220 file, ReduceImplNoIndex and ReduceTailCompute: ReduceMax / ReduceMin
        reduce every repeat with vcmax / vcmin, the repeats' results in trees again, the tail
        repeat apart, then the body's and the tail's result; every step keeps element order.

Assumed where the documents leave it open (and the same in the C++ CPU model,
hswc/checker/ascendc_cpu/ascendc_cpu_vec_reduce.h, written from this description):
- a lane the mask (or count) leaves out takes no part: a pair with one such lane passes the
  other on unchanged (not `x + 0`, which would turn a -0 into +0); a tree with no lane at all
  has no value (the calls refuse that case or document it);
- every step rounds once in T to nearest even, subnormals kept, IEEE inf and NaN, as the
  level-2 Add; half overflows to inf ("half数据类型默认是寄存器非饱和模式", ReduceDataBlock.md:
  the saturating mode that would give 65504 is not the default and not modelled);
- Max / Min are IEEE 754-2019 maximum / minimum as the level-2 Max / Min (NaN wins, the first
  operand's when both are; -0 < +0). Their result does not depend on the grouping except for
  which NaN comes out, which the structure below fixes;
- the A2/A3 accumulation starts from the first repeat's sum (not from +0).

`combine(a, b)` is the lane operation, elementwise over numpy arrays of T (the interpreter
passes its Add / Max / Min: hswc.interpreter.ascendc_arith), with `a` the first operand.
Arrays are batched: the last axis holds the elements, leading axes are independent rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np

from hswc.platform import MAX_REPEAT_TIMES, VECTOR_REPEAT_BYTES

Combine = Callable[[np.ndarray, np.ndarray], np.ndarray]
KINDS: Final = ("sum", "max", "min")
FAMILIES: Final = ("dav_c220", "dav_3510")


def lanes(dtype: np.dtype) -> int:
    """Lanes of one 256-byte repeat of `dtype` (64 float, 128 half)."""
    return VECTOR_REPEAT_BYTES // dtype.itemsize


def tree(values: np.ndarray, present: np.ndarray, combine: Combine) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """The neighbour tree [tree] over the last axis (a power of two long): (result, whether any
    lane was present), the leading axes kept. `present` says which lanes take part (it
    broadcasts against `values`); a pair with one lane present passes it on unchanged."""
    present = np.broadcast_to(present, values.shape)
    with np.errstate(all="ignore"):
        while values.shape[-1] > 1:
            a, b = values[..., 0::2], values[..., 1::2]
            pa, pb = present[..., 0::2], present[..., 1::2]
            both = np.asarray(combine(a, b))
            values = np.where(pa & pb, both, np.where(pa, a, b))
            present = pa | pb
    return values[..., 0], present[..., 0]


def repeat_trees(src: np.ndarray, count: int, width: int, combine: Combine) -> np.ndarray:
    """The tree of each `width`-lane repeat of src[..., :count] (the last one partial): shape
    (..., ceil(count / width))."""
    repeats = -(-count // width)
    padded = np.zeros((*src.shape[:-1], repeats * width), dtype=src.dtype)
    padded[..., :count] = src[..., :count]
    on = np.arange(repeats * width) < count
    values, _ = tree(padded.reshape(*src.shape[:-1], repeats, width),
                     on.reshape(repeats, width), combine)
    return values


def _fold(values: np.ndarray, combine: Combine) -> np.ndarray:
    """((v0 op v1) op v2) op ... over the last axis."""
    acc = values[..., 0]
    with np.errstate(all="ignore"):
        for i in range(1, values.shape[-1]):
            acc = np.asarray(combine(acc, values[..., i]))
    return acc


def _masked_add(acc: np.ndarray, more: np.ndarray, enabled: int, combine: Combine) -> np.ndarray:
    """Reg::Add with a MERGING mask of the first `enabled` lanes: those get acc + more, the
    others keep acc."""
    out = acc.copy()
    with np.errstate(all="ignore"):
        out[..., :enabled] = combine(acc[..., :enabled], more[..., :enabled])
    return out


def _sum_3510(src: np.ndarray, count: int, combine: Combine) -> np.ndarray:
    """ReduceSumCounterMode's shapes [3510]."""
    width = lanes(src.dtype)
    if count <= width:
        return tree(_pad(src[..., :count], width), np.arange(width) < count, combine)[0]
    if count <= 4 * width:
        n = -(-count // width)
        last = count - (n - 1) * width

        def rep(r: int) -> np.ndarray:
            return src[..., r * width:(r + 1) * width]

        tail = _pad(src[..., (n - 1) * width:count], width)
        with np.errstate(all="ignore"):
            if n == 2:
                acc = _masked_add(rep(0), tail, last, combine)
            elif n == 3:
                acc = _masked_add(np.asarray(combine(rep(0), rep(1))), tail, last, combine)
            else:
                acc = np.asarray(combine(rep(0), rep(1)))
                acc = np.asarray(combine(acc, _masked_add(rep(2), tail, last, combine)))
        return tree(acc, np.ones(width, dtype=bool), combine)[0]
    level = repeat_trees(src, count, width, combine)
    while level.shape[-1] > 1:
        level = repeat_trees(level, level.shape[-1], width, combine)
    return level[..., 0]


def _pad(values: np.ndarray, width: int) -> np.ndarray:
    """values widened to `width` lanes on the last axis (zeros after: lanes left out)."""
    out = np.zeros((*values.shape[:-1], width), dtype=values.dtype)
    out[..., :values.shape[-1]] = values
    return out


LOWEST_FINITE: Final = {np.dtype(np.float16): np.float16(-65504.0),
                        np.dtype(np.float32): np.float32(-3.4028234663852886e38)}
"""GetMinValue<T>() of dav_3510's ReduceMax (0xFBFF, 0xFF7FFFFF); ReduceMin starts from its
negation (0x7BFF, 0x7F7FFFFF)."""


def _extremum_3510(src: np.ndarray, count: int, kind: str, combine: Combine) -> np.ndarray:
    """ReduceNoIndexTemplate [3510]: a running lane-by-lane extremum over the repeats from the
    lowest (highest) finite value, then the tree of all L lanes."""
    width = lanes(src.dtype)
    start = LOWEST_FINITE[src.dtype] if kind == "max" else -LOWEST_FINITE[src.dtype]
    acc = np.full((*src.shape[:-1], width), start, dtype=src.dtype)
    for r in range(-(-count // width)):
        enabled = min(width, count - r * width)
        acc = _masked_add(acc, _pad(src[..., r * width:r * width + enabled], width), enabled,
                          combine)
    return tree(acc, np.ones(width, dtype=bool), combine)[0]


def _extremum_c220(src: np.ndarray, count: int, combine: Combine) -> np.ndarray:
    """ReduceImplNoIndex and ReduceTailCompute [c220m]: the body's whole repeats (or the only,
    partial one) as a tree of repeat trees, then the tail repeat, then the two."""
    width = lanes(src.dtype)
    body = count if count < width else count // width * width
    level = repeat_trees(src, body, width, combine)
    while level.shape[-1] > 1:
        level = repeat_trees(level, level.shape[-1], width // 2, combine)
    if body == count:
        return level[..., 0]
    tail = repeat_trees(src[..., body:count], count - body, width, combine)
    with np.errstate(all="ignore"):
        return np.asarray(combine(level[..., 0], tail[..., 0]))


def reduce_count(src: np.ndarray, count: int, kind: str, family: str,
                 combine: Combine) -> np.ndarray:
    """ReduceSum / ReduceMax / ReduceMin(dst, src, work, count) of each row of src[..., :count]
    on a SoC family (dav_c220: Atlas A2/A3; dav_3510: Ascend 950): shape src.shape[:-1].
    count >= 1 (the calls treat 0 apart)."""
    if kind not in KINDS:
        raise ValueError(f"unknown reduction {kind!r} (known: {', '.join(KINDS)})")
    if count < 1 or count > src.shape[-1]:
        raise ValueError(f"count {count} outside [1, {src.shape[-1]}]")
    if family not in FAMILIES:
        raise ValueError(f"unknown SoC family {family!r} (known: {', '.join(FAMILIES)})")
    if kind == "sum":
        if family == "dav_c220":
            return _fold(repeat_trees(src, count, lanes(src.dtype), combine), combine)
        return _sum_3510(src, count, combine)
    if family == "dav_3510":
        return _extremum_3510(src, count, kind, combine)
    return _extremum_c220(src, count, combine)


def whole_repeats(lanes_of_repeats: np.ndarray, mask: int, combine: Combine) -> np.ndarray:
    """WholeReduceSum / Max / Min with a continuous mask: the tree of the first `mask` lanes of
    each repeat. `lanes_of_repeats` holds the repeats' lanes on its last axis (L of them, as
    the strides gathered them); mask in [1, L]."""
    width = lanes_of_repeats.shape[-1]
    if not 1 <= mask <= width:
        raise ValueError(f"mask {mask} outside [1, {width}]")
    return tree(lanes_of_repeats, np.arange(width) < mask, combine)[0]


Pass = tuple[int, int]
"""(instructions, repeats) of one step of a call."""


def vector_passes(count: int, kind: str, family: str, lane_bytes: int) -> tuple[list[Pass], int]:
    """(the vector steps, the scalar round trips) of the count form, as the implementations
    above run it, for the cost model: each step's issued instructions and 256-byte repeats, and
    how many times the call waits for the vector pipe to drain so the scalar unit can read a
    result (SetFlag / WaitFlag<V_S>). Atlas A2/A3: ReduceSum is one vcadd in counter mode over
    every repeat, then one V_S wait; ReduceMax / ReduceMin a vcmax per level (the first level
    255 repeats an instruction) and one wait, a tail repeat two steps and two waits more.
    Ascend 950: one VF pass over the data and one tree (count <= 4L), or one pass per level;
    ReduceSum on half / float then waits once to keep the result (dav_3510 ReduceSumImpl)."""
    width = VECTOR_REPEAT_BYTES // lane_bytes
    repeats = -(-count // width)
    if family == "dav_3510":
        if count <= width:
            steps = [(1, 1)]
        elif kind != "sum" or count <= 4 * width:
            steps = [(1, repeats), (1, 1)]
        else:
            steps = [(1, repeats)]
            while steps[-1][1] > 1:
                steps.append((1, -(-steps[-1][1] // width)))
        return steps, 1 if kind == "sum" else 0
    if kind == "sum":
        return [(1, repeats)], 1
    body = max(1, count // width)
    steps = [(-(-body // MAX_REPEAT_TIMES), body)]
    values = body
    while values > 1:
        values = -(-values // (width // 2))
        steps.append((1, values))
    tail = count > width and count % width != 0
    return steps + ([(1, 1), (1, 1)] if tail else []), 3 if tail else 1
