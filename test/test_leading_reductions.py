"""Reductions over leading dims as kernels (issue 36): a sum over N, H and W keeping C is a row
kernel whose rows (the channels) are strided runs (hswc.rows' `runs` and `stride`): each core
owns a set of channels and reduces all of their data, a channel's N runs of H*W elements copied
by one DataCopyPad per run index, accumulated in f32 in the kernel's fold order.

Checked against outside oracles: torch-mlir's export of `x.sum(dim=(0, 2, 3))` equals MLIR's
execution (`out0`, f32) and PyTorch's (`torch0`, f32, f16, bf16) within assert_close's default
tolerance, at the tiled, blocked and ascend levels; a BatchNorm-backward sum with its producers
(grad * (x - mean) * invstd) and a consumer fused equals a float64 numpy model; the ascend level
equals the blocked level bit for bit on Atlas A2 and Ascend 950. What the copy by runs cannot
take (runs that are not whole 32-byte blocks) stays on the host with a remark, and still gives
the right result there.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.reference import compare_tolerance
from hswc.remarks import collecting
from hswc.rows import Rows
from hswc.runner import CompileError, compile_file, compile_text

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models"
NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
LEVELS = ("tiled", "blocked", "ascend")


def _row_kernels(kernel: object) -> list[Rows]:
    """The rows descriptions of the module's row kernels, in module order."""
    return [Rows.from_attr(op.attributes["hsg.rows"])
            for op in kernel.module.walk()  # type: ignore[attr-defined]
            if op.name == "func.func" and "hsg.rows" in op.attributes]


def _strided_kernels(kernel: object) -> list[Rows]:
    """The rows descriptions of the module's row kernels whose rows are strided runs."""
    return [rows for rows in _row_kernels(kernel) if rows.runs > 1]


@pytest.mark.parametrize("dtype", list(NUMPY))
def test_the_export_of_a_sum_over_n_h_w_is_a_kernel_equal_to_mlir_and_pytorch(
        dtype: str) -> None:
    """x (2, 8, 4, 4): 8 rows (channels) of 2 runs of 16 elements, 128 apart. 8 channels on
    48 cores: in f32 each run is cut in 2 pieces of 8 (32 bytes), a partial kernel over 16 rows
    and a second one combining 2 partials a channel (hswc.passes.row_split); in f16 and bf16
    a piece would be less than a 32-byte block, so one kernel on 8 cores. MLIR's f16 and bf16
    loop sums in the type itself (3 and 12 ulp from PyTorch here); the kernel sums in f32 as
    PyTorch does, so it is held to PyTorch there, and to both in f32."""
    path = FIXTURES / "reductions" / f"sum_dims023_{dtype}.mlir"
    data = np.load(path.with_suffix(".npz"))
    x = data["in0"].view(NUMPY[dtype])
    results = {}
    for level in LEVELS:
        kernel = compile_file(path, level=level)
        want = ([Rows(16, ("element",), ("row",), 2, 128), Rows(2, ("element",), ("row",))]
                if dtype == "f32" else [Rows(32, ("element",), ("row",), 2, 128)])
        assert _row_kernels(kernel) == want, level
        results[level] = got = kernel.run(x).outputs[0]
        for oracle in ("out0", "torch0") if dtype == "f32" else ("torch0",):
            within = compare_tolerance(got, data[oracle].view(NUMPY[dtype]))
            assert within.equal, f"{level} against {oracle}: {within.summary()}"
    assert results["ascend"].tobytes() == results["blocked"].tobytes()


def bn_sums(shape: tuple[int, int, int, int], dtype: str) -> str:
    """BatchNorm backward's second sum as torch-mlir writes it, by hand: sum over N, H, W of
    grad * ((x - mean) * invstd), mean and invstd read as (1, C, 1, 1), and a consumer (the
    sum times 0.5) after."""
    n, c, h, w = shape
    full = f"tensor<{n}x{c}x{h}x{w}x{dtype}>"
    channel = f"tensor<1x{c}x1x1x{dtype}>"
    out = f"tensor<{c}x{dtype}>"
    par4 = '["parallel", "parallel", "parallel", "parallel"]'
    return f"""
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#out = affine_map<(d0, d1, d2, d3) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @bn_sums(%grad: {full}, %x: {full}, %mean: {channel}, %invstd: {channel}) -> {out} {{
  %zero = arith.constant 0.0 : {dtype}
  %half = arith.constant 0.5 : {dtype}
  %e = tensor.empty() : {full}
  %xhat = linalg.generic {{indexing_maps = [#id, #ch, #ch, #id], iterator_types = {par4}}}
      ins(%x, %mean, %invstd : {full}, {channel}, {channel}) outs(%e : {full}) {{
  ^bb0(%a: {dtype}, %m: {dtype}, %s: {dtype}, %o: {dtype}):
    %d = arith.subf %a, %m : {dtype}
    %r = arith.mulf %d, %s : {dtype}
    linalg.yield %r : {dtype}
  }} -> {full}
  %prod = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = {par4}}}
      ins(%grad, %xhat : {full}, {full}) outs(%e : {full}) {{
  ^bb0(%g: {dtype}, %xh: {dtype}, %o: {dtype}):
    %r = arith.mulf %g, %xh : {dtype}
    linalg.yield %r : {dtype}
  }} -> {full}
  %c = tensor.empty() : {out}
  %init = linalg.fill ins(%zero : {dtype}) outs(%c : {out}) -> {out}
  %sum = linalg.generic {{indexing_maps = [#id, #out],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}}
      ins(%prod : {full}) outs(%init : {out}) {{
  ^bb0(%in: {dtype}, %acc: {dtype}):
    %r = arith.addf %in, %acc : {dtype}
    linalg.yield %r : {dtype}
  }} -> {out}
  %y = linalg.generic {{indexing_maps = [#v, #v], iterator_types = ["parallel"]}}
      ins(%sum : {out}) outs(%c : {out}) {{
  ^bb0(%in: {dtype}, %o: {dtype}):
    %r = arith.mulf %in, %half : {dtype}
    linalg.yield %r : {dtype}
  }} -> {out}
  return %y : {out}
}}
"""


def bn_inputs(shape: tuple[int, int, int, int], dtype: str) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(shape))
    c = shape[1]
    return [rng.standard_normal(shape).astype(NUMPY[dtype]),
            rng.standard_normal(shape).astype(NUMPY[dtype]),
            rng.standard_normal((1, c, 1, 1)).astype(NUMPY[dtype]),
            (rng.random((1, c, 1, 1)) + 0.5).astype(NUMPY[dtype])]


def bn_reference(inputs: list[np.ndarray], dtype: str) -> np.ndarray:
    """The exact value (float64) rounded once to the type; the body's steps rounded to the
    type as the generics write them (f16, bf16: each step is rounded in the export too)."""
    grad, x, mean, invstd = (a.astype(np.float64) for a in inputs)
    t = NUMPY[dtype]
    xhat = ((x - mean).astype(t).astype(np.float64) * invstd).astype(t).astype(np.float64)
    prod = (grad * xhat).astype(t).astype(np.float64)
    return (prod.sum(axis=(0, 2, 3)).astype(t).astype(np.float64) * 0.5).astype(t)


BN_CASES = [((3, 5, 4, 8), "f32"), ((2, 6, 4, 4), "f16"), ((4, 3, 2, 16), "bf16"),
            ((2, 70, 8, 8), "f32")]
"""(2, 70, 8, 8): more channels than 48 cores, so a core owns two."""


@pytest.mark.parametrize(("shape", "dtype"), BN_CASES)
def test_a_batchnorm_backward_sum_with_its_producers_and_consumer_is_one_kernel(
        shape: tuple[int, int, int, int], dtype: str) -> None:
    inputs = bn_inputs(shape, dtype)
    text = bn_sums(shape, dtype)
    want = bn_reference(inputs, dtype)
    results = {}
    for level in LEVELS:
        with collecting() as remarks:
            kernel = compile_text(text, level=level)
        (rows,) = _strided_kernels(kernel)
        n, c, h, w = shape
        assert rows == Rows(n * h * w, ("element", "element", "row", "row"), ("row",), n,
                            c * h * w), level
        assert any("1 reduction along rows of" in str(r) and f"({n} runs of {h * w}" in str(r)
                   for r in remarks), remarks
        results[level] = got = kernel.run(*inputs).outputs[0]
        within = compare_tolerance(got, want)
        assert within.equal, f"{level}: {within.summary()}"
    assert results["ascend"].tobytes() == results["blocked"].tobytes()


def test_the_channels_split_over_the_cores() -> None:
    """70 channels on 48 cores: 2 a core, 35 cores; on 4 cores 18 a core in chunks the UB
    holds."""
    inputs = bn_inputs((2, 70, 8, 8), "f32")
    text = bn_sums((2, 70, 8, 8), "f32")
    want = bn_reference(inputs, "f32")
    for cores, block, used in ((48, 2, 35), (4, 18, 4)):
        run = compile_text(text, level="ascend", core_num=cores).run(*inputs)
        (tiling,) = run.tilings
        assert (tiling["totalNum"], tiling["blockFactor"], tiling["usedCoreNum"]) == \
            (70, block, used)
        assert compare_tolerance(run.outputs[0], want).equal


@pytest.mark.parametrize(("channels", "parts"), [(48, 1), (24, 2), (8, 8)])
def test_a_sum_over_too_few_channels_for_the_cores_is_split_in_two_kernels(
        channels: int, parts: int) -> None:
    """Channels of 2 runs of 64 f32 on Atlas A2's 48 cores (the split is chosen at compile
    time, for the SoC): 48 channels are one kernel, a channel a core; 24 have each run cut in 2
    pieces (48 partial rows); 8 in 8 (64 rows; pieces of 8 f32, the smallest whole block). The
    result within tolerance of float64, the blocked and ascend levels bit-equal."""
    x = np.random.default_rng(channels).standard_normal((2, channels, 8, 8)).astype(np.float32)
    text = SUM_NHW.format(n=2, c=channels, h=8, w=8)
    want = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    results = {}
    for level in ("blocked", "ascend"):
        kernel = compile_text(text, level=level)
        found = _row_kernels(kernel)
        if parts == 1:
            assert found == [Rows(128, ("element",), ("row",), 2, 64 * channels)]
        else:
            assert found == [Rows(128 // parts, ("element",), ("row",), 2, 64 * channels),
                             Rows(parts, ("element",), ("row",))]
        results[level] = got = kernel.run(x).outputs[0]
        assert compare_tolerance(got, want).equal
    assert results["ascend"].tobytes() == results["blocked"].tobytes()


SUM_NHW = """
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @sum_nhw(%x: tensor<{n}x{c}x{h}x{w}xf32>) -> tensor<{c}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{c}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{c}xf32>) -> tensor<{c}xf32>
  %s = linalg.generic {{indexing_maps = [#id, #ch],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}}
      ins(%x : tensor<{n}x{c}x{h}x{w}xf32>) outs(%init : tensor<{c}xf32>) {{
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }} -> tensor<{c}xf32>
  return %s : tensor<{c}xf32>
}}
"""


@pytest.mark.parametrize("soc", ["ascend950"])
def test_the_ascend_level_on_ascend950_equals_the_blocked_level(soc: str) -> None:
    shape = (2, 6, 4, 4)
    inputs = bn_inputs(shape, "f16")
    text = bn_sums(shape, "f16")
    blocked, lowered = (compile_text(text, level=level, core_num=4, soc=soc)
                        for level in ("blocked", "ascend"))
    assert len(_strided_kernels(lowered)) == 1
    assert lowered.run(*inputs).outputs[0].tobytes() == blocked.run(*inputs).outputs[0].tobytes()


def test_runs_that_are_not_whole_blocks_stay_on_the_host_with_a_remark() -> None:
    """H * W = 6 f32 elements (24 bytes): no kernel, one remark saying why, and the host's
    result is still right."""
    shape = (2, 3, 2, 3)
    inputs = bn_inputs(shape, "f32")
    with collecting() as remarks:
        kernel = compile_text(bn_sums(shape, "f32"), level="ascend")
    assert not _strided_kernels(kernel)
    assert any("reads each row as 2 runs of 6 elements (24 bytes), not whole 32-byte blocks"
               in str(r) for r in remarks), remarks
    assert compare_tolerance(kernel.run(*inputs).outputs[0], bn_reference(inputs, "f32")).equal


def test_a_mobilenet_backward_block_runs_its_batchnorm_backward_in_one_kernel() -> None:
    """torch-mlir's export of conv -> BatchNorm -> hardswish -> conv backward (f32): BatchNorm's
    two sums over N, H, W of 8 channels (2 runs of 64) and the input gradient computed from them
    are one row kernel of three outputs (the two sums a channel, the gradient's elements); it
    is not split in two kernels for the 48 cores (two reductions, and an element output that
    needs each channel's rows whole), which a remark says. Every result within tolerance of
    MLIR's execution and of PyTorch."""
    path = FIXTURES / "models" / "mobilenet_conv_bn_hardswish_conv_backward_f32.mlir"
    data = np.load(path.with_suffix(".npz"))
    inputs = [data[k].view(np.float32) for k in sorted(data) if k.startswith("in")]
    with collecting() as remarks:
        kernel = compile_file(path, level="ascend")
    assert _strided_kernels(kernel) == [
        Rows(128, ("element",) * 3 + ("row",) * 3, ("row", "row", "element"), 2, 512)]
    fused = [r for r in remarks if "(2 reductions along rows of 128 (2 runs of 64, 512 apart);"
             in str(r)]
    unsplit = [r for r in remarks if "gives 8 of the 48 cores a row: not split in two kernels"
               in str(r) and "since it has 2 reductions, not one" in str(r)]
    assert len(fused) == len(unsplit) == 1, remarks
    for i, got in enumerate(kernel.run(*inputs).outputs):
        for oracle in (f"out{i}", f"torch{i}"):
            within = compare_tolerance(got, data[oracle].view(np.float32))
            assert within.equal, f"result {i} against {oracle}: {within.summary()}"


def test_a_kernel_launched_on_operands_of_other_runs_is_refused() -> None:
    """The launch verifier checks the operands against the runs' stride: an input of 3 rows
    where the stride says 5 is one located message."""
    shape = (3, 5, 4, 8)
    text = str(compile_text(bn_sums(shape, "f32"), level="tiled").module)
    bad = text.replace("stride = 160 : i64", "stride = 96 : i64")
    assert bad != text
    with pytest.raises(CompileError, match="runs 96 elements apart are those of 3 rows"):
        compile_text(bad, level="tiled").run(*bn_inputs(shape, "f32"))


def test_a_malformed_runs_attribute_is_one_message() -> None:
    text = str(compile_text(bn_sums((3, 5, 4, 8), "f32"), level="tiled").module)
    bad = text.replace("runs = 3 : i64", "runs = 5 : i64")
    assert bad != text
    with pytest.raises(CompileError, match="needs `runs` dividing the length"):
        compile_text(bad, level="tiled")


SUM_AND_HALF = """
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @sum_and_half(%x: tensor<2x8x8x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x8x8x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %h = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%s : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.mulf %in, %half : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s, %h : tensor<8xf32>, tensor<8xf32>
}
"""


def test_a_split_sum_with_two_results_combines_into_one_kernel_of_two_outputs() -> None:
    """x.sum((0, 2, 3)) and half of it, both returned: 8 channels on 48 cores are split (8
    pieces of 8 f32 a run), and the combining kernel writes both row values (several outputs,
    hsg.outputs = 2). Both against float64 (the sum rounded once, then halved exactly); the
    blocked and ascend levels bit-equal."""
    x = np.random.default_rng(8).standard_normal((2, 8, 8, 8)).astype(np.float32)
    total = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    results = {}
    for level in ("blocked", "ascend"):
        kernel = compile_text(SUM_AND_HALF, level=level)
        assert _row_kernels(kernel) == [Rows(16, ("element",), ("row",), 2, 512),
                                        Rows(8, ("element",), ("row", "row"))], level
        got = kernel.run(x).outputs
        assert len(got) == 2
        for value, want in zip(got, (total, total * np.float32(0.5)), strict=True):
            within = compare_tolerance(value, want)
            assert within.equal, f"{level}: {within.summary()}"
        results[level] = b"".join(v.tobytes() for v in got)
    assert results["ascend"] == results["blocked"]


def test_strided_rows_too_long_for_two_a_chunk_are_one_a_chunk() -> None:
    """48 channels (no split on 48 cores) of 2 runs of 4096 f32: a row of 8192 is 1024 blocks
    apart from the next, more than a repeat stride reaches, so each chunk is one strided row
    (hsg.rows one_per_chunk), copied in by its 2 runs. Positive data (no cancellation) against
    float64; the blocked and ascend levels bit-equal."""
    x = (np.random.default_rng(48).random((2, 48, 64, 64)) + 0.5).astype(np.float32)
    text = SUM_NHW.format(n=2, c=48, h=64, w=64)
    want = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    results = {}
    for level in ("blocked", "ascend"):
        kernel = compile_text(text, level=level)
        assert _row_kernels(kernel) == [Rows(8192, ("element",), ("row",), 2, 48 * 4096,
                                             one_per_chunk=True)], level
        results[level] = got = kernel.run(x).outputs[0]
        within = compare_tolerance(got, want)
        assert within.equal, f"{level}: {within.summary()}"
    assert results["ascend"].tobytes() == results["blocked"].tobytes()


def test_strided_rows_too_long_for_the_ub_split_in_pieces_that_fit() -> None:
    """2 channels of 4 runs of 16384 f32 (rows of 65536, longer than A2's UB holds): split for
    the 48 cores in pieces of 512 a run, the partial kernel's rows of 2048 one a chunk."""
    x = (np.random.default_rng(2).random((4, 2, 128, 128)) + 0.5).astype(np.float32)
    text = SUM_NHW.format(n=4, c=2, h=128, w=128)
    kernel = compile_text(text, level="ascend")
    assert _row_kernels(kernel) == [
        Rows(2048, ("element",), ("row",), 4, 2 * 16384, one_per_chunk=True),
        Rows(32, ("element",), ("row",))]
    want = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    within = compare_tolerance(kernel.run(x).outputs[0], want)
    assert within.equal, within.summary()


def test_strided_rows_too_long_for_the_ub_unsplit_stay_on_the_host_with_a_warning() -> None:
    """48 channels (no split) of rows of 2 x 25600 = 51200 f32, longer than one row of the
    kernel's buffers in A2's UB: a located warning naming the length, and no kernel."""
    text = SUM_NHW.format(n=2, c=48, h=160, w=160)
    with collecting() as remarks:
        kernel = compile_text(text, level="tiled")
    assert not _row_kernels(kernel)
    assert any(str(r).startswith("<input>:") and "warning" in str(r)
               and "reduces rows of 51200 elements, longer than a chunk of one row" in str(r)
               for r in remarks), remarks
