"""The tensor dialect on the host, with MLIR's semantics, over numpy arrays.

Shapes: tensor.empty (a shape; its contents are undefined in MLIR, zeros here), dim, cast (the
runtime shape checked against the static one), expand_shape / collapse_shape / reshape
(row-major, as MLIR's reassociations and reshape are). Data: extract / insert of one element,
extract_slice / insert_slice (offsets, sizes, strides, static or dynamic; rank-reducing),
concat, pad (its region run over the padded positions, so a pad value that depends on the
index works too), splat, from_elements. An index outside a tensor, a slice running past it, or
a shape that does not fit is an error at the op (undefined behaviour in MLIR). Host scalars are
Python ints for index and integers, bools for i1, numpy scalars for floats
(hswc.interpreter.arith_functions' value model).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.ir import Operation

from hswc.diagnostics import OpError
from hswc.interpreter.body import evaluate
from hswc.interpreter.dtypes import numpy_dtype
from hswc.interpreter.limits import check_memory
from hswc.interpreter.machine import MachineFunctions


def _result_type(op: Operation) -> TensorType:
    t = op.results[0].type
    if not isinstance(t, TensorType):
        raise OpError(op, f"gives a {t}; the interpreter runs ranked tensors")
    return t


def _dtype(op: Operation) -> np.dtype:
    try:
        return numpy_dtype(_result_type(op).get_element_type())
    except ValueError as error:
        raise OpError(op, str(error)) from None


def _mixed(static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    """Static values with each DYNAMIC_INDEX taken, in order, from `dynamic`."""
    values = iter(int(v) for v in dynamic)
    return [next(values) if s == DYNAMIC_INDEX else s for s in static]


def _shaped(op: Operation, shape: Sequence[int]) -> tuple[int, ...]:
    """`shape` checked against the op's static result shape."""
    declared = _result_type(op).get_shape()
    if len(declared) != len(shape) or any(d not in (DYNAMIC_INDEX, s)
                                          for d, s in zip(declared, shape, strict=False)):
        raise OpError(op, f"gives a tensor of shape {tuple(shape)}, which its type "
                      f"{_result_type(op)} does not have")
    return tuple(shape)


def _fits(shape: Sequence[int], dtype: np.dtype) -> None:
    """A LimitReached (an error at the op) for a result larger than the memory free."""
    count = int(np.prod(shape, dtype=np.int64))
    check_memory(count * dtype.itemsize, f"its result of shape {tuple(shape)}")


def _scalar(value: np.ndarray) -> Any:
    """A host scalar of an element (arith_functions' value model)."""
    if value.dtype == np.bool_:
        return bool(value)
    if value.dtype.kind in "iu":
        return int(value)
    return value[()]


def _slices(op: Operation, shape: Sequence[int], offsets: list[int], sizes: list[int],
            strides: list[int]) -> tuple[slice, ...]:
    picks = []
    for axis, (extent, o, n, s) in enumerate(zip(shape, offsets, sizes, strides, strict=True)):
        last = o + (n - 1) * s
        if n < 0 or s < 1 or (n > 0 and (o < 0 or last >= extent)):
            raise OpError(op, f"takes {n} elements from offset {o} with stride {s} along dim "
                          f"{axis} of a tensor of shape {tuple(shape)}")
        picks.append(slice(o, last + 1, s) if n else slice(0, 0))
    return tuple(picks)


def _slice_operands(op: tensor.ExtractSliceOp | tensor.InsertSliceOp
                    ) -> tuple[list[int], list[int], list[int]]:
    return (list(op.static_offsets.get_values()), list(op.static_sizes.get_values()),
            list(op.static_strides.get_values()))


@register_impls
class TensorFunctions(MachineFunctions):
    """tensor ops (module docstring)."""

    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp,
                  args: PythonValues) -> PythonValues:
        shape = _mixed(_result_type(op).get_shape(), args)
        if any(d < 0 for d in shape):
            raise OpError(op, f"has a negative dimension {tuple(shape)}")
        return (np.broadcast_to(np.zeros((), _dtype(op)), shape),)

    @impl(tensor.DimOp)
    def run_dim(self, interpreter: Interpreter, op: tensor.DimOp,
                args: PythonValues) -> PythonValues:
        array, index = np.asarray(args[0]), int(args[1])
        if not 0 <= index < array.ndim:
            raise OpError(op, f"asks for dimension {index} of a rank-{array.ndim} tensor")
        return (int(array.shape[index]),)

    @impl(tensor.CastOp)
    def run_cast(self, interpreter: Interpreter, op: tensor.CastOp,
                 args: PythonValues) -> PythonValues:
        array = np.asarray(args[0])
        if isinstance(op.dest.type, TensorType):
            _shaped(op, array.shape)
        return (array,)

    @impl(tensor.ExpandShapeOp)
    def run_expand_shape(self, interpreter: Interpreter, op: tensor.ExpandShapeOp,
                         args: PythonValues) -> PythonValues:
        shape = _mixed(op.static_output_shape.get_values(), args[1:])
        return (self._reshaped(op, np.asarray(args[0]), shape),)

    @impl(tensor.CollapseShapeOp)
    def run_collapse_shape(self, interpreter: Interpreter, op: tensor.CollapseShapeOp,
                           args: PythonValues) -> PythonValues:
        source = np.asarray(args[0])
        groups = [[int(d.value.data) for d in g] for g in op.reassociation]
        shape = [int(np.prod([source.shape[d] for d in g], dtype=np.int64)) for g in groups]
        return (self._reshaped(op, source, shape),)

    @impl(tensor.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: tensor.ReshapeOp,
                    args: PythonValues) -> PythonValues:
        shape = [int(d) for d in np.asarray(args[1]).reshape(-1)]
        return (self._reshaped(op, np.asarray(args[0]), shape),)

    @staticmethod
    def _reshaped(op: Operation, source: np.ndarray, shape: Sequence[int]) -> np.ndarray:
        if int(np.prod(shape, dtype=np.int64)) != source.size or any(d < 0 for d in shape):
            raise OpError(op, f"reshapes {source.size} elements (shape {source.shape}) to "
                          f"shape {tuple(shape)}")
        return source.reshape(_shaped(op, shape))

    @impl(tensor.ExtractOp)
    def run_extract(self, interpreter: Interpreter, op: tensor.ExtractOp,
                    args: PythonValues) -> PythonValues:
        array = np.asarray(args[0])
        return (_scalar(array[self._index(op, array.shape, args[1:])]),)

    @impl(tensor.InsertOp)
    def run_insert(self, interpreter: Interpreter, op: tensor.InsertOp,
                   args: PythonValues) -> PythonValues:
        result = np.array(args[1], copy=True)
        result[self._index(op, result.shape, args[2:])] = args[0]
        return (result,)

    @staticmethod
    def _index(op: Operation, shape: Sequence[int], indices: Sequence[Any]) -> tuple[int, ...]:
        index = tuple(int(i) for i in indices)
        if len(index) != len(shape) or any(not 0 <= i < n for i, n in zip(index, shape,
                                                                           strict=False)):
            raise OpError(op, f"reads index {index} of a tensor of shape {tuple(shape)}")
        return index

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(self, interpreter: Interpreter, op: tensor.ExtractSliceOp,
                          args: PythonValues) -> PythonValues:
        source = np.asarray(args[0])
        offsets, sizes, strides = _slice_operands(op)
        dynamic = iter(args[1:])
        offsets, sizes, strides = (_mixed(v, [next(dynamic) for s in v if s == DYNAMIC_INDEX])
                                   for v in (offsets, sizes, strides))
        part = source[_slices(op, source.shape, offsets, sizes, strides)]
        return (part.reshape(_shaped(op, _rank_reduced(op, sizes))).copy(),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(self, interpreter: Interpreter, op: tensor.InsertSliceOp,
                         args: PythonValues) -> PythonValues:
        source, result = np.asarray(args[0]), np.array(args[1], copy=True)
        offsets, sizes, strides = _slice_operands(op)
        dynamic = iter(args[2:])
        offsets, sizes, strides = (_mixed(v, [next(dynamic) for s in v if s == DYNAMIC_INDEX])
                                   for v in (offsets, sizes, strides))
        if source.size != int(np.prod(sizes, dtype=np.int64)):
            raise OpError(op, f"inserts a tensor of shape {source.shape} into a slice of "
                          f"sizes {tuple(sizes)}")
        result[_slices(op, result.shape, offsets, sizes, strides)] = source.reshape(sizes)
        return (result,)

    @impl(tensor.ConcatOp)
    def run_concat(self, interpreter: Interpreter, op: tensor.ConcatOp,
                   args: PythonValues) -> PythonValues:
        arrays = [np.asarray(a) for a in args]
        try:
            joined = np.concatenate(arrays, axis=op.dim.value.data)
        except ValueError as error:
            raise OpError(op, f"cannot join shapes {[a.shape for a in arrays]} along dim "
                          f"{op.dim.value.data}: {error}") from None
        return (joined.reshape(_shaped(op, joined.shape)),)

    @impl(tensor.PadOp)
    def run_pad(self, interpreter: Interpreter, op: tensor.PadOp,
                args: PythonValues) -> PythonValues:
        source = np.asarray(args[0])
        count = len(op.low)
        low = _mixed(op.static_low.get_values(), args[1:1 + count])
        high = _mixed(op.static_high.get_values(), args[1 + count:])
        if any(p < 0 for p in (*low, *high)):
            raise OpError(op, f"pads by {low} and {high}; padding must not be negative")
        shape = _shaped(op, [n + lo + hi for n, lo, hi in zip(source.shape, low, high,
                                                                strict=True)])
        _fits(shape, source.dtype)
        positions = list(np.ix_(*(np.arange(n, dtype=np.int64) for n in shape)))
        (value,) = evaluate(op.region.block, positions,
                            lambda v: interpreter.get_values((v,))[0])
        result = np.broadcast_to(value, shape).astype(source.dtype, copy=True)
        result[tuple(slice(lo, lo + n) for lo, n in zip(low, source.shape, strict=True))] = source
        return (result,)

    @impl(tensor.SplatOp)
    def run_splat(self, interpreter: Interpreter, op: tensor.SplatOp,
                  args: PythonValues) -> PythonValues:
        shape = _mixed(_result_type(op).get_shape(), args[1:])
        _fits(shape, _dtype(op))
        return (np.full(shape, args[0], dtype=_dtype(op)),)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, interpreter: Interpreter, op: tensor.FromElementsOp,
                          args: PythonValues) -> PythonValues:
        shape = _shaped(op, _result_type(op).get_shape())
        if len(args) != int(np.prod(shape, dtype=np.int64)):
            raise OpError(op, f"has {len(args)} elements for a tensor of shape {shape}")
        return (np.array(list(args), dtype=_dtype(op)).reshape(shape),)


def _rank_reduced(op: Operation, sizes: Sequence[int]) -> list[int]:
    """A slice's sizes without the unit dims its (rank-reducing) result type drops: which ones
    is immaterial to the row-major layout, so unit sizes are dropped as they come where the
    result's dim is not 1."""
    declared = list(_result_type(op).get_shape())
    drop = len(sizes) - len(declared)
    kept: list[int] = []
    for size in sizes:
        want = declared[len(kept)] if len(kept) < len(declared) else 1
        if drop > 0 and size == 1 and (want != 1 or len(kept) == len(declared)):
            drop -= 1
            continue
        kept.append(size)
    return kept
