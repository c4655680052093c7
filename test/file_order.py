"""The order pytest-xdist hands the test files to its workers: the longest first.

With `--dist loadfile` a file is one unit of work, and a worker takes the next unit when it is
nearly done with its last. xdist's own order (the most tests first) left a few slow files of few
tests (a C++ build each) to the end, where one worker ran them while the other had finished.
pyproject's addopts turn that order off (`--no-loadscope-reorder`, pytest-xdist >= 3.6) and
this hook gives one: the files of file_seconds.txt first, longest first (one worker's seconds
per file, measured: see that file's head), then the other files, the most tests first, as xdist
did. Within a file the tests keep their order (a module's fixtures and its doc blocks rely on
it). The order changes only when each test runs, never what it checks; a file missing from the
table (a new one) is only scheduled as xdist would have.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

TABLE = Path(__file__).with_name("file_seconds.txt")


def file_seconds(table: Path = TABLE) -> dict[str, float]:
    """The table's seconds of each test file (a path from the repository root, as a test's
    node id starts); `#` starts a comment."""
    seconds: dict[str, float] = {}
    for line in table.read_text().splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            seconds[fields[1]] = float(fields[0])
    return seconds


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def longest_first(items: list[pytest.Item], seconds: dict[str, float]) -> list[pytest.Item]:
    """`items` with each file's tests kept together and in order, the files in the order the
    module docstring gives."""
    counts = Counter(_file(item) for item in items)
    first = {name: n for n, name in enumerate(dict.fromkeys(_file(item) for item in items))}

    def key(item: pytest.Item) -> tuple[int, float, int]:
        name = _file(item)
        if name in seconds:
            return (0, -seconds[name], first[name])
        return (1, -counts[name], first[name])
    return sorted(items, key=key)
