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

Lanes (hswc.rows: a reduction over a dim that is not the innermost, softmax over dim 0): a row
of `runs` runs of `lanes` values combines each lane apart by the same fold tree over whole runs,
and keeps the first run's lanes (reduce_lanes): no WholeReduce, the lanes being the result.
More runs than a chunk holds are combined in segments of whole runs (the last one shorter), each
segment's lanes so, then combined in order into an accumulator of one f32 value per lane that
starts at the identity, as a row in segments does above (a level-2 call over the lanes).

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

Compensated (`compensated_sum`): a sum whose terms may have either sign and which is not a mean
(hsg.reduce `signed`, set by hswc.row_regions.row_body where nonnegative cannot show every term
>= 0 and averaged does not find the sum only divided by the row length) in a row one a chunk
(hswc.rows `one_per_chunk`: rows of thousands of elements, and every row in segments;
hswc.dialects.hsg_rows.compensated) is summed as a pair (hi, lo) per lane. Of the named ops,
softmax_grad's sum(grad_output * y) and log_softmax_grad's sum(grad_output) are; softmax's sums
of exp, rms_norm's of squares and LayerNorm's mean and variance keep the plain tree (their bits
and cost unchanged). Why: the tree's error is bounded by about log2(length) * eps * sum|x| (each
fold level adds a rounding of every partial: Higham, Accuracy and Stability of Numerical
Algorithms, section 4.2), so a sum that cancels (|sum x| much below sum|x|) loses its low
digits: log_softmax_grad's sum of grad_output over rows of 12,345 normal values, 7.3 against a
sum|x| of 9,850, came out 2.0e-5 off, which exp(output) magnified past PyTorch's tolerance. A
sum of terms >= 0 (softmax's exp, a norm's squares) has sum|x| = |sum x|: its relative error is
already that bound's (about 14 eps), so it keeps the plain tree and its cost; so does a mean,
whose error is that bound divided by the length, about the rounding of one term. Rows of several
a chunk (at most about 2,000 f32 elements) keep it too: the bound is smaller there, and the lane
stage below would cost a spread per row. The compensated order is the same fold tree, each fold
an error-free TwoSum (Knuth's; Ogita, Rump and Oishi, "Accurate sum and dot product", SIAM J.
Sci. Comput. 26(6), 2005, whose Sum2 is this in sequential order): s = a + b, z = s - a, e = (a
- (s - z)) + (b - z), so a + b = s + e exactly where s is finite; hi takes s, lo the folded lo's
plus e (lo_dst + lo_src, then + e; lo starts at -0.0). After the group folds, lane 0's group is
spread a lane a 32-byte block (Brcb: the UB's level-0 calls need 32-byte aligned operands, so
lanes cannot be folded in place) and its first min(length, lanes) lanes folded so, as groups of
one lane (`fold_plan(count, 1)`). The row's value is hi + lo rounded once, or hi itself where hi
is not finite (an infinity or NaN: e is NaN there, hi is already the plain sum's answer). Its
error is at most about eps |sum x| + (log2(length) eps)^2 sum|x| (their bound for Sum2 has n - 1
where the tree's depth stands here). In segments the accumulator is a pair too: each segment's
(hi, lo) is added by TwoSum into (acc_hi, acc_lo) (acc_hi + hi, its error and the segment's lo
added to acc_lo: acc_lo + lo, then + e), and the row's value is acc_hi + acc_lo, as above. The
steps are TWO_SUM_STEPS, run by the interpreter here and emitted call for call by
hswc.vectorizer.row_emit, so the levels and the C++ CPU model agree bit for bit. The extra
vector work (9 calls per fold level where the plain tree has 1, two Brcb, the lane folds,
CompareScalar and Select) is in the cost model, being calls the kernel makes, and its buffers
(half a row of f32 three times, 6 KiB of lanes, Select's temporary space) in the UB plan
(hswc.vectorizer.plan.Compensation).
A run-time row length (hswc.rows `dynamic`) is combined as a row of whole segments: the row's
values padded with the combiner's identity to a multiple of the segment (`padded`; the kernel
writes the identity over its last segment's lanes past the row), then in segments as above.
The identity changes no partial it meets (x + -0.0 is x, -0.0 included; maximumf(x, -inf) is
x), so the padding changes the tree's shape only, and the order is a function of the length.
Strided runs that are not whole 32-byte blocks (hswc.rows `padded_run` P: a sum over N, H and W
of 7 x 7 maps) are combined alike: each run padded with the identity to P values
(`padded_runs`), the row of runs x P values then combined as above; the kernel lays its runs so
in UB and writes the identity over each run's padding in the reduction's source.
A reduction over leading dims split in two kernels (hswc.passes.row_split) is combined in two
stages, each as above: every piece of a row is a row of the first kernel, combined into one f32
partial, and a row's partials are then a row of the second. Pieces of each run (runs of whole
blocks): the row's `parts` partials are contiguous, combined as a row of `parts` values. Pieces
of whole runs (padded runs, and rows of lanes): piece p of channel c is runs [p * N / parts,
+N / parts), each padded to P as above; the partials are a [parts, C] workspace whose column
c is combined as a row of lanes of `parts` runs (reduce_lanes: the fold tree over whole runs,
lane by lane). The f32 result is rounded to the output's type once, after the second stage.
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


def padded(values: np.ndarray, combiner: str, segment: int) -> np.ndarray:
    """Each row (the last axis) of f32 `values` padded with the combiner's identity to a
    multiple of `segment` values, at least one (module docstring: a run-time row length)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float32)
    length = values.shape[-1]
    whole = max(1, -(-length // segment)) * segment
    out = np.full((*values.shape[:-1], whole), IDENTITY[combiner], dtype=np.float32)
    out[..., :length] = values
    return out


def padded_runs(values: np.ndarray, combiner: str, runs: int, padded_run: int) -> np.ndarray:
    """Each row (the last axis) of f32 `values`, `runs` runs of equal length, with each run
    padded with the combiner's identity to `padded_run` values (module docstring: strided
    runs)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float32)
    run = values.shape[-1] // runs
    out = np.full((*values.shape[:-1], runs, padded_run), IDENTITY[combiner], dtype=np.float32)
    out[..., :run] = values.reshape(*values.shape[:-1], runs, run)
    return out.reshape(*values.shape[:-1], runs * padded_run)


def online_sum(a: np.ndarray, b: np.ndarray, segment: int, pad: bool = False) -> np.ndarray:
    """The online sum of exp(b - max(a)) of each row of f32 `a` and `b` (module docstring);
    where `pad`, in whole segments: a padded with -inf, the sum's terms past the row with
    -0.0 (a run-time row length)."""
    import numpy as np

    from hswc import arith_semantics as sem
    from hswc.math_semantics import exp

    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    length = a.shape[-1]
    if pad:
        a, b = padded(a, "maximumf", segment), padded(b, "maximumf", segment)
    shape = a.shape[:-1]
    running = np.full(shape, IDENTITY["maximumf"], dtype=np.float32)
    clamp = np.full(shape, LOWEST, dtype=np.float32)
    total = np.full(shape, IDENTITY["addf"], dtype=np.float32)
    with np.errstate(all="ignore"):
        for start in range(0, a.shape[-1], segment):
            part = reduce_rows(a[..., start:start + segment], "maximumf")
            running = combine("maximumf", running, part)
            now = combine("maximumf", running, np.full(shape, LOWEST, dtype=np.float32))
            terms = np.array(exp(sem.binary("arith.subf", b[..., start:start + segment],
                                            now[..., None])), dtype=np.float32)
            terms[..., max(0, length - start):] = IDENTITY["addf"]
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


TWO_SUM_STEPS: tuple[tuple[str, str, str, str | None], ...] = (
    ("copy", "t1", "a", None),
    ("addf", "a", "a", "b"),
    ("subf", "t2", "a", "t1"),
    ("subf", "b", "b", "t2"),
    ("subf", "t2", "a", "t2"),
    ("subf", "t1", "t1", "t2"),
    ("addf", "t1", "t1", "b"),
    ("addf", "a_lo", "a_lo", "b_lo"),
    ("addf", "a_lo", "a_lo", "t1"),
)
"""One compensated addition of (b, b_lo) into (a, a_lo), as the kernel's calls make it (dst,
src0, src1; `copy` a copy, each other step rounded once in f32), over two temporaries: t1 = a;
a = s = a + b; t2 = z = s - a; b = b - z; t2 = s - z; t1 = a - (s - z); t1 = e = t1 + b;
a_lo = (a_lo + b_lo) + e (module docstring: TwoSum). The one definition of the order the
interpreter and the row emitter follow."""


def two_sum_steps(slots: dict[str, np.ndarray]) -> None:
    """TWO_SUM_STEPS run on numpy f32 arrays `a`, `b`, `a_lo`, `b_lo` (updated in place; t1
    and t2 made here)."""
    import numpy as np

    for kind, dst, x, y in TWO_SUM_STEPS:
        value = slots[x].copy() if y is None else combine(kind, slots[x], slots[y])
        if dst in slots and slots[dst].ndim:
            slots[dst][...] = value
        else:
            slots[dst] = np.asarray(value, dtype=np.float32)


def _compensated_fold(hi: np.ndarray, lo: np.ndarray, fold: Fold) -> None:
    """One fold of the compensated tree, in place on (hi, lo) of shape (..., groups, lanes)."""
    n = fold.lanes
    slots = {"a": hi[..., fold.dst, :n].copy(), "b": hi[..., fold.src, :n].copy(),
             "a_lo": lo[..., fold.dst, :n].copy(), "b_lo": lo[..., fold.src, :n]}
    two_sum_steps(slots)
    hi[..., fold.dst, :n] = slots["a"]
    hi[..., fold.src, :n] = slots["b"]
    lo[..., fold.dst, :n] = slots["a_lo"]


def compensated_parts(values: np.ndarray, lanes: int = LANES_F32
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(hi, lo) of each row of f32 `values` (not empty): the compensated fold tree over its
    groups, then over lane 0's group's valid lanes one a block (module docstring)."""
    import numpy as np

    length = values.shape[-1]
    groups = -(-length // lanes)
    hi = np.zeros((*values.shape[:-1], groups * lanes), dtype=np.float32)
    hi[..., :length] = values
    hi = hi.reshape(*values.shape[:-1], groups, lanes)
    lo = np.full(hi.shape, IDENTITY["addf"], dtype=np.float32)
    with np.errstate(all="ignore"):
        for level in fold_plan(length, lanes):
            for fold in level:
                _compensated_fold(hi, lo, fold)
        count = min(length, lanes)
        hi, lo = hi[..., 0, :count, None].copy(), lo[..., 0, :count, None].copy()
        for level in fold_plan(count, 1):
            for fold in level:
                _compensated_fold(hi, lo, fold)
    return hi[..., 0, 0], lo[..., 0, 0]


def compensated_value(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """hi + lo rounded once, hi where hi is not finite (module docstring)."""
    import numpy as np

    with np.errstate(all="ignore"):
        return np.where(np.isfinite(hi), combine("addf", hi, lo), hi).astype(np.float32)


def compensated_sum(values: np.ndarray, segment: int | None = None) -> np.ndarray:
    """Each row's compensated sum: whole, or in segments whose (hi, lo) a pair accumulator
    adds by TwoSum (module docstring)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float32)
    length = values.shape[-1]
    if segment is None or length <= segment:
        return compensated_value(*compensated_parts(values))
    acc_hi = np.full(values.shape[:-1], IDENTITY["addf"], dtype=np.float32)
    acc_lo = acc_hi.copy()
    with np.errstate(all="ignore"):
        for start in range(0, length, segment):
            hi, lo = compensated_parts(values[..., start:start + segment])
            slots = {"a": acc_hi, "b": hi, "a_lo": acc_lo, "b_lo": lo}
            two_sum_steps(slots)
            acc_hi, acc_lo = slots["a"], slots["a_lo"]
    return compensated_value(acc_hi, acc_lo)


def reduce_rows(values: np.ndarray, combiner: str, lanes: int = LANES_F32,
                segment: int | None = None, compensated: bool = False) -> np.ndarray:
    """Each row (the last axis) of f32 `values` combined in the kernel's order: whole, or in
    segments of `segment` values whose results an accumulator combines in order; a sum
    `compensated` in the compensated order (module docstring)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float32)
    length = values.shape[-1]
    if length == 0:
        raise ValueError("a row of no elements has no combined value")
    if compensated:
        assert combiner == "addf" and lanes == LANES_F32
        return compensated_sum(values, segment)
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


def reduce_lanes(values: np.ndarray, combiner: str, segment: int | None = None
                 ) -> np.ndarray:
    """Each row's lanes combined apart (hswc.rows: Lanes): f32 `values` of shape
    (..., runs, lanes) folded over the runs axis by fold_plan's tree, whole runs at a time (run
    g + keep into run g, level by level, until run 0 is left: what a row kernel's level-0 folds
    over a row of `runs` repeats do, with no WholeReduce after them); shape (..., lanes). With
    `segment` runs fewer than the row's, in segments of that many runs whose lanes an
    accumulator combines in order (module docstring: Lanes)."""
    import numpy as np

    work = np.array(values, dtype=np.float32)
    runs, lanes = work.shape[-2:]
    if runs == 0:
        raise ValueError("a row of no elements has no combined value")
    if segment is not None and runs > segment:
        accumulator = np.full((*work.shape[:-2], lanes), IDENTITY[combiner], dtype=np.float32)
        with np.errstate(all="ignore"):
            for start in range(0, runs, segment):
                part = reduce_lanes(work[..., start:start + segment, :], combiner)
                accumulator = combine(combiner, accumulator, part)
        return accumulator
    with np.errstate(all="ignore"):
        for level in fold_plan(runs * lanes, lanes):
            for fold in level:
                work[..., fold.dst, :] = combine(combiner, work[..., fold.dst, :],
                                                 work[..., fold.src, :])
    return work[..., 0, :]


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
