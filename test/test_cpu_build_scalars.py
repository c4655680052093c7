"""Kernels with run-time scalars on the CPU model of AscendC (hswc/checker/ascendc_cpu).

The printed C++ of both kernels of test/lit/printer/scalar-arguments.mlir is compiled with g++
-std=c++17 -Wall -Wextra -Werror into test/cpp_fixtures/one_input_driver.cpp, which hands the kernel
its tiling struct as raw bytes, float fields included (hswc/checker/ascendc_cpu/harness.cpp passes
HardSwishGrad's three int64 values only). Each run must match the interpreter bit for bit (NaNs as
NaNs) on the tiling and scalars the interpreter's launch recorded.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import MODEL, REPO, STRICT, compiler, tiling_bytes
from scalar_kernel import scale_shift_module, slope_clip_module

from hswc import runner
from hswc.backend.source import kernel_source

DRIVER = REPO / "test" / "cpp_fixtures" / "one_input_driver.cpp"
UB_BYTES = 196608
KERNELS = {"slope_clip": slope_clip_module(), "scale_shift": scale_shift_module(1.0, 0.0, 0.0)}


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One driver executable per kernel, built in parallel."""
    cxx = compiler()
    directory = tmp_path_factory.mktemp("scalar_kernels")
    jobs = []
    for entry, text in KERNELS.items():
        source = directory / f"{entry}.cpp"
        source.write_text(kernel_source(runner.compile_text(text).module))
        command = [cxx, *STRICT, f"-I{MODEL}", f'-DHSWC_KERNEL_SOURCE="{source}"',
                   f"-DHSWC_KERNEL_ENTRY={entry}", str(DRIVER), "-o", str(directory / entry)]
        jobs.append((entry, subprocess.Popen(command, stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT, text=True)))
    for entry, job in jobs:
        output, _ = job.communicate()
        assert job.returncode == 0, f"{entry} does not compile cleanly:\n{output}"
    return {entry: directory / entry for entry in KERNELS}


def on_cpu(executable: Path, kernel: runner.Kernel, x: np.ndarray, workdir: Path) -> np.ndarray:
    """y of the C++ kernel, launched with the tiling (and scalars) the interpreter's launch
    recorded: the int64 fields, then the floats, as the tiling struct lays them out."""
    (record,) = kernel.run(x).tilings
    assert record is not None
    files = [workdir / name for name in ("tiling.bin", "x.bin", "y.bin")]
    files[0].write_bytes(tiling_bytes(record))
    x.tofile(files[1])
    run = subprocess.run([str(executable), str(record["tilingKey"]), str(record["usedCoreNum"]),
                          str(UB_BYTES), *map(str, files)],
                         capture_output=True, text=True, check=False, timeout=120)
    assert (run.returncode, run.stderr) == (0, "")
    return np.fromfile(files[2], dtype=x.dtype)


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit, any NaN matching any NaN."""
    view = np.uint16 if a.dtype == np.float16 else np.uint32
    nan = np.isnan(a)
    return bool(np.array_equal(nan, np.isnan(b))
                and np.array_equal(a[~nan].view(view), b[~nan].view(view)))


SPECIALS = [0.0, -0.0, 0.5, -1.0, 1.0, 2.0, -3.0, 65504.0, 2.0**-24, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize(("negative_slope", "lambd", "size", "cores"), [
    (0.25, 1.1, 13, 3),
    (0.3, 2.5, 5000, 4),
    (-0.0, 1.0 + 2.0**-11, 300, 2),
    (float("nan"), 0.5, 2049, 1),
])
def test_slope_clip_matches_the_interpreter(executables: dict[str, Path], tmp_path: Path,
                                            negative_slope: float, lambd: float, size: int,
                                            cores: int) -> None:
    rng = np.random.default_rng(size)
    x = (3 * rng.standard_normal(size)).astype(np.float16)
    x[: min(size, len(SPECIALS))] = SPECIALS[: min(size, len(SPECIALS))]
    kernel = runner.compile_text(slope_clip_module(negative_slope, lambd), core_num=cores)
    assert same(on_cpu(executables["slope_clip"], kernel, x, tmp_path), kernel(x))


@pytest.mark.parametrize(("scale", "a", "b"), [
    (2.0, -0.5, -0.0),  # shift +0; minimumf(+0, -0) = -0, negated to +0
    (2.0, -0.5, 0.0),  # minimumf(+0, +0) = +0, negated to -0
    (0.75, 3.0, -1.25),
    (3.0, float("nan"), 1.0),  # NaN through addf, minimumf and the half conversions
    (1e-3, 70000.0, -2.0),  # bias 70002.5 overflows half: -inf
])
def test_scale_shift_matches_the_interpreter(executables: dict[str, Path], tmp_path: Path,
                                             scale: float, a: float, b: float) -> None:
    x = np.resize(np.array(SPECIALS, np.float32), 256)
    x[len(SPECIALS):] = np.linspace(-4, 4, 256 - len(SPECIALS), dtype=np.float32)
    kernel = runner.compile_text(scale_shift_module(scale, a, b))
    assert same(on_cpu(executables["scale_shift"], kernel, x, tmp_path), kernel(x))
