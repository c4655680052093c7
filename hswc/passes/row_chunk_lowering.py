"""convert-hsg-to-ascend's part for row kernels: each `hsg.row_chunk` becomes its AscendC calls.

Input: `hsg.row_chunk` directly inside the scf.for of `hsg-block-into-ub`, its slice bounds and
ub_factor defined outside that loop, in a kernel hsg-tile-on-cores{rows=true} built (its
`hsg.rows` and `hsg.ub_plan`).
Output: the ascend ops of hswc.vectorizer.row_emit: Init before the loop (GlobalTensors over
the core's rows, the queues and TBufs of the row kernel's plan, the column inputs copied in),
and per chunk CopyIn (one DataCopyPad of whole rows), Compute (level-2 calls on elements or
rows, level-0 calls with a row value spread by Brcb or a column, the reductions as the folds
and WholeReduce of hswc.reduction_order, or its trees of WholeReduces), CopyOut.
A chunk whose kernel was tiled for another UB plan than the one lowered here is refused.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.diagnostics import OpError, copy_location, ops_between
from hswc.dialects import hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.kernel_dtypes import kernel_dtype
from hswc.passes.chunk_loop import chunk_loop
from hswc.passes.row_kernels import output_names, row_kernel_plan
from hswc.passes.schedule_options import UB_PLAN_ATTR, describe_plan, read_plan
from hswc.rows import Rows
from hswc.vectorizer.plan import KernelPlan
from hswc.vectorizer.row_emit import emit_row_chunk
from hswc.vectorizer.schedule import Schedule


def _element(value: SSAValue) -> str:
    return element_type_name(value.type.get_element_type())  # type: ignore[attr-defined]


def _kernel_of(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and parent.name != "func.func":
        parent = parent.parent_op()
    return parent


def plan_row_chunk(chunk: hsg.RowChunkOp, schedule: Schedule) -> KernelPlan:
    """The chunk's row kernel plan, after checking its kernel was tiled for it."""
    try:
        rows = Rows.from_attr(chunk.rows)
    except ValueError as error:
        raise OpError(chunk, str(error)) from None
    dtype = kernel_dtype([_element(v) for v in chunk.inputs],
                         [_element(v) for v in chunk.outputs])
    names = output_names(list(chunk.outputs))
    plan = row_kernel_plan(chunk.body.block, rows, schedule, dtype, names)
    kernel = _kernel_of(chunk)
    if kernel is not None and UB_PLAN_ATTR in kernel.attributes:
        try:
            tiled = read_plan(kernel, UB_PLAN_ATTR)
        except ValueError as error:
            raise OpError(kernel, f"has a malformed {UB_PLAN_ATTR} attribute: {error}") from None
        if tiled is not None and tiled != plan.ub_plan():
            raise OpError(chunk, f"was tiled for a UB plan of {describe_plan(tiled)}, but its "
                          f"row kernel allocates for {describe_plan(plan.ub_plan())}: give "
                          "hsg-tile-on-cores and convert-hsg-to-ascend the same options")
    return plan


def convert_row_chunk(chunk: hsg.RowChunkOp, plan: KernelPlan) -> None:
    """Replace one row chunk: Init before its loop, CopyIn/Compute/CopyOut in its place."""
    loop = chunk_loop(chunk, chunk.slice_offset, chunk.slice_size, chunk.ub_factor)
    before_loop, before_chunk = loop.prev_op, chunk.prev_op
    emit_row_chunk(InsertPoint.before(loop), InsertPoint.before(chunk), plan,
                   list(chunk.inputs), list(chunk.outputs), chunk.slice_offset, chunk.slice_size,
                   chunk.ub_factor, chunk.chunk_offset, chunk.chunk_size, chunk,
                   chunk.row_length)
    copy_location(chunk, ops_between(before_loop, loop))
    copy_location(chunk, ops_between(before_chunk, chunk))
    Rewriter.erase_op(chunk)
