"""The branches of a row kernel of a run-time row length (hswc.rows `dynamic`), and the host's
pick among them by that length (issue 36: short rows).

A run-time row length n is worked, in the kernel hswc.passes.row_kernels.dynamic_plan plans,
one row a chunk in segments of S elements, every pass over the row reading it from GM again
and every call working on all S lanes: rows far shorter than S pay for S lanes, and rows of a
few thousand elements are read once per reduction and once more for the outputs. So the kernel
is compiled as a few branches, and the host's tiling picks one from n (its variants chosen by
the row length: hswc.tiling.tiling_formula's `row_length`, a tiling key each, as ops-nn's
kernels pick a compiled branch by TILING_KEY / ASCENDC_TPL_SEL_PARAM):
- whole rows of at most W elements, W in WHOLE_LENGTHS below the top and the top, the
  longest SEGMENT_ALIGN * 2^k a chunk holds (whole_lengths): each row read once, its calls
  on W lanes, each reduction's source padded from n to W with the combiner's identity
  (hswc.rows: a dynamic row without a segment); several rows a chunk where a chunk of them
  fits and lowers, as a static kernel of rows of W (their copies a run-time UB stride apart,
  every row's tail padded at once: hswc.vectorizer.row_emit), else one; the tiling bounds
  each branch's chunk by its own plan (hswc.tiling `most` per variant); the smallest W >= n
  is taken;
- the segmented kernel for rows longer than the longest W.

Each row's order of combination: in a whole branch, the tree of WholeReduces of W values
(every W is 64 * 2^k: hswc.reduction_order.tree_levels), the row's n then the identity
(hswc.reduction_order.padded with W, then reduce_rows of one segment-less row). At n <= min(W,
S) that is the segmented kernel's order too (its one padded segment's tree over S = 4096
values, whose lanes past W are the identity, so every WholeReduce past them gives its other
operand's bits; then the segment's value combined with the accumulator's identity), and every
other whole branch's that holds n, bit for bit, but for the compensated sum (hsg.reduce
`signed`) of a row whose sum is -0.0, which the segmented kernel's accumulator makes +0.0, and
for softmax's online sum of a row of -inf only (whose result is NaN in both). Where S < n <= W
(the top branch, above S), the segmented kernel would combine several segments in order where
the whole branch combines one tree: the results differ in the last bits, each within the op's
tolerance (docs/accuracy.md).

A branch's kernel refuses a row longer than it holds (hswc.rows.Rows.at_length: the
interpreter's located error); the host's tiling never picks it for one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import scf
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.index_arith import IRArith
from hswc.kernel_dtypes import output_dtype
from hswc.tiling import Variant, template_tiling_key
from hswc.vectorizer.plan import KernelPlan

WHOLE_LENGTHS = (64, 1024)
"""The whole-row branches' lengths W below the longest whole row a chunk holds (assumed, not
a choice: a row pays for the lanes of the smallest W that holds it, so the steps bound that
padding; each is one more compiled kernel)."""


@dataclass(frozen=True)
class Branch:
    """One compiled branch: its plan, the rows it takes and its kernel's name suffix."""

    plan: KernelPlan
    above: int | None
    """Rows longer than this take it (the previous branch's W); None: the first."""
    suffix: str


def whole_lengths(longest: int, align: int) -> list[int]:
    """The whole branches' W: WHOLE_LENGTHS below the top, then the top: the longest
    `align` * 2^k a chunk holds (`longest`: the longest whole row it holds), so that every W
    is reduced by a tree of WholeReduces (hswc.reduction_order.tree_levels) and a row takes
    the same bits in each branch that holds it (module docstring); none where not even
    `align` fits."""
    if longest < align:
        return []
    top = align
    while top * 2 <= longest:
        top *= 2
    return [w for w in WHOLE_LENGTHS if w < top] + [top]


def branches(segmented: KernelPlan, whole: Callable[[int], KernelPlan | None],
             lengths: Sequence[int]) -> list[Branch]:
    """The branches: a whole one for each of `lengths` that `whole` plans (None: it does not
    fit or lower), then the segmented kernel for longer rows; the segmented kernel alone where
    no whole one is planned."""
    made: list[Branch] = []
    above: int | None = None
    for w in lengths:
        plan = whole(w)
        if plan is None:
            continue
        made.append(Branch(plan, above, f"_w{w}"))
        above = w
    if not made:
        return [Branch(segmented, None, "")]
    assert segmented.rows is not None and segmented.rows.segment is not None
    return [*made, Branch(segmented, above, f"_seg{segmented.rows.segment}")]


def variants(made: Sequence[Branch], dtype: str) -> tuple[Variant, ...]:
    """The tiling's variants of the branches, each keyed ASCENDC_TPL_SEL_PARAM-style (the
    dtype its kernel writes, the branch's index above it: hswc.tiling.template_tiling_key)."""
    return tuple(Variant(b.plan.ub_plan(), template_tiling_key(output_dtype(dtype), i), b.above)
                 for i, b in enumerate(made))


def keyed_launch(builder: Builder, kernels: Sequence[tuple[int, str]], key: SSAValue,
                 launch: Callable[[Builder, str], list[SSAValue]],
                 types: Sequence[Attribute]) -> list[SSAValue]:
    """The launch of the kernel whose key the tiling returned (`key`): an scf.if on each
    kernel's key but the last, which runs when no other matches; `launch` builds one kernel's
    launch and gives its results (of `types`)."""
    (first_key, first), *others = kernels
    if not others:
        return launch(builder, first)
    a = IRArith(builder.insertion_point)
    matches = a.name_bool(a.eq(key, a.const(first_key)), f"use_{first.rpartition('_')[2]}")
    then_block, else_block = Block(), Block()
    for block, chosen in ((then_block, [(first_key, first)]), (else_block, others)):
        inner = Builder(InsertPoint.at_end(block))
        inner.insert(scf.YieldOp(*keyed_launch(inner, chosen, key, launch, types)))
    branch = builder.insert(scf.IfOp(matches, list(types), Region(then_block),
                                     Region(else_block)))
    return list(branch.results)
