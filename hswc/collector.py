"""Python's cyclic garbage collector, held off where a step builds much and keeps little.

xDSL's IR is made of reference cycles (an op and its results, a block and its ops), so a
candidate kernel the schedule choice builds, models and drops is freed only by the cyclic
collector. Left to itself, the collector runs its full collections while a long body's
candidate is being built, and each walks everything the pass has allocated so far: on a fused
chain of 1000 named ops that was two fifths of the run (28.8 against 16.9 CPU s with the
collector off; bench/bench_scaling.py), and it grew faster than the chain. `paused()` turns
automatic collection off for a block and then collects the youngest generation, which holds
exactly what the block allocated: its garbage is freed in one walk of its own size.

Nothing a program can observe changes but the time (and the peak memory of one block).
IR held over several blocks and then let go has outlived their collections; `unlink` frees
it by reference counting instead.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.ir import Operation, SSAValues


@contextmanager
def paused() -> Iterator[None]:
    """Automatic collection off in the block; afterwards what the block left behind collected
    (generation 0: nothing collected it in between) and the collector as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.collect(0)
        if enabled:
            gc.enable()


def unlink(op: Operation) -> None:
    """An erased op (`erase`: detached, its operands' uses dropped) made free of the reference
    cycles its IR is made of, so that reference counting frees it at once, whichever
    generation of the collector it has reached: each nested op's list of results and its
    links to its neighbours, each block's arguments and ops. Nothing may use it afterwards.

    Needed where IR is held over several `paused` blocks and then let go (a candidate kernel
    of the schedule choice): it has outlived a block's collection into an older generation,
    which no block's collection walks, and would wait for the next full collection (on a fused
    chain of 1000 ops, 51 MB of peak: bench/README.md)."""
    assert op.parent is None, "unlink an erased op"
    ops = list(op.walk())
    blocks = [block for found in ops for region in found.regions for block in region.blocks]
    for found in ops:
        found.results = SSAValues()
        found._next_op = found._prev_op = None  # pyright: ignore[reportPrivateUsage]
    for block in blocks:
        block._args = ()  # pyright: ignore[reportPrivateUsage]
        block._first_op = block._last_op = None  # pyright: ignore[reportPrivateUsage]
