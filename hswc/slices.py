"""Static slices: what a `tensor.extract_slice` reads of its source, dim by dim, so that a reader
can read the source itself through an indexing map at constant offsets (hswc.broadcast's
windows; hsg-fold-slices folds them).

A slice is foldable when its offsets, sizes and strides are static, its strides 1, and its
source and result shapes static: then result element (i_0, ..., i_r) is source element
(o_0 + i_{k(0)}, ..., o_n + i_{k(n)}), where k maps the source dims the result keeps to the
result's dims in order and a dim the result drops (rank reduction: a size-1 slice of it) reads
index o_j alone. `slice_refusal` says why a slice is not foldable (a strided slice, a dynamic
offset or size); a slice that reads past its source is invalid IR (as MLIR's verifier says),
an OpError at it.

A `tensor.insert_slice` of unit strides and static offsets and sizes is the same box written
instead of read: its source is the box, its destination the larger tensor (`insert_refusal`,
`insert_dims`: hswc.output_windows writes a kernel output there).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from hswc.diagnostics import OpError


@dataclass(frozen=True)
class SliceDim:
    """One source dim of a slice: where it starts, how many elements it takes, of how many,
    and the result dim it becomes (None: dropped, a size-1 slice of it)."""

    offset: int
    size: int
    length: int
    result: int | None


def _static(values: tuple[int, ...]) -> bool:
    return all(v >= 0 for v in values)


def slice_refusal(op: Operation) -> str | None:
    """Why `op`, a tensor.extract_slice, is not read through a map (module docstring); None
    when it can be."""
    if not isinstance(op, tensor.ExtractSliceOp):
        return "not a tensor.extract_slice"
    return _box_refusal(op, (op.source, op.result))


def insert_refusal(op: Operation) -> str | None:
    """Why `op`, a tensor.insert_slice, is not a box written at static offsets (module
    docstring); None when it is."""
    if not isinstance(op, tensor.InsertSliceOp):
        return "not a tensor.insert_slice"
    return _box_refusal(op, (op.dest, op.source))


def _box_refusal(op: tensor.ExtractSliceOp | tensor.InsertSliceOp,
                 values: tuple[SSAValue, SSAValue]) -> str | None:
    strides = tuple(op.static_strides.get_values())
    if op.strides or any(s != 1 for s in strides):
        return (f"a strided slice (strides {list(strides) if not op.strides else 'dynamic'}; "
                "hswc reads slices of unit stride)")
    if op.offsets or not _static(tuple(op.static_offsets.get_values())):
        return "a slice at a dynamic offset"
    if op.sizes or not _static(tuple(op.static_sizes.get_values())):
        return "a slice of a dynamic size"
    for value in values:
        t = value.type
        if not isinstance(t, TensorType) or not t.has_static_shape():
            return f"a slice of dynamic shape ({t})"
    return None


def slice_dims(op: tensor.ExtractSliceOp) -> list[SliceDim]:
    """The slice's source dims (module docstring); the slice must be foldable
    (slice_refusal None). OpError at the slice when it reads past its source or its result
    type does not follow from its sizes."""
    return _box_dims(op, op.source.type, op.result.type, "reads", "result type")


def insert_dims(op: tensor.InsertSliceOp) -> list[SliceDim]:
    """The destination's dims of an insert (module docstring; `result` names the inserted
    tensor's dim); insert_refusal must be None. OpError at the insert when it writes past its
    destination or its source type does not follow from its sizes."""
    return _box_dims(op, op.dest.type, op.source.type, "writes", "source type")


def _box_dims(op: tensor.ExtractSliceOp | tensor.InsertSliceOp, source: Attribute,
              result: Attribute, verb: str, small: str) -> list[SliceDim]:
    offsets = [int(v) for v in op.static_offsets.get_values()]
    sizes = [int(v) for v in op.static_sizes.get_values()]
    assert isinstance(source, TensorType) and isinstance(result, TensorType)
    lengths, kept = list(source.get_shape()), list(result.get_shape())
    if not len(offsets) == len(sizes) == len(lengths):
        raise OpError(op, f"has {len(offsets)} offsets and {len(sizes)} sizes for a rank-"
                      f"{len(lengths)} source")
    dims: list[SliceDim] = []
    k = 0
    for j, (offset, size, length) in enumerate(zip(offsets, sizes, lengths, strict=True)):
        if offset + size > length:
            raise OpError(op, f"{verb} elements {offset} to {offset + size - 1} of dim {j} of "
                          f"its {'source' if verb == 'reads' else 'destination'}, which has "
                          f"{length}: out of bounds")
        if k < len(kept) and kept[k] == size and (size != 1 or
                                                  len(kept) - k >= len(lengths) - j):
            dims.append(SliceDim(offset, size, length, k))
            k += 1
        elif size == 1:
            dims.append(SliceDim(offset, size, length, None))
        else:
            raise OpError(op, f"has {small} {result}, which its sizes {sizes} do not give")
    if k != len(kept):
        raise OpError(op, f"has {small} {result}, which its sizes {sizes} do not give")
    return dims
