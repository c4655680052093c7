"""The operators that reduce along a dim (hsg.softmax, hsg.log_softmax, their gradients,
hsg.rms_norm, hsg.layer_norm): at every level against PyTorch's own results (eager, recorded
in test/fixtures/torch_models/reductions by tools/export_model_fixtures.py), within PyTorch's
default tolerance; hand-checked values; and what the verifier refuses.

The hsg level runs the golden model (hswc.reference_norms, float64 rounded once); the levels
below run the decomposition (hswc.ops.norm_ops: f32), its reductions with the work around them
a row kernel on the modelled cores where one is built (test_row_kernels, test_lane_rows), else
on the host in MLIR's summation order.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.reference import compare_tolerance
from hswc.remarks import collecting
from hswc.runner import CompileError, compile_text

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models" / "reductions"
NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
CASES = {
    "softmax_rows64": ("hsg.softmax", "{dim = -1 : i64}", 1),
    "softmax_3d_dim0": ("hsg.softmax", "{dim = 0 : i64}", 1),
    "softmax_3d_dim1": ("hsg.softmax", "{dim = 1 : i64}", 1),
    "log_softmax_rows64": ("hsg.log_softmax", "{dim = -1 : i64}", 1),
    "softmax_backward_rows64": ("hsg.softmax_grad", "{dim = -1 : i64}", 2),
    "log_softmax_backward_rows64": ("hsg.log_softmax_grad", "{dim = -1 : i64}", 2),
    "rms_norm_rows64": ("hsg.rms_norm", "{epsilon = 1.0e-06 : f32}", 2),
    "layer_norm_rows64": ("hsg.layer_norm", "{epsilon = 1.0e-05 : f32}", 3),
}
"""Fixture -> (op, attributes, operands), as the fixture's description calls PyTorch."""
DEFAULT = {("softmax_rows64", "f16"), ("softmax_3d_dim0", "f32"),
           ("softmax_backward_rows64", "bf16"), ("log_softmax_rows64", "f32"),
           ("rms_norm_rows64", "bf16"), ("layer_norm_rows64", "f32")}
"""Run by default (a second or so each); the rest under the sweep marker."""


def module(op: str, attributes: str, types: list[str]) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    listed = ", ".join(types) if len(set(types)) > 1 else types[0]
    operands = ", ".join(f"%a{i}" for i in range(len(types)))
    return (f"func.func @f({args}) -> {types[0]} {{\n"
            f"  %y = {op} {operands} {attributes} : {listed}\n"
            f"  return %y : {types[0]}\n}}\n")


def _type(a: np.ndarray, dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, a.shape))}x{dtype}>"


@pytest.mark.parametrize(("name", "dtype"), [
    pytest.param(n, d, id=f"{n}_{d}", marks=[] if (n, d) in DEFAULT else [pytest.mark.sweep])
    for n in CASES for d in NUMPY])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
def test_equals_pytorch_within_its_tolerance(name: str, dtype: str, level: str) -> None:
    op, attributes, count = CASES[name]
    data = np.load(FIXTURES / f"{name}_{dtype}.npz")
    inputs = [data[f"in{i}"].view(NUMPY[dtype]) for i in range(count)]
    want = data["torch0"].view(NUMPY[dtype])
    with collecting() as said:
        kernel = compile_text(module(op, attributes, [_type(a, dtype) for a in inputs]),
                              level=level)
    got = kernel.run(*inputs).outputs[0]
    within = compare_tolerance(got, want)
    assert within.equal, within.summary()
    if level == "ascend":  # the reductions in a row kernel (the last dim; dim 0 of (3, 4, 16):
        # one row of 64 lanes, test_lane_rows) or on the host (dim 1: runs of 16 columns)
        launches = [r for r in said if r.text.startswith("becomes a launch")]
        rows = [r for r in launches if r.text.startswith("becomes a launch of the row kernel")]
        reductions = [r for r in said if r.text == "stays on the host (a reduction)"]
        assert launches and (rows if name != "softmax_3d_dim1" else reductions), said


def test_hand_checked_values() -> None:
    """softmax([0, ln 3]) = [1/4, 3/4]; its log is [ln 1/4, ln 3/4]; rms_norm of [3, 4] is
    [3, 4] / sqrt(12.5); layer_norm of [1, 3] is [-1, 1] (variance 1, epsilon 0)."""
    x = np.array([[0.0, np.log(3.0)]], np.float32)
    t = "tensor<1x2xf32>"
    for level in ("hsg", "ascend"):
        soft = compile_text(module("hsg.softmax", "{dim = 1 : i64}", [t]), level=level)(x)
        assert np.allclose(soft, [[0.25, 0.75]], rtol=2e-7)
        log = compile_text(module("hsg.log_softmax", "{dim = -1 : i64}", [t]), level=level)(x)
        assert np.allclose(log, np.log([[0.25, 0.75]]), rtol=2e-7)
        w = np.ones(2, np.float32)
        rms = compile_text(module("hsg.rms_norm", "{epsilon = 0.0 : f32}",
                                  [t, "tensor<2xf32>"]), level=level)(
            np.array([[3.0, 4.0]], np.float32), w)
        assert np.allclose(rms, [[3 / 12.5 ** 0.5, 4 / 12.5 ** 0.5]], rtol=2e-7)
        ln = compile_text(module("hsg.layer_norm", "{epsilon = 0.0 : f32}",
                                 [t, "tensor<2xf32>", "tensor<2xf32>"]), level=level)(
            np.array([[1.0, 3.0]], np.float32), w, np.zeros(2, np.float32))
        assert np.array_equal(ln, [[-1.0, 1.0]])


@pytest.mark.parametrize(("text", "message"), [
    (module("hsg.softmax", "{dim = 2 : i64}", ["tensor<4x8xf32>"]),
     "dim 2 is out of range for rank 2 (-2 to 1)"),
    (module("hsg.softmax", "{epsilon = 1.0 : f32}", ["tensor<4x8xf32>"]),
     "takes `dim`, not `epsilon`"),
    (module("hsg.rms_norm", "{dim = 0 : i64}", ["tensor<4x8xf32>", "tensor<8xf32>"]),
     "normalises the last dim: it takes `epsilon`, not `dim`"),
    (module("hsg.rms_norm", "{}", ["tensor<4x8xf32>", "tensor<4xf32>"]),
     "weight has type tensor<4xf32>; it must be a rank-1 tensor of the last dim's size"),
    (module("hsg.layer_norm", "{epsilon = -1.0 : f32}",
            ["tensor<4x8xf16>", "tensor<8xf16>", "tensor<8xf16>"]),
     "epsilon must be finite and not negative, got -1.0"),
    (module("hsg.softmax_grad", "{}", ["tensor<4x8xf32>", "tensor<4x8xf16>"]),
     "output has type tensor<4x8xf16>, not grad_output's tensor<4x8xf32>"),
    (module("hsg.softmax", "{}", ["tensor<4x8xi32>"]),
     "x has element type i32; torch.softmax takes f16, bf16 and f32"),
])
def test_refused_at_the_op(text: str, message: str) -> None:
    with pytest.raises(CompileError, match="2:3: error: .*" + message.replace("(", r"\(")
                       .replace(")", r"\)").replace("?", r"\?")):
        compile_text(text, level="ascend")
