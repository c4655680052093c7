"""ops-nn's gated gradients hsg.situ_glu_grad (SituGluGrad), hsg.ge_glu_grad_v2
(GeGluGradV2, which reads GeGluV2's gelu half) and hsg.clipped_swiglu_grad
(ClippedSwigluGrad): the golden model against central differences
of the forward golden models (themselves checked against PyTorch, test_gated_variants and
test_gated_ops); every level against the golden model within PyTorch's tolerance; the checker's
sizing of their tensors; what the verifier refuses.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from test_gated_ops import _type, module

from hswc.checker.expected import from_gated_op
from hswc.reference import compare_tolerance
from hswc.reference_gated import (
    _gelu,
    clipped_swiglu,
    clipped_swiglu_grad,
    ge_glu,
    run_variant_reference,
    situ_glu,
    situ_glu_grad,
)
from hswc.runner import CompileError, compile_text

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}


def _numeric_gradient(forward, grad: np.ndarray, x: np.ndarray, step: float = 1e-6
                      ) -> np.ndarray:
    """d(sum(grad * forward(x))) / dx by central differences, element by element."""
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += step
        down[i] -= step
        out[i] = np.sum(grad * (forward(up) - forward(down))) / (2 * step)
    return out


@pytest.mark.parametrize(("beta", "linear_beta", "left"),
                         [(1.0, 0.0, True), (2.5, 0.75, False), (0.5, 3.0, True)])
def test_situ_glu_grad_is_the_derivative_of_situ_glu(beta: float, linear_beta: float,
                                                     left: bool) -> None:
    r = np.random.default_rng(3)
    x = 2 * r.standard_normal((3, 8))
    grad = r.standard_normal((3, 4))
    got = situ_glu_grad(grad, x, -1, beta, linear_beta, left)
    want = _numeric_gradient(lambda v: situ_glu(v, -1, beta, linear_beta, left), grad, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("left", [True, False])
def test_ge_glu_grad_v2_is_the_derivative_of_ge_glu(approximate: str, left: bool) -> None:
    """With gelu the forward's own GeLU half (as GeGluV2 writes it), the gradient of
    gelu(a) * b (or a * gelu(b)) in float64."""
    from hswc.reference_gated import ge_glu_grad_v2

    r = np.random.default_rng(4)
    x = 2 * r.standard_normal((3, 8))
    grad = r.standard_normal((3, 4))
    gelu = _gelu(x[:, :4] if left else x[:, 4:], approximate)
    got = ge_glu_grad_v2(grad, x, gelu, -1, approximate, left)
    want = _numeric_gradient(lambda v: ge_glu(v, -1, approximate, left), grad, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("interleaved", [True, False])
def test_clipped_swiglu_grad_is_the_derivative_of_clipped_swiglu(interleaved: bool) -> None:
    """Away from the clamps' corners (no element within the step of +-limit)."""
    r = np.random.default_rng(7)
    x = 4 * r.standard_normal((3, 16))
    x[np.abs(np.abs(x) - 2.0) < 1e-3] += 0.01
    grad = r.standard_normal((3, 8))
    attrs = {"alpha": 1.5, "limit": 2.0, "bias": 0.5, "interleaved": interleaved}
    got = clipped_swiglu_grad(grad, x, -1, **attrs)
    want = _numeric_gradient(lambda v: clipped_swiglu(v, -1, **attrs), grad, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    assert (got[x > 2.0] == 0).any() or not (x > 2.0).any()


def test_clipped_swiglu_grad_values_by_hand() -> None:
    """One pair (a, b) = (0, 1), interleaved: s = 1/2, da = (1 * (1/2)) * (1 + bias) * g =
    1.0 * g for bias 1, db = 0 * s * g = 0; a pair past the limit (a = 8 > 7) has da = 0 and
    db = 7 * sigmoid(1.702 * 7) * g."""
    got = clipped_swiglu_grad(np.array([[2.0, 3.0]]), np.array([[0.0, 1.0, 8.0, 1.0]]))
    np.testing.assert_allclose(got, [[2.0, 0.0, 0.0, 3 * 7 / (1 + np.exp(-1.702 * 7))]])


def test_ge_glu_grad_v2_takes_the_gelu_it_is_given() -> None:
    """The other half's gradient is grad * gelu, whatever gelu holds (the kernel reads it)."""
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    got = run_variant_reference("hsg.ge_glu_grad_v2", [np.array([[2.0, 3.0]]), x,
                                                       np.array([[10.0, 100.0]])])
    np.testing.assert_array_equal(got[0, :2], [20.0, 300.0])  # activate_left false: d_a


CASES = {
    "situ_glu_grad": ("hsg.situ_glu_grad", "{beta = 2.0 : f32, linear_beta = 0.5 : f32, "
                      "activate_left = false}", {"beta": 2.0, "linear_beta": 0.5,
                                                 "activate_left": False}),
    "situ_glu_grad_default": ("hsg.situ_glu_grad", "", {}),
    "ge_glu_grad_v2": ("hsg.ge_glu_grad_v2", "", {}),
    "ge_glu_grad_v2_none_left": ("hsg.ge_glu_grad_v2", '{approximate = "none", '
                                 "activate_left = true}",
                                 {"approximate": "none", "activate_left": True}),
    "clipped_swiglu_grad": ("hsg.clipped_swiglu_grad", "", {}),
    "clipped_swiglu_grad_halves": ("hsg.clipped_swiglu_grad", "{alpha = 1.5 : f32, limit = "
                                   "2.0 : f32, bias = 0.5 : f32, interleaved = false}",
                                   {"alpha": 1.5, "limit": 2.0, "bias": 0.5,
                                    "interleaved": False}),
}
DEFAULT = {("situ_glu_grad", "f16"), ("ge_glu_grad_v2", "bf16"),
           ("ge_glu_grad_v2_none_left", "f32"), ("situ_glu_grad_default", "f32"),
           ("clipped_swiglu_grad", "bf16"), ("clipped_swiglu_grad_halves", "f16")}


@pytest.mark.parametrize(("name", "dtype"), [
    pytest.param(n, d, id=f"{n}_{d}", marks=[] if (n, d) in DEFAULT else [pytest.mark.sweep])
    for n in CASES for d in NUMPY])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
def test_every_level_within_tolerance_of_the_golden_model(name: str, dtype: str,
                                                          level: str) -> None:
    op, text, attrs = CASES[name]
    r = np.random.default_rng(5)
    t = NUMPY[dtype]
    x = (3 * r.standard_normal((6, 96))).astype(t)
    inputs = [r.standard_normal((6, 48)).astype(t), x]
    if op == "hsg.ge_glu_grad_v2":
        inputs.append(r.standard_normal((6, 48)).astype(t))
    types = [_type(a.shape, dtype) for a in inputs]
    kernel = compile_text(module(op, text, types, _type(x.shape, dtype)), level=level,
                          core_num=5)
    got = np.asarray(kernel.run(*inputs).outputs[0])
    want = run_variant_reference(op, inputs, **attrs)
    assert got.dtype == x.dtype and got.shape == x.shape
    verdict = compare_tolerance(got, want)
    assert verdict.outside == 0 and verdict.specials_differ == 0, f"{name} {dtype}: {verdict}"


def test_checker_sizes_ge_glu_grad_v2s_tensors() -> None:
    """dy and gelu of [rows, H], x and dx of [rows, 2H]; ops-nn's approximate index 1 is tanh."""
    ref = from_gated_op("hsg.ge_glu_grad_v2", {"approximate": "1", "activate_left": "false"})
    assert ref.halves is not None
    assert dict(ref.halves.inputs) == {"grad": "half", "x": "x", "gelu": "half"}
    assert ref.halves.result == "x"
    assert "approximate = tanh" in ref.title
    r = np.random.default_rng(6)
    n = 64  # x of [1, 64]: H = 32
    x = r.standard_normal(n).astype(np.float32)
    dy, gelu = (r.standard_normal(n // 2).astype(np.float32) for _ in range(2))
    (got,) = ref.outputs("f32", [dy, x, gelu])
    want = run_variant_reference("hsg.ge_glu_grad_v2", [dy.reshape(1, 32), x.reshape(1, 64),
                                                        gelu.reshape(1, 32)])
    np.testing.assert_array_equal(got, want.reshape(-1))


@pytest.mark.parametrize(("text", "message"), [
    (module("hsg.ge_glu_grad_v2", "", ["tensor<4x4xf32>", "tensor<4x8xf32>",
                                       "tensor<4x8xf32>"], "tensor<4x8xf32>"),
     "gelu has type tensor<4x8xf32>; the forward result's is "
     "tensor<4x4xf32>"),
    (module("hsg.situ_glu_grad", "{beta = 0.0 : f32}", ["tensor<4x4xf16>", "tensor<4x8xf16>"],
            "tensor<4x8xf16>"), "beta must not be 0"),
    (module("hsg.situ_glu_grad", "", ["tensor<4x4xf16>", "tensor<4x7xf16>"],
            "tensor<4x7xf16>"), "does not split into two halves"),
    (module("hsg.clipped_swiglu_grad", "{limit = 0.0 : f32}",
            ["tensor<4x4xf16>", "tensor<4x8xf16>"], "tensor<4x8xf16>"), "limit must be > 0"),
    (module("hsg.clipped_swiglu_grad", "", ["tensor<4x4xf16>", "tensor<4x8xf16>",
                                            "tensor<2xi64>"], "tensor<4x8xf16>"),
     "operand 3 would be ops-nn's group_index"),
])
def test_refusals(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compile_text(text, level="hsg")
