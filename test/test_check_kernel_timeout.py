"""A kernel that never ends: hswc-check-kernel stops its configuration at the first timeout and
says so in the runs it did not start, instead of waiting the timeout at every size."""

from __future__ import annotations

from pathlib import Path

from hswc.checker.check import check
from hswc.checker.options import CheckOptions

ENDLESS = """
#include "kernel_operator.h"
struct EndlessTiling {
    int64_t totalNum;
    int64_t spin;
};
extern "C" __global__ __aicore__ void endless(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                              GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(EndlessTiling, t, tiling);
    volatile int64_t k = 0;
    while (t.spin != 0) {
        k = k + 1;
    }
}
"""


def test_a_configuration_that_times_out_is_not_run_again(tmp_path: Path) -> None:
    kernel = tmp_path / "endless.cpp"
    kernel.write_text(ENDLESS)
    report = check(CheckOptions(
        kernel=str(kernel), op="hsg.leaky_relu", attrs={"negative_slope": "0.5"},
        tiling={None: ["totalNum=1,spin=1"]}, block_dim=1, dtypes=("f32",),
        sizes=(1, 2, 3, 4), jobs=1, timeout=1.0, build_timeout=600.0))
    first, *rest = report.outcomes
    assert first.timed_out and "did not finish within 1 s" in (first.failure or "")
    assert [o.size for o in rest] == [2, 3, 4]
    assert all(o.skipped and o.failure == "not run: this configuration timed out at n=1"
               for o in rest)
    assert not report.passed
    assert "3 not run after their configuration timed out" in report.verdict()
    assert "n=3         blocks=1    FAILED: not run: this configuration timed out at n=1" in (
        report.format())
