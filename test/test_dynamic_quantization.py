"""Dynamic per-row quantization as torch-mlir exports it: one row kernel of two outputs.

`s = x.abs().amax(-1, keepdim=True) / 127; y = torch.round(x / s).clamp(-128, 127).to(int8)`,
returning `(y, s.squeeze(-1))` (test/fixtures/torch_models/gated/quantize_dynamic_f32, exported
by tools/export_model_fixtures.py with MLIR's execution as its oracle). hswc.row_regions grows
one region over the absolute value, the row max, the division by 127 (a generic over the
(rows, 1) keepdim shape, reading the (rows,) max) and the quantization; its kernel writes the
scale per row (a `row` output, f32) and the int8 elements (an `element` output). Expected
values: MLIR's execution for the export; for larger shapes numpy in f32 (max, one division,
rint's ties to even, clip), computed here independently of hswc.

ops-nn's GeluQuant in its default (dynamic) mode is the same with g = gelu(x) * smooth_scales
in place of x (activation/gelu_quant/README.md: quant_mode "dynamic", approximate "none",
round_mode "rint", maxValue 127 for int8): gated/gelu_quant_dynamic_f32, checked against MLIR's
execution bit for bit and against a float64 model of the README's formula (the scale within
f32's tolerance, y within one step, and equal wherever the float64 quotient is not within 1e-3
of a rounding boundary).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import AUTO_SYNC_OFF, Build, build, tiling_bytes

from hswc import runner, soc_api
from hswc.backend.source import kernel_source
from hswc.remarks import collecting
from hswc.runner import LEVELS

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models"
INDEX = {e["name"]: e for e in json.loads((FIXTURES / "index.json").read_text())["fixtures"]}
ENTRY = INDEX["gated/quantize_dynamic_f32"]
EXPORT = FIXTURES / ENTRY["mlir"]
GELU_ENTRY = INDEX["gated/gelu_quant_dynamic_f32"]
GELU_EXPORT = FIXTURES / GELU_ENTRY["mlir"]


def _oracle(entry: dict[str, str] = ENTRY) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """The inputs (f32), MLIR's int8 y and its f32 scale per row."""
    data = np.load(FIXTURES / entry["npz"])
    inputs = [data[f"in{i}"].view(np.float32) for i in range(len(entry["inputs"]))]
    return inputs, data["out0"], data["out1"].view(np.float32)


def _numpy(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scale = np.abs(x).max(axis=-1) / np.float32(127)
    quotient = x / scale[:, None]
    return np.clip(np.rint(quotient), -128, 127).astype(np.int8), scale


def _export_at(rows: int, length: int) -> str:
    """The export's text for x of (rows, length) instead of (4, 64)."""
    text = EXPORT.read_text()
    text = text.replace("4x64x", f"{rows}x{length}x").replace("4x1x", f"{rows}x1x")
    text = text.replace("tensor<4x", f"tensor<{rows}x")
    return re.sub(r"output_shape \[4, 1\]", f"output_shape [{rows}, 1]", text)


def _inputs(rows: int, length: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, length)) * 3).astype(np.float32)
    x[0, :4] = [127 * 0.25, 0.125, -0.375, 31.625]  # quotients k + 0.5: ties to even
    x[1, :] = 0.0
    x[1, 5] = -2.0  # a row whose largest magnitude is negative: y = -127 there
    return x


def test_the_export_is_one_row_kernel_of_two_outputs() -> None:
    with collecting() as said:
        module = str(runner.compile_file(EXPORT).module)
    assert module.count("hsg.launch") == 1 and "linalg.generic" not in module
    assert 'outputs = ["row", "element"]' in module
    assert re.search(r"hsg\.launch @main_op_kernel_f32_to_f32_i8 .* -> tensor<4x1xf32>, "
                     r"tensor<4x64xi8>", module)
    assert any("becomes a launch of the row kernel" in str(d) for d in said)
    assert not [d for d in said if d.severity == "warning"]


@pytest.mark.parametrize("level", LEVELS)
def test_the_export_equals_mlirs_execution_at_every_level(level: str) -> None:
    (x,), y, scale = _oracle()
    got_y, got_scale = runner.compile_file(EXPORT, level=level, core_num=3).run(x).outputs
    assert got_y.dtype == np.int8 and np.array_equal(got_y, y)
    assert got_scale.dtype == np.float32 and np.array_equal(got_scale, scale)


def test_the_export_equals_mlirs_execution_on_ascend_950() -> None:
    (x,), y, scale = _oracle()
    got_y, got_scale = runner.compile_file(EXPORT, soc="ascend950").run(x).outputs
    assert np.array_equal(got_y, y) and np.array_equal(got_scale, scale)


def test_the_oracle_is_numpys_quantization() -> None:
    """The committed oracle agrees with the numpy model this file checks larger shapes by."""
    (x,), y, scale = _oracle()
    want_y, want_scale = _numpy(x)
    assert np.array_equal(want_y, y) and np.array_equal(want_scale, scale)


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
def test_many_rows_over_several_cores_and_chunks(soc: str) -> None:
    x = _inputs(300, 100, 1)
    kernel = runner.compile_text(_export_at(300, 100), soc=soc, core_num=5, ub_size=65536)
    result = kernel.run(x)
    (record,) = result.tilings
    assert record is not None and record["ubFactor"] < record["blockFactor"]
    got_y, got_scale = result.outputs
    want_y, want_scale = _numpy(x)
    assert np.array_equal(got_scale, want_scale)
    assert np.array_equal(got_y, want_y), np.argwhere(got_y != want_y)[:5]
    assert (got_y[1] == np.where(x[1] == 0, 0, -127)).all()


CPU_ROWS, CPU_LENGTH, CPU_UB = 37, 100, 65536


def _run_on_cpu(kernel: runner.Kernel, soc: str, inputs: list[np.ndarray], rows: int,
                elements: int, tmp_path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's C++ built against the CPU model of AscendC (two GM outputs) and run with
    the tiling the interpreter's launch recorded (several chunks a core): y and the scale."""
    source = tmp_path / "quantize.cpp"
    source.write_text(kernel_source(kernel.module))
    flags = tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"]) \
        if soc == "ascend950" else ()
    made = Build(source, tmp_path / "quantize", (
        *flags, "-DHSWC_KERNEL_ENTRY=main_op", f"-DHSWC_GM_INPUTS={len(inputs)}",
        "-DHSWC_GM_OUTPUTS=2"))
    build([made])
    (record,) = kernel.run(*inputs).tilings
    assert record is not None and record["ubFactor"] < record["blockFactor"]
    tiling = tmp_path / "tiling.bin"
    tiling.write_bytes(tiling_bytes(record))
    command = [str(made.output), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(CPU_UB),
               "--tiling-file", str(tiling)]
    for i, array in enumerate(inputs):
        array.tofile(tmp_path / f"in{i}.bin")
        command += ["--input", str(tmp_path / f"in{i}.bin")]
    command += ["--output", str(tmp_path / "scale.bin"), "--output-bytes", str(rows * 4),
                "--output", str(tmp_path / "y.bin"), "--output-bytes", str(elements),
                *AUTO_SYNC_OFF]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return (np.fromfile(tmp_path / "y.bin", dtype=np.int8),
            np.fromfile(tmp_path / "scale.bin", dtype=np.float32))


@pytest.mark.parametrize("soc", ["ascend910b",
                                 pytest.param("ascend950", marks=pytest.mark.sweep)])
def test_the_cpu_model_runs_the_row_kernel_of_two_outputs(soc: str, tmp_path: Path) -> None:
    """The emitted C++ built against the CPU model of AscendC (two GM outputs) on two cores,
    several chunks each: the scale and y bit for bit as numpy and the interpreter give them."""
    x = _inputs(CPU_ROWS, CPU_LENGTH, 2)
    kernel = runner.compile_text(_export_at(CPU_ROWS, CPU_LENGTH), soc=soc, core_num=2,
                                 ub_size=CPU_UB)
    result = kernel.run(x)
    y, scale = _run_on_cpu(kernel, soc, [x], CPU_ROWS, x.size, tmp_path)
    y = y.reshape(x.shape)
    want_y, want_scale = _numpy(x)
    assert np.array_equal(scale, want_scale) and np.array_equal(y, want_y)
    interpreted_y, interpreted_scale = result.outputs
    assert np.array_equal(interpreted_scale.reshape(-1), scale)
    assert np.array_equal(interpreted_y, y)


# region GeluQuant's dynamic mode


def _gelu_quant_f64(x: np.ndarray, smooth: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """activation/gelu_quant/README.md's dynamic mode in float64: y, the scale per row, and the
    quotient g / scale y rounds."""
    wide = x.astype(np.float64)
    erf = np.vectorize(math.erf)
    g = 0.5 * wide * (1 + erf(wide / math.sqrt(2))) * smooth.astype(np.float64)
    scale = np.abs(g).max(axis=-1) / 127
    quotient = g / scale[:, None]
    return np.clip(np.rint(quotient), -128, 127).astype(np.int8), scale, quotient


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("level", LEVELS)
def test_gelu_quant_equals_mlirs_execution_at_every_level(level: str, soc: str) -> None:
    inputs, y, scale = _oracle(GELU_ENTRY)
    kernel = runner.compile_file(GELU_EXPORT, level=level, soc=soc, core_num=3)
    got_y, got_scale = kernel.run(*inputs).outputs
    assert np.array_equal(got_y, y) and np.array_equal(got_scale, scale)
    if level == "ascend":
        assert str(kernel.module).count("hsg.launch") == 1


def test_gelu_quant_is_the_readmes_formula() -> None:
    """MLIR's execution (and so hswc's) against the float64 formula: the scale within f32's
    tolerance, y one step at most from it, and equal away from rounding boundaries."""
    (x, smooth), y, scale = _oracle(GELU_ENTRY)
    want_y, want_scale, quotient = _gelu_quant_f64(x, smooth)
    assert np.allclose(scale, want_scale, rtol=1.3e-6, atol=1e-5)
    step = np.abs(y.astype(np.int32) - want_y)
    near = np.abs(np.abs(quotient - np.floor(quotient)) - 0.5) < 1e-3
    assert step.max() <= 1 and not step[~near].any()
    assert np.abs(y).max() == 127  # each row's largest magnitude is +-127


@pytest.mark.parametrize("soc", [pytest.param("ascend910b", marks=pytest.mark.sweep),
                                 pytest.param("ascend950", marks=pytest.mark.sweep)])
def test_the_cpu_model_runs_gelu_quant(soc: str, tmp_path: Path) -> None:
    """GeluQuant's dynamic mode for 37 rows of 96 (2 cores, several chunks each) in C++ on the
    CPU model: bit for bit the interpreter's y and scale."""
    rows = 37
    text = GELU_EXPORT.read_text().replace("tensor<8x", f"tensor<{rows}x")
    text = text.replace("output_shape [8, 1]", f"output_shape [{rows}, 1]")
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((rows, 96)) * 3).astype(np.float32)
    smooth = rng.uniform(0.5, 2.0, 96).astype(np.float32)
    kernel = runner.compile_text(text, soc=soc, core_num=2, ub_size=CPU_UB)
    result = kernel.run(x, smooth)
    y, scale = _run_on_cpu(kernel, soc, [x, smooth], rows, x.size, tmp_path)
    interpreted_y, interpreted_scale = result.outputs
    assert np.array_equal(interpreted_scale.reshape(-1), scale)
    assert np.array_equal(interpreted_y.reshape(-1), y)
    want_y, _, _ = _gelu_quant_f64(x, smooth)
    assert np.abs(y.astype(np.int32) - want_y.reshape(-1)).max() <= 1


# endregion


def test_rows_longer_than_the_ub_are_quantized_in_segments() -> None:
    """Rows of 20,000 f32: one row a chunk in segments (hswc.rows), the row's amax in a pass
    of its own, then the int8 y and the scale per row: numpy's quantization exactly."""
    x = _inputs(2, 20000, 3)
    kernel = runner.compile_text(_export_at(2, 20000))
    assert re.search(r"segment = \d+", str(kernel.module))
    got_y, got_scale = kernel.run(x).outputs
    want_y, want_scale = _numpy(x)
    assert np.array_equal(got_y, want_y) and np.array_equal(got_scale, want_scale)
