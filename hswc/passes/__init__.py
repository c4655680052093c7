"""hswc's passes, one per file, named as on the command line."""

from __future__ import annotations

import weakref

from xdsl.dialects.builtin import ModuleOp

_unchanged: weakref.WeakSet[ModuleOp] = weakref.WeakSet()


def mark_unchanged(module: ModuleOp) -> None:
    """Called by a pass that left `module` exactly as it found it (no op, operand, attribute or
    type touched), so that a driver may skip verifying it again: what verified before the pass
    verifies after it. MLIR's pass manager does the same for a pass that preserved all
    analyses. A pass that is not sure does not call it (the driver then verifies)."""
    _unchanged.add(module)


def take_unchanged(module: ModuleOp) -> bool:
    """Whether the pass that just ran marked `module` unchanged; forgets the mark, so a driver
    that calls this between every two passes (and before the first) never sees a stale one."""
    if module in _unchanged:
        _unchanged.discard(module)
        return True
    return False
