"""The state one interpreter run shares between the dialects' impls.

`Machine` holds what the run executes on (the platform: core count and UB size), what the
named hsg ops mean (the semantics whose golden models define them: each op's default when
none is named), where events go, the tilings the run launched, the loop iterations it has
taken, and while a kernel runs, its batch of cores and the rows active now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import numpy as np
from xdsl.interpreter import InterpreterFunctions
from xdsl.ir import Operation

from hswc.diagnostics import OpError
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.limits import (
    BASE_STEPS,
    DEFAULT_MAX_STEPS,
    STEPS_PER_CHUNK,
    launch_allowance,
)
from hswc.interpreter.trace import EventHook, OpEvent
from hswc.interpreter.values import Rows
from hswc.platform import Platform

Model = Callable[..., np.ndarray]
TilingRecord = dict[str, Any]
"""One launch's tiling as --tiling-json writes it: the int fields (totalNum, ..., tilingKey),
then the launch's f32 scalars as floats under their tiling-struct names."""


class Machine:
    """Platform, semantics and run-time context of one interpreter."""

    def __init__(self, platform: Platform, semantics: str | None = None,
                 on_event: EventHook | None = None, max_steps: int | None = DEFAULT_MAX_STEPS,
                 resources: Mapping[str, str] | None = None):
        self.platform = platform
        self.resources: Mapping[str, str] = resources or {}
        """The blobs of the module's dense_resource constants, by handle
        (hswc.dialects.builtin.resource_blobs)."""
        self.semantics = semantics
        self.on_event = on_event
        self.tilings: list[TilingRecord | None] = []
        """One entry per launch, in order."""
        self.launched: list[str] = []
        """The kernel of each launch, in order."""
        self.batch: CoreBatch | None = None
        self.rows: Rows | None = None
        self._idents = 0
        self._outputs: list[tuple[np.ndarray, np.ndarray]] = []
        """The running launch's output GM buffers and, per element, whether a core wrote it."""
        self.max_steps = max_steps
        """Loop iterations the run may take (hswc.interpreter.limits); None: what its
        launches' tilings allow (`allowed`)."""
        self.allowed = BASE_STEPS
        """The default limit so far: BASE_STEPS, and each launch's allowance (limits)."""
        self.steps = 0

    def model(self, op: Operation) -> Model:
        """The golden model that defines a named op under this run's semantics."""
        from hswc.ops import definition_of
        from hswc.reference import OP_REFERENCES

        definition = definition_of(op.name)
        semantics = self.semantics or definition.default_semantics
        if semantics not in definition.semantics:
            raise OpError(op, f"has no {semantics} semantics (it has: "
                          f"{', '.join(definition.semantics)})")
        model = OP_REFERENCES.get((definition.name, semantics))
        if model is None:
            raise OpError(op, f"has no {semantics} reference model to run at the hsg level")
        return model

    def new_ident(self) -> int:
        self._idents += 1
        return self._idents

    def allow_launch(self, block_dim: int, block_factor: int, ub_factor: int,
                     element_loops: int = 0, once: int = 0) -> None:
        """Let the run take a launch's iterations more (the default limit only); a kernel with
        `element_loops` loops over each chunk's elements (a broadcast input's CopyIn) may take
        that many iterations per element of a core's slice too, and `once` more per batch of
        cores (its counts' sum: hswc.counted_rows)."""
        self.allowed += launch_allowance(block_dim, block_factor, ub_factor,
                                         self.platform.core_num, element_loops, once)

    def step(self, loop: Operation) -> None:
        """Count one iteration of `loop`; an error naming it past the limit."""
        self.steps += 1
        limit = self.allowed if self.max_steps is None else self.max_steps
        if self.steps > limit:
            why = ("the --max-steps given" if self.max_steps is not None else
                   f"the default limit, {STEPS_PER_CHUNK} per UB chunk of this run's launches' "
                   f"tilings plus {BASE_STEPS}")
            raise OpError(loop, f"is still iterating after {limit} loop iterations of this run "
                          f"({why}): a runaway loop? If it is not, raise the limit with "
                          "--max-steps N (hswc-run) or run(..., max_steps=N)")

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
    def writing(self, gm: np.ndarray, written: np.ndarray) -> Iterator[None]:
        """Record, while a launch runs, which elements of its output `gm` the cores write."""
        self._outputs.append((gm, written))
        try:
            yield
        finally:
            self._outputs.pop()

    def mark_written(self, gm: np.ndarray, positions: Any, count: int) -> None:
        """Elements [p, p + count) of `gm` were written, for each p of `positions`."""
        for out, written in self._outputs:
            if out is gm:
                starts = np.atleast_1d(np.asarray(positions, dtype=np.int64))
                steps = np.diff(starts)
                if (starts.size > 1 and count > 0 and starts[0] >= 0 and np.all(steps == steps[0])
                        and steps[0] >= count and starts[-1] + count <= written.size):
                    # Disjoint windows one step apart (the usual case): one strided store.
                    np.lib.stride_tricks.as_strided(
                        written[int(starts[0]):], (starts.size, count),
                        (int(steps[0]) * written.strides[0], written.strides[0]))[...] = True
                    continue
                for p in starts.tolist():
                    written[max(p, 0): max(p + count, 0)] = True

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
