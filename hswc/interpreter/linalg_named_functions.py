"""Upstream linalg's named ops on tensors, run on the host with MLIR's semantics.

Every named op with a body (matmul, batch_matmul, the convolutions and depthwise convolutions,
the poolings, fill, copy, the elementwise add, mul, ...; hswc.dialects.linalg gives each MLIR's
body, casts to the accumulator's type included) runs as the generic it generalizes to: its
indexing maps, iterators and body, by hswc.interpreter.structured, so a matmul or a
convolution sums in MLIR's loop order (each output element's products added in the order of
its reduction dims, in the output's type) and equals MLIR's own CPU execution bit for bit,
not in another order as a BLAS call would. linalg.reduce runs the same way with its
`dimensions` as the reduction dims. linalg.transpose and linalg.broadcast move data only
(numpy's transpose and broadcast).

xDSL 0.75's own interpreter functions for these ops are not used: they run one element at a
time on its ShapedArray (seconds for a small convolution), and its convolution and max pooling
read only the first image and channel and ignore dilations (xdsl/interpreters/linalg.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import BroadcastOp, ReduceOp, TransposeOp
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.ir.affine import AffineDimExpr, AffineMap

from hswc.diagnostics import OpError
from hswc.dialects.linalg import Linalg
from hswc.interpreter.limits import check_memory
from hswc.interpreter.linalg_functions import check_structure
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.structured import run_structured


class LinalgNamedFunctions(MachineFunctions):
    """The named linalg ops (module docstring)."""

    def run_named(self, interpreter: Interpreter, op: NamedOperation,
                  args: PythonValues) -> PythonValues:
        """Any named op with a body, as its generic."""
        inputs, outputs = len(op.inputs), len(op.outputs)
        check_structure(op, inputs, outputs)
        maps = [m.data for m in op.get_indexing_maps()]
        iterators = [str(it.data.value) for it in op.get_iterator_types()]
        return tuple(run_structured(op, maps, iterators, op.body.block,
                                    [np.asarray(a) for a in args[:inputs]],
                                    [np.asarray(a) for a in args[inputs:]],
                                    lambda v: interpreter.get_values((v,))[0]))

    @impl(ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: ReduceOp,
                   args: PythonValues) -> PythonValues:
        """linalg.reduce: the input's `dimensions` reduced into the init, in loop order."""
        check_structure(op, 1, 1)
        source, init = np.asarray(args[0]), np.asarray(args[1])
        rank = source.ndim
        reduced = set(op.dimensions.get_values())
        if any(not 0 <= d < rank for d in reduced):
            raise OpError(op, f"reduces dimensions {sorted(reduced)} of a rank-{rank} input")
        dims = [AffineDimExpr(d) for d in range(rank)]
        maps = [AffineMap(rank, 0, tuple(dims)),
                AffineMap(rank, 0, tuple(e for d, e in enumerate(dims) if d not in reduced))]
        iterators = ["reduction" if d in reduced else "parallel" for d in range(rank)]
        return tuple(run_structured(op, maps, iterators, op.region.block, [source], [init],
                                    lambda v: interpreter.get_values((v,))[0]))

    @impl(TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: TransposeOp,
                      args: PythonValues) -> PythonValues:
        """linalg.transpose: result dim i is input dim permutation[i]."""
        check_structure(op, 1, 1)
        source, init = np.asarray(args[0]), np.asarray(args[1])
        result = np.transpose(source, op.permutation.get_values())
        if result.shape != init.shape:
            raise OpError(op, f"transposes a {source.shape} input to {result.shape}, not its "
                          f"output's shape {init.shape}")
        return (result.astype(init.dtype, copy=True),)


    @impl(BroadcastOp)
    def run_broadcast(self, interpreter: Interpreter, op: BroadcastOp,
                      args: PythonValues) -> PythonValues:
        """linalg.broadcast: the input repeated along the output's `dimensions`."""
        source, init = np.asarray(args[0]), np.asarray(args[1])
        added = sorted(op.dimensions.get_values())
        shape = list(source.shape)
        for d in added:
            shape.insert(d, 1)
        check_memory(init.size * init.dtype.itemsize, f"its result of shape {init.shape}")
        try:
            result = np.broadcast_to(source.reshape(shape), init.shape)
        except ValueError:
            raise OpError(op, f"cannot broadcast a {source.shape} input along dimensions "
                          f"{added} to its output's shape {init.shape}") from None
        return (result.astype(init.dtype, copy=True),)


def _named_impl(op_type: type[NamedOperation]) -> Callable[..., PythonValues]:
    @impl(op_type)
    def run(self: LinalgNamedFunctions, interpreter: Interpreter, op: NamedOperation,
            args: PythonValues) -> PythonValues:
        return self.run_named(interpreter, op, args)

    return run


for _op in Linalg.operations:  # one impl per named op with a body, each the same run_named
    if issubclass(_op, NamedOperation):
        setattr(LinalgNamedFunctions, f"run_{_op.name.split('.')[-1]}", _named_impl(_op))
register_impls(LinalgNamedFunctions)
