"""Ascend 950's bfloat16 Add, Sub, Mul, Adds and Muls, as asc-devkit documents them (the float
result rounded to bfloat16, hswc/api_tables.def's ASCENDC_ROUNDS_BF16_IN_FLOAT; Muls is a
Duplicate then that Mul in asc-devkit's implementation), in the CPU model's Ascend 950 build and
in the interpreter, against that formula computed here with numpy's float32 arithmetic and
ml_dtypes' rounding: every bfloat16 pattern as src0, against a shuffle of every pattern and
against values that nearly cancel it. Div, whose bfloat16 rounding is documented nowhere, stays
refused by both."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc import soc_api
from hswc.interpreter import ascendc_arith
from hswc.interpreter.ascendc_checks import ApiError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "cpp_fixtures"))
from check_ascendc_cpu import BASE_FLAGS, CXX  # noqa: E402

BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.float32


def _operands() -> tuple[np.ndarray, np.ndarray]:
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    rng = np.random.default_rng(950)
    shuffled = rng.permutation(every)
    near = every ^ (np.uint16(0x8000) | rng.integers(0, 4, size=every.size).astype(np.uint16))
    src0 = np.concatenate([every, every]).view(BF16)
    src1 = np.concatenate([shuffled, near]).view(BF16)  # -x give or take 3 ulp: cancellation
    return src0, src1


def _documented(op: np.ufunc, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """rint_to_bf16(op(cast_to_f32(a), cast_to_f32(b)))."""
    with np.errstate(all="ignore"):
        return op(a.astype(F32), b.astype(F32)).astype(BF16)


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    """Bit for bit, except that any NaN matches any NaN (the formula says nothing of payloads)."""
    both_nan = np.isnan(got.astype(F32)) & np.isnan(want.astype(F32))
    return bool(np.all((got.view(np.uint16) == want.view(np.uint16)) | both_nan))


OPS = (("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply))


def test_the_table_says_950_rounds_these_and_a2_has_none() -> None:
    a2, a950 = soc_api.table("dav_c220"), soc_api.table("dav_3510")
    for call in ("Add", "Sub", "Mul", "Adds", "Muls"):
        assert a950.exact(call, "bf16") and not a2.takes(call, "bf16")
    assert not a950.exact("Div", "bf16")


def test_cpu_model(tmp_path: Path) -> None:
    if shutil.which(CXX) is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++)")
    exe = tmp_path / "bf16_arith_table"
    subprocess.run([CXX, *BASE_FLAGS, "-O1", "-DASCENDC_CPU_DAV_3510", "-I",
                    str(ROOT / "test" / "cpp_fixtures"),
                    str(ROOT / "test" / "cpp_fixtures" / "bf16_arith_table.cpp"), "-o", str(exe)],
                   check=True, capture_output=True)
    src0, src1 = _operands()
    (tmp_path / "in").write_bytes(src0.tobytes() + src1.tobytes())
    subprocess.run([str(exe), str(tmp_path / "in"), str(tmp_path / "out")], check=True)
    rows = np.frombuffer((tmp_path / "out").read_bytes(), dtype=BF16).reshape(5, src0.size)
    for row, (name, op) in zip(rows, OPS, strict=False):
        assert _same(row, _documented(op, src0, src1)), name
    assert _same(rows[3], _documented(np.add, src0, np.full_like(src0, src1[0])))
    assert _same(rows[4], _documented(np.multiply, src0, np.full_like(src0, src1[1])))


def test_interpreter() -> None:
    src0, src1 = _operands()
    calls = {"Add": ascendc_arith.add, "Sub": ascendc_arith.sub, "Mul": ascendc_arith.mul}
    for name, op in OPS:
        dst = np.zeros_like(src0)
        calls[name](dst, src0, src1, src0.size)
        assert _same(dst, _documented(op, src0, src1)), name
    dst = np.zeros_like(src0)
    ascendc_arith.adds(dst, src0, src1[7], src0.size)
    assert _same(dst, _documented(np.add, src0, np.full_like(src0, src1[7])))
    ascendc_arith.muls(dst, src0, src1[7], src0.size)
    assert _same(dst, _documented(np.multiply, src0, np.full_like(src0, src1[7])))
    with pytest.raises(ApiError, match="Div: unsupported dtype bfloat16"):
        ascendc_arith.div(dst, src0, src1, src0.size)
