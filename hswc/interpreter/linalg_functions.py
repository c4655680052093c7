"""linalg.generic on tensors at the hsg and linalg levels: the elementwise body over whole arrays,
each operand read through its indexing map, and the tensor ops that give it its output's shape.

A generic is run when it is elementwise in MLIR's sense: every iterator parallel, the output
indexed by a permutation of the iteration dims, each input by a projected permutation (dims
dropped: a broadcast; constant 0: a size-1 dim), and a body that does not read the output.
Anything else (a reduction, a body reading its output, a map such as `d0 + d1`) is refused at
the op, naming what it is: the interpreter does not model it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.interpreter import Interpreter, PythonValues, impl, impl_terminator, register_impls
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from hswc.diagnostics import OpError
from hswc.interpreter.body import run_body
from hswc.interpreter.dtypes import numpy_dtype
from hswc.interpreter.machine import MachineFunctions


@register_impls
class LinalgFunctions(MachineFunctions):
    """linalg.generic on tensors: the elementwise body over whole arrays."""

    @impl(GenericOp)
    def run_generic(self, interpreter: Interpreter, op: GenericOp,
                    args: PythonValues) -> PythonValues:
        count = len(op.inputs)
        maps = _checked_maps(op)
        output = np.asarray(args[count])
        space = _iteration_space(op, maps[-1], output.shape)
        inputs = [_read(op, i, np.asarray(a), maps[i], space)
                  for i, a in enumerate(args[:count])]
        result = run_body(op.body.block, inputs, lambda v: interpreter.get_values((v,))[0])
        order = [e.position for e in maps[-1].results]  # type: ignore[attr-defined]
        return (np.transpose(np.broadcast_to(result, space), order).copy(),)

    @impl_terminator(YieldOp)
    def run_yield(self, interpreter: Interpreter, op: YieldOp,
                  args: PythonValues) -> tuple[Any, PythonValues]:
        raise OpError(op, "is only run as the end of an elementwise body")


def _checked_maps(op: GenericOp) -> list[AffineMap]:
    """The generic's maps, refused at the op when it is not elementwise (module docstring)."""
    for it in op.iterator_types:
        if it.data.value != "parallel":
            raise OpError(op, f"has a {it.data.value} iterator (a reduction); the interpreter "
                          "runs elementwise generics only, every iterator parallel")
    if len(op.outputs) != 1 or len(op.res) != 1:
        raise OpError(op, f"has {len(op.outputs)} outputs; the interpreter runs generics "
                      "with one output")
    block = op.body.block
    if len(block.args) != len(op.inputs) + 1:
        raise OpError(op, f"has a body of {len(block.args)} arguments for "
                      f"{len(op.inputs)} input(s) and one output")
    if block.args[-1].uses:
        raise OpError(op, "has a body that reads the output's current value (an "
                      "accumulation); the interpreter runs elementwise generics only")
    maps: list[AffineMap] = []
    for i, attr in enumerate(op.indexing_maps):
        assert isinstance(attr, AffineMapAttr)
        m = attr.data
        output = i == len(op.inputs)
        ok = (m.num_dims == len(op.iterator_types)
              and (m.is_projected_permutation() and len(m.results) == m.num_dims if output
                   else m.is_projected_permutation(allow_zero_in_results=True)))
        if not ok:
            what = "output" if output else f"input {i}"
            kind = "a permutation" if output else "a projected permutation (a broadcast)"
            raise OpError(op, f"indexes its {what} by {m}, not {kind} of its "
                          f"{len(op.iterator_types)} iteration dims; the interpreter does not "
                          "model such a map")
        maps.append(m)
    return maps


def _iteration_space(op: GenericOp, output_map: AffineMap, shape: tuple[int, ...]
                     ) -> tuple[int, ...]:
    space = [1] * output_map.num_dims
    for size, e in zip(shape, output_map.results, strict=True):
        assert isinstance(e, AffineDimExpr)
        space[e.position] = size
    return tuple(space)


def _read(op: GenericOp, index: int, array: np.ndarray, m: AffineMap,
          space: tuple[int, ...]) -> np.ndarray:
    """Input `index` as an array over the iteration space (a view: dims its map drops are
    broadcast, a constant 0 reads element 0 of its dim)."""
    if array.ndim != len(m.results):
        raise OpError(op, f"gets a rank-{array.ndim} input {index} for its map {m}")
    picks: list[int | slice] = []
    dims: list[int] = []
    for axis, e in enumerate(m.results):
        if isinstance(e, AffineConstantExpr):
            if array.shape[axis] < 1:
                raise OpError(op, f"reads element 0 of an empty dim of input {index}")
            picks.append(0)
        else:
            assert isinstance(e, AffineDimExpr)
            if array.shape[axis] != space[e.position]:
                raise OpError(op, f"gets input {index} of shape {array.shape}, which its map "
                              f"{m} does not fit to the iteration space {space}")
            picks.append(slice(None))
            dims.append(e.position)
    view = np.transpose(array[tuple(picks)], np.argsort(dims)) if dims else array[tuple(picks)]
    shape = [space[d] if d in dims else 1 for d in range(len(space))]
    return np.broadcast_to(view.reshape(shape), space)


@register_impls
class TensorFunctions(MachineFunctions):
    """tensor.empty (a shape with unspecified contents) and tensor.dim."""

    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp,
                  args: PythonValues) -> PythonValues:
        t = op.results[0].type
        assert isinstance(t, TensorType)
        sizes = iter(int(a) for a in args)
        shape = tuple(next(sizes) if d < 0 else d for d in t.get_shape())
        if any(d < 0 for d in shape):
            raise OpError(op, f"has a negative dimension {shape}")
        dtype = numpy_dtype(t.get_element_type())
        return (np.broadcast_to(np.zeros((), dtype), shape),)

    @impl(tensor.DimOp)
    def run_dim(self, interpreter: Interpreter, op: tensor.DimOp,
                args: PythonValues) -> PythonValues:
        array, index = np.asarray(args[0]), int(args[1])
        if not 0 <= index < array.ndim:
            raise OpError(op, f"asks for dimension {index} of a rank-{array.ndim} tensor")
        return (int(array.shape[index]),)
