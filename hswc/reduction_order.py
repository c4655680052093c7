"""The order a row kernel combines a row's values in: one definition for the kernel's calls
(hswc.vectorizer, the row emitter) and for the levels above it (the interpreter of hsg.reduce).

A row of `length` f32 values lies in UB as groups of `lanes` (one vector repeat, 64 f32): group
g holds values [g * lanes, (g + 1) * lanes), the last one possibly partial. The kernel folds the
upper half of the groups into the lower half (group g + keep into g, lane by lane, only the
source group's valid lanes: a level-0 Add / Max / Min with that mask), level by level, until one
group is left; then a WholeReduceSum / Max / Min combines that group's first min(length, lanes)
lanes into the row's value, in the one order hswc.reduce_semantics defines for it (asc-devkit
ReduceDataBlock.md and ReduceRepeat.md, 关键特性说明: "二叉树累加", the neighbour tree: lane 2i
with lane 2i + 1, level by level; a lane the mask leaves out takes no part). Every fold after
the first combines full groups (the partial last group is always folded first). Sums in another
order than MLIR's sequential loop differ in the last bits; the issue allows that for reductions
(within PyTorch's tolerance).

A row longer than a chunk holds (hswc.rows: `segment`) is combined so in each segment of
`segment` values (the last one shorter); the segments' values are then combined in order into an
f32 accumulator that starts at the combiner's identity (IDENTITY: -0.0 for the sum, so that
-0.0 + x is x for every x, -0.0 included; -inf for the maximum, +inf for the minimum): what the
kernel's per-row accumulator does across its passes over the row. For a 60,000-element f32 sum
that is a tree of about 12 levels within each segment and a handful of sequential additions,
where MLIR's sequential loop adds 60,000 times (bench/README.md, the bench_rows section).

Online (hswc.rows `online`): softmax's sum s = sum(exp(b - m)) of a row whose maximum m = max(a)
is found in the same pass. Per segment k, in order: the running maximum m_k = maximumf(m_{k-1},
the segment's maximum) (m_0 = -inf, as above), its clamp c_k = maximumf(m_k, LOWEST) (so that a
row whose first segments are all -inf subtracts a finite value: exp(-inf - c) = 0, not NaN), the
segment's sum s'_k of exp(b - c_k) in the tree order, and s_k = s_{k-1} * exp(c_{k-1} - c_k) +
s'_k (s_0 = -0.0; each step rounded once in f32). Where m is finite, s is the sum of
exp(b - m) up to those roundings; the later passes read m itself.

Tree of WholeReduces (tree_levels): a row (or segment) whose length is a multiple of the lanes,
more than one repeat long, and whose count of values stays a multiple of the lanes at every
level until at most one repeat is left (1024 f32: 1024 -> 16; 8192: 8192 -> 128 -> 2) is
combined without folds: each group of `lanes` values by WholeReduce's neighbour tree, the
groups' values, in order, form the next level's row, down to one WholeReduce of the last
level's at most `lanes` values (the mask that count). A kernel reduces a whole chunk's rows so
in one WholeReduce call per level, its repeats across the rows' groups (ReduceRepeat.md:
repeatTime, srcRepStride in 32-byte blocks, dstRepStride in elements for SUM and for
ORDER_ONLY_VALUE; 关键特性说明: each repeat by the binary tree of ReduceDataBlock.md), where the
fold tree above takes a call per fold and repeat row. Every other length keeps the fold tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hswc.platform import VECTOR_REPEAT_BYTES

if TYPE_CHECKING:  # numpy only where values are combined: the lowering reads fold_plan alone
    import numpy as np

LANES_F32 = VECTOR_REPEAT_BYTES // 4
"""f32 values in one 256-byte vector repeat (64; hswc.reduce_semantics.lanes of f32)."""

def combine(combiner: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two f32 values combined as the body's arith op does (hswc.arith_semantics: addf rounded
    once, maximumf / minimumf with NaN winning and +0.0 above -0.0)."""
    import numpy as np

    from hswc import arith_semantics as sem

    return np.asarray(sem.binary(f"arith.{combiner}", a, b), dtype=np.float32)


IDENTITY: dict[str, float] = {"addf": -0.0, "maximumf": float("-inf"),
                              "minimumf": float("inf")}
"""The value a row's accumulator starts at, per combiner: combining it with x gives x."""


LOWEST = -3.4028234663852886e38
"""The lowest finite f32: the clamp of the online sum's running maximum."""


def online_sum(a: np.ndarray, b: np.ndarray, segment: int) -> np.ndarray:
    """The online sum of exp(b - max(a)) of each row of f32 `a` and `b` (module docstring)."""
    import numpy as np

    from hswc import arith_semantics as sem
    from hswc.math_semantics import exp

    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    shape = a.shape[:-1]
    running = np.full(shape, IDENTITY["maximumf"], dtype=np.float32)
    clamp = np.full(shape, LOWEST, dtype=np.float32)
    total = np.full(shape, IDENTITY["addf"], dtype=np.float32)
    with np.errstate(all="ignore"):
        for start in range(0, a.shape[-1], segment):
            part = reduce_rows(a[..., start:start + segment], "maximumf")
            running = combine("maximumf", running, part)
            now = combine("maximumf", running, np.full(shape, LOWEST, dtype=np.float32))
            terms = exp(sem.binary("arith.subf", b[..., start:start + segment], now[..., None]))
            partial = reduce_rows(np.asarray(terms, dtype=np.float32), "addf")
            scale = exp(sem.binary("arith.subf", clamp, now))
            total = combine("addf", np.asarray(sem.binary("arith.mulf", total, scale),
                                                dtype=np.float32), partial)
            clamp = now
    return total


@dataclass(frozen=True)
class Fold:
    """Group `src` folded into group `dst` over its first `lanes` lanes."""

    dst: int
    src: int
    lanes: int


def fold_plan(length: int, lanes: int = LANES_F32) -> list[list[Fold]]:
    """The folds of each level, in order (module docstring)."""
    groups = -(-length // lanes)
    levels: list[list[Fold]] = []
    while groups > 1:
        keep = (groups + 1) // 2
        levels.append([Fold(g, g + keep, min(lanes, length - (g + keep) * lanes))
                       for g in range(groups - keep)])
        groups = keep
    return levels


def whole_reduce(values: np.ndarray, combiner: str) -> np.ndarray:
    """WholeReduce of one repeat per row: the valid lanes (the last axis, at most `lanes`)
    combined by hswc.reduce_semantics' neighbour tree, the one definition of that order."""
    import numpy as np

    from hswc.reduce_semantics import whole_repeats

    count = values.shape[-1]
    padded = np.zeros((*values.shape[:-1], LANES_F32), dtype=np.float32)
    padded[..., :count] = values
    return whole_repeats(padded, count, lambda a, b: combine(combiner, a, b))


def reduce_rows(values: np.ndarray, combiner: str, lanes: int = LANES_F32,
                segment: int | None = None) -> np.ndarray:
    """Each row (the last axis) of f32 `values` combined in the kernel's order: whole, or in
    segments of `segment` values whose results an accumulator combines in order (module
    docstring)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float32)
    length = values.shape[-1]
    if length == 0:
        raise ValueError("a row of no elements has no combined value")
    if (segment is None or length <= segment) and tree_levels(length, lanes) is not None:
        return tree_reduce(values, combiner, lanes)
    if segment is not None and length > segment:
        accumulator = np.full(values.shape[:-1], IDENTITY[combiner], dtype=np.float32)
        with np.errstate(all="ignore"):
            for start in range(0, length, segment):
                part = reduce_rows(values[..., start:start + segment], combiner, lanes)
                accumulator = combine(combiner, accumulator, part)
        return accumulator
    groups = -(-length // lanes)
    padded = np.zeros((*values.shape[:-1], groups * lanes), dtype=np.float32)
    padded[..., :length] = values
    work = padded.reshape(*values.shape[:-1], groups, lanes).copy()
    with np.errstate(all="ignore"):
        for level in fold_plan(length, lanes):
            for fold in level:
                n = fold.lanes
                work[..., fold.dst, :n] = combine(combiner, work[..., fold.dst, :n],
                                                  work[..., fold.src, :n])
        return whole_reduce(work[..., 0, :min(length, lanes)], combiner)


def tree_levels(length: int, lanes: int = LANES_F32) -> list[int] | None:
    """The values of a row at each level of its tree of WholeReduces, the last one at most
    `lanes` (module docstring: 1024 -> [1024, 16]); None where the row keeps the fold tree."""
    if length <= lanes or length % lanes:
        return None
    counts = [length]
    while counts[-1] > lanes:
        if counts[-1] % lanes:
            return None
        counts.append(counts[-1] // lanes)
    return counts


def tree_reduce(values: np.ndarray, combiner: str, lanes: int = LANES_F32) -> np.ndarray:
    """Each row (the last axis) of f32 `values` combined by its tree of WholeReduces (module
    docstring; tree_levels must give the row's levels)."""
    import numpy as np

    counts = tree_levels(values.shape[-1], lanes)
    assert counts is not None, values.shape
    work = np.asarray(values, dtype=np.float32)
    with np.errstate(all="ignore"):
        for count in counts[:-1]:
            groups = work.reshape(*work.shape[:-1], count // lanes, lanes)
            work = whole_reduce(groups, combiner)
        return whole_reduce(work, combiner)
