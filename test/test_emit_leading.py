"""hswc-emit packages a reduction over leading dims (issue 36: `x.sum(dim=(0, 2, 3))`) as one
row kernel whose rows are strided runs, a channel a core: hswc-emit lowers with
hsg-tile-on-cores{split=false}, since the split for few channels (hswc.passes.row_split) is two
kernels passing a workspace of partials, which one package does not hold; a module given lowered
with the split is refused with one message, and nothing is written.

Checked: torch-mlir's export (test/fixtures/torch_models/reductions/sum_dims023_*) packaged
for Atlas A2/A3 and Ascend 950; the tiling counts the channels; the unit test's goldens (hswc-run's)
equal a float64 sum of its inputs rounded once (f32: within PyTorch's tolerance); the kernel
unit test passes on the CPU model of AscendC. A row kernel whose outputs differ in shape (a row
output and an element one: dynamic quantization, MobileNet's BatchNorm backward) is packaged
with each output at its own shape (at a run-time row count too, each run-time dim x's); a lane
kernel whose columns are not a multiple of 64 (its groups' last row narrower) is packaged with
its rows counted by whole groups.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import (
    ARCH35_UT_FLAGS,
    REPO,
    build_and_run_unit_tests,
    build_unit_test,
    compiler,
)
from family_packages import unit_test_array

from hswc.platform import PLATFORMS
from hswc.reference import compare_tolerance
from hswc.tools.hswc_emit import main as emit
from hswc.tools.hswc_opt import main as opt

FIXTURES = REPO / "test" / "fixtures" / "torch_models" / "reductions"
SHAPE = (2, 8, 4, 4)
"""The fixtures' x: 8 channels of 2 runs of 16."""


@pytest.mark.parametrize(("dtype", "soc"), [("f32", "ascend910b"), ("f16", "ascend950")])
def test_a_sum_over_n_h_w_is_one_strided_kernel_whose_unit_test_passes(
        dtype: str, soc: str, tmp_path: Path) -> None:
    out = tmp_path / "sum_nhw"
    assert emit([str(FIXTURES / f"sum_dims023_{dtype}.mlir"), "--name", "SumNhw", "--soc", soc,
                 "-o", str(out)]) == 0
    suffix = "_apt" if soc == "ascend950" else ""
    kernel = (out / "op_kernel" / ("arch35/" if suffix else "") / "sum_nhw.h").read_text()
    assert "partial" not in kernel.lower()
    source = out / "tests" / "ut" / "op_kernel" / f"test_sum_nhw{suffix}.cpp"
    test = source.read_text()
    assert "tiling.totalNum = 8;" in test  # a row a channel
    x = unit_test_array(test, "arg0", dtype).reshape(SHAPE)
    expected = unit_test_array(test, "expected", dtype)
    exact = x.astype(np.float64).sum(axis=(0, 2, 3))
    assert compare_tolerance(expected, exact.astype(expected.dtype)).equal
    arch35 = ("-DASCENDC_CPU_DAV_3510", f"-DHSWC_UT_UB_BYTES={PLATFORMS['ascend950'].ub_size}")
    build_unit_test(source, tmp_path / "ut", arch35 if soc == "ascend950" else ())
    done = subprocess.run([str(tmp_path / "ut")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr


def test_a_module_lowered_with_the_split_is_refused_naming_its_partial_kernel(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lowered = tmp_path / "lowered.mlir"  # a schedule given: the split by its rule, no model
    assert opt([str(FIXTURES / "sum_dims023_f32.mlir"), "-p",
                "hsg-tile-on-cores{variant=reference}", "--lower-to-ascend",
                "-o", str(lowered)]) == 0
    assert "hsg.partial" in lowered.read_text()
    capsys.readouterr()
    out = tmp_path / "package"
    assert emit([str(lowered), "--name", "SumNhw", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert ("hswc-emit: error: @main_op_partial_kernel_f32 is the first of the two kernels of "
            "a reduction over leading dims split for the cores") in err
    assert "hswc-opt -p 'hsg-tile-on-cores{split=false}' --lower-to-ascend" in err
    assert not out.exists()
    unsplit = tmp_path / "unsplit.mlir"
    assert opt([str(FIXTURES / "sum_dims023_f32.mlir"), "-p",
                "hsg-tile-on-cores{split=false}", "--lower-to-ascend", "-o", str(unsplit)]) == 0
    assert "hsg.partial" not in unsplit.read_text()
    assert emit([str(unsplit), "--name", "SumNhw", "-o", str(out)]) == 0


def _int8_array(body: str, name: str) -> np.ndarray:
    """The int8 array `name` of a kernel unit test's body (its elements as byte patterns)."""
    values = re.search(rf"const std::vector<uint8_t> {name} = \{{(.*?)\}};", body, re.S)
    assert values, name
    return np.array([int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", values[1])],
                    np.uint8).view(np.int8)


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
def test_dynamic_quantization_is_packaged_each_output_at_its_own_shape(
        soc: str, tmp_path: Path) -> None:
    """Dynamic per-row quantization (torch-mlir's export: the f32 scale a row, {4, 1}, and the
    int8 y, {4, 64}) is one row kernel whose outputs differ in shape: InferShape, the l0op
    launcher and the aclnn checks give each its own shape; the unit test's goldens equal numpy
    (the row's max |x| / 127, then rint(x / scale) clipped to int8), and the kernel unit test
    passes on the CPU model bit for bit (the goldens are hswc-run's)."""
    fixture = REPO / "test" / "fixtures" / "torch_models" / "gated" / "quantize_dynamic_f32.mlir"
    out = tmp_path / "quant"
    assert emit([str(fixture), "--name", "QuantDyn", "--soc", soc, "-o", str(out)]) == 0
    infer = (out / "op_host" / "quant_dyn_infershape.cpp").read_text()
    assert "*y0Shape = gert::Shape({4, 1});" in infer and \
        "*y1Shape = gert::Shape({4, 64});" in infer, infer
    l0op = (out / "op_host" / "op_api" / "quant_dyn.cpp").read_text()
    assert "AllocTensor(op::Shape({4, 1}), op::DataType::DT_FLOAT)" in l0op, l0op
    assert "AllocTensor(op::Shape({4, 64}), op::DataType::DT_INT8)" in l0op, l0op
    aclnn = (out / "op_host" / "op_api" / "aclnn_quant_dyn.cpp").read_text()
    assert "HasShape(out0, {4, 1})" in aclnn and "HasShape(out1, {4, 64})" in aclnn, aclnn
    example = (out / "examples" / "test_aclnn_quant_dyn.cpp").read_text()
    assert "std::vector<int8_t>(EXPECTED_Y1.size()), Y1_SHAPE)" in example
    suffix = "_apt" if soc == "ascend950" else ""
    source = out / "tests" / "ut" / "op_kernel" / f"test_quant_dyn{suffix}.cpp"
    test = source.read_text()
    x = unit_test_array(test, "arg0", "f32").reshape(4, 64)
    scale = np.abs(x).max(axis=-1) / np.float32(127)
    y = np.clip(np.rint(x / scale[:, None]), -128, 127).astype(np.int8)
    assert np.array_equal(unit_test_array(test, "expected_y0", "f32"), scale)
    assert np.array_equal(_int8_array(test, "expected_y1"), y.reshape(-1))
    flags = ARCH35_UT_FLAGS if soc == "ascend950" else ()
    built = tmp_path / "built"
    built.mkdir()
    done = build_and_run_unit_tests({"quant_ut": (source, flags)}, built)["quant_ut"]
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr


def test_the_batchnorm_backward_kernels_are_packaged_in_their_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """MobileNet's BatchNorm backward fuses two sums a channel ({8}) and the input gradient
    ({2, 8, 8, 8}) into one leading-axis row kernel: its whole model's package (A2/A3) gives
    each output its own shape. The convolution's weight gradient summed over the batch
    ({2, 8, 3, 3, 3} -> {8, 3, 3, 3}) is a lane kernel over 216 columns: rows of 64 lanes, 4
    to a group, the last 24 wide (hswc.rows: Lanes, `tail`), so its host tiling counts whole
    groups: 216 elements / 216 * 4 = 4 rows. Both kernel unit tests pass on the CPU model (bit
    for bit with hswc-run's goldens), and the lane kernel's goldens meet a float64 sum over
    the batch rounded once (PyTorch's tolerance)."""
    model = (REPO / "test" / "fixtures" / "torch_models" / "models"
             / "mobilenet_conv_bn_hardswish_conv_backward_f32.mlir")
    whole = tmp_path / "model"
    assert emit([str(model), "-o", str(whole)]) == 0
    assert "no package" not in capsys.readouterr().err
    entries = json.loads((whole / "index.json").read_text())["packages"]
    assert [e["not_packaged"] for e in entries] == [None, None]
    assert entries[0]["regions"][0]["outputs"] == ["8xf32", "8xf32", "2x8x8x8xf32"]
    stem = entries[0]["package"]
    infer = (whole / stem / "op_host" / f"{stem}_infershape.cpp").read_text()
    assert [line.strip() for line in infer.splitlines() if "Shape = gert::Shape(" in line] == [
        "*y0Shape = gert::Shape({8});", "*y1Shape = gert::Shape({8});",
        "*y2Shape = gert::Shape({2, 8, 8, 8});"]
    lanes = entries[1]["package"]
    (region,) = entries[1]["regions"]
    assert (region["inputs"], region["outputs"]) == (["2x8x3x3x3xf32"], ["8x3x3x3xf32"])
    assert (region["tiling"]["totalNum"], region["tiling"]["usedCoreNum"]) == (4, 4)
    tiling = (whole / lanes / "op_host" / f"{lanes}_tiling.cpp").read_text()
    assert "computeTiling(shape.GetShapeSize() / 216 * 4, coreNum," in tiling
    ut = Path("tests") / "ut" / "op_kernel"
    test = (whole / lanes / ut / f"test_{lanes}.cpp").read_text()
    assert "tiling.totalNum = 4;" in test and "tilingData.totalNum / 4 * 216" in test
    x = unit_test_array(test, "transposed", "f32").reshape(2, 216)
    expected = unit_test_array(test, "expected", "f32")
    exact = x.astype(np.float64).sum(axis=0).astype(np.float32)
    assert compare_tolerance(expected, exact).equal
    # Packaged alone for Ascend 950 (`--function main --name BnBackward`) no more: the file
    # holds two kernels, and --name names a file's one operator.
    built = tmp_path / "built"
    built.mkdir()
    ran = build_and_run_unit_tests({
        name: (whole / name / ut / f"test_{name}.cpp", ()) for name in (stem, lanes)}, built)
    for name, done in ran.items():
        assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", f"{name}:\n{done.stdout}"


def test_outputs_of_different_shapes_at_a_run_time_row_count_are_packaged(
        tmp_path: Path) -> None:
    """A keepdim row maximum of |x| (m, {?, 1}) and x scaled by it (y, {?, 32}) over x
    {?, 32}: one row kernel of a run-time row count whose outputs differ in shape. InferShape,
    the aclnn checks and the l0op launcher give each output its own shape, its run-time dim
    x's dim 0; the host tiling counts x's rows (the first output's elements, one a row) and
    refuses an x of another row length naming the dim. The unit test's goldens equal numpy's
    (m = max |x| a row, y = x / m), and the kernel unit test passes on the CPU model; the host
    tiling, unchanged, on the CPU model of the tiling context gives totalNum 1, 37 and 1000 for
    1, 37 and 1000 rows (one row a core on 48 cores, then 21 a core)."""
    from test_dynamic_rows import TWO_OUTPUTS

    from hswc.checker import host_tiling
    from hswc.checker.op_folder import folder

    source = tmp_path / "two.mlir"
    source.write_text(TWO_OUTPUTS)
    out = tmp_path / "two"
    assert emit([str(source), "--name", "TwoOut", "-o", str(out)]) == 0
    infer = (out / "op_host" / "two_out_infershape.cpp").read_text()
    assert "*mShape = gert::Shape({(*xShape).GetDim(0), 1});" in infer, infer
    assert "*yShape = gert::Shape({(*xShape).GetDim(0), 32});" in infer, infer
    aclnn = (out / "op_host" / "op_api" / "aclnn_two_out.cpp").read_text()
    assert "HasShape(out0, {x->GetViewShape().GetDim(0), 1})" in aclnn, aclnn
    assert "HasShape(out1, {x->GetViewShape().GetDim(0), 32})" in aclnn, aclnn
    l0op = (out / "op_host" / "op_api" / "two_out.cpp").read_text()
    assert "AllocTensor(op::Shape({x->GetViewShape().GetDim(0), 1}), " in l0op, l0op
    tiling = (out / "op_host" / "two_out_tiling.cpp").read_text()
    assert "const gert::Shape shape({xDims.GetDim(0), 1});" in tiling, tiling
    assert "computeTiling(shape.GetShapeSize(), coreNum," in tiling
    source_ut = out / "tests" / "ut" / "op_kernel" / "test_two_out.cpp"
    test = source_ut.read_text()
    x = unit_test_array(test, "x", "f32").reshape(-1, 32)
    m = np.abs(x).max(axis=-1, keepdims=True)
    assert np.array_equal(unit_test_array(test, "expected_m", "f32"), m.reshape(-1))
    assert np.array_equal(unit_test_array(test, "expected_y", "f32"), (x / m).reshape(-1))
    built = tmp_path / "built"
    built.mkdir()
    done = build_and_run_unit_tests({"two_ut": (source_ut, ())}, built)["two_ut"]
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr
    op = host_tiling.OpDefinition("TwoOut", [("x", (1,))], [("m", (1,)), ("y", (1,))])
    tiler = host_tiling.build(folder(out, "ascend910b"), op, {}, "TwoOutTilingData", [], None,
                              None, compiler(), tmp_path)

    def tile(rows: int, length: int = 32) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(tiler.executable), "--op", "TwoOut", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608",
                               "--input", f"0:{rows}x{length}", "--output", f"0:{rows}x1",
                               "--output", f"0:{rows}x{length}"],
                              capture_output=True, text=True, timeout=60, check=False)

    for rows, per_core in ((1, 1), (37, 1), (1000, 21)):
        done = tile(rows)
        assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
        hex_bytes = next(line.split()[2] for line in done.stdout.splitlines()
                         if line.startswith("tiling "))
        total, block = np.frombuffer(bytes.fromhex(hex_bytes), "<i8")[:2]
        assert (total, block) == (rows, per_core)
    done = tile(5, 31)
    assert done.returncode != 0 and "status failed" in done.stdout
    assert "TwoOut: dim 1 of x must be 32" in done.stderr, done.stderr
