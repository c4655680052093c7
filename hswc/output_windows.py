"""Joint outputs: kernel outputs written at windows of one larger tensor, as
`tensor.insert_slice` writes them (a gradient's two halves into dx: GluGrad's one output).

The mirror of hswc.broadcast's windows, which read an input at an offset: output k of a kernel
(of the kernel's iteration shape) goes to flat index offset_k + sum_d digit_d(i) * stride_kd of
the joint tensor, with the joint tensor's C-order strides of the dims the insert maps output
dim d to (a dim the insert drops, a size-1 box, adds only its offset). The description is a
`Broadcast` whose "inputs" are the outputs (its strides, windows, `index`, `reach` and
hswc.vectorizer.broadcast_copy's `row_runs` and `operand_index` mean the same for a write),
carried as `hsg.output_windows` in hsg.broadcast's encoding: `[array<i64: shape>, array<i64:
strides..., offset, elements>, ...]`, one array per output, an empty one for an output of its
own.

A joint tensor is written whole and once: the boxes of the outputs written into it are pairwise
disjoint and their sizes add up to its element count (`joint_refusal`), so nothing of it is
left unwritten (tensor.empty's contents are undefined) nor written twice. Only static shapes
(an offset of a dynamic shape is refused, as for windows read).

hsg-tile-on-cores writes these descriptions (hswc.passes.joint_outputs); the interpreter's
launch and hswc.vectorizer.window_copy_out read them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, TensorType, i64
from xdsl.ir import Attribute, Operation

from hswc.broadcast import BROADCAST_ATTR, Broadcast, Window
from hswc.slices import insert_dims, insert_refusal

OUTPUT_WINDOWS_ATTR = "hsg.output_windows"


@dataclass(frozen=True)
class Box:
    """What one insert writes of its destination: per destination dim, the first index and
    the count; and, per inserted-tensor dim in order, the destination dim it lands on."""

    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    dims: tuple[int, ...]
    shape: tuple[int, ...]
    """The destination's shape."""

    @property
    def elements(self) -> int:
        return math.prod(self.sizes)

    def overlaps(self, other: Box) -> bool:
        return all(a < b + m and b < a + n for a, n, b, m in
                   zip(self.offsets, self.sizes, other.offsets, other.sizes, strict=True))

    def access(self) -> tuple[tuple[int, ...], Window]:
        """The inserted tensor's strides in the destination, per its own dims, and its window
        (the flat offset of its element 0, the destination's element count)."""
        c_strides = [math.prod(self.shape[k + 1:]) for k in range(len(self.shape))]
        offset = sum(o * s for o, s in zip(self.offsets, c_strides, strict=True))
        return tuple(c_strides[d] for d in self.dims), Window(offset, math.prod(self.shape))


def insert_box(op: tensor.InsertSliceOp) -> Box | str:
    """The box `op` writes, or why it is not one a kernel can write (a strided or dynamic
    slice); an OpError at it when it writes past its destination (invalid IR)."""
    why = insert_refusal(op)
    if why is not None:
        return why
    dest = op.dest.type
    assert isinstance(dest, TensorType)
    dims = insert_dims(op)
    return Box(tuple(d.offset for d in dims), tuple(d.size for d in dims),
               tuple(j for j, d in enumerate(dims) if d.result is not None),
               tuple(dest.get_shape()))


def joint_refusal(boxes: Sequence[Box]) -> str | None:
    """Why the boxes, all of one destination, do not write it whole and once; None when they
    do (module docstring)."""
    if not boxes:
        return "no output is written into it"
    total = math.prod(boxes[0].shape)
    for i, a in enumerate(boxes):
        for j, b in enumerate(boxes[i + 1:], i + 1):
            if a.overlaps(b):
                return (f"the inserts {i + 1} and {j + 1} write overlapping elements (at "
                        f"{list(a.offsets)} and {list(b.offsets)})")
    written = sum(b.elements for b in boxes)
    if written != total:
        return (f"the inserts write {written} of its {total} elements; the rest would be "
                "undefined (a tensor.empty's)")
    return None


def describe(shape: Sequence[int], boxes: Sequence[Box | None]) -> Broadcast:
    """The description of a kernel's outputs of iteration shape `shape`: each written into
    its box, or (None) an output of its own."""
    strides: list[tuple[int, ...] | None] = []
    windows: list[Window | None] = []
    for box in boxes:
        if box is None:
            strides.append(None)
            windows.append(None)
            continue
        s, window = box.access()
        if len(s) != len(shape):
            raise ValueError(f"an insert of a rank-{len(s)} tensor into an output of rank "
                             f"{len(shape)}")
        strides.append(s)
        windows.append(window)
    return Broadcast(tuple(shape), tuple(strides), tuple(windows))


def to_attr(description: Broadcast) -> ArrayAttr[DenseArrayBase]:
    """`hsg.output_windows` of a description (an empty array for an output of its own)."""
    arrays = [DenseArrayBase.from_list(i64, list(description.shape))]
    for i, s in enumerate(description.strides):
        window = description.window(i)
        tail = [] if window is None else [window.offset, window.elements]
        arrays.append(DenseArrayBase.from_list(i64, [*(s or ()), *tail]))
    return ArrayAttr(arrays)


def from_attr(attr: Attribute) -> Broadcast:
    """The description in `attr`; ValueError naming hsg.output_windows when it is not one:
    every output written at a window is of a static shape and inside its joint tensor."""
    try:
        found = Broadcast.from_attr(attr, role="output")
    except ValueError as error:
        raise ValueError(str(error).replace(BROADCAST_ATTR, OUTPUT_WINDOWS_ATTR)) from None
    for i, strides in enumerate(found.strides):
        if strides is not None and found.window(i) is None:
            raise ValueError(f"{OUTPUT_WINDOWS_ATTR}: output {i + 1} has strides but no "
                             "offset and element count (an output of its own is [])")
        if strides is not None and not _one_to_one(found.shape, strides):
            raise ValueError(f"{OUTPUT_WINDOWS_ATTR}: output {i + 1}'s strides {list(strides)} "
                             f"write two of its {list(found.shape)} elements to one index")
    return found


def _one_to_one(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether distinct indices of `shape` go to distinct flat indices: each dim's stride
    (dims of one element aside) exceeds the largest offset of the dims of smaller strides."""
    spread = 0
    for n, s in sorted(((n, s) for n, s in zip(shape, strides, strict=True) if n > 1),
                       key=lambda p: p[1]):
        if s <= spread:
            return False
        spread += (n - 1) * s
    return True


def read_output_windows(op: Operation) -> Broadcast | None:
    """The `hsg.output_windows` of an op, None without one."""
    attr = op.attributes.get(OUTPUT_WINDOWS_ATTR)
    return None if attr is None else from_attr(attr)
