"""Start-up of the command-line tools: what importing xDSL and hswc costs, taken out.

Measured on `hswc-opt --lower-to-ascend -t ascendc` of the example, three costs made up most of
a run, none of them the compiler's work:

- the cyclic garbage collector: importing builds tens of thousands of objects that live until
  the process ends (op and attribute classes, their constraints, the methods dataclasses
  generate), most of them in reference cycles. While they are built the collector runs every
  700 new objects and finds nothing to free, and at exit it walks them all and tears them down
  one by one. `importing()` pauses it while a tool imports its modules and then moves
  everything alive into the permanent generation (gc.freeze): later collections, the one at
  exit included, no longer walk it. What a run allocates afterwards is collected as usual.
- compiling the methods of every dataclass (hswc.tools.dataclass_code_cache: compiled once per
  machine instead; the default schedules the cost model chose are kept the same way,
  hswc.tools.choice_cache);
- parsing the assembly format of every op of every dialect loaded
  (hswc.tools.lazy_assembly_formats: parsed when an op of that kind is first parsed or printed).

A run that builds much IR (the schedule choice's candidate kernels) spends a seventh of its time
in xDSL's general argument handling of op constructors (hswc.tools.fast_op_init: skipped where
the arguments need none), and verifying an op spends a fifth of its time in xDSL's handling of
variadic groups most ops do not have (hswc.tools.fast_op_verify: skipped where there are none);
printing a lowered model, a fifth of the print went to xDSL's line bookkeeping of tokens that
have no line break (hswc.tools.fast_print: skipped for those).

A long input adds a fourth: the collector walking the module. The IR of a 10,000-op chain is
millions of objects in reference cycles (an op and its results, a block and its ops) that live
from one pass to the next, and each full collection during a pass walks all of them to free
nothing (a fifth of a --no-fuse run at 10,000 ops, bench/bench_scaling.py). `between_passes()`
freezes what is alive when a pass is done, so the next pass's collections walk only what it
allocates. An op erased later stays in memory to the end of the run instead of being collected
(measured: 312 MB at the peak against 303 for that chain). Freezing also leaves the collector's
oldest generation holding only what the current pass built, so its rule for a full collection
(a quarter more than the last one kept) came round every ten younger collections, each walking
all the pass had built: 19 full collections, 12.7 CPU s, in a fused 4000-op chain's run, 10 and
4.1 s at 2000 ops, growing as the square. A full collection now waits for a thousand
(`FULL_COLLECTION_AFTER`; with a hundred there was still one, 3.6 s, at 4000 ops, and at 6000
ops the hsg-tile-on-cores stage took 64.6 CPU s against 57.4 with a thousand), with the same
peak memory (906 MB at 4000 ops, 1332 at 6000; the garbage of a pass is young and the younger
collections free it).

The same walks came before the first pass, while the input was parsed and verified: the
module grows from nothing there, and CPython's rule for a full collection (a quarter more than
the last one kept) walked all of it, to free nothing, each time it had grown by a quarter. On
bench/bench_scale.py's unfused input, 30,000 ops, two runs side by side: nine full collections
(3.81 CPU s), eight of them before the first pass, against one (2.55 s) with `parsing()`, which
makes them as rare during the parse as between passes and freezes the module parsed. The one
left comes in the input's verification, when the younger collections of the parse and the
verification reach `FULL_COLLECTION_AFTER`. A small part of such a run (184 CPU s both).

Nothing that a program can observe changes but the time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from hswc.tools import choice_cache, dataclass_code_cache


def speedups() -> None:
    """The dataclass code cache, lazy assembly formats, the schedule choices of earlier
    runs (hswc.tools.choice_cache) and the op constructors', verifiers' and printer's fast
    paths (hswc.tools.fast_op_init, fast_op_verify, fast_print), for the rest of the
    process."""
    dataclass_code_cache.install()
    choice_cache.install()
    from hswc.tools import (  # xDSL's core, with the cache on
        fast_op_init,
        fast_op_verify,
        fast_print,
        lazy_assembly_formats,
    )

    lazy_assembly_formats.install()
    fast_op_init.install()
    fast_op_verify.install()
    fast_print.install()


@contextmanager
def importing() -> Iterator[None]:
    """speedups(), the collector off for the imports in the block, then what they built
    frozen."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        speedups()
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


FULL_COLLECTION_AFTER = 1000
"""Generation-1 collections before the collector considers a full one (CPython's default: 10)."""


def between_passes() -> None:
    """What is alive between two passes (the module) moved out of the collector's walks, and
    full collections made rarer (the module docstring)."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_AFTER)



@contextmanager
def parsing() -> Iterator[None]:
    """The input parsed in the block: full collections as rare meanwhile as between passes,
    and the module it built frozen afterwards, as between passes (the module docstring): it
    lives to the end of the run. hswc-opt parses in it; hswc-run and hswc-emit, whose library
    calls parse and lower in one (hswc.runner.compile_file, hswc_emit.lower), compile in it."""
    between_passes()
    try:
        yield
    finally:
        between_passes()
