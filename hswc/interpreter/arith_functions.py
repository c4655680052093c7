"""arith on plain Python ints and bools, or per-core numpy arrays (`Varying`).

xDSL's own arith impls carry IntegerAttr values and cost tens of microseconds an op; these
compute on the value model of hswc.interpreter.values. `index` is a signed 64-bit integer,
i1 a bool. A division by zero on any active core is an error naming the op (in MLIR it is
undefined behaviour). Results are not wrapped to 64 bits: the tiling's values are far from it.
Float scalars (a kernel's run-time attributes) are numpy scalars of their type, computed by
hswc.interpreter.float_scalars.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
)
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.ir import Operation

from hswc import arith_semantics as sem
from hswc.diagnostics import OpError
from hswc.integer_semantics import BINARY, DIVISIONS, PREDICATES, Binary
from hswc.interpreter import constants
from hswc.interpreter.dtypes import numpy_dtype
from hswc.interpreter.float_scalars import FLOAT_OPS, float_constant, run_float
from hswc.interpreter.machine import Machine, MachineFunctions
from hswc.interpreter.values import Rows, Varying, merge, on_rows, raw, uniform_on


def _apply(fn: Binary, a: Any, b: Any, rows: Rows | None) -> Any:
    """fn on uniform values, or per core; a per-core result that is the same on every active
    core becomes uniform again (the other cores' entries are stale anyway), which keeps the
    loop body's counts plain ints when only a core's total length differs."""
    if not isinstance(a, Varying) and not isinstance(b, Varying):
        return fn(a, b)
    result = np.asarray(fn(raw(a), raw(b)))
    if result.dtype == np.uint64:
        result = result.astype(np.int64)
    same, value = uniform_on(rows, Varying(result))
    return value if same and value is not None else Varying(result)


_I1 = IntegerType(1)


def _constant(op: arith.ConstantOp, blobs: Mapping[str, str]
              ) -> int | bool | np.generic | np.ndarray:
    value = op.value
    if isinstance(value, DenseIntOrFPElementsAttr):
        return constants.dense(op, value)
    if isinstance(value, DenseResourceAttr):
        return constants.resource(op, value, blobs)
    if isinstance(value, IntegerAttr):
        n = value.value.data
        return bool(n & 1) if value.type == _I1 else n
    if isinstance(value, FloatAttr):
        try:
            return float_constant(value.value.data, value.type)
        except ValueError:
            pass
    raise OpError(op, f"has a constant the interpreter does not model: {value}")


class ArithFunctions(MachineFunctions):
    """The arith ops of host tiling and kernel index arithmetic."""

    def __init__(self, machine: Machine):
        super().__init__(machine)
        self._constants: dict[arith.ConstantOp, int | bool | np.generic | np.ndarray] = {}

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp,
                     args: PythonValues) -> PythonValues:
        value = self._constants.get(op)
        if value is None:  # constants in the chunk loop run once per chunk: decode them once
            value = self._constants[op] = _constant(op, self.machine.resources)
        return (value,)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp,
                 args: PythonValues) -> PythonValues:
        a, b = args
        return (_apply(PREDICATES[op.predicate.value.data], a, b, self.machine.rows),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp,
                   args: PythonValues) -> PythonValues:
        cond, a, b = args
        same, c = uniform_on(self.machine.rows, cond)
        if same:
            return (a if c else b,)
        return (merge(cond.values, a, b),)

    @impl(arith.IndexCastOp)
    def run_index_cast(self, interpreter: Interpreter, op: arith.IndexCastOp,
                       args: PythonValues) -> PythonValues:
        return args

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interpreter: Interpreter, op: arith.SIToFPOp,
                   args: PythonValues) -> PythonValues:
        """An integer (a run-time size) as a float, rounded once to the result's type."""
        (v,) = args
        dtype = numpy_dtype(op.result.type)
        if isinstance(v, Varying):
            return (Varying(sem.convert(v.values.astype(np.int64), dtype)),)
        return (sem.convert(np.array(int(v), np.int64), dtype)[()],)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter: Interpreter, op: arith.ExtUIOp,
                  args: PythonValues) -> PythonValues:
        (v,) = args
        if isinstance(v, Varying):
            return (Varying(v.values.astype(np.int64)),)
        return (int(v),)

    def divide(self, op: arith.SignlessIntegerBinaryOperation, fn: Binary, a: Any,
               b: Any) -> Any:
        """a <op> b after checking the divisor on every active core."""
        if isinstance(b, Varying):
            if (on_rows(self.machine.rows, b.values) == 0).any():
                raise OpError(op, "divides by zero")
            b = Varying(np.where(b.values == 0, 1, b.values))
        elif b == 0:
            raise OpError(op, "divides by zero")
        return _apply(fn, a, b, self.machine.rows)


def _binary_impl(op_type: type[arith.SignlessIntegerBinaryOperation], fn: Binary,
                 division: bool):
    def run(self: ArithFunctions, interpreter: Interpreter, op: Any,
            args: PythonValues) -> PythonValues:
        a, b = args
        if division:
            return (self.divide(op, fn, a, b),)
        return (_apply(fn, a, b, self.machine.rows),)

    run.__name__ = f"run_{op_type.name.split('.')[-1]}"
    return impl(op_type)(run)


def _float_impl(op_type: type[Operation]):
    def run(self: ArithFunctions, interpreter: Interpreter, op: Operation,
            args: PythonValues) -> PythonValues:
        return (run_float(op, args),)

    run.__name__ = f"run_{op_type.name.split('.')[-1]}"
    return impl(op_type)(run)


for _op, _fn in BINARY.items():
    setattr(ArithFunctions, f"run_{_op.name.split('.')[-1]}", _binary_impl(_op, _fn, False))
for _op, _fn in DIVISIONS.items():
    setattr(ArithFunctions, f"run_{_op.name.split('.')[-1]}", _binary_impl(_op, _fn, True))
for _float_op in FLOAT_OPS:
    setattr(ArithFunctions, f"run_{_float_op.name.split('.')[-1]}", _float_impl(_float_op))
register_impls(ArithFunctions)
