"""What the interpreter refuses to start rather than run out of: memory, steps, nesting.

- Memory: before it allocates something large (the UB arenas of a batch of cores, an input
  file), the interpreter compares the size with the memory this machine has available and
  refuses with both figures, where numpy would fail with MemoryError half-way through.
- Steps: every scf.for iteration is a step (the interpreter runs no other loop: it has no
  cf.br or scf.while); a run that takes more than `max_steps` ends with a message naming the
  loop that took the last one and how to raise the limit (hswc-run --max-steps). By default
  the limit follows the run's launches: each launch allows a few iterations per UB chunk of
  its own tiling (`launch_allowance`), so a runaway loop stops in about a second.
- Nesting: regions the interpreter has entered and not left (function bodies, branches, loop
  bodies) are at most `MAX_RUN_DEPTH` deep, so no input can exhaust Python's stack.

Memory raises `LimitReached`, which the walker (walker.py) turns into a diagnostic at the op
that was running; steps and nesting are diagnosed where they are counted.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_MAX_STEPS: int | None = None
"""Loop iterations a run may take by default: None, the allowance derived from each launch's
own tiling (`launch_allowance`) on top of `BASE_STEPS`. A real kernel takes one iteration per
UB chunk per batch of cores (the cores of a batch iterate together): 2^26 f16 elements on 48
cores take 347, and 2^31 elements on a single core about 533,000; a step of a kernel costs
about a millisecond, so a fixed limit that no real kernel reaches lets a runaway loop run for
many minutes, where this one stops it within about a second past what its tiling allows."""

BASE_STEPS = 1000
"""Loop iterations a run may take outside what its launches' tilings allow (host loops)."""

STEPS_PER_CHUNK = 4
"""A launch may take this many loop iterations per UB chunk its tiling makes (the kernels hswc
lowers take one; the margin is for hand-lowered kernels with a short loop of their own)."""


def launch_allowance(block_dim: int, block_factor: int, ub_factor: int, core_num: int,
                     element_loops: int = 0, once: int = 0) -> int:
    """Loop iterations one launch may take by default: STEPS_PER_CHUNK per chunk a core's
    slice makes (ceil(blockFactor / ubFactor)) per batch of cores, and, for a kernel with
    `element_loops` loops over a chunk's elements (hswc.vectorizer.broadcast_copy), that many
    per element of a core's slice, and `once` per batch (the counts a kernel sums before its
    slice: hswc.counted_rows) (the run adds BASE_STEPS once)."""
    chunks = -(-max(block_factor, 0) // ub_factor) if ub_factor > 0 else 0
    batches = -(-max(block_dim, 0) // max(core_num, 1))
    return (STEPS_PER_CHUNK * chunks + element_loops * max(block_factor, 0) + once) * batches

MAX_RUN_DEPTH = 100
"""Regions active at once while running: a function body is one level, a branch or a loop body
another. A lowered module needs 4 (the host function, the kernel, its scf.if and scf.for). A
chain of 100 calls, the costliest way to reach the limit, takes about 610 Python frames through
hswc-run, inside the default limit of 1000."""


class LimitReached(Exception):
    """A limit of the interpreter reached; the message says which and by how much."""


def size(nbytes: float) -> str:
    """`nbytes` for people: 512 bytes, 3.8 MiB, 186.3 GiB."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{int(nbytes)} bytes"


def available_bytes() -> int | None:
    """Memory this process may still allocate: MemAvailable, or the cgroup's remaining limit
    if smaller; None where neither is known."""
    figures: list[int] = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                figures.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    cgroup = Path("/sys/fs/cgroup")
    try:
        limit = (cgroup / "memory.max").read_text().strip()
        if limit != "max":
            figures.append(int(limit) - int((cgroup / "memory.current").read_text()))
    except (OSError, ValueError):
        pass
    if not figures and hasattr(os, "sysconf"):
        try:
            figures.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (ValueError, OSError):
            pass
    return min(figures) if figures else None


def check_memory(nbytes: int, what: str) -> None:
    """LimitReached when `nbytes` (for `what`) exceed the memory available now."""
    available = available_bytes()
    if available is not None and nbytes > available:
        raise LimitReached(f"{what} needs {size(nbytes)} of memory, and {size(available)} "
                           "is available")
