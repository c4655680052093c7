"""The cost model of a row kernel of a run-time row length (hswc.rows `dynamic`): it is timed
at the row length it is given (hswc.profiling.profile.profile_kernel's `row_length`, a run's
own through hswc-run --profile), which only it takes; and its schedule is the cost model's
choice over issue 36's lengths (hswc.passes.row_schedule_choice.DYNAMIC_LENGTHS)."""


from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from hswc.pipeline import parse_text
from hswc.platform import get_platform
from hswc.profiling.profile import lower, named_schedule, profile, profile_kernel
from hswc.rows import read_rows
from hswc.runner import compile_text

SOFTMAX = """
func.func @softmax(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
"""
STATIC = SOFTMAX.replace("?x?", "96x1000")
ROWS = 96


def _kernel(module: ModuleOp) -> func.FuncOp:
    """The row kernel; of a run-time row length, its segmented branch (hswc.passes.row_branches:
    the one in segments, which these tests time at every length)."""
    return next(f for f in module.walk() if isinstance(f, func.FuncOp)
                and (rows := read_rows(f)) is not None
                and (not rows.dynamic or rows.segment is not None))


@pytest.fixture(scope="module")
def reference() -> ModuleOp:
    """`?x?` softmax lowered with the reference schedule (depth-1 queues, online: the row read
    twice from GM, a max-and-sum pass and the output's)."""
    return lower(parse_text(SOFTMAX, "<test>"), named_schedule("reference"))


@pytest.mark.parametrize("length", [7, 1000, 4100])
def test_a_run_time_row_length_is_timed_at_the_length_given(reference: ModuleOp,
                                                            length: int) -> None:
    kernel = _kernel(reference)
    rows = read_rows(kernel)
    assert rows is not None and rows.dynamic and rows.online
    platform = get_platform("ascend910b")
    report = profile_kernel(reference, kernel, ROWS, platform, platform.cost, row_length=length)
    # By hand: online softmax reads each f16 row twice (the max-and-sum pass, the output's)
    # and writes it once, `length` elements each time, whatever its padded segment.
    assert report.gm_bytes == 3 * 2 * ROWS * length
    assert report.total_time > 0


def test_longer_rows_take_longer(reference: ModuleOp) -> None:
    times = [profile(reference, ROWS, row_length=n).total_time for n in (4000, 8000, 12000)]
    assert times[0] < times[1] < times[2]  # one, two and three segments of 4096 a row


def test_the_row_length_is_asked_for_only_where_a_kernel_takes_one(reference: ModuleOp) -> None:
    platform = get_platform("ascend910b")
    with pytest.raises(ValueError, match=r"takes its row length at run time: give the row "
                       "length to model it at"):
        profile_kernel(reference, _kernel(reference), ROWS, platform, platform.cost)
    with pytest.raises(ValueError, match="a row length is not negative, got -1"):
        profile_kernel(reference, _kernel(reference), ROWS, platform, platform.cost,
                       row_length=-1)
    static = compile_text(STATIC).module
    with pytest.raises(ValueError, match="has no run-time row length to give 1000 to"):
        profile(static, ROWS, row_length=1000)


def test_hswc_run_profiles_a_run_time_row_length_at_the_run_s_own(tmp_path: Path) -> None:
    source = tmp_path / "softmax.mlir"
    source.write_text(SOFTMAX)
    x = tmp_path / "x.npy"
    np.save(x, np.random.default_rng(0).standard_normal((ROWS, 1000)).astype(np.float16))
    done = subprocess.run([sys.executable, "-m", "hswc.tools.hswc_run", str(source), "--input",
                           str(x), "--profile"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr
    # Whichever schedule the cost model chose reads x once or twice a pass: at least the
    # row's bytes twice (x once, y once), each 1000 elements a row, not a segment's 4096.
    traffic = int(done.stdout.split("GM traffic ")[1].split(" B")[0])
    assert traffic % (2 * ROWS * 1000) == 0 and traffic >= 2 * 2 * ROWS * 1000


def test_the_dynamic_kernel_s_schedule_is_chosen_faster_on_long_rows(reference: ModuleOp) -> None:
    chosen = lower(parse_text(SOFTMAX, "<test>"))
    kernel = _kernel(chosen)
    assert "hsg.schedule" in kernel.attributes  # the cost model's choice, named on the kernel
    platform = get_platform("ascend910b")
    rows = (1 << 20) // 8192

    def time(module: ModuleOp) -> float:
        return profile_kernel(module, _kernel(module), rows, platform, platform.cost,
                              row_length=8192).total_time

    # Modelled (bench/bench_dynamic_rows.py): the fast schedule's double-buffered queues
    # overlap the two segments' copies with the vector work the reference serialises.
    assert time(chosen) < 0.9 * time(reference)
