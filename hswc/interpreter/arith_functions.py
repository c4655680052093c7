"""arith on plain Python ints and bools, or per-core numpy arrays (`Varying`).

xDSL's own arith impls carry IntegerAttr values and cost tens of microseconds an op; these
compute on the value model of hswc.interpreter.values. `index` is a signed 64-bit integer,
i1 a bool. A division by zero on any active core is an error naming the op (in MLIR it is
undefined behaviour). Results are not wrapped to 64 bits: the tiling's values are far from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from hswc.diagnostics import OpError
from hswc.interpreter.machine import Machine
from hswc.interpreter.values import Rows, Varying, merge, uniform_on

Binary = Callable[[Any, Any], Any]
_U64 = 1 << 64


def _raw(v: Any) -> Any:
    return v.values if isinstance(v, Varying) else v


def _unsigned(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.astype(np.uint64)
    return v % _U64


def _min(a: Any, b: Any) -> Any:
    return np.minimum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else min(a, b)


def _max(a: Any, b: Any) -> Any:
    return np.maximum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else max(a, b)


def _trunc_div(a: Any, b: Any) -> Any:
    """Signed division rounding toward zero (arith.divsi), not Python's floor."""
    q = abs(a) // abs(b)
    negative = (a < 0) ^ (b < 0)
    if isinstance(q, np.ndarray):
        return np.where(negative, -q, q)
    return -q if negative else q


def _trunc_rem(a: Any, b: Any) -> Any:
    return a - _trunc_div(a, b) * b


BINARY: dict[type[arith.SignlessIntegerBinaryOperation], Binary] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.MaxSIOp: _max,
    arith.MinSIOp: _min,
    arith.MaxUIOp: lambda a, b: _max(_unsigned(a), _unsigned(b)),
    arith.MinUIOp: lambda a, b: _min(_unsigned(a), _unsigned(b)),
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
    arith.XOrIOp: lambda a, b: a ^ b,
    arith.ShLIOp: lambda a, b: a << b,
    arith.ShRSIOp: lambda a, b: a >> b,
}

DIVISIONS: dict[type[arith.SignlessIntegerBinaryOperation], Binary] = {
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.CeilDivSIOp: lambda a, b: -(-a // b),
    arith.DivSIOp: _trunc_div,
    arith.RemSIOp: _trunc_rem,
    arith.DivUIOp: lambda a, b: _unsigned(a) // _unsigned(b),
    arith.RemUIOp: lambda a, b: _unsigned(a) % _unsigned(b),
    arith.CeilDivUIOp: lambda a, b: -(-_unsigned(a) // _unsigned(b)),
}

PREDICATES: tuple[Binary, ...] = (
    lambda a, b: a == b,
    lambda a, b: a != b,
    lambda a, b: a < b,
    lambda a, b: a <= b,
    lambda a, b: a > b,
    lambda a, b: a >= b,
    lambda a, b: _unsigned(a) < _unsigned(b),
    lambda a, b: _unsigned(a) <= _unsigned(b),
    lambda a, b: _unsigned(a) > _unsigned(b),
    lambda a, b: _unsigned(a) >= _unsigned(b),
)
"""arith.cmpi predicates by number: eq ne slt sle sgt sge ult ule ugt uge."""


def _apply(fn: Binary, a: Any, b: Any, rows: Rows | None) -> Any:
    """fn on uniform values, or per core; a per-core result that is the same on every active
    core becomes uniform again (the other cores' entries are stale anyway), which keeps the
    loop body's counts plain ints when only a core's total length differs."""
    if not isinstance(a, Varying) and not isinstance(b, Varying):
        return fn(a, b)
    result = np.asarray(fn(_raw(a), _raw(b)))
    if result.dtype == np.uint64:
        result = result.astype(np.int64)
    same, value = uniform_on(rows, Varying(result))
    return value if same and value is not None else Varying(result)


_I1 = IntegerType(1)


def _constant(op: arith.ConstantOp) -> int | bool | float:
    value = op.value
    if isinstance(value, IntegerAttr):
        n = value.value.data
        return bool(n & 1) if value.type == _I1 else n
    if isinstance(value, FloatAttr):
        return float(value.value.data)
    raise OpError(op, f"has a constant the interpreter does not model: {value}")


class ArithFunctions(InterpreterFunctions):
    """The arith ops of host tiling and kernel index arithmetic."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self._constants: dict[arith.ConstantOp, int | bool | float] = {}

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp,
                     args: PythonValues) -> PythonValues:
        value = self._constants.get(op)
        if value is None:  # constants in the chunk loop run once per chunk: decode them once
            value = self._constants[op] = _constant(op)
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
            rows = self.machine.rows
            divisors = rows.take(b.values) if rows is not None else b.values
            if (divisors == 0).any():
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


for _op, _fn in BINARY.items():
    setattr(ArithFunctions, f"run_{_op.name.split('.')[-1]}", _binary_impl(_op, _fn, False))
for _op, _fn in DIVISIONS.items():
    setattr(ArithFunctions, f"run_{_op.name.split('.')[-1]}", _binary_impl(_op, _fn, True))
register_impls(ArithFunctions)
