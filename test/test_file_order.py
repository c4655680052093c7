"""The order xdist hands out test files (test/file_order.py) and its table's maker
(tools/file_seconds.py): the listed files longest first, the others by their number of tests,
each file's tests together and in their order; the table read and written as the other expects."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from file_order import TABLE, file_seconds, longest_first

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
import file_seconds as maker  # noqa: E402  (a script of tools/, not a package)


@dataclass
class Item:
    """What the order reads of a pytest item: its node id."""

    nodeid: str


def test_listed_files_go_first_longest_first_then_the_most_tests_first() -> None:
    ids = ["test/a.py::t1", "test/a.py::t2", "test/b.py::t", "test/c.py::t1", "test/c.py::t2",
           "test/c.py::t3", "test/d.py::t2", "test/d.py::t1", "test/e.py::t"]
    items = [Item(i) for i in ids]
    ordered = longest_first(items, {"test/b.py": 3.0, "test/d.py": 40.0})  # type: ignore[arg-type]
    assert [i.nodeid for i in ordered] == [
        "test/d.py::t2", "test/d.py::t1",                    # listed: 40 s
        "test/b.py::t",                                      # listed: 3 s
        "test/c.py::t1", "test/c.py::t2", "test/c.py::t3",   # 3 tests
        "test/a.py::t1", "test/a.py::t2",                    # 2 tests
        "test/e.py::t"]                                      # 1 test


def test_the_tables_files_exist_and_the_maker_reads_a_durations_listing(tmp_path: Path) -> None:
    table = file_seconds()
    assert table and all((REPO / name).is_file() for name in table), \
        [name for name in table if not (REPO / name).is_file()]
    assert TABLE.read_text().startswith("#")
    listing = tmp_path / "durations.txt"
    listing.write_text("==== slowest 4 durations ====\n"
                       "30.50s call     test/test_x.py::test_a[p]\n"
                       "2.00s setup    test/test_y.py::test_b\n"
                       "4.25s teardown test/test_x.py::test_c\n"
                       "0.01s call     test/test_z.py::test_d\n")
    assert maker.per_file(listing.read_text()) == {"test/test_x.py": 34.75,
                                                   "test/test_y.py": 2.0, "test/test_z.py": 0.01}
    made = tmp_path / "table.txt"
    made.write_text("\n".join(f"{s} {n}" for n, s in maker.per_file(listing.read_text()).items()))
    assert file_seconds(made) == {"test/test_x.py": 34.75, "test/test_y.py": 2.0,
                                  "test/test_z.py": 0.01}
