"""The UB plan of a body's kernel: when each input arrives, and which buffer holds each value.

`plan_kernel(dag, schedule, dtype)` selects the instructions (hswc.vectorizer.instructions),
orders them (every input's arrival first, or, with `x-first`, each input just before the first
instruction that needs it, with its Casts to f32; with `reuse-copies`, each Cast just before the
first instruction reading its copy), then walks them allocating buffers by the values'
lifetimes:
- each input has a TQue<VECIN>, the output a TQue<VECOUT> (depth 2 with `double-buffer`); an
  i1 output stored packed (hsg.BITS_STORAGE) is a mask in its TQue<VECOUT>, which the compare
  writes, and the tiling aligns blockFactor to its 8 elements a byte, so no two cores and no
  two chunks write one byte (ubFactor is a multiple of a repeat's elements already);
- each input's f32 copy has a TBuf of its own (with `reuse-copies`, a dead copy's when there is
  one); each constant that must be a vector, a TBuf that
  Init fills; each compare mask, a mask TBuf, reused once the mask it held is dead;
- a temporary is written in place over an operand that dies at that instruction, when the
  schedule allows that operand's kind (the reference: temporaries only; `in-place`: also f32
  copies and input buffers), else into a dead temporary's TBuf, else into a new one.
`KernelPlan.ub_plan()` is what the host tiling divides the UB by for these buffers
(hswc.tiling.UbPlan): their bytes per element, plus Select's temporary space and the masks'
roundup as a reserve, with ubFactor a multiple of the vector instructions' alignment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Literal

from hswc import soc_api
from hswc.dialects import hsg
from hswc.dialects.hsg_rows import compensated
from hswc.platform import (
    MAX_REPEAT_TIMES,
    MAX_UB_SIZE,
    SELECT_TMP_BYTES,
    UB_BLOCK_BYTES,
    VECTOR_REPEAT_BYTES,
    get_platform,
    soc_of_api,
)
from hswc.reduction_order import LANES_F32, tree_levels
from hswc.rows import Rows
from hswc.tiling import (
    ELEMENT_BYTES,
    MASK_MIN_BYTES,
    Budget,
    IntArith,
    TilingError,
    UbPlan,
    compute_tiling,
    gap_bytes,
    mask_length,
)
from hswc.vectorizer.bank_layout import bank_halves, without_first
from hswc.vectorizer.bank_order import bank_order
from hswc.vectorizer.dag import Dag, Node
from hswc.vectorizer.instructions import Instr, Role, Selection, Val, select_instructions
from hswc.vectorizer.narrow import narrow_exact
from hswc.vectorizer.schedule import PRESETS, Schedule

MASK_BITS_PER_BYTE = hsg.PACKED_BITS
"""A compare mask in UB holds a bit per element, 8 a byte, as a packed i1 output does."""


@dataclass(eq=False)
class Buffer:
    """One InitBuffer of the kernel's Init: a TQue (inputs, the output) or a TBuf."""

    name: str
    """The stem of its IR names: `input_queue_<name>`, `<name>_buf`, `<name>_mask_buf`."""
    role: Role
    dtype: str
    """f16, bf16, f32, or mask."""
    depth: int = 1
    value: float | None = None
    """A constant buffer's fill value."""
    uniform: Node | None = None
    """A buffer filled with a uniform value computed by the kernel (instead of `value`)."""
    level: str = "element"
    """In a row kernel: a chunk's elements, one value per row, a row's columns (a column
    input, copied in once), or a row's value spread over a 32-byte block (hswc.rows)."""

    @property
    def is_queue(self) -> bool:
        return self.role in ("input", "output") and self.level != "column"

    @property
    def position(self) -> Literal["vecin", "vecout", "veccalc"]:
        return {"input": "vecin", "output": "vecout"}.get(self.role, "veccalc")  # type: ignore[return-value]


@dataclass(frozen=True, eq=False)
class Arrival:
    """Inputs taken from their queues (DeQue) here, then their Casts to f32."""

    inputs: tuple[Val, ...]
    casts: tuple[Instr, ...]


Item = Arrival | Instr


LANE_SPREAD_ELEMENTS = 512
"""f32 values of one spread of a repeat's 64 lanes, a lane a 32-byte block (Brcb)."""
LANE_TEMP_ELEMENTS = LANE_SPREAD_ELEMENTS // 2
"""f32 values of a temporary of the lane folds (the first folds half the spread)."""
LANES_BUFFER_ELEMENTS = 2 * LANE_SPREAD_ELEMENTS + 2 * LANE_TEMP_ELEMENTS
"""The lanes buffer of a compensated sum: hi's spread, lo's, and two temporaries."""


def half_pitch(pitch: int) -> int:
    """f32 values of a buffer of the first fold level's destination groups (`half` level):
    half a row's 64-lane groups, rounded up."""
    lanes = VECTOR_REPEAT_BYTES // 4
    groups = -(-pitch // lanes)
    return (groups + 1) // 2 * lanes


@dataclass(eq=False)
class Compensation:
    """The buffers of a row kernel's compensated sums (hswc.reduction_order: Compensated),
    one row a chunk: lo over the row's groups and two temporaries of the fold tree (f32
    buffers of half a row's groups, level `half`: half_pitch); the `lanes` buffer
    (LANES_BUFFER_ELEMENTS f32: the spreads of hi's and lo's last group, and the lane folds'
    two temporaries); a mask for the last step (hi + lo, or hi where hi is not finite:
    CompareScalar and Select); and, in segments, each sum's accumulator of lo beside its
    accumulator of hi (KernelPlan.accumulators)."""

    lo: Buffer
    first: Buffer
    second: Buffer
    lanes: Buffer
    mask: Buffer
    low_accumulators: dict[Instr, Buffer] = field(default_factory=dict)


@dataclass(eq=False)
class KernelPlan:
    selection: Selection
    schedule: Schedule
    items: list[Item]
    """Compute, in order."""
    inputs: list[Val]
    """The inputs that are read, in the order they are needed (copy-in and queue order)."""
    buffers: list[Buffer]
    """In InitBuffer order: input queues, the output queue, f32 copies, temporaries, constants,
    masks."""
    place: dict[Val, Buffer]
    frees: dict[int, list[Val]] = field(default_factory=dict)
    """Item position -> the inputs freed right after it (early-free)."""
    align: int = 64
    """Elements: vector counts are rounded up to this (whole 256-byte repeats)."""
    rows: Rows | None = None
    """A row kernel's rows (hswc.rows); None for an elementwise kernel."""
    spreads: dict[Val, Buffer] = field(default_factory=dict)
    """A row kernel's row values that element instructions read, each spread by Brcb."""
    reduce_scratch: Buffer | None = None
    """A row kernel's f32 buffer a reduction folds in when its source is read again."""
    accumulators: dict[Instr, Buffer] = field(default_factory=dict)
    """A row kernel in segments (hswc.rows): each reduction's f32 row accumulator, carried
    across the row's segments."""
    rescale: Buffer | None = None
    """A row kernel summing online (hswc.rows `online`): the f32 row buffer of the running
    maximum's previous value, then the factor the sum is rescaled by."""
    partials: Buffer | None = None
    """A row kernel reducing by trees of WholeReduces (hswc.reduction_order.tree_levels): the
    f32 buffer of each row's values between the tree's levels (partial_widths)."""
    compensation: Compensation | None = None
    """A row kernel with a compensated sum (hswc.reduction_order): its buffers."""
    bank_halves: dict[Buffer, int] = field(default_factory=dict)
    """With `bank-offsets`: the half of a bank-group span each buffer after a gap starts in
    (hswc.vectorizer.bank_layout); empty otherwise. Never a row kernel's."""
    init_order: list[Buffer] = field(default_factory=list)
    """With `bank-offsets`: the buffers in the order Init places them where it is not
    `buffers`' (hswc.vectorizer.bank_order: conflicting operands in different 64 KB banks);
    empty otherwise."""

    @property
    def dtype(self) -> str:
        return self.selection.dtype

    @property
    def output(self) -> Val:
        return self.selection.output

    @property
    def outputs(self) -> list[Val]:
        return self.selection.outputs

    @property
    def pitch(self) -> int:
        """A row kernel's elements per row in UB: the row (its segment: hswc.rows) rounded up
        to a 32-byte block of the narrowest element type (so every row of every buffer starts
        on a block, and a Cast between f16 and f32 buffers keeps rows in place): 16 elements,
        or 32 where an element buffer holds bytes (an int8 output)."""
        assert self.rows is not None
        narrowest = min((ELEMENT_BYTES[b.dtype] for b in self.buffers
                         if b.level == "element" and b.dtype in ELEMENT_BYTES), default=2)
        return row_pitch(self.rows.chunk_length, narrowest)

    @property
    def wide_groups(self) -> int | None:
        """G, where a chunk of several rows is worked on by calls over all its rows at once:
        its f32 rows whole 256-byte repeats (G of them a row, 2 <= G <= MAX_WIDE_GROUPS, the
        rows a repeat apart in every f32 buffer), so that a call's repeats run over every
        row's groups in turn (rows x G <= 255: UbPlan.most); None: calls per group of a row."""
        rows = self.rows
        if rows is None or rows.one_per_chunk or rows.segment is not None:
            return None
        groups, rest = divmod(self.pitch, LANES_F32)
        return groups if not rest and 2 <= groups <= MAX_WIDE_GROUPS else None

    @property
    def wide_columns(self) -> frozenset[Buffer]:
        """Where a chunk is worked on whole (wide_groups): the buffers of the column values an
        element instruction (not a Broadcast) reads, each holding the column once for every
        row of a chunk, `pitch` apart like an element buffer's rows (Init computes the column
        values once a core and copies them to every row: hswc.vectorizer.row_columns), so
        that instruction is one level-2 call over the chunk where it took a level-0 call per
        256-byte group; empty otherwise."""
        if self.wide_groups is None:
            return frozenset()
        return frozenset(self.place[v] for i in self.instrs()
                         if i.dst.level == "element" and i.api not in ("Reduce", "Broadcast")
                         for v in i.srcs if v.level == "column")

    @property
    def spread_blocks(self) -> int:
        """32-byte blocks of a spread buffer per row: one (Brcb), or G with wide_groups (the
        row's value over a block for each of its groups)."""
        return self.wide_groups or 1

    def reduced_lengths(self) -> list[int]:
        """The lengths a chunk reduces: the row (its runs padded: hswc.rows `padded_run`), or
        a segment and the short last one."""
        rows = self.rows
        assert rows is not None
        if rows.segment is None:
            return [rows.chunk_length if rows.padded_run is not None else rows.length]
        rest = rows.length % rows.segment
        return [rows.segment, rest] if rest else [rows.segment]

    @property
    def input_dtypes(self) -> list[str]:
        """Each input's element type, by its position among the body's arguments."""
        return [v.dtype for v in self.selection.inputs]

    def instrs(self) -> list[Instr]:
        """Every instruction of Compute, in order."""
        out: list[Instr] = []
        for item in self.items:
            out.extend(item.casts if isinstance(item, Arrival) else (item,))
        return out

    def mask_count(self) -> int:
        """Mask buffers, each queue counted once per place (a packed i1 output's VECOUT)."""
        return sum(b.depth for b in self.buffers if b.dtype == "mask")

    def ub_bytes(self, ub_factor: int) -> int:
        """UB the kernel claims at this ubFactor: every InitBuffer (rounded up to 32 bytes, times
        its count) plus Select's temporary space when it selects, plus the bank-offset gaps at
        their most at this ubFactor (hswc.tiling.gap_bytes)."""
        selects = any(i.api == "Select" for i in self.instrs())
        gaps = gap_bytes(self.ub_plan(), ub_factor) if self.bank_halves else 0
        return (SELECT_TMP_BYTES if selects else 0) + self.buffer_bytes(ub_factor) + gaps

    def buffer_bytes(self, ub_factor: int) -> int:
        """The InitBuffers' bytes at this ubFactor, each rounded up to 32 bytes, times its count."""
        return _buffer_bytes(self.depths_by_dtype(), ub_factor)

    def depths_by_dtype(self) -> dict[str, int]:
        """The buffers' depths summed by element type (buffers of one type are equally long)."""
        depths: dict[str, int] = {}
        for b in self.buffers:
            depths[b.dtype] = depths.get(b.dtype, 0) + b.depth
        return depths

    def ub_plan(self) -> UbPlan:
        """What the tiling divides the UB by for exactly these buffers."""
        if self.rows is not None:
            return self._row_ub_plan()
        linear = sum(b.depth * ELEMENT_BYTES[b.dtype] for b in self.buffers if b.dtype != "mask")
        masks = self.mask_count()
        selects = any(i.api == "Select" for i in self.instrs())
        packed = any(v.dtype == "mask" for v in self.outputs)
        return UbPlan(bytes_per_element=linear + -(-masks // MASK_BITS_PER_BYTE),
                      ub_reserve=(SELECT_TMP_BYTES if selects else 0) + masks * MASK_MIN_BYTES,
                      align_elements=self.align,
                      block_align=MASK_BITS_PER_BYTE if packed else 1,
                      bank_gaps=len(self.bank_halves))


    def _row_ub_plan(self) -> UbPlan:
        """A row kernel's: bytes per row of every buffer (an element buffer or a wide column
        a pitch of its type, a row buffer one value, a spread row value 32 bytes a block of
        spread_blocks, the partials their partial_width of f32, a mask a pitch of bits), and
        as a reserve the column inputs, each row buffer's rounding up to a repeat, each element
        buffer's rounding up to the plan's alignment (a level-2 call's count of a chunk's
        elements is rounded up so) and each spread buffer's to 8 blocks (the blocks a Brcb
        repeat writes); chunks of any count of whole rows, at most MAX_CHUNK_ROWS (with
        wide_groups G, at most 255 // G: one call's repeats cover every group of the chunk),
        or one row with one_per_chunk."""
        pitch = self.pitch
        one = self.rows is not None and self.rows.one_per_chunk
        per_row = reserve = 0
        selects = any(i.api == "Select" for i in self.instrs()) \
            or self.compensation is not None  # its last step's Select
        wide = self.wide_columns
        for b in self.buffers:
            size = 1 if b.dtype == "mask" else ELEMENT_BYTES[b.dtype]
            if b.level == "column" and b not in wide:
                reserve += -(-pitch * size // UB_BLOCK_BYTES) * UB_BLOCK_BYTES
            elif b.level == "row":
                per_row += b.depth * size * (self.rows.lanes if self.rows else 1)
                reserve += b.depth * VECTOR_REPEAT_BYTES
            elif b.level == "spread":
                per_row += self.spread_blocks * UB_BLOCK_BYTES
                reserve += (ROW_ALIGN - 1) * self.spread_blocks * UB_BLOCK_BYTES
            elif b.level == "partials":
                per_row += partial_width(self) * ELEMENT_BYTES["f32"]
            elif b.level == "lanes":
                reserve += LANES_BUFFER_ELEMENTS * size
            elif b.level == "half":
                per_row += half_pitch(pitch) * size
            elif b.dtype == "mask":
                per_row += -(-pitch // MASK_BITS_PER_BYTE)
                reserve += MASK_MIN_BYTES
            else:
                per_row += b.depth * pitch * size
                reserve += b.depth * self.align * size
        wide = self.wide_groups
        most = 1 if one else MAX_CHUNK_ROWS if wide is None else \
            min(MAX_CHUNK_ROWS, MAX_REPEAT_TIMES // wide)
        return UbPlan(bytes_per_element=per_row,
                      ub_reserve=reserve + (SELECT_TMP_BYTES if selects else 0),
                      align_elements=1, most=most)


ROW_ALIGN = 8
"""Brcb spreads 8 row values per repeat: a spread buffer holds 8 blocks for every 8 rows
begun."""
MAX_WIDE_GROUPS = MAX_REPEAT_TIMES // 2
"""The most groups a row of a chunk worked on all at once has (KernelPlan.wide_groups): two
rows' groups in one call's repeats."""
MAX_CHUNK_ROWS = 248
"""At most this many rows per chunk: a row kernel's level-0 calls repeat once per row, at most
255 times (asc-devkit: repeatTimes is a uint8), rounded down to ROW_ALIGN."""


def row_pitch(length: int, narrowest: int = 2) -> int:
    """Elements per row in UB (KernelPlan.pitch): a multiple of 16 (a 32-byte block of f16),
    or of a 32-byte block of a narrower element (`narrowest` bytes)."""
    block = UB_BLOCK_BYTES // min(narrowest, 2)
    return -(-length // block) * block


def budget_schedule(fixed: Schedule, budget: Budget | None, asked: Schedule) -> Schedule:
    """The schedule to plan a kernel with: `fixed` (one variant of `asked`), or, when the op's
    CANN budget applies (`asked` is the preset that reproduces that CANN kernel), `fixed` with
    its bf16 steps kept as the CANN kernel writes them (widened_bf16: no narrowing on any SoC)."""
    if budget is not None and asked.structure == PRESETS.get(budget.schedule):
        return replace(fixed, widened_bf16=True)
    return fixed


def tiling_plan(kernel: KernelPlan, budget: Budget | None,
                asked: Schedule | None = None) -> tuple[UbPlan, bool]:
    """What the host tiling divides the UB by for this kernel, and whether that is the kernel's
    own plan (rather than a named op's budget): the budget of the kernel's queue depth, when the
    schedule asked for (`asked`, of which the kernel's is one variant; default the kernel's) is
    the preset that reproduces the op's CANN kernel; the kernel's buffers otherwise. ValueError
    for a budget that does not cover the buffers."""
    own = kernel.ub_plan()
    schedule = asked if asked is not None else kernel.schedule
    plan = None
    if budget is not None and schedule.structure == PRESETS.get(budget.schedule):
        plan = budget.plan(kernel.schedule.queue_depth)
    if plan is None:
        return own, True
    if not budget_covers(plan, kernel):
        raise ValueError(f"its UB budget ({plan}) is smaller than its buffers need ({own})")
    return plan, False


SMALLEST_COVERED_UB = 4096
"""A budget must make room for a kernel's buffers on every UB of at least this many bytes (the
A2/A3 tiling refuses smaller ones; ops-nn's arch35 budget overflows an f16 kernel's UB at 1024
to 1151 bytes). Below it the interpreter and the CPU model refuse any UB overflow at InitBuffer."""


def budget_covers(budget: UbPlan, kernel: KernelPlan) -> bool:
    """Whether a fixed budget makes room for the kernel's buffers at every ubFactor it yields
    on a UB of SMALLEST_COVERED_UB to hswc.platform.MAX_UB_SIZE bytes (such a UB holds at least
    ubFactor * bytes_per_element + ub_reserve bytes): the InitBuffers, not Select's temporary
    space (like ops-nn's kernels, a budget need not reserve it), with ubFactor a multiple of the
    kernel's alignment. Never a kernel with bank-offset gaps: a budget reserves none, and the
    kernel decides where to place them by its own plan (hswc.tiling.gapped_from)."""
    if budget.align_elements % kernel.align or kernel.bank_halves:
        return False
    return _covers(budget, tuple(kernel.depths_by_dtype().items()))


@cache
def _covers(budget: UbPlan, depths: tuple[tuple[str, int], ...]) -> bool:
    """budget_covers for buffers of these depths by element type (the tiling pass and the
    lowering both ask, for every kernel of a module)."""
    step, bpe, reserve = budget.align_elements, budget.bytes_per_element, budget.ub_reserve

    def ub_factor(ub_size: int) -> int:
        return max(ub_size - reserve, 0) // max(bpe, 1) // step * step

    first = max(ub_factor(SMALLEST_COVERED_UB), step)
    by_dtype = dict(depths)
    return all(_buffer_bytes(by_dtype, u) <= max(u * bpe + reserve, SMALLEST_COVERED_UB)
               for u in range(first, ub_factor(MAX_UB_SIZE) + step, step))


_INTS = IntArith()


def _buffer_bytes(depths: dict[str, int], ub_factor: int) -> int:
    """KernelPlan.buffer_bytes of buffers with these depths by element type."""
    total = 0
    for dtype, depth in depths.items():
        length = mask_length(_INTS, ub_factor) if dtype == "mask" \
            else ub_factor * ELEMENT_BYTES[dtype]
        total += depth * -(-length // UB_BLOCK_BYTES) * UB_BLOCK_BYTES
    return total


def _order(sel: Selection, schedule: Schedule) -> tuple[list[Val], list[Item]]:
    """The inputs in the order instructions first need them, and the compute sequence."""
    casts: dict[int, list[Instr]] = {}
    for cast in sel.conversions:
        assert cast.dst.input is not None
        casts.setdefault(cast.dst.input, []).append(cast)

    def needs(instr: Instr) -> list[Val]:
        found: list[Val] = []
        for src in instr.srcs:
            if src.input is not None and sel.inputs[src.input] not in found:
                found.append(sel.inputs[src.input])
        return found

    order: list[Val] = []
    for instr in sel.instrs:
        order += [v for v in needs(instr) if v not in order]
    if schedule.argument_order:
        order = [v for v in sel.inputs if v in order]

    def arrival(vals: list[Val]) -> Arrival:
        return Arrival(tuple(vals), tuple(c for v in vals for c in casts.get(v.input or 0, [])))

    if schedule.reuse_copies and not schedule.x_first:
        return order, [Arrival(tuple(order), ()), *_casts_when_read(sel)]
    if not schedule.x_first:
        return order, [arrival(order), *sel.instrs]
    items: list[Item] = []
    arrived: list[Val] = []
    for instr in sel.instrs:
        new = [v for v in needs(instr) if v not in arrived]
        if new:
            items.append(arrival(new))
            arrived += new
        items.append(instr)
    return order, items


def _casts_when_read(sel: Selection) -> list[Item]:
    """The instructions with each input's Cast to f32 just before the first one reading it."""
    pending = list(sel.conversions)
    items: list[Item] = []
    for instr in sel.instrs:
        for cast in [c for c in pending if c.dst in instr.srcs]:
            items.append(cast)
            pending.remove(cast)
        items.append(instr)
    return items


class _Allocator:
    """Assigns every value a buffer, walking the items in order."""

    def __init__(self, plan: KernelPlan, last_use: dict[Val, int]):
        self.plan = plan
        self.last_use = last_use
        self.holder: dict[Buffer, Val] = {}
        self.dead: list[Buffer] = []
        self.names: set[str] = set()

    def new(self, val: Val, role: Role, dtype: str, depth: int = 1,
            level: str | None = None) -> Buffer:
        base = val.name or role
        name, n = base, 1
        while name in self.names:
            name, n = f"{base}{n}", n + 1
        self.names.add(name)
        buffer = Buffer(name, role, dtype, depth, val.value, val.uniform,
                        val.level if level is None else level)
        self.plan.buffers.append(buffer)
        return buffer

    def put(self, val: Val, buffer: Buffer) -> None:
        self.plan.place[val] = buffer
        self.holder[buffer] = val
        if buffer in self.dead:
            self.dead.remove(buffer)

    def reusable_roles(self) -> tuple[Role, ...]:
        return ("temp", "copy", "input") if self.plan.schedule.in_place else ("temp",)

    def place(self, instr: Instr, at: int) -> None:
        for src in instr.srcs:
            if src not in self.plan.place:  # a constant buffer, on first use
                assert src.role == "const", src
                self.put(src, self.new(src, "const", src.dtype))
        dst = instr.dst
        if dst not in self.plan.place:
            self.put(dst, self.choose(instr, at))
        for src in set(instr.srcs):
            buffer = self.plan.place[src]
            if self.last_use.get(src) == at and self.holder.get(buffer) is src \
                    and buffer.role in ("temp", "copy", "mask") and buffer.level != "column":
                self.dead.append(buffer)

    def choose(self, instr: Instr, at: int) -> Buffer:
        dst = instr.dst
        if dst.role == "output":
            return self.outputs[dst]
        if dst.level == "column":  # its own buffer: Init may compute every column value
            role: Role = dst.role if dst.role in ("copy", "mask") else "temp"  # (row_columns)
            return self.new(dst, role, dst.dtype)
        if dst.role == "copy":
            if self.plan.schedule.reuse_copies:
                for buffer in self.dead:
                    if buffer.role == "copy" and buffer.dtype == dst.dtype \
                            and buffer.level == dst.level:
                        return buffer
            return self.new(dst, "copy", dst.dtype)
        roles = ("mask",) if dst.role == "mask" else self.reusable_roles()
        for position in instr.in_place:
            src = instr.srcs[position]
            buffer = self.plan.place[src]
            dtype = src.dtype if buffer.is_queue else buffer.dtype
            if (self.last_use.get(src) == at and self.holder.get(buffer) is src
                    and buffer.role in roles and dtype == dst.dtype
                    and buffer.level == dst.level):
                return buffer
        pool = ("mask",) if dst.role == "mask" else ("temp", "copy") \
            if self.plan.schedule.in_place else ("temp",)
        for buffer in self.dead:
            if buffer.role in pool and buffer.dtype == dst.dtype and buffer.level == dst.level:
                return buffer
        return self.new(dst, "mask" if dst.role == "mask" else "temp", dst.dtype)

    outputs: dict[Val, Buffer]


def _last_uses(items: list[Item], outputs: list[Val]) -> dict[Val, int]:
    last: dict[Val, int] = {}
    for at, item in enumerate(items):
        for instr in item.casts if isinstance(item, Arrival) else (item,):
            for src in instr.srcs:
                last[src] = at
    for output in outputs:
        last[output] = len(items)
    return last


def _frees(plan: KernelPlan) -> dict[int, list[Val]]:
    """early-free: each input's FreeTensor after the last item touching its queue buffer."""
    if not plan.schedule.early_free:
        return {}
    touched: dict[Buffer, int] = {}
    for at, item in enumerate(plan.items):
        for instr in item.casts if isinstance(item, Arrival) else (item,):
            for val in (instr.dst, *instr.srcs):
                touched[plan.place[val]] = at
    frees: dict[int, list[Val]] = {}
    for val in plan.inputs:
        at = touched.get(plan.place[val])
        if at is not None and at < len(plan.items) - 1:
            frees.setdefault(at, []).append(val)
    return frees


def _alignment(plan: KernelPlan) -> int:
    """Vector counts cover whole 256-byte repeats of the narrowest type computed on (of a Cast,
    the wider of its two: a repeat converts 64 f32 lanes)."""
    sizes: list[int] = []
    for i in plan.instrs():
        widths = [ELEMENT_BYTES[v.dtype] for v in (i.dst, *i.srcs) if v.dtype != "mask"]
        if i.count in ("compute", "double") and widths:
            sizes.append(max(widths) if i.api == "Cast" else min(widths))
    return VECTOR_REPEAT_BYTES // min(sizes, default=4)


def plan_kernel(dag: Dag, schedule: Schedule, dtype: str,
                output_names: Sequence[str] | str = "y", rows: Rows | None = None) -> KernelPlan:
    """The kernel's instructions, in order, and its buffers (see the module docstring); a bf16
    body's exact steps in bf16 where the schedule's SoC allows (hswc.vectorizer.narrow). A row
    kernel's (`rows`, hswc.rows) also holds its column inputs in UB for the whole kernel, a
    spread (Brcb) buffer for each row value an element instruction reads, and a scratch
    buffer where a reduction's source is read again later (the fold overwrites it)."""
    if not schedule.widened_bf16:
        dag = narrow_exact(dag, soc_api.table(schedule.api), dtype)
    sel = select_instructions(dag, schedule, dtype, output_names)
    order, items = _order(sel, schedule)
    order = [v for v in order if v.level != "column"]  # copied in once, not per chunk
    plan = KernelPlan(sel, schedule, items, order, [], {}, rows=rows)
    alloc = _Allocator(plan, _last_uses(items, sel.outputs))
    depth = schedule.queue_depth
    for val in order:
        alloc.put(val, alloc.new(val, "input", val.dtype, depth))
    for val in sel.inputs:
        if val.level == "column" and val not in alloc.plan.place:
            alloc.put(val, alloc.new(val, "input", val.dtype, 1))
    alloc.outputs = {v: alloc.new(v, "output", v.dtype, depth) for v in sel.outputs}
    for at, item in enumerate(items):
        for instr in item.casts if isinstance(item, Arrival) else (item,):
            alloc.place(instr, at)
    if rows is not None:
        _row_scratch(plan, alloc)
    rank = {"input": 0, "output": 1, "copy": 2, "temp": 3, "const": 4, "mask": 5}
    plan.buffers.sort(key=lambda b: rank[b.role])  # stable: creation order within a role
    plan.frees = _frees(plan)
    plan.align = _alignment(plan)
    if schedule.bank_offsets and rows is None:  # (row kernels' Init places no gaps)
        _bank_layout(plan)
    return plan


def _full_chunk(plan: KernelPlan) -> int | None:
    """The ubFactor of a launch that fills every core's UB on the SoC the plan's API table is
    timed on (hswc.platform.soc_of_api: Atlas A2 for dav_c220); None where it tiles none."""
    platform = get_platform(soc_of_api(plan.schedule.api))
    cores = platform.core_num
    try:
        return compute_tiling(cores << 24, cores, platform.ub_size, plan.dtype,
                              plan.ub_plan()).ub_factor
    except (TilingError, KeyError):
        return None


def _bank_layout(plan: KernelPlan) -> None:
    """Set `plan.bank_halves` (hswc.vectorizer.bank_layout) and `plan.init_order` (its buffers
    in the order of least conflict at `_full_chunk`, hswc.vectorizer.bank_order; left empty
    where that is the planned one)."""
    place = plan.place
    calls = [([place[v] for v in i.srcs if v in place], place.get(i.dst))
             for i in plan.instrs()]
    halves = bank_halves(calls, plan.buffers, every=True)
    plan.bank_halves = without_first(halves, plan.buffers)
    order = list(plan.buffers)
    for _ in range(2):  # again where the order's gaps change the chunk it was scored at
        ub_factor = _full_chunk(plan)
        if not halves or ub_factor is None:
            return
        order = bank_order(calls, order, halves, partial(_buffer_size, ub_factor),
                           _element_bytes)
        plan.init_order = [] if order == plan.buffers else order
        plan.bank_halves = without_first(halves, order)
        if _full_chunk(plan) == ub_factor:
            return


def _buffer_size(ub_factor: int, b: Buffer) -> tuple[int, int]:
    """A buffer's InitBuffer (count, length in bytes) at this ubFactor."""
    if b.dtype == "mask":
        return b.depth, mask_length(IntArith(), ub_factor)
    return b.depth, ub_factor * ELEMENT_BYTES[b.dtype]


def _element_bytes(b: Buffer) -> int:
    """Bytes of a buffer's element as a vector call sees it (a mask's: one byte of bits)."""
    return 1 if b.dtype == "mask" else ELEMENT_BYTES[b.dtype]


def _row_scratch(plan: KernelPlan, alloc: _Allocator) -> None:
    """A row kernel's extra buffers: a spread buffer per row value an element instruction
    reads (Brcb: the value over a 32-byte block per row), an f32 accumulator per reduction of
    a row in segments, and one f32 scratch where a
    reduction's source is read after it (the fold overwrites what it folds)."""
    instrs = plan.instrs()
    spread: dict[Val, Buffer] = {}
    lanes = plan.rows is not None and plan.rows.lanes > 1  # read as they are (hswc.rows)
    for instr in [] if lanes else instrs:
        if instr.dst.level != "element" or instr.api == "Reduce":
            continue
        for src in instr.srcs:
            if src.level == "row" and src not in spread:
                spread[src] = alloc.new(Val("temp", "f32", f"{src.name or 'row'}_spread"),
                                        "temp", "f32", level="spread")
    plan.spreads = spread
    if plan.rows is not None and plan.rows.segment is not None:
        plan.accumulators = {
            i: alloc.new(Val("temp", "f32", f"{i.dst.name or 'reduced'}_acc"), "temp", "f32",
                         level="row")
            for i in instrs if i.api == "Reduce"}
        if plan.rows.online:
            plan.rescale = alloc.new(Val("temp", "f32", "rescale"), "temp", "f32", level="row")
    _compensation(plan, alloc, instrs)
    # A row in segments keeps both whatever its lengths: hswc.passes.row_kernels chooses its
    # segment after its buffers.
    segmented = plan.rows is not None and plan.rows.segment is not None
    reduces = any(isinstance(i, Instr) and i.api == "Reduce" for i in plan.items)
    if reduces and not lanes and partial_width(plan):
        plan.partials = alloc.new(Val("temp", "f32", "partials"), "temp", "f32",
                                  level="partials")
    if not segmented and plan.compensation is None and not lanes \
            and all(tree_levels(n) is not None for n in plan.reduced_lengths()):
        return  # no fold overwrites what it reduces
    last = _last_uses(plan.items, plan.outputs)
    for at, item in enumerate(plan.items):
        if isinstance(item, Instr) and item.api == "Reduce" and last.get(item.srcs[0], at) > at:
            plan.reduce_scratch = alloc.new(Val("temp", "f32", "fold"), "temp", "f32")
            return


def partial_widths(length: int) -> list[int]:
    """The f32 values a row's tree of WholeReduces (hswc.reduction_order.tree_levels) keeps
    after each level but the last, each rounded up to a 32-byte block (so the next level's
    rows start on a block); empty where the row keeps the fold tree."""
    counts = tree_levels(length) or []
    return [-(-(c // LANES_F32) // ROW_ALIGN) * ROW_ALIGN for c in counts[:-1]]


def partial_width(plan: KernelPlan) -> int:
    """A row's f32 values in the partials buffer: the most any length it reduces needs (a
    block at least for a row in segments, which has one whatever its lengths)."""
    assert plan.rows is not None
    least = ROW_ALIGN if plan.rows.segment is not None else 0
    return max(least, *(sum(partial_widths(n)) for n in plan.reduced_lengths()))


def _compensation(plan: KernelPlan, alloc: _Allocator, instrs: list[Instr]) -> None:
    """The buffers of the row kernel's compensated sums (Compensation), if it has any."""
    sums = [i for i in instrs if i.api == "Reduce" and compensated(i.source, plan.rows)]
    if not sums:
        return

    def new(name: str, level: str = "half") -> Buffer:
        return alloc.new(Val("temp", "f32", name), "temp", "f32", level=level)

    plan.compensation = Compensation(
        new("sum_lo"), new("sum_first"), new("sum_second"), new("sum_lanes", "lanes"),
        alloc.new(Val("mask", "mask", "sum_finite"), "mask", "mask"))
    if plan.rows is not None and plan.rows.segment is not None:
        plan.compensation.low_accumulators = {
            i: new(f"{i.dst.name or 'reduced'}_acc_lo", "row") for i in sums}


LONGEST_ROW_SEARCHED = 1 << 24
"""longest_row looks no further than this many elements (far beyond any UB)."""


MIN_CHUNK_ROWS = 2
"""The fewest rows a chunk of several rows holds: where the UB holds only one, one row a chunk
(its calls repeating along the row) is modelled faster than a call per 256-byte group of one
repeat (bench_rows: LayerNorm f16 rows of 1024 at 2^24, several rows 38.8% of the roofline,
one row 17.6%)."""


def chunk_rows_needed(rows: Rows) -> int:
    """The fewest rows a chunk of a row kernel must hold: MIN_CHUNK_ROWS, or one with
    one_per_chunk."""
    return 1 if rows.one_per_chunk else MIN_CHUNK_ROWS


def longest_row(kernel: KernelPlan, ub_size: int) -> int:
    """The longest row (of a row in segments: the longest segment) a chunk of this row
    kernel's buffers holds in `ub_size` bytes (chunk_rows_needed of them; 0: not even a row
    of one element): its UB plan grows with the
    row's pitch, so the answer is found by bisection."""
    assert kernel.rows is not None
    needed = chunk_rows_needed(kernel.rows)

    def fits(length: int) -> bool:
        rows = kernel.rows
        assert rows is not None
        resized = (replace(rows, segment=length) if rows.segment is not None
                   else replace(rows, length=length))
        plan = replace(kernel, rows=resized).ub_plan()
        return (ub_size - plan.ub_reserve) // max(plan.bytes_per_element, 1) >= needed

    low, high = 0, LONGEST_ROW_SEARCHED
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
