"""linalg.generic on tensors at the hsg and linalg levels.

An elementwise generic (every iterator parallel, the output indexed by a permutation of the
iteration dims, each input by a projected permutation: dims dropped are a broadcast, constant 0
a size-1 dim, a constant offset a window of a larger input, as a slice folded into the map
reads it; one output, a body that reads neither the output nor linalg.index) runs its body
once over whole arrays, each operand read through its indexing map: the kernels' semantics,
at the speed of one numpy call per body op. Every other generic (reductions, several results,
a body reading its output or its indices, convolution-like maps) runs by
hswc.interpreter.structured, in MLIR's loop order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, MemRefType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.interpreter import Interpreter, PythonValues, impl, impl_terminator, register_impls
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap

from hswc.broadcast import dim_and_offset, is_window
from hswc.diagnostics import OpError
from hswc.interpreter.body import run_body
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.structured import run_structured


@register_impls
class LinalgFunctions(MachineFunctions):
    """linalg.generic on tensors: the elementwise body over whole arrays."""

    @impl(GenericOp)
    def run_generic(self, interpreter: Interpreter, op: GenericOp,
                    args: PythonValues) -> PythonValues:
        count = len(op.inputs)
        maps = _elementwise_maps(op)
        if maps is None:
            return self.run_any_generic(interpreter, op, args)
        output = np.asarray(args[count])
        space = _iteration_space(op, maps[-1], output.shape)
        inputs = [_read(op, i, np.asarray(a), maps[i], space)
                  for i, a in enumerate(args[:count])]
        result = run_body(op.body.block, inputs, lambda v: interpreter.get_values((v,))[0])
        order = [e.position for e in maps[-1].results]  # type: ignore[attr-defined]
        return (np.transpose(np.broadcast_to(result, space), order).copy(),)

    def run_any_generic(self, interpreter: Interpreter, op: GenericOp,
                        args: PythonValues) -> PythonValues:
        """Any generic on tensors, in MLIR's loop order (hswc.interpreter.structured)."""
        check_structure(op, len(op.inputs), len(op.outputs))
        maps = [m.data for m in op.indexing_maps]
        iterators = [str(it.data.value) for it in op.iterator_types]
        count = len(op.inputs)
        return tuple(run_structured(op, maps, iterators, op.body.block,
                                    [np.asarray(a) for a in args[:count]],
                                    [np.asarray(a) for a in args[count:]],
                                    lambda v: interpreter.get_values((v,))[0]))

    @impl_terminator(YieldOp)
    def run_yield(self, interpreter: Interpreter, op: YieldOp,
                  args: PythonValues) -> tuple[Any, PythonValues]:
        raise OpError(op, "is only run as the end of a structured op's body")


def check_structure(op: Operation, inputs: int, outputs: int) -> None:
    """A structured op on tensors whose body takes one argument per operand: refused at the op
    otherwise."""
    if len(op.results) != outputs:
        raise OpError(op, f"has {outputs} outputs and {len(op.results)} results; the "
                      "interpreter runs structured ops on tensors (one result per output)")
    block = op.regions[0].block
    if len(block.args) != inputs + outputs:
        raise OpError(op, f"has a body of {len(block.args)} arguments for {inputs} input(s) "
                      f"and {outputs} output(s)")
    if any(isinstance(v.type, MemRefType) for v in op.operands):
        raise OpError(op, "works on memrefs; the interpreter runs structured ops on tensors")


def _elementwise_maps(op: GenericOp) -> list[AffineMap] | None:
    """The generic's maps when it is elementwise (module docstring), else None."""
    block = op.body.block
    if (any(it.data.value != "parallel" for it in op.iterator_types)
            or len(op.outputs) != 1 or len(op.res) != 1
            or len(block.args) != len(op.inputs) + 1 or block.args[-1].uses
            or any(isinstance(o, IndexOp) for o in block.ops)):
        return None
    maps: list[AffineMap] = []
    for i, attr in enumerate(op.indexing_maps):
        assert isinstance(attr, AffineMapAttr)
        m = attr.data
        output = i == len(op.inputs)
        ok = (m.num_dims == len(op.iterator_types)
              and (m.is_projected_permutation() and len(m.results) == m.num_dims if output
                   else is_window(m)))
        if not ok:
            return None
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
    broadcast, a constant c reads element c of its dim, `d + c` the window of its dim from c: a
    slice folded into the map, hswc.broadcast.is_window)."""
    if array.ndim != len(m.results):
        raise OpError(op, f"gets a rank-{array.ndim} input {index} for its map {m}")
    picks: list[int | slice] = []
    dims: list[int] = []
    for axis, e in enumerate(m.results):
        found = dim_and_offset(e)
        assert found is not None
        d, offset = found
        if d is None:
            if offset >= array.shape[axis]:
                raise OpError(op, f"reads element {offset} of dim {axis} of input {index}, "
                              f"which has {array.shape[axis]}")
            picks.append(offset)
            continue
        if offset == 0 and array.shape[axis] == space[d]:
            picks.append(slice(None))
        elif offset + space[d] <= array.shape[axis]:
            picks.append(slice(offset, offset + space[d]))
        else:
            raise OpError(op, f"gets input {index} of shape {array.shape}, which its map "
                          f"{m} does not fit to the iteration space {space}")
        dims.append(d)
    view = np.transpose(array[tuple(picks)], np.argsort(dims)) if dims else array[tuple(picks)]
    shape = [space[d] if d in dims else 1 for d in range(len(space))]
    return np.broadcast_to(view.reshape(shape), space)
