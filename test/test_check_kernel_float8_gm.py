"""The checker passes 8-bit float GM tensors to a kernel and reads them back (the inputs as raw
bytes, the outputs read as ml_dtypes' float8_e4m3fn and float8_e8m0fnu: hswc.checker.run):
test/cpp_fixtures/copy_float8_kernel.cpp copies every byte value of an fp8_e4m3fn_t tensor and
of an fp8_e8m0_t one through the UB, and both come back bit for bit (NaN codes, -0 and E8M0's
0xff included), on the Ascend 950's CPU model."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.checker import build as builder
from hswc.checker.build import BuildSpec
from hswc.checker.cases import soc_flags
from hswc.checker.errors import CheckError
from hswc.checker.host_tiling import NUMPY_GE
from hswc.checker.run import execute

SOURCE = Path(__file__).resolve().parent / "cpp_fixtures" / "copy_float8_kernel.cpp"
E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)


def test_float8_gm_tensors_round_trip_through_the_harness(tmp_path: Path) -> None:
    try:
        cxx = builder.compiler()
    except CheckError:
        pytest.skip("no C++ compiler (g++) on this machine")
    spec = BuildSpec("f16", tmp_path / "run_copy_float8", SOURCE, (SOURCE.parent,), "copy8", 2, 2,
                     None, extra_flags=soc_flags("ascend950"), gm_only=True)
    assert builder.build_all([spec], cxx) == {}
    y = np.arange(256, dtype=np.uint8).view(E4M3)  # every code: 0x7f and 0xff NaN, 0x80 -0
    scale = np.arange(256, dtype=np.uint8)[::-1].copy().view(E8M0)  # 0xff (NaN) first
    run = execute(spec.output, tmp_path / "run", [y, scale], [(E4M3, 256), (E8M0, 256)], b"", 1,
                  0, None, 253952, ["y", "scale", "yOut", "scaleOut"])
    assert run.failure is None and run.violations == ()
    assert run.outputs is not None
    got_y, got_scale = run.outputs
    assert got_y.dtype == E4M3 and got_scale.dtype == E8M0
    assert got_y.view(np.uint8).tolist() == list(range(256))
    assert got_scale.view(np.uint8).tolist() == list(range(255, -1, -1))


def test_the_host_tiling_names_the_8_bit_types_as_ge_does() -> None:
    """ge::DataType's numbers (metadef's graph/types.h; the model's hswc_host/types.h)."""
    assert [NUMPY_GE[n] for n in ("float8_e5m2", "float8_e4m3fn", "float8_e8m0fnu")] == [35, 36,
                                                                                        37]
