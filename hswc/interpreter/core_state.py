"""What one vector core remembers between AscendC calls: UB allocation and queue states.

`KernelState` is the TPipe's bookkeeping of one core: where InitBuffer put each TQue / TBuf in
the UB arena, and for each queue which of its `depth` buffers are free, allocated, enqueued or
dequeued. Every rule of the TPipe/TQue API is checked here and broken rules raise `RuleError`
with the rule in words:
- InitBuffer: lengths round up to 32 bytes, buffers are placed back to back from byte 0, and
  a buffer that does not fit is a UB overflow (the message lists every buffer so far);
- AllocTensor on a queue whose buffers are all in use; DeQue on an empty queue; EnQue or
  FreeTensor of a tensor that is not (or no longer) held from that queue;
- a LocalTensor used after its buffer was freed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from hswc.dialects.ascend import TPosition
from hswc.interpreter.tensors import Handle, LocalTensor, RuleError
from hswc.platform import UB_BLOCK_BYTES

FREE, ALLOCATED, ENQUEUED, DEQUEUED = "free", "allocated", "enqueued", "dequeued"


def round_up(n: int, to: int) -> int:
    return -(-n // to) * to


@dataclass
class Placement:
    """Where InitBuffer put a TQue (depth slots) or TBuf (one slot) in the arena."""

    handle: Handle
    addr: int
    slot_bytes: int
    requested: int
    status: list[str] = field(default_factory=list)
    generation: list[int] = field(default_factory=list)
    fifo: deque[int] = field(default_factory=deque)
    cursor: int = 0
    """The next slot AllocTensor tries: buffers are handed out round-robin."""

    def slot_addr(self, slot: int) -> int:
        return self.addr + slot * self.slot_bytes


@dataclass
class KernelState:
    """One core's TPipe bookkeeping (shared by the cores of a batch while they agree)."""

    ub_size: int
    used: int = 0
    placements: dict[int, Placement] = field(default_factory=dict)

    def copy(self) -> KernelState:
        placements = {
            k: Placement(p.handle, p.addr, p.slot_bytes, p.requested, list(p.status),
                         list(p.generation), deque(p.fifo), p.cursor)
            for k, p in self.placements.items()
        }
        return KernelState(self.ub_size, self.used, placements)

    # region TPipe

    def init_buffer(self, handle: Handle, num: int, length: int) -> None:
        if handle.ident in self.placements:
            raise RuleError(f"InitBuffer: {_name(handle)} already has its buffers")
        if length < 0:
            raise RuleError(f"InitBuffer: negative length {length} for {_name(handle)}")
        slot_bytes = round_up(length, UB_BLOCK_BYTES)
        need = num * slot_bytes
        if self.used + need > self.ub_size:
            rounded = f" (rounded up to {slot_bytes})" if slot_bytes != length else ""
            raise RuleError(
                f"UB overflow: InitBuffer of {num} x {length} bytes{rounded} "
                f"for {_name(handle)} needs bytes {self.used}..{self.used + need} but the UB "
                f"holds {self.ub_size} bytes; {self.breakdown()}"
            )
        place = Placement(handle, self.used, slot_bytes, length, [FREE] * num, [0] * num)
        self.placements[handle.ident] = place
        self.used += need

    def breakdown(self) -> str:
        if not self.placements:
            return "no buffers allocated before it"
        parts = [
            f"{_name(p.handle)} {len(p.status)} x {p.slot_bytes} B at {p.addr}"
            for p in self.placements.values()
        ]
        return f"buffers so far ({self.used} B): " + ", ".join(parts)

    def placement(self, handle: Handle) -> Placement:
        place = self.placements.get(handle.ident)
        if place is None:
            raise RuleError(f"{_name(handle)} has no UB: InitBuffer was not called for it")
        return place

    # endregion
    # region TQue

    def alloc(self, que: Handle, dtype: np.dtype) -> LocalTensor:
        place = self.placement(que)
        depth = len(place.status)
        for step in range(depth):
            slot = (place.cursor + step) % depth
            if place.status[slot] == FREE:
                place.status[slot] = ALLOCATED
                place.generation[slot] += 1
                place.cursor = (slot + 1) % depth
                return self._tensor(place, slot, dtype)
        raise RuleError(
            f"AllocTensor on a full queue: all {depth} buffer(s) of {_name(que)} are in use "
            "(a FreeTensor is missing, or the queue is too shallow)"
        )

    def enque(self, que: Handle, tensor: LocalTensor) -> None:
        place = self.placement(que)
        if tensor.buffer != que.ident:
            raise RuleError(f"EnQue of a tensor that was not allocated from {_name(que)}")
        self.check_live(tensor, "EnQue")
        if place.status[tensor.slot] != ALLOCATED:
            raise RuleError(
                f"EnQue of a tensor that is {place.status[tensor.slot]}, not freshly allocated, "
                f"in {_name(que)}"
            )
        place.status[tensor.slot] = ENQUEUED
        place.fifo.append(tensor.slot)

    def deque(self, que: Handle, dtype: np.dtype) -> LocalTensor:
        place = self.placement(que)
        if not place.fifo:
            raise RuleError(f"DeQue on an empty queue: nothing was EnQue'd to {_name(que)}")
        slot = place.fifo.popleft()
        place.status[slot] = DEQUEUED
        return self._tensor(place, slot, dtype)

    def free(self, que: Handle, tensor: LocalTensor) -> None:
        place = self.placement(que)
        if tensor.buffer != que.ident:
            raise RuleError(f"FreeTensor of a tensor that was not allocated from {_name(que)}")
        self.check_live(tensor, "FreeTensor")
        if place.status[tensor.slot] == ENQUEUED:
            raise RuleError(f"FreeTensor of a tensor still enqueued in {_name(que)} (DeQue it)")
        place.status[tensor.slot] = FREE

    # endregion

    def tbuf_tensor(self, buf: Handle, dtype: np.dtype) -> LocalTensor:
        place = self.placement(buf)
        return LocalTensor(dtype, _position(buf), place.addr, place.slot_bytes, buf.ident)

    def check_live(self, tensor: LocalTensor, api: str) -> None:
        """A queue tensor is usable from AllocTensor/DeQue until its FreeTensor."""
        if tensor.slot < 0:
            return
        place = self.placements.get(tensor.buffer)
        if place is None:
            raise RuleError(f"{api}: the tensor's queue has no UB")
        if (place.status[tensor.slot] == FREE
                or place.generation[tensor.slot] != tensor.generation):
            raise RuleError(
                f"{api}: use of a freed tensor (buffer {tensor.slot} of "
                f"{_name(place.handle)} was given back with FreeTensor)"
            )

    @staticmethod
    def _tensor(place: Placement, slot: int, dtype: np.dtype) -> LocalTensor:
        return LocalTensor(dtype, _position(place.handle), place.slot_addr(slot),
                           place.slot_bytes, place.handle.ident, slot, place.generation[slot])


def _position(handle: Handle) -> TPosition:
    assert handle.position is not None  # a TQue or TBuf always has one
    return handle.position


def _name(handle: Handle) -> str:
    kind = {"que": "TQue", "buf": "TBuf", "pipe": "TPipe"}[handle.kind]
    return f"{kind} %{handle.name}" if handle.name else kind
