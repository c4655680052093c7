"""scf.if / scf.for / scf.yield on a batch of cores in lock-step.

Uniform control flow (the condition or the bounds agree on every active core) runs as usual.
Otherwise the batch diverges like SIMT lanes:
- scf.if runs the then-region on the cores whose condition holds and the else-region on the
  others, then merges the yielded values per core;
- scf.for runs iteration k on the cores that still have a k-th iteration (usually every core
  but a short last one), keeping each core's loop-carried values as of its own last iteration.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.interpreter import (
    Interpreter,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from hswc.diagnostics import OpError
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.values import Rows, Varying, merge, per_row, uniform_on


@register_impls
class ScfFunctions(MachineFunctions):
    """Structured control flow, uniform or diverging across the cores of a batch."""

    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues) -> PythonValues:
        (cond,) = args
        rows = self.machine.rows
        same, c = uniform_on(rows, cond)
        if same:
            region = op.true_region if c else op.false_region
            return interpreter.run_ssacfg_region(region, (), "scf.if")
        assert rows is not None and isinstance(cond, Varying)
        mask = cond.values.astype(bool)
        with self.machine.active(rows.narrow(mask)):
            taken = interpreter.run_ssacfg_region(op.true_region, (), "scf.if.then")
        with self.machine.active(rows.narrow(~mask)):
            other = interpreter.run_ssacfg_region(op.false_region, (), "scf.if.else")
        if not op.results:
            return ()
        return tuple(merge(mask, t, e) for t, e in zip(taken, other, strict=True))

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp,
                args: PythonValues) -> PythonValues:
        lb, ub, step, *carried = args
        rows = self.machine.rows
        bounds = [uniform_on(rows, v) for v in (lb, ub, step)]
        if not all(same for same, _ in bounds):
            assert rows is not None
            return self._diverging_for(interpreter, op, rows, (lb, ub, step), tuple(carried))
        low, high, stride = (v for _, v in bounds)
        if stride <= 0:
            raise OpError(op, f"has step {stride}; scf.for needs a positive step")
        values = tuple(carried)
        for i in range(low, high, stride):
            self.machine.step(op)
            values = interpreter.run_ssacfg_region(op.body, (i, *values), "scf.for")
        return values

    def _diverging_for(self, interpreter: Interpreter, op: scf.ForOp, rows: Rows,
                       bounds: tuple[Any, Any, Any], carried: tuple[Any, ...]) -> PythonValues:
        n = rows.mask.size
        low, high, stride = (per_row(v, n) for v in bounds)
        if (rows.take(stride) <= 0).any():
            raise OpError(op, "has a non-positive step on some core; scf.for needs a positive step")
        safe = np.where(stride > 0, stride, 1)
        trips = np.where(rows.mask, np.maximum(0, -(-(high - low) // safe)), 0)
        first, step = bounds[0], bounds[2]
        uniform_iv = isinstance(first, int) and isinstance(step, int)
        values = carried
        for k in range(int(trips.max())):
            self.machine.step(op)
            live = Rows(trips > k)
            iv: Any = first + k * step if uniform_iv else Varying(low + k * stride)
            with self.machine.active(live):
                new = interpreter.run_ssacfg_region(op.body, (iv, *values), "scf.for")
            # Cores outside `live` keep the values of their own last iteration.
            full = live.size == rows.size
            values = new if full else tuple(
                merge(live.mask, a, b) for a, b in zip(new, values, strict=True))
        return values

    @impl_terminator(scf.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: scf.YieldOp,
                  args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
