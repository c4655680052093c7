"""The schedule of a row kernel when hsg-tile-on-cores is given none: the one the cost model
predicts fastest among the fast preset (depth-2 queues, early-free, in-place, x-first, scalar
compares) and the reference (depth-1 queues).

Each candidate whose plan the row lowering takes (hswc.vectorizer.row_emit.refusal) and whose
chunk fits the target's UB (two whole rows or more, or one:
hswc.passes.row_kernels.fitted_row_plan) is built as the passes build it (the tiled kernel,
hsg-block-into-ub, convert-hsg-to-ascend's lowering of its row chunk), tiled by its own UB
plan and modelled
(hswc.passes.schedule_choice.modelled_time) for one launch of the region's rows, at most
CHOICE_ELEMENTS elements' worth. A tie (within schedule_choice.TIE) goes to the earlier
candidate. Depth-2 queues fit fewer whole rows: a long row may be one row a chunk with them
and several with the reference, or leave only the reference.
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

CANDIDATES = (FAST, REFERENCE)

PlanOf = Callable[[Schedule], KernelPlan]
"""The row kernel's plan under a schedule (hswc.passes.row_kernels.row_kernel_plan)."""


@dataclass(frozen=True)
class RowChoice:
    schedule: Schedule
    seconds: float
    rows: int
    """The launch's rows it was modelled for."""


def _lowered(tiled: func.FuncOp, plan: KernelPlan) -> func.FuncOp:
    """A copy of the tiled kernel blocked and its row chunk lowered, with its UB plan."""
    from hswc.passes.hsg_block_into_ub import HsgBlockIntoUbPass
    from hswc.passes.row_chunk_lowering import convert_row_chunk
    from hswc.passes.schedule_options import UB_PLAN_ATTR, plan_attribute

    kernel = tiled.clone()
    kernel.attributes[UB_PLAN_ATTR] = plan_attribute(plan.ub_plan())
    module = ModuleOp([kernel])
    HsgBlockIntoUbPass().apply(Context(), module)  # it reads no dialect from the context
    chunk = next(op for op in kernel.walk() if isinstance(op, hsg.RowChunkOp))
    convert_row_chunk(chunk, plan)
    return kernel


def choose_row_schedule(tiled: func.FuncOp, plan_of: PlanOf, rows: Rows,
                        row_count: int | None, dtype: str, platform: Platform
                        ) -> RowChoice | None:
    """The fastest candidate (module docstring) for `row_count` rows (None: a count known at
    run time, chosen for CHOICE_ELEMENTS' worth); None when no candidate can be built."""
    from hswc.passes.schedule_choice import CHOICE_ELEMENTS, TIE, modelled_time

    most = CHOICE_ELEMENTS // rows.length
    count = max(1, most if row_count is None else min(row_count, most))
    best: RowChoice | None = None
    for candidate in CANDIDATES:
        schedule = replace(candidate, api=platform.api)
        try:
            plan = plan_of(schedule)
            if refusal(plan) is not None:
                continue
            compute_tiling(1, 1, platform.ub_size, dtype, plan.ub_plan())
            seconds = modelled_time(_lowered(tiled, plan), plan, platform, count)
        except (OpError, TilingError, ValueError):
            continue
        if best is None or seconds < best.seconds - TIE:
            best = RowChoice(schedule, seconds, count)
    return best
