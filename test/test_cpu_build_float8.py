"""An Ascend 950 kernel that writes an 8-bit float (x * s, truncf to f8E4M3FN or f8E5M2, 3
cores), printed as AscendC and built against the CPU model for that SoC, writes for every f16
bit pattern of x the bits the interpreter writes: its exact Cast to float, then its Cast to
fp8_e4m3fn_t / fp8_e5m2_t after SetCtrlSpr<48, 48>(1) (ascendc_cpu_float8.h, ascendc_cpu_ctrl.h
against hswc.interpreter.ascendc_cast_fp8). E4M3FN by default; E5M2 and bf16's every pattern
under `pytest -m sweep`."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from sampling import SWEEP

from hswc import runner, soc_api
from hswc.backend.source import kernel_source
from hswc.tiling import TILING_KEYS

CORES, UB = 3, 253952
FLAGS = tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])
CASES = {("f8E4M3FN", "f16"): (), ("f8E5M2", "f16"): SWEEP, ("f8E4M3FN", "bf16"): SWEEP}
SOURCES = {"f16": (np.float16, np.uint16), "bf16": (ml_dtypes.bfloat16, np.uint16)}
OUTPUTS = {"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2}


def _text(element: str, source: str) -> str:
    return f"""#id = affine_map<(d0) -> (d0)>
func.func @q(%x: tensor<?x{source}>, %s: tensor<?x{source}>) -> tensor<?x{element}> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x{source}>
  %e = tensor.empty(%n) : tensor<?x{element}>
  %y = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%x, %s : tensor<?x{source}>, tensor<?x{source}>) outs(%e : tensor<?x{element}>) {{
    ^bb0(%a: {source}, %b: {source}, %o: {element}):
      %m = arith.mulf %a, %b : {source}
      %t = arith.truncf %m : {source} to {element}
      linalg.yield %t : {element}
  }} -> tensor<?x{element}>
  return %y : tensor<?x{element}>
}}
"""


@pytest.mark.parametrize(("element", "source"),
                         [pytest.param(*case, marks=marks) for case, marks in CASES.items()])
def test_950_float8_kernel_on_the_cpu_model_matches_the_interpreter(
        element: str, source: str, tmp_path: Path) -> None:
    kernel = runner.compile_text(_text(element, source), soc="ascend950", core_num=CORES)
    cpp = tmp_path / "q.cpp"
    cpp.write_text(kernel_source(kernel.module))
    job = Build(cpp, tmp_path / "q", (*FLAGS, f"-DHSWC_TILING_KEYS={TILING_KEYS[element]}",
                                      "-DHSWC_KERNEL_ENTRY=q", "-DHSWC_GM_INPUTS=2"))
    build([job])
    dtype, bits = SOURCES[source]
    x = np.arange(1 << 16, dtype=np.uint32).astype(bits).view(dtype)
    s = np.ones(x.size, dtype)
    result = kernel.run(x, s)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(job.output, record, [x, s], UB, tmp_path / "run",
                          output=np.dtype(OUTPUTS[element]))
    interpreted = np.asarray(result.outputs[0])
    assert np.array_equal(on_cpu.view(np.uint8), interpreted.view(np.uint8))
    # Out of range: NaN (E4M3FN) or inf (E5M2), as truncf gives, not the saturated +-max.
    beyond = np.abs(x.astype(np.float32)) > 1e5
    assert not np.isfinite(on_cpu[beyond].astype(np.float32)).any()
