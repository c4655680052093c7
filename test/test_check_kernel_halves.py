"""hswc-check-kernel on a gated op's kernel: x of [rows, 2H], the result of [rows, H] and a
one-element threshold (hswc.checker.halves), given to the op's own tiling as 2-d shapes and to
the kernel as such; examples/check_kernel/fatrelu_mul_op is a FatreluMul in ops-nn's layout,
right as written and wrong with -DSEEDED_GE (a >= threshold kept, as FatreluMul's README reads)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hswc.checker import halves
from hswc.checker.check import check
from hswc.checker.errors import CheckError
from hswc.checker.expected import from_gated_op
from hswc.checker.options import CheckOptions
from hswc.reference_gated import run_variant_reference

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "fatrelu_mul_op"
BASE = CheckOptions(kernel=str(FOLDER), op="hsg.fatrelu_mul", soc="ascend910b", core_num=4,
                    sizes=(258, 4096), jobs=2, dtypes=("f16", "f32"))


@pytest.mark.parametrize(("n", "rows", "half"), [
    (2, 1, 1), (3, 1, 2), (254, 127, 1), (4096, 4, 512), (1 << 20, 1024, 512), (96, 3, 16)])
def test_a_size_is_rows_of_two_halves(n: int, rows: int, half: int) -> None:
    assert halves.rows_and_half(n) == (rows, half)
    assert halves.shape("x", n) == (rows, 2 * half)
    assert halves.shape("half", n) == (rows, half)


def test_the_reference_cuts_x_into_rows_and_fixes_the_threshold() -> None:
    ref = from_gated_op("hsg.fatrelu_mul", {})
    assert ref.halves is not None and ref.halves.fixed == {"threshold": 0.5}
    assert 0.5 in ref.thresholds and not ref.exact
    drawn = [np.arange(8, dtype=np.float32) / 4 - 1, np.zeros(8, np.float32)]
    x, t = ref.halves.sized(ref.input_names, drawn, 8)
    assert t.tolist() == [0.5] and x.size == 8
    (y,) = ref.outputs("f32", [x, t])
    want = run_variant_reference("hsg.fatrelu_mul", [x.reshape(2, 4), t])
    assert y.tolist() == want.reshape(-1).tolist()
    assert y.tolist() == [0.0, 0.0, 0.0, 0.0]  # rows a | b: [-1, -.75 | -.5, -.25], [0, .25 | ..]


def test_the_kernel_reading_halves_passes() -> None:
    report = check(BASE)
    assert report.passed, report.format()
    assert {o.size for o in report.outcomes} == {258, 4096}
    assert all(o.block_dim == 4 for o in report.outcomes)  # its tiling saw 129 and 4 rows
    assert "hsg.fatrelu_mul" in report.reference


def test_a_kernel_keeping_a_at_the_threshold_is_caught() -> None:
    report = check(BASE.__class__(**{**BASE.__dict__, "dtypes": ("f32",),
                                     "defines": {None: ("SEEDED_GE",)}}))
    assert not report.passed
    shown = [d for o in report.outcomes for ds in o.differences or () for d in ds]
    assert shown and all("(0.5)" in d.inputs[0] for d in shown), shown  # a == threshold
    assert report.input_names[:2] == ("x (first half)", "x (second half)")


@pytest.mark.parametrize(("change", "message"), [
    ({"sizes": (257,)}, "--sizes 257: hsg.fatrelu_mul splits x in two halves"),
    ({"ignore_nan_inputs": ("x",)}, "--ignore-nan-inputs: hsg.fatrelu_mul's result"),
    ({"attrs": {"dim": "0"}}, "--attr dim: neither hsg.fatrelu_mul (attributes: none)"),
    ({"semantics": "torch"}, "--semantics: hsg.fatrelu_mul has one semantics"),
])
def test_what_a_gated_check_refuses(change: dict[str, object], message: str) -> None:
    options = BASE.__class__(**{**BASE.__dict__, **change})
    with pytest.raises(CheckError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check(options)


def test_a_split_dim_other_than_the_last_is_refused() -> None:
    with pytest.raises(CheckError, match=r"--attr dim=0: the checker splits the last dim"):
        from_gated_op("hsg.situ_glu", {"dim": "0"})
    with pytest.raises(CheckError, match=r"--attr beta=x: hsg\.situ_glu's beta is float"):
        from_gated_op("hsg.situ_glu", {"beta": "x"})


def test_group_index_runs_compare_the_counted_rows_and_check_the_rest_unwritten() -> None:
    """The fixture's definition takes an optional int64 group_index (as ClippedSwiglu's): besides
    the runs without it, one size gets counts summing below, at and above its rows (4096
    elements: 4 rows of 2 x 512), each a pass only if the counted rows match and no other row
    is written."""
    report = check(BASE.__class__(**{**BASE.__dict__, "dtypes": ("f32",)}))
    assert report.passed, report.format()
    counted = [o.counted for o in report.outcomes if o.counted is not None]
    assert counted == [
        "group_index [2]: 2 of 4 rows compared, the rest checked unwritten",
        "group_index [1, 0, 3]: 4 of 4 rows compared, the rest checked unwritten",
        "group_index [4, 3]: 4 of 4 rows compared, the rest checked unwritten"]
    assert len(report.outcomes) == 5
    assert "group_index <- none (an optional input left out: a null address; its int64 counts " \
           "in the group_index runs)" in report.arguments


def test_a_kernel_ignoring_group_index_is_caught() -> None:
    """-DSEEDED_ALL_ROWS: the counts are ignored, every row written; the run counting 2 of 4
    rows reports the rows written past them (the harness's --written-bytes), the others pass."""
    report = check(BASE.__class__(**{**BASE.__dict__, "dtypes": ("f32",),
                                     "defines": {None: ("SEEDED_ALL_ROWS",)}}))
    assert not report.passed
    failed = [o for o in report.outcomes if not o.passed]
    assert [o.counted for o in failed] == [
        "group_index [2]: 2 of 4 rows compared, the rest checked unwritten"]
    assert failed[0].violations and "written past" in str(failed[0].violations[0]), \
        report.format()


def test_only_an_optional_int64_group_index_is_given_counts() -> None:
    from hswc.checker.counts import counts_input, drawn, written

    inputs = [("x", (1, 27, 0)), ("group_index", (9, 9, 9))]
    assert counts_input(inputs, {1}) == 1
    assert counts_input(inputs, set()) is None  # required: not a count the checker may leave out
    assert counts_input([("x", (1,)), ("group_index", (3,))], {1}) is None  # int32: not ops-nn's
    assert drawn(5) == [(2,), (1, 0, 4), (5, 3)]  # sums 2, 5 and 8 of 5 rows
    assert written((2,), 4096, [2048]) == [1024]  # 2 of 4 rows of 512
    assert written((-3,), 4096, [2048]) == [0]  # a negative sum: 0 rows (hsg.first_rows)


def test_a_gradients_rows_past_the_counts_are_expected_zero() -> None:
    """ClippedSwigluGrad zeroes the rows it does not compute (counts.zeroed); a forward op's
    expected outputs are left as they are (its rows past the count are checked unwritten)."""
    from hswc.checker.counts import zeroed

    dx = np.arange(1.0, 4097.0, dtype=np.float32)  # x of 4 rows of 1024: dx has x's size
    kept = zeroed([dx], (3,), 4096)[0]
    assert (kept[:3072] == dx[:3072]).all() and (kept[3072:] == 0).all()
    assert zeroed([dx], None, 4096)[0] is dx
    assert (dx[3072:] != 0).all()  # the input is not changed
