"""Kernels reading their row count from a tensor (hsg.first_rows, hswc.counted_rows) in C++:
one kernel built per case (Atlas A2: ClippedSwiglu's halves, elements tiled; Ascend 950's
column of the CPU model: a softmax row kernel of a run-time row count, and SwigluGroup, an
Ascend 950 operator), launched with the
tiling the host computed and several counts. The harness's fresh output bytes are the
interpreter's, and it checks that exactly the counted rows' bytes are written
(--written-bytes): bit for bit what the interpreter gives at the ascend level."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from test_cpu_build_rows import FLAGS
from test_first_rows import SOFTMAX, SWIGLU

from hswc import runner
from hswc.interpreter.launch import FRESH_GM_BYTE

SWIGLU_GROUP = """
func.func @f(%x: tensor<8x128xbf16>, %g: tensor<2xi64>) -> tensor<8x64xbf16> {
  %y = hsg.swiglu_group %x {clamp_limit = 7.0 : f32} : tensor<8x128xbf16>
  %z = hsg.first_rows %y, %g : tensor<8x64xbf16>, tensor<2xi64>
  return %z : tensor<8x64xbf16>
}
"""
CASES = {  # case: (module, SoC, GM inputs with the counts, x's shapes, counts per run)
    "swiglu_f16": (SWIGLU, "ascend910b", 3, [(8, 128)] * 4,
                   [[2, 1, 2], [6, 0, 9], [0, 0, 0], [3, -9, 1]]),
    "softmax_bf16_950": (SOFTMAX, "ascend950", 2, [(37, 64), (5, 64), (120, 64)],
                         [[20, 5], [1, 0], [64, 56]]),
    "swiglu_group_bf16_950": (SWIGLU_GROUP, "ascend950", 3, [(8, 128)] * 3,
                              [[3, 2], [4, 9], [-1, 0]]),
}
CORES = 4
UB = 16384


def _text(case: str) -> str:
    return CASES[case][0].replace("@f(", f"@{case}(", 1)


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("first_rows_cpu_build")
    builds = {}
    for case, (_, soc, inputs, _, _) in CASES.items():
        module = runner.compile_text(_text(case), core_num=CORES, ub_size=UB, soc=soc).module
        source = directory / f"{case}.cpp"
        source.write_text(kernel_source(module))
        builds[case] = Build(source, directory / case,
                             (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                              f"-DHSWC_GM_INPUTS={inputs}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_one_built_kernel_writes_the_counted_rows_as_the_interpreter(
        case: str, executables: dict[str, Path], tmp_path: Path) -> None:
    _, soc, _, shapes, runs = CASES[case]
    kernel = runner.compile_text(_text(case), level="ascend", core_num=CORES, ub_size=UB,
                                 soc=soc)
    dtype = ml_dtypes.bfloat16 if "bf16" in case else np.float16
    for k, (shape, counts) in enumerate(zip(shapes, runs, strict=True)):
        x = (np.random.default_rng(k).standard_normal(shape) * 4).astype(dtype)
        g = np.array(counts, dtype=np.int64)
        result = kernel.run(x, g)
        (record,) = result.tilings
        want = np.asarray(result.outputs[0])
        rows = min(max(sum(counts), 0), shape[0])
        written = rows * want[0].nbytes
        inputs = [x, x, g] if "swiglu" in case else [x, g]  # the launch's GM inputs
        on_cpu = run_recorded(executables[case], record, inputs, UB, tmp_path / str(k),
                              output=want.dtype, shape=want.shape,
                              extra=["--ub-fill", str(FRESH_GM_BYTE),
                                     "--written-bytes", str(written)])
        assert on_cpu.tobytes() == want.tobytes(), f"{case}, counts {counts}: C++ != interpreter"
        assert written < want.nbytes or rows == shape[0]
