"""Reductions over leading dims as kernels (issue 36): a sum over N, H and W keeping C is a row
kernel whose rows (the channels) are strided runs (hswc.rows' `runs` and `stride`): each core
owns a set of channels and reduces all of their data, a channel's N runs of H*W elements copied
by one DataCopyPad per run index, accumulated in f32 in the kernel's fold order.

Checked against outside oracles: torch-mlir's export of `x.sum(dim=(0, 2, 3))` equals MLIR's
execution (`out0`, f32) and PyTorch's (`torch0`, f32, f16, bf16) within assert_close's default
tolerance, at the tiled, blocked and ascend levels; a BatchNorm-backward sum with its producers
(grad * (x - mean) * invstd) and a consumer fused equals a float64 numpy model; the ascend level
equals the blocked level bit for bit on Atlas A2 and Ascend 950. Runs that are not whole
32-byte blocks are padded to them in UB (test_padded_runs).
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
    """x (2, 8, 4, 4): 8 rows (channels) of 2 runs of 16 elements, 128 apart, one kernel on 8
    cores: in f32 each run could be cut in 2 pieces of 8 (32 bytes) for the 48 cores, but the
    cost model times the split's second launch dearer than what the idle cores would do
    (hswc.passes.row_split); in f16 and bf16 a piece would be less than a 32-byte block. The
    split itself: test_a_sum_over_too_few_channels_for_the_cores_is_split_where_the_model_gains.
    MLIR's f16 and bf16
    loop sums in the type itself (3 and 12 ulp from PyTorch here); the kernel sums in f32 as
    PyTorch does, so it is held to PyTorch there, and to both in f32."""
    path = FIXTURES / "reductions" / f"sum_dims023_{dtype}.mlir"
    data = np.load(path.with_suffix(".npz"))
    x = data["in0"].view(NUMPY[dtype])
    results = {}
    for level in LEVELS:
        kernel = compile_file(path, level=level)
        assert _row_kernels(kernel) == [Rows(32, ("element",), ("row",), 2, 128)], level
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


@pytest.mark.parametrize(("soc", "channels", "n", "h", "parts"),
                         [("ascend910b", 48, 2, 8, 1), ("ascend910b", 8, 2, 8, 1),
                          ("ascend910b", 2, 4, 112, 28), ("ascend950", 1, 4, 64, 1),
                          ("ascend950", 1, 4, 120, 72)])
def test_a_sum_over_too_few_channels_for_the_cores_is_split_where_the_model_gains(
        soc: str, channels: int, n: int, h: int, parts: int) -> None:
    """A sum over N, H and W of f32 (chosen at compile time, for the SoC). Atlas A2 (48
    cores): 48 channels are one kernel, a channel a core; 8 channels of 128 elements stay one
    kernel, the split's second launch costing more than the idle cores would do (a remark names
    both modelled times); 2 channels of 4 runs of 112 x 112 (rows longer than one kernel's UB
    holds) are split, in the fewest pieces that whole blocks allow and that give every core a
    row (28: 56 rows of partials). Ascend 950 (64 cores, a larger UB): one channel of 4 runs of
    64 x 64 is one kernel (the model: 2.0 us against 5.6), of 4 runs of 120 x 120 split in 72
    pieces, where one kernel also fits (the model: the split gains more than its second launch
    costs). The result within tolerance of float64, the blocked and ascend levels bit-equal."""
    x = np.random.default_rng(channels).standard_normal((n, channels, h, h)).astype(np.float32)
    text = SUM_NHW.format(n=n, c=channels, h=h, w=h)
    want = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    run, stride = h * h, channels * h * h
    results = {}
    for level in ("blocked", "ascend"):
        with collecting() as remarks:
            kernel = compile_text(text, level=level, soc=soc)
        found = [(r.length, r.runs, r.stride) for r in _row_kernels(kernel)]
        if parts == 1:
            assert found == [(n * run, n, stride)]
        else:
            assert found == [(n * run // parts, n, stride), (parts, 1, 0)]
        modelled = [r for r in remarks if "the cost model times one kernel at" in str(r)]
        assert len(modelled) == (parts == 1 and channels < 48), remarks
        results[level] = got = kernel.run(x).outputs[0]
        assert compare_tolerance(got, want).equal
    assert results["ascend"].tobytes() == results["blocked"].tobytes()


def test_runs_longer_than_one_copy_block_stay_on_the_host_unless_split() -> None:
    """48 channels (no split on 48 cores) of 2 runs of 128 x 128 f32: a run is 65,536 bytes,
    one more than a DataCopyPad block moves, so the row kernel, which copies a run as one block,
    is not built (it was, and its copy would have been truncated): the sum stays on the host
    with a remark saying why, and is MLIR's loop, bit for bit."""
    x = np.random.default_rng(5).standard_normal((2, 48, 128, 128)).astype(np.float32)
    with collecting() as remarks:
        kernel = compile_text(SUM_NHW.format(n=2, c=48, h=128, w=128), level="ascend")
    assert not _row_kernels(kernel)
    assert any("runs of 16384 elements (65536 bytes), longer than the 65535 bytes one "
               "DataCopyPad block moves" in str(r) for r in remarks), remarks
    # the host sums in MLIR's loop order: per channel, n then h then w, in f32
    want = np.cumsum(x.transpose(1, 0, 2, 3).reshape(48, -1), axis=1, dtype=np.float32)[:, -1]
    assert kernel.run(x).outputs[0].tobytes() == want.tobytes()


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


def test_runs_that_are_not_whole_blocks_are_a_kernel_of_padded_runs() -> None:
    """H * W = 6 f32 elements (24 bytes): each run padded to 8 in UB (hswc.rows
    `padded_run`; test_padded_runs), the ascend level bit-equal to the blocked one and within
    tolerance of float64. What still stays on the host: test_padded_runs."""
    shape = (2, 3, 2, 3)
    inputs = bn_inputs(shape, "f32")
    got = {level: compile_text(bn_sums(shape, "f32"), level=level) for level in LEVELS[1:]}
    assert [r.padded_run for r in _strided_kernels(got["ascend"])] == [8]
    blocked, lowered = (got[level].run(*inputs).outputs[0] for level in LEVELS[1:])
    assert lowered.tobytes() == blocked.tobytes()
    assert compare_tolerance(lowered, bn_reference(inputs, "f32")).equal


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
    assert [r for r in _strided_kernels(kernel) if r.lanes == 1] == [
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
func.func @sum_and_half(%x: tensor<4x4x112x112xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x4x112x112xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %h = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.mulf %in, %half : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s, %h : tensor<4xf32>, tensor<4xf32>
}
"""


def test_a_split_sum_with_two_results_combines_into_one_kernel_of_two_outputs() -> None:
    """x.sum((0, 2, 3)) and half of it, both returned: 4 channels on 48 cores are split (14
    pieces of 896 f32 a run), and the combining kernel writes both row values (several outputs,
    hsg.outputs = 2). Both against float64 (the sum rounded once, then halved exactly); the
    blocked and ascend levels bit-equal."""
    x = np.random.default_rng(8).standard_normal((4, 4, 112, 112)).astype(np.float32)
    total = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    results = {}
    for level in ("blocked", "ascend"):
        kernel = compile_text(SUM_AND_HALF, level=level)
        assert [(r.length, r.runs, r.stride, r.outputs) for r in _row_kernels(kernel)] == [
            (3584, 4, 4 * 12544, ("row",)), (14, 1, 0, ("row", "row"))], level
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
    """48 channels (no split) of rows of 4 x 12800 = 51200 f32 (runs of 51,200 bytes, which a
    DataCopyPad block moves), longer than one row of the kernel's buffers in A2's UB: a located
    warning naming the length, and no kernel."""
    text = SUM_NHW.format(n=4, c=48, h=80, w=160)
    with collecting() as remarks:
        kernel = compile_text(text, level="tiled")
    assert not _row_kernels(kernel)
    assert any(str(r).startswith("<input>:") and "warning" in str(r)
               and "reduces rows of 51200 elements, longer than a chunk of one row" in str(r)
               for r in remarks), remarks
