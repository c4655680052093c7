"""Rows counted by a tensor (ops-nn's group_index): how many leading rows a kernel computes,
read from an int64 tensor in GM at run time, and what the rows past that count hold.

ops-nn's ClippedSwiglu and SwigluGroup take an optional `group_index` (int64, rank 1, one count
per group): the kernel sums the counts, takes the sum or the rows x holds if fewer, and computes
only that many leading rows; the rest of y is left unwritten (activation/clipped_swiglu/
op_kernel/clipped_swiglu.hpp:111-127, op_kernel/arch35/clipped_swiglu_kernel.h:162-182;
activation/swiglu_group/op_kernel/arch35/swiglu_group_base.h). hswc's count is the same, with
a negative sum taken as 0 rows (ops-nn's kernels divide by it or by a count derived from it:
their result is not defined there). The A2/A3 kernel sums in f32 (`Cast` CAST_RINT, then
`ReduceSum`), which equals the int64 sum while the partial sums stay below 2^24 rows; hswc
sums in int64.

"Unwritten" is a result only where an output buffer's contents are known: hswc's interpreter
gives every launch a fresh output buffer of one byte pattern (hswc.interpreter.launch), so the
rows past the count hold that pattern at every IR level (hsg.first_rows' semantics, the
launches and the C++ CPU model), and tests compare the counted rows with the golden model and
the others with the pattern.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported when a count is taken, not on hswc-opt's path
    import numpy as np

COUNTS_ATTR = "hsg.first_rows"
"""On a kernel function: it computes only the leading rows its counts tensor (the GM buffer
after its inputs) sums to; the value is the elements per row of its iteration (an i64)."""


GROUP_NUM_FIELD = "groupNum"
"""The tiling struct's field a kernel with counts reads after ubFactor: how many counts to read
(ops-nn's groupNum); a negative one says no counts were given (an absent group_index: ops-nn's
isGroup = 0), and the kernel computes every row."""


GROUP_INDEX = "group_index"
"""The counts as a package names them: ops-nn's optional int64 input (ClippedSwiglu,
SwigluGroup), after the operator's other inputs."""
GROUP_INDEX_DOC = ("optional int64 counts of rank 1, one per group: the leading rows to "
                   "compute are their sum, clamped to [0, rows]; the rows past it are not "
                   "written (absent: every row)")
"""What a package's docs and parameter lists say of it."""


def counted_rows(counts: np.ndarray, rows: int) -> int:
    """The rows a kernel computes: the int64 sum of `counts`, at least 0, at most `rows`."""
    import numpy as np

    total = int(np.sum(np.asarray(counts, dtype=np.int64), dtype=np.int64))
    return min(max(total, 0), rows)


def first_rows(y: np.ndarray, counts: np.ndarray, row_dims: int, fill_byte: int) -> np.ndarray:
    """`y` on its first counted rows (rows: the product of its first `row_dims` dims), every
    byte of the other rows `fill_byte` (what the output buffer held: not written)."""
    rows = math.prod(y.shape[:row_dims])
    n = counted_rows(counts, rows)
    import numpy as np

    out = np.array(y, copy=True)
    flat = out.reshape(rows, -1) if rows else out.reshape(0, 0)
    flat[n:].view(np.uint8).fill(fill_byte)
    return out
