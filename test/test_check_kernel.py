"""hswc-check-kernel on kernels of our own writing (examples/check_kernel): three family ops
in ops-nn's TPipe/TQue style, which it must pass for every dtype and boundary size, and each
one seeded with a realistic mistake, which it must report with the right rule or the right
first mismatch. The expected values of a mismatch are worked out from the mistake, apart from
the checker (what the buggy kernel computes, by numpy and hswc.reference).

All kernels are built at once (hswc.checker.check.build_plans; identical builds once), on a
4-core platform with 16 KiB of UB so that every tail and core boundary is a few thousand
elements away.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hswc.checker.check import Plan, build_plans, plan, run_plan
from hswc.checker.options import CheckOptions
from hswc.checker.report import CheckReport
from hswc.reference import OP_REFERENCES

FIXTURES = Path(__file__).resolve().parents[1] / "examples" / "check_kernel"
sys.path.insert(0, str(FIXTURES))
import fixture_tiling  # noqa: E402  (a helper of examples/check_kernel, not a package)

CORES, UB = 4, 16384
BASE = {"core_num": CORES, "ub_size": UB, "jobs": 2}
HSG = CheckOptions(kernel=str(FIXTURES / "hard_sigmoid_grad_fixture.cpp"),
                   op="hsg.hard_sigmoid_grad",
                   tiling_function=f"{FIXTURES / 'fixture_tiling.py'}:two_inputs", **BASE)
LEAKY = CheckOptions(kernel=str(FIXTURES / "leaky_relu_fixture.cpp"), op="hsg.leaky_relu",
                     attrs={"negative_slope": "0.2"}, tiling={None: ["negativeSlope=0.2"]},
                     tiling_function=f"{FIXTURES / 'fixture_tiling.py'}:one_input", **BASE)
HARDTANH = CheckOptions(kernel=str(FIXTURES / "hardtanh_fixture.cpp"), op="hsg.hardtanh",
                        attrs={"min_val": "-0.7", "max_val": "2"},
                        tiling={None: ["minVal=-0.7,maxVal=2"]},
                        tiling_function=f"{FIXTURES / 'fixture_tiling.py'}:one_input", **BASE)
SOME = (129, 2561)
"""A short run, and one where every core takes one full pass and a tail."""


def _seeded(options: CheckOptions, mistake: str, dtype: str) -> CheckOptions:
    return replace(options, defines={None: [mistake]}, dtypes=(dtype,), sizes=SOME)


CASES = {
    "hard_sigmoid_grad": HSG,
    "leaky_relu": replace(LEAKY, dtypes=("bf16",)),
    "hardtanh": replace(HARDTANH, dtypes=("f16",)),
    "shared_scratch": _seeded(HSG, "SEEDED_SHARED_SCRATCH", "f16"),
    "no_input_queue": _seeded(HSG, "SEEDED_NO_INPUT_QUEUE", "f32"),
    "missing_tail": _seeded(LEAKY, "SEEDED_MISSING_TAIL", "f32"),
    "trunc_cast": _seeded(LEAKY, "SEEDED_TRUNC_CAST", "f16"),
    "select_spr": _seeded(HARDTANH, "SEEDED_SELECT_SPR", "f32"),
    "full_tail_copy": _seeded(HARDTANH, "SEEDED_FULL_TAIL_COPY", "f16"),
    # The right kernel with a tiling that does not fit it (the same build as hard_sigmoid_grad).
    "ub_overflow": replace(HSG, tiling={None: ["ubFactor=8192"]}, dtypes=("f16",), sizes=SOME),
    "misaligned": replace(HSG, tiling={None: ["ubFactor=100"]}, dtypes=("f16",), sizes=SOME),
}


@pytest.fixture(scope="module")
def plans() -> dict[str, Plan]:
    if shutil.which("g++") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; hswc-check-kernel's tests must run there")
        pytest.skip("no C++ compiler (g++): hswc-check-kernel cannot build kernels here")
    made = {name: plan(options) for name, options in CASES.items()}
    try:
        build_plans(list(made.values()))
        yield made
    finally:
        for p in made.values():
            p.cleanup()


def _report(plans: dict[str, Plan], name: str) -> CheckReport:
    report = run_plan(plans[name])
    print(report.format())
    return report


def _launch(options: CheckOptions, size: int, dtype: str) -> tuple[int, int]:
    """(blockFactor, ubFactor) of the fixture tiling."""
    inputs = 2 if options is HSG else 1
    t = fixture_tiling.tiling(size, CORES, UB, dtype, inputs)
    return t["blockFactor"], t["ubFactor"]


# region the right kernels


def test_the_right_kernels_pass_at_every_boundary_size(plans: dict[str, Plan]) -> None:
    report = _report(plans, "hard_sigmoid_grad")
    assert report.passed and report.verdict().startswith("PASS")
    for dtype in ("f16", "bf16", "f32"):
        block_factor, ub_factor = _launch(HSG, 1 << 20, dtype)
        assert block_factor == 1 << 18
        sizes = {o.size for o in report.outcomes if o.dtype == dtype}
        # Each side of one pass, of every core's one pass, of the first size on all cores.
        assert {ub_factor - 1, ub_factor, ub_factor + 1, CORES * ub_factor + 1, 3, 4, 5} <= sizes
    patterns = [o for o in report.outcomes if o.all_patterns]
    assert [o.dtype for o in patterns] == ["f16", "bf16"]
    assert all(o.comparisons and o.comparisons[0].size == 1 << 16 for o in patterns)
    for name in ("leaky_relu", "hardtanh"):
        assert _report(plans, name).passed, name


# endregion
# region seeded mistakes: the first mismatch


def _rows(report: CheckReport):
    (outcome,) = [o for o in report.outcomes if any(o.differences)][:1]
    return outcome, outcome.differences[0]


def _bits(text: str) -> int:
    return int(text.split()[0], 16)


def test_a_buffer_overwritten_too_early_gives_the_values_its_bug_computes(
        plans: dict[str, Plan]) -> None:
    """x's f32 copy is overwritten by grad's before the compares: the kernel computes
    hard_sigmoid_grad(grad, x=grad)."""
    report = _report(plans, "shared_scratch")
    assert not report.passed and not report.rules_broken()
    outcome, rows = _rows(report)
    assert outcome.comparisons is not None and outcome.comparisons[0].values.count > 0
    model = OP_REFERENCES[("hard_sigmoid_grad", "torch")]
    for row in rows:
        grad = np.array([_bits(row.inputs[0])], np.uint16).view(np.float16)
        x = np.array([_bits(row.inputs[1])], np.uint16).view(np.float16)
        assert _bits(row.expected) == model(grad, x).view(np.uint16)[0]
        assert _bits(row.actual) == model(grad, grad).view(np.uint16)[0]


def test_a_wrong_cast_mode_gives_truncated_results(plans: dict[str, Plan]) -> None:
    report = _report(plans, "trunc_cast")
    assert not report.rules_broken()
    outcome, rows = _rows(report)
    assert outcome.comparisons is not None
    assert outcome.comparisons[0].values.count == outcome.comparisons[0].mismatches > 0
    for row in rows:
        x = np.float32(np.array([_bits(row.inputs[0])], np.uint16).view(np.float16)[0])
        exact = x if x > 0 else np.float32(x * np.float32(0.2))  # the f32 result
        nearest = np.float16(exact)
        toward_zero = nearest if abs(np.float32(nearest)) <= abs(exact) else \
            np.nextafter(nearest, np.float16(0))
        assert _bits(row.actual) == np.array([toward_zero]).view(np.uint16)[0]
        assert _bits(row.expected) == np.array([nearest]).view(np.uint16)[0]


def test_a_wrong_select_mode_reuses_the_first_repeats_mask(plans: dict[str, Plan]) -> None:
    """VSEL_CMPMASK_SPR: lane i of a chunk takes mask bit i % 64 (f32), so only lanes past the
    first repeat of each chunk can go wrong."""
    report = _report(plans, "select_spr")
    assert not report.rules_broken()
    outcome, rows = _rows(report)
    block_factor, ub_factor = _launch(HARDTANH, outcome.size, "f32")
    for row in rows:
        start = row.index // block_factor * block_factor
        lane = (row.index - start) % ub_factor
        assert lane >= 64
        x = np.array([_bits(row.inputs[0])], np.uint32).view(np.float32)[0]
        assert _bits(row.expected) != _bits(row.actual)
        assert _bits(row.actual) in {np.float32(-0.7).view(np.uint32), x.view(np.uint32)}


def test_a_missing_tail_leaves_output_bytes_unwritten(plans: dict[str, Plan]) -> None:
    report = _report(plans, "missing_tail")
    ((rule, runs),) = report.rules_broken()
    assert rule.category == "output never written" and rule.api == "harness"
    for outcome in runs:
        block_factor, ub_factor = _launch(LEAKY, outcome.size, "f32")
        lengths = [min(block_factor, outcome.size - b * block_factor)
                   for b in range(-(-outcome.size // block_factor))]
        tails = sum(n % ub_factor for n in lengths)
        assert outcome.comparisons is not None and outcome.comparisons[0].mismatches == tails
        (v,) = outcome.violations
        assert v.rule.startswith(f"{4 * tails} of {4 * outcome.size} bytes of output 0 (y)")


# endregion
# region seeded mistakes: the rule broken


def test_a_missing_queue_sync_is_a_race_named_with_its_call(plans: dict[str, Plan]) -> None:
    """No EnQue/DeQue between the copy-in and the compute: MTE2 -> V unsynchronised. The CPU
    runs in program order, so the results are still right, and they are compared."""
    report = _report(plans, "no_input_queue")
    ((rule, runs),) = report.rules_broken()
    assert rule.category == "unsynchronised pipes" and rule.api == "Compares"
    assert "races with an earlier write by MTE2" in rule.rule and "MTE2_V" in rule.rule
    assert len(runs) == len(SOME)
    assert all(o.comparisons and o.comparisons[0].equal for o in report.outcomes)
    assert report.verdict().startswith("FAIL: 0 of 2 runs differ")


def test_a_copy_past_the_tensor_is_a_gm_bound_violation(plans: dict[str, Plan]) -> None:
    report = _report(plans, "full_tail_copy")
    ((rule, runs),) = report.rules_broken()
    assert rule.category == "GM out of bounds" and rule.api == "DataCopyPad"
    assert "outside the GlobalTensor bound" in rule.rule
    assert all(o.comparisons is None for o in runs)  # stopped before writing outputs


def test_a_tiling_too_big_for_the_ub_names_the_buffer_layout(plans: dict[str, Plan]) -> None:
    report = _report(plans, "ub_overflow")
    ((rule, _),) = report.rules_broken()
    assert rule.category == "UB overflow" and rule.api == "TPipe::InitBuffer"
    assert "TQue<VECIN> 2x16384 at offset 0" in rule.rule and f"UB has {UB} bytes" in rule.rule


def test_a_pass_that_is_not_whole_blocks_is_misaligned(plans: dict[str, Plan]) -> None:
    report = _report(plans, "misaligned")
    ((rule, _),) = report.rules_broken()
    assert rule.category == "misalignment" and "not 32-byte aligned" in rule.rule

# endregion
