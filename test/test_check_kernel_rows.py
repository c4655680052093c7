"""hswc-check-kernel on the softmax family: ops-nn's softmax_v2, log_softmax_v2, softmax_grad and
log_softmax_grad folders map to hsg.softmax, log_softmax, softmax_grad and log_softmax_grad
(hswc.checker.sweep.ROW_FOLDERS), every tensor of [rows, L] reduced along L (dim -1) and compared
within PyTorch's tolerance of the float64 model. examples/check_kernel/softmax_op is a softmax in
ops-nn's layout (its axes a ListInt attribute, read by GetListInt), right as written and wrong
with -DSEEDED_NO_MAX (the maximum not subtracted: exp overflows)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hswc.checker import halves
from hswc.checker.check import check
from hswc.checker.errors import CheckError
from hswc.checker.expected import from_row_op
from hswc.checker.options import CheckOptions
from hswc.checker.sweep import blocked, mapping

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "softmax_op"
BASE = CheckOptions(kernel=str(FOLDER), op="hsg.softmax", soc="ascend910b", core_num=4,
                    sizes=(258, 4096), jobs=2, dtypes=("f16", "f32"))


@pytest.mark.parametrize(("folder", "op"), [
    ("activation/softmax_v2", "hsg.softmax"),
    ("activation/log_softmax_v2", "hsg.log_softmax"),
    ("activation/softmax_grad", "hsg.softmax_grad"),
    ("activation/log_softmax_grad", "hsg.log_softmax_grad"),
    ("experimental/activation/log_softmax_v2", "hsg.log_softmax"),
    ("experimental/activation/log_softmax_grad", "hsg.log_softmax_grad")])
def test_the_softmax_folders_map_to_the_row_ops(folder: str, op: str) -> None:
    mapped = mapping(Path("/ops-nn") / folder)
    assert mapped is not None and mapped[0] == op and mapped[1] == {}
    assert blocked(Path("/ops-nn") / folder) is None


def test_experimental_softmax_v2_reduces_dim_3_of_four_d_tensors() -> None:
    """Its tiling takes 4-d x and dim in [0, 3] (README), so the sweep gives dim = 3 and the
    run's tensors are [1, 1, rows, L]: the same rows, reduced along L."""
    mapped = mapping(Path("/ops-nn/experimental/activation/softmax_v2"))
    assert mapped is not None and mapped[:2] == ("hsg.softmax", {"dim": "3"})
    ref = from_row_op("hsg.softmax", {"dim": "3"})
    assert ref.halves is not None and ref.halves.rows_only
    assert halves.shape("x4", 96) == (1, 1, 3, 32)
    x = np.random.default_rng(5).standard_normal(96).astype(np.float32)
    (y,) = ref.outputs("f32", [x])
    want = _softmax_rows(x.astype(np.float64).reshape(3, 32))
    np.testing.assert_allclose(y, want.reshape(-1), rtol=2e-6, atol=1e-7)
    assert "{dim = 3} (every tensor of [1, 1, rows, L]" in ref.title


def _softmax_rows(x: np.ndarray) -> np.ndarray:
    """softmax along the last dim in float64 (written here, independently of hswc)."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize(("op", "count"), [("hsg.softmax", 1), ("hsg.log_softmax_grad", 2)])
def test_the_reference_reduces_rows_of_the_run(op: str, count: int) -> None:
    ref = from_row_op(op, {})
    assert ref.halves is not None and ref.halves.rows_only and not ref.exact
    rng = np.random.default_rng(3)
    flat = [rng.standard_normal(96).astype(np.float32) for _ in range(count)]
    assert halves.shape("x", 96) == (3, 32)
    (y,) = ref.outputs("f32", flat)
    rows = [a.astype(np.float64).reshape(3, 32) for a in flat]
    want = _softmax_rows(rows[0]) if count == 1 else \
        rows[0] - np.exp(rows[1]) * rows[0].sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(y, want.reshape(-1), rtol=2e-6, atol=1e-7)


def test_the_softmax_kernel_passes_and_its_tiling_reads_the_axes_list() -> None:
    report = check(BASE)
    assert report.passed, report.format()
    assert {o.size for o in report.outcomes} == {258, 4096}
    assert all(o.block_dim == 4 for o in report.outcomes)  # its tiling saw 129 and 4 rows
    assert "hsg.softmax {dim = -1}" in report.reference


def test_a_softmax_without_its_maximum_is_caught() -> None:
    report = check(replace(BASE, dtypes=("f32",), defines={None: ("SEEDED_NO_MAX",)}))
    assert not report.passed


@pytest.mark.parametrize(("change", "message"), [
    ({"sizes": (257,)}, "--sizes 257: hsg.softmax views its tensors as rows of an even length"),
    ({"ignore_nan_inputs": ("x",)}, "each of its elements reads a whole row"),
    ({"attrs": {"dim": "0"}}, "--attr dim=0: the checker reduces the last dim (-1, or 3 of "
                              "tensors viewed as [1, 1, rows, L])"),
    ({"semantics": "torch"}, "--semantics: hsg.softmax has one semantics"),
])
def test_what_a_row_check_refuses(change: dict[str, object], message: str) -> None:
    with pytest.raises(CheckError, match=re.escape(message)):
        check(replace(BASE, **change))  # type: ignore[arg-type]
