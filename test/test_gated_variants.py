"""ops-nn's gated variants (hsg.gelu_mul, fatrelu_mul, situ_glu, swiglu_clamp, clipped_swiglu):
at every level against PyTorch's evaluation of their ops-nn formulas (float64 rounded once,
recorded in test/fixtures/gated_variants by tools/export_gated_variant_fixtures.py), within
torch.testing.assert_close's default tolerance; the golden model against hand-checked values;
the kernel reading x's halves (or even and odd elements) from one GM tensor; what the verifier
refuses.

The hsg level runs the golden model (hswc.reference_gated), the levels below the decomposition
(hswc.ops.gated_variants: f32 steps, rounded once), one kernel per op.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from test_gated_ops import _type, module

from hswc.reference import compare_tolerance
from hswc.reference_gated import run_variant_reference
from hswc.runner import CompileError, compile_text

FIXTURES = Path(__file__).parent / "fixtures" / "gated_variants"
NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
CASES = {
    # fixture: (op, attributes)
    "gelu_mul_none": ("hsg.gelu_mul", ""),
    "gelu_mul_tanh": ("hsg.gelu_mul", '{approximate = "tanh"}'),
    "fatrelu_mul": ("hsg.fatrelu_mul", ""),
    "situ_glu_default": ("hsg.situ_glu", ""),
    "situ_glu_dim0_right": ("hsg.situ_glu", "{dim = 0 : i64, beta = 2.5 : f32, linear_beta = "
                            "0.75 : f32, activate_left = false}"),
    "swiglu_clamp": ("hsg.swiglu_clamp", ""),
    "swiglu_clamp_limit2": ("hsg.swiglu_clamp", "{limit = 2.0 : f32}"),
    "clipped_swiglu_interleaved": ("hsg.clipped_swiglu", ""),
    "clipped_swiglu_halves_dim1": ("hsg.clipped_swiglu", "{dim = 1 : i64, alpha = 1.0 : f32, "
                                   "limit = 3.0 : f32, bias = 0.5 : f32, interleaved = false}"),
    "clipped_swiglu_after": ("hsg.clipped_swiglu", "{limit = 2.0 : f32, interleaved = false, "
                             "clamp_mode = 1}"),
}
DEFAULT = {("gelu_mul_tanh", "f16"), ("fatrelu_mul", "bf16"), ("situ_glu_dim0_right", "f32"),
           ("swiglu_clamp", "f16"), ("clipped_swiglu_interleaved", "bf16"),
           ("clipped_swiglu_after", "f32")}
"""Run by default (about a second each); the rest under the sweep marker."""


def _load(name: str, dtype: str) -> dict[str, np.ndarray]:
    data = np.load(FIXTURES / f"{name}_{dtype}.npz")
    return {k: data[k].view(NUMPY[dtype]) for k in ("x", "threshold", "y")}


@pytest.mark.parametrize(("name", "dtype"), [
    pytest.param(n, d, id=f"{n}_{d}", marks=[] if (n, d) in DEFAULT else [pytest.mark.sweep])
    for n in CASES for d in NUMPY])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
def test_equals_pytorch_within_its_tolerance(name: str, dtype: str, level: str) -> None:
    op, attributes = CASES[name]
    data = _load(name, dtype)
    inputs = [data["x"]] + ([data["threshold"]] if data["threshold"].size else [])
    types = [_type(a.shape, dtype) for a in inputs]
    kernel = compile_text(module(op, attributes, types, _type(data["y"].shape, dtype)),
                          level=level, core_num=5)
    got = np.asarray(kernel.run(*inputs).outputs[0])
    assert got.dtype == data["y"].dtype and got.shape == data["y"].shape
    verdict = compare_tolerance(got, data["y"])
    assert verdict.outside == 0 and verdict.specials_differ == 0, f"{name} {dtype}: {verdict}"
    if level == "ascend":
        lowered = str(kernel.module)
        assert lowered.count("hsg.launch") == 1, "one kernel reads both halves of x"
        assert "tensor.expand_shape" not in lowered


def _sigmoid(v: float) -> float:
    return 1 / (1 + math.exp(-v))


def test_hand_checked_values() -> None:
    """x = [[1, -2, 8, 0.5, 3, 9]] (halves a = [1, -2, 8], b = [0.5, 3, 9]; even and odd
    elements [1, 8, 3] and [-2, 0.5, 9])."""
    x = np.array([[1.0, -2.0, 8.0, 0.5, 3.0, 9.0]])
    silu = [v * _sigmoid(v) for v in (1.0, -2.0, 8.0)]
    cases = {
        ("hsg.fatrelu_mul", ()): [0.0, 0.0, 72.0],  # threshold 1: a = 1 is not above it
        ("hsg.swiglu_clamp", (("limit", 7.0),)): [silu[0] * 0.5, silu[1] * 3, 7.0 * 7.0],
        ("hsg.situ_glu", (("beta", 2.0), ("linear_beta", 4.0))): [
            2 * math.tanh(a / 2) * _sigmoid(a) * 4 * math.tanh(b / 4)
            for a, b in ((1.0, 0.5), (-2.0, 3.0), (8.0, 9.0))],
        ("hsg.clipped_swiglu", (("limit", 7.0),)): [  # interleaved, alpha 1.702, bias 1
            a * _sigmoid(1.702 * a) * (min(max(b, -7.0), 7.0) + 1)
            for a, b in ((1.0, -2.0), (7.0, 0.5), (3.0, 9.0))],
        ("hsg.gelu_mul", ()): [0.5 * (1 + math.erf(1 / math.sqrt(2))) * 0.5,
                               -2 * 0.5 * (1 + math.erf(-2 / math.sqrt(2))) * 3,
                               8 * 0.5 * (1 + math.erf(8 / math.sqrt(2))) * 9],
    }
    for (op, attrs), want in cases.items():
        inputs = [x, np.array([1.0])] if op == "hsg.fatrelu_mul" else [x]
        got = run_variant_reference(op, inputs, **dict(attrs))
        np.testing.assert_allclose(got, [want], rtol=1e-15)


def test_fatrelu_mul_follows_its_kernel_at_the_threshold() -> None:
    """a == threshold gives 0 (the kernel's CompareScalar GT), not the README's a * b."""
    text = module("hsg.fatrelu_mul", "", ["tensor<2x4xf32>", "tensor<1xf32>"],
                  "tensor<2x2xf32>")
    x = np.array([[0.5, 0.75, 2.0, 2.0], [0.4, 0.6, 3.0, 3.0]], np.float32)
    y = compile_text(text, level="ascend").run(x, np.array([0.5], np.float32)).outputs[0]
    want = np.array([[0.0, 0.75 * 2.0], [0.0, 0.6 * 3.0]], np.float32)  # a = 0.5 is not above
    want[1, 1] = np.float32(0.6) * np.float32(3.0)  # the f32 product, rounded once
    np.testing.assert_array_equal(np.asarray(y), want)


def test_interleaved_reads_even_and_odd_elements_of_one_tensor() -> None:
    """clipped_swiglu's default split: one kernel on x itself, both operands read with stride 2
    (offsets 0 and 1)."""
    text = module("hsg.clipped_swiglu", "", ["tensor<4x64xf16>"], "tensor<4x32xf16>")
    lowered = str(compile_text(text, level="ascend").module)
    assert "hsg.broadcast = [array<i64: 4, 32>, array<i64: 64, 2, 0, 256>, " \
           "array<i64: 64, 2, 1, 256>]" in lowered
    assert lowered.count("the last dim is read with stride 2") == 2


@pytest.mark.parametrize(("text", "message"), [
    (module("hsg.gelu_mul", "{dim = 0 : i64}", ["tensor<4x8xf32>"], "tensor<4x4xf32>"),
     "hsg.gelu_mul has no attribute 'dim'"),
    (module("hsg.swiglu_clamp", "", ["tensor<4x7xf16>"], "tensor<4x3xf16>"),
     "dim 1 of x has 7 elements, an odd number"),
    (module("hsg.swiglu_clamp", "{limit = 0.0 : f32}", ["tensor<4x8xf16>"], "tensor<4x4xf16>"),
     "limit must be > 0, got 0.0"),
    (module("hsg.situ_glu", "{beta = 0.0 : f32}", ["tensor<4x8xf16>"], "tensor<4x4xf16>"),
     "beta must not be 0"),
    (module("hsg.clipped_swiglu", "{clamp_mode = 2}", ["tensor<4x8xf16>"], "tensor<4x4xf16>"),
     "clamp_mode must be 0 (clamp before the SiLU) or 1 (after), got 2"),
    (module("hsg.clipped_swiglu", "{interleaved = 1.0 : f32}", ["tensor<4x8xf16>"],
            "tensor<4x4xf16>"), "interleaved must be a bool (true or false)"),
    (module("hsg.fatrelu_mul", "", ["tensor<4x8xf16>", "tensor<2xf16>"], "tensor<4x4xf16>"),
     "threshold has type tensor<2xf16>; it must be tensor<1xf16>"),
    (module("hsg.situ_glu", "{dim = 2 : i64}", ["tensor<4x8xf32>"], "tensor<4x4xf32>"),
     "dim must be an i64 in [-rank, rank)"),
    (module("hsg.clipped_swiglu", "", ["tensor<4x8xf16>", "tensor<2xi64>"], "tensor<4x4xf16>"),
     "operand 2 would be ops-nn's group_index (the number of rows to compute, read from a "
     "tensor at run time), which hsg.clipped_swiglu does not take: it computes every row; "
     "write `hsg.first_rows %y, %group_index` on its result"),
    (module("hsg.gelu_mul", "", ["tensor<4x8xi32>"], "tensor<4x4xi32>"),
     "takes f16, bf16 and f32"),
    (module("hsg.swiglu_clamp", "", ["tensor<?x8xf32>"], "tensor<?x4xf32>"),
     "its decomposition needs static shapes"),
])
def test_refused_at_the_op(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=re.escape(message)):
        compile_text(text, level="ascend")
