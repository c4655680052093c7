"""The CPU model of AscendC (tools/ascendc_cpu) checks itself before it checks kernels.

Builds the model's self-test with g++ (-Wall -Wextra -Werror) and requires every assertion to
pass and every modelled hardware-rule violation to end in one `ascendc_cpu:` line and exit 3.
The exhaustive sweep (casts, arithmetic, the fixture kernel under sanitizers) is
test/cpp_fixtures/check_ascendc_cpu.py, run by hand when the model changes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CXX = shutil.which("g++")


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if CXX is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++) on this machine: the AscendC CPU model is not built")
    out = tmp_path_factory.mktemp("ascendc_cpu") / "selftest"
    subprocess.run(
        [CXX, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror",
         "-I", str(ROOT / "tools/ascendc_cpu"),
         str(ROOT / "test/cpp_fixtures/ascendc_cpu_selftest.cpp"), "-o", str(out)],
        check=True,
    )
    return out


def test_selftest_assertions_pass(selftest: Path) -> None:
    run = subprocess.run([str(selftest)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert ", 0 failed" in run.stdout


def test_each_violation_is_one_line_and_exit_3(selftest: Path) -> None:
    listing = subprocess.run([str(selftest), "--list-violations"], capture_output=True,
                             text=True, check=True).stdout
    cases = [line.split("\t") for line in listing.strip().splitlines()]
    assert len(cases) >= 20
    for name, api in cases:
        run = subprocess.run([str(selftest), "--violate", name], capture_output=True, text=True,
                             check=False)
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 3, (name, run.stderr)
        assert len(lines) == 1 and lines[0].startswith(f"ascendc_cpu: {api}: "), (name, lines)
