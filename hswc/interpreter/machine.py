"""The state one interpreter run shares between the dialects' impls.

`Machine` holds what the run executes on (the platform: core count and UB size), what the
`hsg` ops mean (the golden model that defines hsg.hard_swish_grad), where events go, the
tilings the run launched, the loop iterations it has taken, and while a kernel runs, its batch
of cores and the rows active now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from xdsl.interpreter import InterpreterFunctions
from xdsl.ir import Operation

from hswc.diagnostics import OpError
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.limits import DEFAULT_MAX_STEPS
from hswc.interpreter.trace import EventHook, OpEvent
from hswc.interpreter.values import Rows
from hswc.platform import Platform
from hswc.reference import hard_swish_grad_cann

Model = Callable[[np.ndarray, np.ndarray], np.ndarray]


class Machine:
    """Platform, semantics and run-time context of one interpreter."""

    def __init__(self, platform: Platform, model: Model = hard_swish_grad_cann,
                 on_event: EventHook | None = None, max_steps: int = DEFAULT_MAX_STEPS):
        self.platform = platform
        self.model = model
        self.on_event = on_event
        self.tilings: list[dict[str, int] | None] = []
        """One entry per launch (or hsg.hard_swish_grad run at the hsg level), in order."""
        self.batch: CoreBatch | None = None
        self.rows: Rows | None = None
        self._idents = 0
        self.max_steps = max_steps
        """Loop iterations the run may take (hswc.interpreter.limits)."""
        self.steps = 0

    def new_ident(self) -> int:
        self._idents += 1
        return self._idents

    def step(self, loop: Operation) -> None:
        """Count one iteration of `loop`; an error naming it past `max_steps`."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise OpError(loop, f"is still iterating after {self.max_steps} loop iterations "
                          "of this run (--max-steps): a runaway loop, or raise the limit")

    def kernel(self, op: Operation) -> tuple[CoreBatch, Rows]:
        """The running batch and its active rows; an error outside a kernel."""
        if self.batch is None or self.rows is None:
            raise OpError(op, "runs on a vector core: it must be in a kernel run by hsg.launch")
        return self.batch, self.rows

    @contextmanager
    def running(self, batch: CoreBatch) -> Iterator[None]:
        previous = self.batch, self.rows
        self.batch, self.rows = batch, Rows.all(batch.size)
        try:
            yield
        finally:
            self.batch, self.rows = previous

    @contextmanager
    def active(self, rows: Rows) -> Iterator[None]:
        """Run a region on `rows` only (a branch or loop iteration not every core takes)."""
        previous = self.rows
        self.rows = rows
        try:
            yield
        finally:
            self.rows = previous

    def emit(self, op: Operation, rows: Rows, elements: int = 0, nbytes: int = 0) -> None:
        if self.on_event is not None and self.batch is not None:
            cores = tuple(self.batch.core_ids(rows))
            self.on_event(OpEvent(op, cores, int(elements), int(nbytes)))


class MachineFunctions(InterpreterFunctions):
    """The base of hswc's impl classes (one per dialect): each sees the run's `Machine`."""

    def __init__(self, machine: Machine):
        self.machine = machine
