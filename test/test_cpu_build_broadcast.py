"""Broadcast operands in C++: the emitted kernels of a bias add (with rows of whole 32-byte
blocks, a DataCopyPad per row run; with rows that are not, a UB -> UB DataCopy per period from
a pattern built in UB once; rows that differ along the output, per-element GetValue/SetValue
CopyIn), of a per-row scale (GetValue + Duplicate per row run; with rows not whole 32-byte
blocks, a masked Duplicate of the run's first lanes and a Duplicate of the rest) and of a
product with a rank-0 argument (one
GetValue, then Duplicate), compiled with
g++ -Wall -Wextra -Werror against the CPU model of AscendC (hswc/checker/ascendc_cpu), give bit
for bit what the interpreter gives, and what numpy's broadcasting gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cpu_build import build_generic_kernels, run_recorded
from test_broadcast_operands import CASES as ONE_CHUNK
from test_broadcast_operands import DTYPES, NUMPY, _same, _values, generic
from test_broadcast_row_runs import MULTI_CHUNK

from hswc import runner

CASES = {**ONE_CHUNK, **{f"{name}_chunks": case for name, case in MULTI_CHUNK.items()},
         # a 40-byte bias: periodic runs (test_broadcast_periodic_runs)
         "bias10_f32_periodic_chunks": ((400, 10), (10,), "d1", lambda b: b, "addf", "f32")}
BUILT = ("bias_f16", "rank0_argument_f16", "row_scale_size1_f32", "bias_runs_f32",
         "row_scale_runs_f16", "bias_f16_chunks", "row_scale_f32_chunks", "long_rows_f32_chunks",
         "row_scale_gm_f32_chunks", "channel_196_f32_chunks", "bias10_f32_periodic_chunks",
         "rank3_outer_inner_f32")
CORES, UB = 5, 196608
SMALL_UB = 4096
"""The `_chunks` cases run on this UB: several chunks per core, each starting mid-row."""


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    texts = {}
    for case in BUILT:
        out, operand, m, _, op, dtype = CASES[case]
        texts[case] = generic(case, out, operand, m, dtype, op)
    return build_generic_kernels(tmp_path_factory.mktemp("broadcast_cpu_build"), texts)


@pytest.mark.parametrize("case", BUILT)
def test_cpu_build_matches_interpreter_and_numpy(case: str, executables: dict[str, Path],
                                                 tmp_path: Path) -> None:
    out, operand, m, spread, op, dtype = CASES[case]
    x, b = _values(out, DTYPES[dtype], 3), _values(operand, DTYPES[dtype], 4)
    ub = SMALL_UB if case.endswith("_chunks") else UB
    kernel = runner.compile_text(generic(case, out, operand, m, dtype, op), core_num=CORES,
                                 ub_size=ub)
    result = kernel.run(x, b)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executables[case], record, [x, b], ub, tmp_path)
    assert _same(on_cpu, np.asarray(result.outputs[0])), f"{case}: C++ != interpreter"
    with np.errstate(invalid="ignore", over="ignore"):
        assert _same(on_cpu, NUMPY[op](x, spread(b))), f"{case}: C++ != numpy"
