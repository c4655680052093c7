"""hsg.ge_glu_v2, ops-nn's GeGluV2: two results, y and the GeLU half, at every level within
PyTorch's tolerance of the golden model (whose y is hsg.ge_glu's, checked against PyTorch in
test_gated_ops); the GeLU half against hand-computed values; one kernel writing both; the
checker's reference of two outputs; what the verifier refuses.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from hswc.checker.expected import from_gated_op
from hswc.reference import compare_tolerance
from hswc.reference_gated import run_gated_reference, run_variant_outputs
from hswc.runner import CompileError, compile_text

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}


def _module(dtype: str, attributes: str = "", shape: tuple[int, int] = (6, 96),
            dim: int = -1) -> str:
    x = f"tensor<{shape[0]}x{shape[1]}x{dtype}>"
    half = list(shape)
    half[dim] //= 2
    h = f"tensor<{half[0]}x{half[1]}x{dtype}>"
    return (f"func.func @f(%x: {x}) -> ({h}, {h}) {{\n"
            f"  %y, %gelu = hsg.ge_glu_v2 %x {attributes} : {x}\n"
            f"  return %y, %gelu : {h}, {h}\n}}\n")


def test_defaults_are_opsnns_and_y_is_ge_glus() -> None:
    """approximate tanh, activate_left false (GeGluV2's definition): y = a * [gelu(b)]."""
    x = np.array([[1.0, -2.0, 0.5, 3.0]], np.float32)
    y, gelu = run_variant_outputs("hsg.ge_glu_v2", [x])
    k = math.sqrt(2 / math.pi)
    want = [0.5 * v * (1 + math.tanh(k * (v + 0.044715 * v ** 3))) for v in (0.5, 3.0)]
    np.testing.assert_allclose(gelu, [want], rtol=1e-7)
    np.testing.assert_array_equal(y, run_gated_reference(
        "hsg.ge_glu", [x], dim=-1, approximate="tanh", activate_left=False))


@pytest.mark.parametrize(("dtype", "attributes", "dim"), [
    ("f16", "", -1),
    ("bf16", '{approximate = "none", activate_left = true}', -1),
    ("f32", '{dim = 0 : i64, activate_left = true}', 0),
])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
def test_every_level_within_tolerance(dtype: str, attributes: str, dim: int,
                                      level: str) -> None:
    r = np.random.default_rng(7)
    x = (3 * r.standard_normal((6, 96) if dim == -1 else (8, 40))).astype(NUMPY[dtype])
    kernel = compile_text(_module(dtype, attributes, x.shape, dim), level=level, core_num=5)
    got = [np.asarray(v) for v in kernel.run(x).outputs]
    attrs = {"approximate": "none", "activate_left": True} if "none" in attributes else \
        {"activate_left": True} if "true" in attributes else {}
    want = run_variant_outputs("hsg.ge_glu_v2", [x], dim=dim, **attrs)
    assert len(got) == 2
    for name, g, w in zip(("y", "gelu"), got, want, strict=True):
        assert g.dtype == x.dtype and g.shape == w.shape, name
        verdict = compare_tolerance(g, w)
        assert verdict.outside == 0 and verdict.specials_differ == 0, f"{name}: {verdict}"
    if level == "ascend":
        assert str(kernel.module).count("hsg.launch") == 1, "one kernel writes y and gelu"


def test_the_checker_compares_both_outputs() -> None:
    ref = from_gated_op("hsg.ge_glu_v2", {"approximate": "1", "activate_left": "false"})
    assert ref.result_count == 2 and ref.halves is not None and ref.halves.result == "half"
    x = np.random.default_rng(8).standard_normal(64).astype(np.float32)
    y, gelu = ref.outputs("f32", [x])
    want = run_variant_outputs("hsg.ge_glu_v2", [x.reshape(1, 64)])
    np.testing.assert_array_equal(y, want[0].reshape(-1))
    np.testing.assert_array_equal(gelu, want[1].reshape(-1))


def test_refusals() -> None:
    with pytest.raises(CompileError, match="does not split into two halves"):
        compile_text(_module("f16", "", (4, 7)), level="hsg")
    with pytest.raises(CompileError, match='approximate must be "none" or "tanh"'):
        compile_text(_module("f16", '{approximate = "erf"}'), level="hsg")
