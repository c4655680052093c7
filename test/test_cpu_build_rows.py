"""Row kernels in C++: the emitted kernels of the softmax family and the norms (whole rows per
chunk: DataCopyPad of row blocks, the folds and WholeReduceSum / Max of hswc.reduction_order,
Brcb spreads and level-0 calls over row groups, column weights copied in Init), compiled with
g++ -Wall -Wextra -Werror against the CPU model of AscendC (hswc/checker/ascendc_cpu; Atlas A2
and Ascend 950's column) and run with --auto-sync off on every core the tiling uses, several
chunks a core: bit for bit what the interpreter gives at the ascend level, and within PyTorch's
tolerance of the float64 model (rows of whole repeats by a tree of WholeReduces and calls
over the whole chunk: the last three cases). Rows too long for 8 of them in UB (8192 f32,
3000 f16 on 950) run one row a chunk: level-0 calls repeating along the row, the folds
likewise (8192 f32: its tree of WholeReduces, 8192 -> 128 -> 2 -> 1). Rows longer
than one row of the buffers holds (12,345 and 20,000 elements) run in segments (hswc.rows), one
pass over the row per reduction, its partials carried in per-row accumulators; softmax's and
log_softmax's max and sum in one pass (`online`, the cost model's choice). A sum of terms of
either sign in a row one a chunk (log_softmax_grad's, softmax_grad's) is compensated
(hswc.reduction_order: TwoSum folds, Brcb, CompareScalar and Select), whole and in segments."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from sampling import sampled, selected
from test_row_kernels import _named, _named_inputs, _reference

from hswc import runner, soc_api
from hswc.reference import compare_tolerance

CASES = {  # case: (op, rows, row length, dtype, SoC)
    "softmax_f16": ("hsg.softmax", 101, 64, "f16", "ascend910b"),
    "layer_norm_f32": ("hsg.layer_norm", 29, 100, "f32", "ascend910b"),
    "rms_norm_bf16": ("hsg.rms_norm", 600, 7, "bf16", "ascend910b"),
    "log_softmax_grad_f32": ("hsg.log_softmax_grad", 40, 130, "f32", "ascend910b"),
    "softmax_f32": ("hsg.softmax", 39, 900, "f32", "ascend910b"),
    "softmax_f16_950": ("hsg.softmax", 101, 64, "f16", "ascend950"),
    "layer_norm_bf16_950": ("hsg.layer_norm", 29, 100, "bf16", "ascend950"),
    "softmax_f32_8192": ("hsg.softmax", 5, 8192, "f32", "ascend910b"),
    "log_softmax_grad_f16_950_3000": ("hsg.log_softmax_grad", 5, 3000, "f16", "ascend950"),
    "softmax_f32_segments_20000": ("hsg.softmax", 3, 20000, "f32", "ascend910b"),
    "layer_norm_bf16_950_segments_12345": ("hsg.layer_norm", 3, 12345, "bf16", "ascend950"),
    "rms_norm_f16_segments_12345": ("hsg.rms_norm", 3, 12345, "f16", "ascend910b"),
    "log_softmax_f16_950_online_20000": ("hsg.log_softmax", 3, 20000, "f16", "ascend950"),
    "softmax_f16_1024": ("hsg.softmax", 40, 1024, "f16", "ascend910b"),
    "layer_norm_f32_950_192": ("hsg.layer_norm", 45, 192, "f32", "ascend950"),
    "layer_norm_f16_1024": ("hsg.layer_norm", 40, 1024, "f16", "ascend910b"),
    "rms_norm_f32_segments_17920": ("hsg.rms_norm", 3, 17920, "f32", "ascend910b"),
    "log_softmax_grad_f32_compensated_12345": ("hsg.log_softmax_grad", 3, 12345, "f32",
                                               "ascend910b"),
    "softmax_grad_f32_950_compensated_2100": ("hsg.softmax_grad", 3, 2100, "f32",
                                              "ascend950"),
    "log_softmax_grad_f32_compensated_8192": ("hsg.log_softmax_grad", 3, 8192, "f32",
                                              "ascend910b"),
}
"""softmax_f16_1024, layer_norm_f32_950_192 and rms_norm_f32_segments_17920: rows of whole f32
repeats reduced by a tree of WholeReduces (hswc.reduction_order.tree_levels): a call over all
the chunk's rows' groups (1024: 16 groups) or a call per group (192: 3), the last segment of
17,920 (4096: 64 groups) likewise after segments of the fold tree; row values spread over a
block per group and applied to the chunk in one call (KernelPlan.wide_groups); LayerNorm's
weight and bias there (192, and layer_norm_f16_1024) cast to f32 once a core in Init and
copied to every row of a chunk, each applied in one level-2 call (KernelPlan.wide_columns,
hswc.vectorizer.row_columns). The
compensated cases: a signed sum one row a chunk (hswc.reduction_order's compensated order),
in segments (12,345), whole (2100), and whole at a length the tree would take (8192: the
compensated order comes first, on a scratch copy of the source the row reads again)."""
QUICK = {"softmax_f16", "layer_norm_bf16_950", "log_softmax_grad_f32",
         "softmax_f32_segments_20000", "softmax_f16_1024", "log_softmax_grad_f32_compensated_12345",
         "layer_norm_f16_1024"}
"""The cases the default run builds (one per SoC, schedule and reduction order); the rest run
under `pytest -m sweep`."""
FLAGS = {"ascend910b": (), "ascend950": tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])}
"""The CPU model's SoC column (test_cpu_build_950)."""
CORES = 2
UB = 32768
"""Small enough for several chunks a core (softmax_f16: 24 rows a chunk, 51 rows a core)."""


def _case(case: str) -> tuple[list[np.ndarray], str]:
    op, rows, length, dtype, _soc = CASES[case]
    inputs = _named_inputs(op, (rows, length), dtype)
    return inputs, _named(op, inputs, dtype, -1).replace("@f(", f"@{case}(", 1)


def _ub(case: str) -> int:
    """The case's UB: enough for a chunk (two rows, or one with one_per_chunk) of the schedule
    the cost model chose for the SoC's UB (the choice is made at compile time, for the SoC: a
    smaller UB at run time could hold fewer of its rows)."""
    length = CASES[case][2]
    return 6 * UB if length >= 900 else 2 * UB if length > 100 else UB


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[str, Path]:
    """One build per case the session's tests run."""
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("rows_cpu_build")
    builds = {}
    for case in [c for c in CASES if c in selected(request, "case")]:
        inputs, text = _case(case)
        source = directory / f"{case}.cpp"
        soc = CASES[case][4]
        module = runner.compile_text(text, core_num=CORES, ub_size=_ub(case), soc=soc).module
        source.write_text(kernel_source(module))
        builds[case] = Build(source, directory / case,
                             (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                              f"-DHSWC_GM_INPUTS={len(inputs)}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", sampled(CASES, QUICK, ids=list(CASES)))
def test_cpu_build_of_a_row_kernel_equals_the_interpreter(
        case: str, executables: dict[str, Path], tmp_path: Path) -> None:
    inputs, text = _case(case)
    kernel = runner.compile_text(text, level="ascend", core_num=CORES, ub_size=_ub(case),
                                 soc=CASES[case][4])
    result = kernel.run(*inputs)
    (record,) = result.tilings
    assert record is not None
    assert int(record["ubFactor"]) < int(record["blockFactor"]), "several chunks a core"
    on_cpu = run_recorded(executables[case], record, inputs, _ub(case), tmp_path)
    want = np.asarray(result.outputs[0])
    assert on_cpu.tobytes() == want.tobytes(), f"{case}: C++ != interpreter"
    within = compare_tolerance(on_cpu, _reference(CASES[case][0], inputs, -1))
    assert within.equal, within.summary()


def test_an_output_computed_in_a_reduction_pass_on_the_cpu_model(tmp_path: Path) -> None:
    """exp(x) and its row sum over rows of 20,000 f32 in segments (test_row_kernels'
    TWO_OUTPUTS: the sum's pass allocates exp(x)'s output buffer and frees it uncopied), two
    GM outputs on 2 cores: bit for bit the interpreter's."""
    import subprocess

    from cpu_build import AUTO_SYNC_OFF, tiling_bytes
    from test_row_kernels import TWO_OUTPUTS

    from hswc.backend.source import kernel_source
    from hswc.rows import read_rows

    ub = 6 * UB
    kernel = runner.compile_text(TWO_OUTPUTS, core_num=CORES, ub_size=ub)
    source = tmp_path / "two.cpp"
    source.write_text(kernel_source(kernel.module))
    made = Build(source, tmp_path / "two",
                 ("-DHSWC_KERNEL_ENTRY=two", "-DHSWC_GM_INPUTS=1", "-DHSWC_GM_OUTPUTS=2"))
    build([made])
    x = np.random.default_rng(6).standard_normal((2, 20000)).astype(np.float32)
    result = kernel.run(x)
    (record,) = result.tilings
    assert record is not None
    (tmp_path / "tiling.bin").write_bytes(tiling_bytes(record))
    x.tofile(tmp_path / "x.bin")
    command = [str(made.output), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(ub),
               "--tiling-file", str(tmp_path / "tiling.bin"), "--input", str(tmp_path / "x.bin")]
    (rows,) = [read_rows(op) for op in kernel.module.walk() if read_rows(op) is not None
               and op.name == "func.func"]
    wanted = {"row": np.asarray(result.outputs[1]), "element": np.asarray(result.outputs[0])}
    for i, kind in enumerate(rows.outputs):  # the kernel's outputs by class: the row sum first
        command += ["--output", str(tmp_path / f"y{i}.bin"),
                    "--output-bytes", str(wanted[kind].nbytes)]
    done = subprocess.run([*command, *AUTO_SYNC_OFF], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    for i, kind in enumerate(rows.outputs):
        on_cpu = np.fromfile(tmp_path / f"y{i}.bin", dtype=np.float32)
        assert on_cpu.tobytes() == wanted[kind].reshape(-1).tobytes(), kind
