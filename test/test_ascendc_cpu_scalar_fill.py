"""The device compiler's scalar bit builtins (clz, bcnt1, bcnt0) on both SoCs, and on Ascend 950
Duplicate from a tensor's first element and the unqualified Reduce / Move / ReduceType of an
arch35 kernel (hswc/checker/ascendc_cpu: ascendc_cpu_scalar_bits.h, ascendc_cpu_vec_fill_tensor.h,
ascendc_cpu_micro_reduce.h): test/cpp_fixtures/selftest_scalar_fill.cpp checks them against
values computed by hand from asc-devkit's pages, and its violation cases end in one line, exit 3.
Atlas A2/A3 has no Duplicate from a tensor (Duplicate.md: "仅支持Ascend 950PR/Ascend 950DT"):
such a call does not compile there."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from selftest_checks import assert_group_passes, assert_violations_are_one_line

from hswc.checker.build import MODEL

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "test" / "cpp_fixtures" / "selftest_scalar_fill.cpp"


def _cxx() -> str:
    cxx = shutil.which("g++")
    if cxx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++) on this machine: the AscendC CPU model is not built")
    return cxx


def _build(out: Path, *flags: str, source: Path = SOURCE) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_cxx(), "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", *flags,
                           f"-I{MODEL}", str(source), "-o", str(out)],
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def selftest_950(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scalar_fill") / "selftest_scalar_fill"
    built = _build(out, "-DASCENDC_CPU_DAV_3510")
    assert built.returncode == 0, built.stderr
    return out


@pytest.mark.parametrize("group", ("bits", "fill", "lookup"))
def test_950_group_passes(selftest_950: Path, group: str) -> None:
    assert_group_passes(selftest_950, group)


def test_950_violations_are_one_line_and_exit_3(selftest_950: Path) -> None:
    assert_violations_are_one_line(selftest_950, 2)


def test_a2_has_the_bits_and_refuses_duplicate_from_a_tensor(tmp_path: Path) -> None:
    built = _build(tmp_path / "a2")
    assert built.returncode == 0, built.stderr
    run = subprocess.run([str(tmp_path / "a2"), "bits"], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0 and ", 0 failed" in run.stdout, run.stdout + run.stderr
    kernel = tmp_path / "dup.cpp"
    kernel.write_text('#include "kernel_operator.h"\n'
                      "void f(const AscendC::LocalTensor<float>& d,\n"
                      "       const AscendC::LocalTensor<float>& s) {\n"
                      "    AscendC::Duplicate<float>(d, s, 8);\n}\n")
    refused = _build(tmp_path / "dup.o", "-fsyntax-only", source=kernel)
    assert refused.returncode != 0
    assert "no matching function for call to" in refused.stderr
    tensor = "const AscendC::LocalTensor<float>&"
    assert f"Duplicate<float>({tensor}, {tensor}" in refused.stderr
