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
read at the output's own index.

Dynamic shapes (a dynamic batch): a dim of the output known only at run time is -1 in the
shape (DYNAMIC_DIM). The description stays static where the kernel reads it: every input's
strides are numbers, and each dim an input reads (stride > 0) has only static dims after it
(so the divisor of its digit is a number) and is static itself unless every dim before it is
a static 1 (the outermost dim, whose digit needs no wrap). PReLU's weight `(d1)` over
`(?, C, H, W)`, a bias over `(?, N)`, a per-row scale `(?, 1)` and a rank-0 tensor over any
shape are such descriptions; `dynamic_refusal` says why another is not. The run-time dims come
from the kernel's inputs read at the output's index (`resolve`); an input whose own size
depends on them (the per-row scale: as many elements as rows) holds `operand_size` of the
resolved description, and a kernel covers what one core reads of it (`covered`).

Windows: an input may be read at a constant offset, as linalg writes a slice folded into the
reader's map (`(d0, d1) -> (d0, d1 + 64)`: the second half of a `Nx128` tensor read into an
`Nx64` output; `(d0, d1) -> (d0, 0, d1)` on its `Nx2x64` view: its first half, which no map on
the `Nx128` tensor itself can read, as linalg's verifier wants a dim read alone to span its
operand's dim; `(d0) -> (d0, 3)`: column 3). Its flat index then adds the offset: offset +
sum_k digit_k(i) * stride_k, with the strides the un-sliced tensor's, and its GM buffer is the
whole tensor, larger than what it reads. Such an input's array is `[strides..., offset,
elements]`: the flat offset and the tensor's element count (checked to hold every index read).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i64
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

if TYPE_CHECKING:
    import numpy as np

DYNAMIC_DIM = -1
"""A dim of the output's shape known only at run time, in `hsg.broadcast`."""
BROADCAST_ATTR = "hsg.broadcast"
BOUND_ATTR = "hsg.broadcast_bound"
"""Beside hsg.broadcast on a kernel (and its slice and chunks) of a shared shape: per output
dim, the largest size it may take at run time (a static dim's own size); the kernel keeps its
run-time-sized inputs in UB sized for these (hswc.passes.shape_sharing, "Bounded")."""
BROADCAST_COPY_ATTR = "hsg.broadcast_copy"
"""On a broadcast input's copy-in loop: how it reads the input (row runs, or why the element
loop; hswc.vectorizer.broadcast_copy). The C++ printer shows it as a comment."""


@dataclass(frozen=True)
class Broadcast:
    """The output's shape and, per input, its strides (None: read at the output's index) and
    its window (None: it holds exactly the elements it reads from flat index 0)."""

    shape: tuple[int, ...]
    strides: tuple[tuple[int, ...] | None, ...]
    windows: tuple[Window | None, ...] = ()
    """Per input (or empty: none), where it is read inside a larger tensor."""
    bounds: tuple[int, ...] = ()
    """Per output dim (or empty: none), the largest size it takes at run time: a dynamic dim's
    bound, a static dim's own size (BOUND_ATTR). A shape above it is refused (`resolve`)."""

    def bounded(self) -> Broadcast | None:
        """This description at its bounds (a static one: every input of its largest size),
        None without bounds."""
        if not self.bounds:
            return None
        return Broadcast(self.bounds, self.strides, self.windows)

    def bounded_size(self, i: int) -> int | None:
        """Input i's element count at the bounds where it depends on the run-time shape; its
        own where static; None where neither is known."""
        if self.has_static_size(i):
            return self.operand_size(i)
        bounded = self.bounded()
        return None if bounded is None else bounded.operand_size(i)

    def window(self, i: int) -> Window | None:
        return self.windows[i] if self.windows else None

    def offset(self, i: int) -> int:
        """Input i's flat index of the output's element 0."""
        window = self.window(i)
        return 0 if window is None else window.offset

    def reach(self, i: int) -> int:
        """One past the largest flat index input i is read at (of a static size)."""
        assert self.has_static_size(i), "input of a run-time size: resolve the shape first"
        strides = self.strides[i]
        if strides is None:
            return self.total
        return self.offset(i) + 1 + sum((n - 1) * s
                                        for n, s in zip(self.shape, strides, strict=True))

    @property
    def total(self) -> int:
        """The output's element count (a static description's)."""
        assert self.is_static, "a dynamic description has no static element count"
        return math.prod(self.shape)

    @property
    def is_static(self) -> bool:
        return DYNAMIC_DIM not in self.shape

    def has_static_size(self, i: int) -> bool:
        """Whether input i's element count is known at compile time: it reads no dim of a
        run-time size."""
        strides = self.strides[i]
        if strides is None:
            return self.is_static
        return all(n != DYNAMIC_DIM or not s for n, s in zip(self.shape, strides, strict=True))

    def is_single(self, i: int) -> bool:
        """Whether input i is read at one index only (a rank-0 tensor, all dims size 1)."""
        strides = self.strides[i]
        return strides is not None and all(n == 1 or not s
                                           for n, s in zip(self.shape, strides, strict=True))

    def wraps(self, k: int) -> bool:
        """Whether output dim k's digit needs its wrap (% size): some dim before it is not a
        static 1."""
        return any(n != 1 for n in self.shape[:k])

    def resolve(self, shape: Sequence[int]) -> Broadcast:
        """This description at the output shape `shape` (the run-time sizes of its dynamic
        dims); ValueError when `shape` is not one it describes."""
        if len(shape) != len(self.shape) or any(
                n != DYNAMIC_DIM and n != m for n, m in zip(self.shape, shape, strict=True)):
            raise ValueError(f"shape {list(shape)} is not the kernel's output shape "
                             f"{_shown_shape(self.shape)}")
        for k, (m, most) in enumerate(zip(shape, self.bounds, strict=False)):
            if m > most:
                raise ValueError(f"shape {list(shape)} has {m} in dim {k}, above the kernel's "
                                 f"bound of {most} (its inputs of a run-time size are kept in "
                                 f"UB sized for at most {list(self.bounds)})")
        return replace(self, shape=tuple(int(m) for m in shape))

    def dynamic_refusal(self, role: str = "input") -> str | None:
        """Why a kernel cannot read the inputs of this description without its dynamic dims
        (module docstring), None when it can; `role` names what the strides describe (inputs
        read, or outputs written: hswc.output_windows)."""
        for i, strides in enumerate(self.strides):
            if strides is None:
                continue
            if self.window(i) is not None and not self.is_static:
                return f"{role} {i + 1} is at an offset (a slice) of a dynamic shape"
            for k, s in enumerate(strides):
                if not s:
                    continue
                later = [j for j in range(k + 1, len(self.shape))
                         if self.shape[j] == DYNAMIC_DIM]
                if later:
                    return (f"{role} {i + 1} reads output dim {k}, whose digit divides by the "
                            f"run-time size of dim {later[0]}")
                if self.shape[k] == DYNAMIC_DIM and self.wraps(k):
                    return (f"{role} {i + 1} reads output dim {k}, of a run-time size, inside "
                            "another dim (its digit wraps at a size known only at run time)")
        return None

    def operand_size(self, i: int) -> int:
        """How many elements input i's GM buffer holds: the whole tensor of a window, else the
        largest index it reads, + 1."""
        window = self.window(i)
        return self.reach(i) if window is None else window.elements

    def digits(self) -> list[tuple[int, int]]:
        """(inner, size) per output dim: digit_k(i) = (i // inner) % size; inner is
        DYNAMIC_DIM below a dynamic dim (no input reads such a dim: dynamic_refusal)."""
        out, inner = [], 1
        for n in reversed(self.shape):
            out.append((inner, n))
            inner = DYNAMIC_DIM if DYNAMIC_DIM in (n, inner) else inner * n
        return out[::-1]

    def covered(self, i: int) -> tuple[int, int] | None:
        """For input i of a run-time size: (inner, stride) of the dynamic dim it reads, so
        that the output's flat range [0, end) reads its indices [0, ceil(end / inner) *
        stride) (its C-order stride bounds what the later dims add); None for a static
        size."""
        strides = self.strides[i]
        if strides is None or self.has_static_size(i):
            return None
        for (inner, n), s in zip(self.digits(), strides, strict=True):
            if n == DYNAMIC_DIM and s:
                return inner, s
        return None

    def index(self, i: int, flat: np.ndarray) -> np.ndarray:
        """Input i's flat indices at the output's flat indices `flat`."""
        strides = self.strides[i]
        if strides is None:
            return flat
        import numpy as np  # only the interpreter runs this; compiling needs no numpy

        result = np.full_like(flat, self.offset(i))
        for k, ((inner, size), stride) in enumerate(zip(self.digits(), strides, strict=True)):
            if stride:
                digit = flat // inner
                result += (digit % size if self.wraps(k) else digit) * stride
        return result

    def to_attr(self) -> ArrayAttr[DenseArrayBase]:
        arrays = [DenseArrayBase.from_list(i64, list(self.shape))]
        for i, s in enumerate(self.strides):
            window = self.window(i)
            tail = [] if window is None else [window.offset, window.elements]
            arrays.append(DenseArrayBase.from_list(i64, [*(s or ()), *tail]))
        return ArrayAttr(arrays)

    def with_bounds(self, attr: Attribute) -> Broadcast:
        """This description with the bounds in `attr` (BOUND_ATTR); ValueError when they are
        not one per dim, each a static dim's size or, of a dynamic dim, a positive number."""
        if not isinstance(attr, DenseArrayBase):
            raise ValueError(f"{BOUND_ATTR} must be an i64 array, got {attr}")
        bounds = tuple(int(v) for v in attr.get_values())  # type: ignore[arg-type]
        if len(bounds) != len(self.shape) or any(
                (b < 1) if n == DYNAMIC_DIM else b != n
                for n, b in zip(self.shape, bounds, strict=True)):
            raise ValueError(f"{BOUND_ATTR} {list(bounds)} does not bound {BROADCAST_ATTR}'s "
                             f"shape {_shown_shape(self.shape)}: one size per dim, a static "
                             "dim's own, a run-time dim's largest")
        return replace(self, bounds=bounds)

    @staticmethod
    def from_attr(attr: Attribute, role: str = "input") -> Broadcast:
        """The description in `attr`; ValueError when it is not one (`role`: what its arrays
        after the shape describe, named in the message: dynamic_refusal)."""
        if not isinstance(attr, ArrayAttr) or not attr.data or not all(
                isinstance(a, DenseArrayBase) for a in attr.data):
            raise ValueError(f"{BROADCAST_ATTR} must be an array of i64 arrays, got {attr}")
        shape, *rest = (tuple(int(v) for v in a.get_values()) for a in attr.data)  # type: ignore
        strides: list[tuple[int, ...] | None] = []
        windows: list[Window | None] = []
        for s in rest:
            if s and len(s) not in (len(shape), len(shape) + 2):
                raise ValueError(f"{BROADCAST_ATTR}: strides {list(s)} for a rank-{len(shape)} "
                                 "output")
            strides.append(s[:len(shape)] or None)
            windows.append(Window(*s[len(shape):]) if len(s) > len(shape) else None)
        if any(n < 0 and n != DYNAMIC_DIM for n in shape):
            raise ValueError(f"{BROADCAST_ATTR}: shape {list(shape)} has a negative dim other "
                             f"than {DYNAMIC_DIM} (known at run time)")
        found = Broadcast(shape, tuple(strides), tuple(windows) if any(windows) else ())
        why = found.dynamic_refusal(role)
        if why is not None:
            raise ValueError(f"{BROADCAST_ATTR}: {why}")
        for i, window in enumerate(windows):
            if window is not None and not 0 <= window.offset < found.reach(i) <= \
                    window.elements:
                raise ValueError(f"{BROADCAST_ATTR}: {role} {i + 1} is at flat indices "
                                 f"{window.offset} to {found.reach(i) - 1}, outside its "
                                 f"{window.elements} elements")
        return found


def _shown_shape(shape: Sequence[int]) -> str:
    return "x".join("?" if n == DYNAMIC_DIM else str(n) for n in shape) or "()"


@dataclass(frozen=True)
class Window:
    """Where an input is read inside a larger tensor: the flat index of the output's element 0,
    and the tensor's element count."""

    offset: int
    elements: int


def read_broadcast(op: Operation) -> Broadcast | None:
    """The `hsg.broadcast` of an op (kernel, slice or chunk), with its bounds
    (`hsg.broadcast_bound`), None without one."""
    attr = op.attributes.get(BROADCAST_ATTR)
    if attr is None:
        return None
    found = Broadcast.from_attr(attr)
    bound = op.attributes.get(BOUND_ATTR)
    return found if bound is None else found.with_bounds(bound)


def write_broadcast(broadcast: Broadcast, *ops: Operation) -> None:
    """`broadcast` as `hsg.broadcast` (and its bounds as `hsg.broadcast_bound`) on `ops`."""
    for op in ops:
        op.attributes[BROADCAST_ATTR] = broadcast.to_attr()
        if broadcast.bounds:
            op.attributes[BOUND_ATTR] = DenseArrayBase.from_list(i64, list(broadcast.bounds))


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


def dim_and_offset(e: AffineExpr) -> tuple[int | None, int] | None:
    """`e` as (dim, constant) when it is `d`, `d + c` or `c` with c >= 0 (dim None for a
    constant), else None."""
    if isinstance(e, AffineDimExpr):
        return e.position, 0
    if isinstance(e, AffineConstantExpr):
        return (None, e.value) if e.value >= 0 else None
    if isinstance(e, AffineBinaryOpExpr) and e.kind == AffineBinaryOpKind.Add:
        for d, c in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(d, AffineDimExpr) and isinstance(c, AffineConstantExpr) \
                    and c.value >= 0:
                return d.position, c.value
    return None


def is_window(m: AffineMap) -> bool:
    """Whether `m` is a projection (is_projection) read at constant offsets: each result a
    distinct dim plus a constant >= 0, or a constant >= 0 (a slice folded into the map, as
    linalg writes it: `(d0, d1) -> (d0, d1 + 64)`, `(d0) -> (d0, 3)`). Whether the offsets
    stay inside the operand is checked against its shape (operand_access)."""
    if m.num_symbols:
        return False
    seen: set[int] = set()
    for e in m.results:
        found = dim_and_offset(e)
        if found is None:
            return False
        d, _ = found
        if d is not None:
            if d in seen:
                return False
            seen.add(d)
    return True


def operand_access(m: AffineMap, operand: Sequence[int], output: Sequence[int]) -> \
        tuple[tuple[int, ...] | None, Window | None]:
    """Per output dim, the operand's stride (module docstring), None for the identity read;
    and its window (offset and element count) when it is read at an offset or is larger than
    what it reads. ValueError saying why when the map is not a read hswc supports."""
    strides = operand_strides(m, operand, output)
    c_strides = [math.prod(operand[k + 1:]) for k in range(len(operand))]
    offset = 0
    for e, c_stride in zip(m.results, c_strides, strict=True):
        found = dim_and_offset(e)
        assert found is not None
        offset += found[1] * c_stride
    if strides is None:
        return None, None
    reach = offset + 1 + sum((n - 1) * s for n, s in zip(output, strides, strict=True))
    elements = math.prod(operand)
    if offset == 0 and reach == elements:
        return strides, None
    return strides, Window(offset, elements)


def operand_strides(m: AffineMap, operand: Sequence[int], output: Sequence[int]) -> \
        tuple[int, ...] | None:
    """Per output dim, the operand's stride (module docstring); None for the identity read.
    ValueError saying why when the map is not a broadcast or a window hswc supports."""
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
        found = dim_and_offset(expr)
        if found is None:
            raise ValueError(f"indexing map {m} reads operand dim {k} through {expr} (not a "
                             "dim plus a constant >= 0, nor a constant >= 0: a gather, a "
                             "strided or a shifted window)")
        d, offset = found
        if d is None:
            if offset >= size:
                raise ValueError(f"indexing map {m} reads operand dim {k} at {offset}, outside "
                                 f"its {size} elements")
            continue
        if d <= last:
            raise ValueError(f"indexing map {m} reads the output's dims out of order (a "
                             "transpose)")
        last = d
        if size == 1 and offset == 0:
            continue  # a size-1 dim: every output index reads its one element
        if offset + output[d] > size:
            raise ValueError(f"indexing map {m} reads operand dim {k} at {offset} to "
                             f"{offset + output[d] - 1}, outside its {size} elements")
        strides[d] = c_strides[k]
    return tuple(strides)
