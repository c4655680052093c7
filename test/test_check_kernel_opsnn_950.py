"""ops-nn's own Ascend 950 kernels on the CPU model, where a checkout of ops-nn is at hand
($HSWC_OPS_NN; opbase as ops-nn's build finds it, e.g. $OPBASE_SOURCE_PATH): activation/swish_grad,
whose arch35 kernel multiplies and adds with MicroAPI::MulDstAdd, now builds and runs, and is
compared with hsg.silu_grad (bench/check_kernel_ops_nn.md has the whole sweep's rows). Skipped
without the checkout; a sweep test (it builds the folder's tiling and kernel: about a minute)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.sweep
def test_swish_grad_950_builds_and_runs_against_silu_grad() -> None:
    ops_nn = Path(os.environ.get("HSWC_OPS_NN", "/nonexistent"))
    folder = ops_nn / "activation" / "swish_grad"
    if not (folder / "op_kernel" / "arch35" / "swish_grad_dag.h").is_file():
        pytest.skip("no ops-nn checkout with activation/swish_grad's arch35 kernel ($HSWC_OPS_NN)")
    run = subprocess.run([sys.executable, "-m", "hswc.tools.hswc_check_kernel", str(folder),
                          "--op", "hsg.silu_grad", "--soc", "ascend950", "--dtypes", "f32",
                          "--sizes", "2048"], capture_output=True, text=True, check=False)
    out = run.stdout + run.stderr
    assert "does not compile" not in out, out
    assert re.search(r"n=2048\s+blocks=\d+\s+(within|OUTSIDE) PyTorch's tolerance", out), out
