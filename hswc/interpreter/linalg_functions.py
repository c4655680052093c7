"""linalg.generic on tensors at the hsg level: the elementwise body over whole arrays, and the
tensor ops that give it its output's shape."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.interpreter import Interpreter, PythonValues, impl, impl_terminator, register_impls

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
        inputs = [np.asarray(a) for a in args[:count]]
        shapes = {a.shape for a in inputs}
        if len(shapes) > 1:
            raise OpError(op, f"gets inputs of different shapes at run time: {sorted(shapes)}")
        return (run_body(op.body.block, inputs, lambda v: interpreter.get_values((v,))[0]),)

    @impl_terminator(YieldOp)
    def run_yield(self, interpreter: Interpreter, op: YieldOp,
                  args: PythonValues) -> tuple[Any, PythonValues]:
        raise OpError(op, "is only run as the end of an elementwise body")


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
