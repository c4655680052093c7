"""The table of test/file_seconds.txt (the order xdist hands out test files: test/file_order.py),
from a pytest run's `--durations=N` listing.

    pytest --durations=400 > durations.txt; python tools/file_seconds.py durations.txt

prints, longest first, each test file's summed setup, call and teardown seconds of the tests
the listing shows (its slowest N), above a floor (--min, 5 s by default): the files that hold a
slow test. Files of many quick tests fall under it and keep xdist's order, the most tests first.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

LINE = re.compile(r"^\s*([0-9.]+)s (?:setup|call|teardown)\s+([^:\s]+)::")


def per_file(listing: str) -> Counter[str]:
    """Each file's summed seconds in a `--durations` listing."""
    seconds: Counter[str] = Counter()
    for line in listing.splitlines():
        found = LINE.match(line)
        if found:
            seconds[found.group(2)] += float(found.group(1))
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("listing", type=Path, help="pytest output with --durations=N")
    parser.add_argument("--min", type=float, default=5.0, help="seconds below which a file "
                        "is left out (default 5)")
    args = parser.parse_args(argv)
    seconds = per_file(args.listing.read_text())
    if not seconds:
        print(f"{args.listing}: no --durations lines", file=sys.stderr)
        return 1
    for name, total in seconds.most_common():
        if total >= args.min:
            print(f"{total:8.1f} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
