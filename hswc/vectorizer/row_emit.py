"""A row kernel's `KernelPlan` (hswc.rows, hswc.vectorizer.plan with `rows`) as ascend ops:
Init before the chunk loop, CopyIn, Compute and CopyOut in it, for chunks of whole rows.

Layout in UB: an element buffer holds a chunk's rows `pitch` elements apart
(KernelPlan.pitch: the row rounded up to 16 elements, so every row starts on a 32-byte block);
a row buffer one value per row, contiguous; a spread buffer a row's value over one 32-byte
block per row (Brcb); a column input its `length` elements once, copied in Init.

- CopyIn: an element input is one DataCopyPad of `rows` blocks of `length * sizeof(T)` bytes
  (GM rows are contiguous; in UB each block pads to 32 bytes, then a dstStride of the blocks
  left to the pitch); a row input one block of `rows` values. CopyOut mirrors it (srcStride).
  Where a row is `runs` strided runs (a reduction over leading dims, hswc.rows), one
  DataCopyPad per run index a: `rows` blocks of `run * sizeof(T)` bytes from GM a * stride on
  (the chunk's rows' a-th runs lie one after the other there) into UB a * run elements into
  each row (dstStride: the pitch less one run), which needs whole 32-byte runs
  (runs_refusal); a run that is not whole blocks lands padded to them (hswc.rows
  `padded_run` P: DataCopyPad rounds each block up to 32 bytes in UB), a * P elements into
  the row, and each reduction first writes its identity over every run's padding in its f32
  source (pad_runs: a masked Duplicate a row repeated over its runs, each run's padding in one
  repeat). A row of lanes (hswc.rows: Lanes; one a chunk) and a grouped row (Grouped rows) are
  one DataCopyPad of its `runs` blocks of a run, stride apart in GM (the GM stride in bytes, at
  most a uint16), one after the other in UB (a grouped row's padded);
  its reduction is the fold tree over whole runs, run 0's lanes copied into the row buffer
  (no WholeReduce), and an element step reads a row value's lanes as one repeat for every
  run (block stride 1, repeat stride 0).
- Compute, per instruction of the plan:
  - on elements or rows alone: the level-2 call over the chunk (`rows * pitch` elements, rounded
    up to the plan's alignment, or `rows` values); the pad lanes of each row are computed and
    never copied out;
  - on elements with a row value or a column operand: the level-0 call once per 256-byte group
    of the pitch, `rows` repeats, one per row (dst / element repeat stride pitch / 8 blocks of
    f32); a row value read through its Brcb spread (block stride 0, repeat stride 1: the row's
    block for every lane of its repeat), a column at its group with repeat stride 0;
  - in a chunk of wide rows (KernelPlan.wide_groups), on elements with a column (no row
    value): one level-2 call over the chunk, the column read from its wide buffer, which Init
    filled once a core with the column in every row (KernelPlan.wide_columns,
    hswc.vectorizer.row_columns: the column instructions, such as a column's Cast to f32, are
    made there, not in each chunk);
  - on f32 elements with row values (no column) in a chunk of wide rows (KernelPlan.wide_groups
    G: the rows whole repeats, a repeat stride of G groups): one level-0 call of rows x G
    repeats over the whole chunk, the row value read from a wide spread (Brcb puts row r's
    value in block G * r, level-0 Max(v, v) copies it to the row's other G - 1 blocks:
    widen_spread), so repeat G * r + g reads block G * r + g;
  - hsg.reduce: the fold tree of hswc.reduction_order (a level-0 Add / Max / Min per fold,
    masked to the source group's valid lanes, `rows` repeats), then one WholeReduceSum / Max /
    Min of each row's first group into the row buffer, in the one order reduction_order
    defines; the fold works in the plan's f32 scratch (a UB -> UB DataCopy of the source
    first) when the source is read again. A row (or segment) of whole repeats that
    reduction_order.tree_levels takes is reduced by its tree of WholeReduces instead: each
    level's group values into the plan's partials buffer (one call over every row's groups
    in a chunk of wide rows, else a call per group with a repeat per row, or calls along the
    row with one row a chunk), the last level's WholeReduce into the row buffer; the source is
    left as it is (no scratch copy). A compensated sum (hswc.dialects.hsg_rows.compensated: a
    `signed` sum, one row a chunk) makes each fold reduction_order's
    TWO_SUM_STEPS instead (level-0 calls along the row over its lo and two temporaries), then
    Brcb-spreads the last group's hi and lo a lane a block and folds them by level-2 calls, and
    writes hi + lo (CompareScalar and Select keep hi where it is not finite); in segments it
    adds each segment's (hi, lo) into a pair of accumulators by the same steps.
- A row in segments (hswc.rows `segment`; one row a chunk): the chunk sets each reduction's
  f32 accumulator (KernelPlan.accumulators) to its combiner's identity (Duplicate), then makes
  one pass over the row per reduction and one for the outputs, each an scf.for over the full
  segments and the short last segment after it. A pass computes only what its reduction's
  source (or the outputs) needs (pass_values): it copies in those inputs and each column's
  segment (between PIPE_ALL barriers), reads an earlier pass's reduction by copying its
  accumulator into the reduction's row buffer, and folds its own reduction as above over the
  segment's elements, then combines it into the accumulator (a level-2 Add / Max / Min, the
  accumulator first); only the last pass copies out. Summing online (hswc.rows `online`), a
  maximum's pass also takes the sums of exp(b - it) (online_sums): after the maximum's
  segment value, running_maximum, and after each such sum's, rescaled_sum
  (hswc.reduction_order.online_sum).
- A run-time row length n (hswc.rows `dynamic`: the chunk op's row_length): the GM offsets
  are n per row, each pass an scf.for over the (n - 1) // S full segments, then the last
  segment, of v = n - that many * S elements (1 to S): its copies move v elements, its calls
  work on all S, and each reduction's source has its lanes from v on set to the combiner's
  identity before its fold (pad_tail, where v < S: Duplicate's bitwise-mask form for the
  lanes from v on of the 64-lane group holding v, then one Duplicate from the next group on;
  vector calls only, no PIPE_ALL barrier), so it folds as a full segment in
  hswc.reduction_order.padded's order. A whole row of a run-time length (no segment: a
  branch for rows of at most its `length` W, hswc.passes.row_branches) is worked as a
  static row of W is, its copies moving n elements, its calls on all W, each
  reduction's source padded from n so; with several rows a chunk (no one_per_chunk), each
  element copy is one DataCopyPad of the chunk's rows whose UB stride is the run-time
  W - round32(n) blocks (ascend.data_copy_pad's `ub_gap`), and the padding is Duplicate's
  bitwise-mask form repeated over the rows (pad_rows_tail).
- Barriers: PipeBarrier<PIPE_V> between every two dependent vector steps (all steps of one
  instruction's groups, or of one fold level, are independent), so the kernel is right under
  --cce-auto-sync=off; none on a schedule without barriers (Ascend 950 orders vector calls).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import Float32Type, FloatAttr, IndexType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.dialects.ascend_repeat import UINT8_MAX, BinaryRepeatOp, BinaryRepeatParams
from hswc.dialects.hsg_rows import compensated
from hswc.index_arith import IRArith
from hswc.platform import (
    DATA_COPY_PAD_MAX_BYTES,
    MAX_REPEAT_TIMES,
    UB_BLOCK_BYTES,
    VECTOR_REPEAT_BYTES,
)
from hswc.reduction_order import IDENTITY, LOWEST, TWO_SUM_STEPS, Fold, fold_plan, tree_levels
from hswc.rows import OperandClass, Rows
from hswc.tiling import ELEMENT_BYTES
from hswc.vectorizer.dag import Node
from hswc.vectorizer.emit import (
    ELEMENT_TYPES,
    MASK_WORD,
    MASK_WORD_BITS,
    Emitter,
    Uniforms,
    buffer_objects,
    build,
    fill_constants,
    local_name,
    scalar_attr,
    set_float8_mode,
)
from hswc.vectorizer.instructions import Instr, Val
from hswc.vectorizer.plan import (
    LANE_SPREAD_ELEMENTS,
    LANE_TEMP_ELEMENTS,
    LANES_BUFFER_ELEMENTS,
    Arrival,
    Buffer,
    KernelPlan,
    half_pitch,
    partial_width,
    partial_widths,
)
from hswc.vectorizer.row_columns import fill_wide_columns, hoisted

BRCB_VALUES = 8
"""Brcb reads 8 values a repeat, one per 32-byte block it writes (Brcb.md)."""
MAX_STRIDE = UINT8_MAX
"""BinaryRepeatParams' strides are uint8_t (ascend_repeat.BINARY_STRIDES)."""
MAX_REPEATS = MAX_REPEAT_TIMES
"""A level-0 call's repeatTimes (hswc.platform); a row's groups take several calls."""
REPEAT_FORMS: dict[str, type[BinaryRepeatOp]] = {
    "Add": ascend.AddRepeatOp, "Sub": ascend.SubRepeatOp, "Mul": ascend.MulRepeatOp,
    "Div": ascend.DivRepeatOp, "Max": ascend.MaxRepeatOp, "Min": ascend.MinRepeatOp,
    "Broadcast": ascend.MaxRepeatOp}
"""The level-0 call of each instruction that reads a row value or a column. Broadcast (a row's
or a column's value spread over the elements, for a Compare or Select) is Max(v, v): IEEE
maximum of a value with itself is that value, bit for bit (a NaN as it is, -0 as -0)."""
FOLDS: dict[str, type[BinaryRepeatOp]] = {
    "addf": ascend.AddRepeatOp, "maximumf": ascend.MaxRepeatOp, "minimumf": ascend.MinRepeatOp}
ACCUMULATE = {"addf": ascend.AddOp, "maximumf": ascend.MaxOp, "minimumf": ascend.MinOp}
"""The level-2 call combining a segment's value into a row's accumulator."""
WHOLE: dict[str, type[ascend.WholeReduceOp]] = {
    "addf": ascend.WholeReduceSumOp, "maximumf": ascend.WholeReduceMaxOp,
    "minimumf": ascend.WholeReduceMinOp}


def why_not_lowered(plan: KernelPlan, instr: Instr) -> str | None:
    """Why this instruction of a row kernel's plan has no lowering here (None: it has one);
    hsg-tile-on-cores keeps such a row region on the host (hswc.passes.row_kernels)."""
    if instr.lanes is not None:
        return f"reads its operands as {instr.lanes} lanes"
    if instr.api == "Reduce":
        (src,) = instr.srcs
        combiner = instr.mode or ""
        if src.dtype != "f32" or src.level != "element" or combiner not in FOLDS:
            return f"reduces {src.dtype} {src.level} values by {combiner}"
        if plan.rows is not None and plan.rows.lanes not in (1, VECTOR_REPEAT_BYTES // 4):
            return f"reduces rows of {plan.rows.lanes} lanes (a row kernel folds 64)"
        dtype = "f32"
    elif instr.dst.level == "element" and {v.level for v in instr.srcs} & {"row", "column"}:
        dtype = instr.dst.dtype
        if plan.rows is not None and plan.rows.lanes > 1 and (
                dtype != "f32" or any(v.level == "column" for v in instr.srcs)):
            return (f"is {instr.api} on {dtype} with a row value of {plan.rows.lanes} lanes "
                    "or a column operand (only f32 steps read a row of lanes)")
        arity = 1 if instr.api == "Broadcast" else 2
        if instr.api not in REPEAT_FORMS or len(instr.srcs) != arity \
                or dtype not in ("f32", "f16") or any(v.dtype != dtype for v in instr.srcs):
            return (f"is {instr.api} on {dtype} with a row value or a column operand (only "
                    "Add, Sub, Mul, Div, Max, Min and Broadcast of one float type)")
    else:
        return None
    one = plan.rows is not None and plan.rows.one_per_chunk
    if not one and plan.pitch * ELEMENT_BYTES[dtype] // UB_BLOCK_BYTES > MAX_STRIDE:
        return (f"works on rows {plan.pitch} elements apart, more than a repeat stride of "
                f"{MAX_STRIDE} blocks reaches")
    return None


def runs_refusal(rows: Rows, sizes: Sequence[int],
                 classes: Sequence[OperandClass] = ()) -> str | None:
    """Why a row kernel whose rows are strided runs (hswc.rows) has no copy here (None: it
    has one): each run must be whole 32-byte blocks in every element operand's type
    (`sizes`: their element bytes) so each lands on a block boundary in UB, or, a run of more
    than one element, padded to whole blocks the same number of elements in every such type
    (padded_run), with no column operand (`classes`: the operands')."""
    if rows.runs == 1 or all(rows.run * size % UB_BLOCK_BYTES == 0 for size in sizes):
        return None
    size = next(s for s in sizes if rows.run * s % UB_BLOCK_BYTES)
    why = (f"reads each row as {rows.runs} runs of {rows.run} "
           f"element{'s' if rows.run != 1 else ''} ({rows.run * size} bytes), not whole "
           f"{UB_BLOCK_BYTES}-byte blocks")
    if rows.run == 1 or rows.lanes > 1:
        return f"{why}, which its copy by runs needs"
    if padded_run(rows.run, sizes) is None:
        return (f"{why}, and its element operands' types pad a run to whole blocks of "
                "different lengths")
    if "column" in classes:
        return (f"{why}, and it reads a value per position along the reduced dims (a column "
                "operand), which a kernel of padded runs does not take")
    return None


def padded_run(run: int, sizes: Sequence[int]) -> int | None:
    """The elements a run of `run` takes in UB padded to whole 32-byte blocks, the same in
    every element operand's type (`sizes`: their bytes); None where the types differ."""
    found = {-(-run * size // UB_BLOCK_BYTES) * UB_BLOCK_BYTES // size for size in sizes}
    return found.pop() if len(found) == 1 else None


def with_padded_runs(rows: Rows, sizes: Sequence[int]) -> Rows:
    """`rows`, its runs padded in UB where they are not whole blocks (runs_refusal must have
    found a copy)."""
    if rows.runs == 1 or rows.lanes > 1 or rows.run == 1:
        return rows
    padded = padded_run(rows.run, sizes)
    if padded is None or padded == rows.run:
        return rows
    return replace(rows, padded_run=padded)


def overlong_runs(rows: Rows, sizes: Sequence[int]) -> str | None:
    """Why strided runs are too long for the copy by runs (None: they are not): each run is
    one DataCopyPad block, at most hswc.platform.DATA_COPY_PAD_MAX_BYTES in every element
    operand's type (`sizes`: their element bytes)."""
    longest = rows.run * max(sizes, default=0)
    if rows.runs == 1 or longest <= DATA_COPY_PAD_MAX_BYTES:
        return None
    return (f"reads each row as {rows.runs} runs of {rows.run} elements ({longest} bytes), "
            f"longer than the {DATA_COPY_PAD_MAX_BYTES} bytes one DataCopyPad block moves, "
            "which its copy by runs needs")


def refusal(plan: KernelPlan) -> tuple[Instr, str] | None:
    """The first instruction of a row kernel's plan without a lowering here, and why."""
    for instr in plan.instrs():
        why = why_not_lowered(plan, instr)
        if why is not None:
            return instr, why
    return None


@dataclass(frozen=True)
class Segment:
    """One segment of a row in segments (hswc.rows) in one pass over the row: where it
    starts in the row, its elements, the pass's reductions (none: the outputs' pass) and the
    values (by id) that pass computes or reads (pass_values)."""

    start: SSAValue
    length: int
    targets: tuple[Instr, ...]
    needed: frozenset[int]
    online: Mapping[Instr, Instr]
    """The row's online sums, to their maxima (online_sums; empty when it sums in passes)."""
    valid: SSAValue | None = None
    """The last segment of a run-time row length: its elements in the row (1 to `length`),
    the rest padded (module docstring); None: all `length` of them."""


def online_sums(plan: KernelPlan) -> dict[Instr, Instr]:
    """Each sum of exp(b - m) whose m is a maximum of the row, to that maximum: the pairs a row
    kernel summing online (hswc.rows `online`) reduces in one pass (hswc.reduction_order's
    online sum; hswc.interpreter.body.online_operands finds the same pairs in the body), where
    b reads no reduction after the maximum's."""
    instrs = plan.instrs()
    producers: dict[int, Instr] = {id(i.dst): i for i in instrs}
    order = {id(i): n for n, i in enumerate(instrs)}
    reductions = [i for i in instrs if i.api == "Reduce"]
    pairs: dict[Instr, Instr] = {}
    for instr in reductions:
        if instr.mode != "addf":
            continue
        exp = producers.get(id(instr.srcs[0]))
        sub = producers.get(id(exp.srcs[0])) if exp is not None and exp.api == "Exp" else None
        if sub is None or sub.api != "Sub" or len(sub.srcs) != 2:
            continue
        peak = producers.get(id(sub.srcs[1]))
        if peak is None or peak.api != "Reduce" or peak.mode != "maximumf":
            continue
        reads = pass_values(plan, instr)  # no reduction of a later pass than the maximum's
        if all(order[id(r)] <= order[id(peak)] for r in reductions
               if r is not instr and id(r.dst) in reads):
            pairs[instr] = peak
    return pairs


def pass_values(plan: KernelPlan, target: Instr | None) -> frozenset[int]:
    """The values (by id) a pass over a row in segments needs: what the source of its
    reduction `target` (None: the outputs) is computed from, back to the inputs and to the
    reductions of earlier passes, whose values it reads from their accumulators."""
    producers: dict[int, Instr] = {id(i.dst): i for i in plan.instrs()}
    wanted: list[Val] = list(target.srcs) if target is not None else list(plan.outputs)
    needed: set[int] = set()
    if target is not None:
        needed.add(id(target.dst))
    while wanted:
        val = wanted.pop()
        if id(val) in needed:
            continue
        needed.add(id(val))
        producer = producers.get(id(val))
        if producer is not None and producer.api != "Reduce":
            wanted.extend(producer.srcs)
    return frozenset(needed)


def _gap_blocks(length: int, pitch: int, size: int) -> int:
    """The 32-byte blocks between a row's padded copy and the next row's start in UB."""
    padded = -(-length * size // UB_BLOCK_BYTES) * UB_BLOCK_BYTES
    return (pitch * size - padded) // UB_BLOCK_BYTES


@dataclass
class RowHandles:
    """What Init sets up and every chunk uses."""

    gm: dict[Val, SSAValue]
    objects: dict[Buffer, SSAValue]
    uniforms: Uniforms
    columns: dict[Buffer, SSAValue] = field(default_factory=dict)
    """The column inputs' tensors, copied in Init (of a row in segments: per segment)."""
    column_vals: dict[Buffer, Val] = field(default_factory=dict)
    """The column input each of `columns` holds."""
    accumulators: dict[Instr, SSAValue] = field(default_factory=dict)
    """A row in segments: each reduction's accumulator tensor (KernelPlan.accumulators)."""
    low_accumulators: dict[Instr, SSAValue] = field(default_factory=dict)
    """A row in segments: each compensated sum's accumulator of lo (Compensation)."""
    row_length: SSAValue | None = None
    """A run-time row length (hswc.rows `dynamic`); None: the static `length`."""
    first_row: SSAValue | None = None
    """Rows of lanes (hswc.rows): the core's first row, whose runs' place (Rows.row_start:
    rows come in groups) its element GlobalTensors start at."""


def _buffer_elements(plan: KernelPlan, b: Buffer, ub_factor: int | SSAValue,
                     e: Emitter) -> SSAValue:
    """How many elements of its type buffer `b` holds (module docstring's layout)."""
    a = e.a
    if b.level == "column" and b not in plan.wide_columns:
        size = ELEMENT_BYTES[b.dtype]
        return a.const(-(-plan.pitch * size // UB_BLOCK_BYTES) * UB_BLOCK_BYTES // size)
    assert isinstance(ub_factor, SSAValue)
    if b.level == "row":
        lanes = VECTOR_REPEAT_BYTES // ELEMENT_BYTES[b.dtype]
        assert plan.rows is not None
        values = a.mul(ub_factor, a.const(plan.rows.lanes)) if plan.rows.lanes > 1 \
            else ub_factor
        return a.mul(a.ceil_div(values, a.const(lanes)), a.const(lanes))
    if b.level == "lanes":
        return a.const(LANES_BUFFER_ELEMENTS)
    if b.level == "half":
        return a.mul(ub_factor, a.const(half_pitch(plan.pitch)))
    if b.level == "spread":  # the 8 blocks a Brcb repeat writes, for every 8 rows begun
        blocks = a.mul(a.ceil_div(ub_factor, a.const(BRCB_VALUES)),
                       a.const(BRCB_VALUES * plan.spread_blocks))
        return a.mul(blocks, a.const(UB_BLOCK_BYTES // ELEMENT_BYTES[b.dtype]))
    if b.level == "partials":
        return a.mul(ub_factor, a.const(partial_width(plan)))
    align = a.const(plan.align)  # a level-2 call's count is the chunk's rounded up so
    return a.mul(a.ceil_div(a.mul(ub_factor, a.const(plan.pitch)), align), align)


def _buffer_bytes(plan: KernelPlan, b: Buffer, ub_factor: SSAValue, e: Emitter) -> SSAValue:
    a = e.a
    if b.dtype == "mask":
        from hswc.vectorizer.plan import MASK_MIN_BYTES

        return a.add(a.mul(ub_factor, a.const(plan.pitch // 8)), a.const(MASK_MIN_BYTES))
    return a.mul(_buffer_elements(plan, b, ub_factor, e), a.const(ELEMENT_BYTES[b.dtype]))


def _global_tensors(e: Emitter, plan: KernelPlan, rows: Rows, inputs: Sequence[SSAValue],
                    outputs: Sequence[SSAValue], offset: SSAValue, size: SSAValue,
                    row_length: SSAValue | None
                    ) -> tuple[dict[Val, SSAValue], list[tuple[Val, str]]]:
    """A GlobalTensor per input and output: an element operand over the core's rows x
    length elements, a row operand over its rows, a column whole; and each input's class."""
    a = e.a
    gm: dict[Val, SSAValue] = {}
    wanted = [(v, inputs[v.input or 0], rows.inputs[v.input or 0])
              for v in plan.selection.inputs]
    wanted += zip(plan.outputs, outputs, rows.outputs, strict=True)
    length = a.const(rows.length) if row_length is None else row_length
    for val, memref, kind in wanted:
        if kind == "column":
            start, count = a.const(0), length
        elif kind == "row" and rows.lanes == 1:
            start, count = offset, size
        elif kind == "row":  # its lanes, a group's `stride` values side by side (hswc.rows)
            start = _value_start(a, rows, offset)
            last = a.sub(a.add(offset, a.max(size, a.const(1))), a.const(1))
            count = a.sub(a.add(_value_start(a, rows, last), _width(a, rows, last)), start)
        elif rows.lanes > 1 or rows.grouped:  # from the first row's first run to the last's
            start = _row_start(a, rows, offset)
            last_row = a.sub(a.add(offset, a.max(size, a.const(1))), a.const(1))
            last = _row_start(a, rows, last_row)
            count = a.sub(a.add(a.add(last, a.const((rows.runs - 1) * rows.stride)),
                                _width(a, rows, last_row)), start)
        elif rows.runs > 1:  # the core's rows' runs, the last run's end included
            run = a.const(rows.run)
            start = a.mul(offset, run)
            count = a.add(a.const((rows.runs - 1) * rows.stride), a.mul(size, run))
        else:
            start, count = a.mul(offset, length), a.mul(size, length)
        gm[val] = e.value(ascend.SetGlobalBufferOp(memref, start, count), f"{val.name}_gm")
        if plan.schedule.l2_bypass and kind == "element" and val in plan.selection.inputs:
            e.op(ascend.SetL2CacheHintOp(gm[val], "disable"))  # streamed: as emit's inputs
    return gm, [(val, kind) for val, _memref, kind in wanted[:len(wanted) - len(outputs)]]


def _row_start(a: IRArith, rows: Rows, row: SSAValue) -> SSAValue:
    """Rows.row_start in index arithmetic: where row `row`'s first run starts."""
    group = rows.group
    return a.add(a.mul(a.floor_div(row, a.const(group)), a.const(rows.runs * rows.stride)),
                 a.mul(a.rem(row, a.const(group)), a.const(rows.run)))


def _value_start(a: IRArith, rows: Rows, row: SSAValue) -> SSAValue:
    """Rows.value_start in index arithmetic: where row `row`'s lanes start in a row operand."""
    if not rows.tail:
        return a.mul(row, a.const(rows.lanes))
    group = rows.group
    return a.add(a.mul(a.floor_div(row, a.const(group)), a.const(rows.stride)),
                 a.mul(a.rem(row, a.const(group)), a.const(rows.lanes)))


def _width(a: IRArith, rows: Rows, row: SSAValue) -> SSAValue:
    """Rows.width in index arithmetic: the columns row `row` of lanes holds."""
    if not rows.tail or rows.group == 1:
        return a.const(rows.tail or rows.run)
    last = a.eq(a.rem(row, a.const(rows.group)), a.const(rows.group - 1))
    return a.builder.insert(arith.SelectOp(last, a.const(rows.tail), a.const(rows.run))).result


def _buffers(e: Emitter, plan: KernelPlan, pipe: SSAValue, ub_factor: SSAValue
             ) -> dict[Buffer, SSAValue]:
    """The queues, then the TBufs (a column input's at VECIN: Init copies it in), each
    InitBuffer'd."""
    objects = buffer_objects(e, plan, lambda b: ascend.TPosition.VECIN if b.level == "column"
                             else ascend.TPosition.VECCALC)
    for b in plan.buffers:
        e.op(ascend.InitBufferOp(pipe, objects[b], _buffer_bytes(plan, b, ub_factor, e),
                                 num=b.depth if b.is_queue else None))
    return objects


def emit_row_init(e: Emitter, plan: KernelPlan, inputs: Sequence[SSAValue],
                  outputs: Sequence[SSAValue], offset: SSAValue, size: SSAValue,
                  ub_factor: SSAValue, row_length: SSAValue | None = None) -> RowHandles:
    """GlobalTensors over the core's rows, the TPipe, queues and TBufs, the constants, the
    column inputs copied in (module docstring; `row_length`: a run-time one)."""
    rows = plan.rows
    assert rows is not None
    gm, kinds = _global_tensors(e, plan, rows, inputs, outputs, offset, size, row_length)
    pipe = e.value(ascend.TPipeOp(), "pipe")
    objects = _buffers(e, plan, pipe, ub_factor)
    set_float8_mode(e, plan)
    uniforms = fill_constants(e, plan, objects,
                              lambda b: _buffer_elements(plan, b, ub_factor, e))
    columns: dict[Buffer, SSAValue] = {}
    column_vals: dict[Buffer, Val] = {}
    for val, kind in kinds:
        if kind == "column":
            b = plan.place[val]
            column_vals[b] = val
            columns[b] = e.value(ascend.TBufGetOp(objects[b], ELEMENT_TYPES[b.dtype]),
                                 local_name(b))
            if rows.segment is None:  # else each segment copies its part
                nbytes = ELEMENT_BYTES[val.dtype]
                e.op(ascend.DataCopyPadOp(columns[b], gm[val], (
                    e.a.const(rows.length * nbytes) if row_length is None  # a whole row's n
                    else e.a.mul(row_length, e.a.const(nbytes)))))
    if columns and rows.segment is None:  # MTE2's copies done before the vector pipe or the
        e.op(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))  # scalar unit reads them
    fill_wide_columns(e, plan, objects, columns, uniforms, ub_factor)
    return RowHandles(gm, objects, uniforms, columns, column_vals, row_length=row_length,
                      first_row=offset if rows.lanes > 1 or rows.grouped else None)


class RowChunkEmitter:
    """One chunk's CopyIn, Compute and CopyOut at the chunk op's place."""

    def __init__(self, e: Emitter, plan: KernelPlan, h: RowHandles, chunk_offset: SSAValue,
                 rows_now: SSAValue, source: Operation, segment: Segment | None = None):
        assert plan.rows is not None
        self.e = e
        self.plan = plan
        self.rows: Rows = plan.rows
        self.h = h
        self.segment = segment
        self.length = segment.length if segment is not None else self.rows.length \
            if self.rows.padded_run is None else self.rows.chunk_length
        """The elements of each row this chunk works on (a segment's, or the row's)."""
        self.needed = segment.needed if segment is not None else None
        self.online: Mapping[Instr, Instr] = segment.online if segment is not None else {}
        """Each sum the kernel sums online, to its maximum."""
        self.arrived: set[int] = set()
        """The queued inputs (by id) taken from their queues in this chunk."""
        self.chunk_offset = chunk_offset
        self.rows_now = rows_now
        self.source = source
        self.tensors: dict[Buffer, SSAValue] = dict(h.columns)
        self.tensors.update((plan.accumulators[i], t) for i, t in h.accumulators.items())
        if plan.compensation is not None:
            self.tensors.update((plan.compensation.low_accumulators[i], t)
                                for i, t in h.low_accumulators.items())
        self.views: dict[tuple[SSAValue, int], SSAValue] = {}
        self.casts: dict[tuple[SSAValue, str], SSAValue] = {}
        self.counts: dict[str, SSAValue] = {}
        self.freed: set[int] = set()
        """The queued inputs (by id) freed in this chunk."""
        self.spread_done: set[int] = set()
        """The row values (by id) spread in this chunk."""
        self.pending = True
        """Whether a vector step may still run since the last barrier (at a chunk's start:
        the previous chunk's last step)."""

    def buffer(self, val: Val) -> Buffer:
        return self.plan.place[val]

    def emit(self) -> None:
        if self.segment is not None and self.wanted_columns():
            self.copy_columns()
        self.copy_in()
        self.compute()
        self.copy_out()

    @property
    def reducing(self) -> bool:
        """A reduction pass of a row in segments: it writes no output."""
        return self.segment is not None and bool(self.segment.targets)

    def wanted(self, val: Val) -> bool:
        """Whether this chunk computes or reads `val` (all of them but in a row's segments)."""
        return self.needed is None or id(val) in self.needed

    def wanted_columns(self) -> list[Buffer]:
        return [b for b, v in self.h.column_vals.items() if self.wanted(v)]

    def copy_columns(self) -> None:
        """A segment's part of each column input it reads, copied in with the pipes idle
        before (the previous segment's calls read the buffer) and after."""
        assert self.segment is not None
        e = self.e
        e.op(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))
        for b in self.wanted_columns():
            val = self.h.column_vals[b]
            at = e.value(ascend.GlobalAtOp(self.h.gm[val], self.segment.start),
                         f"{val.name}_gm_at")
            e.op(ascend.DataCopyPadOp(self.tensors[b], at,
                                      self.copied_bytes(ELEMENT_BYTES[val.dtype])))
        e.op(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))
        self.pending = False

    def copied_bytes(self, size: int) -> SSAValue:
        """The bytes of a row's elements this chunk copies (elements of `size` bytes): the
        length's, or the valid elements' of a padded last segment."""
        a = self.e.a
        valid = self.valid
        return a.const(self.length * size) if valid is None else a.mul(valid, a.const(size))

    @property
    def valid(self) -> SSAValue | None:
        """The run-time count of a row's elements this chunk holds, where its calls work on
        more (`length`): a padded last segment's, or a whole row's of a run-time length
        (hswc.rows `dynamic` without a segment); None: all `length` of them."""
        if self.segment is not None:
            return self.segment.valid
        return self.h.row_length if self.rows.dynamic else None

    def pad_tail(self, work: SSAValue, combiner: str) -> None:
        """A padded last segment's lanes from its valid count on set to the combiner's
        identity in the f32 `work` (module docstring); so a whole row of a run-time length.
        Vector calls only, where the row is short of its length: the lanes from the valid
        count on of the 64-lane group holding it by Duplicate's bitwise-mask form, the groups
        after it by one Duplicate; so nothing is issued at a full row and no PIPE_ALL barrier
        stops the pipes (scalar SetValues would need two: bench/README.md, "dynrow36")."""
        valid = self.valid
        if valid is None:
            return
        if not self.rows.one_per_chunk:
            self.pad_rows_tail(work, combiner, valid)
            return
        e, a = self.e, self.e.a
        lanes = ascend.MASK_WORD_LANES
        assert self.length % lanes == 0  # whole groups: SEGMENT_ALIGN, or W = 64 * 2^k
        identity = scalar_attr(IDENTITY[combiner], work)
        self.barrier()
        then = Block()
        e.op(scf.IfOp(a.gt(a.const(self.length), valid), [], Region(then)))
        inside = Emitter(InsertPoint.at_end(then))
        b = inside.a
        group = b.name(b.mul(b.floor_div(valid, b.const(lanes)), b.const(lanes)), "pad_group")
        first = b.name(b.sub(valid, group), "pad_first")
        at = inside.value(ascend.LocalAtOp(work, group), "padded")
        inside.op(ascend.DuplicateLanesOp(at, first, identity, b.sub(b.const(lanes), first)))
        if self.length > lanes:  # the groups after it, whole
            rest = b.name(b.add(group, b.const(lanes)), "padded_from")
            more = Block()
            inside.op(scf.IfOp(b.gt(b.const(self.length), rest), [], Region(more)))
            tail = Emitter(InsertPoint.at_end(more))
            after = tail.value(ascend.LocalAtOp(work, rest), "padded")
            tail.op(ascend.DuplicateOp(after, identity, tail.a.sub(tail.a.const(self.length),
                                                                   rest)))
            tail.op(scf.YieldOp())
        inside.op(scf.YieldOp())
        self.pending = True

    def pad_runs(self, work: SSAValue, combiner: str) -> None:
        """The combiner's identity over the padding of every run of the chunk's rows in the
        f32 `work` (hswc.rows `padded_run`; module docstring): from the 32-byte block a run's
        padding starts in, one masked Duplicate repeated over a row's runs (the repeats a padded
        run apart: ascend.DuplicateLanesRepeatOp, at most MAX_REPEATS runs a call), an scf.for
        over the chunk's rows."""
        padded = self.rows.padded_run
        if padded is None:
            return
        e, a = self.e, self.e.a
        block = UB_BLOCK_BYTES // 4
        run, runs = self.rows.run, self.rows.runs
        start = run // block * block
        stride = padded * 4 // UB_BLOCK_BYTES
        if stride > UINT8_MAX:  # beyond a repeat stride: one Duplicate a run
            self._pad_each_run(work, combiner)
            return
        identity = FloatAttr(IDENTITY[combiner], Float32Type())
        self.barrier()
        body = Block(arg_types=[IndexType()])
        body.args[0].name_hint = "padded_row"
        e.op(scf.ForOp(a.const(0), self.rows_now, a.const(1), [], Region(body)))
        inner = Emitter(InsertPoint.at_end(body))
        ia = inner.a
        row = ia.mul(body.args[0], ia.const(self.plan.pitch))
        for first in range(0, runs, MAX_REPEATS):
            repeats = min(MAX_REPEATS, runs - first)
            place = inner.value(ascend.LocalAtOp(work, ia.add(row, ia.const(
                first * padded + start))), "run_padding")
            inner.op(ascend.DuplicateLanesRepeatOp(
                place, ia.const(run - start), ia.const(padded - run), ia.const(repeats),
                identity, stride))
        inner.op(scf.YieldOp())
        self.pending = True

    def _pad_each_run(self, work: SSAValue, combiner: str) -> None:
        """pad_runs of runs padded further apart than a repeat stride reaches: one masked
        Duplicate a run, an scf.for over the chunk's runs."""
        padded = self.rows.padded_run
        assert padded is not None
        e, a = self.e, self.e.a
        block = UB_BLOCK_BYTES // 4
        run, runs = self.rows.run, self.rows.runs
        start = run // block * block
        self.barrier()
        body = Block(arg_types=[IndexType()])
        body.args[0].name_hint = "run"
        e.op(scf.ForOp(a.const(0), a.mul(self.rows_now, a.const(runs)), a.const(1), [],
                       Region(body)))
        inner = Emitter(InsertPoint.at_end(body))
        index = body.args[0]
        ia = inner.a
        at = ia.add(ia.add(ia.mul(ia.floor_div(index, ia.const(runs)),
                                  ia.const(self.plan.pitch)),
                           ia.mul(ia.rem(index, ia.const(runs)), ia.const(padded))),
                    ia.const(start))
        place = inner.value(ascend.LocalAtOp(work, at), "run_padding")
        inner.op(ascend.DuplicateLanesOp(place, ia.const(run - start),
                                         scalar_attr(IDENTITY[combiner], work),
                                         ia.const(padded - run)))
        inner.op(scf.YieldOp())
        self.pending = True

    def pad_rows_tail(self, work: SSAValue, combiner: str, valid: SSAValue) -> None:
        """pad_tail of several whole rows of a run-time length n a chunk, `pitch` f32 lanes
        apart in `work`: where n < length, the lanes from n on of the 64-lane group holding
        lane n, then every later group, set to the identity in every row at once, each a
        Duplicate of the bitwise-mask form repeated over the chunk's rows
        (ascend.DuplicateLanesRepeatOp: the mask [n % 64, 64), then [0, 64))."""
        e, a = self.e, self.e.a
        lanes = VECTOR_REPEAT_BYTES // 4
        pitch_blocks = self.plan.pitch * 4 // UB_BLOCK_BYTES
        identity = FloatAttr(IDENTITY[combiner], Float32Type())
        self.barrier()
        then = Block()
        e.op(scf.IfOp(a.gt(a.const(self.length), valid), [], Region(then)))
        inside = Emitter(InsertPoint.at_end(then))
        b = inside.a
        group = b.name(b.floor_div(valid, b.const(lanes)), "pad_group")
        first = b.name(b.sub(valid, b.mul(group, b.const(lanes))), "pad_first")
        at = inside.value(ascend.LocalAtOp(work, b.mul(group, b.const(lanes))), "pad_at")
        inside.op(ascend.DuplicateLanesRepeatOp(at, first, b.sub(b.const(lanes), first),
                                                self.rows_now, identity, pitch_blocks))
        if self.length > lanes:  # the groups after it, whole
            body = Block(arg_types=[IndexType()])
            body.args[0].name_hint = "pad_rest"
            inside.op(scf.ForOp(b.add(group, b.const(1)), b.const(self.length // lanes),
                                b.const(1), [], Region(body)))
            loop = Emitter(InsertPoint.at_end(body))
            rest = loop.value(ascend.LocalAtOp(work, loop.a.mul(body.args[0],
                                                                loop.a.const(lanes))),
                              "pad_rest_at")
            loop.op(ascend.DuplicateLanesRepeatOp(rest, loop.a.const(0), loop.a.const(lanes),
                                                  self.rows_now, identity, pitch_blocks))
            loop.op(scf.YieldOp())
        inside.op(scf.YieldOp())
        self.pending = True

    # region copies

    def _gm_at(self, val: Val, kind: str, run: int = 0) -> SSAValue:
        """The GM place of the chunk's first row of `val` (of its `run`-th run where rows are
        strided)."""
        a = self.e.a
        if kind == "row" and self.h.first_row is not None:  # rows of lanes (hswc.rows)
            first = self.h.first_row
            at = a.sub(_value_start(a, self.rows, a.add(first, self.chunk_offset)),
                       _value_start(a, self.rows, first))
        elif kind == "row":
            at = self.chunk_offset
        elif self.h.first_row is not None:  # rows of lanes, in groups (Rows.row_start)
            first = self.h.first_row
            at = a.sub(_row_start(a, self.rows, a.add(first, self.chunk_offset)),
                       _row_start(a, self.rows, first))
            if self.segment is not None:  # a segment of whole runs (hswc.rows: Lanes)
                at = a.add(at, a.mul(a.floor_div(self.segment.start, a.const(self.rows.run)),
                                     a.const(self.rows.stride)))
            if run:
                at = a.add(at, a.const(run * self.rows.stride))
        elif self.rows.runs > 1:
            at = a.mul(self.chunk_offset, a.const(self.rows.run))
            if run:
                at = a.add(at, a.const(run * self.rows.stride))
        else:
            length = self.h.row_length if self.h.row_length is not None \
                else a.const(self.rows.length)
            at = a.mul(self.chunk_offset, length)
            if self.segment is not None:
                at = a.add(at, self.segment.start)
        name = f"{val.name}_gm_at" if not run else f"{val.name}_gm_at_run{run}"
        return self.e.value(ascend.GlobalAtOp(self.h.gm[val], at), name)

    def _by_width(self, emit: Callable[[int], None]) -> None:
        """`emit(width)` for the chunk's row of lanes: its columns, or, where a group's last
        row is narrower (hswc.rows: Lanes, `tail`), an scf.if on whether this row is that one,
        each branch emitted for its width."""
        if not self.rows.tail or self.rows.group == 1:  # every row whole, or every row narrow
            emit(self.rows.tail or self.rows.run)
            return
        assert self.h.first_row is not None
        a = self.e.a
        group = self.rows.group
        row = a.add(self.h.first_row, self.chunk_offset)
        narrow = a.eq(a.rem(row, a.const(group)), a.const(group - 1))
        then, other = Block(), Block()
        self.e.op(scf.IfOp(narrow, [], Region(then), Region(other)))
        outer = self.e
        for block, width in ((then, self.rows.tail), (other, self.rows.run)):
            self.e = Emitter(InsertPoint.at_end(block))
            emit(width)
            self.e.op(scf.YieldOp())
        self.e = outer

    def _runs_copy(self, local: SSAValue, val: Val, inbound: bool) -> None:
        """One DataCopyPad per run index of the chunk's strided rows (module docstring)."""
        self._by_width(lambda width: self._runs_copy_of(local, val, inbound, width))

    def _runs_copy_of(self, local: SSAValue, val: Val, inbound: bool, width: int) -> None:
        """_runs_copy of rows whose runs hold `width` elements (a row of lanes' columns; in UB
        each run still starts a whole run after the last)."""
        a, size = self.e.a, ELEMENT_BYTES[val.dtype]
        run = self.rows.run
        runs = self.length // run  # the row's, or a segment's (of whole runs: lanes)
        if self.rows.padded_run is not None:  # each run whole blocks in UB (padded_run)
            run, runs = self.rows.padded_run, self.rows.runs
        between = (self.rows.stride - width) * size
        if (self.rows.lanes > 1 or self.rows.grouped) and between <= DATA_COPY_PAD_MAX_BYTES:
            # a row of lanes (or a grouped row) is one a chunk: its runs are one DataCopyPad of
            # `runs` blocks, `between` bytes apart in GM, a run (padded: `padded_run`) apart
            # in UB
            gm = self._gm_at(val, "element")
            dst, src = (local, gm) if inbound else (gm, local)
            gap = _gap_blocks(width, run, size)
            self.e.op(ascend.DataCopyPadOp(
                dst, src, a.const(width * size), a.const(runs),
                src_stride=between if inbound else gap, dst_stride=gap if inbound else between))
            return
        gap = _gap_blocks(width, self.plan.pitch, size)  # a run's blocks, padded, in UB
        for index in range(runs):
            gm = self._gm_at(val, "element", index)
            ub = local if not index else self.e.value(
                ascend.LocalAtOp(local, a.const(index * run)), f"{val.name}_run{index}")
            dst, src = (ub, gm) if inbound else (gm, ub)
            self.e.op(ascend.DataCopyPadOp(
                dst, src, a.const(width * size), self.rows_now,
                dst_stride=gap if inbound else 0, src_stride=0 if inbound else gap))

    def _row_copy(self, dst: SSAValue, src: SSAValue, val: Val, kind: str,
                  inbound: bool) -> None:
        """One DataCopyPad of the chunk's rows (module docstring)."""
        a, size = self.e.a, ELEMENT_BYTES[val.dtype]
        if kind == "row" and self.rows.tail:  # a row of lanes a chunk, its width's values
            def copy(width: int) -> None:
                self.e.op(ascend.DataCopyPadOp(dst, src, self.e.a.const(width * size)))
            self._by_width(copy)
            return
        if kind == "row":
            self.e.op(ascend.DataCopyPadOp(dst, src, a.mul(self.row_values, a.const(size))))
            return
        copied = self.copied_bytes(size)
        if self.valid is not None and not self.rows.one_per_chunk:
            # several whole rows of a run-time length n a chunk: each lands `pitch` elements
            # after the last, so the UB gap is the pitch's blocks less n's, a run-time value
            ub_gap = a.name(a.sub(a.const(self.plan.pitch * size // UB_BLOCK_BYTES),
                                  a.ceil_div(copied, a.const(UB_BLOCK_BYTES))), "row_gap")
            self.e.op(ascend.DataCopyPadOp(dst, src, copied, self.rows_now, ub_gap=ub_gap))
            return
        gap = _gap_blocks(self.length, self.plan.pitch, size)
        self.e.op(ascend.DataCopyPadOp(
            dst, src, copied, self.rows_now,
            dst_stride=gap if inbound else 0, src_stride=0 if inbound else gap))

    def copy_in(self) -> None:
        """AllocTensor, DataCopyPad and EnQue of each queued input: all allocations first,
        then the copies, then the EnQues; with `x-first` each input handed on as soon as it
        is copied."""
        e = self.e
        queued = [v for v in self.plan.inputs if self.buffer(v).is_queue and self.wanted(v)]

        def alloc(v: Val) -> SSAValue:
            return e.value(ascend.AllocTensorOp(self.h.objects[self.buffer(v)],
                                                ELEMENT_TYPES[v.dtype]), f"{v.name}_local")

        def copy(v: Val, local: SSAValue) -> None:
            kind = self.rows.inputs[v.input or 0]
            if kind == "element" and self.rows.runs > 1:
                self._runs_copy(local, v, True)
                return
            self._row_copy(local, self._gm_at(v, kind), v, kind, True)

        if self.plan.schedule.x_first:
            for v in queued:
                local = alloc(v)
                copy(v, local)
                e.op(ascend.EnQueOp(self.h.objects[self.buffer(v)], local))
            return
        locals_ = [alloc(v) for v in queued]
        for v, local in zip(queued, locals_, strict=True):
            copy(v, local)
        for v, local in zip(queued, locals_, strict=True):
            e.op(ascend.EnQueOp(self.h.objects[self.buffer(v)], local))

    def copy_out(self) -> None:
        """Each output's DeQue, DataCopyPad (one per run where rows are strided) and
        FreeTensor, in order."""
        e = self.e
        if self.reducing:
            return
        for out, kind in zip(self.plan.outputs, self.rows.outputs, strict=True):
            que = self.h.objects[self.buffer(out)]
            local = e.value(ascend.DeQueOp(que, ELEMENT_TYPES[out.dtype]), f"{out.name}_local")
            if kind == "element" and self.rows.runs > 1:
                self._runs_copy(local, out, False)
            else:
                self._row_copy(self._gm_at(out, kind), local, out, kind, False)
            e.op(ascend.FreeTensorOp(que, local))

    # endregion
    # region compute

    def compute(self) -> None:
        """The plan's items in order, each queued input freed after its last read where the
        plan says (early-free), the others after the output's EnQue."""
        for at, item in enumerate(self.plan.items):
            if isinstance(item, Arrival):
                self.arrive(item)
            elif self.wanted(item.dst) and not hoisted(self.plan, item):
                self.instruction(item)
            for v in self.plan.frees.get(at, ()):
                self.free(v)
        if self.reducing:
            self.compute_tensors()  # a pass reading no queued input still takes its TBufs
            for val in self.plan.outputs:  # an output the pass computes, not copied out
                out = self.buffer(val)
                if out in self.tensors:
                    self.e.op(ascend.FreeTensorOp(self.h.objects[out], self.tensors[out]))
        for val in [] if self.reducing else self.plan.outputs:
            out = self.buffer(val)
            self.e.op(ascend.EnQueOp(self.h.objects[out], self.tensor(val)))
        for v in self.plan.inputs:
            self.free(v)

    def free(self, v: Val) -> None:
        """FreeTensor of a queued input, once."""
        b = self.buffer(v)
        if b.is_queue and id(v) in self.arrived and id(v) not in self.freed:
            self.freed.add(id(v))
            self.e.op(ascend.FreeTensorOp(self.h.objects[b], self.tensors[b]))

    def arrive(self, item: Arrival) -> None:
        for v in item.inputs:
            b = self.buffer(v)
            if b.is_queue and self.wanted(v):
                self.arrived.add(id(v))
                self.tensors[b] = self.e.value(
                    ascend.DeQueOp(self.h.objects[b], ELEMENT_TYPES[v.dtype]), local_name(b))
        self.compute_tensors()
        for cast in item.casts:
            if self.wanted(cast.dst) and not hoisted(self.plan, cast):
                self.instruction(cast)

    def compute_tensors(self) -> None:
        """The output's AllocTensor and every TBuf's Get, once a chunk: at the first arrival,
        or at the first step where no queued input arrives before it (a body computed from
        row or column operands alone)."""
        for val in self.plan.outputs:
            out = self.buffer(val)
            if self.reducing and not self.wanted(val):
                continue  # a pass reducing without it
            if out not in self.tensors:
                self.tensors[out] = self.e.value(
                    ascend.AllocTensorOp(self.h.objects[out], ELEMENT_TYPES[out.dtype]),
                    local_name(out))
        for b in self.plan.buffers:  # every TBuf of Compute up front
            if not b.is_queue and b not in self.tensors:
                self.tensors[b] = self.e.value(
                    ascend.TBufGetOp(self.h.objects[b], ELEMENT_TYPES[b.dtype]), local_name(b))

    def tensor(self, val: Val) -> SSAValue:
        b = self.buffer(val)
        if b not in self.tensors:
            self.compute_tensors()
        return self.tensors[b]

    def operand(self, val: Val, instr: Instr) -> SSAValue:
        """The tensor an instruction reads or writes; a mask that a logic call (And, Or, Not)
        combines by 16-bit words seen as uint16_t, as the elementwise kernel does."""
        tensor = self.tensor(val)
        if val.dtype != "mask" or instr.count != "words":
            return tensor
        key = (tensor, -1)
        if key not in self.views:
            self.views[key] = self.e.value(ascend.ReinterpretCastOp(tensor, MASK_WORD),
                                           f"{tensor.name_hint or 'mask'}_bits")
        return self.views[key]

    def at(self, tensor: SSAValue, offset: int) -> SSAValue:
        """tensor[offset] (the tensor itself at 0)."""
        if offset == 0:
            return tensor
        key = (tensor, offset)
        if key not in self.views:
            self.views[key] = self.e.value(ascend.LocalAtOp(tensor, self.e.a.const(offset)),
                                           f"{tensor.name_hint or 'tensor'}_at{offset}")
        return self.views[key]

    def barrier(self) -> None:
        if self.pending and not self.plan.schedule.no_pipe_barriers:
            self.e.op(ascend.PipeBarrierOp())
        self.pending = False

    def call_count(self, instr: Instr) -> SSAValue:
        """The count of a level-2 call; on row values, a call that computes whole repeats only
        (Compare: its count a multiple of 256 bytes) takes the rows rounded up to a repeat of
        its operands' type, which the row values' buffers are sized to (_buffer_elements)."""
        level = instr.dst.level
        if level != "row" or instr.count == "cur" or not instr.srcs:
            return self.count(level, instr.count)
        typed = [v.dtype for v in instr.srcs if v.dtype in ELEMENT_BYTES]  # not masks
        lanes = VECTOR_REPEAT_BYTES // ELEMENT_BYTES[typed[0] if typed else "f32"]
        key = f"row:{instr.count}:{lanes}"
        if key not in self.counts:
            a = self.e.a
            value = a.mul(a.ceil_div(self.row_values, a.const(lanes)), a.const(lanes))
            if instr.count == "words":
                value = a.ceil_div(value, a.const(MASK_WORD_BITS))
            self.counts[key] = value
        return self.counts[key]

    @property
    def row_values(self) -> SSAValue:
        """The values the chunk's row buffers hold: a value a row, or its lanes (hswc.rows)."""
        if self.rows.lanes == 1:
            return self.rows_now
        key = "row values"
        if key not in self.counts:
            self.counts[key] = self.e.a.mul(self.rows_now, self.e.a.const(self.rows.lanes))
        return self.counts[key]

    def count(self, level: str, kind: str) -> SSAValue:
        """The count of a level-2 call on `level` (element, row or column): `cur` exactly,
        `compute` rounded up to the plan's alignment, `words` its mask words."""
        key = f"{level}:{kind}"
        if key not in self.counts:
            a = self.e.a
            if level == "row":
                value = self.row_values
            elif level == "column":
                value = a.const(self.plan.pitch)
            elif kind == "cur":
                value = a.name(a.mul(self.rows_now, a.const(self.plan.pitch)), "chunk_elements")
            else:
                align = a.const(self.plan.align)
                value = a.mul(a.ceil_div(self.count(level, "cur"), align), align)
            if kind == "words":
                value = a.ceil_div(self.count(level, "compute"), a.const(MASK_WORD_BITS))
            self.counts[key] = value
        return self.counts[key]

    def instruction(self, instr: Instr) -> None:
        why = why_not_lowered(self.plan, instr)
        if why is not None:
            raise self.refuse(instr, why)
        if instr.api == "Reduce":
            if self.segment is not None and instr not in self.segment.targets:
                self.load(instr)
                return
            self.reduce(instr)
            if self.segment is None:
                return
            if instr in self.online.values():
                self.running_maximum(instr)
            elif instr in self.online:
                self.rescaled_sum(instr)
            elif compensated(instr.source, self.rows):
                self.accumulate_pair(instr)
            else:
                self.accumulate(instr)
            return
        levels = {v.level for v in instr.srcs}
        if instr.dst.level == "element" and levels & {"row", "column"}:
            self.broadcast_binary(instr)
            return
        self.barrier()
        dst = self.operand(instr.dst, instr)
        srcs = [self.operand(v, instr) for v in instr.srcs]
        like = srcs[-1] if srcs else dst
        scalar = (None if instr.scalar is None
                  else self.h.uniforms.value(instr.scalar) if isinstance(instr.scalar, Node)
                  else scalar_attr(instr.scalar, like))
        self.e.op(build(instr, dst, srcs, self.call_count(instr), scalar))
        self.pending = True

    def refuse(self, instr: Instr, why: str) -> OpError:
        return OpError(instr.source or self.source,
                       f"{why}, which a row kernel's lowering to AscendC does not take yet")

    def spread(self, val: Val) -> SSAValue:
        """The row value's Brcb spread (its 32-byte block per row, seen as the value's type),
        made once per chunk."""
        b = self.plan.spreads[val]
        tensor = self.tensors[b]
        if b.dtype != val.dtype:
            tensor = self.view(tensor, val.dtype)
        if id(val) not in self.spread_done:
            self.barrier()
            a = self.e.a
            repeats = a.ceil_div(self.rows_now, a.const(BRCB_VALUES))
            wide = self.plan.spread_blocks
            self.e.op(ascend.BrcbOp(tensor, self.tensor(val), repeats, dst_blk_stride=wide,
                                    dst_rep_stride=BRCB_VALUES * wide))
            self.pending = True
            if wide > 1:
                self.widen_spread(tensor, ELEMENT_BYTES[val.dtype])
            self.spread_done.add(id(val))
        return tensor

    def widen_spread(self, tensor: SSAValue, size: int) -> None:
        """A wide spread (KernelPlan.spread_blocks G): Brcb left row r's value in block G * r;
        Max(v, v) copies it into the row's blocks 1 .. G - 1, up to 8 blocks a call with one
        repeat per row (the source block read for every lane: block stride 0), so that block
        G * r + g holds it for the row's group g. No repeat reads a block an earlier one
        wrote (the blocks it writes lie between two rows' first blocks)."""
        wide = self.plan.spread_blocks
        group_blocks = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
        per_block = UB_BLOCK_BYTES // size
        self.barrier()
        for first in range(1, wide, group_blocks):
            blocks = min(group_blocks, wide - first)
            params = BinaryRepeatParams(1, 0, 0, wide, wide, wide)
            self.e.op(ascend.MaxRepeatOp(self.at(tensor, first * per_block), tensor, tensor,
                                         self.e.a.const(blocks * per_block), self.rows_now,
                                         params))
        self.pending = True

    def view(self, tensor: SSAValue, dtype: str) -> SSAValue:
        """ReinterpretCast of a tensor to `dtype` (once per chunk)."""
        key = (tensor, dtype)
        if key not in self.casts:
            self.casts[key] = self.e.value(
                ascend.ReinterpretCastOp(tensor, ELEMENT_TYPES[dtype]),
                f"{tensor.name_hint or 'tensor'}_{dtype}")
        return self.casts[key]

    def broadcast_binary(self, instr: Instr) -> None:
        """An element instruction reading a row value or a column: level-0 calls per group
        of the pitch, one repeat per row (module docstring); with one row per chunk, calls
        whose repeats run along the row."""
        form = REPEAT_FORMS[instr.api]  # why_not_lowered checked the call and the strides
        size = ELEMENT_BYTES[instr.dst.dtype]
        pitch_blocks = self.plan.pitch * size // UB_BLOCK_BYTES
        srcs = instr.srcs * 2 if instr.api == "Broadcast" else instr.srcs
        sources = [self.spread(v) if v.level == "row" and self.rows.lanes == 1
                   else self.tensor(v) for v in srcs]
        self.barrier()
        wide = self.plan.wide_columns
        if instr.api != "Broadcast" and all(v.level == "element" or self.buffer(v) in wide
                                            for v in srcs):
            self.e.op(build(instr, self.tensor(instr.dst), sources,
                            self.count("element", "compute"), None))
            self.pending = True
            return
        if self.rows.one_per_chunk:
            self.along_row(form, self.tensor(instr.dst), list(zip(srcs, sources, strict=True)),
                           size)
            return
        lanes = VECTOR_REPEAT_BYTES // size
        a = self.e.a
        dst = self.tensor(instr.dst)
        if self.plan.wide_groups is not None and size == 4 \
                and all(v.level != "column" for v in srcs):
            self.whole_chunk(form, dst, list(zip(srcs, sources, strict=True)))
            return
        for start in range(0, self.plan.pitch, lanes):
            operands: list[SSAValue] = []
            strides: list[tuple[int, int]] = []
            for v, t in zip(srcs, sources, strict=True):
                if v.level == "row":
                    operands.append(t)
                    strides.append((0, self.plan.spread_blocks))
                elif v.level == "column":
                    operands.append(self.at(t, start))
                    strides.append((1, 0))
                else:
                    operands.append(self.at(t, start))
                    strides.append((1, pitch_blocks))
            params = BinaryRepeatParams(1, strides[0][0], strides[1][0], pitch_blocks,
                                        strides[0][1], strides[1][1])
            mask = a.const(min(lanes, self.plan.pitch - start))
            self.e.op(form(self.at(dst, start), operands[0], operands[1], mask, self.rows_now,
                           params))
        self.pending = True

    def whole_chunk(self, form: type[BinaryRepeatOp], dst: SSAValue,
                    srcs: list[tuple[Val, SSAValue]]) -> None:
        """An f32 element instruction reading row values over a chunk of wide rows
        (KernelPlan.wide_groups G): one level-0 call of rows x G repeats, one per group of each
        row in turn, a row value read from its wide spread's block for that group (block
        stride 0, repeat stride 1)."""
        a = self.e.a
        group_blocks = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
        strides = [(0, 1) if v.level == "row" else (1, group_blocks) for v, _t in srcs]
        params = BinaryRepeatParams(1, strides[0][0], strides[1][0], group_blocks,
                                    strides[0][1], strides[1][1])
        repeats = a.mul(self.rows_now, a.const(self.plan.wide_groups or 1))
        self.e.op(form(dst, srcs[0][1], srcs[1][1], a.const(VECTOR_REPEAT_BYTES // 4),
                       repeats, params))
        self.pending = True

    def along_row(self, form: type[BinaryRepeatOp], dst: SSAValue,
                  srcs: list[tuple[Val, SSAValue]], size: int) -> None:
        """One row's level-0 calls: its full 256-byte groups as repeats of calls of at most
        MAX_REPEATS (each operand's repeat stride one group, 8 blocks; a row value's spread
        block read for every lane and repeat), then the last, partial group masked."""
        lanes = VECTOR_REPEAT_BYTES // size
        group_blocks = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
        a = self.e.a
        full, rest = divmod(self.plan.pitch, lanes)
        pieces = [(g, min(MAX_REPEATS, full - g), lanes) for g in range(0, full, MAX_REPEATS)]
        if rest:
            pieces.append((full, 1, rest))
        for group, repeats, mask in pieces:
            start = group * lanes
            operands: list[SSAValue] = []
            strides: list[tuple[int, int]] = []
            for v, t in srcs:
                if v.level == "row":  # its spread block, or its lanes: one repeat, every run
                    operands.append(t)
                    strides.append((0, 0) if self.rows.lanes == 1 else (1, 0))
                else:
                    operands.append(self.at(t, start))
                    strides.append((1, group_blocks))
            params = BinaryRepeatParams(1, strides[0][0], strides[1][0], group_blocks,
                                        strides[0][1], strides[1][1])
            self.e.op(form(self.at(dst, start), operands[0], operands[1], a.const(mask),
                           a.const(repeats), params))
        self.pending = True

    def fold_row(self, combiner: str, work: SSAValue, level: list[Fold]) -> None:
        """One fold level of one row: its full folds (groups keep.. into 0.., contiguous) as
        repeats of calls of at most MAX_REPEATS, its partial fold (the last) masked."""
        lanes = VECTOR_REPEAT_BYTES // 4
        group_blocks = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
        params = BinaryRepeatParams(1, 1, 1, group_blocks, group_blocks, group_blocks)
        a = self.e.a
        full = [f for f in level if f.lanes == lanes]
        pieces = [(full[i], min(MAX_REPEATS, len(full) - i), lanes)
                  for i in range(0, len(full), MAX_REPEATS)]
        pieces += [(f, 1, f.lanes) for f in level if f.lanes != lanes]
        for fold, repeats, mask in pieces:
            target = self.at(work, fold.dst * lanes)
            self.e.op(FOLDS[combiner](target, target, self.at(work, fold.src * lanes),
                                      a.const(mask), a.const(repeats), params))

    def reduce(self, instr: Instr) -> None:
        """The fold tree, then WholeReduce, in hswc.reduction_order's order; or, for a length
        it reduces by a tree of WholeReduces, that tree (tree_reduce)."""
        combiner = instr.mode or ""  # why_not_lowered checked the combiner and the strides
        (src,) = instr.srcs
        pitch_blocks = self.plan.pitch * 4 // UB_BLOCK_BYTES
        a = self.e.a
        work = self.tensor(src)
        lanes_apart = self.rows.lanes > 1
        if not lanes_apart and tree_levels(self.length) is not None \
                and not compensated(instr.source, self.rows):
            self.pad_tail(work, combiner)
            self.pad_runs(work, combiner)
            self.tree_reduce(combiner, work, self.tensor(instr.dst))
            return
        levels = fold_plan(self.length)
        scratch = self.plan.reduce_scratch
        if levels and scratch is not None and self.buffer(src) is not scratch:
            self.barrier()
            work = self.tensors[scratch]
            self.e.op(ascend.DataCopyOp(work, self.tensor(src),
                                        self.count("element", "cur")))
            self.pending = True
        self.pad_tail(work, combiner)
        self.pad_runs(work, combiner)
        if compensated(instr.source, self.rows):
            self.compensated_reduce(instr, work)
            return
        lanes = VECTOR_REPEAT_BYTES // 4
        params = BinaryRepeatParams(1, 1, 1, pitch_blocks, pitch_blocks, pitch_blocks)
        for level in levels:
            self.barrier()
            if self.rows.one_per_chunk:
                self.fold_row(combiner, work, level)
                self.pending = True
                continue
            for fold in level:
                target = self.at(work, fold.dst * lanes)
                self.e.op(FOLDS[combiner](target, target, self.at(work, fold.src * lanes),
                                          a.const(fold.lanes), self.rows_now, params))
            self.pending = True
        self.barrier()
        if lanes_apart:  # the first run's lanes are the row's values (reduce_lanes)
            self.e.op(ascend.DataCopyOp(self.tensor(instr.dst), work,
                                        a.const(self.rows.lanes)))
            self.pending = True
            return
        self.e.op(WHOLE[combiner](self.tensor(instr.dst), work,
                                  a.const(min(self.length, lanes)), self.rows_now,
                                  dst_rep_stride=1, src_blk_stride=1,
                                  src_rep_stride=pitch_blocks))
        self.pending = True

    def tree_reduce(self, combiner: str, work: SSAValue, dst: SSAValue) -> None:
        """A tree of WholeReduces (hswc.reduction_order.tree_levels): each level but the last
        writes its groups' values into the partials buffer, a row's partial_widths apart (a
        level after the first only with one row a chunk: a row of several chunk rows is at
        most 2040 f32 long, one level); the last level's WholeReduce writes the row values."""
        a = self.e.a
        lanes = VECTOR_REPEAT_BYTES // 4
        group_blocks = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
        counts = tree_levels(self.length)
        assert counts is not None and self.plan.partials is not None
        widths = partial_widths(self.length)
        partials = self.tensor_of(self.plan.partials)
        one = self.rows.one_per_chunk
        assert one or len(widths) == 1
        wide = self.plan.wide_groups
        source, stride, offset = work, self.plan.pitch, 0
        for count, width in zip(counts, widths, strict=False):
            groups = count // lanes
            target = self.at(partials, offset)
            self.barrier()
            if one:  # along the row, at most MAX_REPEATS groups a call
                for first in range(0, groups, MAX_REPEATS):
                    self.e.op(WHOLE[combiner](
                        self.at(target, first), self.at(source, first * lanes),
                        a.const(lanes), a.const(min(MAX_REPEATS, groups - first)),
                        dst_rep_stride=1, src_blk_stride=1, src_rep_stride=group_blocks))
            elif wide is not None and width == groups == wide:  # every row's groups in turn
                self.e.op(WHOLE[combiner](target, source, a.const(lanes),
                                          a.mul(self.rows_now, a.const(groups)),
                                          dst_rep_stride=1, src_blk_stride=1,
                                          src_rep_stride=group_blocks))
            else:  # a call per group, a repeat per row
                for g in range(groups):
                    self.e.op(WHOLE[combiner](
                        self.at(target, g), self.at(source, g * lanes), a.const(lanes),
                        self.rows_now, dst_rep_stride=width, src_blk_stride=1,
                        src_rep_stride=stride * 4 // UB_BLOCK_BYTES))
            self.pending = True
            source, stride, offset = target, width, offset + width
        self.barrier()
        self.e.op(WHOLE[combiner](dst, source, a.const(counts[-1]), self.rows_now,
                                  dst_rep_stride=1, src_blk_stride=1,
                                  src_rep_stride=stride * 4 // UB_BLOCK_BYTES))
        self.pending = True


    # region compensated sums

    def compensated_reduce(self, instr: Instr, work: SSAValue) -> None:
        """A compensated sum of the chunk's one row (hswc.reduction_order: Compensated): lo
        set to -0.0 over the groups the first level writes, the fold tree by TWO_SUM_STEPS,
        the last group's hi and lo spread a lane a block (Brcb) and folded so; then, whole,
        the row's value into its row buffer, or, in segments, (hi, lo) added into the
        accumulators (accumulate_pair)."""
        c = self.plan.compensation
        assert c is not None and self.rows.one_per_chunk
        e, a = self.e, self.e.a
        lanes = VECTOR_REPEAT_BYTES // 4
        lo, first, second, spread = (self.tensor_of(b) for b in (c.lo, c.first, c.second,
                                                                  c.lanes))
        groups = -(-self.length // lanes)
        self.barrier()
        e.op(ascend.DuplicateOp(lo, scalar_attr(IDENTITY["addf"], lo),
                                a.const(max(1, (groups + 1) // 2) * lanes)))
        self.pending = True
        for n, level in enumerate(fold_plan(self.length)):
            places = {"a": (work, "dst"), "b": (work, "src"), "a_lo": (lo, "dst"),
                      "b_lo": (lo, "src"), "t1": (first, "dst"), "t2": (second, "dst")}
            self.two_sum(lambda kind, dst, x, y, level=level, places=places:
                         self.fold_step(kind, level, places, dst, x, y), first=n == 0)
        self.barrier()
        hi_spread, lo_spread = spread, self.at(spread, LANE_SPREAD_ELEMENTS)
        repeats = a.const(lanes // BRCB_VALUES)
        e.op(ascend.BrcbOp(hi_spread, work, repeats, dst_blk_stride=1,
                           dst_rep_stride=BRCB_VALUES))
        e.op(ascend.BrcbOp(lo_spread, lo, repeats, dst_blk_stride=1,
                           dst_rep_stride=BRCB_VALUES))
        self.pending = True
        block = UB_BLOCK_BYTES // 4
        for level in fold_plan(min(self.length, lanes), 1):
            keep, count = level[0].src * block, a.const(len(level) * block)
            views = {"a": hi_spread, "b": self.at(spread, keep), "a_lo": lo_spread,
                     "b_lo": self.at(spread, LANE_SPREAD_ELEMENTS + keep),
                     "t1": self.at(spread, 2 * LANE_SPREAD_ELEMENTS),
                     "t2": self.at(spread, 2 * LANE_SPREAD_ELEMENTS + LANE_TEMP_ELEMENTS)}
            self.two_sum(lambda kind, dst, x, y, views=views, count=count:
                         self.level2_step(kind, views, dst, x, y, count))
        if self.segment is None:
            self.finish(self.tensor(instr.dst), hi_spread, lo_spread)

    def two_sum(self, step: Callable[[str, str, str, str | None], None],
                first: bool = False) -> None:
        """TWO_SUM_STEPS, each a call after a barrier; the first fold level leaves out
        a_lo + b_lo (b_lo is -0.0 there, which adds nothing)."""
        for kind, dst, x, y in TWO_SUM_STEPS:
            if first and y == "b_lo":
                continue
            self.barrier()
            step(kind, dst, x, y)
            self.pending = True

    def fold_step(self, kind: str, level: list[Fold],
                  places: dict[str, tuple[SSAValue, str]], dst: str, x: str,
                  y: str | None) -> None:
        """One step of TWO_SUM_STEPS over a fold level of the row's groups: level-0 calls
        along the row as fold_row makes them (each operand at its fold's dst or src group),
        a copy one DataCopy of the level's destination groups."""
        lanes = VECTOR_REPEAT_BYTES // 4
        a = self.e.a
        if y is None:
            self.e.op(ascend.DataCopyOp(places[dst][0], places[x][0],
                                        a.const(len(level) * lanes)))
            return
        group_blocks = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
        params = BinaryRepeatParams(1, 1, 1, group_blocks, group_blocks, group_blocks)
        form = {"addf": ascend.AddRepeatOp, "subf": ascend.SubRepeatOp}[kind]
        full = [f for f in level if f.lanes == lanes]
        pieces = [(full[i], min(MAX_REPEATS, len(full) - i), lanes)
                  for i in range(0, len(full), MAX_REPEATS)]
        pieces += [(f, 1, f.lanes) for f in level if f.lanes != lanes]
        for fold, repeats, mask in pieces:
            def at(name: str, fold: Fold = fold) -> SSAValue:
                tensor, side = places[name]
                return self.at(tensor, (fold.dst if side == "dst" else fold.src) * lanes)
            self.e.op(form(at(dst), at(x), at(y), a.const(mask), a.const(repeats), params))

    def level2_step(self, kind: str, views: dict[str, SSAValue], dst: str, x: str,
                    y: str | None, count: SSAValue) -> None:
        """One step of TWO_SUM_STEPS as a level-2 call of `count` values (a copy a
        DataCopy)."""
        if y is None:
            self.e.op(ascend.DataCopyOp(views[dst], views[x], count))
            return
        form = {"addf": ascend.AddOp, "subf": ascend.SubOp}[kind]
        self.e.op(form(views[dst], views[x], views[y], count))

    def finish(self, dst: SSAValue, hi: SSAValue, lo: SSAValue) -> None:
        """The row's value from (hi, lo), over one repeat: hi + lo, or hi where hi - hi is not
        0 (hi not finite) by CompareScalar and Select (hswc.reduction_order.compensated_value)."""
        c = self.plan.compensation
        assert c is not None
        e, a = self.e, self.e.a
        spread = self.tensor_of(c.lanes)
        total = self.at(spread, 2 * LANE_SPREAD_ELEMENTS)
        difference = self.at(spread, 2 * LANE_SPREAD_ELEMENTS + LANE_TEMP_ELEMENTS)
        mask = self.tensor_of(c.mask)
        count = a.const(VECTOR_REPEAT_BYTES // 4)
        self.barrier()
        e.op(ascend.AddOp(total, hi, lo, count))
        e.op(ascend.SubOp(difference, hi, hi, count))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.CompareScalarOp(mask, difference, scalar_attr(0.0, difference),
                                    ascend.CmpMode.EQ, count))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.SelectOp(dst, mask, total, hi, ascend.SelMode.VSEL_TENSOR_TENSOR_MODE,
                             count))
        self.pending = True

    def accumulate_pair(self, instr: Instr) -> None:
        """A segment's (hi, lo) of a compensated sum added into its accumulators by
        TWO_SUM_STEPS, over one repeat (hswc.reduction_order.compensated_sum)."""
        c = self.plan.compensation
        assert c is not None
        spread = self.tensor_of(c.lanes)
        count = self.e.a.const(VECTOR_REPEAT_BYTES // 4)
        views = {"a": self.h.accumulators[instr], "b": spread,
                 "a_lo": self.h.low_accumulators[instr],
                 "b_lo": self.at(spread, LANE_SPREAD_ELEMENTS),
                 "t1": self.at(spread, 2 * LANE_SPREAD_ELEMENTS),
                 "t2": self.at(spread, 2 * LANE_SPREAD_ELEMENTS + LANE_TEMP_ELEMENTS)}
        self.two_sum(lambda kind, dst, x, y: self.level2_step(kind, views, dst, x, y, count))

    # endregion

    def load(self, instr: Instr) -> None:
        """A reduction an earlier pass over the row completed: its accumulator copied into
        the reduction's row buffer, where the calls after it read the row's value (of a
        compensated sum: its two accumulators' value, finish)."""
        if compensated(instr.source, self.rows):
            self.finish(self.tensor(instr.dst), self.h.accumulators[instr],
                        self.h.low_accumulators[instr])
            return
        self.barrier()
        self.e.op(ascend.DataCopyOp(self.tensor(instr.dst), self.h.accumulators[instr],
                                    self.e.a.const(VECTOR_REPEAT_BYTES // 4)))
        self.pending = True

    def running_maximum(self, instr: Instr) -> None:
        """An online maximum (hswc.reduction_order.online_sum): the accumulator combined with
        this segment's maximum, and, both clamped to LOWEST, the rescale factor exp(previous -
        new) of the sum; the clamped running maximum left in the reduction's row buffer for the
        sum's terms exp(b - it) to read."""
        assert self.plan.rescale is not None
        e, a = self.e, self.e.a
        acc, now = self.h.accumulators[instr], self.tensor(instr.dst)
        before = self.tensor_of(self.plan.rescale)
        lanes = a.const(VECTOR_REPEAT_BYTES // 4)
        lowest = scalar_attr(LOWEST, acc)
        self.barrier()
        e.op(ascend.DataCopyOp(before, acc, lanes))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.MaxsOp(before, before, lowest, self.rows_now))
        e.op(ascend.MaxOp(acc, acc, now, self.rows_now))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.DataCopyOp(now, acc, lanes))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.MaxsOp(now, now, lowest, self.rows_now))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.SubOp(before, before, now, self.rows_now))
        e.op(ascend.PipeBarrierOp())
        e.op(ascend.ExpOp(before, before, self.rows_now))
        self.pending = True

    def rescaled_sum(self, instr: Instr) -> None:
        """An online sum: the accumulator times the rescale factor, plus this segment's sum
        (hswc.reduction_order.online_sum)."""
        assert self.plan.rescale is not None
        acc = self.h.accumulators[instr]
        self.barrier()
        self.e.op(ascend.MulOp(acc, acc, self.tensor_of(self.plan.rescale), self.rows_now))
        self.e.op(ascend.PipeBarrierOp())
        self.e.op(ascend.AddOp(acc, acc, self.tensor(instr.dst), self.rows_now))
        self.pending = True

    def tensor_of(self, b: Buffer) -> SSAValue:
        """A TBuf's tensor in this chunk."""
        if b not in self.tensors:
            self.compute_tensors()
        return self.tensors[b]

    def accumulate(self, instr: Instr) -> None:
        """This segment's value of the pass's reduction combined into its accumulator
        (hswc.reduction_order: in order, accumulator first)."""
        self.barrier()
        acc = self.h.accumulators[instr]
        self.e.op(ACCUMULATE[instr.mode or ""](acc, acc, self.tensor(instr.dst),
                                               self.row_values))
        self.pending = True

    # endregion


def emit_row_chunk(point_before_loop: InsertPoint, point_at_chunk: InsertPoint,
                   plan: KernelPlan, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue],
                   slice_offset: SSAValue, slice_size: SSAValue, ub_factor: SSAValue,
                   chunk_offset: SSAValue, chunk_size: SSAValue, source: Operation,
                   row_length: SSAValue | None = None) -> None:
    """Init before the chunk loop, the chunk's calls at the chunk (module docstring;
    `row_length`: a run-time one)."""
    handles = emit_row_init(Emitter(point_before_loop), plan, inputs, outputs, slice_offset,
                            slice_size, ub_factor, row_length)
    assert plan.rows is not None
    if plan.rows.segment is None:
        RowChunkEmitter(Emitter(point_at_chunk), plan, handles, chunk_offset, chunk_size,
                        source).emit()
        return
    _emit_segmented_row(Emitter(point_at_chunk), plan, handles, chunk_offset, chunk_size,
                        source)


def _emit_segmented_row(e: Emitter, plan: KernelPlan, h: RowHandles, chunk_offset: SSAValue,
                        rows_now: SSAValue, source: Operation) -> None:
    """A chunk of one row in segments: its accumulators set to their combiner's identity,
    then one pass over the row's segments per reduction, in the plan's order, and one for
    the outputs; in each pass an scf.for over the full segments and the short last one after
    it (hswc.rows)."""
    rows = plan.rows
    assert rows is not None and rows.segment is not None
    a = e.a
    for instr, b in plan.accumulators.items():
        tensor = e.value(ascend.TBufGetOp(h.objects[b], ELEMENT_TYPES["f32"]), local_name(b))
        h.accumulators[instr] = tensor
        e.op(ascend.DuplicateOp(tensor, scalar_attr(IDENTITY[instr.mode or ""], tensor),
                                a.const(VECTOR_REPEAT_BYTES // 4)))
    low = plan.compensation.low_accumulators if plan.compensation is not None else {}
    for instr, b in low.items():
        tensor = e.value(ascend.TBufGetOp(h.objects[b], ELEMENT_TYPES["f32"]), local_name(b))
        h.low_accumulators[instr] = tensor
        e.op(ascend.DuplicateOp(tensor, scalar_attr(IDENTITY["addf"], tensor),
                                a.const(VECTOR_REPEAT_BYTES // 4)))
    step = rows.segment
    full, rest = divmod(rows.length, step)
    online = online_sums(plan) if rows.online else {}
    if h.row_length is not None:
        _emit_run_time_segments(e, plan, h, chunk_offset, rows_now, source, online)
        return
    for targets, needed in _segment_passes(plan, online):
        if full > 1:
            _segment_loop(e, a.const(full), step, lambda inner, start, t=targets, n=needed:
                          RowChunkEmitter(inner, plan, h, chunk_offset, rows_now, source,
                                          Segment(start, step, t, n, online)).emit())
        else:
            RowChunkEmitter(e, plan, h, chunk_offset, rows_now, source,
                            Segment(a.const(0), step, targets, needed, online)).emit()
        if rest:
            RowChunkEmitter(e, plan, h, chunk_offset, rows_now, source,
                            Segment(a.const(full * step), rest, targets, needed, online)).emit()


def _emit_run_time_segments(e: Emitter, plan: KernelPlan, h: RowHandles,
                            chunk_offset: SSAValue, rows_now: SSAValue, source: Operation,
                            online: Mapping[Instr, Instr]) -> None:
    """The passes over a row of a run-time length (module docstring): each an scf.for over
    the full segments, then the padded last one."""
    rows = plan.rows
    assert rows is not None and rows.segment is not None and h.row_length is not None
    a, step = e.a, rows.segment
    full = a.name(a.floor_div(a.sub(h.row_length, a.const(1)), a.const(step)),
                  "full_segments")
    last = a.name(a.mul(full, a.const(step)), "last_segment_start")
    valid = a.name(a.sub(h.row_length, last), "last_segment_length")
    for targets, needed in _segment_passes(plan, online):
        _segment_loop(e, full, step, lambda inner, start, t=targets, n=needed:
                      RowChunkEmitter(inner, plan, h, chunk_offset, rows_now, source,
                                      Segment(start, step, t, n, online)).emit())
        RowChunkEmitter(e, plan, h, chunk_offset, rows_now, source,
                        Segment(last, step, targets, needed, online, valid)).emit()


def _segment_passes(plan: KernelPlan, online: Mapping[Instr, Instr]
                    ) -> list[tuple[tuple[Instr, ...], frozenset[int]]]:
    """Each pass over a row in segments: its reductions (a maximum with the sums it takes
    online; none: the outputs' pass, last) and the values it needs (pass_values)."""
    passes: list[tuple[Instr, ...]] = [
        (i, *(s for s, peak in online.items() if peak is i))
        for i in plan.instrs() if i.api == "Reduce" and i not in online]
    return [(targets, frozenset().union(*(pass_values(plan, t) for t in targets)) if targets
             else pass_values(plan, None)) for targets in [*passes, ()]]


def _segment_loop(e: Emitter, count: SSAValue, step: int,
                  emit: Callable[[Emitter, SSAValue], None]) -> None:
    """An scf.for over `count` segments of `step` elements, `emit` making each one's calls at
    its start (`segment_start`)."""
    a = e.a
    body = Block(arg_types=[IndexType()])
    body.args[0].name_hint = "segment"
    e.op(scf.ForOp(a.const(0), count, a.const(1), [], Region(body)))
    inner = Emitter(InsertPoint.at_end(body))
    emit(inner, inner.a.name(inner.a.mul(body.args[0], inner.a.const(step)), "segment_start"))
    inner.op(scf.YieldOp())
