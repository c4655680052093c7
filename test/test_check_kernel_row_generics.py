"""hswc-check-kernel's row-generic reference kind (hswc.checker.row_generics): ops-nn's reductions
no hsg op computes (confusion_softmax_grad, softmax_grad_ext, softmax_cross_entropy_with_logits,
p_relu_grad_reduce) as linalg.generics with reduction iterators, run by hswc's interpreter.
Each generic agrees with its definition's formula evaluated here in float64; the folders map to
them; examples/check_kernel/confusion_softmax_grad_op (an A2 kernel in ops-nn's layout) passes
as written, fails with -DSEEDED_SUM_OF_GRAD (sum(grad) for sum(grad * x)), and fails against a
deliberately wrong reference."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hswc.checker import row_generics
from hswc.checker.check import check
from hswc.checker.expected import from_row_generic
from hswc.checker.options import CheckOptions
from hswc.checker.row_generics import ROW_GENERICS, RowGeneric, Shape, outputs
from hswc.checker.sweep import ROW_GENERIC_FOLDERS, blocked, mapping

FOLDER = (Path(__file__).resolve().parents[1] / "examples" / "check_kernel"
          / "confusion_softmax_grad_op")
BASE = CheckOptions(kernel=str(FOLDER), op="confusion_softmax_grad", soc="ascend910b",
                    core_num=4, sizes=(258,), jobs=2, dtypes=("f16", "f32"))
ROWS, LENGTH = 3, 8


def _log_softmax(f: np.ndarray) -> np.ndarray:
    shifted = f - f.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _oracle(name: str, args: list[np.ndarray]) -> list[np.ndarray]:
    """The definitions' formulas in float64, written here independently of the generics."""
    a = [x.astype(np.float64) for x in args]
    if name == "confusion_softmax_grad":
        grad, x = a
        return [grad - (grad * x).sum(axis=-1, keepdims=True)]
    if name == "softmax_grad_ext":
        grad, x1, x2 = a
        return [(grad - (grad * x1).sum(axis=-1, keepdims=True)) * x1 * x2[0]]
    if name == "softmax_cross_entropy_with_logits":
        features, labels = a
        ls = _log_softmax(features)
        return [-(labels * ls).sum(axis=-1), np.exp(ls) - labels]
    assert name == "p_relu_grad_reduce"
    return [a[3].sum(axis=0)]


def _draw(g: RowGeneric, dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    size = {"x": (ROWS, LENGTH), "column": (LENGTH,), "row": (ROWS,), "one": (1,)}
    return [rng.standard_normal(size[k]).astype(dtype) for _, k in g.inputs]


@pytest.mark.parametrize("name", sorted(ROW_GENERICS))
@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), [("f32", np.float32, 2e-6),
                                                         ("f16", np.float16, 2e-3)])
def test_each_generic_computes_its_definition(name: str, dtype: str, np_dtype: type,
                                              tol: float) -> None:
    g = ROW_GENERICS[name]
    args = _draw(g, np_dtype)
    got = outputs(name, dtype, args)
    want = _oracle(name, args)
    assert [r.shape for r in got] == [w.shape for w in want]
    for r, w in zip(got, want, strict=True):
        assert r.dtype == np_dtype
        np.testing.assert_allclose(r.astype(np.float64), w, rtol=tol, atol=tol)


def test_the_reduction_folders_map_to_their_generics() -> None:
    for name in ROW_GENERIC_FOLDERS:
        found = mapping(Path("/ops-nn/activation") / name)
        assert found is not None and found[:2] == (name, {}) and name in ROW_GENERICS
        assert blocked(Path("/ops-nn/activation") / name) is None


def test_the_reference_sizes_each_tensor_by_its_kind() -> None:
    """softmax_cross_entropy_with_logits: loss of [rows], backprop of [rows, L]; the run of 96
    elements is 3 rows of 32 (hswc.checker.halves)."""
    ref = from_row_generic("softmax_cross_entropy_with_logits", {})
    assert ref.halves is not None and not ref.exact and ref.result_count == 2
    assert [ref.halves.output_size(k, 96) for k in range(2)] == [3, 96]
    flat = [np.random.default_rng(2).standard_normal(96).astype(np.float32) for _ in range(2)]
    loss, backprop = ref.outputs("f32", flat)
    want = _oracle("softmax_cross_entropy_with_logits", [a.reshape(3, 32) for a in flat])
    np.testing.assert_allclose(loss, want[0], rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(backprop, want[1].reshape(-1), rtol=2e-6, atol=1e-7)


def test_a_right_kernel_passes() -> None:
    report = check(BASE)
    assert report.passed, report.format()
    assert "confusion_softmax_grad: hswc.checker.row_generics' generic" in report.reference


def test_a_kernel_summing_the_wrong_product_is_caught() -> None:
    report = check(replace(BASE, dtypes=("f32",), defines={None: ("SEEDED_SUM_OF_GRAD",)}))
    assert not report.passed


def _grad_minus_its_sum(s: Shape) -> str:
    """A wrong reference: y = grad - sum(grad), the product with x left out."""
    right = row_generics._confusion_softmax_grad(s)
    body = right.split("  %ye = ", 1)[1]
    return row_generics._row_sum(s, "sum", "grad") + "  %ye = " + body


def test_a_wrong_reference_fails_the_right_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = replace(ROW_GENERICS["confusion_softmax_grad"], body=_grad_minus_its_sum)
    monkeypatch.setitem(ROW_GENERICS, "confusion_softmax_grad", wrong)
    row_generics._kernel.cache_clear()
    try:
        report = check(replace(BASE, dtypes=("f32",)))
    finally:
        row_generics._kernel.cache_clear()
    assert not report.passed
