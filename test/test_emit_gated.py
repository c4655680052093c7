"""A gated op's package takes x once, as ops-nn's glu / swi_glu / ge_glu_v2 do (GeGluV2's two
outputs, y and gelu, in its definition's order; GluGrad's one dx, `out`): its kernel reads
the two halves of x through two GM arguments, and the package's op definition, kernel entry,
aclnn API, example and unit tests have one input x, which the entry passes to both. The goldens
equal numpy's SwiGLU and GLU backward (within PyTorch's tolerances: they are hswc-run's), and
the kernel unit tests pass on the CPU model for Atlas A2/A3 and Ascend 950."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest
from cpu_build import ARCH35_UT_FLAGS, build_and_run_unit_tests

from hswc.tools.hswc_emit import main as hswc_emit

REPO = Path(__file__).resolve().parents[1]

SWI_GLU = """
func.func @f(%x: tensor<4x128xf16>) -> tensor<4x64xf16> {
  %y = hsg.swi_glu %x {dim = -1 : i64} : tensor<4x128xf16>
  return %y : tensor<4x64xf16>
}
"""
GLU_GRAD = """
func.func @f(%g: tensor<4x64xf32>, %x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %out = hsg.glu_grad %g, %x {dim = -1 : i64} : tensor<4x64xf32>, tensor<4x128xf32>
  return %out : tensor<4x128xf32>
}
"""
"""Its kernel writes the two halves of dx into one output `out` (ops-nn's GluGrad,
op_host/glu_grad_def.cpp: one output), each at its window in row runs."""
GE_GLU_V2 = """
func.func @f(%x: tensor<4x128xbf16>) -> (tensor<4x64xbf16>, tensor<4x64xbf16>) {
  %y, %gelu = hsg.ge_glu_v2 %x : tensor<4x128xbf16>
  return %y, %gelu : tensor<4x64xbf16>, tensor<4x64xbf16>
}
"""
"""ops-nn's GeGluV2 (defaults: tanh, activate_left false): one kernel of two outputs."""


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, Path]:
    root = tmp_path_factory.mktemp("gated")
    made = {}
    for name, text, op_type, socs in (
            ("swi_glu", SWI_GLU, "SwiGlu", ("ascend910b", "ascend950")),
            ("glu_grad", GLU_GRAD, "GluGrad", ("ascend910b", "ascend950")),
            ("ge_glu_v2", GE_GLU_V2, "GeGluV2", ("ascend910b", "ascend950"))):
        source = root / f"{name}.mlir"
        source.write_text(text)
        args = [str(source), "--name", op_type, "-o", str(root / name)]
        for soc in socs:
            args += ["--soc", soc]
        assert hswc_emit(args) == 0
        made[name] = root / name
    return made


def _array(text: str, name: str, bits: type, dtype: type) -> np.ndarray:
    found = re.search(rf"const std::vector<uint\d+_t> {name} = \{{(.*?)\}};", text, re.S)
    assert found, name
    raw = [int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", found[1])]
    return np.array(raw, bits).view(dtype)


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-v))


def test_the_package_takes_x_once(packages: Mapping[str, Path]) -> None:
    package = packages["swi_glu"]
    definition = (package / "op_host/swi_glu_def.cpp").read_text()
    assert re.findall(r'this->(Input|Output)\("(\w+)"\)', definition) == [
        ("Input", "x"), ("Output", "y")]
    for entry in ("op_kernel/swi_glu.cpp", "op_kernel/swi_glu_apt.cpp"):
        text = (package / entry).read_text()
        assert "void swi_glu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)" in text
        assert "op.Init(x, x, y, &tilingData);" in text, entry
    header = (package / "op_host/op_api/aclnn_swi_glu.h").read_text()
    assert re.search(r"aclnnSwiGluGetWorkspaceSize\(const aclTensor\* x, aclTensor\* out,",
                     header)
    aclnn = (package / "op_host/op_api/aclnn_swi_glu.cpp").read_text()
    assert "OP_CHECK(HasShape(x, {4, 128})," in aclnn and "HasShape(out, {4, 64})" in aclnn
    assert "OP_INPUT(x), OP_OUTPUT(y)" in (package / "op_host/op_api/swi_glu.cpp").read_text()
    example = (package / "examples/test_aclnn_swi_glu.cpp").read_text()
    assert "const std::vector<int64_t> X_SHAPE = {4, 128};" in example
    grad = (packages["glu_grad"] / "op_kernel/glu_grad.cpp").read_text()
    assert "op.Init(g, x, x, out, &tilingData);" in grad
    definition = (packages["glu_grad"] / "op_host/glu_grad_def.cpp").read_text()
    assert re.findall(r'this->(Input|Output)\("(\w+)"\)', definition) == [
        ("Input", "g"), ("Input", "x"), ("Output", "out")]


def test_goldens_are_swiglu_and_glu_backward(packages: Mapping[str, Path]) -> None:
    text = (packages["swi_glu"] / "tests/ut/op_kernel/test_swi_glu.cpp").read_text()
    x = _array(text, "x", np.uint16, np.float16).astype(np.float64).reshape(4, 128)
    a, b = x[:, :64], x[:, 64:]
    expected = _array(text, "expected", np.uint16, np.float16).astype(np.float64)
    np.testing.assert_allclose(expected, (a * _sigmoid(a) * b).reshape(-1), rtol=1e-3,
                               atol=1e-5)
    text = (packages["glu_grad"] / "tests/ut/op_kernel/test_glu_grad.cpp").read_text()
    g = _array(text, "g", np.uint32, np.float32).astype(np.float64).reshape(4, 64)
    x = _array(text, "x", np.uint32, np.float32).astype(np.float64).reshape(4, 128)
    a, s = x[:, :64], _sigmoid(x[:, 64:])
    dx = _array(text, "expected", np.uint32, np.float32).astype(np.float64).reshape(4, 128)
    np.testing.assert_allclose(dx[:, :64], g * s, rtol=1.3e-6, atol=1e-5)
    np.testing.assert_allclose(dx[:, 64:], g * a * s * (1 - s), rtol=1.3e-6, atol=1e-5)


def test_kernel_unit_tests_pass_on_the_cpu_model(packages: Mapping[str, Path],
                                                 tmp_path: Path) -> None:
    ut = "tests/ut/op_kernel"
    sources = {"swi_glu": (packages["swi_glu"] / ut / "test_swi_glu.cpp", ()),
               "swi_glu_950": (packages["swi_glu"] / ut / "test_swi_glu_apt.cpp", ARCH35_UT_FLAGS),
               "glu_grad": (packages["glu_grad"] / ut / "test_glu_grad.cpp", ()),
               "glu_grad_950": (packages["glu_grad"] / ut / "test_glu_grad_apt.cpp",
                                ARCH35_UT_FLAGS),
               "ge_glu_v2": (packages["ge_glu_v2"] / ut / "test_ge_glu_v2.cpp", ()),
               "ge_glu_v2_950": (packages["ge_glu_v2"] / ut / "test_ge_glu_v2_apt.cpp",
                                 ARCH35_UT_FLAGS)}
    for name, done in build_and_run_unit_tests(sources, tmp_path).items():
        assert done.stdout.splitlines()[-1:] == ["1 passed, 0 failed"], \
            f"{name}:\n{done.stdout}\n{done.stderr}"


def test_ge_glu_v2s_package_has_ops_nns_outputs(packages: Mapping[str, Path]) -> None:
    """x in, y then gelu out (ops-nn's GeGluV2 definition); the goldens are a * gelu_tanh(b)
    and gelu_tanh(b) within PyTorch's bf16 tolerance."""
    import ml_dtypes

    package = packages["ge_glu_v2"]
    definition = (package / "op_host/ge_glu_v2_def.cpp").read_text()
    assert re.findall(r'this->(Input|Output)\("(\w+)"\)', definition) == [
        ("Input", "x"), ("Output", "y"), ("Output", "gelu")]
    assert "op.Init(x, x, y, gelu, &tilingData);" in \
        (package / "op_kernel/ge_glu_v2.cpp").read_text()
    text = (package / "tests/ut/op_kernel/test_ge_glu_v2.cpp").read_text()
    bf16 = ml_dtypes.bfloat16
    x = _array(text, "x", np.uint16, bf16).astype(np.float64).reshape(4, 128)
    a, b = x[:, :64], x[:, 64:]
    k = np.sqrt(2 / np.pi)
    gelu = 0.5 * b * (1 + np.tanh(k * (b + 0.044715 * b ** 3)))
    for name, want in (("expected_y", a * gelu), ("expected_gelu", gelu)):
        got = _array(text, name, np.uint16, bf16).astype(np.float64)
        np.testing.assert_allclose(got, want.reshape(-1), rtol=1.6e-2, atol=1e-5)


MODEL_MLP = """
func.func @mlp(%a: tensor<4x16xf16>, %w: tensor<16x128xf16>) -> tensor<4x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x128xf16>) -> tensor<4x128xf16>
  %h = linalg.matmul ins(%a, %w : tensor<4x16xf16>, tensor<16x128xf16>)
      outs(%f : tensor<4x128xf16>) -> tensor<4x128xf16>
  %y = hsg.swi_glu %h {dim = -1 : i64} : tensor<4x128xf16>
  return %y : tensor<4x64xf16>
}
"""


def test_a_whole_models_gated_kernel_is_packaged_taking_its_input_once(tmp_path: Path) -> None:
    source = tmp_path / "mlp.mlir"
    source.write_text(MODEL_MLP)
    assert hswc_emit([str(source), "-o", str(tmp_path / "out")]) == 0
    entry = (tmp_path / "out/mlp_r0/op_kernel/mlp_r0.cpp").read_text()
    assert "void mlp_r0(GM_ADDR halves, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)" in entry
    assert "op.Init(halves, halves, y, &tilingData);" in entry
    definition = (tmp_path / "out/mlp_r0/op_host/mlp_r0_def.cpp").read_text()
    assert re.findall(r'this->Input\("(\w+)"\)', definition) == ["halves"]
