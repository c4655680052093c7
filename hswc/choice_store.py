"""Where the schedule choices of hswc.passes.schedule_choice may outlive the process.

The choice asks `store` before it models a body's candidates and tells it each choice made.
None, the default, keeps choices for the process only; the command-line tools set a store
backed by their cache folder (hswc.tools.choice_cache). Below both, so a tool can set it
without importing the passes.
"""

from __future__ import annotations

from typing import Protocol


class ChoiceStore(Protocol):
    """Choices kept between processes, by the text of their key: the index of the chosen
    candidate in schedule_choice.CANDIDATES and its modelled time."""

    def lookup(self, key: str) -> tuple[int, float] | None: ...

    def record(self, key: str, candidate: int, time: float) -> None: ...


store: ChoiceStore | None = None
"""Where choices outlive the process; None (the default): they do not."""
