"""hsg-fold-reshapes: a reshape that only adds or drops size-1 dims folds into the elementwise
generic that produces its source, or into the indexing map of the generic that reads it.

Input: `linalg.generic` ops whose inputs come from `tensor.expand_shape` or
`tensor.collapse_shape` of static shape in which each reassociation group holds at most one dim
of size other than 1 (torch-mlir's `tensor<8xf32> into tensor<8x1x1xf32>` of a BatchNorm
weight, read through `(d0, d1, d2, d3) -> (d1, 0, 0)`; a `1x8x1x1` squeeze-excitation scale
collapsed to `1x8`).
Output: where the reshape's source is the result of an elementwise generic used by nothing else,
that generic iterates the reshaped shape instead (its size-1 dims dropped or added, each
input's map re-indexed: a dropped dim reads index 0) and produces the reshaped tensor itself;
otherwise each generic reading the reshape reads its source, through the map that indexes the
source's dims directly: a group's one dim of size other than 1 takes the expression of the dim
it corresponds to, every size-1 dim the constant 0 (`(d0, d1, d2, d3) -> (d1)`), where that
map reads each dim through a dim or 0 (hswc.broadcast.is_projection) so the generic stays
one fusion can join. Reshapes left unused are erased. A reshape is a view of row-major data,
so every element read is the one it was (MLIR's `linalg-fuse-elementwise-ops` folds reshapes by
expansion or collapsing likewise), and a generic producing the source now feeds its reader
directly, so hsg-fuse-elementwise can fuse the two and tile-on-cores can make one kernel of a
region a reshape split before. A group with two dims of size other than 1 (a `4x8` reshaped to
`32`) is a relinearisation, not a projection: it stays, as does a reshape that is the only
place a loop dim's range comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.broadcast import dim_and_offset, is_projection
from hswc.passes import mark_unchanged
from hswc.passes.hsg_fuse_elementwise import fusable_generic

Reshape = tensor.ExpandShapeOp | tensor.CollapseShapeOp


def _static_shape(value: SSAValue) -> tuple[int, ...] | None:
    t = value.type
    if not isinstance(t, TensorType):
        return None
    shape = tuple(t.get_shape())
    return None if any(s < 0 for s in shape) else shape


def _groups(op: Reshape) -> list[list[int]]:
    return [[int(d.value.data) for d in group.data]  # type: ignore[attr-defined]
            for group in op.reassociation.data]


def source_exprs(op: Operation, exprs: Sequence[AffineExpr]) -> list[AffineExpr] | None:
    """The expressions indexing the reshape's source, given those indexing its result (one per
    result dim), or None when the reshape is not a projection of size-1 dims (module
    docstring)."""
    if not isinstance(op, Reshape):
        return None
    src, res = _static_shape(op.operands[0]), _static_shape(op.results[0])
    if src is None or res is None or len(exprs) != len(res):
        return None
    zero = AffineConstantExpr(0)
    found: list[AffineExpr] = []
    if isinstance(op, tensor.ExpandShapeOp):
        # source dim j is the result dims groups[j]
        for group in _groups(op):
            wide = [k for k in group if res[k] != 1]
            if len(wide) > 1:
                return None
            found.append(exprs[wide[0]] if wide else zero)
    else:
        # result dim j is the source dims groups[j]
        for j, group in enumerate(_groups(op)):
            wide = [k for k in group if src[k] != 1]
            if len(wide) > 1:
                return None
            found += [exprs[j] if k in wide else zero for k in group]
    return found if len(found) == len(src) else None


def _dims(maps: Sequence[AffineMap]) -> set[int]:
    used: set[int] = set()
    for m in maps:
        for e in m.results:
            used |= {d.position for d in _walk(e) if isinstance(d, AffineDimExpr)}
    return used


def _walk(e: AffineExpr) -> list[AffineExpr]:
    found = [e]
    for child in (getattr(e, "lhs", None), getattr(e, "rhs", None)):
        if isinstance(child, AffineExpr):
            found += _walk(child)
    return found


def fold_input(op: GenericOp, i: int) -> Operation | None:
    """Input i read through its reshape's source, if that reshape folds; the reshape, else
    None."""
    reshape = op.inputs[i].owner
    maps = [m.data for m in op.indexing_maps.data]
    if not isinstance(reshape, Reshape):
        return None
    exprs = source_exprs(reshape, maps[i].results)
    if exprs is None:
        return None
    new = AffineMap(maps[i].num_dims, maps[i].num_symbols, tuple(exprs))
    if not is_projection(new):
        return None  # the generic would stop being one fusion and the vectorizer take
    changed = [*maps[:i], new, *maps[i + 1:]]
    if _dims(changed) != _dims(maps):
        return None  # a loop dim's range came only from the reshaped operand
    op.operands[i] = reshape.operands[0]
    op.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in changed])
    return reshape


def _dim_moves(op: Reshape) -> list[int | None] | None:
    """For each dim of the reshape's source, the result dim it becomes (None: a size-1 dim that
    goes away), or None when the reshape is not a projection of size-1 dims."""
    src, res = _static_shape(op.operands[0]), _static_shape(op.results[0])
    if src is None or res is None:
        return None
    moves: list[int | None] = []
    if isinstance(op, tensor.ExpandShapeOp):
        for group in _groups(op):
            wide = [k for k in group if res[k] != 1]
            if len(wide) > 1:
                return None
            moves.append(wide[0] if wide else None)
    else:
        for j, group in enumerate(_groups(op)):
            wide = [k for k in group if src[k] != 1]
            if len(wide) > 1:
                return None
            moves += [j if k in wide else None for k in group]
    return moves if len(moves) == len(src) else None


def _reindex(m: AffineMap, moves: Sequence[int | None], rank: int) -> AffineMap:
    """`m` over the reshaped iteration space: each dim replaced by the dim it becomes, or 0."""
    exprs: list[AffineExpr] = []
    for e in m.results:
        read = dim_and_offset(e)  # d, d + c (a window: hswc.broadcast) or a constant
        d, c = read if read is not None else (None, 0)
        if d is not None:
            new = moves[d]
            base = AffineConstantExpr(0) if new is None else AffineDimExpr(new)
            exprs.append(base + c if c else base)
        else:
            exprs.append(e)
    return AffineMap(rank, 0, tuple(exprs))


def fold_into_producer(reshape: Operation) -> bool:
    """The reshape's source generic made to produce the reshaped tensor (module docstring);
    whether it was."""
    if not isinstance(reshape, Reshape):
        return False
    producer = reshape.operands[0].owner
    if not (isinstance(producer, GenericOp) and fusable_generic(producer)
            and producer.res[0].has_one_use()):
        return False
    moves = _dim_moves(reshape)
    shape = _static_shape(reshape.results[0])
    if moves is None or shape is None:
        return False
    rank = len(shape)
    maps = [_reindex(m.data, moves, rank) for m in producer.indexing_maps.data[:-1]]
    result_type = reshape.results[0].type
    assert isinstance(result_type, TensorType)
    init = tensor.EmptyOp([], result_type)
    Rewriter.insert_op(init, InsertPoint.before(producer))
    region = producer.detach_region(producer.body)
    new = GenericOp(list(producer.inputs), [init.results[0]], region,
                    [AffineMapAttr(m) for m in (*maps, AffineMap.identity(rank))],
                    [IteratorTypeAttr.parallel()] * rank,
                    [result_type])
    new.attributes.update(producer.attributes)
    new.location = producer.location
    Rewriter.insert_op(new, InsertPoint.before(producer))
    reshape.results[0].replace_all_uses_with(new.res[0])
    Rewriter.erase_op(reshape)
    owners = [v.owner for v in producer.outputs if isinstance(v.owner, Operation)]
    Rewriter.erase_op(producer)
    for owner in owners:
        if not any(r.uses for r in owner.results):
            Rewriter.erase_op(owner)
    return True


def fold_reshapes(module: ModuleOp) -> bool:
    """Every foldable reshape in `module` folded; whether any was."""
    changed = False
    for op in list(module.walk()):
        if isinstance(op, Reshape) and op.parent is not None:
            changed |= fold_into_producer(op)
    left: dict[Operation, None] = {}
    for op in list(module.walk()):
        if not isinstance(op, GenericOp):
            continue
        for i in range(len(op.inputs)):
            while (reshape := fold_input(op, i)) is not None:
                left[reshape] = None
    for reshape in left:
        if reshape.parent is not None and not any(r.uses for r in reshape.results):
            Rewriter.erase_op(reshape)
    return changed or bool(left)


@dataclass(frozen=True)
class HsgFoldReshapesPass(ModulePass):
    """Input: linalg.generic reading reshapes of size-1 dims. Output: reading their sources
    through projected maps (module docstring)."""

    name = "hsg-fold-reshapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not fold_reshapes(op):
            mark_unchanged(op)
