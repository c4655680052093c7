"""The CPU model's MicroAPI bit calls, per-block reduction and 64-bit integer lanes, which ops-nn's
SwigluGroupQuant and SwigluGroup kernels make (hswc/checker/ascendc_cpu/ascendc_cpu_micro_bits.h,
ascendc_cpu_micro_int64.h), check themselves against hand-worked values:
test/cpp_fixtures/selftest_950_bits.cpp, built once with g++ -Wall -Wextra -Werror
-DASCENDC_CPU_DAV_3510, runs each group (ShiftLefts / ShiftRights on signed and unsigned lanes,
Pack, ReduceDataBlock MAX / MIN and ReduceMaxWithDataBlock, the storage-only 8-bit types, Add /
Sub / Adds / ReduceSum on int64_t and uint64_t lanes, the DINTLV and E2B loads and Cast int32_t
-> uint8_t)
and each of its violation cases (a negative shift, a block with no lane on) ends in one
`ascendc_cpu: <API>:` line and exit 3.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from selftest_checks import assert_group_passes, assert_violations_are_one_line, build_selftest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "test" / "cpp_fixtures" / "selftest_950_bits.cpp"
GROUPS = ("shifts", "pack", "blockreduce", "storage", "int64", "loads")


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_selftest(tmp_path_factory, SOURCE, "-DASCENDC_CPU_DAV_3510")


@pytest.mark.parametrize("group", GROUPS)
def test_micro_bits_group_passes(selftest: Path, group: str) -> None:
    assert_group_passes(selftest, group)


def test_micro_bits_violations_are_one_line_and_exit_3(selftest: Path) -> None:
    assert_violations_are_one_line(selftest, 2)
