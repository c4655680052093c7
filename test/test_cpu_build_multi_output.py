"""A kernel of three outputs (f16, f32 and an i1 stored a byte per element) in C++: the emitted
kernel, compiled with g++ -Wall -Wextra -Werror against the CPU model of AscendC
(hswc/checker/ascendc_cpu, three GM outputs), writes bit for bit what the interpreter gives,
and what numpy gives, on several cores and several UB chunks per core."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import AUTO_SYNC_OFF, Build, build, tiling_bytes
from test_multi_output import TWO_OUTS

from hswc import runner
from hswc.backend.source import kernel_source

SHAPE = "37x129"
TEXT = TWO_OUTS.replace("2x3", SHAPE)
CORES, UB = 5, 16384
"""Several cores, several chunks each (4773 elements, 27 bytes of UB per element)."""


@pytest.fixture(scope="module")
def executable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("multi_output_cpu_build")
    source = directory / "two.cpp"
    source.write_text(kernel_source(runner.compile_text(TEXT).module))
    made = Build(source, directory / "two",
                 ("-DHSWC_KERNEL_ENTRY=two", "-DHSWC_GM_INPUTS=1", "-DHSWC_GM_OUTPUTS=3"))
    build([made])
    return made.output


def test_three_outputs_on_the_cpu_model(executable: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((37, 129)) * 4).astype(np.float16)
    x.flat[:4] = [0.0, -0.0, np.inf, np.nan]
    kernel = runner.compile_text(TEXT, core_num=CORES, ub_size=UB)
    result = kernel.run(x)
    (record,) = result.tilings
    assert record is not None and record["usedCoreNum"] == CORES
    assert record["ubFactor"] < record["blockFactor"]  # several chunks per core
    tiling = tmp_path / "tiling.bin"
    tiling.write_bytes(tiling_bytes(record))
    np.ascontiguousarray(x).tofile(tmp_path / "x.bin")
    dtypes = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int8)]
    command = [str(executable), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(UB),
               "--tiling-file", str(tiling), "--input", str(tmp_path / "x.bin")]
    for i, dtype in enumerate(dtypes):
        command += ["--output", str(tmp_path / f"y{i}.bin"),
                    "--output-bytes", str(x.size * dtype.itemsize)]
    done = subprocess.run([*command, *AUTO_SYNC_OFF], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    relu, wide, pos = (np.fromfile(tmp_path / f"y{i}.bin", dtype=d).reshape(x.shape)
                       for i, d in enumerate(dtypes))
    assert set(np.unique(pos)) <= {0, 1}  # a bool's byte
    got = (relu, wide, pos.astype(np.bool_))
    for mine, theirs in zip(got, result.outputs, strict=True):
        assert mine.dtype == theirs.dtype
        assert np.array_equal(mine.view(np.uint8), np.asarray(theirs).view(np.uint8))
    with np.errstate(invalid="ignore"):
        assert np.array_equal(relu[1:], np.maximum(x, np.float16(0))[1:])
        assert np.array_equal(wide, x.astype(np.float32) * np.float32(3), equal_nan=True)
        assert np.array_equal(pos.astype(np.bool_), x > 0)
