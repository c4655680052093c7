"""Which half of a UB bank-group span each buffer should start in (the `bank-offsets` schedule).

Atlas A2/A3's UB interleaves 16 bank groups of 32-byte rows, so a vector repeat's 256 bytes
from offset o take the 8 groups of half (o % 512) // 256 of the span (hswc.platform
UB_BANK_GROUP_SPAN). The cost model's rule (hswc.cost_model.stream.bank_conflict_share, from
asc-devkit's bank_conflict_ub example and its guide's page for NPU architecture 2201) gives, for
buffers that each start exactly at a half:
- two sources of one call in one half conflict (read-read: the same 8 groups at once);
- a call of one source never conflicts: its destination is either in the other half (other
  groups) or in the source's half, aligned with it (in place included), when the hardware
  delays the write by one repeat, into the other half's groups;
- a call of two sources in different halves: its destination is aligned with one of them (two
  halves cannot separate three operands), so its delayed write meets the other source's groups
  and conflicts if they are in one 64 KB bank, which no choice of halves changes (the bank
  depends on the tiling: the InitBuffer order, hswc.vectorizer.bank_order, puts such buffers
  in different banks at the full chunk).
asc-devkit's add_high_performance (examples/01_simd_cpp_api/05_best_practices/00_vector_compute/
add_high_performance, README case 6) removes the conflicts of its Add by placing y 256 bytes
after a 512-byte boundary where x starts at one (and z in another bank).

`bank_halves` takes a plan's instructions and buffers and gives each buffer that a call reads
or writes together with another the half it should start in (so each starts exactly at one):
the assignment that leaves the fewest calls with two sources in one half (every assignment
tried for up to EXHAUSTIVE_BUFFERS buffers, else buffer by buffer in InitBuffer order). The
cost model weighs what is left against the UB the gaps take (hswc.passes.schedule_choice).

The emitter (hswc.vectorizer.emit) realises the halves with a gap before each such buffer: a
TBuf whose length, computed in the kernel from the bytes InitBuffer placed so far, moves the
buffer's start to its half (32 to hswc.tiling.BANK_GAP_MOST bytes: never empty), so the layout
holds at any ubFactor of at least hswc.tiling.gapped_from; below it (a small UB) each gap is
one block (BANK_GAP_LEAST) and the layout is the plain one, each buffer a block later. The host
tiling reserves the gaps so (hswc.tiling.tiling_formula, UbPlan.bank_gaps), and the kernel
sees which from ubFactor alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from xdsl.ir import SSAValue

from hswc.dialects import ascend
from hswc.dialects.ascend import constant_index
from hswc.index_arith import IRArith
from hswc.platform import UB_BANK_GROUP_SPAN, UB_BLOCK_BYTES
from hswc.tiling import BANK_GAP_LEAST

Buffer = TypeVar("Buffer")
"""A plan's buffer (hswc.vectorizer.plan.Buffer), told apart by identity."""

HALF_SPAN = UB_BANK_GROUP_SPAN // 2
"""The bytes of a vector repeat, and the offset between the two halves of the span."""


def bank_halves(uses: Iterable[tuple[Sequence[Buffer], Buffer | None]],
                buffers: Sequence[Buffer], every: bool = False) -> dict[Buffer, int]:
    """Each buffer a conflict may involve, with the half (0 or 1) it should start in; `uses`
    are the vector calls' buffers (those it reads, the one it writes), `buffers` in InitBuffer
    order; `every`: the first buffer's half 0 kept too (for an order still to be chosen:
    hswc.vectorizer.bank_order; `without_first` then drops it)."""
    calls: list[list[tuple[Buffer, Buffer]]] = []
    paired: set[int] = set()
    for read, dst in uses:
        reads = list({id(b): b for b in read}.values())
        both = [(a, b) for k, a in enumerate(reads) for b in reads[k + 1:]]
        written = [(a, dst) for a in reads if dst is not None and a is not dst]
        paired.update(id(b) for pair in (*both, *written) for b in pair)
        if both:
            calls.append(both)
    involved = [b for b in buffers if id(b) in paired]
    if not involved:
        return {}
    index = {id(b): k for k, b in enumerate(involved)}

    def masks(pairs: list[tuple[Buffer, Buffer]]) -> list[int]:
        return [(1 << index[id(a)]) | (1 << index[id(b)]) for a, b in pairs]

    best = _search(len(involved), [masks(both) for both in calls])
    halves = {b: (best >> k) & 1 for k, b in enumerate(involved)}
    return halves if every else without_first(halves, buffers)


def without_first(halves: Mapping[Buffer, int], order: Sequence[Buffer]) -> dict[Buffer, int]:
    """`halves` but the first InitBuffer's where it is half 0: it starts at byte 0, no gap."""
    return {b: h for b, h in halves.items() if not (b is order[0] and h == 0)}


EXHAUSTIVE_BUFFERS = 10
"""Up to this many buffers every assignment of halves is tried; past it, a greedy one."""

Masks = list[list[int]]
"""Per call of two or more sources, the pairs of buffers it reads together, each a mask of the
two buffers' bits."""


def _cost(halves: int, calls: Masks, below: int = -1) -> int:
    """The calls with two sources in one half under an assignment, counting only pairs within
    the bits of `below` (all: -1)."""
    def same(m: int) -> bool:
        return m & below == m and (halves & m) in (0, m)

    return sum(any(same(m) for m in both) for both in calls)


def _search(count: int, calls: Masks) -> int:
    """The halves (bit k: buffer k's) of least `_cost`, the first buffer in half 0; ties to
    the smaller number."""
    if count <= EXHAUSTIVE_BUFFERS:
        return min(range(1 << (count - 1)), key=lambda h: (_cost(h << 1, calls), h)) << 1
    halves = 0
    for k in range(1, count):  # each buffer in the half of lesser cost among those so far
        seen = (2 << k) - 1
        if _cost(halves | 1 << k, calls, seen) < _cost(halves, calls, seen):
            halves |= 1 << k
    return halves


class BankGaps(Generic[Buffer]):
    """A gap TBuf before each buffer of `plan.bank_halves`, as InitBuffer places them: its
    length computed in the kernel from the bytes placed before it (each InitBuffer's length
    rounded up to 32 bytes, times its count, as TPipe places buffers back to back), so that the
    buffer starts in its half of the span: 32 + ((half * 256 + 992 - used % 512) % 512) bytes
    where `ub_factor` is at least `gapped_from` (hswc.tiling.gapped_from), else
    BANK_GAP_LEAST bytes (none at all where ubFactor is a known constant below it).
    `before` and `after` are called around each buffer's InitBuffer, in order."""

    def __init__(self, a: IRArith, halves: Mapping[Buffer, int], pipe: SSAValue,
                 ub_factor: SSAValue, gapped_from: int):
        known = constant_index(ub_factor)
        if known is not None and known < gapped_from:
            halves = {}  # (a static launch on a small UB) the plain layout
        self.a, self.halves, self.pipe = a, halves, pipe
        self.ub_factor, self.gapped_from = ub_factor, gapped_from
        self.placed: SSAValue | None = None
        """Whether the gaps are placed at their halves (ubFactor >= gapped_from), once a gap
        needs it; None where ubFactor is known to be at least gapped_from."""
        self.known = known is not None
        self.used: SSAValue | None = None
        """The bytes placed before `pending` (None: none)."""
        self.pending: list[tuple[int, SSAValue]] = []
        """Buffers placed since: their count and length (count 0: a gap, its length placed as
        it is), summed only when a gap needs them, so no arithmetic is left unused after the
        last gap."""
        self.gaps = 0

    def before(self, buffer: Buffer) -> None:
        half = self.halves.get(buffer)
        if half is None:
            return
        a = self.a
        used = self.used
        for num, length in self.pending:
            placed = length if num == 0 else a.mul(a.const(num), a.mul(
                a.ceil_div(length, a.const(UB_BLOCK_BYTES)), a.const(UB_BLOCK_BYTES)))
            used = placed if used is None else a.add(used, placed)
        self.pending.clear()
        used = a.const(0) if used is None else a.name(used, f"ub_placed{self.gaps}")
        self.used = used
        known = constant_index(used)
        if known is not None and (half * HALF_SPAN - known) % UB_BANK_GROUP_SPAN == 0:
            return  # (a static launch) already there
        span = a.const(UB_BANK_GROUP_SPAN)
        shift = a.const(half * HALF_SPAN + 2 * UB_BANK_GROUP_SPAN - UB_BLOCK_BYTES)
        gap = a.add(a.const(UB_BLOCK_BYTES), a.rem(a.sub(shift, a.rem(used, span)), span))
        if not self.known:
            if self.placed is None:
                self.placed = a.name_bool(
                    a.gt(self.ub_factor, a.const(self.gapped_from - 1)), "bank_gaps_placed")
            gap = a.select(self.placed, gap, a.const(BANK_GAP_LEAST))
        gap = a.name(gap, f"bank_gap{self.gaps}_bytes")
        declared = ascend.TBufOp(ascend.TPosition.VECCALC)
        declared.result.name_hint = f"bank_gap{self.gaps}"
        a.builder.insert(declared)
        a.builder.insert(ascend.InitBufferOp(self.pipe, declared.result, gap))
        self.pending.append((0, gap))  # (0: whole blocks already)
        self.gaps += 1

    def after(self, num: int, length: SSAValue) -> None:
        """An InitBuffer of `num` buffers of `length` bytes placed."""
        if self.halves:
            self.pending.append((num, length))
