"""The schedule of a row kernel when hsg-tile-on-cores is given none: the one the cost model
predicts fastest among the fast preset (depth-2 queues, early-free, in-place, x-first, scalar
compares) and the reference (depth-1 queues), each, for a row in segments with a sum of
exp(b - max) (softmax's), summing online (a running maximum with a rescaled sum, in the max's
pass over the row: hswc.rows `online`) or in passes (the sum in a pass of its own). Online
reads the row from GM once less and does more vector work a segment (the rescaling); which
costs less depends on the SoC, the dtype and the row, so both are modelled. A candidate in
passes is modelled only where its online sibling sums online (elsewhere the two are one kernel).

Each candidate whose plan the row lowering takes (hswc.vectorizer.row_emit.refusal) and whose
chunk fits the target's UB (two whole rows or more, or one:
hswc.passes.row_kernels.fitted_row_plan) is built as the passes build it (the tiled kernel,
hsg-block-into-ub, convert-hsg-to-ascend's lowering of its row chunk; the kernel blocked once
for all candidates), tiled by its own UB plan and modelled
(hswc.passes.schedule_choice.modelled_time) for one launch of the region's rows, at most
CHOICE_ELEMENTS elements' worth. A tie (within schedule_choice.TIE) goes to the earlier
candidate. The winner's streamed inputs are then hinted past L2 where the model times that
faster, at those rows and at LARGE_ELEMENTS' worth (`_hinted`), as the elementwise choice does.
Depth-2 queues fit fewer whole rows: a long row may be one row a chunk with them
and several with the reference, or leave only the reference.
A kernel of a run-time row length (hswc.rows `dynamic`) is chosen by the geometric mean of its
modelled times at rows of each of the lengths it serves (CHOICE_ELEMENTS' worth each, the kernel
given the length it reads at run time): DYNAMIC_LENGTHS for a kernel of every length, the ones
in its range for a branch of hswc.passes.row_branches (`served_lengths`: each branch is chosen
apart, as hswc.passes.row_kernels does); the L2 hint is tried on its winner as on a static
kernel's, by the same geometric mean at CHOICE_ELEMENTS' and LARGE_ELEMENTS' worth of rows of
each length; its key adds those lengths.

A choice (its schedule and whether it sums online) is kept, as the elementwise kernels' are
(hswc.passes.schedule_choice: for the process, and in hswc.choice_store's store between
processes), under a key of what it depends on: the row body as printed (its arguments' names
and types, its ops, the constants it holds), the rows (length, operand classes), the kernel's
dtype, its operands' element types and output names, the UB the plan is fitted to, the platform
and its figures, and the rows it is modelled for. A remembered choice passes the checks a fresh
candidate passes before it is modelled (its plan builds, the row lowering takes it, a chunk
fits the UB); a store's entry that fails them is modelled again. The store keeps the
candidate's index in CANDIDATES, whose first two are the two schedules summing online, as the
store's entries meant before the choice of online was modelled (online was taken wherever it
applied): an older entry still means what it meant (and the code digest of
hswc.tools.choice_cache makes such entries stale anyway).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.platform import Platform
from hswc.rows import Rows
from hswc.tiling import TilingError, compute_tiling
from hswc.vectorizer.plan import KernelPlan
from hswc.vectorizer.row_emit import refusal
from hswc.vectorizer.schedule import FAST, REFERENCE, Schedule


@dataclass(frozen=True)
class RowCandidate:
    """A schedule, and whether a row in segments sums exp(b - max) online (module docstring)."""

    schedule: Schedule
    online: bool = True

    def describe(self) -> str:
        return f"{self.schedule.describe()}, {'online' if self.online else 'in passes'}"


_UNHINTED = (RowCandidate(FAST), RowCandidate(REFERENCE), RowCandidate(FAST, online=False),
             RowCandidate(REFERENCE, online=False))
CANDIDATES = (*_UNHINTED, *(replace(c, schedule=replace(c.schedule, l2_bypass=True))
                            for c in _UNHINTED))
"""In tie-break order; the first two are what a store's index 0 and 1 meant before the
choice of online was modelled (module docstring). The last four are the first four with
their streamed inputs hinted past L2 (`_hinted`: never searched, only tried on the winner)."""


def candidate_schedules(platform: Platform) -> list[Schedule]:
    """The distinct schedules of the candidates not hinted, for `platform`'s API table, in
    tie-break order."""
    made: list[Schedule] = []
    for c in _UNHINTED:
        schedule = replace(c.schedule, api=platform.api)
        if schedule not in made:
            made.append(schedule)
    return made


PlanOf = Callable[[RowCandidate], KernelPlan]
"""The row kernel's plan of a candidate (hswc.passes.row_kernels.fitted_row_plan)."""


@dataclass(frozen=True)
class RowChoice:
    schedule: Schedule
    seconds: float
    rows: int
    """The launch's rows it was modelled for."""
    online: bool = True
    """Whether a row in segments sums online (RowCandidate)."""


def blocked_kernel(tiled: func.FuncOp) -> func.FuncOp:
    """The tiled kernel blocked into UB chunks, as hsg-block-into-ub blocks it (which reads
    no UB plan: one blocked kernel serves every candidate)."""
    from hswc.passes.hsg_block_into_ub import HsgBlockIntoUbPass

    module = ModuleOp([tiled])
    HsgBlockIntoUbPass().apply(Context(), module)  # it reads no dialect from the context
    return tiled


def lowered_kernel(blocked: func.FuncOp, plan: KernelPlan) -> func.FuncOp:
    """A copy of the blocked kernel with its row chunk lowered, with its UB plan."""
    from hswc.passes.row_chunk_lowering import convert_row_chunk
    from hswc.passes.schedule_options import UB_PLAN_ATTR, plan_attribute

    kernel = blocked.clone()
    kernel.attributes[UB_PLAN_ATTR] = plan_attribute(plan.ub_plan())
    chunk = next(op for op in kernel.walk() if isinstance(op, hsg.RowChunkOp))
    convert_row_chunk(chunk, plan)
    return kernel


_chosen: dict[tuple[object, ...], RowChoice | None] = {}


def _plan_if_taken(candidate: RowCandidate, plan_of: PlanOf, dtype: str,
                   platform: Platform) -> KernelPlan | None:
    """The candidate's plan if it passes the checks before modelling (module docstring)."""
    try:
        plan = plan_of(candidate)
        if refusal(plan) is not None:
            return None
        compute_tiling(1, 1, platform.ub_size, dtype, plan.ub_plan())
    except (OpError, TilingError, ValueError):
        return None
    return plan


def choose_row_schedule(tiled: Callable[[], func.FuncOp], plan_of: PlanOf, rows: Rows,
                        row_count: int | None, dtype: str, platform: Platform,
                        body_key: tuple[object, ...],
                        lengths: tuple[int, ...] = ()) -> RowChoice | None:
    """The fastest candidate (module docstring) for `row_count` rows (None: a count known at
    run time, chosen for CHOICE_ELEMENTS' worth); None when no candidate can be built.
    `tiled` builds the tiled kernel (only when the choice is modelled); `body_key` is what
    the kernel and the plans depend on but the rows, dtype and platform (module docstring).
    `lengths`: the run-time row lengths a kernel of a run-time length is chosen for (empty:
    DYNAMIC_LENGTHS)."""
    from hswc.passes.schedule_choice import (
        CHOICE_ELEMENTS,
        TIE,
        platform_key,
        record,
        remembered,
    )

    most = CHOICE_ELEMENTS // rows.length
    count = max(1, most if row_count is None else min(row_count, most))
    candidates = [replace(c, schedule=replace(c.schedule, api=platform.api))
                  for c in CANDIDATES]
    key = ("row kernel", "online or in passes", body_key, rows, dtype, *platform_key(platform),
           count)
    if rows.dynamic:
        lengths = lengths or DYNAMIC_LENGTHS
        key = (*key, "run-time lengths", lengths)
    if key in _chosen:
        return _chosen[key]
    found = remembered(key, candidates)
    if found is not None and _plan_if_taken(found[0], plan_of, dtype, platform) is not None:
        best: RowChoice | None = RowChoice(found[0].schedule, found[1], count, found[0].online)
    else:
        best = None
        kernel: func.FuncOp | None = None
        sums_online: dict[Schedule, bool] = {}
        winner: tuple[RowCandidate, KernelPlan] | None = None
        for candidate in candidates[:len(_UNHINTED)]:
            if not candidate.online and not sums_online.get(candidate.schedule, True):
                continue  # the same kernel as its online sibling's
            plan = _plan_if_taken(candidate, plan_of, dtype, platform)
            if plan is None:
                continue
            assert plan.rows is not None
            if candidate.online:
                sums_online[candidate.schedule] = plan.rows.online
            kernel = blocked_kernel(tiled()) if kernel is None else kernel
            try:
                seconds = _launch_time(lowered_kernel(kernel, plan), plan, platform, count,
                                       lengths)
            except (OpError, TilingError, ValueError):
                continue
            if best is None or seconds * (1 + TIE) < best.seconds:
                best = RowChoice(candidate.schedule, seconds, count, candidate.online)
                winner = (candidate, plan)
        if best is not None and winner is not None and kernel is not None:
            large = _large_rows(row_count, rows, count) if not rows.dynamic else \
                _large_elements(platform)
            best = _hinted(best, winner, candidates, kernel, plan_of, dtype, platform, large,
                           lengths)
        if best is not None:
            record(key, (RowCandidate(best.schedule, best.online), best.seconds), candidates)
    _chosen[key] = best
    return best


DYNAMIC_LENGTHS = (64, 1024, 8192, 60000)
"""The row lengths a kernel of a run-time row length (hswc.rows `dynamic`) is chosen for:
issue 36's four, short rows to rows of many segments (`_launch_time`)."""


def served_lengths(above: int | None, most: int | None) -> tuple[int, ...]:
    """The lengths of DYNAMIC_LENGTHS a branch taking rows longer than `above` (None: from 1)
    and at most `most` elements (None: any) is chosen for; `most` itself where none of them
    is in its range, else (a branch past them all) the longest of them."""
    served = tuple(n for n in DYNAMIC_LENGTHS if (above is None or n > above)
                   and (most is None or n <= most))
    if served:
        return served
    return (most,) if most is not None else (DYNAMIC_LENGTHS[-1],)


def _launch_time(kernel: func.FuncOp, plan: KernelPlan, platform: Platform, count: int,
                 lengths: tuple[int, ...], elements: int | None = None) -> float:
    """What a candidate is chosen by: its modelled seconds for one launch of `count` rows; of
    a kernel of a run-time row length (`lengths` not empty), the geometric mean of its
    modelled seconds for one launch of `elements` (default CHOICE_ELEMENTS) worth of rows of
    each of `lengths` (at least one row), so that no one length's time outweighs the others'
    by its size alone."""
    from math import exp, log

    from hswc.passes.schedule_choice import CHOICE_ELEMENTS, modelled_time

    if not lengths:
        return modelled_time(kernel, plan, platform, count)
    worth = CHOICE_ELEMENTS if elements is None else elements
    times = [modelled_time(kernel, plan, platform, max(1, worth // n), n) for n in lengths]
    return exp(sum(map(log, times)) / len(times))


def _large_elements(platform: Platform) -> int | None:
    """The elements' worth of rows a kernel of a run-time row length's L2 hint is also
    modelled at: hswc.passes.schedule_choice.hint_sizes' large size (None: no more than the
    choice's)."""
    from hswc.passes.schedule_choice import hint_sizes

    sizes = hint_sizes(None, platform)
    return sizes[1] if len(sizes) > 1 else None


def _large_rows(row_count: int | None, rows: Rows, count: int) -> int | None:
    """The rows of the second launch size the L2 hint is modelled at
    (hswc.passes.schedule_choice.LARGE_ELEMENTS' worth, at most the launch's own rows); None
    when that is no more than the choice's `count`."""
    from hswc.passes.schedule_choice import LARGE_ELEMENTS

    large = max(1, LARGE_ELEMENTS // rows.length)
    if row_count is not None:
        large = min(large, row_count)
    return large if large > count else None


def _hinted(best: RowChoice, winner: tuple[RowCandidate, KernelPlan],
            candidates: list[RowCandidate], kernel: func.FuncOp, plan_of: PlanOf, dtype: str,
            platform: Platform, large: int | None, lengths: tuple[int, ...] = ()
            ) -> RowChoice:
    """`best` with its streamed inputs hinted past L2 (an element operand's
    `SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE)`: hswc.vectorizer.row_emit) where the
    model times that no slower at the choice's rows and at `large` rows, and faster (beyond
    TIE) at one of them, as hswc.passes.schedule_choice._hinted decides for elementwise
    kernels; a row read in several passes re-reads it from HBM then, which the model weighs.
    Of a kernel of a run-time row length (`lengths`), `large` is elements' worth of rows of
    each length, timed as the choice is (`_launch_time`)."""
    from hswc.passes.schedule_choice import TIE

    plain, plain_plan = winner
    hinted = candidates[len(_UNHINTED) + candidates.index(plain)]
    hinted_plan = _plan_if_taken(hinted, plan_of, dtype, platform)
    if hinted_plan is None:
        return best
    sizes: list[int | None] = [None] if large is None else [None, large]

    def time(plan: KernelPlan, size: int | None) -> float:
        rows = best.rows if size is None or lengths else size
        return _launch_time(lowered_kernel(kernel, plan), plan, platform, rows, lengths, size)
    try:
        with_hint = [time(hinted_plan, n) for n in sizes]
        without = [best.seconds, *(time(plain_plan, n) for n in sizes[1:])]
    except (OpError, TilingError, ValueError):
        return best
    pairs = list(zip(without, with_hint, strict=True))
    if all(h <= p * (1 + TIE) for p, h in pairs) and any(h * (1 + TIE) < p for p, h in pairs):
        return RowChoice(hinted.schedule, with_hint[0], best.rows, best.online)
    return best


def modelled_row_launch(tiled: Callable[[], func.FuncOp], plan: KernelPlan, platform: Platform,
                        row_count: int) -> float:
    """The cost model's seconds for one launch of the row kernel `tiled` builds, lowered with
    `plan` (a chosen candidate's), over `row_count` rows (not capped: hswc.passes.row_kernels
    compares launches of different row counts and lengths with it)."""
    from hswc.passes.schedule_choice import modelled_time

    return modelled_time(lowered_kernel(blocked_kernel(tiled()), plan), plan, platform, row_count)

