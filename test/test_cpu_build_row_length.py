"""Row kernels of a run-time row length in C++ (issue 36): x `?x?`, the row length n the
tiling struct's `rowLength` (hswc.rows.ROW_LENGTH_FIELD), the kernel working every row in
segments of its compile-time S, the last of 1 to S elements padded with each combiner's
identity (hswc.reduction_order.padded). One build against the CPU model of AscendC
(hswc/checker/ascendc_cpu), run with --auto-sync off at several lengths: a single short
segment (7), one padded segment (1000), whole segments only (2 S: no padding) and whole
segments then a padded one; bit for bit what the interpreter gives at the ascend level, and
within PyTorch's tolerance of the float64 model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from sampling import sampled, selected
from test_cpu_build_rows import FLAGS
from test_dynamic_rows import _text
from test_row_kernels import _named_inputs, _reference
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from hswc import runner
from hswc.dialects import hsg
from hswc.platform import PLATFORMS
from hswc.reference import compare_tolerance
from hswc.rows import ROW_LENGTH_FIELD, read_rows

CASES = {  # case: (op, dtype, SoC)
    "layer_norm_f16": ("hsg.layer_norm", "f16", "ascend910b"),
    "softmax_f32_online": ("hsg.softmax", "f32", "ascend910b"),
    "log_softmax_grad_f32_compensated": ("hsg.log_softmax_grad", "f32", "ascend910b"),
    "rms_norm_bf16_950": ("hsg.rms_norm", "bf16", "ascend950"),
    "softmax_f16_950": ("hsg.softmax", "f16", "ascend950"),
}
"""layer_norm_f16: a column weight and bias of the run-time length (copied a segment at a
time), n as an f32 scalar for the mean, half in and out; the sweep adds softmax's online max
and sum, a compensated signed sum, and the 950's column."""
QUICK = {"layer_norm_f16"}
CORES = 2
ROWS = 5
"""Three rows on the first core, two on the second: several chunks a core (one row a chunk);
a whole branch of several rows a chunk is given two chunks a core, the last of 3 rows."""


def _text_of(case: str) -> str:
    """The case's module: x `?x?`, its weights `?`."""
    op, dtype, _soc = CASES[case]
    text = _text(op, _named_inputs(op, (3, 8), dtype), dtype, (0, 1))
    text = text.replace(f"tensor<8x{dtype}>", f"tensor<?x{dtype}>").replace("@f(", f"@{case}(")
    assert f"tensor<?x?x{dtype}>" in text and "8x" not in text
    return text


def _kernel(case: str) -> tuple[runner.Kernel, int]:
    """The case compiled to the ascend level for its SoC on CORES cores, and the segment of
    its segmented branch (hswc.passes.row_branches: the host's tiling picks it for rows longer
    than its whole branches hold)."""
    soc = CASES[case][2]
    kernel = runner.compile_text(_text_of(case), core_num=CORES, soc=soc)
    (rows,) = [r for op in kernel.module.walk() if op.name == "func.func"
               and (r := read_rows(op)) is not None and r.segment is not None]
    assert rows.dynamic
    return kernel, rows.segment


def _keys(module: ModuleOp) -> list[int]:
    """The tiling keys of the module's kernels: one per branch (hswc.passes.row_branches)."""
    return [attr.value.data for op in module.walk() if op.name == "func.func"
            and isinstance(attr := op.attributes.get(hsg.TILING_KEY_ATTR), IntegerAttr)]


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[str, Path]:
    """One build per case the session's tests run."""
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("dynamic_rows_cpu_build")
    builds = {}
    for case in [c for c in CASES if c in selected(request, "case")]:
        op, dtype, soc = CASES[case]
        source = directory / f"{case}.cpp"
        module = _kernel(case)[0].module
        source.write_text(kernel_source(module))
        inputs = len(_named_inputs(op, (1, 8), dtype))
        builds[case] = Build(source, directory / case,
                             (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                              f"-DHSWC_GM_INPUTS={inputs}",
                              f"-DHSWC_TILING_KEYS={','.join(map(str, _keys(module)))}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", sampled(CASES, QUICK, ids=list(CASES)))
def test_one_cpu_build_of_a_run_time_row_length_equals_the_interpreter_at_each_length(
        case: str, executables: dict[str, Path], tmp_path: Path) -> None:
    op, dtype, soc = CASES[case]
    kernel, segment = _kernel(case)
    ub = PLATFORMS[soc].ub_size
    for length in (7, 1000, 2 * segment, 2 * segment + 100):
        inputs = _named_inputs(op, (ROWS, length), dtype)
        result = kernel.run(*inputs)
        (record,) = result.tilings
        assert record is not None
        if int(record["ubFactor"]) >= int(record["blockFactor"]):
            # a whole branch of several rows a chunk: two chunks a core, the last of 3 rows
            inputs = _named_inputs(op, (CORES * (int(record["ubFactor"]) + 3), length), dtype)
            result = kernel.run(*inputs)
            (record,) = result.tilings
        assert record is not None and record[ROW_LENGTH_FIELD] == length
        assert int(record["blockFactor"]) > int(record["ubFactor"]), "several chunks a core"
        on_cpu = run_recorded(executables[case], record, inputs, ub, tmp_path / str(length))
        want = np.asarray(result.outputs[0])
        assert on_cpu.tobytes() == want.tobytes(), f"{case}, rows of {length}: C++ != interpreter"
        within = compare_tolerance(on_cpu, _reference(op, inputs, -1))
        assert within.equal, f"rows of {length}: {within.summary()}"
