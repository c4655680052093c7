"""hsg-generalize-named: upstream linalg's named elementwise ops become linalg.generic.

Input: `linalg.add`, `sub`, `mul`, `max`, `min`, `select`, `copy`, `exp`, `log`, `sqrt` (every
named op xDSL parses as `ElementwiseOperation`), `linalg.fill` and `linalg.broadcast`, on
tensors, anywhere in the module.
Output: each as the `linalg.generic` with the same operands, body, indexing maps and parallel
iterators (xDSL's own generalization, `linalg-generalize-named-ops`); `linalg.broadcast`, which
xDSL does not generalize, as the generic whose input map is the identity with the broadcast
`dimensions` left out (`dimensions = [0]` on a 4x8 result: `(d0, d1) -> (d1)`); one of static
shapes whose `dimensions` are all of size 1 (a conv's bias `24` -> `1x24x1x1`) moves no element:
it becomes the `tensor.expand_shape` of the same data (hswc.passes.unit_broadcast), a view
that stays on the host, or folds into the maps of the generics reading it
(hsg-fold-reshapes). The generics
then fuse and lower like any other (hsg-fuse-elementwise). The body of each is the named op's
own (MLIR's definition of it), so no bit changes. Named ops that are not elementwise (matmul,
transpose, reductions, convolutions) are left as they are: hsg-tile-on-cores refuses them by
name.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.dialects.linalg import abstract_ops
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp, GenericOp
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.linalg_generalize_named_ops import GeneralizeNamedOpPattern

from hswc.passes import mark_unchanged
from hswc.passes.unit_broadcast import unit_broadcast_view


class GeneralizeElementwise(RewritePattern):
    """An elementwise named op or linalg.fill -> linalg.generic (xDSL's rewrite)."""

    def __init__(self) -> None:
        self.xdsl = GeneralizeNamedOpPattern()

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: abstract_ops.NamedOperation,
                          rewriter: PatternRewriter) -> None:
        if isinstance(op, FillOp) and not _feeds_generics(op):
            return  # the init of a matmul or a convolution: it stays with it on the host
        if isinstance(op, abstract_ops.ElementwiseOperation | FillOp):
            location = op.location
            after = op.next_op
            self.xdsl.match_and_rewrite(op, rewriter)
            replacement = after.prev_op if after is not None else None
            if replacement is not None:
                replacement.location = location


def _feeds_generics(op: FillOp) -> bool:
    """Whether every user of the fill is a linalg.generic (which it can join)."""
    return all(isinstance(use.operation, GenericOp | abstract_ops.ElementwiseOperation)
               for result in op.results for use in result.uses)


class GeneralizeBroadcast(RewritePattern):
    """linalg.broadcast -> linalg.generic reading the input through a projection; one that
    adds only dims of size 1 -> tensor.expand_shape (a view: hswc.passes.unit_broadcast)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastOp, rewriter: PatternRewriter) -> None:
        if not op.result:
            return  # on memrefs: not what hswc compiles, left to be refused
        view = unit_broadcast_view(op)
        if view is not None:
            init = op.init.owner
            rewriter.replace(op, view)
            if isinstance(init, tensor.EmptyOp) and not init.tensor.uses:
                rewriter.erase_op(init)  # the broadcast's init, which the view does not need
            return
        rank = len(op.init.type.get_shape())  # type: ignore[attr-defined]
        dropped = set(op.dimensions.get_values())
        kept: list[AffineExpr] = [AffineExpr.dimension(d) for d in range(rank)
                                  if d not in dropped]
        maps = [AffineMapAttr(AffineMap(rank, 0, tuple(kept))),
                AffineMapAttr(AffineMap.identity(rank))]
        parallel = [IteratorTypeAttr.parallel()] * rank
        generic = GenericOp([op.input], [op.init], op.hidden_region.clone(), maps, parallel,
                            [r.type for r in op.result])
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class HsgGeneralizeNamedPass(ModulePass):
    """Named elementwise linalg ops -> linalg.generic (see the module docstring)."""

    name = "hsg-generalize-named"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = False
        for pattern in (GeneralizeElementwise(), GeneralizeBroadcast()):
            changed |= PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        if not changed:
            mark_unchanged(op)
