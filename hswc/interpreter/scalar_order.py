"""Happens-before for the scalar unit's UB reads: what a GetValue may read, and the flags.

The interpreter runs every call to completion in program order, so a kernel that reads with
LocalTensor::GetValue what a vector instruction has just written would see the value here and
a stale one on the chip: the scalar unit issues the vector instruction to the V pipe and runs
on (asc-devkit docs 同步控制/SetFlag WaitFlag(ISASI).md; its own ReduceSum implementation waits
with SetFlag / WaitFlag<HardEvent::V_S> before it reads the vector result, impl/basic_api/
dav_c220/kernel_operator_vec_reduce_impl.h). `ScalarOrder` keeps, per UB byte, the last write
of the V pipe and of MTE2 (GM -> UB copies) as a sequence number, and per pipe the newest write
already ordered before the scalar unit: WaitFlag<V_S> (MTE2_S) orders what V (MTE2) had done by
its SetFlag, PipeBarrier<PIPE_ALL> everything so far. A GetValue of a byte written later than
that is refused. Flags are checked as the device needs them: a WaitFlag without a pending
SetFlag of the same HardEvent and id would hang; a SetFlag on an id whose flag is still pending
is refused (FetchEventID.md: "两者ID相同会出现程序卡死等未定义行为").

One tracker serves a launch's batch of cores: a write is recorded for the bytes any active core
wrote (the union over cores; flags and barriers are the kernel's, the same on every core).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hswc.dialects.ascend_types import HardEvent
from hswc.interpreter.tensors import RuleError

TRACKED = ("V", "MTE2")
"""The pipes whose UB writes a scalar read must wait for."""
_PIPE_WORDS = {"V": "the vector unit (V)", "MTE2": "a GM -> UB copy (MTE2)"}


@dataclass
class ScalarOrder:
    """The UB writes the scalar unit has not yet been ordered after, for one batch of cores."""

    ub_size: int
    seq: int = 0
    written: dict[str, np.ndarray] = field(default_factory=dict)
    """Per tracked pipe, the sequence number of each UB byte's last write by it (0: none)."""
    ordered: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TRACKED, 0))
    """Per tracked pipe, the newest write already ordered before the scalar unit."""
    writers: list[str] = field(default_factory=lambda: [""])
    """The call of each sequence number, for messages."""
    pending: dict[tuple[HardEvent, int], int] = field(default_factory=dict)
    """Flags set and not yet waited for: the sequence number at their SetFlag."""

    def write(self, pipe: str, lo: int, hi: int, call: str) -> None:
        """`call` on `pipe` wrote UB bytes [lo, hi)."""
        lo, hi = max(lo, 0), min(hi, self.ub_size)
        if hi <= lo:
            return
        self.seq += 1
        self.writers.append(call)
        table = self.written.get(pipe)
        if table is None:
            table = self.written[pipe] = np.zeros(self.ub_size, dtype=np.uint32)
        table[lo:hi] = self.seq

    def write_spans(self, pipe: str, spans: np.ndarray, size: int, call: str) -> None:
        """`call` wrote `size` bytes at each UB byte offset of `spans`."""
        if spans.size == 0:
            return
        self.seq += 1
        self.writers.append(call)
        table = self.written.get(pipe)
        if table is None:
            table = self.written[pipe] = np.zeros(self.ub_size, dtype=np.uint32)
        at = (np.asarray(spans, dtype=np.int64).reshape(-1, 1) + np.arange(size)).ravel()
        table[at[(at >= 0) & (at < self.ub_size)]] = self.seq

    def order_all(self) -> None:
        """PipeBarrier<PIPE_ALL>: every pipe's work so far precedes what follows."""
        for pipe in TRACKED:
            self.ordered[pipe] = self.seq

    def order_pipe(self, pipe: str) -> None:
        """A call's own SetFlag / WaitFlag<{pipe}_S> (dav_c220 ReduceSum, ...): everything the
        pipe wrote so far is ordered before the scalar unit."""
        self.ordered[pipe] = self.seq

    def set_flag(self, event: HardEvent, event_id: int) -> None:
        key = (event, event_id)
        if key in self.pending:
            raise RuleError(f"SetFlag<HardEvent::{event.name}>({event_id}) while the earlier "
                            "SetFlag of that event id is not yet waited for (the id is reused in "
                            "flight: wait for it first, or take another id)")
        self.pending[key] = self.seq

    def wait_flag(self, event: HardEvent, event_id: int) -> None:
        at = self.pending.pop((event, event_id), None)
        if at is None:
            raise RuleError(f"WaitFlag<HardEvent::{event.name}>({event_id}) with no pending "
                            f"SetFlag<HardEvent::{event.name}>({event_id}): the device would hang")
        source, target = event.pipes
        if target == "S" and source in TRACKED:
            self.ordered[source] = max(self.ordered[source], at)

    def read(self, lo: int, hi: int, what: str) -> None:
        """The scalar unit reads UB bytes [lo, hi): refused if a tracked pipe wrote one of them
        after its last ordering before the scalar unit."""
        for pipe, table in self.written.items():
            last = int(table[max(lo, 0):min(hi, self.ub_size)].max(initial=0))
            if last > self.ordered[pipe]:
                raise RuleError(
                    f"{what} reads UB bytes [{lo}, {hi}) that {self.writers[last]} on "
                    f"{_PIPE_WORDS[pipe]} wrote with no SetFlag/WaitFlag<HardEvent::{pipe}_S> "
                    "or PipeBarrier<PIPE_ALL> between them: the scalar unit may read them "
                    "before they are written")
