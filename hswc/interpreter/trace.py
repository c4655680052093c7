"""Observing a run: one event per AscendC call executed, for profilers and cost models.

The ascend-level impls report each call as it runs on a group of cores: which op, on which
cores (block indices), over how many elements and bytes. A `Trace` collects them; any callable
taking an `OpEvent` can be passed instead (hswc.runner `run(..., on_event=...)`).

Example:
    trace = Trace()
    kernel.run(grad, x, on_event=trace)
    trace.count("ascend.muls")          # calls, summed over cores
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Operation


@dataclass(frozen=True)
class OpEvent:
    """One AscendC call, executed by every core in `cores` in lock-step."""

    op: Operation
    cores: tuple[int, ...]
    elements: int = 0
    """Elements the call processes per core (count, or the copied elements)."""
    nbytes: int = 0
    """Bytes the call moves or produces per core (GM traffic for copies)."""

    @property
    def name(self) -> str:
        return self.op.name


EventHook = Callable[[OpEvent], None]


@dataclass
class Trace:
    """Collects events; call it as an `EventHook`."""

    events: list[OpEvent] = field(default_factory=list)

    def __call__(self, event: OpEvent) -> None:
        self.events.append(event)

    def count(self, name: str) -> int:
        """How many times `name` ran, counting each core separately."""
        return sum(len(e.cores) for e in self.events if e.name == name)

    def per_op(self) -> Counter[str]:
        """Calls per op name, counting each core separately."""
        counts: Counter[str] = Counter()
        for event in self.events:
            counts[event.name] += len(event.cores)
        return counts

    def bytes_moved(self, name: str) -> int:
        """Bytes moved by `name` summed over cores and calls."""
        return sum(e.nbytes * len(e.cores) for e in self.events if e.name == name)
