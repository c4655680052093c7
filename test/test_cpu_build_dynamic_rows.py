"""A row kernel of a run-time row count in C++: one kernel built per SoC (Atlas A2 and Ascend
950's column of the CPU model of AscendC), launched for several row counts with the tiling the
host computed for each (one row; a row short of a core each; 7 rows a core and 3 more, several
chunks a core): bit for bit what the interpreter gives at the ascend level, and within
PyTorch's tolerance of the float64 model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from test_cpu_build_rows import FLAGS
from test_dynamic_rows import _text
from test_row_kernels import _named_inputs, _reference

from hswc import runner
from hswc.reference import compare_tolerance

CASES = {  # case: (op, row length, dtype, SoC)
    "softmax_f16": ("hsg.softmax", 64, "f16", "ascend910b"),
    "rms_norm_bf16_950": ("hsg.rms_norm", 40, "bf16", "ascend950"),
}
CORES = 4
UB = 16384
"""Small enough for several chunks a core at 31 rows a core."""
ROW_COUNTS = (1, CORES - 1, CORES * 7 + 3, 120)


def _module(case: str) -> tuple[str, str]:
    op, length, dtype, soc = CASES[case]
    inputs = _named_inputs(op, (2, length), dtype)
    return _text(op, inputs, dtype, (0,)).replace("@f(", f"@{case}(", 1), soc


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("dynamic_rows_cpu_build")
    builds = {}
    for case in CASES:
        text, soc = _module(case)
        assert "tensor<?x" in text
        module = runner.compile_text(text, core_num=CORES, ub_size=UB, soc=soc).module
        source = directory / f"{case}.cpp"
        source.write_text(kernel_source(module))
        builds[case] = Build(source, directory / case,
                             (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                              f"-DHSWC_GM_INPUTS={2 if 'norm' in case else 1}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_one_built_kernel_runs_every_row_count_equal_to_the_interpreter(
        case: str, executables: dict[str, Path], tmp_path: Path) -> None:
    op, length, dtype, soc = CASES[case]
    text, _ = _module(case)
    kernel = runner.compile_text(text, level="ascend", core_num=CORES, ub_size=UB, soc=soc)
    chunked = False
    for rows in ROW_COUNTS:
        inputs = _named_inputs(op, (rows, length), dtype)
        result = kernel.run(*inputs)
        (record,) = result.tilings
        assert record is not None and int(record["totalNum"]) == rows
        chunked |= int(record["ubFactor"]) < int(record["blockFactor"])
        on_cpu = run_recorded(executables[case], record, inputs, UB, tmp_path / str(rows))
        want = np.asarray(result.outputs[0])
        assert on_cpu.tobytes() == want.tobytes(), f"{case}, {rows} rows: C++ != interpreter"
        within = compare_tolerance(on_cpu, _reference(op, inputs, -1))
        assert within.equal, within.summary()
    assert chunked, "several chunks a core at some row count"
