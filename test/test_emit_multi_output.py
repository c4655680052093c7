"""hswc-emit packages kernels of several outputs: torch-mlir's export of `relu(x), x > 0` (an f16
output and a bool mask stored a byte per element), a quantizing body writing an int8 tensor and
its f32 dequantized value, and two f16 outputs of one dtype. Each package declares every output
with its own dtype, its goldens equal values worked out here with numpy (not hswc-run), its
kernel unit tests pass on the CPU model (A2/A3 and, for the mask, Ascend 950), and a flipped
expected bit of the second output fails them."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest
from cpu_build import ARCH35_UT_FLAGS, build_and_run_unit_tests, compiler

from hswc.checker import host_tiling
from hswc.checker.op_folder import folder
from hswc.platform import PLATFORMS
from hswc.runner import compile_file
from hswc.tools.hswc_emit import main as hswc_emit

REPO = Path(__file__).resolve().parents[1]
RELU_MASK = REPO / "test" / "fixtures" / "multi_output" / "relu_and_mask_f16.mlir"

QUANT = """
#map = affine_map<(d0) -> (d0)>
func.func @quant(%x: tensor<?xf32>) -> (tensor<?xi8>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e0 = tensor.empty(%n) : tensor<?xi8>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %q, %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e0, %e1 : tensor<?xi8>, tensor<?xf32>) {
  ^bb0(%i: f32, %o0: i8, %o1: f32):
    %s = arith.constant 8.0 : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %v = arith.mulf %i, %s : f32
    %r0 = math.roundeven %v : f32
    %c1 = arith.maximumf %r0, %lo : f32
    %c2 = arith.minimumf %c1, %hi : f32
    %q = arith.fptosi %c2 : f32 to i8
    %back = arith.sitofp %q : i8 to f32
    %inv = arith.constant 0.125 : f32
    %d = arith.mulf %back, %inv : f32
    linalg.yield %q, %d : i8, f32
  } -> (tensor<?xi8>, tensor<?xf32>)
  return %q, %r : tensor<?xi8>, tensor<?xf32>
}
"""
"""x quantized to int8 at scale 1/8 (rounded to nearest even, clamped), and its value back."""

SUM_PRODUCT = """
#map = affine_map<(d0) -> (d0)>
func.func @sum_product(%x: tensor<?xf16>, %y: tensor<?xf16>) -> (tensor<?xf16>, tensor<?xf16>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf16>
  %e = tensor.empty(%n) : tensor<?xf16>
  %a, %b = linalg.generic {indexing_maps = [#map, #map, #map, #map],
      iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xf16>, tensor<?xf16>) outs(%e, %e : tensor<?xf16>, tensor<?xf16>) {
  ^bb0(%i: f16, %j: f16, %o0: f16, %o1: f16):
    %s = arith.addf %i, %j : f16
    %m = arith.mulf %i, %j : f16
    linalg.yield %s, %m : f16, f16
  } -> (tensor<?xf16>, tensor<?xf16>)
  return %a, %b : tensor<?xf16>, tensor<?xf16>
}
"""


def _emit(out: Path, source: Path, name: str, *socs: str) -> Path:
    args = [str(source), "--name", name, "-o", str(out)]
    for soc in socs:
        args += ["--soc", soc]
    assert hswc_emit(args) == 0
    return out


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, Path]:
    root = tmp_path_factory.mktemp("multi_output")
    (root / "quant.mlir").write_text(QUANT)
    (root / "sum_product.mlir").write_text(SUM_PRODUCT)
    return {
        "mask": _emit(root / "mask", RELU_MASK, "ReluMask"),
        "mask35": _emit(root / "mask35", RELU_MASK, "ReluMask", "ascend910b", "ascend950"),
        "quant": _emit(root / "quant", root / "quant.mlir", "QuantScale"),
        "sum": _emit(root / "sum", root / "sum_product.mlir", "SumProduct"),
    }


def _array(text: str, name: str, bits: type, dtype: type) -> np.ndarray:
    """The vector `name` of a kernel unit test (elements as hex bit patterns)."""
    found = re.search(rf"const std::vector<uint\d+_t> {name} = \{{(.*?)\}};", text, re.S)
    assert found, name
    raw = [int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", found[1])]
    return np.array(raw, bits).view(dtype)


def _floats(text: str, name: str) -> np.ndarray:
    """The float vector `name` of an aclnn example."""
    found = re.search(rf"const std::vector<float> {name} = \{{(.*?)\}};", text)
    assert found, name
    return np.array([float(v.rstrip("f")) for v in found[1].split(", ")], np.float32)


def _relu_and_mask(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The export's semantics: select(x ugt 0, x, 0) (NaN kept), and x ogt 0."""
    relu = np.where((x > 0) | np.isnan(x), x, np.zeros_like(x))
    return relu, x > 0


def test_the_op_definition_declares_each_output_with_its_dtype(
        packages: Mapping[str, Path]) -> None:
    mask = packages["mask"]
    definition = (mask / "op_host/relu_mask_def.cpp").read_text()
    outputs = re.findall(r'this->Output\("(\w+)"\)\s*\.ParamType\(REQUIRED\)\s*'
                         r"\.DataType\(\{([^}]*)\}\)", definition)
    assert outputs == [("y0", "ge::DT_FLOAT16"), ("y1", "ge::DT_BOOL")]
    infer = (mask / "op_host/relu_mask_infershape.cpp").read_text()
    assert "context->SetOutputDataType(0, ge::DT_FLOAT16);  // y0" in infer
    assert "context->SetOutputDataType(1, ge::DT_BOOL);  // y1" in infer
    assert ".InferShape(InferShapeReluMask).InferDataType(InferDataTypeReluMask);" in infer
    quant = (packages["quant"] / "op_host/quant_scale_def.cpp").read_text()
    assert re.findall(r'Output\("(\w+)"\)\s*\.ParamType\(REQUIRED\)\s*\.DataType\(\{([^}]*)\}',
                      quant) == [("q", "ge::DT_INT8"), ("r", "ge::DT_FLOAT")]
    # Outputs of the input's dtype need no InferDataType: GE gives them the input's.
    assert "InferDataType" not in (packages["sum"] / "op_host/sum_product_infershape.cpp"
                                   ).read_text()


def test_op_api_takes_every_output_and_l0op_returns_them_as_a_tuple(
        packages: Mapping[str, Path]) -> None:
    api = packages["mask"] / "op_host/op_api"
    header = (api / "aclnn_relu_mask.h").read_text()
    # cst: the zero the body captures, an attribute of a generic.
    assert re.search(r"aclnnReluMaskGetWorkspaceSize\(const aclTensor\* arg0, const aclScalar\* "
                     r"cst,\s+aclTensor\* out0, aclTensor\* out1, uint64_t\* workspaceSize",
                     header), header
    l0op = (api / "relu_mask.cpp").read_text()
    assert "std::tuple<aclTensor*, aclTensor*> ReluMask(const aclTensor* arg0" in l0op
    assert "AllocTensor(arg0->GetViewShape(), op::DataType::DT_BOOL)" in l0op
    assert "OP_OUTPUT(y0, y1)" in l0op
    aclnn = (api / "aclnn_relu_mask.cpp").read_text()
    for name in ("out0", "out1"):
        assert f"OP_CHECK_NULL({name}, return false);" in aclnn
        assert f"l0op::ViewCopy({name}Result, {name}, uniqueExecutor.get())" in aclnn
    assert "OP_CHECK_DTYPE_NOT_MATCH(out1, op::DataType::DT_BOOL, return false);" in aclnn
    assert "OP_CHECK_SHAPE_NOT_EQUAL(out1, arg0, return false);" in aclnn


def test_goldens_are_relu_and_the_mask(packages: Mapping[str, Path]) -> None:
    text = (packages["mask"] / "tests/ut/op_kernel/test_relu_mask.cpp").read_text()
    x = _array(text, "arg0", np.uint16, np.float16)
    relu, mask = _relu_and_mask(x)
    assert mask.any() and not mask.all()
    assert np.array_equal(_array(text, "expected_y0", np.uint16, np.float16).view(np.uint16),
                          relu.view(np.uint16))
    assert np.array_equal(_array(text, "expected_y1", np.uint8, np.uint8), mask.astype(np.uint8))
    example = (packages["mask"] / "examples/test_aclnn_relu_mask.cpp").read_text()
    x_host = np.array([int(b, 16) for b in re.findall(
        r"0x([0-9a-f]{4}) /\*", re.search(r"ARG0_HOST = \{(.*?)\};", example)[1])],  # type: ignore[index]
        np.uint16).view(np.float16)
    relu, mask = _relu_and_mask(x_host)
    assert np.array_equal(_floats(example, "EXPECTED_Y0"), relu.astype(np.float32))
    assert np.array_equal(_floats(example, "EXPECTED_Y1"), mask.astype(np.float32))
    assert "DeviceTensor<uint8_t, ACL_BOOL> y1;" in example


def test_quantized_goldens_are_numpy_rounding(packages: Mapping[str, Path]) -> None:
    text = (packages["quant"] / "tests/ut/op_kernel/test_quant_scale.cpp").read_text()
    x = _array(text, "x", np.uint32, np.float32)
    q = np.clip(np.round(x * np.float32(8)), -128, 127).astype(np.int8)  # numpy: half to even
    assert np.array_equal(_array(text, "expected_q", np.uint8, np.int8), q)
    assert np.array_equal(_array(text, "expected_r", np.uint32, np.float32),
                          q.astype(np.float32) * np.float32(0.125))


def test_kernel_unit_tests_pass_on_the_cpu_model_and_catch_a_flipped_bit(
        packages: Mapping[str, Path], tmp_path: Path) -> None:
    ut = "tests/ut/op_kernel"
    mask = packages["mask"] / ut / "test_relu_mask.cpp"
    flipped = tmp_path / "test_flipped.cpp"
    text = mask.read_text()
    broken = re.sub(r"(expected_y1 = \{0x0)([01])", lambda m: m[1] + str(1 - int(m[2])), text,
                    count=1)
    assert broken != text
    flipped.write_text(broken.replace('#include "../../../op_kernel/',
                                      f'#include "{packages["mask"]}/op_kernel/'))
    ran = {name: done.stdout for name, done in build_and_run_unit_tests({
        "mask": (mask, ()),
        "mask35": (packages["mask35"] / ut / "test_relu_mask_apt.cpp", ARCH35_UT_FLAGS),
        "quant": (packages["quant"] / ut / "test_quant_scale.cpp", ()),
        "sum": (packages["sum"] / ut / "test_sum_product.cpp", ()),
        "flipped": (flipped, ()),
    }, tmp_path).items()}
    for name in ("mask", "mask35", "quant", "sum"):
        assert ran[name].splitlines()[-1] == "1 passed, 0 failed", f"{name}:\n{ran[name]}"
    assert ran["flipped"].splitlines()[-1] == "0 passed, 1 failed"


def test_host_tiling_takes_the_mask_as_bool_and_tiles_as_the_ir(
        packages: Mapping[str, Path], tmp_path: Path) -> None:
    """op_host's TilingFunc, unchanged, on the CPU model of the tiling context: the mask output
    must be DT_BOOL (12), and the tiling struct is the IR's host tiling's."""
    op = host_tiling.OpDefinition("ReluMask", [("arg0", (1,))], [("y0", (1,)), ("y1", (1,))],
                                  [host_tiling.Attribute("cst", "float", "0.0")])
    built = host_tiling.build(folder(packages["mask"], "ascend910b"), op, {},
                              "ReluMaskTilingData", [], None, None, compiler(), tmp_path)
    platform = PLATFORMS["ascend910b"]

    def tile(mask_dtype: int) -> subprocess.CompletedProcess[str]:
        command = [str(built.executable), "--op", "ReluMask", "--soc", "ascend910b",
                   "--core-num", str(platform.core_num), "--ub-size", str(platform.ub_size),
                   "--input", "1:4x64", "--output", "1:4x64", "--output", f"{mask_dtype}:4x64"]
        for value in built.attributes:
            command += ["--attr", value]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    done = tile(12)
    assert done.returncode == 0 and "status ok" in done.stdout, done.stdout + done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("tiling "))
    struct = bytes.fromhex(line.split()[2])
    fields = [int.from_bytes(struct[8 * i: 8 * i + 8], "little") for i in range(3)]
    (ir,) = compile_file(RELU_MASK, soc="ascend910b").run(np.zeros((4, 64), np.float16)).tilings
    assert ir is not None
    assert fields == [ir["totalNum"], ir["blockFactor"], ir["ubFactor"]]
    assert f"block_dim {ir['usedCoreNum']}" in done.stdout
    refused = tile(1)
    assert refused.returncode != 0
    assert "ReluMask: y1 must be DT_BOOL, the dtype its kernel was compiled for" in refused.stderr
