"""Dynamic broadcasts in C++: the emitted kernels of PReLU over a dynamic batch (its weight in
GetValue + Duplicate row runs from its copy in UB), of a per-row scale `(?, 1)` (its GM window
sized from the core's slice at run time) and of a bias over `(?, 10)` (the element loop), each
compiled once with g++ -Wall -Wextra -Werror against the CPU model of
AscendC (hswc/checker/ascendc_cpu) and run at several run-time shapes with the tiling hswc-run
computed for each: bit for bit what the interpreter gives, and what numpy's broadcasting
gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cpu_build import build_generic_kernels, run_recorded
from math_bodies import same_bits
from test_broadcast_dynamic import CASES, DTYPES, _values, _want, prelu

from hswc import runner

BUILT = ("prelu_nchw_f32", "row_scale_f32", "bias_odd_row_f16")
CORES, UB = 5, 196608
SMALL_UB = 16384
"""Also run on this UB (above the select body's 8480 reserved bytes): several chunks per
core, each starting mid-row."""


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    texts = {}
    for case in BUILT:
        x_type, w_type, m, _, dtype, _ = CASES[case]
        texts[case] = prelu(case, x_type, w_type, m, dtype)
    return build_generic_kernels(tmp_path_factory.mktemp("dynamic_broadcast_cpu_build"), texts)


@pytest.mark.parametrize("case", BUILT)
def test_cpu_build_matches_interpreter_and_numpy_at_each_shape(
        case: str, executables: dict[str, Path], tmp_path: Path) -> None:
    x_type, w_type, m, spread, dtype, shapes = CASES[case]
    text = prelu(case, x_type, w_type, m, dtype)
    for ub in (UB, SMALL_UB):
        kernel = runner.compile_text(text, core_num=CORES, ub_size=ub)
        for seed, (xs, ws) in enumerate(shapes):
            x, w = _values(xs, DTYPES[dtype], seed), _values(ws, DTYPES[dtype], seed + 100)
            result = kernel.run(x, w)
            (record,) = result.tilings
            assert record is not None
            on_cpu = run_recorded(executables[case], record, [x, w], ub,
                                  tmp_path / f"{ub}_{seed}")
            where = f"{case} at shape {xs}, UB {ub}"
            assert same_bits(np.asarray(result.outputs[0]), on_cpu), f"{where}: C++ != interpreter"
            assert same_bits(_want(x, w, spread), on_cpu), f"{where}: C++ != numpy"
