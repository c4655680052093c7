"""func.func / func.call / func.return, and cf.assert (the host tiling's failure checks)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf, func
from xdsl.interpreter import (
    Interpreter,
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
from hswc.interpreter.machine import Machine, MachineFunctions
from hswc.interpreter.values import Varying, on_rows


@register_impls
class FuncFunctions(MachineFunctions):
    """Functions and calls; a call of a body-less declaration is an error, and so is a
    recursive call (neither a kernel nor the host tiling recurses; a recursion would only end
    when the run is nested too deeply)."""

    def __init__(self, machine: Machine):
        super().__init__(machine)
        self.running: list[str] = []
        """The functions whose bodies are running, outermost first."""

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp,
                  args: PythonValues) -> PythonValues:
        if not op.body.blocks or op.body.blocks.first is None:
            raise OpError(op, f"@{op.sym_name.data} is a declaration: there is no body to run")
        self.running.append(op.sym_name.data)
        try:
            return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)
        finally:
            self.running.pop()

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp,
                 args: PythonValues) -> PythonValues:
        callee = SymbolTable.lookup_symbol(interpreter.module, op.callee)
        if not isinstance(callee, func.FuncOp):
            raise OpError(op, f"calls {op.callee}, which is not a func.func in this module")
        name = callee.sym_name.data
        if name in self.running:
            chain = " -> ".join(f"@{f}" for f in [*self.running[self.running.index(name):], name])
            raise OpError(op, f"is a recursive call ({chain}): the interpreter runs no "
                          "recursion")
        return interpreter.call_op(callee, args)

    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp,
                   args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


@register_impls
class CfFunctions(MachineFunctions):
    """cf.assert: the reference's failure checks (the host tiling's GRAPH_FAILED returns)."""

    @impl(cf.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: cf.AssertOp,
                   args: PythonValues) -> PythonValues:
        (ok,) = args
        if isinstance(ok, Varying):
            failed = not bool(np.all(on_rows(self.machine.rows, ok.values)))
        else:
            failed = not ok
        if failed:
            raise OpError(op, f"assertion failed: {op.msg.data}")
        return ()
