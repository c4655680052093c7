"""A batch of vector cores running one kernel in lock-step: their UB arenas and states.

Each core has a UB arena of the platform's size: row r of `arena` (uint8, B x ub_size),
filled with a garbage pattern at the start, since real UB is not zeroed between kernels and a
kernel that lets stale lanes reach GM must be caught. LocalTensors are typed views of a row
range, so one vector instruction runs as one numpy call over all the rows it applies to.

The UB writes the scalar unit must be ordered after before it reads them (GetValue) are
tracked for the whole batch (`scalar_order`). The cores' TPipe bookkeeping (`KernelState`) is
shared by groups of rows that agree: one group for the whole batch until control flow makes
some cores allocate, enqueue or free while others do not; then the group splits (copy on write)
and each part goes on separately.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from hswc.float8_casts import DEFAULT_CTRL
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.limits import check_memory
from hswc.interpreter.scalar_order import ScalarOrder
from hswc.interpreter.values import Rows

GARBAGE = np.frombuffer(bytes((i * 113 + 0x5B) % 256 for i in range(256)), dtype=np.uint8)
"""The bytes a fresh UB holds: varied, mostly finite values in every dtype (not zeros)."""

ARENA_ALIGN = GARBAGE.size
"""Rows of the arena start at multiples of this: typed views are aligned, and the garbage
pattern fills the arena as one broadcast copy."""


class CoreBatch:
    """Cores `cores` (block indices) of one launch, running the kernel together."""

    def __init__(self, cores: np.ndarray, block_dim: int, ub_size: int):
        self.cores = cores
        self.block_dim = block_dim
        self.ub_size = ub_size
        self.size = int(cores.size)
        self._arena: np.ndarray | None = None
        self.groups: list[tuple[np.ndarray, KernelState]] = [
            (np.ones(self.size, dtype=bool), KernelState(ub_size))
        ]
        self.scalar_order = ScalarOrder(ub_size)
        """What the scalar unit may read (hswc.interpreter.scalar_order), for every core."""
        self.ctrl = DEFAULT_CTRL
        """The CTRL register of every core (SetCtrlSpr: hswc.float8_casts)."""

    @property
    def arena(self) -> np.ndarray:
        """B x ub_size bytes, allocated on first use (levels above ascend never touch it);
        LimitReached when that is more memory than the machine has available."""
        if self._arena is None:
            stride = -(-max(self.ub_size, 1) // ARENA_ALIGN) * ARENA_ALIGN
            check_memory(self.size * stride, f"the UB arenas of {self.size} cores x "
                         f"{self.ub_size} bytes")
            rows = np.empty((self.size, stride), dtype=np.uint8)
            rows.reshape(-1, GARBAGE.size)[:] = GARBAGE
            self._arena = rows[:, : self.ub_size]
        return self._arena

    def core_ids(self, rows: Rows) -> list[int]:
        return [int(c) for c in rows.take(self.cores)]

    # region per-core state groups

    def states(self, rows: Rows, mutate: bool) -> Iterator[tuple[Rows, KernelState]]:
        """The state of each group of `rows` that shares one; `mutate` splits shared groups.

        A group that also holds rows outside `rows` is split first when the caller will change
        the state, so the other rows keep theirs.
        """
        if len(self.groups) == 1 and (rows.full or not mutate):
            yield rows, self.groups[0][1]
            return
        for i in range(len(self.groups)):
            mask, state = self.groups[i]
            inside = mask & rows.mask
            if not inside.any():
                continue
            if mutate and not np.array_equal(inside, mask):
                state = state.copy()
                self.groups[i] = (mask & ~rows.mask, self.groups[i][1])
                self.groups.append((inside, state))
            yield Rows(inside), state

    # endregion

    def ub_rows(self, rows: Rows) -> np.ndarray:
        """The arena rows of `rows`: a view when they are contiguous, else a copy that the
        caller hands back to `write_back` once it has written to it."""
        arena = self.arena
        if rows.full:
            return arena
        return arena[rows.slice] if rows.slice is not None else arena[rows.index]

    def write_back(self, rows: Rows, ub: np.ndarray) -> None:
        if not rows.full and rows.slice is None:
            self.arena[rows.index] = ub
