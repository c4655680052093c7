"""The default schedule of a kernel that reproduces no CANN kernel: the one the cost model
predicts fastest among the schedules the planner builds.

hsg-tile-on-cores calls `choose_schedule` for every elementwise generic when no schedule option
is given and the generic has no CANN budget (`hsg.ub_budget`: HardSwishGrad under the `cann` and
`cann-arch35` semantics, whose default stays ops-nn's kernel call for call).

The candidates (`CANDIDATES`) are the planner's choices that trade against each other: queue
depth, `scalar-compare` and `in-place` (buffers against instructions and ubFactor), each with
`early-free` and `x-first` on. Those two only move a FreeTensor earlier and a DeQue later; in
the cost model an input's buffer freed earlier or a compute started earlier never delays a pipe,
so a candidate without them is assumed never faster than the same one with them (an assumption:
test/test_schedule_choice.py checks it against all 32 combinations on sampled bodies).
Candidates whose plans come out equal (a body without compares has nothing for `scalar-compare`
to change) are modelled once.

Then the L2 hint (`l2_bypass`: each streamed input's GlobalTensor set to
SetL2CacheHint(CACHE_MODE_DISABLE), so the output's writes keep L2). The traded flags are
ranked as the kernels will run: with the hint (`TRADED_HINTED`), at the choice size; the
fastest one's kernel without the hint is modelled beside it at the choice size and, when the
launch may be larger, at `LARGE_ELEMENTS`, and the hint is taken when it is no slower at
either and faster at one (`_hinted`). When it is not, the plain candidates (`TRADED`) are
ranked instead and their fastest given the same test; and, when the bank offsets are then
taken, the hint is tried again on the offset kernel (Tanh f16 on Atlas A2 is bound by its
vector calls' conflicts without the offsets, where the hint changes nothing; with them, at
2^24, 47.36 us plain, 44.75 hinted). Why not rank the plain ones first: the
model has an unhinted launch's reads pay the write-back of the written lines they evict
(hswc.cost_model.schedule), so the plain ranking favours what saves read bytes (single
buffers, the larger chunks of in-place), which the hinted kernel does not need (scaled_relu
f32 on Atlas A2: single-buffered in place, hinted, 7.14 / 109.5 us at 2^20 / 2^24, where the
double-buffered one, hinted, takes 6.64 / 100.7). asc-devkit's guide
(docs/zh/guide/算子实践参考/SIMD算子性能优化/内存访问/设置合理的L2-CacheMode.md, priority
high, Atlas A2/A3 and Ascend 950) asks for it on data read once, and its Add measured 29% less
time with it. Assumed: a hinted read is still served by the lines a previous launch left in L2
(L2 keeps GM coherent, and that guide writes dirty lines back only when they are evicted), so
a chain of launches loses nothing by it; the model times one launch and cannot tell.

Each distinct candidate's kernel is built as the passes build it (the tiled kernel,
hsg-block-into-ub, convert-hsg-to-ascend's lowering of its chunk; a candidate that differs
from one lowered before only in its queues' depths and L2 hint, as double-buffer on and off
do, is that kernel with its depths and hints changed, `requeue`), tiled by its own UB plan (so
its ubFactor is the largest its buffers allow) and modelled by hswc.cost_model's streams and
scheduler for one launch of `CHOICE_ELEMENTS` (or the launch's own count when the shape is
static and smaller) on the target platform; cores with slices of one length share one stream
(hswc's kernels' streams depend on the slice length only). No interpreter runs; the model is
deterministic, and a tie goes to the earlier candidate (the `fast` preset first); times within
`TIE` of each other are a tie (two kernels the model times alike can come out a few ulps apart
from the order of its floating-point sums).

A choice is kept for the process under a key of what it depends on (the body, its dtype, the
platform and its figures, the API table, the size), so a module or a test suite of many
generics chooses once per distinct body. This module writes nothing to disk; a tool may set a
store that keeps choices between processes (hswc.choice_store; hswc.tools.choice_cache: the
command-line tools' cache folder), asked before a choice is modelled and told each one made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from itertools import product
from typing import NamedTuple, TypeVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from hswc import choice_store, collector
from hswc.broadcast import Broadcast, read_broadcast
from hswc.dialects import hsg
from hswc.platform import Platform
from hswc.tiling import Tiling, UbPlan, compute_tiling, core_slice, overlong_chunk
from hswc.vectorizer.broadcast_copy import broadcast_plan
from hswc.vectorizer.dag import Dag
from hswc.vectorizer.instructions import Instr, Val
from hswc.vectorizer.plan import Arrival, KernelPlan, plan_kernel
from hswc.vectorizer.schedule import FAST, Schedule

CHOICE_ELEMENTS = 1 << 20
"""The launch size a kernel of unknown size is chosen for, and the cap for a known one: on
Atlas A2's 48 cores a few UB chunks per core, which HBM bandwidth binds (at 2^24 the same kernels
are within 0.1% of the fastest there, bench/bench_default_schedule.py), and cheap to model."""

TIE = 1e-9
"""Modelled times closer than this, relatively, are equal for the choice."""

TRADED_FLAGS = ("double_buffer", "scalar_compare", "in_place")
"""The choices searched over; `early_free` and `x_first` are on in every candidate."""


LARGE_ELEMENTS = 1 << 24
"""The second launch size the L2 hint is modelled at, for a kernel that may be launched on
more than CHOICE_ELEMENTS: where the whole launch's traffic, not the pipeline's fill, binds
(hswc.platform.COST_FIGURES.l2_bytes_per_s; asc-devkit's Add moves 384 MB)."""


def _candidates() -> tuple[Schedule, ...]:
    every = [replace(FAST, **dict(zip(TRADED_FLAGS, flags, strict=True)))
             for flags in product((True, False), repeat=len(TRADED_FLAGS))]
    # FAST (all on) first, then fewer flags; then each again with its streamed inputs hinted;
    # then those sixteen with their buffers offset (appended: the store's indexes stay valid)
    hinted = (*every, *(replace(schedule, l2_bypass=True) for schedule in every))
    return (*hinted, *(replace(schedule, bank_offsets=True) for schedule in hinted))


CANDIDATES = _candidates()
"""The schedules a choice may come out as (the order the choice store indexes them by): the
traded flags' eight, `fast` first, then the same eight with `l2_bypass`, then those sixteen
with `bank_offsets`."""
TRADED = CANDIDATES[:len(CANDIDATES) // 4]
"""The traded candidates without the L2 hint, in tie-break order."""
TRADED_HINTED = CANDIDATES[len(CANDIDATES) // 4:len(CANDIDATES) // 2]
"""The same with the L2 hint: what the first step ranks (`_traded`)."""


@dataclass(frozen=True)
class Choice:
    """The schedule chosen for one kernel, and what it was chosen for."""

    schedule: Schedule
    soc: str
    platform_known: bool
    """False: the platform is known only at run time; chosen for the default SoC."""
    elements: int
    time: float
    """The chosen kernel's modelled seconds for one launch of `elements`."""


KernelBuilder = Callable[[], func.FuncOp]
"""Builds the tiled kernel function (its hsg.elementwise_slice) of the body."""


def candidate_kernel(blocked: func.FuncOp, plan: KernelPlan) -> func.FuncOp:
    """The kernel of `plan`: a copy of the blocked kernel with its chunk lowered as
    convert-hsg-to-ascend lowers it, recording the UB plan it is tiled by."""
    from hswc.passes.convert_hsg_to_ascend import convert_chunk

    kernel = blocked.clone()
    chunk = next(op for op in kernel.walk() if isinstance(op, hsg.ElementwiseChunkOp))
    broadcast = read_broadcast(chunk)
    convert_chunk(chunk, plan)
    _record_plan(kernel, plan, broadcast)
    return kernel


def requeue(kernel: func.FuncOp, plan: KernelPlan, broadcast: Broadcast | None) -> None:
    """Make `kernel`, a candidate kernel of the same body whose plan equals `plan` but for its
    queues' depths and its L2 hint (equal `_depthless` signatures), the kernel of `plan`, in
    place: `plan`'s depths and hints (hswc.vectorizer.emit.with_queue_depths, with_l2_hints;
    `broadcast`: the chunk's) and its UB plan recorded. It then prints as candidate_kernel's
    build of `plan` does (test/test_schedule_choice.py), at the cost of a walk instead of a
    lowering."""
    from hswc.vectorizer.emit import with_l2_hints, with_queue_depths

    with_queue_depths(kernel, plan)
    with_l2_hints(kernel, plan, broadcast)
    _record_plan(kernel, plan, broadcast)


def _record_plan(kernel: func.FuncOp, plan: KernelPlan, broadcast: Broadcast | None) -> None:
    """The UB plan `kernel` is tiled by, its broadcast rows included, recorded on it."""
    from hswc.passes.schedule_options import UB_PLAN_ATTR, plan_attribute

    kernel.attributes[UB_PLAN_ATTR] = plan_attribute(broadcast_plan(plan.ub_plan(), broadcast,
                                                                  plan.input_dtypes))


def modelled_time(kernel: func.FuncOp, plan: KernelPlan, platform: Platform,
                  elements: int, row_length: int | None = None) -> float:
    """The cost model's seconds for one launch of `kernel` (tiled by `plan`) on `elements` (of
    a row kernel: rows, each `row_length` long where it takes that at run time, hswc.rows
    `dynamic`); ValueError for a plan whose full chunk on `platform` is longer than one
    DataCopyPad moves (hswc.platform.DATA_COPY_PAD_MAX_BYTES: such a kernel would copy the
    wrong bytes)."""
    from hswc.cost_model.report import Report
    from hswc.cost_model.schedule import CoreClass, simulate
    from hswc.cost_model.stream import core_program
    from hswc.passes.schedule_options import UB_PLAN_ATTR, read_plan

    figures = platform.cost
    ub_plan = read_plan(kernel, UB_PLAN_ATTR)  # candidate_kernel's, broadcast rows included
    assert ub_plan is not None
    tiling = _tiling(ub_plan, plan.dtype, platform, elements)
    groups: dict[int, list[int]] = {}
    for b in range(tiling.used_core_num):
        groups.setdefault(core_slice(tiling, b).length, []).append(b)
    values: tuple[int, ...] = (tiling.total_num, tiling.block_factor, tiling.ub_factor)
    if row_length is not None:
        values = (*values, row_length)
    classes = [CoreClass(core_program(kernel, cores[0], tiling.used_core_num, values, figures,
                                      platform.api), cores) for cores in groups.values()]
    report = Report(plan.dtype, elements, platform, figures, tiling, "", simulate(classes, figures),
                    "")
    return report.total_time


def _tiling(ub_plan: UbPlan, dtype: str, platform: Platform, elements: int) -> Tiling[int]:
    """The tiling of a launch of `elements` by `ub_plan`; ValueError when the platform tiles
    no launch by it (hswc.tiling.TilingError) or its full chunk is longer than one DataCopyPad
    moves."""
    widest = compute_tiling(platform.core_num << 24, platform.core_num, platform.ub_size,
                            dtype, ub_plan)  # every core a full UB pass
    if overlong_chunk(widest.ub_factor, dtype) is not None:
        raise ValueError("its chunk is longer than one DataCopyPad moves")
    return compute_tiling(elements, platform.core_num, platform.ub_size, dtype, ub_plan)


def _still_valid(found: tuple[Schedule, float], broadcast: Broadcast | None, dag: Dag,
                 dtype: str, output: str | Sequence[str], platform: Platform,
                 elements: int) -> bool:
    """Whether a remembered choice passes what a fresh one's candidates must: the planner
    builds its plan for this body, and that plan (with the kernel's broadcast rows) tiles a
    launch on `platform` in chunks one DataCopyPad moves. Not its time: the cost model is what
    the store saves. No kernel is built: `broadcast` is the one the kernel would carry."""
    plans = _plans(dag, dtype, output, platform.api, (found[0],))
    if not plans:
        return False
    try:
        _tiling(broadcast_plan(plans[0][1].ub_plan(), broadcast, plans[0][1].input_dtypes),
                dtype, platform, elements)
    except ValueError:
        return False
    return True


def _plans(dag: Dag, dtype: str, output: str | Sequence[str], api: str,
           candidates: tuple[Schedule, ...]) -> list[tuple[Schedule, KernelPlan]]:
    found = []
    for schedule in candidates:
        try:
            found.append((schedule, plan_kernel(dag, replace(schedule, api=api), dtype, output)))
        except ValueError:
            continue  # a plan the planner cannot build for this body
    return found


class Signature(NamedTuple):
    """What the kernel built from a plan depends on beyond the body (`_signature`)."""

    items: tuple[object, ...]
    """Each arrival's and instruction's buffers and facts."""
    buffers: tuple[tuple[object, ...], ...]
    """Each buffer's (name, role, dtype, depth, value)."""
    frees: tuple[object, ...]
    align: int
    ub_plan: UbPlan
    l2_bypass: bool
    bank_halves: tuple[tuple[str, int], ...]
    """The bank-offset halves (hswc.vectorizer.bank_layout), by buffer name."""
    init_order: tuple[str, ...] = ()
    """The buffers' InitBuffer order where the bank layout chose one (by name:
    hswc.vectorizer.bank_order)."""


def _signature(plan: KernelPlan) -> Signature:
    """What the kernel built from a plan depends on beyond the body (each instruction and its
    buffers, the buffers, the frees): equal signatures, equal kernels (so one is modelled for
    all)."""
    def name(val: Val) -> str:
        return plan.place[val].name

    def instr(i: Instr) -> tuple[object, ...]:
        scalar = i.scalar if i.scalar is None or isinstance(i.scalar, float) else id(i.scalar)
        return (i.api, name(i.dst), tuple(name(v) for v in i.srcs), scalar, i.mode, i.count)

    items = tuple((tuple(name(v) for v in item.inputs), tuple(instr(c) for c in item.casts))
                  if isinstance(item, Arrival) else instr(item) for item in plan.items)
    buffers = tuple((b.name, b.role, b.dtype, b.depth, b.value) for b in plan.buffers)
    frees = tuple(sorted((at, tuple(name(v) for v in vals)) for at, vals in plan.frees.items()))
    halves = tuple((b.name, half) for b, half in plan.bank_halves.items())
    return Signature(items, buffers, frees, plan.align, plan.ub_plan(), plan.schedule.l2_bypass,
                     halves, tuple(b.name for b in plan.init_order))


def _depthless(key: Signature) -> tuple[object, ...]:
    """A `_signature` without its buffers' depths, the UB plan they size and the L2 hint:
    equal for plans whose kernels differ only in their queues' depths and hints
    (`requeue`). The bank-offset halves stay: their gaps are other InitBuffers."""
    return (key.items, tuple(b[:3] + b[4:] for b in key.buffers), key.frees, key.align,
            key.bank_halves, key.init_order)


def modelled_times(build: KernelBuilder, dag: Dag, dtype: str, output: str | Sequence[str],
                   platform: Platform, elements: int, candidates: tuple[Schedule, ...] = CANDIDATES,
                   models: Models | None = None) -> list[tuple[Schedule, float]]:
    """Every candidate the planner can build, with its modelled seconds for one launch."""
    return [(schedule, times[0]) for schedule, times in
            modelled_times_at(build, dag, dtype, output, platform, (elements,), candidates,
                              models)]


class Models:
    """What one body's choice has modelled (choose_schedule), so that a later step of it
    (the L2 hint of the winner, `_hinted`) builds and models nothing twice: the blocked kernel,
    built once; each distinct candidate kernel's (by `_signature`) modelled seconds at each
    size; and the first kernel lowered of each `_depthless` signature, which becomes the
    kernel of any candidate that differs from it only in its queues' depths and L2 hint
    (`requeue`, in place) rather than that candidate being lowered again: double-buffer on and
    off, and the L2 hint of the winner, are one lowering. Every number is the one a fresh
    build and model gives (the model is deterministic and reads the kernel only). `close`
    erases what it holds. A kernel let go is freed at once (`_drop`), not left for the next full
    collection (a 1000-op chain's peak was 51 MB higher)."""

    def __init__(self, build: KernelBuilder):
        self._build = build
        self._blocked: func.FuncOp | None = None
        self._broadcast: Broadcast | None = None
        self._times: dict[Signature, dict[int, float | None]] = {}
        self._lowered: dict[tuple[object, ...], tuple[func.FuncOp, Signature]] = {}
        """Each `_depthless` signature's kernel, and the signature of the plan it is now of."""
        self._fastest: float | None = None

    def blocked(self) -> func.FuncOp:
        """The body's tiled kernel as hsg-block-into-ub makes it, built on first use."""
        from hswc.passes.hsg_block_into_ub import HsgBlockIntoUbPass

        if self._blocked is None:
            with collector.paused():
                module = ModuleOp([self._build()])
                HsgBlockIntoUbPass().apply(Context(), module)
                self._blocked = next(op for op in module.body.block.ops
                                     if isinstance(op, func.FuncOp))
                self._broadcast = read_broadcast(next(
                    op for op in self._blocked.walk() if isinstance(op, hsg.ElementwiseChunkOp)))
        return self._blocked

    def kernel(self, key: Signature, plan: KernelPlan) -> func.FuncOp:
        """The candidate kernel of `plan` (signature `key`): the one lowered for its
        `_depthless` signature, requeued to `plan`'s depths where it is of another plan; else
        lowered."""
        shape = _depthless(key)
        found = self._lowered.get(shape)
        if found is None:
            self._let_go(None, None)  # the losers first: at most the winners and this held
            kernel = candidate_kernel(self.blocked(), plan)
        else:
            kernel, now = found
            if now != key:
                requeue(kernel, plan, self._broadcast)
        self._lowered[shape] = kernel, key
        return kernel

    def times(self, key: Signature, plan: KernelPlan, platform: Platform,
              sizes: tuple[int, ...]) -> tuple[float, ...] | None:
        """The seconds of the kernel of `plan` (signature `key`) at each of `sizes`; None when
        it does not tile at one of them."""
        from hswc.cost_model.stream import CostModelError

        known = self._times.setdefault(key, {})
        missing = [size for size in sizes if size not in known]
        if missing:
            with collector.paused():  # what a requeue or a model leaves is garbage
                kernel = self.kernel(key, plan)
                for size in missing:
                    try:
                        known[size] = modelled_time(kernel, plan, platform, size)
                    except (ValueError, CostModelError):
                        known[size] = None  # not tileable on this platform
                self._let_go(_depthless(key), known[sizes[0]])
                del kernel
        found = tuple(known[size] for size in sizes)
        return None if None in found else found  # type: ignore[return-value]

    def _let_go(self, current: tuple[object, ...] | None, time: float | None) -> None:
        """The lowered kernels erased that can no longer be chosen (their every candidate's
        time at its first size beyond TIE of the fastest so far), but the `current` one's:
        what a long body's choice holds stays the kernels that may still win, for the L2
        hint's models of the winner (a kernel let go and asked for again is lowered again)."""
        if time is not None and (self._fastest is None or time < self._fastest):
            self._fastest = time
        if self._fastest is None:
            return
        bound = self._fastest * (1 + TIE)
        firsts: dict[tuple[object, ...], list[float]] = {}
        for key, times in self._times.items():
            first = next(iter(times.values()), None)
            if first is not None:
                firsts.setdefault(_depthless(key), []).append(first)
        for shape in [s for s in self._lowered if s != current
                      and all(t > bound for t in firsts.get(s, []))]:
            _drop(self._lowered.pop(shape)[0])

    def close(self) -> None:
        with collector.paused():
            for kernel, _ in self._lowered.values():
                _drop(kernel)
            self._lowered.clear()
            if self._blocked is not None and (module := self._blocked.parent_op()) is not None:
                _drop(module)  # held over every block of the choice too
            self._blocked = None


def _drop(kernel: Operation) -> None:
    """A candidate kernel let go. Its uniform scalars are the generic's own values (the plans
    are of the generic's body), whose use lists would keep it alive: unlinked. Held past the
    block it was lowered in, it is in an older generation than the block's collection walks:
    freed at once by reference counting instead (collector.unlink)."""
    kernel.erase(safe_erase=False)
    collector.unlink(kernel)


def modelled_times_at(build: KernelBuilder, dag: Dag, dtype: str, output: str | Sequence[str],
                      platform: Platform, sizes: tuple[int, ...],
                      candidates: tuple[Schedule, ...] = CANDIDATES,
                      models: Models | None = None
                      ) -> list[tuple[Schedule, tuple[float, ...]]]:
    """Every candidate the planner can build, with its modelled seconds for one launch of each
    of `sizes` (each distinct candidate's kernel built once: `models`, the choice's so far, or
    new); one not tileable at a size is left out."""
    own = models is None
    found_models = Models(build) if models is None else models
    times: list[tuple[Schedule, tuple[float, ...]]] = []
    try:
        for schedule in _twins_together(candidates):
            # One candidate's plan at a time, each let go once modelled: a long body's plans
            # are some 3 KB per body op each, and only their signatures find equal ones.
            with collector.paused():
                plans = _plans(dag, dtype, output, platform.api, (schedule,))
                if not plans:
                    continue  # a plan the planner cannot build for this body
                plan = plans[0][1]
                key = _signature(plan)
            found = found_models.times(key, plan, platform, sizes)
            del plan, plans
            if found is not None:
                times.append((schedule, found))
    finally:
        if own:
            found_models.close()
    return sorted(times, key=lambda found: candidates.index(found[0]))


def _twins_together(candidates: tuple[Schedule, ...]) -> list[Schedule]:
    """`candidates` in the order they are modelled in: each next to those that differ from it
    only in `double_buffer` and `l2_bypass` (whose kernels are one lowering, Models.kernel),
    so that the lowering of one is let go once its twins are modelled (Models: only the
    kernels that may still be chosen are held). The times are given back in `candidates`'
    order, which decides ties."""
    def group(schedule: Schedule) -> Schedule:
        return replace(schedule, double_buffer=False, l2_bypass=False)

    firsts = list(dict.fromkeys(group(s) for s in candidates))
    return sorted(candidates, key=lambda s: firsts.index(group(s)))


_chosen: dict[tuple[object, ...], tuple[Schedule, float]] = {}


def key_text(key: tuple[object, ...]) -> str | None:
    """The key as text that names the same key in another process (repr of its numbers,
    strings and xDSL attributes, dataclasses of fields); None if a part has no such text (a
    repr naming an object by its address)."""
    text = repr(key)
    return None if " at 0x" in text else text


C = TypeVar("C")
"""A candidate: a Schedule here, a row kernel's RowCandidate (hswc.passes.row_schedule_choice)."""


def remembered(key: tuple[object, ...], candidates: Sequence[C] = CANDIDATES
               ) -> tuple[C, float] | None:
    """The choice among `candidates` hswc.choice_store's store holds for `key`, if it holds
    one of them (the store keeps its index)."""
    store = choice_store.store
    if store is None or (text := key_text(key)) is None:
        return None
    found = store.lookup(text)
    if found is None or not 0 <= found[0] < len(candidates):
        return None
    return candidates[found[0]], found[1]


def record(key: tuple[object, ...], choice: tuple[C, float],
           candidates: Sequence[C] = CANDIDATES) -> None:
    """`choice` (one of `candidates`, and its modelled time) told to the store under `key`."""
    store = choice_store.store
    if store is not None and (text := key_text(key)) is not None:
        store.record(text, list(candidates).index(choice[0]), choice[1])


def platform_key(platform: Platform) -> tuple[object, ...]:
    """What a choice depends on of the platform it is made for: its name, figures, API
    table and cost model figures."""
    figures = tuple(getattr(platform.cost, f.name) for f in fields(platform.cost)
                    if f.name != "status")
    return platform.name, platform.core_num, platform.ub_size, platform.api, figures


def choice_size(elements: int | None) -> int:
    """The launch size a kernel of `elements` (None: unknown) is chosen for."""
    return CHOICE_ELEMENTS if elements is None else min(max(elements, 1), CHOICE_ELEMENTS)


def hint_sizes(elements: int | None, platform: Platform) -> tuple[int, ...]:
    """The launch sizes the L2 hint of a kernel of `elements` (None: unknown) is modelled at on
    `platform`: its choice size, and LARGE_ELEMENTS when it may be launched on more than that.
    The large size is capped by the launch's own count and by twice as many elements as all
    the cores' UB has bytes (a few UB passes a core, the chunks the model steps through bounded
    on a small platform given by hand, as core-num=8 ub-size=9728)."""
    size = choice_size(elements)
    large = min(LARGE_ELEMENTS, 2 * platform.core_num * platform.ub_size)
    if elements is not None:
        large = min(large, elements)
    return (size, large) if large > size else (size,)


def _hinted(build: KernelBuilder, dag: Dag, dtype: str, output: str | Sequence[str],
            platform: Platform, elements: int | None,
            found: tuple[Schedule, float], models: Models | None = None
            ) -> tuple[Schedule, float]:
    """`found` with `l2_bypass` on when that kernel models no slower at every size of
    hint_sizes and faster (beyond TIE) at one of them; `found` otherwise.

    The traded flags are chosen at the choice size alone: there the pipeline's fill and the
    chunks' lengths decide. On Atlas A2 the same choice was within 0.1% of the fastest at 2^24
    (bench/bench_default_schedule.py); on Ascend 950 it is not always: its 35-cycle issue makes
    a V-bound kernel at 2^24 pay for the smaller chunks of double buffering, where at 2^20 the
    fill favours them (elu f16: the choice 5.53 us at 2^20 and 73.03 at 2^24, scalar-compare
    without double buffering 5.69 and 68.99; bench/README.md, "the 950's own choice"). Modelling
    every traded candidate at 2^24 too would cost up to 8x a first choice (gelu f16 on A2: 3.0
    against 25.4 s), so it is not done. The hint is not: it changes only which bytes cross the
    HBM, which a launch of 2^20 elements hardly feels (a unary f16 kernel models alike with
    and without it on Atlas A2) and a launch of 2^24 does (1.41x), so it is modelled at both.
    That costs a body's first choice at most three models more (`models`, the choice's so far,
    holds `found`'s kernel, which becomes the hinted one in place, and its time at the choice
    size; a kept choice, hswc.choice_store, costs nothing)."""
    hinted = replace(found[0], l2_bypass=True)
    times = _side_by_side(build, dag, dtype, output, platform, elements, found[0], hinted,
                          models)
    if times is None:
        return found  # one of them not tileable here
    if all(h <= p * (1 + TIE) for p, h in times) and any(h * (1 + TIE) < p for p, h in times):
        return hinted, times[0][1]
    return found


def _side_by_side(build: KernelBuilder, dag: Dag, dtype: str, output: str | Sequence[str],
                  platform: Platform, elements: int | None, plain: Schedule, other: Schedule,
                  models: Models | None) -> list[tuple[float, float]] | None:
    """(plain's, other's) modelled seconds at each size of hint_sizes, what `_hinted` and
    `_offset` decide by; None where one of them does not tile there."""
    sizes = hint_sizes(elements, platform)
    pair = dict(modelled_times_at(build, dag, dtype, output, platform, sizes, (plain, other),
                                  models))
    if plain not in pair or other not in pair:
        return None
    return list(zip(pair[plain], pair[other], strict=True))


def _offset(build: KernelBuilder, dag: Dag, dtype: str, output: str | Sequence[str],
            platform: Platform, elements: int | None,
            found: tuple[Schedule, float], models: Models | None = None
            ) -> tuple[Schedule, float]:
    """`found` with `bank_offsets` on (hswc.vectorizer.bank_layout: its buffers placed so each
    vector call's UB operands start in different bank groups, at the cost of a gap's UB each)
    when that kernel models faster (beyond TIE) at every size of hint_sizes; `found` otherwise.
    Not modelled where the platform's figures see no bank conflicts (Ascend 950: both factors
    1.0), nor when the planner finds no buffers to offset: nothing could change."""
    figures = platform.cost
    if figures.bank_conflict_factor == 1.0 and figures.conflict_read_factor == 1.0:
        return found
    offset = replace(found[0], bank_offsets=True)
    plans = _plans(dag, dtype, output, platform.api, (offset,))
    if not plans or not plans[0][1].bank_halves:
        return found
    times = _side_by_side(build, dag, dtype, output, platform, elements, found[0], offset,
                          models)
    if times is None:
        return found
    if all(o * (1 + TIE) < p for p, o in times):
        return offset, times[0][1]
    return found


def _traded(build: KernelBuilder, dag: Dag, dtype: str, output: str | Sequence[str],
            platform: Platform, size: int, candidates: tuple[Schedule, ...],
            models: Models) -> tuple[Schedule, float]:
    """The fastest of `candidates` at `size` (a tie to the earlier); ValueError when the
    planner can build none of them."""
    times = modelled_times(build, dag, dtype, output, platform, size, candidates, models)
    if not times:
        raise ValueError("the planner can build no schedule for this body")
    fastest = min(t for _, t in times)
    return next(c for c in times if c[1] <= fastest * (1 + TIE))


def choose_schedule(body_key: tuple[object, ...], build: KernelBuilder, dag: Dag, dtype: str,
                    output: str | Sequence[str], platform: Platform, platform_known: bool,
                    elements: int | None, *, broadcast: Broadcast | None) -> Choice:
    """The candidate the cost model predicts fastest for `elements` (None: unknown) on
    `platform`; `body_key` is what the kernel `build` makes depends on but its names (equal
    keys, kernels equal but for their names, which time alike); `broadcast` is the kernel's
    `hsg.broadcast` (hswc.broadcast: a remembered choice is validated with it, no kernel
    built). ValueError when the planner can build none."""
    size = choice_size(elements)
    key = (body_key, dtype, *platform_key(platform), hint_sizes(elements, platform))
    found = _chosen.get(key)
    if found is None:
        found = remembered(key)
        if found is not None and not _still_valid(found, broadcast, dag, dtype, output,
                                                  platform, size):
            found = None  # a store's entry no fresh choice would make: modelled again
    if found is None:
        models = Models(build)
        try:
            found = _traded(build, dag, dtype, output, platform, size, TRADED_HINTED, models)
            found = _hinted(build, dag, dtype, output, platform, elements,
                            (replace(found[0], l2_bypass=False), found[1]), models)
            if not found[0].l2_bypass:  # the hint not taken: ranked as they will run
                found = _traded(build, dag, dtype, output, platform, size, TRADED, models)
                found = _hinted(build, dag, dtype, output, platform, elements, found, models)
            found = _offset(build, dag, dtype, output, platform, elements, found, models)
            if found[0].bank_offsets and not found[0].l2_bypass:  # V-bound before the offsets
                found = _hinted(build, dag, dtype, output, platform, elements, found, models)
        finally:
            models.close()
        record(key, found)
    _chosen[key] = found
    return Choice(found[0], platform.name, platform_known, size, found[1])
