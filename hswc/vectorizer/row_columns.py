"""Wide columns: a row kernel's column values computed once a core in Init, each one an element
instruction reads copied to every row of a chunk (hswc.vectorizer.plan.KernelPlan.wide_columns).

Input: a row kernel's plan whose chunks are worked on whole (KernelPlan.wide_groups: rows of
whole f32 repeats, several a chunk, no segments) and which has wide columns, at the point in Init
after its column inputs are copied in (hswc.vectorizer.row_emit.emit_row_init).
Output: ascend ops there: every instruction of the plan writing a column value (a column input's
Cast to f32, say), in the plan's order, as a level-2 call over one row's `pitch` elements; then,
for each wide column, a loop over the chunk's other rows 1 .. ubFactor - 1 copying row 0 into
that row (a UB -> UB DataCopy of `pitch` elements). Compute then skips those instructions
(hoisted) and applies a wide column to the chunk's elements in one level-2 call
(RowChunkEmitter.broadcast_binary), where it took a level-0 call per 256-byte group of the row
(LayerNorm's weight and bias at rows of 1024: 16 calls each, a repeat per row). The column
values are what the chunk computed before, in the same calls on the same values, so the bits
are too. The plan gives every column value a buffer of its own (plan._Allocator.choose), so
computing them all before the first chunk overwrites none another reads.

Barriers: a PipeBarrier<PIPE_V> between two dependent calls (none on a schedule without
barriers); the copies read row 0 only, once it is written, and write distinct rows.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.dialects import ascend
from hswc.vectorizer.dag import Node
from hswc.vectorizer.emit import ELEMENT_TYPES, Emitter, Uniforms, build, local_name, scalar_attr
from hswc.vectorizer.instructions import Instr
from hswc.vectorizer.plan import Buffer, KernelPlan


def hoisted(plan: KernelPlan, instr: Instr) -> bool:
    """Whether Init computes this instruction rather than every chunk (module docstring)."""
    return instr.dst.level == "column" and bool(plan.wide_columns)


def fill_wide_columns(e: Emitter, plan: KernelPlan, objects: dict[Buffer, SSAValue],
                      columns: dict[Buffer, SSAValue], uniforms: Uniforms,
                      ub_factor: SSAValue) -> None:
    """The column instructions, then each wide column copied to rows 1 .. ubFactor - 1
    (module docstring); nothing where the plan has no wide columns."""
    wide = plan.wide_columns
    if not wide:
        return
    tensors = dict(columns)

    def tensor(b: Buffer) -> SSAValue:
        if b not in tensors:
            tensors[b] = e.value(ascend.TBufGetOp(objects[b], ELEMENT_TYPES[b.dtype]),
                                 local_name(b))
        return tensors[b]

    barriers = not plan.schedule.no_pipe_barriers
    count = e.a.const(plan.pitch)
    for instr in [i for i in plan.instrs() if hoisted(plan, i)]:
        dst = tensor(plan.place[instr.dst])
        srcs = [tensor(plan.place[v]) for v in instr.srcs]
        like = srcs[-1] if srcs else dst
        scalar = (None if instr.scalar is None
                  else uniforms.value(instr.scalar) if isinstance(instr.scalar, Node)
                  else scalar_attr(instr.scalar, like))
        if barriers:
            e.op(ascend.PipeBarrierOp())
        e.op(build(instr, dst, srcs, count, scalar))
    if barriers:
        e.op(ascend.PipeBarrierOp())
    body = Block(arg_types=[IndexType()])
    body.args[0].name_hint = "row"
    e.op(scf.ForOp(e.a.const(1), ub_factor, e.a.const(1), [], Region(body)))
    inner = Emitter(InsertPoint.at_end(body))
    at = inner.a.name(inner.a.mul(body.args[0], inner.a.const(plan.pitch)), "row_start")
    for b in sorted(wide, key=plan.buffers.index):
        row = inner.value(ascend.LocalAtOp(tensor(b), at), f"{local_name(b)}_row")
        inner.op(ascend.DataCopyOp(row, tensor(b), count))
    inner.op(scf.YieldOp())
