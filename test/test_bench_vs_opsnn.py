"""bench/bench_vs_opsnn.py on one folder at one size: the fixture op folder
(examples/check_kernel/leaky_relu_op) placed as an ops-nn activation folder, so the sweep maps it to
hsg.leaky_relu. Its ops-nn time is the one `hswc-check-kernel --profile` prints for the same run,
and its hswc time the cost model's for the kernel `hswc-opt --lower-to-ascend` writes, plus the
launch overhead: the bench only puts the two side by side."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hswc.platform import get_platform
from hswc.profiling import profile
from hswc.runner import compile_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_vs_opsnn import folders, run_folder, table  # noqa: E402

FIXTURE = ROOT / "examples" / "check_kernel" / "leaky_relu_op"
SIZE = 1 << 12


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("opsnn")
    shutil.copytree(FIXTURE, root / "activation" / "leaky_relu")
    shutil.copy(FIXTURE.parent / "elementwise_kernel.h", root / "activation")  # its include
    return root


def test_one_folder_side_by_side(tree: Path) -> None:
    assert folders(tree, None) == ["activation/leaky_relu"]
    rows = run_folder(str(tree), "activation/leaky_relu", "ascend950", ("f16",), (12,), 600)
    assert len(rows) == 1
    row = rows[0]
    assert (row.op, row.soc, row.dtype, row.size, row.check) == (
        "hsg.leaky_relu", "ascend950", "f16", SIZE, "pass")
    assert row.opsnn_us is not None and row.hswc_us is not None, row.note

    done = subprocess.run(
        ["hswc-check-kernel", str(tree / "activation" / "leaky_relu"), "--op", "hsg.leaky_relu",
         "--soc", "ascend950", "--dtypes", "f16", "--sizes", str(SIZE), "--profile"],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    m = re.match(r"modelled: ([\d.]+) us", done.stdout.splitlines()[-1])
    assert m is not None, done.stdout
    assert row.opsnn_us == pytest.approx(float(m.group(1)), abs=0.006)

    from bench_vs_opsnn import hswc_module

    # the fixture's definition gives LeakyRelu's slope the default 0.0 (hswc.checker.op_dir)
    module = hswc_module("hsg.leaky_relu", {"negative_slope": 0.0}, "f16", None)
    lowered = compile_module(module, soc="ascend950").module
    platform = get_platform("ascend950")
    mine = profile(lowered, SIZE, platform=platform).total_time
    launch = platform.cost.seconds(platform.cost.launch_cycles)
    assert row.hswc_us == pytest.approx((mine + launch) * 1e6)
    assert row.ratio == pytest.approx(row.hswc_us / row.opsnn_us)
    assert (row.note != "") == (row.ratio > 1.0)
    assert "| activation/leaky_relu | hsg.leaky_relu | ascend950 | f16 | 2^12 | pass |" in \
        table(rows)


def test_a_folder_the_sweep_does_not_time_is_refused(tree: Path) -> None:
    with pytest.raises(SystemExit, match="not a folder the sweep times: activation/relu"):
        folders(tree, ["activation/relu"])
