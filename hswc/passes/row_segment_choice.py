"""The segment of a row in segments (hswc.rows `segment`), chosen by the cost model.

A row longer than one row of its kernel's buffers fits in UB is worked on in segments of at
most `longest` elements (hswc.passes.row_kernels.segmented_plan: the most a chunk holds, whole
f32 repeats). The longest is not always the fastest: a segment whose length is a tree length
(hswc.reduction_order.tree_levels: 4096, 8192, 12,288, ...) is reduced by a tree of
WholeReduces, a few calls, where any other length takes the fold tree, a call per fold level and
repeat row; but a shorter segment means more segments, each with its copies, barriers and
accumulator steps. Which wins depends on the body, the dtype and the SoC (bench/README.md,
bench_rows: rounding the segment down to a tree length took Ascend 950's softmax f32 at 60,000
from 88.8% to 97.0% of the roofline and A2's LayerNorm f32 from 88.2% to 86.5%), so the
candidates (segment_candidates) are each lowered and modelled
(hswc.passes.row_schedule_choice's lowering of a row chunk, hswc.passes.schedule_choice's
modelled_time) for one launch of the region's rows, and the fastest taken; a tie (within
schedule_choice.TIE) goes to the earlier candidate, the longest first.

Input: the plan of a row in segments, a builder of its tiled kernel, the platform to model on.
Output: the plan with the chosen segment. The choice is kept for the process under a key of
what it depends on (the row body as printed and its types: `body_key`, the plan's rows, dtype
and schedule, the platform and the rows modelled); it is not kept in hswc.choice_store's store
between processes (modelling two or three candidates of one kernel is quick).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from xdsl.dialects import func

from hswc.diagnostics import OpError
from hswc.platform import Platform
from hswc.reduction_order import LANES_F32, tree_levels
from hswc.tiling import TilingError
from hswc.vectorizer.plan import KernelPlan
from hswc.vectorizer.row_emit import refusal


def longest_tree_length(longest: int) -> int | None:
    """The longest length of at most `longest` that hswc.reduction_order.tree_levels reduces by
    a tree of WholeReduces (a multiple of 64 up to 4096, then of 4096 up to 262,144); None where
    none does (below 128)."""
    for step in (LANES_F32 ** 3, LANES_F32 ** 2, LANES_F32):
        found = longest // step * step
        if found and tree_levels(found) is not None:
            return found
    return None


def segment_candidates(length: int, longest: int) -> list[int]:
    """The segments modelled for a row of `length` whose longest segment is `longest` (a
    multiple of 64 below `length`), in tie-break order: the longest; the longest tree length
    (longest_tree_length); and the segments of the same count as the longest's made as equal
    as whole repeats allow (a short last segment of a few repeats costs a segment's fixed
    work for little data). Each a multiple of 64, at most `longest`, listed once."""
    found = [longest]
    tree = longest_tree_length(longest)
    if tree is not None:
        found.append(tree)
    count = -(-length // longest)
    even = -(-length // (count * LANES_F32)) * LANES_F32
    found.append(min(even, longest))
    return list(dict.fromkeys(found))


_chosen: dict[tuple[object, ...], int] = {}


def choose_segment(plan: KernelPlan, tiled: Callable[[], func.FuncOp], platform: Platform,
                   row_count: int | None, body_key: tuple[object, ...]) -> KernelPlan:
    """The plan with the segment the cost model predicts fastest (module docstring); `plan`
    itself where its rows are whole or only its segment can be built. `row_count` rows (None:
    a count known at run time), modelled for at most CHOICE_ELEMENTS' worth."""
    from hswc.passes.row_schedule_choice import blocked_kernel, lowered_kernel
    from hswc.passes.schedule_choice import CHOICE_ELEMENTS, TIE, modelled_time, platform_key

    rows = plan.rows
    assert rows is not None
    if rows.segment is None:
        return plan
    candidates = segment_candidates(rows.length, rows.segment)
    if len(candidates) == 1:
        return plan
    most = max(1, CHOICE_ELEMENTS // rows.length)
    count = most if row_count is None else max(1, min(row_count, most))
    key = (body_key, rows, plan.dtype, plan.schedule, *platform_key(platform), count)
    if key not in _chosen:
        kernel = blocked_kernel(tiled())
        best: tuple[int, float] | None = None
        for segment in candidates:
            candidate = replace(plan, rows=replace(rows, segment=segment))
            try:
                if refusal(candidate) is not None:
                    continue
                seconds = modelled_time(lowered_kernel(kernel, candidate), candidate, platform,
                                        count)
            except (OpError, TilingError, ValueError):
                continue
            if best is None or seconds < best[1] - TIE:
                best = (segment, seconds)
        _chosen[key] = rows.segment if best is None else best[0]
    return replace(plan, rows=replace(rows, segment=_chosen[key]))
