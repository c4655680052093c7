"""The order a `bank-offsets` kernel's InitBuffers place its buffers in, so that the operands of
a vector call that the halves cannot separate land in different 64 KB banks.

TPipe hands out a kernel's UB in InitBuffer order, each buffer (times its count) right after
the previous one's, its length rounded up to 32 bytes (asc-devkit impl/basic_api/
kernel_tpipe_impl.h, TPipe::InitBuffer(que, num, len): len rounded up to ONE_BLK_SIZE, each of
the num buffers at the UB pool's maxAddr, which then grows by len; the rule the interpreter,
hswc.interpreter.core_state, the C++ CPU model and the cost model place by),
so the order alone decides which 64 KB bank (UB address bits 17:16, hswc.platform
UB_BANK_BYTES) each buffer starts in. The halves of hswc.vectorizer.bank_layout separate the
bank groups of two sources; what they cannot separate conflicts read-write in one bank (the
rule: hswc.cost_model.stream.bank_conflict_share), and that a bank apart does not:
- a Cast between a half and f32 (its narrow side moves 128 bytes a repeat, so its groups meet
  the wide side's in half the repeats): apart, never;
- a call of two sources whose destination, aligned with one source, meets the other's groups
  a repeat later: apart from that source, never.

`bank_order` takes the planned calls, the buffers in their planned order, the halves and the
buffers' sizes at one ubFactor, and gives the order of least modelled conflict there. The
planner (hswc.vectorizer.plan, KernelPlan.init_order) scores at the full chunk of the UB of the
SoC the kernel's API table is timed on (Atlas A2/A3's 192 KB for dav_c220): the chunk of every
launch long enough to fill the UB, the choice's 2^20 and 2^24 included. A shorter launch's
chunk, or another UB, keeps the order with its banks as they fall: the kernel is correct at any
UB and ubFactor, only timed as planned at this one.

It scores an order by the cost model's own rule over every call's operands at the addresses
the order gives (each queue's slots in turn, the gaps where BankGaps puts them), and moves one
buffer at a time to the first place that scores less while one does (at most MOVE_ROUNDS
rounds), never to an order of more gaps: the planned order where none is better.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from hswc.cost_model.stream import UbOperand, bank_conflict_share
from hswc.platform import UB_BANK_GROUP_SPAN, UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES

Buffer = TypeVar("Buffer")
"""A plan's buffer (hswc.vectorizer.plan.Buffer), told apart by identity."""

Call = tuple[Sequence[Buffer], Buffer | None]
"""A vector call's buffers: those it reads, the one it writes."""

MOVE_ROUNDS = 4
"""Rounds of single-buffer moves tried before the search stops (each round tries every buffer
at every place)."""


def gap_before(half: int, used: int) -> int:
    """The bytes of the gap BankGaps places before a buffer of half `half` after `used` bytes
    (hswc.vectorizer.bank_layout.BankGaps: 32 + ((half * 256 + 992 - used % 512) % 512)), 0
    where nothing is placed before it and it starts in half 0."""
    if used == 0 and half == 0:
        return 0
    shift = half * (UB_BANK_GROUP_SPAN // 2) + 2 * UB_BANK_GROUP_SPAN - UB_BLOCK_BYTES
    return UB_BLOCK_BYTES + (shift - used % UB_BANK_GROUP_SPAN) % UB_BANK_GROUP_SPAN


def starts(order: Sequence[Buffer], halves: Mapping[Buffer, int],
           size: Callable[[Buffer], tuple[int, int]]) -> dict[Buffer, list[int]]:
    """Each buffer's slots' UB offsets when InitBuffer places `order` (with the gaps of
    `halves`); `size(b)` is (count, length in bytes)."""
    used = 0
    found: dict[Buffer, list[int]] = {}
    for b in order:
        if b in halves:
            used += gap_before(halves[b], used)
        num, length = size(b)
        length = -(-length // UB_BLOCK_BYTES) * UB_BLOCK_BYTES
        found[b] = [used + k * length for k in range(num)]
        used += num * length
    return found


def conflicts(calls: Sequence[Call[Buffer]], order: Sequence[Buffer],
              halves: Mapping[Buffer, int], size: Callable[[Buffer], tuple[int, int]],
              element_bytes: Callable[[Buffer], int]) -> float:
    """The calls' conflicting shares summed (bank_conflict_share), each call once per slot of
    its queues (slot k of every queue together)."""
    placed = starts(order, halves, size)
    total = 0.0
    for reads, dst in calls:
        operands = [(b, False) for b in reads] + ([(dst, True)] if dst is not None else [])
        if any(b not in placed for b, _ in operands):
            continue
        widest = max(element_bytes(b) for b, _ in operands)
        slots = max(len(placed[b]) for b, _ in operands)
        for k in range(slots):
            found = []
            for b, written in operands:
                step = VECTOR_REPEAT_BYTES * element_bytes(b) // widest
                at = placed[b][k % len(placed[b])]
                found.append(UbOperand(at, written, step, max(1, step // UB_BLOCK_BYTES)))
            total += bank_conflict_share(found)
    return total


def bank_order(calls: Sequence[Call[Buffer]], buffers: Sequence[Buffer],
               halves: Mapping[Buffer, int], size: Callable[[Buffer], tuple[int, int]],
               element_bytes: Callable[[Buffer], int]) -> list[Buffer]:
    """The order of `buffers` whose calls conflict least (`conflicts`), from `buffers`' own by
    moves of one buffer while one lowers it; `buffers` itself where none does. Only orders of
    no more gaps than the planned one are tried (a buffer of half 0 first needs none: each gap
    is UB the tiling reserves)."""
    order = list(buffers)

    def gaps(o: Sequence[Buffer]) -> int:
        return len(halves) - (halves.get(o[0]) == 0)

    most = gaps(order)

    def score(o: Sequence[Buffer]) -> float:
        if gaps(o) > most:
            return float("inf")
        return conflicts(calls, o, halves, size, element_bytes)

    best = score(order)
    for _ in range(MOVE_ROUNDS):
        improved = False
        for b in list(order):
            rest = [x for x in order if x is not b]
            for at in range(len(order)):
                trial = [*rest[:at], b, *rest[at:]]
                if trial == order:
                    continue
                s = score(trial)
                if s < best - 1e-9:
                    best, order, improved = s, trial, True
                    break
            if best == 0:
                return order
        if not improved:
            break
    return order

