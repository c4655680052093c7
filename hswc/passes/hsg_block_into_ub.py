"""hsg-block-into-ub: walk each core's slice in UB-sized chunks, the last one shorter.

Input: `hsg.elementwise_slice` (one core's slice, any length; `hsg-tile-on-cores`).
Output: the kernel's Process loop, guarded as the reference guards it:
    scf.if (blockLength > 0 && ubFactor > 0) {
      scf.for %i = 0 to CeilDiv(blockLength, ubFactor) {
        hsg.elementwise_chunk ... slice [offset, blockLength] chunk [i*ubFactor, cur] ... {body}
      }
    }
where cur = min(ubFactor, blockLength - i*ubFactor) (hswc.tiling.chunk_extent).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
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


class BlockSliceIntoChunks(RewritePattern):
    """hsg.elementwise_slice -> guarded scf.for over hsg.elementwise_chunk."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hsg.ElementwiseSliceOp, rewriter: PatternRewriter) -> None:
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
        chunk = inner.builder.insert(
            hsg.ElementwiseChunkOp(op.inputs, op.output, op.offset, op.size, chunk_offset,
                                   chunk_size, op.ub_factor, op.body.clone())
        )
        chunk.attributes.update(op.attributes)  # hsg.broadcast: how its inputs are read
        inner.builder.insert(scf.YieldOp())
        outer.builder.insert(scf.ForOp(zero, loop_count, one, [], Region(body)))
        outer.builder.insert(scf.YieldOp())
        branch = scf.IfOp(has_work, [], Region(then_block))
        copy_location(op, [*ops_between(before, op), branch])
        rewriter.replace(op, branch)


@dataclass(frozen=True)
class HsgBlockIntoUbPass(ModulePass):
    """Each core's slice -> a loop of UB-sized chunks (see the module docstring)."""

    name = "hsg-block-into-ub"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(BlockSliceIntoChunks(), apply_recursively=False).rewrite_module(op)
