"""A text stream that says it is a terminal, and a clock the test moves: for hswc.progress."""

from __future__ import annotations

import io


class FakeTerminal(io.StringIO):
    """What a Progress writes to a terminal, kept as text."""

    def isatty(self) -> bool:
        return True


class FakeClock:
    """time.monotonic, as the test sets it."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
