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
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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


def collect_survivors() -> None:
    """What outlived one `paused` block and has since been let go, freed: such objects are in
    the collector's second generation, which the collection ending a block does not walk (held
    over a few blocks and then dropped, they would be freed only by the next full
    collection). Walks generations 0 and 1: what the pass allocated since the last
    collection of generation 1."""
    gc.collect(1)
