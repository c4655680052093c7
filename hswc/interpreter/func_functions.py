"""func.func / func.call / func.return, and cf.assert (the host tiling's failure checks)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf, func
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.traits import SymbolTable

from hswc.diagnostics import OpError
from hswc.interpreter.machine import Machine
from hswc.interpreter.values import Varying


@register_impls
class FuncFunctions(InterpreterFunctions):
    """Functions and calls; a call of a body-less declaration is an error."""

    def __init__(self, machine: Machine):
        self.machine = machine

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp,
                  args: PythonValues) -> PythonValues:
        if not op.body.blocks or op.body.blocks.first is None:
            raise OpError(op, f"@{op.sym_name.data} is a declaration: there is no body to run")
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp,
                 args: PythonValues) -> PythonValues:
        callee = SymbolTable.lookup_symbol(interpreter.module, op.callee)
        if not isinstance(callee, func.FuncOp):
            raise OpError(op, f"calls {op.callee}, which is not a func.func in this module")
        return interpreter.call_op(callee, args)

    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp,
                   args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


@register_impls
class CfFunctions(InterpreterFunctions):
    """cf.assert: the reference's failure checks (the host tiling's GRAPH_FAILED returns)."""

    def __init__(self, machine: Machine):
        self.machine = machine

    @impl(cf.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: cf.AssertOp,
                   args: PythonValues) -> PythonValues:
        (ok,) = args
        if isinstance(ok, Varying):
            rows = self.machine.rows
            held = rows.take(ok.values) if rows is not None else ok.values
            failed = not bool(np.all(held))
        else:
            failed = not ok
        if failed:
            raise OpError(op, f"assertion failed: {op.msg.data}")
        return ()
