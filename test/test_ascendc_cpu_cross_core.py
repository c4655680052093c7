"""The CPU model's cross-core calls: SyncAll (every core waits for the others; the cores run in
block order between barriers) and SetAtomicAdd / SetAtomicNone (a copy to GM adds to what GM
holds, rounded once in T), on test/cpp_fixtures/cross_core_fixture.cpp, against hand-checked
values; and hswc-check-kernel checking a kernel that needs both against its generic (y = x + x)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from hswc.checker.build import MODEL
from hswc.checker.check import check
from hswc.checker.options import CheckOptions

FIXTURE = Path(__file__).parent / "cpp_fixtures" / "cross_core_fixture.cpp"
DOUBLE = """func.func @double(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
"""
TILING = """def tiling(total, core_num, ub_size, dtype):
    cores = min(4, total)
    factor = -(-total // cores)
    cores = -(-total // factor)
    return {"totalNum": total, "blockFactor": factor, "mode": 0, "block_dim": cores,
            "workspace": 4 * total}
"""


@pytest.fixture(scope="module")
def sum_kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """cross_core_sum built for half (instance 0), float (1) and int32_t (2)."""
    exe = tmp_path_factory.mktemp("cross_core") / "cross_core_sum"
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", str(MODEL),
                    f"-DHSWC_KERNEL_SOURCE=\"{FIXTURE}\"", "-DHSWC_KERNEL_ENTRY=cross_core_sum",
                    "-DHSWC_GM_INPUTS=1", "-DHSWC_GM_OUTPUTS=1",
                    "-DHSWC_KERNEL_INSTANCES=HSWC_INSTANCE(0, half) HSWC_INSTANCE(1, float) "
                    "HSWC_INSTANCE(2, int32_t)",
                    str(MODEL / "harness.cpp"), "-o", str(exe)], check=True)
    return exe


def _sum(exe: Path, tmp_path: Path, x: np.ndarray, cores: int, mode: int = 0
         ) -> subprocess.CompletedProcess[str]:
    factor = x.size // cores
    (tmp_path / "x.bin").write_bytes(x.tobytes())
    instance = {np.dtype(np.float16): "0", np.dtype(np.float32): "1", np.dtype(np.int32): "2"}
    return subprocess.run([str(exe), "--tiling-key", "0", "--instance", instance[x.dtype],
                           "--block-dim", str(cores),
                           "--ub-size", "196608", "--tiling", f"{x.size},{factor},{mode}",
                           "--input", str(tmp_path / "x.bin"), "--output", str(tmp_path / "y.bin"),
                           "--output-bytes", str(factor * x.itemsize)],
                          capture_output=True, text=True, check=False)


@pytest.mark.parametrize(("parts", "expected"), [
    # 2048 + 1 is a tie in half: to even, 2048; + 1 again, 2048 (block order 0, 1, 2)
    ((2048.0, 1.0, 1.0), 2048.0),
    # 1 + 1 = 2, 2 + 2048 = 2050 exactly
    ((1.0, 1.0, 2048.0), 2050.0),
    # 65504 + 8 rounds back to 65504, twice; 65504 + 16 = 65520 is the tie with 2^16: inf
    ((65504.0, 8.0, 8.0), 65504.0),
    ((65504.0, 16.0, 0.0), np.inf),
])
def test_atomic_adds_round_once_in_block_order(sum_kernel: Path, tmp_path: Path,
                                               parts: tuple[float, ...], expected: float) -> None:
    x = np.repeat(np.array(parts, np.float16), 16)
    done = _sum(sum_kernel, tmp_path, x, cores=3)
    assert done.returncode == 0, done.stderr
    y = np.frombuffer((tmp_path / "y.bin").read_bytes(), np.float16)
    assert y.tolist() == [expected] * 16


def test_atomic_adds_of_floats(sum_kernel: Path, tmp_path: Path) -> None:
    """2^24 + 1 is a tie in f32 (to even: 2^24), twice; the other lanes exact."""
    x = np.array([[2.0 ** 24] * 8, [1.0] * 8, [1.0] * 8, [0.5] * 8], np.float32)
    x[0, 1] = 3.0
    done = _sum(sum_kernel, tmp_path, x.ravel(), cores=4)
    assert done.returncode == 0, done.stderr
    y = np.frombuffer((tmp_path / "y.bin").read_bytes(), np.float32)
    assert y.tolist() == [2.0 ** 24, 5.5] + [2.0 ** 24] * 6


def test_a_core_ending_before_a_sync_all_others_reach_is_a_hang(sum_kernel: Path,
                                                                tmp_path: Path) -> None:
    lines = FIXTURE.read_text().splitlines()
    barrier = max(i for i, line in enumerate(lines, 1) if line.strip() == "SyncAll();")
    x = np.ones(48, np.float16)
    done = _sum(sum_kernel, tmp_path, x, cores=3, mode=1)
    assert done.returncode == 3
    assert done.stderr.strip().splitlines() == [
        f"ascendc_cpu: SyncAll: block 1 ended its kernel without reaching this SyncAll "
        f"({FIXTURE}:{barrier}): the device hangs here [block 2]"]
    done = _sum(sum_kernel, tmp_path, x, cores=3, mode=2)
    assert done.returncode == 3
    assert ("block 0 waits at a SyncAll that block 2 ended its kernel without reaching"
            in done.stderr)


def test_one_core_passes_its_sync_all(sum_kernel: Path, tmp_path: Path) -> None:
    x = np.full(16, 3.0, np.float16)
    done = _sum(sum_kernel, tmp_path, x, cores=1)
    assert done.returncode == 0, done.stderr
    assert np.frombuffer((tmp_path / "y.bin").read_bytes(), np.float16).tolist() == [3.0] * 16


def test_check_kernel_runs_a_kernel_needing_sync_all_and_atomics(tmp_path: Path) -> None:
    """Core b reads the workspace slice core b + 1 zeroed and filled before the barriers: y = 2x
    only if every core waits for the others."""
    (tmp_path / "double.mlir").write_text(DOUBLE)
    (tmp_path / "cc_tiling.py").write_text(TILING)
    options = CheckOptions(kernel=str(FIXTURE), reference=str(tmp_path / "double.mlir"),
                           tiling_function=f"{tmp_path / 'cc_tiling.py'}:tiling",
                           entry="cross_core_double", dtypes=("f32",), sizes=(1, 3, 100, 4099),
                           jobs=1, template_args={None: ("float",)})
    report = check(options)
    assert report.passed, report.format()
    assert {o.size for o in report.outcomes} == {1, 3, 100, 4099}


def test_a_usage_error_on_a_cores_thread_ends_the_run(sum_kernel: Path, tmp_path: Path) -> None:
    """--instance out of range is found when core 0 launches, while cores 1 and 2 wait for
    their turn on their threads: the run ends with status 2 at once (it once hung in exit)."""
    (tmp_path / "x.bin").write_bytes(np.ones(48, np.float16).tobytes())
    done = subprocess.run([str(sum_kernel), "--tiling-key", "0", "--instance", "7", "--block-dim",
                           "3", "--ub-size", "196608", "--tiling", "48,16,0", "--input",
                           str(tmp_path / "x.bin"), "--output", str(tmp_path / "y.bin"),
                           "--output-bytes", "32"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2
    assert "--instance 7 is not below the 3 entries of HSWC_KERNEL_INSTANCES" in done.stderr


def test_an_integer_atomic_add_is_refused_when_it_runs(sum_kernel: Path, tmp_path: Path) -> None:
    """SetAtomicAdd<int32_t> is documented; its overflow is not: the copy that would accumulate
    is refused (the SetAtomicAdd itself compiles and runs)."""
    done = _sum(sum_kernel, tmp_path, np.ones(24, np.int32), cores=3)
    assert done.returncode == 3
    assert done.stderr.strip() == ("ascendc_cpu: DataCopyPad: SetAtomicAdd<int32_t>: an integer "
                                   "accumulation is not modelled (its overflow is not "
                                   "documented) [block 0]")
