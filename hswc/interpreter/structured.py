"""A structured op (linalg.generic, or a named op by its maps and body) run on the host with
MLIR's semantics.

The op's loops are its iteration dims d0 ... dn-1, nested in that order (as
convert-linalg-to-loops nests them); each operand is read at the affine functions of the dims
its indexing map gives, and each output element accumulates the body's results in loop order.
Here the body runs once per combination of the reduction dims' indices, in lexicographic order,
over every parallel point at once (numpy arrays over the parallel dims): each output element
sees the same sequence of body evaluations, in the same order, as under MLIR's loops, so a sum
is the same sum, bit for bit. A body that does not read its output is the last evaluation's
value, as MLIR's loops leave it; one with no reduction dim runs once.

Maps: any affine map of sums of dims times constants plus a constant (`d2 * 2 + d5`, a
convolution's window) for inputs; an input axis reading one parallel dim with a positive step is
a strided view, anything else is gathered. Each output is indexed by every parallel dim exactly
once (and constant 0 for a unit dim); an output indexed by a reduction dim, or missing a
parallel dim (written more than once per element), is refused at the op, and so is a read
outside an operand (undefined behaviour in MLIR). Loop extents come from the operands' shapes
where a dim indexes an axis on its own; a shape that disagrees is refused at the op.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import Block, Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from hswc.diagnostics import OpError
from hswc.interpreter.body import Outer, evaluate, yielded_dtype
from hswc.interpreter.limits import check_memory

Linear = tuple[dict[int, int], int]
"""An affine expression as {dim: coefficient} and a constant."""


def linear(op: Operation, expr: AffineExpr) -> Linear:
    """`expr` as a sum of dims times constants plus a constant, or an error at `op`."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        (lt, lc), (rt, rc) = linear(op, expr.lhs), linear(op, expr.rhs)
        if expr.kind == AffineBinaryOpKind.Add:
            terms = dict(lt)
            for d, c in rt.items():
                terms[d] = terms.get(d, 0) + c
            return {d: c for d, c in terms.items() if c}, lc + rc
        if expr.kind == AffineBinaryOpKind.Mul and (not lt or not rt):
            terms, scale = (rt, lc) if not lt else (lt, rc)
            const = lc * rc
            return {d: c * scale for d, c in terms.items() if c * scale}, const
    raise OpError(op, f"indexes an operand by {expr}; the interpreter runs maps that are sums of "
                  "dims times constants (no mod, floordiv, ceildiv or symbols)")


def loop_sizes(op: Operation, maps: Sequence[AffineMap], shapes: Sequence[tuple[int, ...]]
               ) -> list[int]:
    """Each dim's extent, from the operand axes it indexes on its own."""
    sizes: list[int | None] = [None] * maps[0].num_dims
    for i, (m, shape) in enumerate(zip(maps, shapes, strict=True)):
        if len(m.results) != len(shape):
            raise OpError(op, f"gets a rank-{len(shape)} operand {i} for its map {m}")
        for axis, expr in enumerate(m.results):
            if isinstance(expr, AffineDimExpr):
                known = sizes[expr.position]
                if known is None:
                    sizes[expr.position] = shape[axis]
                elif known != shape[axis]:
                    raise OpError(op, f"gets operand {i} of shape {shape}, whose dim {axis} "
                                  f"({shape[axis]}) is d{expr.position}, of extent {known} "
                                  "in an operand before it")
    missing = [d for d, s in enumerate(sizes) if s is None]
    if missing:
        raise OpError(op, f"has no operand dim that d{missing[0]} indexes on its own, so its "
                      "loop extent is unknown")
    return [s for s in sizes if s is not None]


@dataclass
class _Read:
    """How one input is read at each reduction index (module docstring)."""

    array: np.ndarray
    axes: list[Linear]
    parallel: list[int]
    """The parallel dims, in loop order (positions in the body's arrays)."""
    extents: list[int]
    """The parallel dims' extents."""

    def __post_init__(self) -> None:
        used = [d for terms, _ in self.axes for d in terms if d in self.parallel]
        self.strided = len(used) == len(set(used)) and all(
            all(c > 0 for d, c in terms.items() if d in self.parallel)
            and sum(d in self.parallel for d in terms) <= 1 for terms, _ in self.axes)
        order = [d for terms, _ in self.axes for d in terms if d in self.parallel]
        self.order = np.argsort([self.parallel.index(d) for d in order]).tolist()
        self.shape = [e if d in order else 1 for d, e in zip(self.parallel, self.extents,
                                                               strict=True)]

    def at(self, op: Operation, number: int, reduction: dict[int, int]) -> np.ndarray:
        if self.strided:
            return self._view(op, number, reduction)
        return self._gather(op, number, reduction)

    def _view(self, op: Operation, number: int, reduction: dict[int, int]) -> np.ndarray:
        picks: list[int | slice] = []
        for axis, (terms, const) in enumerate(self.axes):
            base = const + sum(c * reduction[d] for d, c in terms.items() if d in reduction)
            steps = [(d, c) for d, c in terms.items() if d in self.parallel]
            count = self.extents[self.parallel.index(steps[0][0])] if steps else 1
            last = base + (steps[0][1] * (count - 1) if steps else 0)
            if count and (base < 0 or last >= self.array.shape[axis]):
                self._outside(op, number, axis, base if base < 0 else last)
            picks.append(slice(base, last + 1, steps[0][1]) if steps and count
                         else slice(0, 0) if steps else base)
        view = self.array[tuple(picks)]
        return np.transpose(view, self.order).reshape(self.shape) if self.order else (
            view.reshape(self.shape))

    def _gather(self, op: Operation, number: int, reduction: dict[int, int]) -> np.ndarray:
        grids = np.ix_(*(np.arange(e, dtype=np.int64) for e in self.extents)) if (
            self.extents) else ()
        index: list[np.ndarray] = []
        for axis, (terms, const) in enumerate(self.axes):
            at = np.asarray(const + sum(c * reduction[d] for d, c in terms.items()
                                        if d in reduction), np.int64)
            for d, c in terms.items():
                if d in self.parallel:
                    at = at + c * grids[self.parallel.index(d)]
            if at.size and (at.min() < 0 or at.max() >= self.array.shape[axis]):
                self._outside(op, number, axis, int(at.min() if at.min() < 0 else at.max()))
            index.append(at)
        return self.array[tuple(index)]

    def _outside(self, op: Operation, number: int, axis: int, position: int) -> None:
        raise OpError(op, f"reads operand {number} at index {position} of its dim {axis}, "
                      f"outside its shape {self.array.shape}")


def _output_order(op: Operation, m: AffineMap, parallel: list[int], number: int) -> list[int]:
    """The parallel positions output `number`'s axes hold, in axis order (-1: a unit axis)."""
    order: list[int] = []
    for expr in m.results:
        if isinstance(expr, AffineDimExpr) and expr.position in parallel:
            order.append(parallel.index(expr.position))
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
            order.append(-1)
        else:
            raise OpError(op, f"indexes its output {number} by {m}: the interpreter runs "
                          "outputs indexed by parallel dims (and 0 for a unit dim)")
    if sorted(p for p in order if p >= 0) != list(range(len(parallel))):
        raise OpError(op, f"indexes its output {number} by {m}, which does not name every "
                      "parallel dim once: an element would be written more than once")
    return order


class _Points:
    """linalg.index over the parallel points, at the current reduction index."""

    def __init__(self, parallel: list[int], extents: list[int]):
        self.parallel, self.extents = parallel, extents
        self.reduction: dict[int, int] = {}

    def index(self, op: Operation, dim: int) -> np.ndarray:
        if dim in self.reduction:
            return np.asarray(self.reduction[dim], np.int64)
        if dim not in self.parallel:
            raise OpError(op, f"reads dim {dim} of a structured op with "
                          f"{len(self.parallel) + len(self.reduction)} dims")
        shape = [1] * len(self.parallel)
        shape[self.parallel.index(dim)] = self.extents[self.parallel.index(dim)]
        return np.arange(shape[self.parallel.index(dim)], dtype=np.int64).reshape(shape)


def run_structured(op: Operation, maps: Sequence[AffineMap], iterators: Sequence[str],
                   block: Block, inputs: Sequence[np.ndarray], inits: Sequence[np.ndarray],
                   outer: Outer) -> list[np.ndarray]:
    """The op's results (module docstring): `inputs` and `inits` its operands' arrays (a
    scalar input as a 0-d array), `maps` one per operand, `iterators` 'parallel' or
    'reduction' per dim, `block` its body; values from outside the body come from `outer`."""
    sizes = loop_sizes(op, maps, [np.shape(a) for a in (*inputs, *inits)])
    parallel = [d for d, kind in enumerate(iterators) if kind == "parallel"]
    reduced = [d for d, kind in enumerate(iterators) if kind != "parallel"]
    extents = [sizes[d] for d in parallel]
    reads = [_Read(np.asarray(a), [linear(op, e) for e in m.results], parallel, extents)
             for a, m in zip(inputs, maps, strict=False)]
    orders = [_output_order(op, m, parallel, k) for k, m in enumerate(maps[len(inputs):])]
    size = int(np.prod(extents, dtype=np.int64))
    check_memory(2 * size * sum(np.asarray(i).dtype.itemsize for i in inits),
                 f"its {len(inits)} result(s) of {size} elements each (and their next values)")
    accumulators = []
    for k, (init, order) in enumerate(zip(inits, orders, strict=True)):
        init = np.asarray(init).reshape([e for e, p in zip(np.shape(init), order, strict=True)
                                         if p >= 0])
        places = [p for p in order if p >= 0]
        accumulators.append(np.transpose(init, np.argsort(places)).astype(
            yielded_dtype(block, k), copy=True))
    points = _Points(parallel, extents)
    for values in itertools.product(*(range(sizes[d]) for d in reduced)):
        points.reduction = dict(zip(reduced, values, strict=True))
        operands = [r.at(op, i, points.reduction) for i, r in enumerate(reads)]
        results = evaluate(block, [*operands, *accumulators], outer, points)
        accumulators = [np.broadcast_to(y, extents).astype(a.dtype, copy=True)
                        for y, a in zip(results, accumulators, strict=True)]
    return [np.transpose(a, [p for p in order if p >= 0]).reshape(np.shape(init))
            for a, order, init in zip(accumulators, orders, inits, strict=True)]
