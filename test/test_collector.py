"""hswc.collector.paused: cyclic garbage made in the block is freed after it, and the collector
is left as it was."""

from __future__ import annotations

import gc
import weakref

from hswc import collector


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_cyclic_garbage_of_the_block_is_freed_after_it() -> None:
    with collector.paused():
        assert not gc.isenabled()
        node = _Node()
        alive = weakref.ref(node)
        del node
        assert alive() is not None  # nothing collected inside the block
    assert alive() is None
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
