"""The CPU model's MicroAPI calls of opbase's ATVOSS reduce template and ops-nn's swi_glu_grad
(hswc/checker/ascendc_cpu/ascendc_cpu_micro_mask.h, ascendc_cpu_micro_gather.h, the unsigned and
integer-division lanes of ascendc_cpu_micro.h) check themselves against hand-worked values:
test/cpp_fixtures/selftest_950_index.cpp, built once with g++ -Wall -Wextra -Werror
-DASCENDC_CPU_DAV_3510, runs each group (MaskNot / Not, MaskXor, MaskAnd, MaskOr, MaskMov, Copy;
Arange; Gather / DataCopyGather, Scatter / DataCopyScatter, the DataCopyUnAlign names; uint16_t /
uint32_t lanes and integer Div) and each of its violation cases (a misaligned or out-of-UB
gather, a scatter writing one index twice, an integer division by zero) ends in one
`ascendc_cpu: <API>:` line and exit 3.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from selftest_checks import assert_group_passes, assert_violations_are_one_line, build_selftest

from hswc.checker.build import MODEL

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "test" / "cpp_fixtures" / "selftest_950_index.cpp"
GROUPS = ("mask", "arange", "gather", "intlanes")


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_selftest(tmp_path_factory, SOURCE, "-DASCENDC_CPU_DAV_3510")


@pytest.mark.parametrize("group", GROUPS)
def test_micro_index_group_passes(selftest: Path, group: str) -> None:
    assert_group_passes(selftest, group)


def test_micro_index_violations_are_one_line_and_exit_3(selftest: Path) -> None:
    assert_violations_are_one_line(selftest, 4)


def test_arange_decrease_order_is_refused_when_built(tmp_path: Path) -> None:
    """DECREASE_ORDER is defined by a figure the model could not read: a compile error naming it."""
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++) on this machine")
    src = tmp_path / "decrease.cpp"
    src.write_text('#include "kernel_operator.h"\nint main()\n{\n'
                   "    AscendC::MicroAPI::RegTensor<int32_t> r;\n"
                   "    AscendC::MicroAPI::Arange<int32_t, "
                   "AscendC::MicroAPI::IndexOrder::DECREASE_ORDER>(r, 0);\n}\n")
    run = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-DASCENDC_CPU_DAV_3510",
                          f"-I{MODEL}", str(src)], capture_output=True, text=True, check=False)
    assert run.returncode != 0 and "DECREASE_ORDER is not modelled" in run.stderr
