"""hsg-fold-slices: a static slice read by an elementwise generic folds into the generic's
indexing map, which then reads the sliced tensor itself at constant offsets.

Input: `linalg.generic` ops whose inputs are `tensor.extract_slice` results of static offsets,
sizes and shapes and unit strides (torch-mlir's `x.chunk(2, -1)`: `[0, 0] [6, 128] [1, 1]` and
`[0, 128] [6, 128] [1, 1]` of a `6x256` tensor), rank-reducing ones included (`x[:, 3]`).
Output: each such generic reads the slice's source through the map that indexes the source's
dims (hswc.slices): per source dim of offset o, size s and length L, read by the consumer
through `d` (or `d + c`) or the constant c,
- the whole dim (s = L): as before;
- a constant: the constant o + c;
- s dividing both L and o (a half, a k-th part): the dim split into `L/s x s` by a
  `tensor.expand_shape` of the source (a view of the same row-major data, made once per source
  and split), read at the constant part o/s and `d`: `(d0, d1) -> (d0, 1, d1)` on a
  `6x2x128` view for the second half, `(d0, 0, d1)` for the first;
- otherwise an offset o + c > 0: `d + o + c` (`(d0, d1) -> (d0, d1 + 3)`).
An offset 0 of a part that does not divide its dim has no map that linalg's verifier accepts
(a dim read alone must span its operand's dim): that slice stays, as does any fold the
generic's verifier then refuses (a loop extent only the slice gave). Slices left unused are
erased. Every element read is the one the slice held, so results do not change; the generic
becomes one kernel reading the halves of one GM tensor in row runs (hswc.broadcast windows,
hswc.vectorizer.broadcast_copy) instead of a copy of each half on the host.

A foldable slice of the result of an elementwise generic that reads its inputs at its own
index, when every user of that result is such a slice, is first bubbled up through it
(bubble_slice): the generic computes just the slice, on the same slice of each input, so the
slices reach the inputs and fold as above (torch-mlir widens x to f32 before chunking it).

A slice that is not foldable (hswc.slices.slice_refusal: a strided slice, a dynamic offset)
stays on the host, and hsg-tile-on-cores' remark says why; one reading past its source is an
error at it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, ModuleOp, TensorType, i64
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from hswc.broadcast import dim_and_offset
from hswc.passes import mark_unchanged
from hswc.passes.hsg_fuse_elementwise import fusable_generic
from hswc.passes.kernel_functions import erase_if_dead
from hswc.slices import slice_dims, slice_refusal

Views = dict[tuple[SSAValue, tuple[int, ...]], SSAValue]
"""The expand_shape views made so far: (source, parts per dim (1: not split)) -> the view."""


def _source_exprs(op: tensor.ExtractSliceOp, exprs: tuple[AffineExpr, ...]
                  ) -> tuple[list[AffineExpr], tuple[int, ...]] | None:
    """The expressions indexing the slice's source (or its view), given those indexing the
    slice, and the parts each source dim is split into; None when some dim has no map."""
    found: list[AffineExpr] = []
    parts: list[int] = []
    for dim in slice_dims(op):
        base = exprs[dim.result] if dim.result is not None else AffineConstantExpr(0)
        read = dim_and_offset(base)
        if read is None:
            return None
        d, c = read
        parts.append(1)
        if dim.size == dim.length:
            found.append(base)
        elif d is None:
            found.append(AffineConstantExpr(dim.offset + c))
        elif c == 0 and dim.offset % dim.size == 0 and dim.length % dim.size == 0:
            parts[-1] = dim.length // dim.size
            found += [AffineConstantExpr(dim.offset // dim.size), AffineDimExpr(d)]
        elif dim.offset + c > 0:
            found.append(AffineDimExpr(d) + (dim.offset + c))
        else:
            return None
    return found, tuple(parts)


def _view(op: tensor.ExtractSliceOp, parts: tuple[int, ...], views: Views) -> SSAValue:
    """The slice's source with each dim j split into parts[j] x (its length / parts[j])."""
    if all(p == 1 for p in parts):
        return op.source
    key = (op.source, parts)
    if key in views:
        return views[key]
    source = op.source.type
    assert isinstance(source, TensorType)
    shape: list[int] = []
    groups: list[ArrayAttr[IntegerAttr]] = []
    for length, p in zip(source.get_shape(), parts, strict=True):
        dims = [length] if p == 1 else [p, length // p]
        groups.append(ArrayAttr([IntegerAttr(len(shape) + k, i64) for k in range(len(dims))]))
        shape += dims
    result = TensorType(source.get_element_type(), shape)
    view = tensor.ExpandShapeOp(op.source, [], ArrayAttr(groups), shape, result)
    owner = op.source.owner
    where = InsertPoint.after(owner) if isinstance(owner, Operation) else \
        InsertPoint.at_start(owner)
    Rewriter.insert_op(view, where)
    view.result.name_hint = op.source.name_hint
    views[key] = view.result
    return view.result


def fold_input(op: GenericOp, i: int, views: Views) -> Operation | None:
    """Input i read through its slice's source, if that slice folds (module docstring); the
    slice, else None."""
    found = op.inputs[i].owner
    if not isinstance(found, tensor.ExtractSliceOp) or slice_refusal(found) is not None:
        return None
    maps = [m.data for m in op.indexing_maps.data]
    source = _source_exprs(found, maps[i].results)
    if source is None:
        return None
    exprs, parts = source
    new = AffineMap(maps[i].num_dims, maps[i].num_symbols, tuple(exprs))
    old_value, old_maps = op.inputs[i], op.indexing_maps
    op.operands[i] = _view(found, parts, views)
    op.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in (*maps[:i], new, *maps[i + 1:])])
    try:
        op.verify()
    except VerifyException:  # a loop extent only the slice gave: it stays
        op.operands[i], op.indexing_maps = old_value, old_maps
        return None
    return found


def _sliced_producer(op: tensor.ExtractSliceOp) -> GenericOp | None:
    """The elementwise generic `op` slices, when every user of its result is a foldable slice
    and it reads each input at its own index in its own shape (so a slice of its result is
    the generic on the same slice of each input); else None."""
    producer = op.source.owner
    if not isinstance(producer, GenericOp) or not fusable_generic(producer):
        return None
    if not all(isinstance(u.operation, tensor.ExtractSliceOp)
               and slice_refusal(u.operation) is None for u in producer.res[0].uses):
        return None
    result = producer.res[0].type
    rank = len(producer.iterator_types)
    for value, attr in zip(producer.inputs, producer.indexing_maps.data, strict=False):
        t = value.type
        if attr.data != AffineMap.identity(rank) or not isinstance(t, TensorType) \
                or not isinstance(result, TensorType) or t.get_shape() != result.get_shape():
            return None
    return producer


def bubble_slice(op: tensor.ExtractSliceOp) -> bool:
    """A slice of an elementwise generic's result replaced by that generic computing only the
    slice, on the same slice of each input (MLIR's bubbling of extract_slice through linalg
    ops); whether it was. Done only where every user of the result is such a slice, so no
    element is computed twice and the whole-tensor generic goes away: torch-mlir's `extf` of x
    before `x.chunk(2)` then reads x's halves, and fuses into the generic of the halves."""
    producer = _sliced_producer(op)
    if producer is None:
        return False
    shape = op.result.type.get_shape()  # type: ignore[attr-defined]
    b = InsertPoint.before(op)
    inputs: list[SSAValue] = []
    for value in producer.inputs:
        t = TensorType(value.type.get_element_type(), shape)  # type: ignore[attr-defined]
        part = tensor.ExtractSliceOp(
            value, [int(v) for v in op.static_offsets.get_values()],
            [int(v) for v in op.static_sizes.get_values()],
            [int(v) for v in op.static_strides.get_values()], t)
        Rewriter.insert_op(part, b)
        part.location = op.location
        inputs.append(part.result)
    out = TensorType(op.result.type.get_element_type(), shape)  # type: ignore[attr-defined]
    init = tensor.EmptyOp([], out)
    Rewriter.insert_op(init, b)
    rank = len(shape)
    generic = GenericOp(inputs, [init.results[0]], producer.body.clone(),
                        [AffineMapAttr(AffineMap.identity(rank))] * (len(inputs) + 1),
                        [IteratorTypeAttr.parallel()] * rank, [out])
    generic.attributes.update(producer.attributes)
    generic.location = producer.location
    Rewriter.insert_op(generic, b)
    generic.res[0].name_hint = op.result.name_hint
    op.result.replace_all_uses_with(generic.res[0])
    Rewriter.erase_op(op)
    if not producer.res[0].uses:
        owners = [v.owner for v in producer.outputs]
        Rewriter.erase_op(producer)
        for owner in owners:
            erase_if_dead(owner)
    return True


def bubble_slices(module: ModuleOp) -> bool:
    """bubble_slice for every slice it applies to, until none does; whether any did."""
    bubbled = False
    while True:
        found = [op for op in module.walk() if isinstance(op, tensor.ExtractSliceOp)
                 and slice_refusal(op) is None and _sliced_producer(op) is not None]
        if not found:
            return bubbled
        for op in found:
            if op.parent is not None:
                bubbled |= bubble_slice(op)


def fold_slices(module: ModuleOp) -> bool:
    """Every foldable slice read by a generic in `module` folded (those of an elementwise
    generic's result first bubbled up through it); whether any was."""
    for op in module.walk():  # every static slice checked, read by a generic or not
        if isinstance(op, tensor.ExtractSliceOp) and slice_refusal(op) is None:
            slice_dims(op)
    views: Views = {}
    left: dict[Operation, None] = {}
    bubbled = bubble_slices(module)
    for op in list(module.walk()):
        if not isinstance(op, GenericOp):
            continue
        for i in range(len(op.inputs)):
            while (found := fold_input(op, i, views)) is not None:
                left[found] = None
    for found in left:
        if found.parent is not None and not any(r.uses for r in found.results):
            Rewriter.erase_op(found)
    for view in views.values():
        owner = view.owner
        if isinstance(owner, Operation) and not view.uses:
            Rewriter.erase_op(owner)
    return bubbled or bool(left)


@dataclass(frozen=True)
class HsgFoldSlicesPass(ModulePass):
    """Input: linalg.generic reading static slices. Output: reading the slices' sources at
    constant offsets (module docstring)."""

    name = "hsg-fold-slices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not fold_slices(op):
            mark_unchanged(op)
