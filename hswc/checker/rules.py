"""The hardware rules a kernel broke, read from the CPU model's messages.

Every violation the model (hswc/checker/ascendc_cpu) detects is one stderr line
`ascendc_cpu: <API>: <rule> [block <idx>]`, naming the AscendC call; the synchronisation rules
also locate the calls, `file:line` each. `parse` reads them; `category` sorts each into the
kinds of rule a kernel author thinks in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "ascendc_cpu: "
_NUMBERS = re.compile(r"([\w./+-]+\.\w+:\d+)|0x[0-9a-f]+|\d+")
"""Numbers, apart from the lines of `file:line` locations (group 1)."""

CATEGORIES: tuple[tuple[str, str], ...] = (
    ("event id reused or exhausted", r"event id"),
    ("vector calls unordered (auto-sync off)", r"no PipeBarrier<PIPE_V> between"),
    ("VF pipelines unordered (LocalMemBar)", r"no LocalMemBar<"),
    ("UB overflow", r"UB overflow"),
    ("unsynchronised pipes", r"races with|no pending SetFlag"),
    ("GM out of bounds", r"outside the GlobalTensor bound|runs past its end|outside every GM "
                         r"tensor|write to read-only GM|overwritten with a different value"),
    ("output never written", r"never written"),
    ("misalignment", r"not 32-byte aligned|not a multiple of (?:32|256) bytes|not a multiple "
                     r"of the element size|not a 32-byte aligned part"),
    ("operand past its buffer", r"needs \d+ bytes but the LocalTensor has|past the end|"
                                r"exceeds the buffer|out of range"),
    ("queue misuse", r"enqueued|dequeued|DeQue|EnQue|FreeTensor|InitBuffer|AllocTensor|"
                     r"buffers of the|does not belong|freed|TPipe"),
)
"""Checked in order; the first pattern that matches the rule text (or API) names the kind."""
SYNC_CATEGORIES = ("event id reused or exhausted", "vector calls unordered (auto-sync off)",
                   "VF pipelines unordered (LocalMemBar)")
"""The kinds that locate both calls of a synchronisation rule (file:line each)."""
UNORDERED = SYNC_CATEGORIES[1]
"""The kind --auto-sync off adds: none of it where the compiler synchronises vector calls."""
_VECTOR_ORDER = re.compile(r"(read|write) of (\w+) \(UB byte \d+\) at (\S+) after (\w+) at (\S+) "
                           r"(wrote|read) it, .*\(a ([\w-]+) on the V pipe")
_VF_ORDER = re.compile(r"(load|store) \(UB byte \d+\) at (\S+) after (\S+) at (\S+) stored it "
                       r".*with no (LocalMemBar<[^>]*>) between")
_IN_FLIGHT = re.compile(r"(.+) at (\S+) while (.+) at (\S+) is not yet waited for: event id")


@dataclass(frozen=True)
class Violation:
    api: str
    """The AscendC call (or `harness`, for output bytes no core wrote)."""
    rule: str
    block: int | None

    @property
    def category(self) -> str:
        text = f"{self.api}: {self.rule}"
        for name, pattern in CATEGORIES:
            if re.search(pattern, text):
                return name
        return "API misuse"

    @property
    def key(self) -> str:
        """The rule without the numbers that vary from run to run (sizes, offsets, blocks); the
        source lines it names stay."""
        return f"{self.api}: {_NUMBERS.sub(lambda m: m.group(1) or 'N', self.rule)}"

    @property
    def brief(self) -> str:
        """A synchronisation rule in one short sentence naming both calls' lines (others: the
        rule as given)."""
        m = _VECTOR_ORDER.match(self.rule)
        if m is not None:
            verb = "reads" if m.group(1) == "read" else "writes"
            return (f"{self.api} at {m.group(3)} {verb} {m.group(2)} that {m.group(4)} at "
                    f"{m.group(5)} {m.group(6)}, no PipeBarrier<PIPE_V> between ({m.group(7)})")
        m = _VF_ORDER.match(self.rule)
        if m is not None:
            verb = "loads" if m.group(1) == "load" else "stores over"
            return (f"{self.api} at {m.group(2)} {verb} what {m.group(3)} at {m.group(4)} stored "
                    f"in the same VF through another register, no {m.group(5)} between")
        m = _IN_FLIGHT.match(self.rule)
        if m is not None:
            return (f"{m.group(1)} at {m.group(2)} while {m.group(3)} at {m.group(4)} is in "
                    "flight (event id reused)")
        return f"{self.api}: {self.rule}"

    def __str__(self) -> str:
        block = "" if self.block is None else f" [block {self.block}]"
        return f"{self.api}: {self.rule}{block}"


def parse(stderr: str) -> list[Violation]:
    """Every `ascendc_cpu: ...` line of a run's stderr, in order."""
    found = []
    for line in stderr.splitlines():
        if not line.startswith(PREFIX):
            continue
        api, _, rule = line[len(PREFIX):].partition(": ")
        block = None
        m = re.search(r" \[block (\d+)\]$", rule)
        if m is not None:
            block = int(m.group(1))
            rule = rule[:m.start()]
        found.append(Violation(api, rule, block))
    return found
