"""The host tiling of an elementwise kernel: CANN's formula, written once.

A row kernel (hswc.rows) is tiled by the same formula over its rows instead of its elements:
totalNum is the row count, blockFactor rows a core, ubFactor rows a UB pass, from its plan's
bytes per row, at most 248 rows, or one (hswc.vectorizer.plan's row UbPlan).

`tiling_formula` is the only copy of the formula. It is written against a small arithmetic
interface, so the same lines compute numbers (`IntArith`: compile-time folding, tests, the
interpreter's cross-checks) and build IR (`hswc.index_arith.IRArith`: the host tiling
function that the interpreter runs and the printer turns into `TilingFunc` C++, and the kernel's
slice and buffer arithmetic).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeVar

from hswc.kernel_dtypes import element_dtypes, output_dtype
from hswc.platform import (
    DATA_COPY_PAD_MAX_BYTES,
    UB_BANK_GROUP_SPAN,
    UB_BLOCK_BYTES,
    VECTOR_REPEAT_BYTES,
)

V = TypeVar("V")
B = TypeVar("B")


@dataclass(frozen=True)
class UbPlan:
    """How a kernel spends UB, as the tiling sees it: what the tiling divides the UB by.

    hswc.vectorizer.plan derives one from a kernel's buffers; a named op whose CANN kernel tiles
    by a fixed budget states it (hswc.ops: HardSwishGrad's 48 bytes per element after a
    1024-byte mask reserve, aligned to 64 elements).
    """

    bytes_per_element: int
    ub_reserve: int
    align_elements: int
    block_align: int = 1
    """blockFactor is rounded up to a multiple of this many elements: a 32-byte block's for a
    kernel that reads broadcast inputs in row runs (hswc.vectorizer.broadcast_copy), so every
    core's slice, and with ubFactor every chunk, starts on a UB block; 1 (CANN's formula as it
    is) for every other kernel."""
    most: int | None = None
    """At most this many units (elements, or a row kernel's rows) per UB pass, where the
    kernel's calls bound it (a row kernel's level-0 calls repeat at most 255 times over the
    rows of a chunk); None: one DataCopyPad's bound on an elementwise chunk."""
    bank_gaps: int = 0
    """Gap TBufs a `bank-offsets` kernel places before its buffers (hswc.vectorizer.bank_layout),
    not in ub_reserve: the tiling reserves each BANK_GAP_MOST bytes where the kernel places its
    gaps (`gapped_from`), else BANK_GAP_LEAST."""


BANK_GAP_MOST = UB_BANK_GROUP_SPAN
"""The most bytes one bank-offset gap takes: 32 + ((...) % 512), whole 32-byte blocks, is at
most 512 (hswc.vectorizer.bank_layout.BankGaps)."""
BANK_GAP_LEAST = UB_BLOCK_BYTES
"""A gap's bytes where the kernel does not place its gaps: one block, so the gap TBuf is never
empty (whether InitBuffer takes a length of 0 is not documented)."""
BANK_GAP_SHARE = 8
"""Assumed: a kernel places its bank-offset gaps only where a UB pass's buffers take at least
this many times the gaps' bytes (the cost model weighs a gapped layout at the UB it chooses for,
where they take far less; on a small UB a shorter pass costs more than a conflict saves)."""


def gapped_from(plan: UbPlan) -> int:
    """The least ubFactor at which a kernel of `plan` places its bank-offset gaps (0: it has
    none): a multiple of its alignment, at least two of them (so the plain layout below it
    keeps a pass of one), where its buffers take BANK_GAP_SHARE times the gaps' most bytes.
    The host tiling (`tiling_formula`) and the kernel's Init (BankGaps) both decide by it."""
    if not plan.bank_gaps:
        return 0
    step = plan.align_elements
    least = -(-BANK_GAP_SHARE * BANK_GAP_MOST * plan.bank_gaps // max(plan.bytes_per_element, 1))
    return max(2 * step, -(-least // step) * step)


def gap_bytes(plan: UbPlan, ub_factor: int) -> int:
    """The most bytes a kernel of `plan`'s bank-offset gaps take at this ubFactor."""
    gapped = plan.bank_gaps and ub_factor >= gapped_from(plan)
    return plan.bank_gaps * (BANK_GAP_MOST if gapped else BANK_GAP_LEAST)


@dataclass(frozen=True)
class Budget:
    """The fixed UB budget a hand-written CANN kernel's tiling divides by, which the schedule
    preset that reproduces that kernel tiles by instead of its buffers' own bytes: one plan per
    queue depth its tiling can choose."""

    schedule: str
    """The preset (hswc.vectorizer.schedule.PRESETS) that reproduces the kernel."""
    depths: tuple[tuple[int, UbPlan], ...]

    def plan(self, depth: int) -> UbPlan | None:
        return dict(self.depths).get(depth)


ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "ui8": 1, "i16": 2, "ui16": 2, "i32": 4,
                 "ui32": 4, "i64": 8, "f8E4M3FN": 1, "f8E5M2": 1}


def overlong_chunk(ub_factor: int, dtype: str) -> int | None:
    """The bytes of a chunk of `ub_factor` elements of a kernel of `dtype` (hswc.kernel_dtypes:
    its widest operand's) when one DataCopyPad cannot move them (more than
    hswc.platform.DATA_COPY_PAD_MAX_BYTES), else None."""
    nbytes = ub_factor * max(ELEMENT_BYTES[t] for t in element_dtypes(dtype))
    return nbytes if nbytes > DATA_COPY_PAD_MAX_BYTES else None
MASK_MIN_BYTES = VECTOR_REPEAT_BYTES
"""A compare mask buffer holds max(256, roundup256(ceil(ubFactor / 8))) bytes."""


def mask_length(a: TilingArith[V, B], ub_factor: V) -> V:
    """Bytes of one compare mask: one bit per element, whole 256-byte blocks, at least one."""
    roundup = a.mul(a.ceil_div(a.ceil_div(ub_factor, a.const(8)), a.const(MASK_MIN_BYTES)),
                    a.const(MASK_MIN_BYTES))
    return a.name(a.max(roundup, a.const(MASK_MIN_BYTES)), "mask_bytes")


TILING_KEYS = {"f16": 0, "f32": 1, "bf16": 2, "i8": 3, "ui8": 4, "i16": 5, "i32": 6, "i64": 7,
               "f8E4M3FN": 8, "f8E5M2": 9}
"""schMode of the kernel entry, by dtype: <OP>_TPL_SCH_MODE_FP16 / FP32 / BF16 / INT8 / UINT8 /
INT16 / INT32 / INT64 / FLOAT8_E4M3FN / FLOAT8_E5M2."""

GE_DATA_TYPES = {"f32": 0, "f16": 1, "bf16": 27, "i8": 2, "ui8": 4, "i16": 6, "i32": 3,
                 "i64": 9, "i1": 12, "f8E5M2": 35, "f8E4M3FN": 36}
"""ge::DataType of each dtype: DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT8, DT_UINT8, DT_INT16,
DT_INT32, DT_INT64, DT_BOOL (an i1 output, a byte per element), DT_FLOAT8_E5M2,
DT_FLOAT8_E4M3FN (graph/types.h)."""
TPL_DTYPE_BITS = 8
"""Bits of an ASCENDC_TPL_DATATYPE_DECL parameter in a tiling key (asc-devkit
template_argument.h: ASCENDC_TPL_8_BW)."""

DOUBLE_BUFFER_ABOVE = 1024
"""ops-nn arch35 HardSwishGrad's MIN_SPLIT_THRESHOLD: double buffering when totalNum > 1024."""


def template_tiling_key(dtype: str, variant: int) -> int:
    """ASCENDC_TPL_SEL_PARAM(context, dTypeX, variant) for a kernel declared with
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, ...) and ASCENDC_TPL_UINT_DECL(MODE, 8, UI_LIST, 0, 1,
    ...): the ge::DataType in bits 0-7, the variant's index in its list in bits 8-15 (ops-nn
    arch35 HardSwishGrad: f32 0 / 256, f16 1 / 257, bf16 27 / 283)."""
    return GE_DATA_TYPES[dtype] | variant << TPL_DTYPE_BITS


@dataclass(frozen=True)
class Variant:
    """One kernel a tiling may launch: the UB plan it tiles by and the key it launches under."""

    plan: UbPlan
    key: int
    above: int | None = None
    """The tiling picks it when totalNum is above this (the last such one wins); None: when
    no other is picked."""


Plans = UbPlan | tuple[Variant, ...]
"""What a tiling divides the UB by: one plan (one kernel per dtype, keyed by TILING_KEYS),
or the variants of a run-time choice, the default first."""


def variants_of(plans: Plans, dtype: str) -> tuple[Variant, ...]:
    """The kernels of a tiling; one plan's is keyed by the dtype it writes
    (hswc.kernel_dtypes: a kernel at a dtype boundary, by its output's)."""
    if isinstance(plans, UbPlan):
        return (Variant(plans, TILING_KEYS[output_dtype(dtype)]),)
    return plans

TILING_FIELDS = ("totalNum", "blockFactor", "ubFactor")
"""The tiling struct (<Op>TilingData), in order: what the kernel reads."""


class TilingArith(Protocol[V, B]):
    """What the formula needs: index arithmetic, comparisons, selects and failing checks."""

    def const(self, value: int) -> V: ...
    def sub(self, a: V, b: V) -> V: ...
    def mul(self, a: V, b: V) -> V: ...
    def floor_div(self, a: V, b: V) -> V: ...
    def ceil_div(self, a: V, b: V) -> V: ...
    def max(self, a: V, b: V) -> V: ...
    def min(self, a: V, b: V) -> V: ...
    def eq(self, a: V, b: V) -> B: ...
    def gt(self, a: V, b: V) -> B: ...
    def or_(self, a: B, b: B) -> B: ...
    def select(self, cond: B, a: V, b: V) -> V: ...
    def check(self, ok: B, message: str) -> None: ...
    def name(self, value: V, hint: str) -> V: ...
    def name_bool(self, value: B, hint: str) -> B: ...


@dataclass(frozen=True)
class Tiling(Generic[V]):
    """The tiling struct plus what the host sets on the launch."""

    total_num: V
    block_factor: V
    ub_factor: V
    used_core_num: V
    """SetBlockDim."""
    tiling_key: V
    """SetTilingKey."""

    def as_tuple(self) -> tuple[V, V, V, V, V]:
        return (self.total_num, self.block_factor, self.ub_factor, self.used_core_num,
                self.tiling_key)

    def as_json(self) -> dict[str, V]:
        return {"totalNum": self.total_num, "blockFactor": self.block_factor,
                "ubFactor": self.ub_factor, "usedCoreNum": self.used_core_num,
                "tilingKey": self.tiling_key}


RESULT_NAMES = ("total_num", "block_factor", "ub_factor", "used_core_num", "tiling_key")


def tiling_formula(
    a: TilingArith[V, B], total_num: V, core_num: V, ub_size: V, dtype: str, plans: Plans,
    row_length: V | None = None,
) -> Tiling[V]:
    """CANN's TilingFunc: split `total_num` elements over the cores (for a kernel that reads
    broadcast inputs in row runs, blockFactor rounded up to the plan's block_align), then into
    UB passes of what the chosen plan makes room for: `FloorAlign((ubSize - reserve) /
    bytesPerElement, align)`, and at most the aligned elements one DataCopyPad moves
    (hswc.platform.DATA_COPY_PAD_MAX_BYTES: 32704 f16 or bf16, 16320 f32 elements at 64; the
    kernels copy a chunk with one DataCopyPad, so a longer one would move the wrong bytes. It
    binds only where a UB is far larger than the body needs: a UB given by hand, up to 4 MiB,
    or a body of few buffers, such as a fill; CANN's own tilings have no such bound and
    reach it on no Ascend SoC). With variants, the plan and the tiling key are chosen by the
    element count first (ops-nn arch35: `useDoubleBuffer = totalNum > 1024`; its
    `FloorDiv(ubSize / typeSize, bufferNum)` is ubSize / (typeSize * bufferNum) for positive
    integers); with `row_length` (the branches of a row kernel of a run-time row length:
    hswc.passes.row_branches), by that length instead. A `bank-offsets` kernel's gaps
    (UbPlan.bank_gaps) are reserved at their most where the pass that leaves room for them
    reaches `gapped_from`; else at a block each, the pass then below `gapped_from`, so the
    kernel, which sees only ubFactor, knows which.

    Fails (a.check) as the reference does: no cores, no UB, no UB left after the reserve, or a
    UB too small for one aligned pass (ops-nn's arch35 tiling does not check that last one; its
    kernel would divide by a zero ubFactor). An empty tensor runs one core that does nothing.
    """
    zero, one = a.const(0), a.const(1)
    a.check(a.gt(core_num, zero), "coreNum is 0")
    a.check(a.gt(ub_size, zero), "ubSize is 0")
    empty = a.eq(total_num, zero)
    block_factor = a.ceil_div(total_num, a.max(core_num, one))
    aligned = _block_align(plans)
    if aligned > 1:
        step = a.const(aligned)
        block_factor = a.mul(a.ceil_div(block_factor, step), step)
    block_factor = a.name(block_factor, "block_factor")
    used_core_num = a.select(empty, one, a.ceil_div(total_num, a.max(block_factor, one)))
    chosen = _choose(a, total_num if row_length is None else row_length,
                     variants_of(plans, dtype), row_length is not None)

    def value(figure: V | int) -> V:
        return a.const(figure) if isinstance(figure, int) else figure

    available = ub_size
    if chosen.reserve is not None:
        available = a.name(a.sub(ub_size, value(chosen.reserve)), "available_ub_size")
        a.check(a.or_(empty, a.gt(available, zero)), "available UB size is invalid")
    align = value(chosen.align)
    raw = a.name(a.floor_div(a.max(available, zero), value(chosen.bytes_per_element)),
                 "ub_factor_raw")
    most = chosen.most if chosen.most is not None else _most(plans, dtype)
    moved = (a.const(most // chosen.align * chosen.align)
             if isinstance(chosen.align, int) and isinstance(most, int)
             else a.name(a.mul(a.floor_div(value(most), align), align), "ub_factor_max"))
    ub_factor = a.min(a.mul(a.floor_div(raw, align), align), moved)
    if chosen.gap_extra is not None and chosen.gapped_from is not None:
        # bank-offset gaps at their most where the pass that leaves room for them is long
        # enough (gapped_from); else each a block, the pass kept below gapped_from
        roomy = a.name(a.floor_div(a.max(a.sub(available, value(chosen.gap_extra)), zero),
                                   value(chosen.bytes_per_element)), "ub_factor_gapped_raw")
        gapped = a.min(a.mul(a.floor_div(roomy, align), align), moved)
        least, step = chosen.gapped_from, chosen.align
        below, under = ((a.const(least - 1), a.const(least - step))
                        if isinstance(least, int) and isinstance(step, int)
                        else (a.sub(value(least), one), a.sub(value(least), align)))
        placed = a.name_bool(a.gt(gapped, below), "bank_gaps_placed")
        ub_factor = a.select(placed, gapped, a.min(ub_factor, under))
    ub_factor = a.select(empty, zero, ub_factor)
    a.check(a.or_(empty, a.gt(ub_factor, zero)), "ubFactor is invalid")
    return Tiling(total_num, block_factor, ub_factor, used_core_num, value(chosen.key))


def _most(plans: Plans, dtype: str) -> int:
    """The most units one UB pass may take: the plan's own bound, else the elements of the
    kernel's widest operand one DataCopyPad moves."""
    bounds = {p.most for p in ([plans] if isinstance(plans, UbPlan)
                               else [v.plan for v in plans])}
    assert len(bounds) == 1, f"variants with different chunk bounds: {bounds}"
    bound = bounds.pop()
    if bound is not None:
        return bound
    return DATA_COPY_PAD_MAX_BYTES // max(ELEMENT_BYTES[t] for t in element_dtypes(dtype))


def _block_align(plans: Plans) -> int:
    """The blockFactor alignment of the plan(s): one for every variant of a kernel."""
    aligns = {p.block_align for p in ([plans] if isinstance(plans, UbPlan)
                                      else [v.plan for v in plans])}
    assert len(aligns) == 1, f"variants with different blockFactor alignments: {aligns}"
    return aligns.pop()


@dataclass(frozen=True)
class _Chosen(Generic[V]):
    """The figures of the plan the element count picks: numbers when there is one variant,
    else the values that select them."""

    bytes_per_element: V | int
    reserve: V | int | None
    """None: no variant reserves anything. Bank-offset gaps at BANK_GAP_LEAST included."""
    align: V | int
    key: V | int
    gap_extra: V | int | None = None
    """The bytes the bank-offset gaps take beyond `reserve`'s where the kernel places them;
    None: no variant has gaps."""
    gapped_from: V | int | None = None
    """The plan's `gapped_from`; None: no variant has gaps."""
    most: V | int | None = None
    """Variants picked by row length whose plans bound a pass differently (a whole-row
    branch's rows a chunk: hswc.passes.row_branches): the picked plan's bound; None: the one
    bound every variant shares (_most)."""


def _gaps(plan: UbPlan) -> tuple[int, int, int]:
    """A plan's reserve with its gaps at their least, their extra bytes at their most, and
    the ubFactor from which the kernel places them."""
    return (plan.ub_reserve + plan.bank_gaps * BANK_GAP_LEAST,
            plan.bank_gaps * (BANK_GAP_MOST - BANK_GAP_LEAST), gapped_from(plan))


def _choose(a: TilingArith[V, B], total_num: V, variants: tuple[Variant, ...],
            by_length: bool = False) -> _Chosen[V]:
    first = variants[0]
    gapped = any(v.plan.bank_gaps for v in variants)
    reserves = any(v.plan.ub_reserve for v in variants) or len(variants) == 1 or gapped
    reserve, extra, least = _gaps(first.plan)
    picked: _Chosen[V] = _Chosen(first.plan.bytes_per_element,
                                 reserve if reserves else None,
                                 first.plan.align_elements, first.key,
                                 extra if gapped else None, least if gapped else None)
    bounds = {v.plan.most for v in variants}
    per_variant = by_length and len(bounds) > 1
    if per_variant:
        picked = replace(picked, most=_plan_most(first.plan))
    for v in variants[1:]:
        assert v.above is not None
        taken = a.name_bool(a.gt(total_num, a.const(v.above)),
                            f"row_above_{v.above}" if by_length else
                            "use_double_buffer" if len(variants) == 2 else f"above_{v.above}")

        def pick(new: int, old: V | int, hint: str, cond: B = taken) -> V | int:
            if old == new:
                return old
            old_value = a.const(old) if isinstance(old, int) else old
            return a.name(a.select(cond, a.const(new), old_value), hint)

        reserve, extra, least = _gaps(v.plan)
        picked = _Chosen(
            pick(v.plan.bytes_per_element, picked.bytes_per_element, "bytes_per_element"),
            None if picked.reserve is None else pick(reserve, picked.reserve, "ub_reserve"),
            pick(v.plan.align_elements, picked.align, "align_elements"),
            pick(v.key, picked.key, "tiling_key"),
            None if picked.gap_extra is None else pick(extra, picked.gap_extra, "gap_extra"),
            None if picked.gapped_from is None else pick(least, picked.gapped_from,
                                                         "gapped_from"),
            None if picked.most is None else pick(_plan_most(v.plan), picked.most,
                                                  "ub_factor_most"))
    return picked


def _plan_most(plan: UbPlan) -> int:
    """A row-length variant's own bound on a pass (its plan's `most`)."""
    assert plan.most is not None, "a variant picked by row length without a bound"
    return plan.most


class TilingError(ValueError):
    """The host tiling refused the launch (the reference returns ge::GRAPH_FAILED)."""


class IntArith:
    """The formula on Python ints: folding and checks at compile time or before a run."""

    def const(self, value: int) -> int:
        return value

    def sub(self, a: int, b: int) -> int:
        return a - b

    def mul(self, a: int, b: int) -> int:
        return a * b

    def floor_div(self, a: int, b: int) -> int:
        return a // b

    def ceil_div(self, a: int, b: int) -> int:
        return -(-a // b)

    def max(self, a: int, b: int) -> int:
        return a if a > b else b

    def min(self, a: int, b: int) -> int:
        return a if a < b else b

    def eq(self, a: int, b: int) -> bool:
        return a == b

    def gt(self, a: int, b: int) -> bool:
        return a > b

    def or_(self, a: bool, b: bool) -> bool:
        return a or b

    def select(self, cond: bool, a: int, b: int) -> int:
        return a if cond else b

    def name(self, value: int, hint: str) -> int:
        return value

    def name_bool(self, value: bool, hint: str) -> bool:
        return value

    def check(self, ok: bool, message: str) -> None:
        if not ok:
            raise TilingError(f"tiling failed: {message}")


def compute_tiling(
    total_num: int, core_num: int, ub_size: int, dtype: str, plans: Plans,
    row_length: int | None = None,
) -> Tiling[int]:
    """The tiling as numbers; TilingError where the reference fails."""
    return tiling_formula(IntArith(), total_num, core_num, ub_size, dtype, plans, row_length)


def block_slice(a: TilingArith[V, B], total_num: V, block_factor: V, block_idx: V) -> tuple[V, V]:
    """The kernel's Init: (blockOffset, blockLength) of core `block_idx`; only the last is short."""
    offset = a.mul(block_factor, block_idx)
    length = a.max(a.min(block_factor, a.sub(total_num, offset)), a.const(0))
    return offset, length


def chunk_extent(a: TilingArith[V, B], block_length: V, ub_factor: V, index: V) -> tuple[V, V]:
    """The kernel's Process: (offset in the slice, element count) of UB pass `index`."""
    offset = a.mul(index, ub_factor)
    return offset, a.min(ub_factor, a.sub(block_length, offset))


@dataclass(frozen=True)
class CoreSlice:
    """What core `block_idx` owns, as the kernel computes it from the tiling."""

    offset: int
    length: int
    loop_count: int


def core_slice(tiling: Tiling[int], block_idx: int) -> CoreSlice:
    """blockOffset, blockLength and loopCount of one core, by the kernel's own formulas."""
    a = IntArith()
    offset, length = block_slice(a, tiling.total_num, tiling.block_factor, block_idx)
    loops = a.ceil_div(length, tiling.ub_factor) if length > 0 and tiling.ub_factor > 0 else 0
    return CoreSlice(offset, length, loops)
