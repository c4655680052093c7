"""Whole model files run on the host: every file of test/fixtures/host_models (written by
tools/export_host_fixtures.py with torch-mlir, which CI does not need) runs with hswc-run at the
hsg level, and its results equal MLIR's own CPU execution of the file (its ExecutionEngine, by
tools/mlir_oracle.py, recorded in the `.npz`).

Every op of these files runs with MLIR's semantics, summing in MLIR's loop order, so the results
are MLIR's bit for bit, with one exception: f32 math.rsqrt, which hswc computes as the vector
unit's Rsqrt (hswc.math_semantics: the square root's reciprocal rounded once) and the oracle's
CPU lowering as 1 / sqrt(x) (two roundings; on f16 and bf16, in f32 and rounded once more, which
the Rsqrt model rounded to the half type equals here). With the oracle's rsqrt put in its place,
every file is bit for bit; with hswc's own, the files without an f32 rsqrt are, and the others
(MobileNet, layer_norm, the training step in f32) within PyTorch's default tolerance.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from hswc.math_decompositions import MATH_OPS
from hswc.reference import compare_bitwise, compare_tolerance
from hswc.runner import CompileError, Kernel, compile_file

FIXTURES = Path(__file__).parent / "fixtures" / "host_models"
FILES = sorted(FIXTURES.glob("*.mlir"))
NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16), "f64": np.dtype(np.float64),
         "i64": np.dtype(np.int64), "i32": np.dtype(np.int32), "i1": np.dtype(np.bool_)}
SLOW = {"mobilenet_v3_small_f16", "mobilenet_v3_small_bf16"}
"""Files of several seconds each: run by the sweep (MobileNet f32 stays in the default run)."""
DEMOTED_F64 = {"layer_norm_f32": 4.77e-7, "conv_bn_hardswish_backward_f32": 3.82e-6}
"""Files whose f64 statistics hsg-demote-f64 computes in f32 below the hsg level (--strict-f64
refuses them), with the largest absolute difference that makes from the hsg level's exact f64
(measured 2026-12-06: 4.77e-7 at a largest |result| of 2.78; 3.81e-6 at 16.1; MLIR's own f64
execution is 2.4e-7 and 3.8e-6 away). In f16 and bf16 the final rounding hides it: bit for
bit."""
F64_FILES = ("layer_norm", "conv_bn_hardswish_backward")


def _same_or_demoted(path: Path, got: list[np.ndarray], hsg: list[np.ndarray]) -> None:
    """Bit for bit, or for a demoted file within its DEMOTED_F64 bound (and within PyTorch's
    tolerance)."""
    bound = DEMOTED_F64.get(path.stem)
    for i, (a, b) in enumerate(zip(got, hsg, strict=True)):
        if bound is None:
            assert compare_bitwise(a, b).equal, f"{path.stem} result {i}"
            continue
        gap = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))
        assert gap <= bound and compare_tolerance(a, b).equal, f"{path.stem} result {i}: {gap}"


def _params(files: list[Path]) -> list[object]:
    return [pytest.param(p, id=p.stem, marks=[pytest.mark.sweep] if p.stem in SLOW else [])
            for p in files]


@cache
def _load(path: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
    data = np.load(path.with_suffix(".npz"))
    types = [str(t) for t in data["types"]]
    count = sum(1 for k in data.files if k.startswith("in"))

    def array(key: str, kind: str) -> np.ndarray:
        a = data[key]
        return a.view(NUMPY[kind]) if kind in ("f16", "bf16") else a.astype(NUMPY[kind])

    inputs = [array(f"in{i}", types[i]) for i in range(count)]
    outputs = [array(f"out{i}", t) for i, t in enumerate(types[count:])]
    return inputs, outputs


@cache
def _compiled(path: Path, level: str) -> Kernel:
    return compile_file(path, level=level)


def _mlir_rsqrt(b: Any, x: Any) -> Any:
    """math.rsqrt as the oracle lowers it: 1 / sqrt(x), each rounded, in f32 for a half type
    (hswc hands bf16 over widened already)."""
    dtype = b.dtype(x)
    wide = x if dtype == "f32" else b.convert(x, "f32")
    result = b.op("divf", b.const(1.0, "f32"), b.op("sqrt", wide))
    return result if dtype == "f32" else b.convert(result, dtype)


def test_the_fixture_set_is_complete() -> None:
    names = {p.stem for p in FILES}
    for model in ("mobilenet_v3_small", "llama_mlp", "attention", "softmax", "layer_norm",
                  "conv_bn_hardswish_backward", "max_and_index"):
        assert {f"{model}_{dt}" for dt in ("f32", "f16", "bf16")} <= names
    assert {"embedding_f32", "concat_pad_f32", "pooling_f32"} <= names
    assert all(p.with_suffix(".npz").exists() for p in FILES)


@pytest.mark.parametrize("path", _params(FILES))
def test_host_run_is_mlirs_bit_for_bit_with_mlirs_rsqrt(path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every op but math.rsqrt has MLIR's semantics to the bit: convolutions, matmuls and
    reductions sum in MLIR's order, in their accumulators' types; f64 statistics, i64 indices,
    pads, slices, concatenations and weights stored as resources."""
    monkeypatch.setitem(MATH_OPS, "math.rsqrt", _mlir_rsqrt)
    inputs, want = _load(path)
    got = _compiled(path, "hsg").run(*inputs).outputs
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        result = compare_bitwise(g, w)
        assert result.equal, f"{path.stem} result {i}: {result.summary()}"


@pytest.mark.parametrize("path", _params(FILES))
def test_host_run_equals_mlir_execution(path: Path) -> None:
    """hswc's own semantics: bit for bit without an f32 math.rsqrt, within PyTorch's tolerance
    with one (module docstring)."""
    inputs, want = _load(path)
    got = _compiled(path, "hsg").run(*inputs).outputs
    rsqrt = re.search(r"math\.rsqrt .* : f32", path.read_text()) is not None
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if rsqrt:
            within = compare_tolerance(g, w)
            assert within.equal, f"{path.stem} result {i}: {within.summary()}"
        else:
            same = compare_bitwise(g, w)
            assert same.equal, f"{path.stem} result {i}: {same.summary()}"


LINALG = [p for p in FILES if "mobilenet" not in p.stem]
"""The linalg level lowers each file through hswc's passes first (MobileNet, at several seconds
per pass on its 3000 ops, is left to the hsg level)."""


@pytest.mark.parametrize("path", _params(LINALG))
def test_linalg_level_equals_the_hsg_level(path: Path) -> None:
    """hswc's passes (generalize, fold constants, widen bf16, fuse elementwise) keep every bit of
    a whole file, the ops they leave in place running on the host; what they refuse today is
    refused at the op."""
    inputs, _ = _load(path)
    model = path.stem.rsplit("_", 1)[0]
    if model in F64_FILES:
        with pytest.raises(CompileError, match="computes in f64, which hswc cannot lower"):
            compile_file(path, level="linalg", strict_f64=True)
    hsg = _compiled(path, "hsg").run(*inputs).outputs
    linalg = compile_file(path, level="linalg").run(*inputs).outputs
    _same_or_demoted(path, linalg, hsg)


ASCEND_SAMPLE = {"llama_mlp_f16", "softmax_bf16", "attention_f16", "max_and_index_f32",
                 "pooling_f32", "layer_norm_f32"}
"""Lowered to the ascend level by the default run (a second or so each); the rest are sweep
tests."""


REDUCED_IN_KERNELS = {
    "softmax_f32": 2, "conv_bn_hardswish_backward_f32": 192,
    "conv_bn_hardswish_backward_f16": 25, "conv_bn_hardswish_backward_bf16": 29}
"""Files whose reductions run in row kernels, which combine in AscendC's order (and f16 and bf16
sums in f32), not MLIR's sequential loop in the type itself: the largest ulp any result is from
the hsg level (measured 2026-12-06 on the merge of leading-axis reductions: BatchNorm's backward
is one row kernel of its two sums over N, H, W and the input gradient). f32 within PyTorch's
tolerance. In f16 and bf16 the sums feed convolutions' weight gradients that cancel, up to 25
and 29 ulp from MLIR's execution: outside PyTorch's tolerance of it, but no farther from the
exact value than MLIR's own result (test_kernel_sums_are_no_farther_from_the_exact_value: issue
36 allows exported half sums accumulated more exactly, within the same tolerance)."""

EXACT = FIXTURES / "exact"
"""float64 results of the BatchNorm backward files on their own inputs: the same traced
function run by PyTorch in float64 (tools/exact_host_fixtures.py; PyTorch is not needed here)."""


@pytest.mark.parametrize("name", [
    pytest.param(f"conv_bn_hardswish_backward_{dt}", id=dt,
                 marks=[] if dt == "f16" else [pytest.mark.sweep])
    for dt in ("f32", "f16", "bf16")])
def test_kernel_sums_are_no_farther_from_the_exact_value_than_mlirs(name: str) -> None:
    """The BatchNorm backward's results at the ascend level (its sums in a row kernel, in f32)
    against the exact value: in f16 and bf16 each result's largest error is at most that of
    MLIR's execution (which sums in the half type); in f32 both are within PyTorch's tolerance
    of it. MLIR's f32 result within tolerance of the exact value checks the fixture itself
    (its inputs and the traced function are the export's)."""
    path = FIXTURES / f"{name}.mlir"
    inputs, mlir = _load(path)
    exact = np.load(EXACT / f"{name}.npz")
    got = _compiled(path, "ascend").run(*inputs).outputs
    assert len(got) == len(mlir) == len(exact.files)
    for i, (ours, theirs) in enumerate(zip(got, mlir, strict=True)):
        value = exact[f"exact{i}"]
        if name.endswith("_f32"):
            for result, who in ((ours, "hswc"), (theirs, "MLIR")):
                within = compare_tolerance(result, value.astype(np.float32))
                assert within.equal, f"{who} result {i} against float64: {within.summary()}"
            continue
        error = float(np.max(np.abs(ours.astype(np.float64) - value)))
        bound = float(np.max(np.abs(theirs.astype(np.float64) - value)))
        assert error <= bound, f"result {i}: hswc {error:.4g} from float64, MLIR {bound:.4g}"


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[] if p.stem in ASCEND_SAMPLE else [pytest.mark.sweep])
    for p in FILES if "mobilenet" not in p.stem or p.stem.endswith(("_f32", "_bf16"))])
def test_ascend_level_equals_the_hsg_level(path: Path) -> None:
    """Partitioned: every region a kernel on the modelled cores, every other op on the host, and
    the results the file's run on the host, bit for bit."""
    inputs, _ = _load(path)
    model = path.stem.rsplit("_", 1)[0]
    result = compile_file(path, level="ascend").run(*inputs)
    hsg = _compiled(path, "hsg").run(*inputs).outputs
    assert result.kernels or model in ("max_and_index", "embedding"), path.stem
    bound = REDUCED_IN_KERNELS.get(path.stem)
    if bound is None:
        _same_or_demoted(path, result.outputs, hsg)
        return
    for i, (a, b) in enumerate(zip(result.outputs, hsg, strict=True)):
        within = compare_tolerance(a, b)
        assert within.max_ulp <= bound, f"{path.stem} result {i}: {within.summary()}"
        assert within.equal or not path.stem.endswith("_f32"), within.summary()
