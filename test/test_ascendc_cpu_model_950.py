"""The Ascend 950 parts of the CPU model of AscendC (hswc/checker/ascendc_cpu,
-DASCENDC_CPU_DAV_3510) check themselves: test/cpp_fixtures/selftest_950.cpp, built once with g++
-Wall -Wextra -Werror, runs each group of checks (NDDMA's multi-dimensional DataCopy with padding
and broadcast strides, DataCopyPad's loop mode, the library's UB Broadcast with a BroadcastTiling,
UB -> UB Copy, the MicroAPI calls, Axpy, the calls of ops-nn's arch35 row kernels (Reduce, Move,
MulDstAdd, UnPack, Div's modes, StoreUnAlign, InitOutput), the level-0 compare and select where
they differ from Atlas A2/A3, GeluQuant's calls (MicroAPI Casts to int8_t and 8-bit floats under
the CTRL register's saturation modes, Divs by a tensor element, a TQue<VECCALC>, Erf with a
function-local config), the vector function scope (VF_CALL, asc_vf_call, __VEC_SCOPE__) and the
order LocalMemBar gives it, SwigluGroup's calls (TBufPool, ReduceSum by name), and the activation
calls of ops-nn's arch35 kernels (LeakyRelu, a SIMT VF launched over a dim3 of threads)) and each
of its
violation cases must end in one
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
SOURCE = ROOT / "test" / "cpp_fixtures" / "selftest_950.cpp"
GROUPS = ("nddma", "loop_mode", "broadcast", "copy", "micro", "axpy", "rowcalls", "level0",
          "pattern", "quant", "vf", "swiglu_group", "activations")


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_selftest(tmp_path_factory, SOURCE, "-DASCENDC_CPU_DAV_3510")


@pytest.mark.parametrize("group", GROUPS)
def test_950_selftest_group_passes(selftest: Path, group: str) -> None:
    assert_group_passes(selftest, group)


def test_950_violations_are_one_line_and_exit_3(selftest: Path) -> None:
    assert_violations_are_one_line(selftest, 29)


REFUSED_950 = {
    # A type the SoC's level-2 Maxs does not take fails to compile; the mask form's list is
    # shorter (no int64_t), so the check follows the form.
    "Maxs(u16, u16, uint16_t{1}, 8)": "Maxs supports (half, bfloat16_t, float, int16_t, int32_t)",
    "(void)ascendc_cpu::api::CheckMaxs<int64_t, ascendc_cpu::api::FormMask>()": "Maxs supports",
    "Axpy(t, t, 2.0f, 8, 1, t)": "ascendc_cpu: Axpy is not modelled: its mask/repeat forms",
    # An integer -> integer Cast (Cast.md table 8) is not modelled.
    "MicroAPI::RegTensor<uint8_t> d; MicroAPI::RegTensor<int16_t> s; MicroAPI::MaskReg m; "
    "MicroAPI::Cast<uint8_t, int16_t>(d, s, m)":
        "MicroAPI::Cast is modelled for the Cast tables' float results",
    # The level-0 Compares takes no int64_t (its count form does: a type list per form).
    "Compares(t.ReinterpretCast<uint8_t>(), i64, int64_t{0}, CMPMODE::EQ, uint64_t{32}, 1, "
    "UnaryRepeatParams{})": "CompareScalar supports (half, bfloat16_t, float, int16_t, int32_t)",
}
"""Calls the Ascend 950 build refuses at compile time, with (part of) the message."""

ACCEPTED_950 = ("Maxs(i64, i64, int64_t{0}, 8)",
                "(void)ascendc_cpu::api::CheckMaxs<int64_t, ascendc_cpu::api::FormCount>()",
                "Adds(i8, i8, int8_t{1}, 8)", "Axpy(t, h, half(2.0f), 8)",
                "Compares(t.ReinterpretCast<uint8_t>(), u16, uint16_t{0}, CMPMODE::EQ, "
                "uint64_t{128}, 1, UnaryRepeatParams{})",
                "Compare(i8.ReinterpretCast<uint8_t>(), i8, i8, CMPMODE::GT, 256)",
                "CompareScalar(i8.ReinterpretCast<uint8_t>(), i64, int64_t{0}, CMPMODE::GT, 64)")
"""Calls on types the SoC takes and the model has no lanes for: they compile (and are refused
when they run), so a kernel's other tiling-key branches can be checked."""


def _syntax_check(tmp_path: Path, name: str, calls: list[str] | tuple[str, ...],
                  head: str = "") -> subprocess.CompletedProcess[str]:
    body = "".join(
        f"void F{i}(const LocalTensor<float>& t, const LocalTensor<half>& h, "
        "const LocalTensor<uint16_t>& u16, const LocalTensor<int64_t>& i64, "
        "const LocalTensor<int8_t>& i8) { (void)t; (void)h; (void)u16; (void)i64; (void)i8; "
        f"{c}; }}\n"
        for i, c in enumerate(calls))
    src = tmp_path / f"{name}.cpp"
    src.write_text(f'{head}#include "kernel_operator.h"\nusing namespace AscendC;\n{body}')
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++)")
    return subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                           "-DASCENDC_CPU_DAV_3510", f"-I{MODEL}", str(src)],
                          capture_output=True, text=True, check=False)


def test_950_compile_time_refusals_and_types_refused_only_when_run(tmp_path: Path) -> None:
    refused = _syntax_check(tmp_path, "refused", list(REFUSED_950))
    assert refused.returncode != 0
    for call, message in REFUSED_950.items():
        assert message in refused.stderr, (call, refused.stderr[-3000:])
    accepted = _syntax_check(tmp_path, "accepted", ACCEPTED_950)
    assert accepted.returncode == 0, accepted.stderr[-3000:]


def test_950_simt_launches_compile_and_what_they_lack_fails_with_one_line(tmp_path: Path) -> None:
    """A SIMT VF's launch, thread indices and erfinvf compile (ascendc_cpu_simt.h); another SIMT
    math function (erfcinvf, or expf, a macro over libm's) and the headers of threads that share
    data are one error line each."""
    simt = '#include "simt_api/asc_simt.h"\n'
    ok = _syntax_check(tmp_path, "simt_ok", ["(void)(threadIdx.x + blockDim.y + gridDim.x)",
                                              "(void)erfinvf(0.5f)"], head=simt)
    assert ok.returncode == 0, ok.stderr[-3000:]
    for name, head, call, message in (
            ("erfcinvf", simt, "(void)erfcinvf(0.5f)", "ascendc_cpu: erfcinvf is not modelled"),
            ("expf", simt, "(void)expf(0.5f)", "ascendc_cpu: expf is not modelled"),
            ("sync", '#include "simt_api/device_sync_functions.h"\n', "(void)0",
             "ascendc_cpu: SIMT is not modelled: simt_api/device_sync_functions.h")):
        run = _syntax_check(tmp_path, name, [call], head=head)
        errors = [line for line in run.stderr.splitlines() if "error" in line]
        assert run.returncode != 0 and len(errors) == 1 and message in errors[0], run.stderr


@pytest.mark.parametrize("family", ["dav_c220", "dav_3510"])
def test_shift_right_and_left_count_forms(tmp_path: Path, family: str) -> None:
    """ShiftRight/ShiftLeft: logical on unsigned, arithmetic right on signed lanes, on both
    families; a shift past the width is a violation on Atlas A2/A3 and 0 / -1 on Ascend 950."""
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++)")
    out = tmp_path / "shift_check"
    flags = ["-DASCENDC_CPU_DAV_3510"] if family == "dav_3510" else []
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", *flags, f"-I{MODEL}",
                    str(ROOT / "test" / "cpp_fixtures" / "shift_check.cpp"), "-o", str(out)],
                   check=True, capture_output=True, text=True)
    run = subprocess.run([str(out)], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr
    wide = subprocess.run([str(out), "--wide"], capture_output=True, text=True, check=False)
    if family == "dav_c220":
        want = "ascendc_cpu: ShiftRight: shift 17"
        assert wide.returncode == 3 and wide.stderr.startswith(want), wide.stderr
    else:
        assert wide.returncode == 0 and wide.stdout.split() == ["-1", "0"], wide.stdout


def test_create_vec_index_count_form(tmp_path: Path) -> None:
    """CreateVecIndex (CreateVecIndex.md): firstValue + i, integer lanes exact, half lanes
    rounded once (ties to even past 2048), lanes past count untouched; an int16_t index past
    32767 is a violation (firstValue must keep the index in range)."""
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++)")
    out = tmp_path / "vec_index_check"
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", f"-I{MODEL}",
                    str(ROOT / "test" / "cpp_fixtures" / "vec_index_check.cpp"), "-o", str(out)],
                   check=True, capture_output=True, text=True)
    run = subprocess.run([str(out)], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr
    wide = subprocess.run([str(out), "--wide"], capture_output=True, text=True, check=False)
    assert wide.returncode == 3 and wide.stderr.startswith(
        "ascendc_cpu: CreateVecIndex: firstValue 32766 + count - 1 = 32769"), wide.stderr


def _line_of(text: str) -> int:
    """The line of selftest_950.cpp holding `text` (exactly once)."""
    lines = [i for i, line in enumerate(SOURCE.read_text().splitlines(), 1) if text in line]
    assert len(lines) == 1, text
    return lines[0]


def test_missing_local_mem_bar_names_the_load_and_the_store(selftest: Path) -> None:
    """LocalMemBar.md's example without its barrier: iteration 2's LoadAlign reads what iteration
    1's StoreAlign wrote through another register; the rule names both lines, and the sweep's
    kind of it locates both calls."""
    from hswc.checker import rules
    run = subprocess.run([str(selftest), "--violate", "localmembar_missing_raw"],
                         capture_output=True, text=True, check=False)
    (violation,) = rules.parse(run.stderr)
    load = _line_of("MicroAPI::LoadAlign(acc, dst);")
    store = _line_of("MicroAPI::StoreAlign(dst, sum, mask);")
    assert violation.category == "VF pipelines unordered (LocalMemBar)"
    assert violation.category in rules.SYNC_CATEGORIES
    assert violation.brief == (
        f"MicroAPI::LoadAlign at {SOURCE}:{load} loads what "
        f"MicroAPI::StoreAlign at {SOURCE}:{store} stored in the same VF "
        "through another register, no LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD> between")
