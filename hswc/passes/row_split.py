"""A reduction over leading dims with too few rows for the cores, as two row kernels.

A sum over N, H and W keeping C (hswc.rows: C rows, each `runs` = N runs of `run` = H*W
elements) gives each core one channel at most: with C = 8 on 48 cores, 40 cores idle. Where the
body allows, hsg-tile-on-cores (hswc.passes.row_kernels) splits each run into `parts` pieces
and launches two kernels, one after the other, as ops-nn's two-stage reductions do (a
workspace in GM between two launches: the second kernel reads what the first wrote once the
first launch has completed, which the stream's launch order guarantees):
1. the partial kernel: C * parts rows, row (c, p) the p-th piece of each of channel c's runs
   (`runs` runs of run / parts elements, still `stride` apart: hswc.rows' strided rows), each
   reduced in f32 into a workspace of C * parts f32 values;
2. the combining kernel: C contiguous rows of `parts` partials, reduced again in the kernel's
   fold order (hswc.reduction_order), then whatever the body computes after the reduction.
So every element is combined once in f32 in the partial kernel, and the partials in one fixed
order; the result differs from one kernel's only in the order of combination. An f16 or bf16
reduction (accumulated in f32 and rounded once in one kernel) keeps its partials in f32 (the
partial body widens the reduced value, as the kernel's reduce would) and is rounded to its type
once, after the combining kernel's reduction.

Lanes (hswc.rows: a sum over dim 0 of [R, C] as C / 64 rows of 64 lanes, R runs each): the
runs are cut instead, into `parts` pieces of R / parts whole runs (parts dividing R), so the
partial kernel reduces [parts, R / parts, C] over its middle dim (rows of lanes in parts
groups: Rows.row_start), writing a workspace of [parts, C] f32 partials (64 a row), and the
combining kernel reduces that over dim 0 as rows of lanes again (parts runs,
C apart). A reduction over a middle dim ([A, R, C] over dim 1) is cut alike: [A * parts,
R / parts, C] over dim 1, then [A, parts, C] over dim 1.

Padded runs (hswc.rows `padded_run`: MobileNet's 7 x 7 maps, 49 f32) cannot be cut in pieces of
whole blocks, and a piece of a run would leave each core as many copies as one kernel's (one a
run index): their runs are cut instead, into `parts` pieces of N / parts whole runs (parts
dividing N), so the partial kernel's row p * C + c is runs [p * N / parts, +N / parts) of
channel c (hswc.rows: Grouped rows, one a chunk, its runs copied by one DataCopyPad and padded
in UB as one kernel's are; at least two runs a piece), writing a workspace of
[parts, C] f32 partials, and the combining kernel reduces that over dim 0 as rows of lanes
(parts runs, C apart), as above. Each partial is a row of whole padded runs combined in
hswc.reduction_order's order (padded_runs, then the fold tree), the parts of a channel then
combined in its lane order (reduce_lanes): every level and the C++ model agree bit for bit.

The split applies where the body is `element inputs -> one hsg.reduce -> row work`: the steps
before the reduction read element operands only (a row or column operand there would need
repeating for each piece), and nothing after it reads an element value; the combining kernel
writes every output of the body (several where the region has several results used after it,
each a row value). `split_parts` picks the fewest pieces that give every core a row, each piece
whole 32-byte blocks in every element operand's type and at most one DataCopyPad block; none (1)
where the rows already fill the cores or no piece size fits. Where hsg-tile-on-cores chooses
schedules with the cost model, the split is taken only where the model times its two launches,
with the second launch's own cost (CostFigures.launch_cycles), faster than one kernel giving
each of the few rows a core (hswc.passes.row_kernels: `_split_if_faster`), or where one kernel
cannot be built (its rows do not fit the UB, or its runs are longer than a DataCopyPad block);
with a schedule given, by the rule alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, f32
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Block, Operation, SSAValue

from hswc.dialects.hsg_rows import ReduceOp
from hswc.platform import DATA_COPY_PAD_MAX_BYTES, UB_BLOCK_BYTES
from hswc.reduction_order import LANES_F32
from hswc.rows import OperandClass, Rows
from hswc.vectorizer.row_emit import with_padded_runs

PARTIAL_ATTR = "hsg.partial"
"""Marks the first of the two kernels (a unit attribute on its func.func): what it writes is a
workspace of partials the second one reads, not a result (hswc-emit refuses to package it)."""


def split_parts(rows: Rows, count: int, sizes: Sequence[int], cores: int) -> int:
    """How many pieces to cut each run of `count` strided rows into (module docstring): the
    fewest that give `cores` rows, each piece whole blocks of every size in `sizes` and at
    most one DataCopyPad block (the partial kernel copies a piece as one); 1 for none. Rows
    of lanes and padded runs are cut across their runs instead (module docstring: Lanes,
    Padded runs), a padded piece at least two runs (a grouped row has runs)."""
    if rows.runs == 1 or count >= cores or count == 0:
        return 1
    best = 1
    if across_runs(rows):
        for parts in range(2, rows.runs // (1 if rows.lanes > 1 else 2) + 1):
            if rows.runs % parts == 0:
                best = parts
                if count * parts >= cores:
                    break
        return best
    for parts in range(2, rows.run + 1):
        if rows.run % parts or any(rows.run // parts * s % UB_BLOCK_BYTES for s in sizes):
            continue
        best = parts
        if count * parts >= cores and \
                rows.run // parts * max(sizes, default=0) <= DATA_COPY_PAD_MAX_BYTES:
            break
    return best


def across_runs(rows: Rows) -> bool:
    """Whether a split cuts the runs of each row (rows of lanes, padded runs) rather than each
    run (module docstring)."""
    return rows.lanes > 1 or rows.padded_run is not None


@dataclass(frozen=True)
class Split:
    """The two kernels' bodies, the indices of the region's inputs each reads, and their rows
    descriptions (module docstring)."""

    partial: Block
    partial_inputs: tuple[int, ...]
    partial_rows: Rows
    combine: Block
    combine_inputs: tuple[int, ...]
    """The region inputs the combining kernel reads after the partials (its first input)."""
    combine_rows: Rows
    combine_count: int
    """The combining kernel's rows (of lanes where the runs were cut: module docstring)."""


def split_body(body: Block, rows: Rows, parts: int, count: int, sizes: Sequence[int] = ()
               ) -> Split | str:
    """The body of `count` rows cut at its one reduction (module docstring; `sizes`: the
    element operands' bytes, which pad a partial row's runs as one kernel's); where it cannot
    be, why not."""
    reduces = [op for op in body.ops if isinstance(op, ReduceOp)]
    if len(reduces) != 1:
        return f"it has {len(reduces)} reductions, not one"
    (reduce,) = reduces
    before = _needed(body, reduce.value)
    after = [op for op in body.ops if op not in before and op is not reduce]
    why = _why_not(body, rows, reduce, before, after)
    if why is not None:
        return why
    used_before = [i for i, a in enumerate(body.args)
                   if a is reduce.value or any(a in op.operands for op in before)]
    partial = Block(arg_types=[body.args[i].type for i in used_before])
    mapping: dict[SSAValue, SSAValue] = {body.args[i]: partial.args[j]
                                         for j, i in enumerate(used_before)}
    for j, i in enumerate(used_before):
        partial.args[j].name_hint = body.args[i].name_hint
    for op in body.ops:
        if op in before:
            partial.add_op(op.clone(value_mapper=mapping))
    value = mapping[reduce.value]
    if value.type != f32:  # an f16 / bf16 reduction's partials kept in f32 (module docstring)
        widened = arith.ExtFOp(value, f32)
        partial.add_op(widened)
        value = widened.result
    first = ReduceOp(reduce.combiner.data, value, reduce.signed is not None)
    partial.add_op(first)
    partial.add_op(YieldOp(first.result))
    used_after = [i for i, a in enumerate(body.args)
                  if any(a in op.operands for op in after)]
    combine = Block(arg_types=[f32, *(body.args[i].type for i in used_after)])
    mapping = {body.args[i]: combine.args[j + 1] for j, i in enumerate(used_after)}
    combine.args[0].name_hint = "partials"
    for j, i in enumerate(used_after):
        combine.args[j + 1].name_hint = body.args[i].name_hint
    again = ReduceOp(reduce.combiner.data, combine.args[0], reduce.signed is not None)
    combine.add_op(again)
    mapping[reduce.result] = again.result
    if reduce.result.type != f32:  # rounded once to the type, as one kernel rounds it
        rounded = arith.TruncFOp(again.result, reduce.result.type)
        combine.add_op(rounded)
        mapping[reduce.result] = rounded.result
    for op in after:
        combine.add_op(op.clone(value_mapper=mapping))
    combine_classes: tuple[OperandClass, ...] = ("element", *(rows.inputs[i]
                                                              for i in used_after))
    partial_classes: tuple[OperandClass, ...] = tuple(rows.inputs[i] for i in used_before)
    if rows.lanes > 1:  # pieces of runs; the partials [groups, parts, columns] (Lanes)
        pieces, lanes = rows.runs // parts, rows.lanes
        partial_rows = Rows(pieces * lanes, partial_classes, ("row",), pieces, rows.stride,
                            one_per_chunk=True, lanes=lanes)
        combine_rows = Rows(parts * lanes, combine_classes, rows.outputs, parts, rows.stride,
                            one_per_chunk=True, lanes=lanes)
        return Split(partial, tuple(used_before), partial_rows, combine, tuple(used_after),
                     combine_rows, count)
    if rows.padded_run is not None:  # pieces of whole runs, [parts, C] partials (Padded runs)
        pieces, channels = rows.runs // parts, rows.stride // rows.run
        partial_rows = with_padded_runs(Rows(pieces * rows.run, partial_classes, ("row",),
                                             pieces, rows.stride, one_per_chunk=True,
                                             grouped=True), sizes)
        combine_rows = Rows(parts, combine_classes, rows.outputs, parts, channels).in_lanes(
            LANES_F32)
        return Split(partial, tuple(used_before), partial_rows, combine, tuple(used_after),
                     combine_rows, -(-channels // LANES_F32))
    run = rows.run // parts
    partial_rows = Rows(rows.runs * run, partial_classes, ("row",), rows.runs, rows.stride)
    combine_rows = Rows(parts, combine_classes, rows.outputs)
    return Split(partial, tuple(used_before), partial_rows, combine, tuple(used_after),
                 combine_rows, count)


def _why_not(body: Block, rows: Rows, reduce: ReduceOp, before: list[Operation],
             after: list[Operation]) -> str | None:
    """Why the body cannot be cut at `reduce` (module docstring); None: it can."""
    if not isinstance(reduce.result.type, Float32Type | Float16Type | BFloat16Type):
        return "its reduction is not in f32, f16 or bf16"
    if any(kind != "row" for kind in rows.outputs):
        return "it writes element values, which need the rows whole"
    classes: dict[SSAValue, OperandClass] = dict(zip(body.args, rows.inputs, strict=True))
    if any(classes.get(v, "element") != "element" for op in before for v in op.operands):
        return "the steps before its reduction read a row or column operand"
    if classes.get(reduce.value, "element") != "element":
        return "it reduces a row or column operand"
    element_values: set[SSAValue] = {a for a in body.args if classes[a] == "element"}
    element_values.update(r for op in before for r in op.results)
    if any(v in element_values for op in after for v in op.operands):
        return "the steps after its reduction read element values"
    return None


def _needed(body: Block, root: SSAValue) -> list[Operation]:
    """The body's ops `root` is computed from, in body order."""
    found: set[Operation] = set()
    stack = [root]
    while stack:
        owner = stack.pop().owner
        if isinstance(owner, Operation) and owner.parent_block() is body and owner not in found:
            found.add(owner)
            stack.extend(owner.operands)
    return [op for op in body.ops if op in found]
