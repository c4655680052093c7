"""hswc-check-kernel within a tolerance: a hand-written Sigmoid (examples/check_kernel/
sigmoid_fixture.cpp: Muls, Exp, Adds, Div, on the CPU model's Exp) against hsg.sigmoid's model
(the exact function), by default within PyTorch's tolerance; bit for bit it differs, its
seeded mistake is far outside, and --tolerance ulp:N and a bad --tolerance behave."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "examples" / "check_kernel"
SIGMOID = [str(FIXTURES / "sigmoid_fixture.cpp"), "--op", "hsg.sigmoid", "--tiling-function",
           f"{FIXTURES / 'fixture_tiling.py'}:one_input", "--core-num", "4", "--ub-size",
           "16384", "--sizes", "300"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("g++") is None:
        pytest.skip("no g++: the CPU model of AscendC is not built")
    return subprocess.run([sys.executable, "-m", "hswc.tools.hswc_check_kernel", *args],
                          capture_output=True, text=True, check=False, timeout=600)


def test_a_right_kernel_is_within_torch_tolerance_by_default() -> None:
    done = _run(*SIGMOID)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "within PyTorch's tolerance, max " in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith(
        "PASS: all 3 runs are within PyTorch's tolerance (max ")


def test_bit_for_bit_it_differs_from_the_exact_function() -> None:
    done = _run(*SIGMOID, "--tolerance", "bits", "--dtypes", "f32")
    assert done.returncode == 1
    assert "MISMATCH" in done.stdout and "FAIL: 1 of 1 runs differ" in done.stdout


def test_the_seeded_mistake_is_outside_and_named_with_its_worst_input() -> None:
    done = _run(*SIGMOID, "-D", "SEEDED_EXP_OF_X", "--dtypes", "f32")
    assert done.returncode == 1
    assert "OUTSIDE PyTorch's tolerance, max " in done.stdout
    assert "outside rtol/atol" in done.stdout and "first differences" in done.stdout


def test_an_ulp_bound() -> None:
    assert _run(*SIGMOID, "--tolerance", "ulp:4", "--dtypes", "f32").returncode == 0
    done = _run(*SIGMOID, "--tolerance", "ulp:0", "--dtypes", "f32")
    assert done.returncode == 1 and "OUTSIDE 0 ulp" in done.stdout


def test_a_bad_tolerance_is_one_message() -> None:
    done = _run(*SIGMOID, "--tolerance", "ulp:many")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "--tolerance ulp:many: expected one of bits, torch, ulp:N" in done.stderr
