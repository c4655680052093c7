"""CopyIn of a broadcast operand (hswc.broadcast): its elements for one UB chunk, in row runs
where AscendC's alignment rules allow, else one by one.

A chunk covers output elements [base, base + count) (base = the core's slice offset plus the
chunk's offset, flat). A broadcast input's element for output element base + j sits at flat
index sum_k ((base + j) / inner_k % size_k) * stride_k of its own GM buffer, which its
GlobalTensor covers whole.

Row runs (`row_runs`, as CANN's broadcast kernels read such operands): the chunk splits into
runs along the output's trailing dims that the input reads contiguously (strides 1, N1, N1*N2,
...: a bias) or not at all (strides 0: a per-row scale); `row` is their element count. Run k of
the chunk covers [max(k*row - phase, 0), min((k+1)*row - phase, count)) with phase = base % row;
a contiguous run is one DataCopyPad from GM at the input's index of its first element into the
VECIN tensor at its offset (MTE2, ordered by the queue's EnQue/DeQue like any copy-in), a
constant run one GetValue and one Duplicate of it (V: the vector pipe runs it in order before
Compute's reads, a PipeBarrier<PIPE_V> after the runs as between dependent vector steps):

    phase = base % row;
    for (k = 0; k < CeilDiv(phase + count, row); ++k) {
        start = Max(k * row - phase, 0); end = Min(k * row + row - phase, count);
        DataCopyPad(local[start], gm[index(base + start)], (end - start) * sizeof(T));
        // or: Duplicate(local[start], gm.GetValue(index(base + start)), end - start);
    }

The UB address a DataCopyPad or Duplicate writes must be 32-byte aligned: every run but the
first starts at k*row - phase, so runs are used only when row * sizeof(T) is a multiple of 32
bytes and every chunk starts on a 32-byte block (phase * sizeof(T) too): the tiling of such
kernels rounds blockFactor up to a multiple of 32 / sizeof(T) elements (`block_align`, the
UbPlan's block_align; ubFactor is a multiple of the vector alignment already). Only the last
run of a chunk can end off a 32-byte block, and DataCopyPad's padding of it stays inside the
tensor, past `count`. The choice is recorded on the loop (`hsg.broadcast_copy`, printed as a
comment).

An input of at most RESIDENT_BYTES is copied into UB once, in Init (a TBuf<VECIN> of its own,
one DataCopyPad, then PipeBarrier<PIPE_ALL> so MTE2's copy is done before V or the scalar unit
read it; its bytes reserved out of the UB the tiling divides): then a contiguous run is a
UB -> UB DataCopy of whole 32-byte blocks from it (V; its source address is aligned too, the
run's first index being phase or a multiple of row, plus a window's offset: an input whose
offset or row stride is not whole blocks, a slice at `d1 + 5`, reads its runs from GM), and a
constant run's value a LocalTensor::GetValue of it, so no row reads GM again.

Masked runs (`RowRuns.masked`): a constant run (stride 0: a per-channel weight over H x W)
whose row is not a whole number of 32-byte blocks (196 f32 over 14 x 14: 784 bytes) starts
wherever the previous one ended, mid-block. Such a run [start, start + length) is written
without a block start (so the tiling keeps CANN's blockFactor): with lane = start % (32 /
sizeof(T)), one Duplicate in its bitwise-mask form (ascend.duplicate_lanes; asc-devkit
docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md:72-77, 掩码.md:113-132) at the
block the run starts in, enabling lanes [lane, lane + head) of its 64 (mask[0]; head =
Min(length, 64 - lane)), then, for a longer run, one count Duplicate of the rest from lane 64
on (32-byte aligned; it writes exactly `rest` elements, 掩码.md:73-88):

    lane = start % B; head = Min(length, 64 - lane);
    uint64_t laneMask[2] = {(~0ULL >> (64 - head)) << lane, 0};
    Duplicate(local[start - lane], value, laneMask, 1, 1, 8);
    if (length - head > 0) Duplicate(local[start - lane + 64], value, length - head);

Two runs share at most a block, and write disjoint lanes of it (the earlier run's last
Duplicate stops at its own last element, the later run's mask starts at its first), so no
write depends on the order of the two on the vector pipe. A run of up to 64 - lane elements
(49 f32 over 7 x 7) is one call. Contiguous rows (stride 1) off 32-byte blocks cannot be
masked runs: a masked call moves lane k to lane k, and such a row's source and destination
lanes differ.

Periodic runs (`RowRuns.period`): a contiguous row (stride 1: a bias of 10 f32 over [N, 10],
40 bytes) that is not whole 32-byte blocks, of an input every dim outside the run reads with
stride 0 (the row repeats along the output: input element (base + j) is row element
(base + j) % row), is a pattern of period P = lcm(row, 32 / sizeof(T)) elements, a whole
number of blocks (row 10 f32: P = 40, 5 blocks). Init builds the pattern once per core in a
TBuf<VECIN> of its own, of P elements (its bytes reserved in the UbPlan as a resident copy's):
one DataCopyPad of the row to its element 0, PipeBarrier<PIPE_ALL> (MTE2's write before the
scalar unit reads it), then elements [row, P) each a LocalTensor GetValue of the element `row`
before it and a SetValue (P - row scalar UB accesses; the caller's PipeBarrier<PIPE_ALL>
orders them before the vector pipe). A chunk is then runs of P output elements (the row runs
above with row := P), each one UB -> UB DataCopy of whole blocks from the pattern at the run's
first element's place in it, (base + start) % P: phase = base % P for the first run, 0 for the
others. The tiling aligns blockFactor to a block (block_align), so base, phase and every run's
start are whole blocks, as DataCopy's UB addresses and counts must be (asc-devkit
docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据搬运/, the page "DataCopy (UBToUB连续数据搬运)",
lines 64-66 and 103-104), and a run read from phase ends at
P, so its whole blocks stay inside the pattern; only the chunk's last run rounds up past
`count`, inside the tensor (ubFactor is whole blocks), into lanes nothing reads. Bounded:
P * sizeof(T) at most RESIDENT_BYTES (2048 bytes; P <= row * 32 / sizeof(T), so every row of
up to 64 elements fits, a longer one where its period does: a row of 1000 f16 has P = 2000,
4000 bytes, and keeps the element loop), else the element loop; and only for an output of at
least PERIODIC_MIN_RATIO * (P - row) elements (a static one; the pattern's scalar copies must
pay: MobileNetV3-Small's classifier bias over [1, 10] keeps the element loop). A row that
differs along the output (a (3, 17) operand over [3, 5, 17]) keeps the element loop.

The element loop, for every other input (a contiguous row off 32-byte blocks that differs
along the output or whose period is over the bound, a stride that is neither): the scalar unit
reads each element and stores it at j of the VECIN tensor, then a barrier orders the scalar
stores before every pipe:

    for (j = 0; j < count; ++j)
        local.SetValue(j, gm.GetValue(index(base + j)));
    PipeBarrier<PIPE_ALL>();

Dynamic shapes (hswc.broadcast): a run ends at the first dim of a run-time size (a bias over
`(?, N)` still runs rows of N); an input whose size depends on the run-time shape (a per-row
scale over a dynamic batch) is never resident; a run over a dim of run-time size is never
planned (the element loop, with its remark, where no static trailing dims make a run).

Any projection works this way, and no UB address but the tensor's own is touched, so no
alignment rule applies; the cost is one scalar load and store per element.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from xdsl.builder import Builder
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, StringAttr
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.broadcast import BROADCAST_COPY_ATTR, DYNAMIC_DIM, Broadcast
from hswc.dialects import ascend
from hswc.index_arith import IRArith
from hswc.platform import UB_BLOCK_BYTES
from hswc.tiling import ELEMENT_BYTES, UbPlan
from hswc.vectorizer.plan import SMALLEST_COVERED_UB

RESIDENT_BYTES = SMALLEST_COVERED_UB // 2
"""A contiguous input of at most this many bytes is copied into UB once, in Init, and its runs
are copied from there (`resident`), not read from GM again for every row. The copy is reserved
out of the UB the tiling divides: on the smallest UB hswc tiles for (4096 bytes) at least 2048
bytes stay for the buffers, one aligned pass of a kernel of up to 2048 / alignment bytes per
element (a bias add's 12 or 24); a larger body on so small a UB may no longer tile (the
tiling's error, as for any reserve). Larger inputs are read from GM for every run."""


PERIODIC_MIN_RATIO = 16
"""Periodic runs are built only for an output of at least this many elements per scalar copy
of its pattern (period - row; a run-time size always): the pattern costs each core period - row
UB reads and writes (about 23 cycles each, once), the element loop a GM read and a UB write
(about 112) per element of the core's slice, and over the 20 to 40 cores a small output is
spread on, the pattern paid for itself from about 10 (period - row) output elements in
bench/bench_masked_runs.py (cost model, ascend910b; README); 16 leaves a margin."""


@dataclass(frozen=True)
class RowRuns:
    """How input i is read in runs: `row` output elements per run, read at consecutive
    indices (stride 1) or all at one index (stride 0); `resident`: copied from the input's copy
    in UB."""

    row: int
    stride: int
    resident: bool = False
    masked: bool = False
    """A constant run (stride 0) whose row is not whole 32-byte blocks: written by Duplicates
    that need no block start (module docstring, "Masked runs")."""
    period: int = 0
    """A contiguous row (stride 1) not whole 32-byte blocks that repeats along the output:
    read from a pattern of `period` = lcm(row, block) elements built in UB once, in runs of
    `period` (module docstring, "Periodic runs"); 0 for any other input."""

    def describe(self, dtype: str) -> str:
        what = {(1, True): "DataCopy UB -> UB from the input's copy in UB",
                (1, False): "DataCopyPad",
                (0, True): "GetValue from the input's copy in UB + Duplicate",
                (0, False): "GetValue + Duplicate"}[self.stride, self.resident]
        if self.masked:
            what += " of its lanes in the first 64 (bitwise mask), then one of the rest"
        if self.period:
            return (f"periodic runs of {self.period} {dtype} (rows of {self.row}): one DataCopy "
                    "UB -> UB from the pattern in UB per run")
        return f"row runs of {self.row} {dtype}: one {what} per run"


def row_runs(broadcast: Broadcast, i: int, dtype: str) -> RowRuns | str:
    """Input i's row runs (module docstring), or why it keeps the element loop."""
    strides = broadcast.strides[i]
    assert strides is not None
    row, stride, contiguous = 1, None, 1
    for size, s in zip(reversed(broadcast.shape), reversed(strides), strict=True):
        if size == 1:
            continue  # one index: any stride reads it
        if size == DYNAMIC_DIM:
            break  # a run ends where the shape is known only at run time
        if stride is None:
            stride = s
        if stride not in (0, 1) or s != (contiguous if stride else 0):
            break
        row *= size
        contiguous *= size
    if stride not in (0, 1):
        return f"element loop: the last dim is read with stride {stride}"
    nbytes = row * ELEMENT_BYTES[dtype]
    assert stride is not None
    masked = bool(nbytes % UB_BLOCK_BYTES)
    if masked and stride:
        return _periodic(broadcast, i, row, dtype)
    resident = broadcast.bounded_size(i) is not None \
        and _operand_bytes(broadcast, i, dtype) <= RESIDENT_BYTES
    if stride and not block_starts(broadcast, i, row, UB_BLOCK_BYTES // ELEMENT_BYTES[dtype]):
        resident = False  # a run's source in the UB copy would start off a 32-byte block
    return RowRuns(row, stride, resident, masked)


def _periodic(broadcast: Broadcast, i: int, row: int, dtype: str) -> RowRuns | str:
    """Input i's periodic runs (module docstring, "Periodic runs"): its contiguous `row` is not
    whole 32-byte blocks; or why it keeps the element loop."""
    why = (f"element loop: a row of {row} {dtype} is {row * ELEMENT_BYTES[dtype]} bytes, not a "
           f"whole number of {UB_BLOCK_BYTES}-byte blocks")
    strides = broadcast.strides[i]
    assert strides is not None
    inner = 1
    for size, s in zip(reversed(broadcast.shape), reversed(strides), strict=True):
        if inner >= row and size != 1 and s:
            return f"{why}, and its rows differ along the output"
        if size != DYNAMIC_DIM:
            inner *= size
    period = math.lcm(row, UB_BLOCK_BYTES // ELEMENT_BYTES[dtype])
    if period * ELEMENT_BYTES[dtype] > RESIDENT_BYTES:
        return f"{why}, and its period of {period} elements exceeds {RESIDENT_BYTES} bytes"
    if broadcast.is_static and broadcast.total < PERIODIC_MIN_RATIO * (period - row):
        return (f"{why}, and the output's {broadcast.total} elements are too few to pay for "
                f"its pattern of {period}")
    return RowRuns(row, 1, resident=True, period=period)


def block_starts(broadcast: Broadcast, i: int, row: int, block: int) -> bool:
    """Whether every run of input i starts at an index that is a whole number of 32-byte
    blocks (`block` elements) into the input: its window's offset and the strides of the dims
    outside the run are. A window at an odd offset (`d1 + 5`) is not; a broadcast's are."""
    strides = broadcast.strides[i]
    assert strides is not None
    inner = 1
    outer: list[int] = []
    for size, s in zip(reversed(broadcast.shape), reversed(strides), strict=True):
        if inner >= row:
            outer.append(s)
        inner *= size
    return broadcast.offset(i) % block == 0 and all(s % block == 0 for s in outer)


def resident_bytes(broadcast: Broadcast, i: int, dtype: str) -> int:
    """The UB bytes of input i's copy in UB: the whole operand, in whole 32-byte blocks (a
    periodic input's: its pattern, one period, whole blocks already)."""
    runs = row_runs(broadcast, i, dtype)
    if isinstance(runs, RowRuns) and runs.period:
        return runs.period * ELEMENT_BYTES[dtype]
    return _operand_bytes(broadcast, i, dtype)


def _operand_bytes(broadcast: Broadcast, i: int, dtype: str) -> int:
    """Input i's whole operand in UB, in whole 32-byte blocks; of a run-time size, at the
    description's bounds (hswc.broadcast.Broadcast.bounds)."""
    size = broadcast.bounded_size(i)
    assert size is not None, "an input of a run-time size without a bound is never in UB"
    nbytes = size * ELEMENT_BYTES[dtype]
    return -(-nbytes // UB_BLOCK_BYTES) * UB_BLOCK_BYTES


def resident_inputs(broadcast: Broadcast | None, dtypes: Sequence[str]) -> list[int]:
    """The inputs (each of its element type in `dtypes`) whose runs copy from their copy in
    UB."""
    if broadcast is None:
        return []
    found = []
    for i, strides in enumerate(broadcast.strides):
        if strides is not None and _many(broadcast, i):
            runs = row_runs(broadcast, i, dtypes[i])
            if isinstance(runs, RowRuns) and runs.resident:
                found.append(i)
    return found


def _many(broadcast: Broadcast, i: int) -> bool:
    """Whether input i's GM buffer holds more than one element (one of a run-time size
    does: it reads a dim of the output's run-time size)."""
    return not broadcast.has_static_size(i) or broadcast.operand_size(i) > 1


def block_align(broadcast: Broadcast | None, dtypes: Sequence[str]) -> int:
    """Elements the tiling aligns blockFactor to: when some input is read in row runs, a
    32-byte block of the narrowest such input (so every chunk starts on a block of each), else
    1."""
    if broadcast is None:
        return 1
    runs = [dtypes[i] for i, s in enumerate(broadcast.strides)
            if s is not None and _many(broadcast, i) and _block_runs(broadcast, i, dtypes[i])]
    if not runs:
        return 1
    return UB_BLOCK_BYTES // min(ELEMENT_BYTES[dtype] for dtype in runs)


def _block_runs(broadcast: Broadcast, i: int, dtype: str) -> bool:
    """Whether input i is read in runs that must start on 32-byte blocks (not masked)."""
    runs = row_runs(broadcast, i, dtype)
    return isinstance(runs, RowRuns) and not runs.masked


def broadcast_plan(plan: UbPlan, broadcast: Broadcast | None, dtypes: Sequence[str]) -> UbPlan:
    """`plan` (a kernel's own buffers' or a budget) with what its kernel's broadcast reads
    need (`dtypes`: each input's element type): the blockFactor alignment, and the UB of the
    inputs copied into UB once, reserved."""
    align = block_align(broadcast, dtypes)
    extra = sum(resident_bytes(broadcast, i, dtypes[i])
                for i in resident_inputs(broadcast, dtypes)) if broadcast is not None else 0
    if align == 1 and not extra:
        return plan
    return replace(plan, block_align=math.lcm(plan.block_align, align),
                   ub_reserve=plan.ub_reserve + extra)


def covered_size(a: IRArith, broadcast: Broadcast, i: int, end: SSAValue) -> SSAValue:
    """The elements of input i a core reads for output elements [0, end): its whole
    operand of a static size, else ceil(end / inner) * stride of the run-time dim it reads
    (hswc.broadcast.Broadcast.covered)."""
    covered = broadcast.covered(i)
    if covered is None:
        return a.const(broadcast.operand_size(i))
    inner, stride = covered
    rows = a.ceil_div(end, a.const(inner)) if inner > 1 else end
    return a.mul(rows, a.const(stride)) if stride > 1 else rows


def operand_index(a: IRArith, broadcast: Broadcast, i: int, flat: SSAValue) -> SSAValue:
    """Input i's flat index at the output's flat index `flat`, as index arithmetic (a window's
    offset added)."""
    strides = broadcast.strides[i]
    assert strides is not None
    index: SSAValue | None = None
    for k, ((inner, size), stride) in enumerate(zip(broadcast.digits(), strides, strict=True)):
        if not stride:
            continue
        digit = a.floor_div(flat, a.const(inner)) if inner > 1 else flat
        if (inner * size < broadcast.total if broadcast.is_static
                else broadcast.wraps(k)):  # not the outermost dim: wrap it
            digit = a.rem(digit, a.const(size))
        term = a.mul(digit, a.const(stride)) if stride > 1 else digit
        index = term if index is None else a.add(index, term)
    offset = broadcast.offset(i)  # a window: where the output's element 0 is read
    if index is None:
        return a.const(offset)
    return a.add(index, a.const(offset)) if offset else index


def emit_resident_copy(point: InsertPoint, broadcast: Broadcast, i: int, gm: SSAValue,
                       pipe: SSAValue, name: str, dtype: str,
                       end: Callable[[], SSAValue]) -> SSAValue:
    """Init's copy of input i into UB (a TBuf<VECIN> of its own), or a periodic input's
    pattern (`_emit_pattern`); the caller puts one PipeBarrier<PIPE_ALL> after these copies,
    before the vector pipe reads them. An input of a run-time size below its bound (a shared
    kernel's per-channel weight) copies what the core's output elements [0, end) read of it
    (`covered_size`; `end` builds it), into a buffer of the bound's bytes."""
    a = IRArith(point)
    buf = a.builder.insert(ascend.TBufOp(ascend.TPosition.VECIN)).result
    buf.name_hint = f"{name}_resident_buf"
    a.builder.insert(ascend.InitBufferOp(pipe, buf, a.const(resident_bytes(broadcast, i,
                                                                           dtype))))
    assert isinstance(gm.type, ascend.GlobalTensorType)
    local = a.builder.insert(ascend.TBufGetOp(buf, gm.type.element_type)).result
    local.name_hint = f"{name}_resident"
    runs = row_runs(broadcast, i, dtype)
    if isinstance(runs, RowRuns) and runs.period:
        _emit_pattern(a, broadcast, i, gm, local, runs, dtype)
        return local
    if broadcast.has_static_size(i):
        nbytes = a.const(broadcast.operand_size(i) * ELEMENT_BYTES[dtype])
    else:
        nbytes = a.mul(covered_size(a, broadcast, i, end()), a.const(ELEMENT_BYTES[dtype]))
    a.builder.insert(ascend.DataCopyPadOp(local, gm, nbytes))
    return local


def _emit_pattern(a: IRArith, broadcast: Broadcast, i: int, gm: SSAValue, local: SSAValue,
                  runs: RowRuns, dtype: str) -> None:
    """A periodic input's pattern (module docstring, "Periodic runs"): its row by one
    DataCopyPad at element 0, a barrier (MTE2's write before the scalar unit reads it), then
    elements [row, period) each a GetValue/SetValue of the one `row` before it."""
    offset = broadcast.offset(i)
    row_gm = a.builder.insert(ascend.GlobalAtOp(gm, a.const(offset))).result if offset else gm
    nbytes = a.const(runs.row * ELEMENT_BYTES[dtype])
    a.builder.insert(ascend.DataCopyPadOp(local, row_gm, nbytes))
    a.builder.insert(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))
    body = Block(arg_types=[IndexType()])
    j = body.args[0]
    j.name_hint = "j"
    inner = IRArith(InsertPoint.at_end(body))
    value = inner.builder.insert(ascend.LocalGetValueOp(local, inner.sub(j, inner.const(
        runs.row)))).result
    inner.builder.insert(ascend.SetValueOp(local, j, value))
    inner.builder.insert(scf.YieldOp())
    loop = a.builder.insert(scf.ForOp(a.const(runs.row), a.const(runs.period), a.const(1), [],
                                      Region(body)))
    loop.attributes[BROADCAST_COPY_ATTR] = StringAttr(
        f"pattern of {runs.period} {dtype}: rows of {runs.row} repeated")


def emit_broadcast_copy(point: InsertPoint, broadcast: Broadcast, i: int, gm: SSAValue,
                        local: SSAValue, base: SSAValue, count: SSAValue, dtype: str,
                        barriers: bool = True, resident: SSAValue | None = None) -> None:
    """Input i's copy-in at `point`: row runs where they hold, else the element loop (module
    docstring); `barriers` False: no PipeBarrier<PIPE_V> after Duplicate runs (a schedule
    without barriers between vector steps); `resident`: the input's copy in UB (Init's
    emit_resident_copy), for an input whose runs copy from there."""
    runs = row_runs(broadcast, i, dtype)
    if isinstance(runs, RowRuns):
        assert not runs.resident or resident is not None, "the input's copy in UB is missing"
        source = gm if resident is None else resident
        _emit_runs(point, broadcast, i, source, local, base, count, dtype, runs, barriers)
    else:
        _emit_elements(point, broadcast, i, gm, local, base, count, runs)


@dataclass(frozen=True)
class RunLoop:
    """The loop over a chunk's row runs of operand i (module docstring), open: its body holds the
    run's start, length and flat operand index; the caller adds the run's copy, then `close`s it.
    Shared by the broadcast copy-in and the output windows' copy-out
    (hswc.vectorizer.window_copy_out)."""

    inner: IRArith
    start: SSAValue
    length: SSAValue
    index: SSAValue
    body: Block
    trips: SSAValue
    zero: SSAValue
    one: SSAValue

    def close(self, point: InsertPoint, describe: str) -> None:
        """The loop inserted at `point`, named by `describe` (BROADCAST_COPY_ATTR)."""
        self.inner.builder.insert(scf.YieldOp())
        loop = Builder(point).insert(scf.ForOp(self.zero, self.trips, self.one, [],
                                               Region(self.body)))
        loop.attributes[BROADCAST_COPY_ATTR] = StringAttr(describe)


RUN_NAMES = ("phase", "runs", "k", "row_offset", "run_start", "run_length")
"""The names the run loop's values print with: phase, trip count, induction variable, the
run's first row offset, its start and its length."""


def run_loop(point: InsertPoint, broadcast: Broadcast, i: int, base: SSAValue,
             count: SSAValue, row: int, names: tuple[str, ...] = RUN_NAMES,
             period: int = 0) -> RunLoop:
    """The open loop over the runs of `row` elements that elements [base, base + count) of
    operand i make (module docstring), its bounds built at `point`; its index the operand's
    flat index of the run's first element, or with a `period` that element's index in the
    pattern ("Periodic runs")."""
    outer = IRArith(point)
    width = outer.const(row)
    phase = outer.name(outer.rem(base, width), names[0])
    trips = outer.name(outer.ceil_div(outer.add(phase, count), width), names[1])
    zero, one = outer.const(0), outer.const(1)
    body = Block(arg_types=[IndexType()])
    r = body.args[0]
    r.name_hint = names[2]
    inner = IRArith(InsertPoint.at_end(body))
    first = inner.name(inner.mul(r, width), names[3])
    start = inner.name(inner.max(inner.sub(first, phase), zero), names[4])
    end = inner.min(inner.sub(inner.add(first, width), phase), count)
    length = inner.name(inner.sub(end, start), names[5])
    flat = inner.add(base, start)
    index = inner.rem(flat, inner.const(period)) if period \
        else operand_index(inner, broadcast, i, flat)
    return RunLoop(inner, start, length, index, body, trips, zero, one)


def _emit_runs(point: InsertPoint, broadcast: Broadcast, i: int, gm: SSAValue,
               local: SSAValue, base: SSAValue, count: SSAValue, dtype: str, runs: RowRuns,
               barriers: bool) -> None:
    loop = run_loop(point, broadcast, i, base, count, runs.period or runs.row,
                    period=runs.period)
    inner, start, length, index = loop.inner, loop.start, loop.length, loop.index
    if runs.masked:  # a constant run (row_runs): no block start needed
        _emit_masked_run(inner, local, start, length, _run_value(inner, gm, index, runs), dtype)
        loop.close(point, runs.describe(dtype))
        if barriers:
            Builder(point).insert(ascend.PipeBarrierOp(ascend.Pipe.PIPE_V))
        return
    dst = inner.builder.insert(ascend.LocalAtOp(local, start)).result
    if runs.resident and runs.stride:  # whole blocks: the last run's tail is stale lanes
        src = inner.builder.insert(ascend.LocalAtOp(gm, index)).result
        block = inner.const(UB_BLOCK_BYTES // ELEMENT_BYTES[dtype])
        blocks = inner.mul(inner.ceil_div(length, block), block)
        inner.builder.insert(ascend.DataCopyOp(dst, src, blocks))
    elif runs.stride:
        at = inner.builder.insert(ascend.GlobalAtOp(gm, index)).result
        nbytes = inner.mul(length, inner.const(ELEMENT_BYTES[dtype]))
        inner.builder.insert(ascend.DataCopyPadOp(dst, at, nbytes))
    else:
        inner.builder.insert(ascend.DuplicateOp(dst, _run_value(inner, gm, index, runs), length))
    loop.close(point, runs.describe(dtype))
    if (not runs.stride or runs.resident) and barriers:  # Duplicate, or DataCopy in UB: on V
        Builder(point).insert(ascend.PipeBarrierOp(ascend.Pipe.PIPE_V))


def _run_value(a: IRArith, source: SSAValue, index: SSAValue, runs: RowRuns) -> SSAValue:
    """A constant run's value: a GetValue from the input's copy in UB, or from GM."""
    read = ascend.LocalGetValueOp(source, index) if runs.resident \
        else ascend.GlobalGetValueOp(source, index)
    return a.builder.insert(read).result


def _emit_masked_run(a: IRArith, local: SSAValue, start: SSAValue, length: SSAValue,
                     value: SSAValue, dtype: str) -> None:
    """A constant run [start, start + length) that may start and end mid-block (module
    docstring, "Masked runs"): lanes [lane, lane + head) of the 64 from the block it starts in,
    by Duplicate's bitwise mask, then the rest, if any, by the count form from 64 lanes on."""
    block = UB_BLOCK_BYTES // ELEMENT_BYTES[dtype]
    lane = a.name(a.rem(start, a.const(block)), "lane")
    aligned = a.name(a.sub(start, lane), "block_start")
    word = a.const(ascend.MASK_WORD_LANES)
    head = a.name(a.min(length, a.sub(word, lane)), "head")
    at = a.builder.insert(ascend.LocalAtOp(local, aligned)).result
    a.builder.insert(ascend.DuplicateLanesOp(at, lane, value, head))
    rest = a.name(a.sub(length, head), "rest")
    then = Block()
    b = IRArith(InsertPoint.at_end(then))
    tail = b.builder.insert(ascend.LocalAtOp(local, b.add(aligned, word))).result
    b.builder.insert(ascend.DuplicateOp(tail, value, rest))
    b.builder.insert(scf.YieldOp())
    a.builder.insert(scf.IfOp(a.gt(rest, a.const(0)), [], Region(then)))


def _emit_elements(point: InsertPoint, broadcast: Broadcast, i: int, gm: SSAValue,
                   local: SSAValue, base: SSAValue, count: SSAValue, why: str) -> None:
    outer = IRArith(point)
    zero, one = outer.const(0), outer.const(1)
    body = Block(arg_types=[IndexType()])
    j = body.args[0]
    j.name_hint = "j"
    inner = IRArith(InsertPoint.at_end(body))
    flat = inner.add(base, j)
    index = operand_index(inner, broadcast, i, flat)
    value = inner.builder.insert(ascend.GlobalGetValueOp(gm, index)).result
    inner.builder.insert(ascend.SetValueOp(local, j, value))
    inner.builder.insert(scf.YieldOp())
    builder = Builder(point)
    loop = builder.insert(scf.ForOp(zero, count, one, [], Region(body)))
    loop.attributes[BROADCAST_COPY_ATTR] = StringAttr(why)
    builder.insert(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))
