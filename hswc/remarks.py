"""Remarks: what the passes decided about each op, and why.

Partitioning a file (hsg-fuse-elementwise, hsg-tile-on-cores) decides for every op whether it
joins a kernel or stays on the host. A pass says so with `remark(op, text)`; where an op that
could have been a kernel stays for a reason the user may want to fix (a body op with no AscendC
model, a schedule that does not fit), with `warn(op, text)`. The library prints nothing: a tool
collects what the passes say with `collecting()` and prints the warnings, and with `--remarks`
the remarks too, as mlir-opt prints its diagnostics (`file:line:col: remark: 'op' text`).
Outside `collecting()` the calls do nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from xdsl.ir import Operation

from hswc.diagnostics import location_of

Severity = Literal["remark", "warning"]


@dataclass(frozen=True)
class Remark:
    """One thing a pass said about one op."""

    severity: Severity
    where: str | None
    """`file:line:col` of the op when it was said (None: the op has no location)."""
    name: str
    """The op as the remark names it."""
    text: str

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}{self.severity}: '{self.name}' {self.text}"

    def position(self) -> tuple[str, int, int]:
        """(file, line, column) for sorting: remarks without a location first."""
        if self.where is None:
            return ("", 0, 0)
        file, line, column = self.where.rsplit(":", 2)
        return (file, int(line), int(column))


_SINK: ContextVar[list[Remark] | None] = ContextVar("hswc_remarks", default=None)


def remark(op: Operation, text: str, name: str | None = None,
           severity: Severity = "remark") -> None:
    """Record that `op` (named `name`, default its op name) was treated as `text` says."""
    sink = _SINK.get()
    if sink is not None:
        sink.append(Remark(severity, location_of(op), name or op.name, text))


def warn(op: Operation, text: str, name: str | None = None) -> None:
    """A remark the user is shown without asking: an op that could be a kernel stays."""
    remark(op, text, name, "warning")


@contextmanager
def collecting() -> Iterator[list[Remark]]:
    """Collect every remark made inside the block into the list it yields."""
    sink: list[Remark] = []
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


def summary(said: Sequence[Remark]) -> str | None:
    """One line: how many launches the kernels make and how many ops stay on the host."""
    launches = sum(1 for r in said if r.text.startswith("becomes a launch"))
    stays = sum(1 for r in said if r.text.startswith("stays on the host"))
    if not launches and not stays:
        return None
    return (f"remark: {launches} kernel launch{'es' if launches != 1 else ''}, "
            f"{stays} op{'s' if stays != 1 else ''} left on the host")


def print_remarks(said: Sequence[Remark], everything: bool) -> None:
    """Print the warnings on stderr, and with `everything` the remarks and the summary, in
    the order of their locations."""
    shown = [r for r in said if everything or r.severity == "warning"]
    for r in sorted(shown, key=Remark.position):
        print(r, file=sys.stderr)
    line = summary(said) if everything else None
    if line is not None:
        print(line, file=sys.stderr)
