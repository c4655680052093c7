"""The body ops an exporter writes beyond the elementwise kernels' (hswc.interpreter.body runs
those first): integer arithmetic and conversions, f64 and the other math functions, math.fpowi,
linalg.index, tensor.extract from a tensor defined outside the body, cf.assert.

Each is computed over whole arrays, in its own type, by one definition of its semantics:
hswc.arith_integer_semantics (integers of their own width, `index` as int64),
hswc.host_math_semantics (math on f64 and the functions the vector unit has no model of;
fpowi). An integer op MLIR leaves undefined (a division by zero), a tensor.extract outside its
tensor and a failing cf.assert are errors at the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from xdsl.dialects import arith, cf, math, tensor
from xdsl.dialects.builtin import IntegerAttr
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Operation

from hswc import arith_integer_semantics as ints
from hswc import host_math_semantics as host_math
from hswc.diagnostics import OpError
from hswc.interpreter.dtypes import numpy_dtype


class Iteration(Protocol):
    """Where a body runs: the values of its iteration dims (linalg.index)."""

    def index(self, op: Operation, dim: int) -> np.ndarray:
        """Dim `dim`'s index at every point the body runs on (int64, broadcastable)."""
        ...


def result_dtype(op: Operation) -> np.dtype:
    try:
        return numpy_dtype(op.results[0].type)
    except ValueError:
        raise OpError(op, f"gives a {op.results[0].type}, which the interpreter does not "
                      "model") from None


def _conversion(op: Operation, a: np.ndarray) -> np.ndarray:
    to = result_dtype(op)
    if isinstance(op, arith.ExtSIOp | arith.ExtUIOp | arith.TruncIOp):
        return ints.resize(a, to, signed=isinstance(op, arith.ExtSIOp))
    if isinstance(op, arith.IndexCastOp):
        return ints.resize(a, to, signed=isinstance(op, arith.IndexCastOp))
    if isinstance(op, arith.SIToFPOp | arith.UIToFPOp):
        return ints.to_float(a, to, signed=isinstance(op, arith.SIToFPOp))
    assert isinstance(op, arith.FPToSIOp | arith.FPToUIOp)
    return ints.to_integer(a, to, signed=isinstance(op, arith.FPToSIOp))


CONVERSIONS = (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp,
               arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp,
               arith.FPToUIOp)


def _math(op: Operation, args: Sequence[np.ndarray]) -> np.ndarray:
    if isinstance(op, math.FPowIOp):
        return host_math.fpowi(args[0], args[1])
    known = host_math.DOUBLE if len(args) == 1 else host_math.BINARY_DOUBLE
    if op.name not in known:
        raise OpError(op, "is not a math op the interpreter runs")
    return host_math.in_double(op.name, *args)


def _extract(op: tensor.ExtractOp, args: Sequence[np.ndarray]) -> np.ndarray:
    source, indices = np.asarray(args[0]), [np.asarray(i) for i in args[1:]]
    for axis, index in enumerate(indices):
        if index.size and (index.min() < 0 or index.max() >= source.shape[axis]):
            raise OpError(op, f"reads index {int(index.max() if index.max() >= 0 else index.min())}"
                          f" of dim {axis} of a tensor of shape {source.shape}")
    return source[tuple(indices)] if indices else source[()]


def _assert(op: cf.AssertOp, args: Sequence[np.ndarray]) -> np.ndarray:
    if not np.all(args[0]):
        raise OpError(op, f"assertion failed: {op.msg.data}")
    return np.zeros(())


def run_more(op: Operation, args: Sequence[np.ndarray], at: Iteration | None) -> np.ndarray:
    """`op`'s result over whole arrays (module docstring); an OpError for an op it does not
    run."""
    try:
        if op.name in ints.BINARY:
            return ints.BINARY[op.name](args[0], args[1])
        if isinstance(op, arith.CmpiOp):
            return np.asarray(ints.CMPI[op.predicate.value.data](args[0], args[1]))
        if isinstance(op, CONVERSIONS):
            return _conversion(op, args[0])
    except ints.IntegerError as error:
        raise OpError(op, str(error)) from None
    if op.name == "math.absi":
        return ints.absolute(args[0])
    if op.name.startswith("math."):
        return _math(op, args)
    if isinstance(op, IndexOp):
        if at is None:
            raise OpError(op, "is outside a structured op's body: it has no index to read")
        return at.index(op, op.dim.value.data)
    if isinstance(op, tensor.ExtractOp):
        return _extract(op, args)
    if isinstance(op, cf.AssertOp):
        return _assert(op, args)
    raise OpError(op, "is not an operation the interpreter runs in a body")


def constant(op: arith.ConstantOp, dtype: np.dtype) -> np.ndarray | None:
    """An integer or index constant of a body, or None for another constant."""
    value = op.value
    if isinstance(value, IntegerAttr) and dtype.kind in "iub":
        return ints.constant(value.value.data, dtype)
    return None

