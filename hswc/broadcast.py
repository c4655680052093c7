"""Broadcast operands: an elementwise computation's inputs of lower rank or with size-1 dims.

A generic's input indexed by a projected permutation that keeps the order of the dims it reads
(`(d0, d1) -> (d1)`: a bias; `(d0, d1) -> (d0, 0)` or a size-1 dim: a per-row scale;
`(d0, d1) -> ()`: a rank-0 tensor) is read, at output element i (flat, C order), at the operand's
flat index sum_k digit_k(i) * stride_k, where digit_k(i) is i's index along output dim k and
stride_k the operand's C-order stride of the dim d_k reads (0 where the operand does not read
d_k, or reads it through a size-1 dim). That is MLIR's semantics of the map. The kernels hold
broadcast operands as their own flat GM buffers and read them through these strides; the
description travels on the kernel, slice and chunk ops as `hsg.broadcast`:
`[array<i64: output shape>, array<i64: strides of input 1>, ...]`, an empty array for an input
read at the output's own index. Only static shapes are described (a dynamic one is refused).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i64
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

if TYPE_CHECKING:
    import numpy as np

BROADCAST_ATTR = "hsg.broadcast"
BROADCAST_COPY_ATTR = "hsg.broadcast_copy"
"""On a broadcast input's copy-in loop: how it reads the input (row runs, or why the element
loop; hswc.vectorizer.broadcast_copy). The C++ printer shows it as a comment."""


@dataclass(frozen=True)
class Broadcast:
    """The output's shape and, per input, its strides (None: read at the output's index)."""

    shape: tuple[int, ...]
    strides: tuple[tuple[int, ...] | None, ...]

    @property
    def total(self) -> int:
        return math.prod(self.shape)

    def operand_size(self, i: int) -> int:
        """How many elements input i's GM buffer holds (the largest index it reads, + 1)."""
        strides = self.strides[i]
        if strides is None:
            return self.total
        return 1 + sum((n - 1) * s for n, s in zip(self.shape, strides, strict=True))

    def digits(self) -> list[tuple[int, int]]:
        """(inner, size) per output dim: digit_k(i) = (i // inner) % size."""
        out, inner = [], 1
        for n in reversed(self.shape):
            out.append((inner, n))
            inner *= n
        return out[::-1]

    def index(self, i: int, flat: np.ndarray) -> np.ndarray:
        """Input i's flat indices at the output's flat indices `flat`."""
        strides = self.strides[i]
        if strides is None:
            return flat
        import numpy as np  # only the interpreter runs this; compiling needs no numpy

        result = np.zeros_like(flat)
        for (inner, size), stride in zip(self.digits(), strides, strict=True):
            if stride:
                result += (flat // inner) % size * stride
        return result

    def to_attr(self) -> ArrayAttr[DenseArrayBase]:
        return ArrayAttr([DenseArrayBase.from_list(i64, list(self.shape)),
                          *(DenseArrayBase.from_list(i64, list(s or ())) for s in self.strides)])

    @staticmethod
    def from_attr(attr: Attribute) -> Broadcast:
        """The description in `attr`; ValueError when it is not one."""
        if not isinstance(attr, ArrayAttr) or not attr.data or not all(
                isinstance(a, DenseArrayBase) for a in attr.data):
            raise ValueError(f"{BROADCAST_ATTR} must be an array of i64 arrays, got {attr}")
        shape, *rest = (tuple(int(v) for v in a.get_values()) for a in attr.data)  # type: ignore
        strides: list[tuple[int, ...] | None] = []
        for s in rest:
            if s and len(s) != len(shape):
                raise ValueError(f"{BROADCAST_ATTR}: strides {list(s)} for a rank-{len(shape)} "
                                 "output")
            strides.append(s or None)
        return Broadcast(shape, tuple(strides))


def read_broadcast(op: Operation) -> Broadcast | None:
    """The `hsg.broadcast` of an op (kernel, slice or chunk), None without one."""
    attr = op.attributes.get(BROADCAST_ATTR)
    return None if attr is None else Broadcast.from_attr(attr)


def is_projection(m: AffineMap) -> bool:
    """Whether `m` reads each operand dim through a distinct dim of the iteration space or the
    constant 0: MLIR's projected permutation with zeros, but with no limit on how many results
    are 0 (a `1x8x1x1` operand of a 2-d iteration read through `(d0, d1) -> (0, d1, 0, 0)`,
    which hsg-fold-reshapes writes; MLIR's `isProjectedPermutation` refuses more results than
    dims). A constant 0 reads a size-1 dim in the operands hswc lowers (operand_strides)."""
    if m.num_symbols:
        return False
    seen: set[int] = set()
    for e in m.results:
        if isinstance(e, AffineConstantExpr) and e.value == 0:
            continue
        if not isinstance(e, AffineDimExpr) or e.position in seen:
            return False
        seen.add(e.position)
    return True


def operand_strides(m: AffineMap, operand: Sequence[int], output: Sequence[int]) -> \
        tuple[int, ...] | None:
    """Per output dim, the operand's stride (module docstring); None for the identity read.
    ValueError saying why when the map is not a broadcast hswc supports."""
    rank = len(output)
    if m.num_dims != rank or m.num_symbols:
        raise ValueError(f"indexing map {m} does not iterate the rank-{rank} output")
    if len(m.results) != len(operand):
        raise ValueError(f"indexing map {m} has {len(m.results)} results for a rank-"
                         f"{len(operand)} operand")
    if m == AffineMap.identity(rank) and tuple(operand) == tuple(output):
        return None
    c_strides = [math.prod(operand[k + 1:]) for k in range(len(operand))]
    strides = [0] * rank
    last = -1
    for k, (expr, size) in enumerate(zip(m.results, operand, strict=True)):
        if isinstance(expr, AffineConstantExpr) and expr.value == 0 and size == 1:
            continue
        if not isinstance(expr, AffineDimExpr):
            raise ValueError(f"indexing map {m} reads operand dim {k} through {expr} (not a "
                             "dim or a size-1 constant 0: a gather or a shifted window)")
        d = expr.position
        if d <= last:
            raise ValueError(f"indexing map {m} reads the output's dims out of order (a "
                             "transpose)")
        last = d
        if size == output[d]:
            strides[d] = c_strides[k]
        elif size != 1:
            raise ValueError(f"operand dim {k} has {size} elements where output dim {d} has "
                             f"{output[d]}")
    return tuple(strides)
