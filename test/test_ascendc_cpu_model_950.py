"""The Ascend 950 parts of the CPU model of AscendC (tools/ascendc_cpu, -DASCENDC_CPU_DAV_3510)
check themselves: test/cpp_fixtures/selftest_950.cpp, built once with g++ -Wall -Wextra -Werror,
runs each group of checks (NDDMA's multi-dimensional DataCopy with padding and broadcast strides,
DataCopyPad's loop mode, the library's UB Broadcast with a BroadcastTiling, UB -> UB Copy) and
each of its violation cases must end in one `ascendc_cpu: <API>:` line and exit 3.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hswc.checker.build import MODEL

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "test" / "cpp_fixtures" / "selftest_950.cpp"
GROUPS = ("nddma", "loop_mode", "broadcast", "copy")


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cxx = shutil.which("g++")
    if cxx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++) on this machine: the AscendC CPU model is not built")
    out = tmp_path_factory.mktemp("selftest_950") / "selftest_950"
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1",
                    "-DASCENDC_CPU_DAV_3510", f"-I{MODEL}", str(SOURCE), "-o", str(out)],
                   check=True, capture_output=True, text=True)
    return out


@pytest.mark.parametrize("group", GROUPS)
def test_950_selftest_group_passes(selftest: Path, group: str) -> None:
    run = subprocess.run([str(selftest), group], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and ", 0 failed" in run.stdout, run.stdout + run.stderr


def test_950_violations_are_one_line_and_exit_3(selftest: Path) -> None:
    listing = subprocess.run([str(selftest), "--list-violations"], capture_output=True,
                             text=True, check=True).stdout
    cases = [line.split("\t") for line in listing.strip().splitlines()]
    assert len(cases) >= 8
    for name, api in cases:
        run = subprocess.run([str(selftest), "--violate", name], capture_output=True, text=True,
                             check=False)
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 3, (name, run.stderr)
        assert len(lines) == 1 and lines[0].startswith(f"ascendc_cpu: {api}: "), (name, lines)
