"""Periodic runs (hswc.vectorizer.broadcast_copy, "Periodic runs"): a contiguous row (a bias)
that is not whole 32-byte blocks and repeats along the output is copied from a pattern of
lcm(row, block) elements built in UB once per core, one whole-block UB -> UB DataCopy per
period, instead of the element loop. Bit for bit against numpy's broadcasting at every level
and against the element loop it replaces, over rows of 10, 3 and 20 (f32), 10 and 7 (f16,
bf16) on a small UB over 7 cores (core slices and chunks starting mid-row, several chunks a
core); rows of 1000 f32 are whole blocks (ordinary row runs). The C++ on the CPU model:
test/test_cpu_build_broadcast.py (`bias10_f32_periodic_chunks`); the IR and C++:
test/lit/passes/lower-to-ascend-broadcast-periodic-runs.mlir."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import numpy as np
import pytest
from test_broadcast_operands import DTYPES, _same, _values, generic
from test_broadcast_row_runs import _broadcast

import hswc.vectorizer.broadcast_copy as broadcast_copy
from hswc.runner import LEVELS, compile_text
from hswc.tiling import UbPlan
from hswc.vectorizer.broadcast_copy import RowRuns, block_align, broadcast_plan, row_runs


@pytest.mark.parametrize(("out", "operand", "m", "dtype", "want"), [
    ((100, 10), (10,), "d1", "f32", RowRuns(10, 1, resident=True, period=40)),
    ((200, 3), (3,), "d1", "f32", RowRuns(3, 1, resident=True, period=24)),
    ((200, 10), (10,), "d1", "f16", RowRuns(10, 1, resident=True, period=80)),
    ((300, 7), (7,), "d1", "bf16", RowRuns(7, 1, resident=True, period=112)),
    ((20, 4, 5), (4, 5), "d1, d2", "f32", RowRuns(20, 1, resident=True, period=40)),
    ((30, 4, 5), (1, 5), "0, d2", "f32", RowRuns(5, 1, resident=True, period=40)),
])
def test_repeating_rows_off_blocks_are_periodic(out: tuple[int, ...], operand: tuple[int, ...],
                                                m: str, dtype: str, want: RowRuns) -> None:
    """The period is a whole number of 32-byte blocks; every chunk starts on a block (the
    tiling's block_align), so its phase in the pattern does too."""
    broadcast = _broadcast(out, operand, m)
    assert row_runs(broadcast, 0, dtype) == want
    block = 32 // DTYPES[dtype].itemsize
    assert want.period % block == 0 and want.period % want.row == 0
    assert block_align(broadcast, [dtype]) == block
    plan = broadcast_plan(UbPlan(12, 64, 64), broadcast, [dtype])
    assert plan.ub_reserve == 64 + want.period * DTYPES[dtype].itemsize  # the pattern's UB


@pytest.mark.parametrize(("out", "operand", "m", "dtype", "why"), [
    ((3, 5, 17), (3, 17), "d0, d2", "f32", "rows differ along the output"),
    ((4, 1000), (1000,), "d1", "f16", "period of 2000 elements exceeds 2048 bytes"),
    ((4, 509), (509,), "d1", "f32", "period of 4072 elements exceeds 2048 bytes"),
    # MobileNetV3-Small's classifier bias: 10 elements, 30 scalar copies to build the pattern
    ((1, 10), (10,), "d1", "f32", "output's 10 elements are too few to pay for its pattern of 40"),
    ((47, 10), (10,), "d1", "f32", "output's 470 elements are too few"),  # 16 * 30 = 480
])
def test_rows_that_vary_or_whose_period_is_large_keep_the_element_loop(
        out: tuple[int, ...], operand: tuple[int, ...], m: str, dtype: str, why: str) -> None:
    got = row_runs(_broadcast(out, operand, m), 0, dtype)
    assert isinstance(got, str) and got.startswith("element loop") and why in got
    assert block_align(_broadcast(out, operand, m), [dtype]) == 1


def test_periodic_runs_start_at_sixteen_outputs_a_pattern_copy() -> None:
    assert row_runs(_broadcast((48, 10), (10,), "d1"), 0, "f32") \
        == RowRuns(10, 1, resident=True, period=40)


def test_rows_of_whole_blocks_stay_ordinary_row_runs() -> None:
    assert row_runs(_broadcast((4, 1000), (1000,), "d1"), 0, "f32") == RowRuns(1000, 1)


@contextmanager
def element_loop() -> Iterator[None]:
    """What hswc built before periodic runs: such inputs keep the element loop."""
    original = broadcast_copy.row_runs

    def no_periodic(broadcast: object, i: int, dtype: str) -> RowRuns | str:
        runs = original(broadcast, i, dtype)  # type: ignore[arg-type]
        return "element loop: the baseline" if isinstance(runs, RowRuns) and runs.period \
            else runs

    with mock.patch.object(broadcast_copy, "row_runs", no_periodic):
        yield


CASES = {
    # name: (output shape, operand shape, map, dtype)
    "row10_f32": ((400, 10), (10,), "d1", "f32"),
    "row3_f32": ((1000, 3), (3,), "d1", "f32"),
    "row10_f16": ((500, 10), (10,), "d1", "f16"),
    "row7_bf16": ((700, 7), (7,), "d1", "bf16"),
    "row20_merged_f32": ((120, 4, 5), (4, 5), "d1, d2", "f32"),
    "row1000_f32": ((4, 1000), (1000,), "d1", "f32"),  # whole blocks: ordinary row runs
    "row7_f16": ((700, 7), (7,), "d1", "f16"),
    "row10_bf16": ((500, 10), (10,), "d1", "bf16"),
}
FAST = ("row10_f32", "row3_f32", "row10_f16", "row7_bf16", "row20_merged_f32", "row1000_f32")


def _want(x: np.ndarray, b: np.ndarray, dtype: str) -> np.ndarray:
    return (x.astype(np.float32) + b.astype(np.float32)).astype(DTYPES[dtype])


@pytest.mark.parametrize("case", [pytest.param(c, marks=() if c in FAST else pytest.mark.sweep)
                                  for c in CASES])
def test_periodic_runs_are_bit_exact_at_every_level(case: str) -> None:
    """On a 4096-byte UB over 7 cores (chunks and core slices start mid-row; a core's slice
    takes several chunks): every level gives numpy's broadcasting bit for bit, and the ascend
    level what the element loop gave."""
    out, operand, m, dtype = CASES[case]
    t = DTYPES[dtype]
    x, b = _values(out, t, 13), _values(operand, t, 14)
    with np.errstate(invalid="ignore", over="ignore"):
        want = _want(x, b, dtype)
    text = generic(case, out, operand, m, dtype, "addf")
    lowered = str(compile_text(text, level="ascend", core_num=7, ub_size=4096).module)
    periodic = case != "row1000_f32"
    assert ("periodic runs of" in lowered) == periodic
    results = {}
    for level in LEVELS[1:]:
        kernel = compile_text(text, level=level, core_num=7, ub_size=4096)
        result = kernel.run(x, b)
        results[level] = np.asarray(result.outputs[0])
        assert _same(results[level], want), f"{case} at level {level}"
    (tiling,) = result.tilings
    assert tiling is not None and tiling["ubFactor"] < tiling["blockFactor"]  # several chunks
    assert tiling["blockFactor"] % (32 // t.itemsize) == 0
    if periodic:
        with element_loop():
            kernel = compile_text(text, level="ascend", core_num=7, ub_size=4096)
            assert "periodic runs of" not in str(kernel.module)
            assert _same(np.asarray(kernel(x, b)), results["ascend"]), f"{case}: != element loop"
