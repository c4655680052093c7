"""The CPU model's library Erf and Tanh (hswc/checker/ascendc_cpu/ascendc_cpu_vec_library.h) against
this file's own model of asc-devkit's sequences (impl/adv_api/detail/math/erf, tanh), step by
step in numpy float32 (IEEE arithmetic), hswc.math_semantics.exp for the Exp instruction, exact
rationals for the fused multiply-adds; and against the exact functions (how close the sequences
are to erf and tanh is a property of the library, measured here so that a wrong coefficient or
step shows). Every f16 pattern and 20,000 f32 values, built for Atlas A2/A3 and Ascend 950."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from hswc import math_semantics

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "cpp_fixtures"))
from check_ascendc_cpu import BASE_FLAGS, CXX, same_bits  # noqa: E402
from cpu_model_references import (  # noqa: E402
    ieee_maximum,
    ieee_minimum,
    round_half_away_to_f16,
    round_rational,
)

F32 = np.float32
SOCS = {"a2": [], "950": ["-DASCENDC_CPU_DAV_3510"]}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if shutil.which("g++") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++)")
    out = tmp_path_factory.mktemp("library")
    built = {}
    for soc, flags in SOCS.items():
        built[soc] = out / f"library_math_table_{soc}"
        subprocess.run([CXX, *BASE_FLAGS, *flags, "-I", str(ROOT / "test" / "cpp_fixtures"),
                        str(ROOT / "test" / "cpp_fixtures" / "library_math_table.cpp"), "-o",
                        str(built[soc])], check=True, capture_output=True)
    return built


def _inputs(dtype: type) -> np.ndarray:
    if dtype == np.float16:
        return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    rng = np.random.default_rng(22)
    bits = rng.integers(0, 1 << 32, size=10_000, dtype=np.uint64).astype(np.uint32).view(F32)
    ranged = rng.uniform(-10, 10, size=10_000).astype(F32)
    return np.concatenate([bits, ranged, np.array([0.0, -0.0, 3.92, -3.92, 8.8, np.inf, -np.inf],
                                                 F32)])


def _rows(binary: Path, x: np.ndarray, tmp: Path) -> np.ndarray:
    name = "f16" if x.dtype == np.float16 else "f32"
    (tmp / "in.bin").write_bytes(x.tobytes())
    subprocess.run([str(binary), name, str(tmp / "in.bin"), str(tmp / "out.bin")], check=True)
    return np.fromfile(tmp / "out.bin", dtype=x.dtype).reshape(-1, len(x))


def _clip(x: np.ndarray, low: float, high: float) -> np.ndarray:
    """Mins(x, high) then Maxs(., low), as the library clips."""
    return ieee_maximum(ieee_minimum(x, np.full_like(x, F32(high))), np.full_like(x, F32(low)))


def erf_pade(x: np.ndarray) -> np.ndarray:
    """erf_common_impl.h / erf_3510_impl.h's Pade form: clip to 3.92, P / Q in x^2."""
    with np.errstate(all="ignore"):
        c = _clip(x, -F32(3.92), F32(3.92))
        x2 = c * c
        p = x2 * F32(0.053443748819) + F32(0.75517016694e1)
        for k in (0.10162808918e3, 0.13938061484e4, 0.50637915060e4, 0.29639384698e5):
            p = x2 * p + F32(k)
        p = c * p
        q = x2 + F32(0.31212858877e2)
        for k in (0.39856963806e3, 0.30231248150e4, 0.13243365831e5, 0.26267224157e5):
            q = x2 * q + F32(k)
        return p / q


def tanh_exp(x: np.ndarray, low: float, high: float) -> np.ndarray:
    """tanh_common_impl.h (and 950's INTRINSIC): clip, e = Exp(2x), (e - 1) / (e + 1)."""
    with np.errstate(all="ignore"):
        e = math_semantics.exp(_clip(x, low, high) * F32(2))
        return (e + F32(-1)) / (e + F32(1))


def _fma(a: float, b: float, c: float) -> np.float32:
    exact = Fraction(a) * Fraction(b) + Fraction(c) if all(map(math.isfinite, (a, b, c))) else None
    if exact is None or exact == 0:  # infinities, NaN and the sign of an exact zero: as IEEE
        with np.errstate(all="ignore"):
            return F32(F32(a) * F32(b) + F32(c))
    return F32(round_rational(exact, np.dtype(F32)))


def _bits(v: int) -> float:
    return float(np.array([v], np.uint32).view(F32)[0])


def erf_subsection(v: float) -> np.float32:
    """erf_3510_impl.h's SUBSECTION_POLYNOMIAL_APPROXIMATION for one float."""
    edge = _bits(0x3F8060FE)
    large = (0x38EB4C3A, 0xBAAE005B, 0x3C09919F, 0xBD24D99A, 0x3E235519, 0x3F69B4F9, 0x3F210A14)
    small = (0x38B1E96A, 0xBA574D20, 0x3BAAD5EA, 0xBCDC1BE7, 0x3DE718AF, 0xBEC093AC, 0x3E0375D3)
    a = abs(v)
    big = a >= edge
    t = a if big else float(F32(v) * F32(v))
    coeff = large if big else small
    r = _bits(coeff[0])
    for k in coeff[1:]:
        r = float(_fma(r, t, _bits(k)))
    s = -a if big else v
    f26 = float(_fma(r, s, s))
    if a < edge:
        return F32(f26)
    ln2 = float(math_semantics.ln(np.array([2.0], F32))[0])
    with np.errstate(all="ignore"):
        f23 = math_semantics.exp(np.array([F32(f26) * F32(ln2)], F32))[0]
        f25 = F32(1) - f23
    return F32(math.copysign(float(f25), v)) if not math.isnan(f25) else f25


def tanh_compensation(v: float) -> np.float32:
    """tanh_3510_impl.h's SUBSECTION_COMPENSATION for one float."""
    with np.errstate(all="ignore"):
        x2 = float(F32(v) * F32(v))
        o = float(F32(x2) * F32(0.0157296831) + F32(-0.0523029624))
        o = float(_fma(o, x2, float(F32(0.133152977))))
        o = float(_fma(o, x2, float(F32(-0.333327681))))
        o = float(F32(o) * F32(x2))
        o = float(_fma(o, v, v))
    mid = tanh_exp(np.array([v], F32), -math.inf, 20.0)[0]
    return F32(o) if abs(v) < F32(0.55) else mid


def _narrow(y: np.ndarray, dtype: type, away: bool) -> np.ndarray:
    if dtype == np.float32:
        return y
    return round_half_away_to_f16(y) if away else y.astype(np.float16)


@pytest.mark.parametrize("soc", list(SOCS))
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_erf_and_tanh_are_the_librarys_sequences(tables: dict[str, Path], tmp_path: Path,
                                                  soc: str, dtype: type) -> None:
    x = _inputs(dtype)
    rows = _rows(tables[soc], x, tmp_path)
    assert len(rows) == (6 if soc == "950" else 4)
    wide = x.astype(F32)
    erf = _narrow(erf_pade(wide), dtype, away=soc == "a2")  # A2: CAST_ROUND, 950: CAST_RINT
    tanh = _narrow(tanh_exp(wide, -8.8, 8.8), dtype, away=False)
    key = 0 if dtype == np.float16 else 1
    for name, got, want in (("Erf", rows[0], erf), ("Erf tmp", rows[1], erf),
                            ("Tanh", rows[2], tanh), ("Tanh tmp", rows[3], tanh)):
        bad = same_bits(key, got, want.astype(dtype))
        assert len(bad) == 0, (name, x[bad[:3]], got[bad[:3]], want[bad[:3]])
    if soc == "950":
        picks = np.concatenate([np.arange(0, len(wide), max(1, len(wide) // 1500)),
                                np.arange(len(wide) - 7, len(wide))])  # the specials at the end
        sample = wide[picks]
        for name, row, model in (("Erf subsection", rows[4], erf_subsection),
                                 ("Tanh compensation", rows[5], tanh_compensation)):
            want = _narrow(np.array([model(float(v)) for v in sample], F32), dtype, away=False)
            bad = same_bits(key, row[picks], want.astype(dtype))
            assert len(bad) == 0, (name, sample[bad[:3]], row[picks][bad[:3]], want[bad[:3]])


def test_the_sequences_are_near_erf_and_tanh(tables: dict[str, Path], tmp_path: Path) -> None:
    """Within the library's own accuracy of the exact functions (measured: Pade erf 3.0e-7,
    subsection erf 6.0e-8, tanh 8.8e-8 absolute over [-6, 6]); a wrong step is far outside."""
    x = np.linspace(-6, 6, 4001, dtype=F32)
    rows = _rows(tables["950"], x, tmp_path).astype(np.float64)
    erf = np.array([math.erf(float(v)) for v in x])
    tanh = np.tanh(x.astype(np.float64))
    assert np.max(np.abs(rows[0] - erf)) < 4e-7
    assert np.max(np.abs(rows[4] - erf)) < 1e-7
    assert np.max(np.abs(rows[2] - tanh)) < 1.5e-7
    assert np.max(np.abs(rows[5] - tanh)) < 1.5e-7


def test_a_shared_buffer_below_the_implementations_smallest_is_a_broken_rule(
        tables: dict[str, Path]) -> None:
    """erf_common_impl.h's smallest buffers: 8 blocks of 32 half or 3 of 32 float; tanh's 2 or
    1 blocks of 32 float; on Ascend 950 the implementation does not use it."""
    for call, name, need in (("Erf", "f16", 512), ("Erf", "f32", 384), ("Tanh", "f16", 256),
                             ("Tanh", "f32", 128)):
        run = subprocess.run([str(tables["a2"]), "--small-tmp", call.lower(), name],
                             capture_output=True, text=True, check=False)
        assert run.returncode == 3, run.stderr
        assert f"ascendc_cpu: {call}: sharedTmpBuffer needs {need} bytes" in run.stderr
        run = subprocess.run([str(tables["950"]), "--small-tmp", call.lower(), name],
                             capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
