"""Reductions over leading dims whose runs are not whole 32-byte blocks (issue 36: MobileNetV3's
7 x 7 and 14 x 14 maps) as row kernels: each run lands in UB padded to whole blocks
(hswc.rows `padded_run`), each reduction writes its identity over the padding of its source
first, and every level combines a row as its runs padded with the identity
(hswc.reduction_order.padded_runs).

Checked: the tiled, blocked and ascend levels bit-equal to each other and within tolerance of
an independent numpy model (float64 sum rounded once; the maximum exact), for sums and maxima
in f32, f16 and bf16 and a BatchNorm-backward sum with its producers fused; the padded copy
and the padding's masked Duplicate in the lowered IR; what still stays on the host (element
operands whose types pad a run to different lengths) says so in a remark; hswc-emit packages
such a kernel (Atlas A2; Ascend 950 in the sweep), its unit test passing on the CPU model; an
element output beside the channel sum (x * g and the sum of it, x - s[c] and s) is one kernel,
right at every level."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import build_unit_test
from family_packages import unit_test_array
from test_leading_reductions import bn_inputs, bn_reference, bn_sums

from hswc.platform import PLATFORMS
from hswc.reduction_order import padded_runs, reduce_lanes, reduce_rows
from hswc.reference import compare_tolerance
from hswc.remarks import collecting
from hswc.rows import Rows
from hswc.runner import compile_text
from hswc.tools.hswc_emit import main as emit

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
LEVELS = ("tiled", "blocked", "ascend")
COMBINERS = {"sum": ("arith.addf", "0.0"), "max": ("arith.maximumf", "0xFF800000")}


def reduction(shape: tuple[int, int, int, int], dtype: str, kind: str) -> str:
    """x.sum(dim=(0, 2, 3)) or x.amax(dim=(0, 2, 3)) of an [N, C, H, W] x, as torch-mlir
    writes it."""
    n, c, h, w = shape
    op, init = COMBINERS[kind]
    if kind == "max" and dtype != "f32":
        init = {"f16": "0xFC00", "bf16": "0xFF80"}[dtype]
    full, out = f"tensor<{n}x{c}x{h}x{w}x{dtype}>", f"tensor<{c}x{dtype}>"
    return f"""
func.func @{kind}_nhw(%x: {full}) -> {out} {{
  %z = arith.constant {init} : {dtype}
  %e = tensor.empty() : {out}
  %f = linalg.fill ins(%z : {dtype}) outs(%e : {out}) -> {out}
  %r = linalg.generic {{indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
      affine_map<(n, c, h, w) -> (c)>],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}}
      ins(%x : {full}) outs(%f : {out}) {{
  ^bb0(%a: {dtype}, %b: {dtype}):
    %s = {op} %a, %b : {dtype}
    linalg.yield %s : {dtype}
  }} -> {out}
  return %r : {out}
}}
"""


def _strided(kernel: object) -> list[Rows]:
    return [Rows.from_attr(op.attributes["hsg.rows"])
            for op in kernel.module.walk()  # type: ignore[attr-defined]
            if op.name == "func.func" and "hsg.rows" in op.attributes
            and Rows.from_attr(op.attributes["hsg.rows"]).runs > 1]


CASES = [((8, 16, 7, 7), "f32", 56), ((4, 8, 3, 3), "f16", 16), ((2, 24, 14, 14), "bf16", 208)]
"""Shape, type and each run's elements in UB: 49 f32 (196 bytes) padded to 56, 9 f16 to 16,
196 bf16 (392 bytes) to 208."""


@pytest.mark.parametrize("kind", list(COMBINERS))
@pytest.mark.parametrize(("shape", "dtype", "padded"), CASES)
def test_a_reduction_of_runs_not_whole_blocks_is_a_kernel_equal_at_every_level(
        shape: tuple[int, int, int, int], dtype: str, padded: int, kind: str) -> None:
    n, c, h, w = shape
    rng = np.random.default_rng(n * c + h)
    x = rng.standard_normal(shape).astype(NUMPY[dtype])
    wide = x.astype(np.float64)
    want = (wide.sum(axis=(0, 2, 3)) if kind == "sum" else wide.max(axis=(0, 2, 3))).astype(
        NUMPY[dtype])
    results = {}
    for level in LEVELS:
        with collecting() as remarks:
            kernel = compile_text(reduction(shape, dtype, kind), level=level)
        assert _strided(kernel) == [Rows(n * h * w, ("element",), ("row",), n, c * h * w,
                                         padded_run=padded)], level
        assert not any("stays on the host" in str(r) and "linalg.generic" in str(r)
                       and "fill" not in str(r) for r in remarks), remarks
        results[level] = got = kernel.run(x).outputs[0]
        within = compare_tolerance(got, want)
        assert within.equal, f"{level}: {within.summary()}"
    assert results["tiled"].tobytes() == results["blocked"].tobytes()
    assert results["ascend"].tobytes() == results["blocked"].tobytes()


def test_a_batchnorm_backward_sum_of_7x7_maps_with_its_producers_is_one_kernel() -> None:
    """grad * ((x - mean) * invstd) summed over N, H, W of [4, 16, 7, 7] f32, then halved: one
    kernel of 4 runs of 49 padded to 56 (the pads of the product are garbage until the sum
    writes -0.0 over them), every level bit-equal and within tolerance of float64."""
    shape = (4, 16, 7, 7)
    inputs = bn_inputs(shape, "f32")
    results = {}
    for level in LEVELS:
        kernel = compile_text(bn_sums(shape, "f32"), level=level)
        assert [r.padded_run for r in _strided(kernel)] == [56], level
        results[level] = got = kernel.run(*inputs).outputs[0]
        within = compare_tolerance(got, bn_reference(inputs, "f32"))
        assert within.equal, f"{level}: {within.summary()}"
    assert results["ascend"].tobytes() == results["blocked"].tobytes() \
        == results["tiled"].tobytes()


def test_the_lowered_kernel_copies_each_run_padded_and_writes_the_identity_over_it() -> None:
    """Each of the 8 runs is one DataCopyPad of 196 bytes a row, 56 f32 apart in UB; the max's
    padding (lanes 49 to 55: lane 1 of the block at 48, 7 lanes) takes -inf, one Duplicate a
    row repeated over its 8 runs, 7 blocks apart."""
    text = str(compile_text(reduction((8, 16, 7, 7), "f32", "max"), level="ascend").module)
    copies = [line for line in text.splitlines() if "ascend.data_copy_pad" in line
              and "%c196 blocks" in line]
    assert len(copies) == 8, copies
    assert "ascend.local_at %x_local[%c392" in text  # the 8th run at 7 * 56
    pads = [line for line in text.splitlines() if "ascend.duplicate_lanes_repeat" in line]
    assert len(pads) == 1 and "0xff800000" in pads[0], pads  # -inf
    assert "dst_rep_stride = 7" in pads[0], pads


def test_runs_padded_further_apart_than_a_repeat_stride_take_a_duplicate_each() -> None:
    """47 x 47 maps: runs of 2209 f32 padded to 2216, 277 blocks apart, past a repeat's
    uint8 stride: one masked Duplicate a run (row_emit._pad_each_run), not one repeated a row;
    the ascend level bit-equal to the blocked one and within tolerance of float64."""
    shape = (2, 4, 47, 47)
    x = np.random.default_rng(47).standard_normal(shape).astype(np.float32)
    lowered, blocked = (compile_text(reduction(shape, "f32", "sum"), level=level)
                        for level in ("ascend", "blocked"))
    pads = [line for line in str(lowered.module).splitlines() if "ascend.duplicate_lanes" in line]
    assert len(pads) == 1 and "duplicate_lanes_repeat" not in pads[0], pads
    got = lowered.run(x).outputs[0]
    assert got.tobytes() == blocked.run(x).outputs[0].tobytes()
    exact = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    assert compare_tolerance(got, exact).equal


def test_padded_runs_pads_each_run_with_the_identity() -> None:
    values = np.arange(6, dtype=np.float32).reshape(1, 6)
    got = padded_runs(values, "maximumf", 2, 4)
    assert got.tolist() == [[0, 1, 2, -np.inf, 3, 4, 5, -np.inf]]
    assert np.signbit(padded_runs(values, "addf", 3, 3)[0, 2])  # -0.0 for the sum


MIXED = """
func.func @mixed(%x: tensor<2x4x2x3xf32>, %g: tensor<2x4x2x3xf16>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
      affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x4x2x3xf32>, tensor<2x4x2x3xf16>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f16, %acc: f32):
    %w = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %w : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_runs_padded_to_different_lengths_in_their_types_stay_on_the_host() -> None:
    """Runs of 6: 8 in f32, 16 in f16, so no one UB layout; the host sums, with a remark."""
    with collecting() as remarks:
        kernel = compile_text(MIXED, level="ascend")
    assert not _strided(kernel)
    assert any("reads each row as 2 runs of 6 elements (24 bytes), not whole 32-byte blocks, "
               "and its element operands' types pad a run to whole blocks of different "
               "lengths" in str(r) for r in remarks), remarks
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 4, 2, 3)).astype(np.float32)
    g = rng.standard_normal((2, 4, 2, 3)).astype(np.float16)
    want = (x.astype(np.float64) * g).sum(axis=(0, 2, 3)).astype(np.float32)
    assert compare_tolerance(kernel.run(x, g).outputs[0], want).equal


@pytest.mark.parametrize("soc", ["ascend910b",
                                 pytest.param("ascend950", marks=pytest.mark.sweep)])
def test_a_sum_of_padded_runs_is_packaged_and_its_unit_test_passes(
        soc: str, tmp_path: Path) -> None:
    """x.sum(dim=(0, 2, 3)) of [8, 16, 7, 7] f32 packaged by hswc-emit: the kernel copies its
    runs padded; the unit test's goldens (hswc-run's) within tolerance of float64, and the
    kernel unit test passes on the CPU model of AscendC (bit for bit against them)."""
    module = tmp_path / "bn_sum.mlir"
    module.write_text(reduction((8, 16, 7, 7), "f32", "sum"))
    out = tmp_path / "bn_sum"
    assert emit([str(module), "--name", "BnSum", "--soc", soc, "-o", str(out)]) == 0
    suffix = "_apt" if soc == "ascend950" else ""
    kernel = (out / "op_kernel" / ("arch35/" if suffix else "") / "bn_sum.h").read_text()
    assert "AscendC::Duplicate(xLocal[paddedRow * 448 + 48], -0.0f, laneMask, 8, 1, 7);" \
        in kernel  # a row's 8 paddings, 7 blocks apart
    source = out / "tests" / "ut" / "op_kernel" / f"test_bn_sum{suffix}.cpp"
    test = source.read_text()
    x = unit_test_array(test, "x", "f32").reshape(8, 16, 7, 7)
    exact = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    assert compare_tolerance(unit_test_array(test, "expected", "f32"), exact).equal
    arch35 = ("-DASCENDC_CPU_DAV_3510", f"-DHSWC_UT_UB_BYTES={PLATFORMS['ascend950'].ub_size}")
    build_unit_test(source, tmp_path / "ut", arch35 if soc == "ascend950" else ())
    done = subprocess.run([str(tmp_path / "ut")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr


def beside(shape: tuple[int, int, int, int], dtype: str, form: str) -> str:
    """An element output beside the channel sum, returned both, as torch-mlir writes them:
    `product`: (x * g, (x * g).sum((0, 2, 3))); `centred`: (x - s[None, :, None, None], s)
    with s = x.sum((0, 2, 3)), the element output reading the sum."""
    n, c, h, w = shape
    full, out = f"tensor<{n}x{c}x{h}x{w}x{dtype}>", f"tensor<{c}x{dtype}>"
    par4 = '["parallel", "parallel", "parallel", "parallel"]'
    head = f"""
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @{form}(%x: {full}, %g: {full}) -> ({full}, {out}) {{
  %z = arith.constant 0.0 : {dtype}
  %e = tensor.empty() : {out}
  %ef = tensor.empty() : {full}
  %f = linalg.fill ins(%z : {dtype}) outs(%e : {out}) -> {out}
"""
    if form == "product":
        return head + f"""
  %p = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = {par4}}}
      ins(%x, %g : {full}, {full}) outs(%ef : {full}) {{
  ^bb0(%a: {dtype}, %b: {dtype}, %o: {dtype}):
    %r = arith.mulf %a, %b : {dtype}
    linalg.yield %r : {dtype}
  }} -> {full}
  %s = linalg.generic {{indexing_maps = [#id, #ch],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}}
      ins(%p : {full}) outs(%f : {out}) {{
  ^bb0(%a: {dtype}, %acc: {dtype}):
    %r = arith.addf %a, %acc : {dtype}
    linalg.yield %r : {dtype}
  }} -> {out}
  return %p, %s : {full}, {out}
}}
"""
    return head + f"""
  %s = linalg.generic {{indexing_maps = [#id, #id, #ch],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}}
      ins(%x, %g : {full}, {full}) outs(%f : {out}) {{
  ^bb0(%a: {dtype}, %b: {dtype}, %acc: {dtype}):
    %r = arith.addf %a, %acc : {dtype}
    linalg.yield %r : {dtype}
  }} -> {out}
  %y = linalg.generic {{indexing_maps = [#id, #ch, #id], iterator_types = {par4}}}
      ins(%x, %s : {full}, {out}) outs(%ef : {full}) {{
  ^bb0(%a: {dtype}, %b: {dtype}, %o: {dtype}):
    %r = arith.subf %a, %b : {dtype}
    linalg.yield %r : {dtype}
  }} -> {full}
  return %y, %s : {full}, {out}
}}
"""


def beside_expected(form: str, x: np.ndarray, g: np.ndarray, s: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The element output (numpy in the type, from the kernel's own sum `s` for `centred`)
    and the exact sum rounded once (float64)."""
    if form == "product":
        p = x * g
        return p, p.astype(np.float64).sum(axis=(0, 2, 3)).astype(x.dtype)
    return x - s[None, :, None, None], x.astype(np.float64).sum(axis=(0, 2, 3)).astype(x.dtype)


BESIDE = [((2, 4, 4, 8), "f32", None), ((8, 16, 7, 7), "f32", 56), ((4, 8, 3, 3), "f16", 16)]
"""Runs of 32 f32 (whole blocks), of 49 f32 padded to 56, of 9 f16 padded to 16."""


@pytest.mark.parametrize("form", ["product", "centred"])
@pytest.mark.parametrize(("shape", "dtype", "padded"), BESIDE)
def test_an_element_output_beside_the_channel_sum_is_one_kernel_right_at_every_level(
        shape: tuple[int, int, int, int], dtype: str, padded: int | None, form: str) -> None:
    """One row kernel writing the sum (a row value) and the element output (its rows' runs
    written back to their strided places: hswc.interpreter.row_functions `_write`, which the
    tiled and blocked levels failed at with a numpy broadcast error): the element output
    bit-equal to numpy, the sum within tolerance of float64, the three levels bit-equal."""
    rng = np.random.default_rng(sum(shape))
    x, g = (rng.standard_normal(shape).astype(NUMPY[dtype]) for _ in range(2))
    results = {}
    for level in LEVELS:
        kernel = compile_text(beside(shape, dtype, form), level=level)
        (rows,) = _strided(kernel)
        assert (sorted(rows.outputs), rows.padded_run) == (["element", "row"], padded), level
        element, total = kernel.run(x, g).outputs
        want_element, want_total = beside_expected(form, x, g, total)
        assert element.tobytes() == want_element.tobytes(), level
        within = compare_tolerance(total, want_total)
        assert within.equal, f"{level}: {within.summary()}"
        results[level] = element.tobytes() + total.tobytes()
    assert results["tiled"] == results["blocked"] == results["ascend"]


def _two_stage(x: np.ndarray, parts: int, padded: int) -> np.ndarray:
    """The sum over N, H, W split across the runs (hswc.reduction_order, the split's two
    stages), independently of the kernels: piece p of channel c is runs [p * N / parts,
    +N / parts), each padded with -0.0 to `padded`, summed as a row (reduce_rows); channel c's
    `parts` partials then summed lane by lane (reduce_lanes), rounded once to x's type."""
    n, c, h, w = x.shape
    pieces = x.astype(np.float32).reshape(parts, n // parts, c, h * w).transpose(0, 2, 1, 3)
    rows = padded_runs(pieces.reshape(parts, c, -1), "addf", n // parts, padded)
    partials = reduce_rows(rows, "addf")  # (parts, c)
    return reduce_lanes(partials, "addf").astype(x.dtype)


SPLITS = [((256, 2, 7, 7), "f32", 32, 56), ((128, 4, 14, 14), "f16", 16, 208)]
"""Shape, type, pieces of each row's runs, a run's elements in UB: 2 channels of 256 runs of
49 f32 on 48 cores in 32 pieces of 8 runs (64 rows); 4 channels of 128 runs of 196 f16 in 16
pieces of 8 runs."""


@pytest.mark.parametrize(("shape", "dtype", "parts", "padded"), SPLITS)
def test_padded_runs_of_too_few_channels_are_split_across_their_runs_where_the_model_gains(
        shape: tuple[int, int, int, int], dtype: str, parts: int, padded: int) -> None:
    """A partial kernel of grouped rows (hswc.rows: each row `runs` / parts whole runs, padded
    as one kernel's, copied by one DataCopyPad) writing [parts, C] f32 partials, then a kernel
    of rows of lanes summing each channel's column of them (hswc.passes.row_split: Padded
    runs): every level bit-equal to the two-stage order's numpy model and within tolerance of
    float64."""
    n, c, h, w = shape
    x = np.random.default_rng(n + c).standard_normal(shape).astype(NUMPY[dtype])
    want = _two_stage(x, parts, padded)
    exact = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(NUMPY[dtype])
    for level in LEVELS:
        with collecting() as remarks:
            kernel = compile_text(reduction(shape, dtype, "sum"), level=level)
        partial, combining = _strided(kernel)
        assert partial == Rows(n // parts * h * w, ("element",), ("row",), n // parts,
                               c * h * w, one_per_chunk=True, padded_run=padded,
                               grouped=True), level
        assert (combining.runs, combining.stride, combining.lanes) == (parts, c, 64), level
        assert any(f"the {n} runs of each of the {c} rows cut in {parts} pieces" in str(r)
                   for r in remarks), remarks
        got = kernel.run(x).outputs[0]
        assert got.tobytes() == want.tobytes(), level
        within = compare_tolerance(got, exact)
        assert within.equal, f"{level}: {within.summary()}"


def test_padded_runs_stay_one_kernel_where_the_second_launch_costs_more_than_it_gains() -> None:
    """[8, 16, 7, 7] f32 (16 channels on 48 cores): the split in 4 pieces of 2 runs is timed
    faster than one kernel but for the second launch (hswc.cost_model: launch_cycles), so it
    stays one kernel, a remark naming both modelled times."""
    with collecting() as remarks:
        kernel = compile_text(reduction((8, 16, 7, 7), "f32", "sum"), level="tiled")
    assert [r.padded_run for r in _strided(kernel)] == [56]
    said = [str(r) for r in remarks if "the cost model times one kernel at" in str(r)]
    assert len(said) == 1 and "the two launches of 4 pieces of its runs at" in said[0], remarks


def test_a_grouped_rows_attribute_needs_one_per_chunk_and_runs() -> None:
    rows = Rows(98, ("element",), ("row",), 2, 784, one_per_chunk=True, padded_run=56,
                grouped=True)
    assert Rows.from_attr(rows.to_attr()) == rows
    with pytest.raises(ValueError, match="`grouped` must be a unit attribute"):
        Rows.from_attr(replace(rows, one_per_chunk=False).to_attr())
