"""The softmax family over a dim that is not the innermost (issue 36: every dim of a 3-D tensor)
as row kernels of lanes (hswc.rows: Lanes): softmax over dim 0 of [R, C], or over dim 1 of
[A, R, C], reduces each column over R, so its rows are blocks of 64 adjacent columns, each read
as R runs of 64 (DataCopyPad per run), reduced lane by lane by level-0 folds of whole runs
(hswc.reduction_order.reduce_lanes), a row value read back as one repeat for every run; a
middle dim's rows come in A groups (Rows.row_start).

Checked against the float64 models of hswc.reference_norms (written from PyTorch's definitions,
independent of the decomposition), within PyTorch's default tolerance, at the linalg, tiled,
blocked and ascend levels; the ascend level equals the blocked level bit for bit (on Atlas A2 and
Ascend 950, over several chunks a core and rows crossing groups); the lane order itself by a
hand-checked sum; the emitted C++ on the CPU model of AscendC equals the interpreter bit for bit.
More runs than a chunk holds are worked on in segments of whole runs; columns that are not a
multiple of 64 make each group's last row narrower.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded

from hswc import runner, soc_api
from hswc.platform import PLATFORMS
from hswc.reduction_order import reduce_lanes
from hswc.reference import compare_tolerance
from hswc.reference_norms import run_reference
from hswc.remarks import collecting
from hswc.rows import Rows

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
OPS = ("softmax", "log_softmax", "softmax_grad", "log_softmax_grad")
SHAPES = {"2d_dim0": ((16, 128), 0), "3d_dim0": ((4, 3, 64), 0), "3d_dim1": ((3, 5, 128), 1)}
"""Case -> (x's shape, dim): 2 rows of 16 runs; 3 x 64 columns of 4 runs (one row); 3 groups of
2 rows of 5 runs."""
DEFAULT = {("softmax", "2d_dim0", "f16"), ("log_softmax", "3d_dim1", "f32"),
           ("softmax_grad", "3d_dim0", "bf16"), ("log_softmax_grad", "3d_dim1", "f16")}
"""Run by default; the rest under the sweep marker."""


def module(op: str, shape: tuple[int, ...], dim: int, dtype: str, name: str = "f") -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    count = 2 if op.endswith("_grad") else 1
    args = ", ".join(f"%a{i}: {t}" for i in range(count))
    operands = ", ".join(f"%a{i}" for i in range(count))
    return (f"func.func @{name}({args}) -> {t} {{\n"
            f"  %y = hsg.{op} {operands} {{dim = {dim} : i64}} : {t}\n"
            f"  return %y : {t}\n}}\n")


def inputs(op: str, shape: tuple[int, ...], dim: int, dtype: str) -> list[np.ndarray]:
    """x; or a gradient and the forward op's output (float64 model, rounded to the type)."""
    rng = np.random.default_rng(len(shape) * 100 + dim)
    x = (rng.standard_normal(shape) * 2).astype(np.float32)
    if not op.endswith("_grad"):
        return [x.astype(NUMPY[dtype])]
    forward = op.removesuffix("_grad")
    y = run_reference(f"hsg.{forward}", [x.astype(NUMPY[dtype])], dim=dim)
    return [rng.standard_normal(shape).astype(np.float32).astype(NUMPY[dtype]), y]


def _lane_rows(kernel: runner.Kernel) -> list[Rows]:
    return [Rows.from_attr(op.attributes["hsg.rows"]) for op in kernel.module.walk()
            if op.name == "func.func" and "hsg.rows" in op.attributes]


@pytest.mark.parametrize(("op", "case", "dtype"), [
    pytest.param(op, case, dtype, id=f"{op}_{case}_{dtype}",
                 marks=[] if (op, case, dtype) in DEFAULT else [pytest.mark.sweep])
    for op in OPS for case in SHAPES for dtype in NUMPY])
def test_every_level_is_within_tolerance_and_the_kernel_is_bit_exact(
        op: str, case: str, dtype: str) -> None:
    shape, dim = SHAPES[case]
    args = inputs(op, shape, dim, dtype)
    want = run_reference(f"hsg.{op}", args, dim=dim)
    text = module(op, shape, dim, dtype)
    got = {}
    for level in ("linalg", "tiled", "blocked", "ascend"):
        with collecting() as said:
            kernel = runner.compile_text(text, level=level, core_num=2)
        got[level] = kernel.run(*args).outputs[0]
        within = compare_tolerance(got[level], want)
        assert within.equal, f"{level}: {within.summary()}"
        if level != "linalg":
            columns = shape[-1] * (shape[1] if dim == 0 and len(shape) == 3 else 1)
            assert _lane_rows(kernel) == [Rows(shape[dim] * 64, ("element",) * len(args),
                                               ("element",), shape[dim], columns,
                                               one_per_chunk=True, lanes=64)], level
            assert not [r for r in said if "host" in r.text], said
    assert got["ascend"].tobytes() == got["blocked"].tobytes()
    assert got["blocked"].tobytes() == got["tiled"].tobytes()


def test_the_ascend950_kernel_equals_the_blocked_level_across_groups() -> None:
    """Softmax over dim 1 of [3, 5, 192] f32 on 2 cores: 9 rows of 64 columns in 3 groups of 3,
    core 0 rows 0-4 (two groups), core 1 rows 5-8."""
    shape, dim = (3, 5, 192), 1
    (x,) = inputs("softmax", shape, dim, "f32")
    text = module("softmax", shape, dim, "f32")
    blocked, lowered = (runner.compile_text(text, level=level, core_num=2, soc="ascend950")
                        for level in ("blocked", "ascend"))
    result = lowered.run(x)
    (record,) = result.tilings
    assert record is not None and (record["totalNum"], record["blockFactor"]) == (9, 5)
    assert result.outputs[0].tobytes() == blocked.run(x).outputs[0].tobytes()
    assert compare_tolerance(result.outputs[0], run_reference("hsg.softmax", [x],
                                                              dim=dim)).equal


def test_the_lane_order_is_the_fold_tree_over_runs() -> None:
    """Five runs of one lane: levels fold run 3 into 0 and 4 into 1, then 2 into 0, then 1 into
    0: (1e8 + 3) + -1e8 + (1 + 1) in f32 is 0 + 2 = 2 (1e8 + 3 rounds to 1e8; a sequential sum
    gives 4, the exact one 5); every lane apart (the second lane the same values negated)."""
    runs = np.array([[1e8, -1e8], [1, -1], [-1e8, 1e8], [3, -3], [1, -1]], dtype=np.float32)
    assert reduce_lanes(runs, "addf").tolist() == [2.0, -2.0]
    assert reduce_lanes(runs[None], "maximumf").tolist() == [[1e8, 1e8]]


def test_columns_that_are_not_whole_rows_of_lanes_make_a_narrower_last_row() -> None:
    """100 columns are one row of 64 lanes and one of 36 (hswc.rows: Lanes, `tail`): softmax
    f16 over dim 0 of (8, 100) is a kernel of 2 rows whose second is copied 36 columns wide;
    within tolerance of the float64 model, tiled = blocked = ascend bit for bit."""
    shape = (8, 100)
    (x,) = inputs("softmax", shape, 0, "f16")
    want = run_reference("hsg.softmax", [x], dim=0)
    got = {}
    for level in ("tiled", "blocked", "ascend"):
        kernel = runner.compile_text(module("softmax", shape, 0, "f16"), level=level,
                                     core_num=2)
        (rows,) = _lane_rows(kernel)
        assert (rows.runs, rows.stride, rows.group, rows.tail) == (8, 100, 2, 36)
        got[level] = kernel.run(x).outputs[0]
        assert compare_tolerance(got[level], want).equal, level
    assert got["ascend"].tobytes() == got["blocked"].tobytes() == got["tiled"].tobytes()


@pytest.mark.parametrize(("op", "shape", "dtype", "soc"), [
    ("softmax", (300, 128), "f16", "ascend910b"),
    pytest.param("log_softmax_grad", (400, 64), "f32", "ascend950", marks=pytest.mark.sweep)])
def test_columns_over_more_runs_than_a_chunk_holds_are_reduced_in_segments_of_runs(
        op: str, shape: tuple[int, int], dtype: str, soc: str) -> None:
    """Softmax f16 over dim 0 of (300, 128): a row of 64 lanes of 300 runs does not fit one
    chunk of A2's UB (about 190 do; before, it stayed on the host): the row is worked on in
    segments of whole runs, a pass each for the maximum, the sum and the outputs, each lane's
    accumulator combining the segments in order (never online). Within tolerance of the float64
    model; tiled = blocked = ascend bit for bit."""
    args = inputs(op, shape, 0, dtype)
    want = run_reference(f"hsg.{op}", args, dim=0)
    got = {}
    for level in ("tiled", "blocked", "ascend"):
        kernel = runner.compile_text(module(op, shape, 0, dtype), level=level, core_num=2,
                                     soc=soc)
        (rows,) = _lane_rows(kernel)
        assert rows.segment is not None and rows.segment % 64 == 0 and not rows.online
        assert (rows.runs, rows.length) == (shape[0], shape[0] * 64)
        got[level] = kernel.run(*args).outputs[0]
        within = compare_tolerance(got[level], want)
        assert within.equal, f"{level}: {within.summary()}"
    assert got["ascend"].tobytes() == got["blocked"].tobytes() == got["tiled"].tobytes()


CPU = {  # case: op, shape, dim, dtype, SoC
    "softmax_dim0_f16": ("softmax", (16, 256), 0, "f16", "ascend910b"),
    "log_softmax_grad_dim1_f32_950": ("log_softmax_grad", (3, 6, 192), 1, "f32", "ascend950"),
    "log_softmax_dim1_bf16": ("log_softmax", (2, 7, 128), 1, "bf16", "ascend910b"),
    "softmax_grad_dim0_f16_950": ("softmax_grad", (9, 2, 128), 0, "f16", "ascend950"),
    "softmax_dim0_segments_f16": ("softmax", (300, 256), 0, "f16", "ascend910b"),
    "log_softmax_dim0_segments_f32_950": ("log_softmax", (500, 256), 0, "f32", "ascend950"),
    "softmax_grad_dim1_tail_f16": ("softmax_grad", (2, 6, 100), 1, "f16", "ascend910b"),
}
CPU_DEFAULT = ("softmax_dim0_f16", "log_softmax_grad_dim1_f32_950")
FLAGS = {"ascend910b": (), "ascend950": tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])}
"""The CPU model's SoC column (test_cpu_build_950)."""
CORES = 2


@pytest.mark.parametrize("case", [pytest.param(c, marks=[] if c in CPU_DEFAULT
                                               else [pytest.mark.sweep]) for c in CPU])
def test_cpu_build_equals_the_interpreter(case: str, tmp_path: Path) -> None:
    """The emitted C++ compiled against the CPU model of AscendC and run with --auto-sync off
    on 2 cores, several rows a core (rows crossing groups for a middle dim): the interpreter's
    bits, and within PyTorch's tolerance of the float64 model."""
    from hswc.backend.source import kernel_source

    op, shape, dim, dtype, soc = CPU[case]
    args = inputs(op, shape, dim, dtype)
    text = module(op, shape, dim, dtype, name=case)
    lowered = runner.compile_text(text, level="ascend", core_num=CORES, soc=soc)
    result = lowered.run(*args)
    (record,) = result.tilings
    assert record is not None and int(record["blockFactor"]) > 1, "several rows a core"
    source = tmp_path / f"{case}.cpp"
    source.write_text(kernel_source(runner.compile_text(text, core_num=CORES, soc=soc).module))
    executable = Build(source, tmp_path / case, (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                                                 f"-DHSWC_GM_INPUTS={len(args)}"))
    build([executable])
    on_cpu = run_recorded(executable.output, record, args, PLATFORMS[soc].ub_size,
                          tmp_path / "run")
    assert on_cpu.tobytes() == np.asarray(result.outputs[0]).tobytes(), "C++ != interpreter"
    within = compare_tolerance(on_cpu, run_reference(f"hsg.{op}", args, dim=dim))
    assert within.equal, within.summary()
