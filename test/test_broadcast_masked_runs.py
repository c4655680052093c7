"""Masked row runs (hswc.vectorizer.broadcast_copy, "Masked runs"): a constant run (a
per-channel weight over H x W) whose row is not whole 32-byte blocks is written by a GetValue, a
Duplicate of its lanes among the 64 from the block it starts in (the bitwise-mask form,
ascend.duplicate_lanes) and a count Duplicate of the rest, instead of the element loop. Bit for
bit against numpy's broadcasting at every level and against the element loop it replaces, over
rows of 196, 49, 9, 7 and 2 elements in f16, bf16 and f32 on a small UB (chunks and core slices
starting mid-row, pieces of one element at chunk ends); the call's own lanes by hand. The C++
on the CPU model: test/test_cpu_build_broadcast.py (`channel_196_f32_chunks`); the IR and C++:
test/lit/passes/lower-to-ascend-broadcast-masked-runs.mlir."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import numpy as np
import pytest
from test_broadcast_operands import DTYPES, _same, _values, generic
from test_broadcast_row_runs import _broadcast

import hswc.vectorizer.broadcast_copy as broadcast_copy
from hswc.interpreter.ascendc_checks import ApiError
from hswc.interpreter.ascendc_repeat import Operand, duplicate_lanes
from hswc.runner import LEVELS, compile_text
from hswc.vectorizer.broadcast_copy import RowRuns, block_align, row_runs


@pytest.mark.parametrize(("out", "operand", "m", "dtype", "want"), [
    ((2, 16, 14, 14), (16,), "d1", "f32", RowRuns(196, 0, resident=True, masked=True)),
    ((96, 7, 7), (96, 1, 1), "d0, 0, 0", "f16", RowRuns(49, 0, resident=True, masked=True)),
    ((5, 9), (5, 1), "d0, 0", "bf16", RowRuns(9, 0, resident=True, masked=True)),
    ((1100, 7), (1100, 1), "d0, 0", "f32", RowRuns(7, 0, masked=True)),  # 4400 B: from GM
])
def test_constant_rows_off_blocks_are_masked_runs(out: tuple[int, ...], operand: tuple[int, ...],
                                                  m: str, dtype: str, want: RowRuns) -> None:
    """A constant row of any length is a masked run; it needs no block start, so the tiling
    keeps CANN's blockFactor (block_align 1)."""
    broadcast = _broadcast(out, operand, m)
    assert row_runs(broadcast, 0, dtype) == want
    assert block_align(broadcast, [dtype]) == 1


def test_a_contiguous_row_off_blocks_that_varies_keeps_the_element_loop() -> None:
    """Rows that differ along the output (neither masked nor periodic runs)."""
    got = row_runs(_broadcast((3, 5, 17), (3, 17), "d0, d2"), 0, "f32")
    assert isinstance(got, str) and got.startswith("element loop") and "68 bytes" in got


@contextmanager
def element_loop() -> Iterator[None]:
    """What hswc built before masked runs: such inputs keep the element loop."""
    original = broadcast_copy.row_runs

    def no_masked(broadcast: object, i: int, dtype: str) -> RowRuns | str:
        runs = original(broadcast, i, dtype)  # type: ignore[arg-type]
        return "element loop: masked runs off" if isinstance(runs, RowRuns) and runs.masked \
            else runs

    with mock.patch.object(broadcast_copy, "row_runs", no_masked):
        yield


CASES = {
    # name: (output shape, operand shape, map, numpy's view of the operand, dtype)
    "row196_f32": ((4, 6, 14, 14), (6,), "d1", lambda b: b[None, :, None, None], "f32"),
    "row49_f16": ((4, 60, 7, 7), (60, 1, 1), "d1, 0, 0", lambda b: b[None], "f16"),
    "row9_bf16": ((300, 9), (300, 1), "d0, 0", lambda b: b, "bf16"),
    "row7_f32": ((12, 50, 7), (50, 1), "d1, 0", lambda b: b[None], "f32"),
    "row2_f16_gm": ((4800, 2), (4800,), "d0", lambda b: b[:, None], "f16"),  # 9600 B
    "row196_bf16": ((1, 4, 14, 14), (4,), "d1", lambda b: b[None, :, None, None], "bf16"),
    "row49_f32": ((1, 12, 7, 7), (12,), "d1", lambda b: b[None, :, None, None], "f32"),
    "row9_f16": ((2, 40, 9), (40, 1), "d1, 0", lambda b: b[None], "f16"),
    "row1100x7_f32_gm": ((1100, 7), (1100, 1), "d0, 0", lambda b: b, "f32"),
}
FAST = ("row196_f32", "row49_f16", "row9_bf16", "row7_f32", "row2_f16_gm")


def _want(x: np.ndarray, b: np.ndarray, spread: object, dtype: str) -> np.ndarray:
    wide = x.astype(np.float32) * spread(b).astype(np.float32)  # type: ignore[operator]
    return wide.astype(DTYPES[dtype]) if dtype == "bf16" else x * spread(b)  # type: ignore[operator]


@pytest.mark.parametrize("case", [pytest.param(c, marks=() if c in FAST else pytest.mark.sweep)
                                  for c in CASES])
def test_masked_runs_are_bit_exact_at_every_level(case: str) -> None:
    """On a 4096-byte UB over 7 cores (chunks start mid-row, some pieces are one element; the
    shapes large enough that a core's slice takes several chunks under the default choice):
    every level gives numpy's broadcasting bit for bit, and the ascend level what the element
    loop gave."""
    out, operand, m, spread, dtype = CASES[case]
    t = DTYPES[dtype]
    x, b = _values(out, t, 11), _values(operand, t, 12)
    with np.errstate(invalid="ignore", over="ignore"):
        want = _want(x, b, spread, dtype)
    text = generic(case, out, operand, m, dtype, "mulf")
    lowered = str(compile_text(text, level="ascend", core_num=7, ub_size=4096).module)
    assert "ascend.duplicate_lanes" in lowered and "ascend.set_value" not in lowered
    results = {}
    for level in LEVELS[1:]:
        kernel = compile_text(text, level=level, core_num=7, ub_size=4096)
        result = kernel.run(x, b)
        results[level] = np.asarray(result.outputs[0])
        assert _same(results[level], want), f"{case} at level {level}"
    (tiling,) = result.tilings
    assert tiling is not None and tiling["ubFactor"] < tiling["blockFactor"]  # several chunks
    with element_loop():
        kernel = compile_text(text, level="ascend", core_num=7, ub_size=4096)
        assert "ascend.duplicate_lanes" not in str(kernel.module)
        assert _same(np.asarray(kernel(x, b)), results["ascend"]), f"{case}: != element loop"


# region the call: Duplicate's bitwise-mask form over one repeat, by hand

F32 = np.dtype(np.float32)


def _ub(n: int) -> np.ndarray:
    ub = np.zeros((2, n), dtype=np.uint8)
    ub.view(F32)[:] = -7.0
    return ub


def test_duplicate_lanes_writes_only_its_lanes() -> None:
    """Lanes [3, 11) of a float repeat at UB byte 64: across the tensor's first block."""
    ub = _ub(512)
    written = duplicate_lanes("dav_c220", ub, Operand("dst", 64, 256, F32), 2.5, 3, 8, 64)
    got = ub.view(F32)
    assert (got[:, 16 + 3:16 + 11] == 2.5).all()
    assert (np.delete(got, np.arange(19, 27), axis=1) == -7.0).all()
    assert sorted(written.tolist()) == [64 + 4 * k for k in range(3, 11)]


def test_duplicate_lanes_rounds_the_scalar_once_to_half() -> None:
    ub = np.zeros((1, 256), dtype=np.uint8)
    duplicate_lanes("dav_c220", ub, Operand("dst", 0, 256, np.dtype(np.float16)), 1 / 3, 30,
                    34, 64)
    got = ub.view(np.float16)[0]
    assert (got[30:64] == np.float16(1 / 3)).all() and not got[:30].any() and not got[64:].any()


@pytest.mark.parametrize(("family", "dst", "first", "count", "message"), [
    ("dav_c220", Operand("dst", 32, 64, F32), 60, 5, r"lanes \[60, 65\) are outside"),
    ("dav_c220", Operand("dst", 36, 64, F32), 0, 1, "not 32-byte aligned"),
    ("dav_c220", Operand("dst", 32, 32, F32), 6, 4, "needs 40 bytes"),
    ("dav_3510", Operand("dst", 32, 64, F32), 2, 0, "mask 0 is not modelled on Ascend 950"),
])
def test_duplicate_lanes_refuses_what_the_docs_do_not_allow(family: str, dst: Operand,
                                                            first: int, count: int,
                                                            message: str) -> None:
    with pytest.raises(ApiError, match=message):
        duplicate_lanes(family, _ub(512), dst, 1.0, first, count, 64)


def test_an_empty_mask_is_a_nop_on_a2() -> None:
    ub = _ub(512)
    assert duplicate_lanes("dav_c220", ub, Operand("dst", 0, 64, F32), 1.0, 3, 0, 64).size == 0
    assert (ub.view(F32) == -7.0).all()


# endregion
