"""Reductions over leading dims that write one value per column (issue 36: a bias gradient
`x.sum(0)`, `x.mean(0)`, `x.amax(0)`, a sum over dim 1 of [A, R, C], BatchNorm's sum over N, H
and W where H * W is 1) as row kernels of lanes (hswc.rows: Lanes): a row is 64 adjacent
columns read as R runs of 64, each lane reduced apart (hswc.reduction_order.reduce_lanes), and
its 64 values written as one row value a row (a row output holds 64 values a row of lanes).
More runs than a chunk holds are reduced in segments of whole runs, each segment's lanes
combined into a per-lane f32 accumulator in UB, so R is unbounded; columns that are not a
multiple of 64 make each group's last row of lanes narrower (copied that wide, its other lanes
computed and never written).

The modules are written as torch-mlir exports them (a fill of the init, a generic whose
iterator over d0 is a reduction and whose output map is (d0, d1) -> (d1), f16 and bf16 summed
in the type itself, a mean as the sum divided by a constant); the kernel accumulates in f32 and
rounds once. Checked against float64 numpy models (the exact value rounded once to the type)
within torch.testing.assert_close's default tolerance at the tiled, blocked and ascend levels
(and at the linalg level in f32 over short columns: MLIR's f16 / bf16 loop sums in the type,
and its sequential f32 loop over hundreds of values drifts further), the
three levels equal bit for bit, on Atlas A2 and Ascend 950; the emitted C++ on the CPU model of
AscendC equals the interpreter bit for bit.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded

from hswc import runner, soc_api
from hswc.platform import PLATFORMS
from hswc.reference import compare_tolerance
from hswc.remarks import collecting
from hswc.rows import Rows

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
MINUS_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}
LEVELS = ("tiled", "blocked", "ascend")


def _type(shape: tuple[int, ...], dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def reduction(shape: tuple[int, ...], dims: tuple[int, ...], dtype: str, kind: str = "sum",
              product: bool = False, name: str = "main") -> str:
    """`x.sum(dims)`, `x.mean(dims)` or `x.amax(dims)` (of x * y where `product`) as torch-mlir
    writes it: the init filled, one reduction generic, a mean's division after it."""
    rank = len(shape)
    dims_list = ", ".join(f"d{i}" for i in range(rank))
    kept = [i for i in range(rank) if i not in dims]
    full, out = _type(shape, dtype), _type(tuple(shape[i] for i in kept), dtype)
    identity = f"affine_map<({dims_list}) -> ({dims_list})>"
    to_out = f"affine_map<({dims_list}) -> ({', '.join(f'd{i}' for i in kept)})>"
    iterators = ", ".join('"reduction"' if i in dims else '"parallel"' for i in range(rank))
    parallel = ", ".join(['"parallel"'] * rank)
    init = MINUS_INF[dtype] if kind == "amax" else "0.0"
    combiner = "arith.maximumf" if kind == "amax" else "arith.addf"
    lines = [f"func.func @{name}(%x: {full}{f', %y: {full}' if product else ''}) -> {out} {{",
             f"  %zero = arith.constant {init} : {dtype}",
             f"  %e = tensor.empty() : {out}",
             f"  %init = linalg.fill ins(%zero : {dtype}) outs(%e : {out}) -> {out}"]
    source = "%x"
    if product:
        source = "%p"
        lines += [f"  %fe = tensor.empty() : {full}",
                  f"  %p = linalg.generic {{indexing_maps = [{identity}, {identity}, {identity}],"
                  f" iterator_types = [{parallel}]}} ins(%x, %y : {full}, {full}) "
                  f"outs(%fe : {full}) {{",
                  f"  ^bb0(%a: {dtype}, %b: {dtype}, %o: {dtype}):",
                  f"    %m = arith.mulf %a, %b : {dtype}",
                  f"    linalg.yield %m : {dtype}",
                  f"  }} -> {full}"]
    lines += [f"  %s = linalg.generic {{indexing_maps = [{identity}, {to_out}], "
              f"iterator_types = [{iterators}]}} ins({source} : {full}) outs(%init : {out}) {{",
              f"  ^bb0(%in: {dtype}, %acc: {dtype}):",
              f"    %r = {combiner} %in, %acc : {dtype}",
              f"    linalg.yield %r : {dtype}",
              f"  }} -> {out}"]
    result = "%s"
    if kind == "mean":
        result = "%mean"
        count = int(np.prod([shape[i] for i in dims]))
        kept_dims = ", ".join(f"d{i}" for i in range(len(kept)))
        same = f"affine_map<({kept_dims}) -> ({kept_dims})>"
        kept_parallel = ", ".join(['"parallel"'] * len(kept))
        lines += [f"  %n = arith.constant {float(count)} : {dtype}",
                  f"  %mean = linalg.generic {{indexing_maps = [{same}, {same}], "
                  f"iterator_types = [{kept_parallel}]}} "
                  f"ins(%s : {out}) outs(%e : {out}) {{",
                  f"  ^bb0(%in: {dtype}, %o: {dtype}):",
                  f"    %q = arith.divf %in, %n : {dtype}",
                  f"    linalg.yield %q : {dtype}",
                  f"  }} -> {out}"]
    lines += [f"  return {result} : {out}", "}"]
    return "\n".join(lines) + "\n"


def operands(shape: tuple[int, ...], dtype: str, product: bool = False,
             seed: int = 36) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32).astype(NUMPY[dtype])
            for _ in range(1 + product)]


def expected(args: list[np.ndarray], dims: tuple[int, ...], kind: str) -> np.ndarray:
    """The float64 value rounded once to the type (a product rounded to the type first, as
    the generic writes it)."""
    x = args[0].astype(np.float64)
    if len(args) > 1:
        x = (x * args[1].astype(np.float64)).astype(args[0].dtype).astype(np.float64)
    value = {"sum": x.sum, "mean": x.mean, "amax": x.max}[kind](axis=dims)
    return np.asarray(value).astype(args[0].dtype)


def lane_rows(kernel: runner.Kernel) -> list[Rows]:
    return [Rows.from_attr(op.attributes["hsg.rows"]) for op in kernel.module.walk()
            if op.name == "func.func" and "hsg.rows" in op.attributes]


CASES = {  # case: x's shape, reduced dims, dtype, kind, x * y first, SoC
    "sum0_f32": ((16, 128), (0,), "f32", "sum", False, "ascend910b"),
    "sum0_f16": ((16, 128), (0,), "f16", "sum", False, "ascend910b"),
    "mean0_bf16": ((12, 192), (0,), "bf16", "mean", False, "ascend910b"),
    "amax0_f16": ((7, 64), (0,), "f16", "amax", False, "ascend910b"),
    "product_sum0_f16_950": ((9, 128), (0,), "f16", "sum", True, "ascend950"),
    "sum_dim1_3d_f32": ((3, 5, 128), (1,), "f32", "sum", False, "ascend910b"),
    "sum_dims01_3d_bf16": ((4, 3, 64), (0, 1), "bf16", "sum", False, "ascend950"),
    "sum_nchw_1x1_f32": ((4, 128, 1, 1), (0, 2, 3), "f32", "sum", False, "ascend910b"),
    "amax_dim0_3d_f32_950": ((5, 2, 64), (0,), "f32", "amax", False, "ascend950"),
    "mean0_f16_950": ((9, 192), (0,), "f16", "mean", False, "ascend950"),
    # more runs than one chunk holds: in segments of whole runs (hswc.rows: Lanes)
    "long_sum0_f16": ((1000, 128), (0,), "f16", "sum", False, "ascend910b"),
    "long_sum0_f32": ((900, 128), (0,), "f32", "sum", False, "ascend910b"),
    "long_mean0_bf16_950": ((1000, 64), (0,), "bf16", "mean", False, "ascend950"),
    "long_amax_dim1_3d_f16": ((2, 700, 64), (1,), "f16", "amax", False, "ascend910b"),
    "long_product_sum0_f32_950": ((600, 128), (0,), "f32", "sum", True, "ascend950"),
    # columns not a multiple of 64: each group's last row of lanes narrower (hswc.rows: Lanes)
    "sum0_tail_f32": ((16, 100), (0,), "f32", "sum", False, "ascend910b"),
    "mean_dim1_tail_f16": ((3, 5, 70), (1,), "f16", "mean", False, "ascend910b"),
    "amax0_tail_bf16_950": ((7, 200), (0,), "bf16", "amax", False, "ascend950"),
    "sum0_narrow_f32": ((9, 24), (0,), "f32", "sum", False, "ascend910b"),
    "long_sum0_tail_f16": ((1000, 100), (0,), "f16", "sum", False, "ascend910b"),
}
DEFAULT = ("sum0_f16", "mean0_bf16", "product_sum0_f16_950", "sum_dim1_3d_f32",
           "sum_nchw_1x1_f32", "long_sum0_f16", "long_amax_dim1_3d_f16", "sum0_tail_f32",
           "mean_dim1_tail_f16")
SEGMENTED = {c for c in CASES if c.startswith("long_")}
"""The cases in segments (A2 holds about 380 runs of 64 f32 of a sum's row in one chunk)."""


@pytest.mark.parametrize("case", [pytest.param(c, marks=[] if c in DEFAULT
                                               else [pytest.mark.sweep]) for c in CASES])
def test_a_per_column_reduction_is_a_lane_kernel_within_tolerance_and_bit_exact(
        case: str) -> None:
    shape, dims, dtype, kind, product, soc = CASES[case]
    args = operands(shape, dtype, product)
    want = expected(args, dims, kind)
    text = reduction(shape, dims, dtype, kind, product)
    got = {}
    for level in (("linalg",) if dtype == "f32" and case not in SEGMENTED else ()) + LEVELS:
        with collecting() as said:
            kernel = runner.compile_text(text, level=level, core_num=2, soc=soc)
        got[level] = kernel.run(*args).outputs[0]
        within = compare_tolerance(got[level], want)
        assert within.equal, f"{level}: {within.summary()}"
        if level == "linalg":
            continue
        (rows,) = lane_rows(kernel)
        runs = int(np.prod([shape[d] for d in dims]))
        assert (rows.lanes, rows.runs, rows.inputs, rows.outputs) == (
            64, runs, ("element",) * len(args), ("row",)), level
        if case in SEGMENTED:
            assert rows.segment is not None and rows.segment % 64 == 0 \
                and rows.segment < rows.length and not rows.online, rows
        else:
            assert rows.segment is None, rows
        assert not [r for r in said if "host" in r.text], said
    assert got["ascend"].tobytes() == got["blocked"].tobytes() == got["tiled"].tobytes()


def test_the_lane_sum_is_the_fold_tree_over_the_runs_of_each_column() -> None:
    """Five rows, one column block: levels fold row 3 into 0 and 4 into 1, then 2 into 0, then
    1 into 0, so column 0 of (1e8, 1, -1e8, 3, 1) sums in f32 to (1e8 + 3) + -1e8 + (1 + 1)
    = 2 (1e8 + 3 rounds to 1e8; MLIR's sequential loop gives 4, the exact sum is 5); the other
    columns are exact."""
    x = np.zeros((5, 64), dtype=np.float32)
    x[:, 0] = [1e8, 1, -1e8, 3, 1]
    x[:, 1:] = np.arange(63, dtype=np.float32)
    kernel = runner.compile_text(reduction((5, 64), (0,), "f32"), level="ascend")
    got = kernel.run(x).outputs[0]
    assert got[0] == 2.0
    assert got[1:].tolist() == (np.arange(63) * 5.0).tolist()


CPU = ("long_sum0_tail_f16", "long_sum0_f16", "sum0_f16", "mean0_f16_950",
       "product_sum0_f16_950", "long_mean0_bf16_950", "mean_dim1_tail_f16",
       "amax0_tail_bf16_950")
"""CASES built against the CPU model: the first by default (in segments, its second row of
lanes 36 columns wide), the rest swept."""
CPU_DEFAULT = ("long_sum0_tail_f16",)
FLAGS = {"ascend910b": (), "ascend950": tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])}


@pytest.mark.parametrize("case", [pytest.param(c, marks=[] if c in CPU_DEFAULT
                                               else [pytest.mark.sweep]) for c in CPU])
def test_cpu_build_equals_the_interpreter(case: str, tmp_path: Path) -> None:
    """The emitted C++ compiled against the CPU model of AscendC, run with --auto-sync off on 2
    cores: the interpreter's bits, and within tolerance of the float64 model."""
    from hswc.backend.source import kernel_source

    shape, dims, dtype, kind, product, soc = CASES[case]
    args = operands(shape, dtype, product)
    text = reduction(shape, dims, dtype, kind, product, name=case)
    lowered = runner.compile_text(text, level="ascend", core_num=2, soc=soc)
    result = lowered.run(*args)
    (record,) = result.tilings
    assert record is not None
    source = tmp_path / f"{case}.cpp"
    source.write_text(kernel_source(runner.compile_text(text, core_num=2, soc=soc).module))
    executable = Build(source, tmp_path / case, (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                                                 f"-DHSWC_GM_INPUTS={len(args)}"))
    build([executable])
    want = np.asarray(result.outputs[0])
    on_cpu = run_recorded(executable.output, record, args, PLATFORMS[soc].ub_size,
                          tmp_path / "run", shape=want.shape)
    assert on_cpu.tobytes() == want.tobytes(), "C++ != interpreter"
    within = compare_tolerance(on_cpu, expected(args, dims, kind))
    assert within.equal, within.summary()


def test_a_column_operand_keeps_the_sum_on_the_host_with_a_remark() -> None:
    """x.sum(0) of x * w with w one value per row of x (read through (d0, d1) -> (d0, 0)): as
    rows of 64 lanes, w would be a value per run, which the kernel does not take; the sum stays
    on the host, one remark says why, and the result is still right."""
    text = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#w = affine_map<(d0, d1) -> (d0, 0)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @f(%x: tensor<8x64xf32>, %w: tensor<8x1xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #w, #out],
      iterator_types = ["reduction", "parallel"]}
      ins(%x, %w : tensor<8x64xf32>, tensor<8x1xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}
"""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 64)).astype(np.float32)
    w = rng.standard_normal((8, 1)).astype(np.float32)
    with collecting() as said:
        kernel = runner.compile_text(text, level="ascend")
    assert not lane_rows(kernel)
    assert any("a column operand" in r.text for r in said), said
    want = (x.astype(np.float64) * w).sum(0).astype(np.float32)
    assert compare_tolerance(kernel.run(x, w).outputs[0], want).equal


SPLITS = {  # case: x's shape, reduced dims, dtype, SoC, (runs, stride) of each kernel's rows
    "sum0_f16": ((4096, 128), (0,), "f16", "ascend910b", [(128, 128), (32, 128)]),
    "sum0_tail_f16": ((4096, 100), (0,), "f16", "ascend910b", [(128, 100), (32, 100)]),
    "sum_dim1_3d_bf16_950": ((2, 2048, 192), (1,), "bf16", "ascend950",
                             [(128, 192), (16, 192)]),
}


@pytest.mark.parametrize("case", [pytest.param(c, marks=[] if c == "sum0_f16"
                                               else [pytest.mark.sweep]) for c in SPLITS])
def test_few_column_blocks_over_long_columns_are_split_in_pieces_of_runs(case: str) -> None:
    """x.sum(0) of [4096, 128] f16 on A2's 48 cores (folded at compile time): 2 rows of lanes
    would leave 46 cores idle, so the runs are cut in 32 pieces of 128 (hswc.passes.row_split:
    Lanes): a partial kernel of 64 rows writing [32, 128] f32 partials, then a kernel of 2 rows
    combining each column's 32 partials and rounding once to f16. A middle dim on the 950 (64
    cores): [2, 2048, 192] over dim 1 as [32, 128, 192], then [2, 16, 192]. Within tolerance of
    float64; tiled = blocked = ascend bit for bit."""
    shape, dims, dtype, soc, expected_rows = SPLITS[case]
    args = operands(shape, dtype)
    want = expected(args, dims, "sum")
    got = {}
    for level in LEVELS:
        with collecting() as said:
            kernel = runner.compile_text(reduction(shape, dims, dtype), level=level, soc=soc)
        assert [(r.runs, r.stride) for r in lane_rows(kernel)] == expected_rows, level
        assert any("the first of two" in r.text and "runs of each of the" in r.text
                   for r in said), said
        got[level] = kernel.run(*args).outputs[0]
        within = compare_tolerance(got[level], want)
        assert within.equal, f"{level}: {within.summary()}"
    assert got["ascend"].tobytes() == got["blocked"].tobytes() == got["tiled"].tobytes()
