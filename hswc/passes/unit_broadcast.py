"""A `linalg.broadcast` that adds only dims of size 1 is a reshape: the same elements in the
same order (MLIR's linalg.broadcast: `init[i0, ..., in] = input[the i's of the dims not in
dimensions]`, so with every added dim of size 1 each output element is the input's of the same
flat index). As `tensor.expand_shape` it is a view the host keeps (no kernel copies it), or
that hsg-fold-reshapes folds into the maps of the generics reading it. A conv's bias
broadcast to its `1xCx1x1` output (MobileNetV3-Small's squeeze-excitation convolutions, as
torch-mlir exports them) is such a broadcast.

Only static shapes, and an input of rank >= 1 (expand_shape's groups give each output dim to
an input dim; a rank-0 input has none), are rewritten; any other broadcast stays a generic."""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.dialects.linalg.ops import BroadcastOp


def unit_groups(rank: int, added: set[int]) -> list[list[int]] | None:
    """expand_shape's reassociation from the input's dims to the output's (of `rank`), where
    the output dims in `added` are new: each new dim joins the group of the next kept dim,
    those after the last kept dim its group. None when no dim is kept (a rank-0 input)."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for d in range(rank):
        pending.append(d)
        if d not in added:
            groups.append(pending)
            pending = []
    if not groups:
        return None
    groups[-1] += pending
    return groups


def unit_broadcast_view(op: BroadcastOp) -> tensor.ExpandShapeOp | None:
    """The `tensor.expand_shape` equal to `op` when it adds only static dims of size 1 and its
    shapes are static, else None."""
    source, init = op.input.type, op.init.type
    if not (isinstance(source, TensorType) and isinstance(init, TensorType)
            and source.has_static_shape() and init.has_static_shape()):
        return None
    shape = init.get_shape()
    added = {int(d) for d in op.dimensions.get_values()}
    if any(shape[d] != 1 for d in added):
        return None
    groups = unit_groups(len(shape), added)
    if groups is None:
        return None
    view = tensor.ExpandShapeOp(
        op.input, [], ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups]),
        shape, init)
    view.location = op.location
    view.result.name_hint = op.result[0].name_hint
    return view
