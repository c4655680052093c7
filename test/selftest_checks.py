"""What the CPU model's self-test executables are checked for, whichever SoC they are built
for (test_ascendc_cpu_model.py, test_ascendc_cpu_model_950.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hswc.checker.build import MODEL


def build_selftest(tmp: pytest.TempPathFactory, source: Path, *flags: str) -> Path:
    """`source` built with g++ -std=c++17 -Wall -Wextra -Werror -O1 and `flags` against the CPU
    model; skipped where there is no g++ (a failure on CI, where the C++ tests must run)."""
    cxx = shutil.which("g++")
    if cxx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++) on this machine: the AscendC CPU model is not built")
    out = tmp.mktemp(source.stem) / source.stem
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", *flags,
                    f"-I{MODEL}", str(source), "-o", str(out)],
                   check=True, capture_output=True, text=True)
    return out


def assert_group_passes(selftest: Path, group: str) -> None:
    """The self-test's checks of `group` run and none fails (exit 0, `, 0 failed`)."""
    run = subprocess.run([str(selftest), group], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and ", 0 failed" in run.stdout, run.stdout + run.stderr


def assert_violations_are_one_line(selftest: Path, at_least: int) -> None:
    """Every seeded violation the self-test lists exits 3 with one line naming its call."""
    listing = subprocess.run([str(selftest), "--list-violations"], capture_output=True,
                             text=True, check=True).stdout
    cases = [line.split("\t") for line in listing.strip().splitlines()]
    assert len(cases) >= at_least
    for name, api in cases:
        run = subprocess.run([str(selftest), "--violate", name], capture_output=True, text=True,
                             check=False)
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 3, (name, run.stderr)
        assert len(lines) == 1 and lines[0].startswith(f"ascendc_cpu: {api}: "), (name, lines)
