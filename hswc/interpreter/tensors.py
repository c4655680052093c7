"""Run-time objects of the ascend level: handles, GlobalTensors and LocalTensors.

A handle stands for one TPipe / TQue / TBuf object of the kernel (the same object on every core
of the batch); what it holds on each core lives in that core's `KernelState` (hswc.interpreter.
core_state). A LocalTensor is a typed window of a core's UB arena: `addr` and `nbytes` are byte
offsets into the arena, so two tensors over the same bytes alias as on the chip. A tensor taken
from a queue remembers the buffer slot and its generation, so a use after FreeTensor is caught.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hswc.dialects.ascend import TPosition


class RuleError(Exception):
    """A hardware or API rule the kernel broke; the op impl turns it into an OpError."""


@dataclass(frozen=True)
class Handle:
    """A TPipe, TQue or TBuf object: `kind` is 'pipe', 'que' or 'buf'."""

    kind: str
    ident: int
    name: str
    position: TPosition | None = None
    depth: int = 1


@dataclass(frozen=True)
class LocalTensor:
    """LocalTensor<T>: `nbytes` bytes of the UB arena from byte `addr`, seen as `dtype`."""

    dtype: np.dtype
    position: TPosition
    addr: int
    nbytes: int
    buffer: int
    """Ident of the TQue or TBuf the bytes belong to."""
    slot: int = -1
    """The queue buffer (0 <= slot < depth); -1 for a TBuf."""
    generation: int = 0
    """The slot's allocation count when this tensor was taken; FreeTensor bumps it."""

    @property
    def elements(self) -> int:
        return self.nbytes // self.dtype.itemsize

    def reinterpret(self, dtype: np.dtype) -> LocalTensor:
        return LocalTensor(dtype, self.position, self.addr, self.nbytes, self.buffer,
                           self.slot, self.generation)

    def at(self, offset: int) -> LocalTensor:
        """operator[](offset): the same buffer from element `offset` on."""
        skip = offset * self.dtype.itemsize
        return LocalTensor(self.dtype, self.position, self.addr + skip, self.nbytes - skip,
                           self.buffer, self.slot, self.generation)


@dataclass(eq=False)
class GlobalTensor:
    """GlobalTensor<T>: a window [base, base + length) of a flat GM array, seen at `pos`.

    base, length and pos are element offsets into `gm`: ints when every core agrees, else
    int64 arrays with one entry per row of the batch.
    """

    gm: np.ndarray
    base: Any
    length: Any
    pos: Any

    def at(self, offset: Any) -> GlobalTensor:
        return GlobalTensor(self.gm, self.base, self.length, _add(self.pos, offset))


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.asarray(a, dtype=np.int64) + np.asarray(b, dtype=np.int64)
    return a + b
