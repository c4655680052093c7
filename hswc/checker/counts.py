"""Runs that give an op its optional group_index: rank-1 int64 counts whose sum (clamped to
[0, rows]) is the number of leading rows the kernel computes (hswc.counted_rows, hsg.first_rows).

An op folder whose definition has an optional int64 input named group_index (ClippedSwiglu on
Atlas A2/A3) gets, besides its runs without it (every row), runs of one size per dtype with
counts summing below, at and above the rows x holds. Its tiling sees the input as an int64
tensor of [G] (the groupNum it reads), the kernel its GM buffer where the definition orders
it, and the check compares the counted rows with the reference and requires every byte of the
rows past them left unwritten (the harness's --written-bytes: ops-nn's kernels do not write
them, activation/clipped_swiglu/op_kernel/clipped_swiglu.hpp:111-127).

A sum of 0 rows is not drawn: the A2/A3 kernel then divides by a zero block count
(clipped_swiglu.hpp:168-169, `usedCoreNum_ = (realBatchSize_ + batchFrontBlock - 1) /
batchFrontBlock` with batchFrontBlock 0), which hswc.counted_rows leaves undefined too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hswc.checker import halves
from hswc.checker.cases import Case
from hswc.checker.host_tiling import NUMPY_GE, HostTiling
from hswc.counted_rows import GROUP_INDEX, counted_rows


def counts_input(inputs: Sequence[tuple[str, tuple[int, ...]]], optional: set[int]) -> int | None:
    """The position of the definition's optional int64 group_index input, or None."""
    for k, (name, dtypes) in enumerate(inputs):
        if name == GROUP_INDEX and k in optional and dtypes and set(dtypes) == {NUMPY_GE['int64']}:
            return k
    return None


def drawn(rows: int) -> list[tuple[int, ...]]:
    """Counts for x of `rows` rows (at least 2): one group summing below the rows, three at
    them (one group of 0 among them), two above them."""
    below = (max(1, rows // 2),)
    at = (rows // 3, 0, rows - rows // 3)
    above = (rows, 3)
    return [below, at, above]


def rows_written(counts: Sequence[int], rows: int) -> int:
    """The leading rows the kernel writes (hswc.counted_rows)."""
    return counted_rows(np.asarray(counts, dtype=np.int64), rows)


def written(counts: Sequence[int], size: int, output_sizes: Sequence[int]) -> list[int]:
    """Per output of a run of `size` elements of x, the leading elements the kernel writes."""
    rows = halves.rows_and_half(size)[0]
    kept = rows_written(counts, rows)
    return [n * kept // rows for n in output_sizes]


def past(wanted: Sequence[np.ndarray], written: Sequence[int] | None,
         undefined: Sequence[np.ndarray] | None) -> Sequence[np.ndarray] | None:
    """`undefined` (per output, the elements not compared) with the elements past `written`
    added: the harness checks those unwritten instead."""
    if written is None:
        return undefined
    beyond = [np.arange(w.size) >= n for w, n in zip(wanted, written, strict=True)]
    if undefined is None:
        return beyond
    return [u | b for u, b in zip(undefined, beyond, strict=True)]


def zeroed(wanted: Sequence[np.ndarray], counts: Sequence[int] | None, size: int
           ) -> Sequence[np.ndarray]:
    """The expected outputs of a gradient given `counts` (a run of `size` elements of x): its
    rows past the counted ones zero, as ClippedSwigluGrad writes them
    (activation/clipped_swiglu_grad/op_kernel/clipped_swiglu_grad.h:652-690, ZeroInvalidRows);
    `wanted` itself for no counts."""
    if counts is None:
        return wanted
    kept = written(counts, size, [w.size for w in wanted])
    out = []
    for w, n in zip(wanted, kept, strict=True):
        flat = np.array(w).reshape(-1)
        flat[n:] = 0
        out.append(flat.reshape(np.shape(w)))
    return out


def describe(counts: Sequence[int], rows: int, zero: bool = False) -> str:
    """A run's words for its counts (`zero`: the rest written as zeros, `zeroed`)."""
    listed = ", ".join(map(str, counts))
    rest = "the rest compared as zeros" if zero else "the rest checked unwritten"
    return f"{GROUP_INDEX} [{listed}]: {rows_written(counts, rows)} of {rows} rows compared, {rest}"


def counted_cases(cases: Sequence[Case], host: HostTiling, position: int, core_num: int,
                  ub_size: int) -> list[Case]:
    """Per dtype, runs of its largest size of at least two rows with each of `drawn`'s counts
    (x of [rows, 2H]: hswc.checker.halves), launched by the op's tiling given them."""
    largest: dict[str, Case] = {}
    for case in cases:
        rows = halves.rows_and_half(case.size)[0]
        if case.user_inputs is None and rows >= 2 and (
                case.dtype not in largest or case.size > largest[case.dtype].size):
            largest[case.dtype] = case
    added = []
    for case in largest.values():
        rows = halves.rows_and_half(case.size)[0]
        for drawn_counts in drawn(rows):
            launch = host.launch(case.size, case.dtype, core_num, ub_size,
                                 (position, len(drawn_counts)))
            if launch.template_args != case.launch.template_args:
                continue  # another instance of the build than the dtype's runs make
            added.append(Case(case.dtype, case.size, launch, case.instance,
                              counts=drawn_counts))
    return added
