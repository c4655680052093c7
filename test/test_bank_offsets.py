"""The `bank-offsets` schedule (hswc.vectorizer.bank_layout) and the UB bank conflicts of a
generated kernel in the cost model (hswc.cost_model.stream: the rule a recorded call is timed
by, hswc.cost_model.stream.bank_conflict).

The buffers' addresses the model reads from the IR are checked against the C++ CPU model's own
TPipe (its recorded call stream, timed by hswc.cost_model.recorded); the offset kernel runs to
the same bits on the interpreter (which refuses any UB overflow at InitBuffer) and on the CPU
model, on UBs where the gaps are placed and on small ones where they are not (the kernel and
the host tiling both decide by hswc.tiling.gapped_from); the choice takes the offsets on Atlas
A2 where the model says they are faster, never on Ascend 950 (no conflicts there), and keeps the
plain layout where the gaps would not pay.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from cpu_build import build_generic_kernels, run_recorded
from cpu_build import lower as lower_text
from xdsl.dialects import func

from hswc import runner
from hswc.cost_model.recorded import read_stream
from hswc.cost_model.stream import VECTOR, core_program
from hswc.dialects import ascend, hsg
from hswc.ops import OPS
from hswc.passes.schedule_options import SCHEDULE_ATTR, UB_PLAN_ATTR, read_plan, read_schedule
from hswc.pipeline import parse_text
from hswc.platform import PLATFORMS, UB_BANK_GROUP_SPAN
from hswc.profiling import lower, profile
from hswc.tiling import (
    BANK_GAP_LEAST,
    BANK_GAP_MOST,
    TilingError,
    UbPlan,
    compute_tiling,
    gap_bytes,
    gapped_from,
)
from hswc.vectorizer.bank_layout import bank_halves
from hswc.vectorizer.bank_order import bank_order, conflicts, gap_before, starts
from hswc.vectorizer.plan import Buffer
from hswc.vectorizer.schedule import FAST

SCALED_RELU = """
func.func @scaled_relu(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf16>, tensor<?xf16>) outs(%a : tensor<?xf16>) {
  ^bb0(%ea: f16, %eb: f16, %o: f16):
    %prod = arith.mulf %ea, %eb : f16
    %zero = arith.constant 0.0 : f16
    %relu = arith.maximumf %prod, %zero : f16
    %diff = arith.subf %relu, %ea : f16
    linalg.yield %diff : f16
  } -> tensor<?xf16>
  return %y : tensor<?xf16>
}
"""
"""y = max(a * b, 0) - a: Mul and Sub read two tensors each (two-source calls)."""
OFFSET = replace(FAST, bank_offsets=True)
NOT_IN_PLACE = replace(FAST, in_place=False)


def expected(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """f16 arithmetic, each step rounded once (numpy's f16 ops round each result)."""
    return np.maximum(a * b, np.float16(0)) - a


def inputs(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n).astype(np.float16),
            rng.standard_normal(n).astype(np.float16))


def vector_conflicts(schedule: object, soc: str = "ascend910b") -> tuple[list[tuple[str, bool]],
                                                                           float]:
    """The first chunk's vector calls (label, conflicting) on core 0 at 2^20, and the time."""
    report = profile(parse_text(SCALED_RELU, "t"), shape=1 << 20, dtype="f16", platform=soc,
                     variant=schedule)  # type: ignore[arg-type]
    calls = [(w.label, w.bank_conflict) for w in report.schedules[0].program.work()
             if w.pipe == VECTOR and w.chunk == 0 and w.label != "pipe_barrier"]
    return calls, report.total_time


def test_the_halves_separate_two_sources_and_align_the_rest() -> None:
    """Add(z, x, y) and Exp(w, z): x and y in different halves (a read-read conflict is
    certain whatever the banks); z and w start exactly at a half too (a call of one source at
    exact halves never conflicts: in the other half, or aligned and delayed), in half 0 as the
    tie goes; x, the first buffer, is in half 0 from byte 0 and needs no gap."""
    bx, by, bz, bw = (Buffer(n, "temp", "f16") for n in "xyzw")
    halves = bank_halves([([bx, by], bz), ([bz], bw)], [bx, by, bz, bw])
    assert halves == {by: 1, bz: 0, bw: 0}
    # in place: one buffer read and written, aligned with itself, never conflicts; no gap
    assert bank_halves([([bx], bx)], [bx]) == {}


def test_offsets_remove_the_conflicts_of_the_plain_layout() -> None:
    """Without in-place results (Mul writes prod, Sub writes y, each a buffer of its own): the
    plain layout puts every buffer at a multiple of 512 bytes, so Mul and Sub read two sources
    in the same groups (read-read); Maxs, in place over prod, does not conflict (the hardware
    delays an aligned write by one repeat: bank_conflict_ub scenario 6). With the offsets, Mul
    and Sub read sources 256 bytes apart, and the kernel is faster though its chunk holds fewer
    elements."""
    plain, plain_time = vector_conflicts(NOT_IN_PLACE)
    offset, offset_time = vector_conflicts(replace(NOT_IN_PLACE, bank_offsets=True))
    assert plain == [("mul", True), ("maxs", False), ("sub", True)]
    assert offset == [("mul", False), ("maxs", False), ("sub", False)]
    assert offset_time < plain_time


def test_ascend_950_sees_no_conflicts() -> None:
    """Ascend 950's figures model no bank conflicts: no call is marked, and offsets only cost."""
    calls, plain = vector_conflicts(FAST, "ascend950")
    assert not any(conflict for _, conflict in calls)
    _, offset = vector_conflicts(OFFSET, "ascend950")
    assert offset >= plain


def test_the_choice_takes_offsets_on_a2_only() -> None:
    """The default schedule on Atlas A2 is FAST with the L2 hint and the offsets; on 950 no
    offsets (its model sees no conflicts)."""
    a2 = runner.compile_text(SCALED_RELU).module
    schedule = next(op.attributes["hsg.schedule"] for op in a2.walk()
                    if "hsg.schedule" in op.attributes)
    assert "bank-offsets=true" in str(schedule)
    a950 = runner.compile_text(SCALED_RELU, soc="ascend950").module
    assert "bank-offsets" not in str(a950)


@pytest.mark.parametrize("ub_size", [4096, 9728, 65536 + 4000, PLATFORMS["ascend910b"].ub_size])
def test_the_offset_kernel_is_bit_exact_within_the_ub(ub_size: int) -> None:
    """The interpreter (which refuses an InitBuffer past the UB) runs the offset kernel at the
    largest ubFactor each UB allows, to numpy's f16 bits."""
    a, b = inputs(40_000 + 17)
    kernel = runner.compile_module(lower(parse_text(SCALED_RELU, "t"), OFFSET), core_num=2,
                                   ub_size=ub_size)
    y = kernel(a, b)
    assert np.array_equal(y.view(np.uint16), expected(a, b).view(np.uint16))


def kernel_plan(pipeline: str) -> tuple[str, UbPlan]:
    """The schedule options the choice recorded ("" where options were given) and the UB plan
    of SCALED_RELU's kernel after `pipeline`."""
    kernel = next(op for op in lower_text(SCALED_RELU, pipeline).walk()
                  if isinstance(op, func.FuncOp) and hsg.is_kernel(op))
    plan = read_plan(kernel, UB_PLAN_ATTR)
    assert plan is not None
    return str(kernel.attributes.get(SCHEDULE_ATTR, "")), plan


def test_gaps_that_do_not_fit_keep_the_plain_layout() -> None:
    """Chosen for 8 cores of 1536 bytes of UB: the winner (depth-1 queues, in place: 6 bytes an
    element) tiles; with its buffers offset, its two gaps at their most would leave room for
    85 elements, under one repeat's 128, so the offset kernel places no gaps there (a block
    each: 1472 bytes left, a pass of 128, below gapped_from's 1408) and the choice keeps the
    plain layout (on the full UB the same body takes the offsets: test_the_choice_takes...)."""
    small = "hsg-tile-on-cores{soc=ascend910b core-num=8 ub-size=1536"
    chosen, plain = kernel_plan(small + "}")
    assert "bank-offsets" not in chosen
    assert compute_tiling(1 << 20, 8, 1536, "f16", plain).ub_factor == 256
    options = chosen.split('"')[1]
    _, offset = kernel_plan(f"{small} {options} bank-offsets=true}}")
    assert (offset.ub_reserve, offset.bank_gaps) == (plain.ub_reserve, 2)
    assert gapped_from(offset) == 1408  # 8 x 2 x 512 / 6 = 1366, up to a multiple of 128
    assert compute_tiling(1 << 20, 8, 1536, "f16", offset).ub_factor == 128


@pytest.mark.parametrize("plan", [UbPlan(6, 0, 128, bank_gaps=2),
                                  UbPlan(61, 8960, 64, bank_gaps=14),
                                  UbPlan(10, 256, 32, block_align=16, bank_gaps=5)])
def test_the_gapped_tiling_fits_every_ub_it_accepts(plan: UbPlan) -> None:
    """At every UB from 1 KB to 256 KB in 32-byte steps, the tiling of a gapped plan either
    refuses or gives a pass whose buffers and gaps (at their most where ubFactor reaches
    gapped_from, else a block each) fit; it accepts every UB the plain plan with a block per
    gap accepts; and it places the gaps wherever the pass that leaves room for them reaches
    gapped_from (the three plans: scaled_relu's, i32 division's with 14 gaps, a made-up one)."""
    plain = replace(plan, bank_gaps=0, ub_reserve=plan.ub_reserve + plan.bank_gaps * 32)
    least = gapped_from(plan)
    for ub in range(1024, 256 * 1024 + 1, 32):
        try:
            u = compute_tiling(1 << 24, 8, ub, "f16", plan).ub_factor
        except TilingError:
            with pytest.raises(TilingError):
                compute_tiling(1 << 24, 8, ub, "f16", plain)
            continue
        assert u * plan.bytes_per_element + plan.ub_reserve + gap_bytes(plan, u) <= ub, ub
        roomy = (ub - plan.ub_reserve - plan.bank_gaps * BANK_GAP_MOST) \
            // plan.bytes_per_element // plan.align_elements * plan.align_elements
        assert (u >= least) == (min(roomy, 16320) >= least), ub
        assert u <= compute_tiling(1 << 24, 8, ub, "f16", plain).ub_factor
    assert gap_bytes(plan, least) == plan.bank_gaps * BANK_GAP_MOST
    assert gap_bytes(plan, least - plan.align_elements) == plan.bank_gaps * BANK_GAP_LEAST


def test_the_model_places_buffers_where_the_cpu_model_does(tmp_path: Path) -> None:
    """The default kernel (offsets on) built against the C++ CPU model: its output is the
    interpreter's bits, and its recorded stream (the UB addresses of the CPU model's TPipe)
    marks the same vector calls conflicting as the cost model's walk of the IR, call for call."""
    a, b = inputs(3 * 16384 + 100, seed=3)
    executable = build_generic_kernels(tmp_path, {"scaled_relu": SCALED_RELU})["scaled_relu"]
    (tmp_path / "t.mlir").write_text(SCALED_RELU)
    for name, array in (("a", a), ("b", b)):
        np.save(tmp_path / f"{name}.npy", array)
    done = subprocess.run(["hswc-run", "t.mlir", "--input", "a.npy", "--input", "b.npy",
                           "--output", "y.npy", "--core-num", "1", "--tiling-json", "t.json"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "t.json").read_text())
    stream = tmp_path / "stream.txt"
    y = run_recorded(executable, record, [a, b], PLATFORMS["ascend910b"].ub_size,
                     tmp_path / "run", extra=("--profile", str(stream)))
    assert np.array_equal(y.view(np.uint16), np.load(tmp_path / "y.npy").view(np.uint16))
    assert np.array_equal(y.view(np.uint16), expected(a, b).view(np.uint16))

    figures = PLATFORMS["ascend910b"].cost
    recorded = read_stream(stream.read_text(), figures).programs[0]
    kernel = next(op for op in runner.compile_text(SCALED_RELU).module.walk()
                  if isinstance(op, func.FuncOp) and hsg.is_kernel(op))
    walked = core_program(kernel, 0, 1, (record["totalNum"], record["blockFactor"],
                                         record["ubFactor"]), figures)

    def flags(program: object) -> list[bool]:
        return [w.bank_conflict for w in program.work()  # type: ignore[attr-defined]
                if w.pipe == VECTOR and w.repeats > 0]

    assert flags(walked) == flags(recorded)
    assert False in flags(walked)  # the offsets separated some calls' operands

    # on a small UB the same kernel places no gaps (a block each): the CPU model, which refuses
    # an InitBuffer past the UB, runs it to the interpreter's bits too
    plan = read_plan(kernel, UB_PLAN_ATTR)
    assert plan is not None and plan.bank_gaps > 0
    done = subprocess.run(["hswc-run", "t.mlir", "--input", "a.npy", "--input", "b.npy",
                           "--output", "y4.npy", "--core-num", "2", "--ub-size", "4096",
                           "--tiling-json", "t4.json"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    small = json.loads((tmp_path / "t4.json").read_text())
    assert 0 < small["ubFactor"] < gapped_from(plan) <= record["ubFactor"]
    y = run_recorded(executable, small, [a, b], 4096, tmp_path / "run4")
    assert np.array_equal(y.view(np.uint16), np.load(tmp_path / "y4.npy").view(np.uint16))
    assert UB_BANK_GROUP_SPAN == 512


class _Buf:
    """A buffer of the order tests: an element size and an InitBuffer length."""

    def __init__(self, name: str, element: int, length: int) -> None:
        self.name, self.element, self.length = name, element, length

    def __repr__(self) -> str:
        return self.name


def test_the_order_puts_a_casts_sides_in_different_banks() -> None:
    """Cast(w <- x), x f16 (128 bytes a repeat), w f32: planned x, w, p, TPipe places x at 0
    and w at 40000, both in bank 0 (bits 17:16 of the address), and their groups meet in some
    repeats (read-write in one bank); moved after w, x starts at 70016 (70000 rounded up to 32
    bytes), bank 1, and the Cast conflicts in none. With a half, the gap BankGaps places: 32
    + ((256 + 992 - 40000 % 512) % 512) = 192 bytes after 40000, so the buffer starts at
    40192, 256 past a multiple of 512."""
    x, w, p = _Buf("x", 2, 40000), _Buf("w", 4, 70000), _Buf("p", 4, 30000)

    def size(b: _Buf) -> tuple[int, int]:
        return 1, b.length

    def element(b: _Buf) -> int:
        return b.element

    calls = [([x], w)]
    planned = starts([x, w, p], {}, size)
    assert {b.name: [a >> 16 for a in at] for b, at in planned.items()} == \
        {"x": [0], "w": [0], "p": [1]}
    assert conflicts(calls, [x, w, p], {}, size, element) > 0
    order = bank_order(calls, [x, w, p], {}, size, element)
    assert order == [w, x, p]
    assert starts(order, {}, size) == {w: [0], x: [70016], p: [110016]}
    assert conflicts(calls, order, {}, size, element) == 0
    assert bank_order([([x], x)], [x, w, p], {}, size, element) == [x, w, p]  # nothing to gain
    assert gap_before(1, 40000) == 192
    assert starts([x, w], {w: 1}, size)[w] == [40192]


TANH = OPS["tanh"].single_op_text("f16", attribute=0.5)
"""hsg.tanh in f16: its f32 steps between Casts of the input and the output."""


def test_a_reordered_kernel_runs_on_the_cpu_model_as_on_the_interpreter(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tanh in f16 on Atlas A2: the choice takes the offsets, and its buffers' order is not the
    planned one (the input queue no longer first). Built against the C++ CPU model, the kernel
    gives the interpreter's bits, and the CPU model's TPipe places its buffers where the cost
    model's walk of the IR does: the same calls conflict, call for call, and fewer than with
    the planned order."""
    low = runner.compile_text(TANH).module
    order = [op.buffer.name_hint for op in low.walk() if isinstance(op, ascend.InitBufferOp)]
    assert order[0] != "input_queue_x" and "input_queue_x" in order
    x = np.random.default_rng(5).uniform(-6, 6, 3 * 16384 + 77).astype(np.float16)
    executable = build_generic_kernels(tmp_path, {"tanh": TANH}, gm_inputs=1)["tanh"]
    (tmp_path / "t.mlir").write_text(TANH)
    np.save(tmp_path / "x.npy", x)
    done = subprocess.run(["hswc-run", "t.mlir", "--input", "x.npy", "--output", "y.npy",
                           "--core-num", "1", "--tiling-json", "t.json"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "t.json").read_text())
    stream = tmp_path / "stream.txt"
    y = run_recorded(executable, record, [x], PLATFORMS["ascend910b"].ub_size, tmp_path / "run",
                     extra=("--profile", str(stream)))
    assert np.array_equal(y.view(np.uint16), np.load(tmp_path / "y.npy").view(np.uint16))

    figures = PLATFORMS["ascend910b"].cost
    recorded = read_stream(stream.read_text(), figures).programs[0]
    tiling = (record["totalNum"], record["blockFactor"], record["ubFactor"])

    def flags(program: object) -> list[bool]:
        return [w.bank_conflict for w in program.work()  # type: ignore[attr-defined]
                if w.pipe == VECTOR and w.repeats > 0]

    kernel = next(op for op in low.walk() if isinstance(op, func.FuncOp) and hsg.is_kernel(op))
    walked = flags(core_program(kernel, 0, 1, tiling, figures))
    assert walked == flags(recorded)
    schedule = read_schedule(kernel)
    assert schedule is not None and schedule.bank_offsets
    monkeypatch.setattr("hswc.vectorizer.plan.bank_order", lambda calls, buffers, *_: buffers)
    planned = next(op for op in lower(parse_text(TANH, "t"), schedule).walk()
                   if isinstance(op, func.FuncOp) and hsg.is_kernel(op))
    assert sum(walked) < sum(flags(core_program(planned, 0, 1, tiling, figures)))
