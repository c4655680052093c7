"""hswc.reduction_order: a row kernel's order of combination, with hand-computed sums whose
value depends on the order (so another order fails them), and its in-repeat step read from the
one definition of WholeReduce's order (hswc.reduce_semantics), never a copy of it."""

from __future__ import annotations

import numpy as np
import pytest

from hswc import reduce_semantics
from hswc.reduction_order import (
    LANES_F32,
    Fold,
    fold_plan,
    reduce_rows,
    tree_levels,
    whole_reduce,
)

F32 = np.float32
BIG = 1e8
"""Far above 2^24: adding 1 to it is lost in f32."""


def test_in_repeat_order_is_the_neighbour_tree() -> None:
    """[BIG, 1, -BIG, 1]: the neighbour tree (ReduceDataBlock.md's 二叉树累加) gives
    (BIG + 1) + (-BIG + 1) = BIG - BIG = 0; halving (lane i with i + 2) would give 2 and a
    sequential loop 1."""
    row = np.array([[BIG, 1.0, -BIG, 1.0]], dtype=F32)
    assert reduce_rows(row, "addf")[0] == 0.0


def test_odd_count_passes_the_lone_lane_on() -> None:
    """Three lanes: (a + b) + c with c passed on unchanged by its absent neighbour."""
    row = np.array([[BIG, -BIG, 1.0]], dtype=F32)
    assert reduce_rows(row, "addf")[0] == 1.0
    row = np.array([[1.0, BIG, -BIG]], dtype=F32)
    assert reduce_rows(row, "addf")[0] == 0.0  # (1 + BIG) + (-BIG): the 1 is lost


def test_a_negative_zero_survives_the_masked_lanes() -> None:
    """A lane left out takes no part: a row of one -0.0 sums to -0.0, not +0.0."""
    result = reduce_rows(np.array([[-0.0]], dtype=F32), "addf")
    assert np.signbit(result[0])


def test_folds_then_one_repeat() -> None:
    """130 values: groups 0, 1 and a partial group 2 of 2 lanes. Level 1 folds group 2 into
    group 0 (2 lanes); level 2 folds group 1 into group 0; then the tree of group 0."""
    assert fold_plan(130) == [[Fold(0, 2, 2)], [Fold(0, 1, 64)]]
    row = np.zeros((1, 130), dtype=F32)
    row[0, 128] = BIG   # folded onto lane 0 first
    row[0, 0] = 1.0
    row[0, 64] = -BIG   # folded onto lane 0 next: (1 + BIG) - BIG = 0
    assert reduce_rows(row, "addf")[0] == 0.0


@pytest.mark.parametrize("combiner", ["addf", "maximumf", "minimumf"])
@pytest.mark.parametrize("count", [1, 2, 7, 33, 64])
def test_whole_reduce_reads_reduce_semantics(combiner: str, count: int) -> None:
    """reduction_order's last step equals reduce_semantics' WholeReduce tree on random rows."""
    rng = np.random.default_rng(count)
    values = rng.standard_normal((5, count)).astype(F32)
    padded = np.zeros((5, LANES_F32), dtype=F32)
    padded[:, :count] = values
    kind = {"addf": np.add, "maximumf": np.maximum, "minimumf": np.minimum}[combiner]
    expected = reduce_semantics.whole_repeats(padded, count,
                                              lambda a, b: kind(a, b, dtype=F32))
    assert np.array_equal(whole_reduce(values, combiner), expected)


def test_the_row_lanes_are_an_f32_repeat() -> None:
    """reduction_order's lanes (numpy-free, for the lowering) are reduce_semantics' of f32."""
    assert LANES_F32 == reduce_semantics.lanes(np.dtype(np.float32)) == 64


def test_a_row_in_segments_combines_each_segments_tree_in_order() -> None:
    """190 values (a partial last group: the fold tree), segments of 64: 2^24 at 0 and 1 at 64
    and 65. In segments: 2^24, then 1 + 1 = 2 within the second segment, then 2^24 + 2
    (exact). The whole row's tree folds group 1 into group 0 (2^24 + 1 ties to 2^24, and 1 in
    lane 1) and WholeReduce adds lane 1 to lane 0 (2^24 again); a sequential loop also loses
    both ones."""
    row = np.zeros((1, 190), dtype=F32)
    row[0, 0], row[0, 64], row[0, 65] = 2.0 ** 24, 1.0, 1.0
    assert reduce_rows(row, "addf", segment=64)[0] == 2.0 ** 24 + 2
    assert reduce_rows(row, "addf")[0] == 2.0 ** 24


def test_a_row_in_segments_starts_from_the_identity() -> None:
    """The accumulator starts at -0.0 for the sum (a row of -0.0 sums to -0.0, as the whole
    row's tree gives), at -inf for the maximum; a row no longer than a segment is the tree."""
    zeros = np.full((1, 130), -0.0, dtype=F32)
    assert np.signbit(reduce_rows(zeros, "addf", segment=64)[0])
    lows = np.full((1, 130), -3.0, dtype=F32)
    assert reduce_rows(lows, "maximumf", segment=64)[0] == -3.0
    assert reduce_rows(lows, "minimumf", segment=64)[0] == -3.0
    row = np.arange(64, dtype=F32)[None, :]
    assert reduce_rows(row, "addf", segment=64).tobytes() == reduce_rows(row, "addf").tobytes()


def test_the_online_sum_rescales_as_the_maximum_grows_and_skips_masked_segments() -> None:
    """online_sum of exp(x - max(x)), segments of 64: a first segment of -inf adds 0 (its
    terms exp(-inf - LOWEST)), not NaN; ones after zeros rescale the zeros' sum 64 by
    e^-1 (rounded to f32) before adding the ones' 64."""
    from hswc.reduction_order import online_sum

    row = np.zeros((1, 192), dtype=F32)
    row[0, :64] = -np.inf
    assert online_sum(row, row, 64)[0] == 128.0
    row = np.zeros((1, 128), dtype=F32)
    row[0, 64:] = 1.0
    scale = F32(np.exp(np.float64(-1.0)))
    assert online_sum(row, row, 64)[0] == F32(F32(64.0) * scale) + F32(64.0)


def test_which_rows_a_tree_of_whole_reduces_takes() -> None:
    """Whole repeats at every level down to one repeat: 1024 -> 16, 8192 -> 128 -> 2, 192 ->
    3; one repeat or less, a partial group (130), or a level of a partial group (6400 -> 100)
    keep the fold tree."""
    assert tree_levels(1024) == [1024, 16]
    assert tree_levels(8192) == [8192, 128, 2]
    assert tree_levels(192) == [192, 3]
    assert [tree_levels(n) for n in (1, 64, 130, 6400, 60000)] == [None] * 5


def test_a_tree_of_whole_reduces_sums_each_group_then_the_groups() -> None:
    """192 values, 2^24 at 0 and 1 at 64 and 65: each group's tree gives 2^24, 2 and 0, and
    the groups' tree (2^24 + 2) + 0 keeps both ones, where the fold tree (190 values, above)
    loses them; 1024 values with BIG at 0, 1 at 1 and -BIG at 64: the first group's tree loses
    the 1 (BIG + 1 = BIG), so the row sums to 0, where the fold tree (1000 values) adds group
    1 onto group 0 lane by lane before any tree (BIG - BIG in lane 0, then + 1): 1."""
    row = np.zeros((1, 192), dtype=F32)
    row[0, 0], row[0, 64], row[0, 65] = 2.0 ** 24, 1.0, 1.0
    assert reduce_rows(row, "addf")[0] == 2.0 ** 24 + 2
    row = np.zeros((1, 1024), dtype=F32)
    row[0, 0], row[0, 1], row[0, 64] = BIG, 1.0, -BIG
    assert reduce_rows(row, "addf")[0] == 0.0
    assert reduce_rows(row[:, :1000], "addf")[0] == 1.0  # 1000: the fold tree


def test_a_tree_of_three_levels_and_its_maximum() -> None:
    """8192 values: 128 groups, their 128 values in two groups, then 2: NaN wins the maximum
    wherever it sits, and a row's sum of ones is exact."""
    ones = np.ones((2, 8192), dtype=F32)
    assert reduce_rows(ones, "addf").tolist() == [8192.0, 8192.0]
    ones[1, 5000] = np.nan
    assert np.isnan(reduce_rows(ones, "maximumf")[1])
    assert reduce_rows(ones, "maximumf")[0] == 1.0


def test_the_compensated_sum_keeps_what_the_plain_tree_loses() -> None:
    """[BIG, 1, -BIG, 1] (the neighbour tree gives 0) and BIG's rounding over a long row:
    TwoSum carries each fold's lost part in lo, so the sum is the exact 2 and, over 200 values
    of alternating BIG and 1 then -BIG, the exact 100."""
    row = np.array([[BIG, 1.0, -BIG, 1.0]], dtype=F32)
    assert reduce_rows(row, "addf")[0] == 0.0
    assert reduce_rows(row, "addf", compensated=True)[0] == 2.0
    long = np.array([[BIG, 1.0] * 50 + [-BIG, 0.0] * 50], dtype=F32)
    assert reduce_rows(long, "addf")[0] != 50.0
    assert reduce_rows(long, "addf", compensated=True)[0] == 50.0
    assert reduce_rows(long, "addf", segment=64, compensated=True)[0] == 50.0


def test_a_cancelling_sum_is_rounded_once_compensated() -> None:
    """12,345 normal values summing to 7.3 against a sum of magnitudes of 9,850 (issue 36's
    log_softmax_grad row): the plain order is 2e-5 off in segments, the compensated one is the
    float64 sum rounded once, whole and in segments."""
    values = np.random.default_rng(12345).standard_normal((2, 12345)).astype(F32)[1:]
    exact = F32(values.astype(np.float64).sum())
    assert abs(float(reduce_rows(values, "addf", segment=6912)[0]) - float(exact)) > 1e-5
    for segment in (None, 6912, 100):
        assert reduce_rows(values, "addf", segment=segment, compensated=True)[0] == exact


def test_a_compensated_sum_of_an_infinity_is_the_infinity() -> None:
    """TwoSum's error of an infinite sum is NaN (inf - inf); the row's value is hi there: +inf
    and -inf as the plain sum gives them, NaN for both infinities, whole and in segments."""
    row = np.array([[1.0, np.inf, 2.0] * 30], dtype=F32)
    for segment in (None, 64):
        assert reduce_rows(row, "addf", segment=segment, compensated=True)[0] == np.inf
        assert reduce_rows(-row, "addf", segment=segment, compensated=True)[0] == -np.inf
    both = np.array([[np.inf, -np.inf, *[1.0] * 100]], dtype=F32)
    assert np.isnan(reduce_rows(both, "addf", compensated=True)[0])
