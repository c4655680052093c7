"""Start-up of the command-line tools: importing without the cyclic garbage collector.

Importing xDSL and hswc builds tens of thousands of objects that live until the process ends:
op and attribute classes, their constraints, the methods dataclasses generate. Most of them
sit in reference cycles (a class and its functions' globals), so when the interpreter exits,
the collector walks them all and tears them down one by one, and while they are being built it
runs every 700 new objects and finds nothing to free. Measured on `hswc-opt --lower-to-ascend
-t ascendc` of the example, that is about a third of the process's CPU time.

`importing()` pauses the collector while a tool imports its modules and then moves everything
alive into the permanent generation (gc.freeze): later collections, the one at exit included,
no longer walk it. What a run allocates afterwards is collected as usual; nothing that a
program can observe changes but the time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def importing() -> Iterator[None]:
    """The collector off for the imports in the block, then what they built frozen."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
