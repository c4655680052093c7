"""The CPU model's library Sigmoid (hswc/checker/ascendc_cpu/ascendc_cpu_vec_sigmoid.h) against this
file's own model of asc-devkit's sequence (impl/adv_api/detail/activation/sigmoid: Muls(-1), Exp,
Adds(1), Div(1, .); in half itself on Atlas A2/A3, in float narrowed with CAST_RINT on Ascend
950), step by step in numpy (IEEE arithmetic; numpy's half arithmetic rounds once, float's 24 bits
being >= 2 * 11 + 2) with hswc.math_semantics.exp for the Exp instruction; against the exact
sigmoid (how close the sequence is, so that a wrong step shows); and the rules Sigmoid.md and
GetSigmoidMaxMinTmpSize.md document. Every f16 pattern and 20,000 f32 values, built for both SoC
families."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hswc import math_semantics

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "cpp_fixtures"))
from check_ascendc_cpu import BASE_FLAGS, CXX, same_bits  # noqa: E402

F32 = np.float32
SOCS = {"a2": [], "950": ["-DASCENDC_CPU_DAV_3510"]}
FORMS = ("(dst, src, count)", "(dst, src, tmp, count)", "(dst, src, tmp)", "(dst, src)")


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if shutil.which("g++") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++)")
    out = tmp_path_factory.mktemp("sigmoid")
    built = {}
    for soc, flags in SOCS.items():
        built[soc] = out / f"sigmoid_table_{soc}"
        subprocess.run([CXX, *BASE_FLAGS, "-O2", *flags, "-I", str(ROOT / "test" / "cpp_fixtures"),
                        str(ROOT / "test" / "cpp_fixtures" / "sigmoid_table.cpp"), "-o",
                        str(built[soc])], check=True, capture_output=True)
    return built


def _inputs(dtype: type) -> np.ndarray:
    if dtype == np.float16:
        return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    rng = np.random.default_rng(37)
    bits = rng.integers(0, 1 << 32, size=10_000, dtype=np.uint64).astype(np.uint32).view(F32)
    ranged = rng.uniform(-20, 20, size=10_000).astype(F32)
    return np.concatenate([bits, ranged, np.array([0.0, -0.0, 88.8, -88.8, np.inf, -np.inf], F32)])


def _rows(binary: Path, x: np.ndarray, tmp: Path) -> np.ndarray:
    name = "f16" if x.dtype == np.float16 else "f32"
    (tmp / "in.bin").write_bytes(x.tobytes())
    subprocess.run([str(binary), name, str(tmp / "in.bin"), str(tmp / "out.bin")], check=True)
    return np.fromfile(tmp / "out.bin", dtype=x.dtype).reshape(-1, len(x))


def sigmoid_sequence(x: np.ndarray) -> np.ndarray:
    """Muls(x, -1), Exp, Adds(1), Div(1, .), each rounded to x's dtype."""
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        e = math_semantics.exp(x * x.dtype.type(-1))
        return one / (e + one)


def expected(x: np.ndarray, soc: str) -> np.ndarray:
    if soc == "950" and x.dtype == np.float16:
        return sigmoid_sequence(x.astype(F32)).astype(np.float16)  # CAST_RINT: to nearest even
    return sigmoid_sequence(x)


@pytest.mark.parametrize("soc", list(SOCS))
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_sigmoid_is_the_librarys_sequence(tables: dict[str, Path], tmp_path: Path, soc: str,
                                          dtype: type) -> None:
    x = _inputs(dtype)
    rows = _rows(tables[soc], x, tmp_path)
    assert len(rows) == len(FORMS)
    want = expected(x, soc)
    key = 0 if dtype == np.float16 else 1
    for form, got in zip(FORMS, rows, strict=True):
        bad = same_bits(key, got, want)
        assert len(bad) == 0, (soc, form, x[bad[:3]], got[bad[:3]], want[bad[:3]])


def test_the_sequence_is_near_sigmoid(tables: dict[str, Path], tmp_path: Path) -> None:
    """Close to the exact 1 / (1 + e^-x) (numpy in double) over [-16, 16]: within 2 ulp of the
    result in f32 (three roundings after a correctly rounded Exp) and in f16 computed in float
    (Ascend 950: 1 rounding more). Atlas A2/A3 computes half in half: e^-x rounds to half's
    infinity below x = -11.09, so the result is 0 there (the true value below 2^-16, under 2^-16
    absolute) and within 2 ulp above. A wrong step (a sign, a missing Adds) is far outside."""
    for dtype in (np.float32, np.float16):
        x = np.linspace(-16, 16, 4001).astype(dtype)
        exact = 1.0 / (1.0 + np.exp(-x.astype(np.float64)))
        ulp = np.spacing(exact.astype(dtype)).astype(np.float64)
        for soc in SOCS:
            got = _rows(tables[soc], x, tmp_path)[0].astype(np.float64)
            err = np.abs(got - exact) / ulp
            if soc == "a2" and dtype == np.float16:
                overflow = np.exp(-x.astype(np.float64)) >= 65520  # rounds to half's inf
                assert np.all(got[overflow] == 0) and np.all(exact[overflow] < 2.0 ** -16)
                err = err[~overflow]
            assert np.max(err) <= 2, (soc, dtype, np.max(err))


@pytest.mark.parametrize("soc", list(SOCS))
@pytest.mark.parametrize(("rule", "message"), [
    ("small-tmp", "Sigmoid: sharedTmpBuffer needs 256 bytes but the LocalTensor has 224"),
    ("in-place", "Sigmoid: src and dst overlap (Sigmoid.md: not supported)"),
    ("tmp-on-src", "Sigmoid: sharedTmpBuffer and src overlap (Sigmoid.md: not supported)"),
])
def test_sigmoids_documented_rules(tables: dict[str, Path], soc: str, rule: str,
                                   message: str) -> None:
    """GetSigmoidMaxMinTmpSize's smallest buffer (256 bytes) and Sigmoid.md's 约束说明 (no
    overlap of src, dst and the sharedTmpBuffer) are broken rules on both SoC families."""
    for dtype in ("f16", "f32"):
        run = subprocess.run([str(tables[soc]), "--rule", rule, dtype], capture_output=True,
                             text=True, check=False)
        assert run.returncode == 3, run.stderr
        assert f"ascendc_cpu: {message}" in run.stderr
