"""hsg.swiglu_group_quant_grad (ops-nn's SwigluGroupQuantGrad, activation/swiglu_group_quant_grad,
Ascend 950 only) at every level (the hsg level runs its decomposition), on Ascend 950 and
Atlas A2, in f16, bf16 and f32, within torch.testing.assert_close's default tolerance of an
independent float64 model written here from the README's formulas (docs/
aclnnSwigluGroupQuantGrad.md) and the kernel's one f32 detail that changes values: its sigmoid
e / (e + 1) with e = exp(a) held in f32 (inf past f32's largest value: NaN where a > 88.72),
and masks that multiply (NaN times 0 stays NaN); with group_index as hsg.first_rows on each
result (counted rows the model's, the others unwritten); the verifier's refusals; one CPU-model
build of the 950's dx kernel bit for bit as the interpreter.
"""

from __future__ import annotations

import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from test_cpu_build_rows import FLAGS

from hswc.interpreter.launch import FRESH_GM_BYTE
from hswc.reference import compare_tolerance
from hswc.runner import CompileError, compile_text

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
F32_MAX = float(np.finfo(np.float32).max)


def _model(gy: np.ndarray, x: np.ndarray, w: np.ndarray | None, yo: np.ndarray | None,
           limit: float | None) -> tuple[np.ndarray, ...]:
    """(dx, grad_weight) in float64 from the README's steps, dx rounded once to x's dtype,
    grad_weight to f32."""
    g = gy.astype(np.float64)
    v = x.astype(np.float64)
    h = v.shape[-1] // 2
    a0, b0 = v[..., :h], v[..., h:]
    with np.errstate(all="ignore"):
        g0 = g * w.astype(np.float64)[..., None] if w is not None else g
        a, b = (np.minimum(a0, limit), np.clip(b0, -limit, limit)) if limit is not None \
            else (a0, b0)
        e = np.exp(a)
        e = np.where(e > F32_MAX, np.inf, e)  # the kernel's f32 exp
        sigmoid = e / (e + 1.0)
        d_silu = sigmoid * (1.0 + a * (1.0 - sigmoid))
        da = g0 * b * d_silu
        db = g0 * a * sigmoid
        if limit is not None:
            da = da * (a0 < limit)
            db = db * ((-limit < b0) & (b0 < limit))
        dx = np.concatenate([da, db], axis=-1).astype(x.dtype)
    if w is None:
        return (dx,)
    assert yo is not None
    return dx, (g * yo.astype(np.float64)).sum(axis=-1).astype(np.float32)


def _inputs(rows: int, h: int, dtype: str, weighted: bool,
            specials: bool = True) -> list[np.ndarray]:
    rng = np.random.default_rng(37)
    x = rng.normal(0.0, 4.0, (rows, 2 * h))
    if specials:  # a's: +-0, past the clamp, past f32's exp, inf; b's: past the clamp, NaN
        x[0, :6] = [0.0, -0.0, 9.0, 100.0, np.inf, -np.inf]
        x[1, h:h + 5] = [9.0, -9.0, np.inf, np.nan, -0.0]
    gy = rng.normal(0.0, 1.0, (rows, h))
    if specials:
        gy[2, :2] = [-0.0, np.inf]
    arrays = [gy.astype(NUMPY[dtype]), x.astype(NUMPY[dtype])]
    if weighted:
        arrays += [rng.normal(0.0, 1.0, rows).astype(np.float32),
                   rng.normal(0.0, 1.0, (rows, h)).astype(NUMPY[dtype])]
    return arrays


def _text(rows: int, h: int, dtype: str, weighted: bool, attributes: str = "") -> str:
    g, x = f"tensor<{rows}x{h}x{dtype}>", f"tensor<{rows}x{2 * h}x{dtype}>"
    w = f"tensor<{rows}xf32>"
    if not weighted:
        return f"""func.func @f(%g: {g}, %x: {x}) -> {x} {{
  %dx = hsg.swiglu_group_quant_grad %g, %x {attributes} : {g}, {x}
  return %dx : {x}
}}"""
    return f"""func.func @f(%g: {g}, %x: {x}, %w: {w}, %yo: {g}) -> ({x}, {w}) {{
  %dx, %dw = hsg.swiglu_group_quant_grad %g, %x, %w, %yo {attributes} : {g}, {x}, {w}, {g}
  return %dx, %dw : {x}, {w}
}}"""


def _check(dtype: str, limit: float | None, weighted: bool, level: str, soc: str) -> str:
    rows, h = 6, 64
    arrays = _inputs(rows, h, dtype, weighted)
    attributes = "" if limit is None else f"{{clamp_limit = {limit} : f32}}"
    kernel = compile_text(_text(rows, h, dtype, weighted, attributes), level=level, soc=soc,
                          core_num=5)
    got = [np.asarray(o) for o in kernel.run(*arrays).outputs]
    want = _model(*arrays[:2], *(arrays[2:] if weighted else [None, None]), limit)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        verdict = compare_tolerance(g, w)
        assert verdict.outside == 0 and verdict.specials_differ == 0, verdict
    return str(kernel.module)


CASES = [("f16", 7.0, True, "hsg", "ascend950"), ("bf16", None, True, "linalg", "ascend950"),
         ("f32", 2.5, True, "ascend", "ascend950"), ("bf16", 7.0, False, "ascend", "ascend950"),
         ("f16", None, True, "ascend", "ascend910b")]


@pytest.mark.parametrize(("dtype", "limit", "weighted", "level", "soc"), CASES,
                         ids=[f"{d}_{lim}_{'w' if w else 'nw'}_{lv}_{s}"
                              for d, lim, w, lv, s in CASES])
def test_equals_the_model_within_torch_tolerance(dtype: str, limit: float | None,
                                                 weighted: bool, level: str, soc: str) -> None:
    module = _check(dtype, limit, weighted, level, soc)
    if level == "ascend":  # dx's kernel (both halves, one output) and grad_weight's row sums
        assert module.count("hsg.launch") == (2 if weighted else 1)
        assert "linalg.generic" not in module.split("func.func")[1]


@pytest.mark.sweep
@pytest.mark.parametrize("dtype", list(NUMPY))
@pytest.mark.parametrize("limit", [None, 0.5, 7.0])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
def test_every_level_dtype_and_limit(dtype: str, limit: float | None, weighted: bool,
                                     level: str, soc: str) -> None:
    _check(dtype, limit, weighted, level, soc)


def test_hand_checked_values() -> None:
    """f32, no weight, no clamp: a = 0 (s = 1/2, silu' = 1/2), b = 2, g = 1: da = 1, db = 0;
    a = 100 (exp overflows f32): NaN in both; with clamp_limit 1, a = 2 is masked (da = 0), b = 3
    clamped to 1 and masked (db = 0), a = 0.5 in range."""
    x = np.array([[0.0, 100.0, 2.0, 2.0]], np.float32)
    g = np.ones((1, 2), np.float32)
    kernel = compile_text(_text(1, 2, "f32", False), level="ascend", core_num=1)
    dx = np.asarray(kernel.run(g, x).outputs[0])
    assert dx[0, 0] == 1.0 and dx[0, 2] == 0.0 and np.isnan(dx[0, 1]) and np.isnan(dx[0, 3])
    clamped = compile_text(_text(1, 2, "f32", False, "{clamp_limit = 1.0 : f32}"),
                           level="ascend", core_num=1)
    x = np.array([[2.0, 0.5, 0.5, 3.0]], np.float32)
    dx = np.asarray(clamped.run(g, x).outputs[0])
    s = 1.0 / (1.0 + np.exp(-0.5))
    assert dx[0, 0] == 0.0 and dx[0, 3] == 0.0
    np.testing.assert_allclose(dx[0, 1], s * (1 + 0.5 * (1 - s)), rtol=1e-6)  # g * b' * silu'
    np.testing.assert_allclose(dx[0, 2], 1.0 / (1.0 + np.exp(-1.0)), rtol=1e-6)  # silu(1) * 1


GROUPED = """
func.func @f(%g: tensor<6x32xf16>, %x: tensor<6x64xf16>, %w: tensor<6xf32>,
             %yo: tensor<6x32xf16>, %i: tensor<2xi64>) -> (tensor<6x64xf16>, tensor<6xf32>) {
  %dx, %dw = hsg.swiglu_group_quant_grad %g, %x, %w, %yo : tensor<6x32xf16>, tensor<6x64xf16>,
      tensor<6xf32>, tensor<6x32xf16>
  %zx = hsg.first_rows %dx, %i : tensor<6x64xf16>, tensor<2xi64>
  %zw = hsg.first_rows %dw, %i {row_dims = 1 : i64} : tensor<6xf32>, tensor<2xi64>
  return %zx, %zw : tensor<6x64xf16>, tensor<6xf32>
}
"""


@pytest.mark.parametrize("counts", [[2, 1], [0, 0], [5, 4]])
def test_group_index_computes_the_counted_rows(counts: list[int]) -> None:
    """Below, at 0 and above the 6 rows: the counted rows of dx and grad_weight are the model's,
    every byte of the others the fresh output's (the kernel writes zeros there: a value
    first_rows leaves open)."""
    arrays = _inputs(6, 32, "f16", True, specials=False)
    kernel = compile_text(GROUPED, level="ascend", core_num=4, soc="ascend950")
    assert "counts(" in str(kernel.module)
    got = [np.asarray(o) for o in kernel.run(*arrays, np.array(counts, np.int64)).outputs]
    n = min(max(sum(counts), 0), 6)
    for g, w in zip(got, _model(*arrays, None), strict=True):
        verdict = compare_tolerance(g[:n], w[:n])
        assert verdict.outside == 0 and verdict.specials_differ == 0, verdict
        assert (g[n:].view(np.uint8) == FRESH_GM_BYTE).all()


G, X, W = "tensor<4x4xf16>", "tensor<4x8xf16>", "tensor<4xf32>"


@pytest.mark.parametrize(("operands", "attributes", "message"), [
    ([G, X], "{clamp_limit = 0.0 : f32}", "clamp_limit must be > 0, or -1.0 (no clamp), got 0.0"),
    ([G, X], "{clamp_limit = 7 : i64}", "clamp_limit must be a float"),
    ([G, X], "{dim = 0 : i64}", "has no attribute 'dim'"),
    ([G, X, W], "", "takes grad_y and x, or grad_y, x, weight and y_origin"),
    ([G, X, W, G, "tensor<2xi64>"], "", "operand 5 would be ops-nn's group_index"),
    ([G, X, "tensor<4xf16>", G], "", "weight has type tensor<4xf16>; it must be tensor<4xf32>"),
    ([G, X, W, "tensor<4x4xf32>"], "", "y_origin has type tensor<4x4xf32>; it must be "
     "tensor<4x4xf16>"),
    (["tensor<4x3xf16>", X], "", "grad_y has type tensor<4x3xf16>; it must be tensor<4x4xf16>"),
    (["tensor<4x3xf32>", "tensor<4x7xf32>"], "", "x's last dim has 7 elements, an odd number"),
    (["tensor<4xf32>", "tensor<8xf32>"], "", "it must be of rank 2 to 8"),
    (["tensor<4x4xi32>", "tensor<4x8xi32>"], "", "x has element type i32"),
])
def test_refused_at_the_op(operands: list[str], attributes: str, message: str) -> None:
    names = [f"%v{i}" for i in range(len(operands))]
    results = "%dx, %dw" if len(operands) > 2 else "%dx"
    arguments = ", ".join(f"{n}: {t}" for n, t in zip(names, operands, strict=True))
    text = f"""func.func @f({arguments}) {{
  {results} = hsg.swiglu_group_quant_grad {', '.join(names)} {attributes} : {', '.join(operands)}
  return
}}"""
    with pytest.raises(CompileError, match=re.escape(message)):
        compile_text(text, level="ascend")


def test_the_cpu_model_runs_the_dx_kernel(tmp_path: Path) -> None:
    """Ascend 950's dx kernel (no weight, clamp_limit 7: both halves, one output) printed as
    AscendC, built against the CPU model and run with the interpreter's tiling: dx bit for bit
    as the interpreter's."""
    from hswc.backend.source import kernel_source

    rows, h = 37, 64
    g, x = _inputs(rows, h, "bf16", False)
    text = _text(rows, h, "bf16", False, "{clamp_limit = 7.0 : f32}")
    kernel = compile_text(text, soc="ascend950", core_num=3, ub_size=16384)
    result = kernel.run(g, x)
    (record,) = result.tilings
    source = tmp_path / "dx.cpp"
    source.write_text(kernel_source(kernel.module))
    made = Build(source, tmp_path / "dx", (*FLAGS["ascend950"], "-DHSWC_KERNEL_ENTRY=f",
                                           "-DHSWC_GM_INPUTS=3"))
    build([made])
    want = np.asarray(result.outputs[0])
    on_cpu = run_recorded(made.output, record, [g, x, x], 16384, tmp_path / "run",
                          output=want.dtype, shape=want.shape)
    assert on_cpu.tobytes() == want.tobytes()
