"""hsg.swiglu_group (ops-nn's SwigluGroup, activation/swiglu_group, Ascend 950 only): at every
level in f16, bf16 and f32 within torch.testing.assert_close's default tolerance of an
independent float64 model of its kernel's formula (written here: a / (1 + exp(-a)) * b, the
halves clamped first when clamp_limit is not -1.0), rounded once; with its group_index as
hsg.first_rows, the counted rows are the model's and the others unwritten; what it refuses.
"""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest
from test_gated_ops import _type, module

from hswc.interpreter.launch import FRESH_GM_BYTE
from hswc.reference import compare_tolerance
from hswc.runner import CompileError, compile_text

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}


def _model(x: np.ndarray, clamp_limit: float | None) -> np.ndarray:
    """SwigluGroup in float64 (op_kernel/arch35/swiglu_group_base.h:88-96, 117-122), rounded
    once to x's dtype."""
    v = x.astype(np.float64)
    h = v.shape[-1] // 2
    a, b = v[..., :h], v[..., h:]
    if clamp_limit is not None:
        a, b = np.minimum(a, clamp_limit), np.clip(b, -clamp_limit, clamp_limit)
    with np.errstate(over="ignore"):
        return (a / (1.0 + np.exp(-a)) * b).astype(x.dtype)


def _x(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    rng = np.random.default_rng(37)
    x = rng.normal(0.0, 4.0, shape)
    x.reshape(-1)[:6] = [0.0, -0.0, 9.0, -9.0, 30.0, -30.0]  # past the clamp, exp's range
    return x.astype(NUMPY[dtype])


CASES = [("f16", None, "hsg"), ("bf16", 7.0, "linalg"), ("f32", 2.5, "ascend"),
         ("f16", 7.0, "ascend"), ("bf16", None, "ascend")]


@pytest.mark.parametrize(("dtype", "limit", "level"), CASES,
                         ids=[f"{d}_{limit}_{lv}" for d, limit, lv in CASES])
def test_equals_the_model_within_torch_tolerance(dtype: str, limit: float | None,
                                                 level: str) -> None:
    x = _x((6, 128), dtype)
    attributes = "" if limit is None else f"{{clamp_limit = {limit} : f32}}"
    text = module("hsg.swiglu_group", attributes, [_type(x.shape, dtype)], _type((6, 64), dtype))
    kernel = compile_text(text, level=level, core_num=5)
    got = np.asarray(kernel.run(x).outputs[0])
    verdict = compare_tolerance(got, _model(x, limit))
    assert verdict.outside == 0 and verdict.specials_differ == 0, verdict
    if level == "ascend":
        assert str(kernel.module).count("hsg.launch") == 1


@pytest.mark.sweep
@pytest.mark.parametrize("dtype", list(NUMPY))
@pytest.mark.parametrize("limit", [None, 0.5, 7.0])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
def test_every_level_dtype_and_limit(dtype: str, limit: float | None, level: str) -> None:
    test_equals_the_model_within_torch_tolerance(dtype, limit, level)


@pytest.mark.parametrize("counts", [[2, 1], [0, 0], [5, 4], [-3, 1]])
def test_group_index_computes_the_counted_rows(counts: list[int]) -> None:
    """Below, at 0, above the 6 rows and a negative sum (0 rows): the counted rows are the
    model's, every byte of the others the fresh output's."""
    x = _x((6, 64), "bf16")
    text = """
func.func @f(%x: tensor<6x64xbf16>, %g: tensor<2xi64>) -> tensor<6x32xbf16> {
  %y = hsg.swiglu_group %x {clamp_limit = 7.0 : f32} : tensor<6x64xbf16>
  %z = hsg.first_rows %y, %g : tensor<6x32xbf16>, tensor<2xi64>
  return %z : tensor<6x32xbf16>
}
"""
    kernel = compile_text(text, level="ascend", core_num=4)
    assert "counts(" in str(kernel.module)
    got = np.asarray(kernel.run(x, np.array(counts, np.int64)).outputs[0])
    n = min(max(sum(counts), 0), 6)
    verdict = compare_tolerance(got[:n], _model(x, 7.0)[:n])
    assert verdict.outside == 0 and verdict.specials_differ == 0, verdict
    assert (got[n:].view(np.uint8) == FRESH_GM_BYTE).all()


@pytest.mark.parametrize(("text", "message"), [
    (module("hsg.swiglu_group", "{clamp_limit = 0.0 : f32}", ["tensor<4x8xf16>"],
            "tensor<4x4xf16>"), "clamp_limit must be > 0, or -1.0 (no clamp), got 0.0"),
    (module("hsg.swiglu_group", "", ["tensor<4x8xf16>", "tensor<4xf32>"], "tensor<4x4xf16>"),
     "operand 2 would be ops-nn's weight"),
    (module("hsg.swiglu_group", "", ["tensor<4x7xf32>"], "tensor<4x3xf32>"),
     "dim 1 of x has 7 elements, an odd number"),
    ("""func.func @f(%x: tensor<4x8xf16>, %g: tensor<2xi32>) -> tensor<4x4xf16> {
  %y = hsg.swiglu_group %x : tensor<4x8xf16>
  %z = hsg.first_rows %y, %g : tensor<4x4xf16>, tensor<2xi32>
  return %z : tensor<4x4xf16>
}""", "counts has type tensor<2xi32>; it must be a rank-1 tensor of i64"),
])
def test_refused_at_the_op(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=re.escape(message)):
        compile_text(text, level="ascend")
