"""hsg-block-into-ub: walk each core's slice in UB-sized chunks, the last one shorter.

Input: `hsg.elementwise_slice` or a row kernel's `hsg.row_slice` (one core's slice of elements
or of rows, any length; `hsg-tile-on-cores`).
Output: the kernel's Process loop, guarded as the reference guards it:
    scf.if (blockLength > 0 && ubFactor > 0) {
      scf.for %i = 0 to CeilDiv(blockLength, ubFactor) {
        hsg.elementwise_chunk ... slice [offset, blockLength] chunk [i*ubFactor, cur] ... {body}
      }
    }
where cur = min(ubFactor, blockLength - i*ubFactor) (hswc.tiling.chunk_extent); a row slice's
chunks are `hsg.row_chunk` of whole rows (its ubFactor counts rows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from hswc.diagnostics import copy_location, ops_between
from hswc.dialects import hsg
from hswc.index_arith import IRArith
from hswc.tiling import chunk_extent


def _chunk_loop(op: hsg.ElementwiseSliceOp | hsg.RowSliceOp,
                chunk: Callable[[SSAValue, SSAValue], Operation]) -> scf.IfOp:
    """The guarded loop over a slice's UB passes, `chunk(offset, size)` the op of each pass,
    inserted before `op` (its location on everything it adds)."""
    before = op.prev_op
    guard = IRArith(InsertPoint.before(op))
    zero = guard.const(0)
    has_work = guard.and_(guard.gt(op.size, zero), guard.gt(op.ub_factor, zero))

    then_block = Block()
    outer = IRArith(InsertPoint.at_end(then_block))
    loop_count = outer.name(outer.ceil_div(op.size, op.ub_factor), "loop_count")
    one = outer.const(1)

    body = Block(arg_types=[IndexType()])
    index = body.args[0]
    index.name_hint = "i"
    inner = IRArith(InsertPoint.at_end(body))
    chunk_offset, chunk_size = chunk_extent(inner, op.size, op.ub_factor, index)
    chunk_offset.name_hint, chunk_size.name_hint = "chunk_offset", "current_num"
    inner.builder.insert(chunk(chunk_offset, chunk_size))
    inner.builder.insert(scf.YieldOp())
    outer.builder.insert(scf.ForOp(zero, loop_count, one, [], Region(body)))
    outer.builder.insert(scf.YieldOp())
    branch = scf.IfOp(has_work, [], Region(then_block))
    copy_location(op, [*ops_between(before, op), branch])
    return branch


class BlockSliceIntoChunks(RewritePattern):
    """hsg.elementwise_slice -> guarded scf.for over hsg.elementwise_chunk."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hsg.ElementwiseSliceOp, rewriter: PatternRewriter) -> None:
        def chunk(offset: SSAValue, size: SSAValue) -> Operation:
            made = hsg.ElementwiseChunkOp(op.inputs, op.outputs, op.offset, op.size, offset,
                                          size, op.ub_factor, op.body.clone())
            made.attributes.update(op.attributes)  # hsg.broadcast: how its inputs are read
            return made

        rewriter.replace(op, _chunk_loop(op, chunk))


class BlockRowSliceIntoChunks(RewritePattern):
    """hsg.row_slice -> guarded scf.for over hsg.row_chunk (chunks of whole rows)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hsg.RowSliceOp, rewriter: PatternRewriter) -> None:
        def chunk(offset: SSAValue, size: SSAValue) -> Operation:
            return hsg.RowChunkOp(op.inputs, op.outputs, op.offset, op.size, offset, size,
                                  op.ub_factor, op.rows, op.body.clone(), op.row_length)

        rewriter.replace(op, _chunk_loop(op, chunk))


@dataclass(frozen=True)
class HsgBlockIntoUbPass(ModulePass):
    """Each core's slice -> a loop of UB-sized chunks (see the module docstring)."""

    name = "hsg-block-into-ub"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier([
            BlockSliceIntoChunks(), BlockRowSliceIntoChunks()], dce_enabled=False),
            apply_recursively=False).rewrite_module(op)
