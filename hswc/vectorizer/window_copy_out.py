"""CopyOut of an output written at a window of a larger tensor (hswc.output_windows: a
gradient's halves into one dx), in row runs: the write mirror of
hswc.vectorizer.broadcast_copy's contiguous runs.

A chunk covers output elements [base, base + count); output k's element base + j goes to flat
index output_windows.index(k, base + j) of the joint tensor, whose GlobalTensor covers it whole.
The output's trailing dims that the window writes contiguously make a run of `row` elements
(broadcast_copy.row_runs, read for the output's strides); run r of the chunk covers [max(r*row -
phase, 0), min((r+1)*row - phase, count)) with phase = base % row, one DataCopyPad UB -> GM each
(MTE3, after the VECOUT queue's DeQue like any copy-out):

    phase = base % row;
    for (r = 0; r < CeilDiv(phase + count, row); ++r) {
        start = Max(r * row - phase, 0); end = Min(r * row + row - phase, count);
        DataCopyPad(gm[index(base + start)], local[start], (end - start) * sizeof(T));
    }

Only windows whose runs are whole 32-byte blocks at 32-byte-aligned GM indices (the window's
offset and the strides outside the run multiples of a block: broadcast_copy's block starts) are
written so, and only when every chunk starts on a block (the tiling's block_align): then each
run's UB source is 32-byte aligned, as DataCopyPad wants it (asc-devkit's DataCopyPad: the
LocalTensor's address 32-byte aligned), and no two cores write one 32-byte block of GM, so
neither overwrites the other's elements. Any other window is refused (`window_refusal`); its
outputs stay two tensors joined on the host.
"""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint

from hswc.broadcast import Broadcast
from hswc.dialects import ascend
from hswc.platform import UB_BLOCK_BYTES
from hswc.tiling import ELEMENT_BYTES
from hswc.vectorizer.broadcast_copy import RowRuns, block_starts, row_runs, run_loop


def window_refusal(windows: Broadcast, k: int, dtype: str, block_align: int) -> str | None:
    """Why output k's window is not written in row runs (module docstring); None when it is.
    `block_align`: the elements the tiling aligns every chunk's start to."""
    runs = row_runs(windows, k, dtype)
    if not isinstance(runs, RowRuns):
        return f"output {k + 1} is written at a window of no 32-byte row runs ({runs})"
    if not runs.stride or runs.period:
        return f"output {k + 1}'s window writes one index many times"
    block = UB_BLOCK_BYTES // ELEMENT_BYTES[dtype]
    if not block_starts(windows, k, runs.row, block):
        return (f"output {k + 1}'s window starts its rows off a 32-byte block of the joint "
                "tensor (two cores could write one block)")
    if block_align % block:
        return (f"the tiling aligns chunks to {block_align} elements, not a {block}-element "
                f"block of {dtype}")
    return None


def emit_window_copy_out(point: InsertPoint, windows: Broadcast, k: int, gm: SSAValue,
                         local: SSAValue, base: SSAValue, count: SSAValue, dtype: str) -> None:
    """Output k's copy-out at `point` (module docstring); window_refusal must be None."""
    runs = row_runs(windows, k, dtype)
    assert isinstance(runs, RowRuns) and runs.stride
    loop = run_loop(point, windows, k, base, count, runs.row,
                    ("out_phase", "out_runs", "r", "out_row_offset", "out_start", "out_length"))
    inner, start, length = loop.inner, loop.start, loop.length
    src = inner.builder.insert(ascend.LocalAtOp(local, start)).result
    at = inner.builder.insert(ascend.GlobalAtOp(gm, loop.index)).result
    nbytes = inner.mul(length, inner.const(ELEMENT_BYTES[dtype]))
    inner.builder.insert(ascend.DataCopyPadOp(at, src, nbytes))
    loop.close(point, f"output window: row runs of {runs.row} {dtype}, one DataCopyPad UB -> GM "
               "per run")
