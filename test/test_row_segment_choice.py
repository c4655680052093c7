"""The segment of a row in segments, chosen by the cost model (hswc.passes.row_segment_choice):
the candidates by hand, and the choice on kernels whose faster segment bench/README.md's
bench_rows section measured by hand before the choice existed (rounding the segment down to a
tree length: Ascend 950 softmax f32 at 60,000, 88.8% -> 97.0% of the roofline)."""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.passes import PassPipeline

from hswc.passes import row_segment_choice
from hswc.passes.row_segment_choice import longest_tree_length, segment_candidates
from hswc.pipeline import PASSES, context, parse_text
from hswc.reduction_order import tree_levels
from hswc.rows import read_rows


@pytest.mark.parametrize(("longest", "tree"), [
    (12032, 8192), (5312, 4096), (4096, 4096), (2944, 2944), (3000, 2944), (128, 128),
    (100, None), (64, None), (300000, 262144)])
def test_the_longest_tree_length(longest: int, tree: int | None) -> None:
    assert longest_tree_length(longest) == tree
    if tree is not None:
        assert tree_levels(tree) is not None


@pytest.mark.parametrize(("length", "longest", "want"), [
    (60000, 12032, [12032, 8192]),  # 5 segments of 12,032 are already as even as can be
    (60000, 5312, [5312, 4096, 5056]),  # 12 segments: 11 of 5056 and one of 4384
    (12345, 12288, [12288, 6208]),  # 12,288 is a tree length itself; 2 of 6208
    (200, 128, [128]),  # a tree length, and 2 of 128 as even as can be
])
def test_the_candidates(length: int, longest: int, want: list[int]) -> None:
    assert segment_candidates(length, longest) == want


SOFTMAX = """func.func @f(%x: tensor<64x60000xf32>) -> tensor<64x60000xf32> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<64x60000xf32>
  return %y : tensor<64x60000xf32>
}
"""
FAST = "double-buffer=true early-free=true in-place=true x-first=true"


def _segment(text: str, soc: str) -> int | None:
    module = parse_text(text, "<test>")
    pipeline = f"hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{{soc={soc} rows=true {FAST}}}"
    PassPipeline.parse_spec(PASSES, pipeline).apply(context(), module)
    (kernel,) = [f for f in module.walk() if isinstance(f, func.FuncOp)
                 and read_rows(f) is not None]
    rows = read_rows(kernel)
    assert rows is not None
    return rows.segment


def test_a_named_schedule_takes_the_modelled_segment() -> None:
    """950 softmax f32 at 60,000 on the fast schedule: the longest segment (12,544) is not a
    tree length; 12,288 is, and was measured faster by hand."""
    row_segment_choice._chosen.clear()
    assert _segment(SOFTMAX, "ascend950") == 12288


def test_the_longest_is_kept_where_no_other_is_modelled_faster(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A model that finds every candidate equally fast keeps the longest (the tie-break)."""
    from hswc.passes import schedule_choice

    row_segment_choice._chosen.clear()
    monkeypatch.setattr(schedule_choice, "modelled_time", lambda *_: 1.0)
    assert _segment(SOFTMAX, "ascend950") == 12544
