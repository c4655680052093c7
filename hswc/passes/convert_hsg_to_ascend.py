"""convert-hsg-to-ascend: each UB chunk of an elementwise body becomes its AscendC calls.

Input: `hsg.elementwise_chunk` directly inside the scf.for of `hsg-block-into-ub`, with its
slice bounds and ub_factor defined outside that loop.
Output, all in the `ascend` dialect (hswc.vectorizer.emit): before the loop the kernel's Init
(GlobalTensors over the core's slice, the TPipe, a TQue per input and for the output, the TBufs
the UB plan needs, the constant buffers filled by Duplicate); in the loop CopyIn (DataCopyPad
GM -> UB, EnQue; a broadcast input, `hsg.broadcast`, read at its own indices:
hswc.vectorizer.broadcast_copy), Compute (each body op as its AscendC call(s), in body order;
vector steps over roundup(cur, 64) lanes for f32) and CopyOut (DeQue, DataCopyPad UB -> GM,
FreeTensor).

The schedule options (hswc.passes.schedule_options, shared with hsg-tile-on-cores) choose the
structure, never the bits. Without options, a kernel lowers with the schedule hsg-tile-on-cores
chose for it (its `hsg.schedule`, hswc.passes.schedule_choice), else with the reference: ops-nn's
A2/A3 HardSwishGrad kernel call for call.
A kernel that is one variant of a run-time choice (`hsg.queue_depth`) gets that variant of the
options' schedule. A kernel tiled for another UB plan (its `hsg.ub_plan`), or for a budget
(`hsg.ub_budget`) that does not make room for its buffers, is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.broadcast import read_broadcast
from hswc.diagnostics import OpError, copy_location, ops_between
from hswc.dialects import hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.kernel_dtypes import kernel_dtype
from hswc.output_windows import read_output_windows
from hswc.passes.chunk_loop import chunk_loop
from hswc.passes.hsg_decompose import UB_BUDGET_ATTR
from hswc.passes.row_chunk_lowering import convert_row_chunk, plan_row_chunk
from hswc.passes.schedule_options import (
    API_ATTR,
    SCHEDULE_ATTR,
    UB_PLAN_ATTR,
    ScheduleOptions,
    describe_plan,
    read_plan,
    read_schedule,
)
from hswc.soc_api import FAMILIES
from hswc.tiling import UbPlan
from hswc.vectorizer.broadcast_copy import broadcast_plan
from hswc.vectorizer.dag import body_dag
from hswc.vectorizer.emit import ChunkEmitter, Emitter, emit_init
from hswc.vectorizer.plan import KernelPlan, budget_covers, plan_kernel
from hswc.vectorizer.schedule import DEFAULT_API, Schedule
from hswc.vectorizer.window_copy_out import window_refusal


def _kernel_of(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent if parent is not None and hsg.is_kernel(parent) else None


def _output_name(chunk: hsg.ElementwiseChunkOp) -> str | list[str]:
    """The output's name (`y` if it has none); of several outputs, each one's (`y<i>`)."""
    if len(chunk.outputs) == 1:
        return chunk.output.name_hint or "y"
    return [out.name_hint or f"y{i}" for i, out in enumerate(chunk.outputs)]


def plan_chunk(chunk: hsg.ElementwiseChunkOp, schedule: Schedule, pass_name: str) -> KernelPlan:
    """The chunk's kernel plan, after checking that its tiling was made for this plan."""
    dtype = kernel_dtype(*(
        [element_type_name(v.type.get_element_type()) for v in values]  # type: ignore[attr-defined]
        for values in (chunk.inputs, chunk.outputs)))
    dag = body_dag(chunk.body.block, several=len(chunk.outputs) > 1)
    kernel = _kernel_of(chunk)
    if kernel is None:  # a hand-written chunk: no tiling to agree with
        return plan_kernel(dag, schedule.variants()[0][0], dtype, _output_name(chunk))
    asked = _with_kernel_api(kernel, schedule)
    fixed = _variant(kernel, schedule, pass_name)
    tiled, budget = (_recorded(kernel, attr) for attr in (UB_PLAN_ATTR, UB_BUDGET_ATTR))
    plan = plan_kernel(dag, _cann_kernel(fixed, kernel, asked), dtype, _output_name(chunk))
    wanted = broadcast_plan(plan.ub_plan(), read_broadcast(chunk), plan.input_dtypes)
    options = f"{pass_name} ({schedule.describe()})"
    if budget is not None:
        if not budget_covers(budget, plan):
            raise OpError(chunk, f"was tiled for a UB budget of {describe_plan(budget)}, which "
                          f"does not make room for the buffers {options} allocates: give "
                          "hsg-tile-on-cores the same variant options")
        return plan
    if tiled is None and not schedule.is_reference:
        raise OpError(chunk, f"was tiled for its operator's reference budget, but {options} "
                      f"allocates for {describe_plan(wanted)}: give hsg-tile-on-cores the same "
                      "variant options")
    if tiled is not None and tiled != wanted:
        raise OpError(chunk, f"was tiled for a UB plan of {describe_plan(tiled)}, but "
                      f"{options} allocates for {describe_plan(wanted)}: give "
                      "hsg-tile-on-cores the same variant options")
    return plan


def _cann_kernel(fixed: Schedule, kernel: func.FuncOp, asked: Schedule) -> Schedule:
    """`fixed`, with bf16 kept widened (hswc.vectorizer.plan.budget_schedule) when the kernel
    was tiled by its op's CANN budget: a variant that records it (hsg.ub_budget), or a reference
    kernel that records no plan of its own."""
    by_budget = UB_BUDGET_ATTR in kernel.attributes or (
        UB_PLAN_ATTR not in kernel.attributes and asked.is_reference)
    return replace(fixed, widened_bf16=True) if by_budget else fixed


def _recorded(kernel: func.FuncOp, attr: str) -> UbPlan | None:
    try:
        return read_plan(kernel, attr)
    except ValueError as error:
        raise OpError(kernel, f"has a malformed {attr} attribute: {error}") from None


def _variant(kernel: func.FuncOp, schedule: Schedule, pass_name: str) -> Schedule:
    """The schedule of this kernel: the options', or for a variant of a run-time choice (its
    hsg.queue_depth) the options' variant of that depth; with the API table recorded on the
    kernel (hsg.api) unless the options name one."""
    schedule = _with_kernel_api(kernel, schedule)
    depth = kernel.attributes.get(hsg.QUEUE_DEPTH_ATTR)
    name = f"@{kernel.sym_name.data}"
    if depth is None:
        if schedule.chosen_at_run_time:
            raise OpError(kernel, f"is the only kernel of its tiling, but {pass_name} "
                          f"({schedule.describe()}) builds one per queue depth chosen at run "
                          "time: give hsg-tile-on-cores the same variant options", name)
        return schedule
    if not isinstance(depth, IntegerAttr) or depth.value.data not in (1, 2):
        raise OpError(kernel, f"has a {hsg.QUEUE_DEPTH_ATTR} that is not 1 or 2", name)
    if not schedule.chosen_at_run_time:
        raise OpError(kernel, f"is the depth-{depth.value.data} kernel of a choice made at run "
                      f"time, but {pass_name} ({schedule.describe()}) builds one kernel: give "
                      "it the same variant options as hsg-tile-on-cores", name)
    return schedule.with_depth(depth.value.data)


def _with_kernel_api(kernel: func.FuncOp, schedule: Schedule) -> Schedule:
    recorded = kernel.attributes.get(API_ATTR)
    if recorded is None or schedule.api != DEFAULT_API:  # the options name a table
        return schedule
    if not isinstance(recorded, StringAttr) or recorded.data not in FAMILIES:
        raise OpError(kernel, f"has a {API_ATTR} that is not one of {', '.join(FAMILIES)}")
    return replace(schedule, api=recorded.data)


def convert_chunk(chunk: hsg.ElementwiseChunkOp, plan: KernelPlan) -> None:
    """Replace one chunk op: Init before its loop, CopyIn/Compute/CopyOut in its place."""
    loop = chunk_loop(chunk, chunk.slice_offset, chunk.slice_size, chunk.ub_factor)
    before_loop = loop.prev_op
    setup = Emitter(InsertPoint.before(loop))
    try:
        broadcast = read_broadcast(chunk)
        windows = read_output_windows(chunk)
    except ValueError as error:
        raise OpError(chunk, str(error)) from None
    if windows is not None:
        align = broadcast_plan(plan.ub_plan(), broadcast, plan.input_dtypes).block_align
        for k, out in enumerate(plan.outputs):
            why = None if windows.window(k) is None else \
                window_refusal(windows, k, out.dtype, align)
            if why is not None:
                raise OpError(chunk, f"cannot write its outputs at their windows "
                              f"(hsg.output_windows): {why}")
    handles = emit_init(setup, plan, chunk.inputs, chunk.outputs, chunk.slice_offset,
                        chunk.slice_size, chunk.ub_factor, broadcast, windows)
    copy_location(chunk, ops_between(before_loop, loop))

    before_chunk = chunk.prev_op
    body = Emitter(InsertPoint.before(chunk))
    ChunkEmitter(body, plan, handles, chunk.chunk_offset, chunk.chunk_size).emit()
    copy_location(chunk, ops_between(before_chunk, chunk))
    Rewriter.erase_op(chunk)


@dataclass(frozen=True)
class ConvertHsgToAscendPass(ScheduleOptions, ModulePass):
    """hsg.elementwise_chunk -> its kernel in AscendC calls (module docstring)."""

    name = "convert-hsg-to-ascend"

    def _schedule_of(self, chunk: hsg.ElementwiseChunkOp | hsg.RowChunkOp,
                     schedule: Schedule) -> Schedule:
        """The options' schedule; without options, the one hsg-tile-on-cores chose for the
        chunk's kernel (its hsg.schedule), else the reference."""
        kernel = _kernel_of(chunk)
        if self.given() or kernel is None:
            return schedule
        try:
            chosen = read_schedule(kernel)
        except ValueError as error:
            raise OpError(kernel, f"has a malformed {SCHEDULE_ATTR} attribute: {error}") from None
        return schedule if chosen is None else chosen

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        schedule = self.schedule(self.name)
        chunks = [o for o in op.walk() if isinstance(o, hsg.ElementwiseChunkOp)]
        plans = [plan_chunk(chunk, self._schedule_of(chunk, schedule), self.name)
                 for chunk in chunks]
        row_chunks = [o for o in op.walk() if isinstance(o, hsg.RowChunkOp)]
        row_plans = [plan_row_chunk(chunk, self._schedule_of(chunk, schedule))
                     for chunk in row_chunks]
        for chunk, plan in zip(chunks, plans, strict=True):
            convert_chunk(chunk, plan)
        for row_chunk, row_plan in zip(row_chunks, row_plans, strict=True):
            convert_row_chunk(row_chunk, row_plan)
        for leftover in op.walk():  # linalg ops hsg-tile-on-cores left stay on the host
            if isinstance(leftover, hsg.RowSliceOp):
                raise OpError(leftover, "must be blocked before convert-hsg-to-ascend (run "
                                        "hsg-block-into-ub first)")
            if isinstance(leftover, hsg.NamedOp | hsg.ElementwiseSliceOp):
                raise OpError(leftover, "must be tiled and blocked before convert-hsg-to-ascend "
                                        "(run hsg-tile-on-cores and hsg-block-into-ub first)")
