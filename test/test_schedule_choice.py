"""The default schedule (hswc.passes.schedule_choice): the cost model's fastest candidate, never
slower in the model than any of the 32 flag combinations the planner builds, recorded on the
kernel, and bit-identical to the reference schedule in the interpreter. Sampled bodies: the
whole table is bench/bench_default_schedule.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from io import StringIO
from itertools import product
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import GenericOp

from hswc import choice_store, runner
from hswc.elementwise import Elementwise, elementwise
from hswc.ops import OPS
from hswc.passes import schedule_choice
from hswc.passes.hsg_decompose import HsgDecomposePass
from hswc.passes.hsg_tile_on_cores import _body_key, _build_kernel_function
from hswc.passes.schedule_choice import (
    CANDIDATES,
    LARGE_ELEMENTS,
    TIE,
    TRADED_FLAGS,
    Choice,
    _plans,
    choice_size,
    choose_schedule,
    hint_sizes,
    modelled_times,
)
from hswc.passes.schedule_options import SCHEDULE_ATTR, parse_schedule, read_schedule
from hswc.pipeline import parse_text
from hswc.platform import Platform, get_platform
from hswc.profiling import lower
from hswc.tiling import compute_tiling
from hswc.vectorizer.schedule import FAST, REFERENCE, Schedule

REPO = Path(__file__).resolve().parent.parent
ALL_FLAGS = (*TRADED_FLAGS, "early_free", "x_first")
EVERY = tuple(Schedule(**dict(zip(ALL_FLAGS, flags, strict=True)))
              for flags in product((False, True), repeat=len(ALL_FLAGS)))
"""Every combination of the planner's five choices (the reference among them)."""


def module(stem: str, dtype: str, shape: str = "?") -> ModuleOp:
    return parse_text(OPS[stem].single_op_text(dtype, shape, attribute=0.5), "<test>")


def generic(stem: str, dtype: str) -> Elementwise:
    m = module(stem, dtype)
    HsgDecomposePass().apply(Context(), m)
    return elementwise(next(op for op in m.walk() if isinstance(op, GenericOp)))


@pytest.mark.parametrize(("stem", "dtype"), [("hard_sigmoid_grad", "f16"),
                                             ("softshrink", "f32"), ("sigmoid", "bf16")])
def test_the_choice_is_never_slower_in_the_model_than_any_schedule(stem: str,
                                                                   dtype: str) -> None:
    """All 32 combinations modelled for the choice's size: none beats the chosen one (so
    leaving early-free and x-first on never lost anything here)."""
    ew = generic(stem, dtype)
    platform = get_platform("ascend910b")
    build = lambda: _build_kernel_function("t_kernel_" + dtype, ew)  # noqa: E731
    choice = choose_schedule(_body_key(ew), build, ew.dag, dtype, ew.output_name(), platform,
                             False, None, broadcast=ew.broadcast)
    assert choice.schedule in CANDIDATES and choice.elements == choice_size(None)
    every = modelled_times(build, ew.dag, dtype, ew.output_name(), platform, choice.elements,
                           EVERY)
    assert len(every) == len(EVERY)
    fastest = min(t for _, t in every)
    assert choice.time <= fastest * (1 + TIE)
    reference = next(t for s, t in every if s == REFERENCE)
    assert choice.time < reference  # a real gain over ops-nn's structure for these bodies


def test_times_a_few_ulps_apart_are_a_tie(monkeypatch: pytest.MonkeyPatch) -> None:
    """The earlier candidate wins a tie, also when the model's sums put it an ulp behind
    (the order of floating-point sums is not part of the model); a real gain still counts."""
    ew = generic("leaky_relu", "f16")
    platform = get_platform("ascend910b")
    second = CANDIDATES[1]
    monkeypatch.setattr(choice_store, "store", None)  # a tool's cache of real choices
    for times, chosen in (([(FAST, (1.0 + 4e-16,)), (second, (1.0,))], FAST),
                          ([(FAST, (1.0 + 1e-6,)), (second, (1.0,))], second)):
        monkeypatch.setattr(schedule_choice, "modelled_times_at", lambda *_, t=times: t)
        schedule_choice._chosen.clear()
        choice = choose_schedule(("tie", chosen), lambda: None, ew.dag, "f16",  # type: ignore
                                 ew.output_name(), platform, False, None, broadcast=None)
        assert choice.schedule == chosen
    schedule_choice._chosen.clear()


def test_the_choice_is_recorded_and_used() -> None:
    """hsg.schedule on the kernel names the schedule convert-hsg-to-ascend lowered with; the
    CANN kernel (HardSwishGrad, cann semantics) and `variant=reference` get none."""
    low = lower(module("leaky_relu_grad", "f16"))
    kernels = [op for op in low.walk() if SCHEDULE_ATTR in op.attributes]
    assert len(kernels) == 1
    chosen = read_schedule(kernels[0])
    assert chosen is not None and not chosen.is_reference
    assert chosen.describe() == parse_schedule(chosen.describe()).describe()
    for m in (lower(module("hard_swish_grad", "f16")),
              lower(module("leaky_relu_grad", "f16"), REFERENCE)):
        assert not [op for op in m.walk() if SCHEDULE_ATTR in op.attributes]


def test_parse_schedule_reads_what_describe_writes() -> None:
    for schedule in (REFERENCE, FAST, replace(FAST, api="dav_3510"),
                     Schedule(scalar_compare=True, double_buffer_above=1024)):
        assert parse_schedule(schedule.describe()) == schedule
    for bad in ("fast=true", "double-buffer=yes", "api=nowhere"):
        with pytest.raises(ValueError):
            parse_schedule(bad)


DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}


@pytest.mark.parametrize(("stem", "dtype"), [("hardtanh_grad", "bf16"), ("softshrink", "f16")])
def test_the_default_kernel_is_bit_identical_to_the_reference(stem: str, dtype: str) -> None:
    """The interpreter on 3 cores and a 16 KB UB (several chunks, a short last one)."""
    rng = np.random.default_rng(21)
    count = len(OPS[stem].op.INPUTS)
    default = runner.compile_module(lower(module(stem, dtype)), core_num=3, ub_size=16384)
    reference = runner.compile_module(lower(module(stem, dtype), REFERENCE), core_num=3,
                                      ub_size=16384)
    for n in (1, 65, 9001):
        values = [(rng.standard_normal(n) * 3).astype(DTYPES[dtype]) for _ in range(count)]
        a = np.asarray(default(*values))
        b = np.asarray(reference(*values))
        assert a.tobytes() == b.tobytes()


NEGF = """func.func @neg(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
"""


def test_no_candidate_copies_more_than_one_data_copy_pad_moves() -> None:
    """An f32 negf with single-buffered queues shared in place needs 8 bytes an element: on
    Atlas A2's 196608-byte UB a 24576-element chunk, 98304 bytes, more than DataCopyParams'
    16-bit blockLen (65535). The tiling stops at the 16320 elements one DataCopyPad moves
    (hswc.tiling), so such candidates are modelled too, with that chunk; the double-buffered
    ones (16 bytes an element: 12288-element chunks) are not cut."""
    m = parse_text(NEGF, "<negf>")
    ew = elementwise(next(op for op in m.walk() if isinstance(op, GenericOp)))
    platform = get_platform("ascend910b")
    build = lambda: _build_kernel_function("neg_kernel_f32", ew)  # noqa: E731
    every = modelled_times(build, ew.dag, "f32", ew.output_name(), platform, choice_size(None),
                           EVERY)
    assert {s for s, _ in every} == set(EVERY)
    for schedule, plan in _plans(ew.dag, "f32", ew.output_name(), platform.api, EVERY):
        factor = compute_tiling(1 << 30, platform.core_num, platform.ub_size, "f32",
                                plan.ub_plan()).ub_factor
        assert factor == (16320 if not schedule.double_buffer and schedule.in_place
                          else min(16320, factor))
    choice = choose_schedule(_body_key(ew), build, ew.dag, "f32", ew.output_name(), platform,
                             False, None, broadcast=ew.broadcast)
    # The cut candidates compete as modelled; ranked with the L2 hint (as the chosen kernel
    # runs), the double-buffered one wins at 2^20. Without the hint a cut single-buffered one
    # would: its reads pay the write-back of the lines they evict (hswc.cost_model.schedule).
    assert choice.schedule.double_buffer and choice.schedule.l2_bypass
    assert not min(every, key=lambda found: found[1])[0].double_buffer  # EVERY: unhinted


def test_the_candidates_are_freed_once_modelled() -> None:
    """A candidate's uniform scalars are the generic's own values (softshrink's lambd, defined
    in the host function): after the choice no candidate kernel is left on their use lists,
    and none is alive (they were, all eight, until the host's constant went)."""
    import gc

    from xdsl.dialects import func

    ew = generic("softshrink", "f16")
    lambd = ew.dag.scalars[0]
    uses_before = len(list(lambd.uses))
    gc.collect()
    before = {id(o) for o in gc.get_objects() if isinstance(o, func.FuncOp)}
    modelled_times(lambda: _build_kernel_function("choice_f16", ew), ew.dag, "f16",
                   ew.output_name(), get_platform("ascend910b"), choice_size(None))
    assert len(list(lambd.uses)) == uses_before
    gc.collect()
    assert [o for o in gc.get_objects()
            if isinstance(o, func.FuncOp) and id(o) not in before] == []


@pytest.mark.parametrize(("stem", "dtype"), [("hard_sigmoid_grad", "f32"), ("softshrink", "f16")])
def test_a_dropped_candidate_waits_for_no_full_collection(
        stem: str, dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A candidate kernel held past the block it was lowered in (a twin to requeue, a winner so
    far) and then let go is freed at once (collector.unlink), not left for the collector's next
    full collection (on a fused chain of 1000 ops that garbage was a 51 MB higher peak:
    bench/README.md): with automatic collection off, nothing of any kernel the choice lowered
    is alive after it. Before, every kernel held past its block was."""
    import gc
    import weakref

    ew = generic(stem, dtype)
    lowered: list[weakref.ref[object]] = []
    real = schedule_choice.candidate_kernel

    def recorded(*args: object) -> FuncOp:
        kernel = real(*args)  # type: ignore[arg-type]
        lowered.append(weakref.ref(next(op for op in kernel.walk()
                                        if op.name == "ascend.get_block_idx")))
        return kernel

    monkeypatch.setattr(schedule_choice, "candidate_kernel", recorded)
    gc.collect()
    gc.disable()
    try:
        modelled_times(lambda: _build_kernel_function("choice_" + dtype, ew), ew.dag, dtype,
                       ew.output_name(), get_platform("ascend910b"), choice_size(None))
        left = sum(ref() is not None for ref in lowered)
    finally:
        gc.enable()
    assert len(lowered) >= 4
    assert left == 0


def choose(stem: str, dtype: str, elements: int | None, soc: str = "ascend910b"
           ) -> tuple[Choice, Elementwise, Callable[[], FuncOp], Platform]:
    ew = generic(stem, dtype)
    build = lambda: _build_kernel_function("hint_kernel_" + dtype, ew)  # noqa: E731
    platform = get_platform(soc)
    choice = choose_schedule(_body_key(ew), build, ew.dag, dtype, ew.output_name(), platform,
                             False, elements, broadcast=ew.broadcast)
    return choice, ew, build, platform


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
def test_the_l2_hint_is_taken_where_the_model_says_it_gains(soc: str) -> None:
    """sigmoid f32 of unknown size: the chosen kernel with its input bypassing L2 models no
    slower at 2^20 and faster at 2^24 (its writes then stay in L2: at least 1.2x, by hand from
    hswc.platform's bandwidths, 1.6 TB/s of HBM for all bytes against 2.4 TB/s of L2), so it
    is taken; a launch known to be 2^16 elements, where both model alike, keeps no hint."""
    choice, ew, build, platform = choose("sigmoid", "f32", None, soc)
    assert choice.schedule.l2_bypass
    plain = replace(choice.schedule, l2_bypass=False)
    for size in (1 << 20, LARGE_ELEMENTS):
        times = dict(modelled_times(build, ew.dag, "f32", ew.output_name(), platform, size,
                                    (plain, choice.schedule)))
        assert times[choice.schedule] <= times[plain] * (1 + TIE)
    assert times[plain] / times[choice.schedule] >= 1.2
    small, *_ = choose("sigmoid", "f32", 1 << 16, soc)
    assert not small.schedule.l2_bypass and small.elements == 1 << 16
    assert hint_sizes(1 << 16, platform) == (1 << 16,)
    assert hint_sizes(None, platform) == (1 << 20, LARGE_ELEMENTS)
    assert hint_sizes(1 << 22, platform) == (1 << 20, 1 << 22)
    small_ub = platform.with_overrides(8, 9728)  # 155,648 elements: below the choice size
    assert hint_sizes(None, small_ub) == (1 << 20,)


def test_a_kernel_bound_by_its_vector_work_keeps_no_hint() -> None:
    """gelu f16 is bound by V at both sizes (bench_default_schedule's `below goal` rows): the
    hint changes no modelled time, and a tie keeps the kernel without it."""
    choice, *_ = choose("gelu", "f16", None)
    assert not choice.schedule.l2_bypass


def test_the_hint_is_refused_when_slower_at_one_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule itself, on made-up times: faster at 2^24 but slower at 2^20 is no hint; no
    slower at 2^20 and faster at 2^24 is the hint."""
    ew = generic("leaky_relu", "f16")
    hinted = replace(FAST, l2_bypass=True)
    monkeypatch.setattr(choice_store, "store", None)
    for at_small, chosen in ((1.1, FAST), (1.0, hinted)):
        def times(*args: object, small: float = at_small
                  ) -> list[tuple[Schedule, tuple[float, ...]]]:
            sizes, candidates = args[5], args[6]
            assert isinstance(sizes, tuple) and isinstance(candidates, tuple)
            if hinted not in candidates:
                return [(FAST, (1.0,) * len(sizes))]
            return [(FAST, (1.0,) * len(sizes)),
                    (hinted, tuple(small if size == 1 << 20 else 0.7 for size in sizes))]
        monkeypatch.setattr(schedule_choice, "modelled_times_at", times)
        schedule_choice._chosen.clear()
        choice = choose_schedule(("hint", at_small), lambda: None, ew.dag, "f16",  # type: ignore
                                 ew.output_name(), get_platform("ascend910b"), False, None,
                                 broadcast=None)
        assert choice.schedule == chosen
    schedule_choice._chosen.clear()


def test_a_run_for_the_950_chooses_with_the_950s_figures() -> None:
    """hswc-run and hswc-emit name the 950's API table without folding its platform: the
    choice is still the 950's (its cost figures), the same as a choice made on the 950 directly,
    and for sigmoid f32 not the A2's (the 950 frees x before its Exp; the A2 keeps one buffer)."""
    chosen = {}
    for soc in ("ascend950", "ascend910b"):
        kernel = runner.compile_module(module("sigmoid", "f32"), soc=soc, fold=False,
                                       level="ascend")
        records = [op.attributes[SCHEDULE_ATTR] for op in kernel.module.walk()
                   if SCHEDULE_ATTR in op.attributes]
        assert len(records) == 1
        assert records[0].data["soc"].data == soc  # type: ignore[attr-defined]
        chosen[soc] = records[0].data["options"].data  # type: ignore[attr-defined]
    ew = generic("sigmoid", "f32")
    direct = choose_schedule(_body_key(ew), lambda: _build_kernel_function("t_kernel_f32", ew),
                             ew.dag, "f32", ew.output_name(), get_platform("ascend950"), False,
                             None, broadcast=ew.broadcast)
    assert chosen["ascend950"] == replace(direct.schedule, api="dav_3510").describe()
    assert chosen["ascend950"] != chosen["ascend910b"]


@pytest.mark.parametrize(("stem", "dtype"), [("leaky_relu", "f16"), ("hard_sigmoid_grad", "f32")])
def test_a_choice_builds_each_distinct_kernel_once(stem: str, dtype: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One choice (schedule_choice.Models) builds the blocked kernel once and lowers each
    distinct candidate kernel at most once (one differing from another only in its queues'
    depths or its L2 hint not at all: requeued), the L2 hint's plain and hinted kernels not
    again, and comes out as the steps made apart (each with kernels of its own) come out."""
    ew = generic(stem, dtype)
    platform = get_platform("ascend910b")
    build = lambda: _build_kernel_function("t_kernel_" + dtype, ew)  # noqa: E731
    monkeypatch.setattr(choice_store, "store", None)
    # apart: the traded candidates hinted, then the hint of their winner (the plain ones
    # ranked instead if it is not taken; then, below, its offsets), each step its own kernels
    size = choice_size(None)

    def fastest_of(candidates: tuple[Schedule, ...]) -> tuple[Schedule, float]:
        times = modelled_times(build, ew.dag, dtype, ew.output_name(), platform, size,
                               candidates)
        fastest = min(t for _, t in times)
        return next(c for c in times if c[1] <= fastest * (1 + TIE))

    ranked = fastest_of(schedule_choice.TRADED_HINTED)
    hinted = schedule_choice._hinted(build, ew.dag, dtype, ew.output_name(), platform, None,
                                     (replace(ranked[0], l2_bypass=False), ranked[1]))
    if not hinted[0].l2_bypass:
        hinted = schedule_choice._hinted(build, ew.dag, dtype, ew.output_name(), platform,
                                         None, fastest_of(schedule_choice.TRADED))
    apart = schedule_choice._offset(build, ew.dag, dtype, ew.output_name(), platform, None,
                                    hinted)
    if apart[0].bank_offsets and not apart[0].l2_bypass:
        apart = schedule_choice._hinted(build, ew.dag, dtype, ew.output_name(), platform, None,
                                        apart)
    distinct = {schedule_choice._signature(plan)
                for _, plan in _plans(ew.dag, dtype, ew.output_name(), platform.api,
                                      schedule_choice.TRADED)}
    built: list[int] = []
    blocked: list[int] = []
    real_kernel, real_build = schedule_choice.candidate_kernel, build

    def counted_kernel(*args: object) -> FuncOp:
        built.append(1)
        return real_kernel(*args)  # type: ignore[arg-type]

    def counted_build() -> FuncOp:
        blocked.append(1)
        return real_build()

    monkeypatch.setattr(schedule_choice, "candidate_kernel", counted_kernel)
    schedule_choice._chosen.clear()
    choice = choose_schedule(("once", stem, dtype), counted_build, ew.dag, dtype,
                             ew.output_name(), platform, False, None, broadcast=ew.broadcast)
    schedule_choice._chosen.clear()
    assert (choice.schedule, choice.time) == apart
    assert len(blocked) == 1
    # a candidate differing from one lowered before only in its queues' depths or its L2
    # hint (the winner's hint among them) is that kernel requeued; the winner with its buffers
    # offset is one more lowering when the planner offsets any (its gaps are InitBuffers)
    offset = replace(hinted[0], bank_offsets=True)
    offsets = bool(_plans(ew.dag, dtype, ew.output_name(), platform.api, (offset,))[0][1]
                   .bank_halves)
    assert len(built) == len({schedule_choice._depthless(k) for k in distinct}) + offsets
    assert len(built) < len(distinct) + offsets


@pytest.mark.parametrize(("source", "dtype"), [("hard_sigmoid_grad", "f16"),
                                               ("torch_bias_add.mlir", "f32")])
def test_a_candidate_differing_only_in_queue_depths_or_hint_is_requeued_as_its_own_build(
        source: str, dtype: str) -> None:
    """The choice makes a candidate whose plan differs from one lowered before only in its
    queues' depths or L2 hint from that kernel (schedule_choice.requeue, in place): it then
    prints as the candidate's own lowering does and models alike, and back again as the
    first, for every such pair of the 32 combinations and their hinted twins (a broadcast
    body among them: its UB plan's broadcast rows, and its broadcast input left unhinted)."""
    from xdsl.printer import Printer

    from hswc.passes.schedule_choice import (
        Models,
        _depthless,
        _signature,
        candidate_kernel,
        modelled_time,
        requeue,
    )

    if source.endswith(".mlir"):
        m = parse_text((REPO / "examples" / source).read_text(), source)
        HsgDecomposePass().apply(Context(), m)
        ew = elementwise(next(op for op in m.walk() if isinstance(op, GenericOp)))
        assert ew.broadcast is not None
    else:
        ew = generic(source, dtype)
    platform = get_platform("ascend910b")
    models = Models(lambda: _build_kernel_function("q_kernel_" + dtype, ew))
    blocked = models.blocked()

    def text(kernel: FuncOp) -> str:
        out = StringIO()
        Printer(stream=out).print_op(kernel)
        return out.getvalue()

    every = (*EVERY, *(replace(s, l2_bypass=True) for s in EVERY))
    plans = {_signature(plan): plan
             for _, plan in _plans(ew.dag, dtype, ew.output_name(), platform.api, every)}
    pairs = [(a, b) for a in plans for b in plans if a != b and _depthless(a) == _depthless(b)]
    hints = {a.l2_bypass for a, b in pairs if a.l2_bypass != b.l2_bypass}
    assert hints == {False, True}  # hint on, off
    # depths alone
    assert any(a.buffers != b.buffers and a.l2_bypass == b.l2_bypass for a, b in pairs)
    size = choice_size(None)
    for a, b in pairs:
        first, fresh = (candidate_kernel(blocked, plans[k]) for k in (a, b))
        assert text(first) != text(fresh)
        kernel = candidate_kernel(blocked, plans[a])
        requeue(kernel, plans[b], ew.broadcast)
        assert text(kernel) == text(fresh)
        assert modelled_time(kernel, plans[b], platform, size) == modelled_time(
            fresh, plans[b], platform, size)
        requeue(kernel, plans[a], ew.broadcast)
        assert text(kernel) == text(first)
    models.close()


def test_the_hint_is_tried_again_once_the_offsets_are_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tanh f16 on Atlas A2: without bank offsets its vector calls' conflicts bind it and the
    L2 hint changes nothing (so the first try keeps it off); with the offsets the HBM matters
    at 2^24, where the hinted kernel models faster (its reads no longer pay the write-back of
    y's lines): the choice takes both, and each is faster, not a tie."""
    ew = generic("tanh", "f16")
    platform = get_platform("ascend910b")
    build = lambda: _build_kernel_function("t_kernel_f16", ew)  # noqa: E731
    monkeypatch.setattr(choice_store, "store", None)
    schedule_choice._chosen.clear()
    choice = choose_schedule(("tanh-hint", "f16"), build, ew.dag, "f16", ew.output_name(),
                             platform, False, None, broadcast=ew.broadcast)
    schedule_choice._chosen.clear()
    assert choice.schedule.bank_offsets and choice.schedule.l2_bypass
    plain = replace(choice.schedule, l2_bypass=False)
    times = dict(schedule_choice.modelled_times_at(
        build, ew.dag, "f16", ew.output_name(), platform, (choice_size(None), 1 << 24),
        (plain, choice.schedule, replace(plain, bank_offsets=False),
         replace(choice.schedule, bank_offsets=False))))
    assert times[choice.schedule][0] <= times[plain][0] * (1 + TIE)
    assert times[choice.schedule][1] < times[plain][1] * 0.97
    unoffset = replace(plain, bank_offsets=False)
    assert times[replace(unoffset, l2_bypass=True)] == pytest.approx(times[unoffset])
