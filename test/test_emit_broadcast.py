"""hswc-emit packages kernels that read broadcast inputs (hswc.broadcast): a bias add, a per-row
scale and a rank-0 scale from test/fixtures/torch_mlir, and the bias add for Ascend 950.

Each input has the shape its kernel was compiled for: the host tiling checks it (and refuses
another, naming the input: run here on the CPU model of the tiling context), InferShape gives
the output the broadcast shape, the tiling unit test and the aclnn checks use the inputs' own
shapes, and the kernel unit test (inputs of their own sizes, goldens from hswc-run) passes on
the CPU model of AscendC.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import ARCH35_UT_FLAGS, REPO, build_and_run_unit_tests, compiler
from family_packages import unit_test_array

from hswc import runner
from hswc.checker import host_tiling
from hswc.checker.op_folder import folder
from hswc.tools.hswc_emit import main

FIXTURES = REPO / "test" / "fixtures" / "torch_mlir"
STRICT = ("-std=c++17", "-Wall", "-Wextra", "-Werror")

PACKAGES = {
    # name: (fixture, op type, stem, dtype, each input's shape, the output's)
    "bias": ("bias_add_f16", "BiasAdd", "bias_add", "f16", ((4, 64), (64,)), (4, 64)),
    "row": ("row_scale_f32", "RowScale", "row_scale", "f32", ((4, 64), (4, 1)), (4, 64)),
    "rank0": ("rank0_scale_f16", "Rank0Scale", "rank0_scale", "f16", ((4, 64), ()), (4, 64)),
}
ARCH35 = "bias950"
"""The bias add packaged for Ascend 950 (ops-nn's arch35 layout)."""


def dims(shape: tuple[int, ...]) -> str:
    return "{" + ", ".join(map(str, shape)) + "}"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("emit_broadcast")
    out = {}
    for name, (fixture, op_type, *_) in PACKAGES.items():
        out[name] = root / name
        assert main([str(FIXTURES / f"{fixture}.mlir"), "--name", op_type, "-o",
                     str(out[name])]) == 0
    out[ARCH35] = root / ARCH35
    assert main([str(FIXTURES / "bias_add_f16.mlir"), "--name", "BiasAdd", "-o",
                 str(out[ARCH35]), "--soc", "ascend950"]) == 0
    return out


@pytest.mark.parametrize("name", list(PACKAGES))
def test_the_package_is_complete(packages: dict[str, Path], name: str) -> None:
    _, op_type, stem, *_ = PACKAGES[name]
    aclnn = "aclnn_" + stem
    for relative in ("CMakeLists.txt", "README.md", f"docs/aclnn{op_type}.md",
                     f"op_kernel/{stem}.cpp", f"op_kernel/{stem}.h",
                     f"op_kernel/{stem}_tiling_data.h", f"op_kernel/{stem}_tiling_key.h",
                     f"op_host/{stem}_tiling.cpp", f"op_host/{stem}_tiling_compute.h",
                     f"op_host/{stem}_def.cpp", f"op_host/{stem}_infershape.cpp",
                     f"op_host/op_api/{aclnn}.h", f"op_host/op_api/{aclnn}.cpp",
                     f"op_host/op_api/{stem}.h", f"op_host/op_api/{stem}.cpp",
                     f"examples/test_aclnn_{stem}.cpp",
                     f"tests/ut/op_host/test_{stem}_tiling.cpp",
                     f"tests/ut/op_kernel/test_{stem}.cpp"):
        assert (packages[name] / relative).is_file(), relative


@pytest.mark.parametrize("name", list(PACKAGES))
def test_each_input_has_its_own_shape(packages: dict[str, Path], name: str) -> None:
    _, op_type, stem, _, shapes, output = PACKAGES[name]
    package = packages[name]
    tiling = (package / f"op_host/{stem}_tiling.cpp").read_text()
    assert f"const gert::Shape shape = gert::Shape({dims(output)});" in tiling
    for i, shape in enumerate(shapes):
        expected = f"gert::Shape({dims(shape)})" if shape else "gert::Shape()"
        said = f"shape {dims(shape)}" + ("" if shape else " (a scalar)")
        assert (f"OP_CHECK_IF(!SameShape(arg{i}Shape->GetStorageShape(), {expected}),\n"
                f'        OP_LOGE(context, "{op_type}: arg{i} must have {said}, the shape its '
                'kernel was compiled for"),\n        return ge::GRAPH_FAILED);') in tiling
    assert "differ in shape" not in tiling and "NotScalar" not in tiling
    infer = (package / f"op_host/{stem}_infershape.cpp").read_text()
    assert f"    *yShape = gert::Shape({dims(output)});" in infer
    api = (package / f"op_host/op_api/aclnn_{stem}.cpp").read_text()
    for tensor, shape in (("arg0", shapes[0]), ("arg1", shapes[1]), ("out", output)):
        assert f"OP_CHECK(HasShape({tensor}, {dims(shape)})," in api
    assert "OP_CHECK_SHAPE_NOT_EQUAL" not in api
    l0op = (package / f"op_host/op_api/{stem}.cpp").read_text()
    assert f"executor->AllocTensor(op::Shape({dims(output)}), arg1->GetDataType());" in l0op
    example = (package / f"examples/test_aclnn_{stem}.cpp").read_text()
    for tensor, shape in (("ARG0", shapes[0]), ("ARG1", shapes[1]), ("Y", output)):
        assert f"const std::vector<int64_t> {tensor}_SHAPE = {dims(shape)};" in example
    ut = (package / f"tests/ut/op_host/test_{stem}_tiling.cpp").read_text()
    assert f"Tensor({{{dims(shapes[1])}, {dims(shapes[1])}}}," in ut
    assert "TilingTest, arg0_has_another_shape)" in ut
    assert "TilingTest, arg1_has_another_shape)" in ut
    doc = (package / f"docs/aclnn{op_type}.md").read_text()
    assert "there is no broadcasting" not in doc
    assert f"`arg1` {dims(shapes[1])}" in doc


@pytest.mark.parametrize("name", list(PACKAGES))
def test_kernel_unit_test_data_is_each_inputs_own_and_goldens_are_hswc_runs(
        packages: dict[str, Path], name: str) -> None:
    fixture, _, stem, dtype, shapes, output = PACKAGES[name]
    text = (packages[name] / f"tests/ut/op_kernel/test_{stem}.cpp").read_text()
    inputs = [unit_test_array(text, f"arg{i}", dtype) for i in range(len(shapes))]
    assert [a.size for a in inputs] == [int(np.prod(s)) for s in shapes]
    expected = unit_test_array(text, "expected", dtype)
    compiled = runner.compile_text((FIXTURES / f"{fixture}.mlir").read_text(),
                                   soc="ascend910b")
    y = np.asarray(compiled(*(a.reshape(s) for a, s in zip(inputs, shapes, strict=True))))
    assert y.shape == output
    np.testing.assert_array_equal(y.reshape(-1).view(np.uint8), expected.view(np.uint8))


def test_kernel_unit_tests_pass_on_the_cpu_model(packages: dict[str, Path],
                                                 tmp_path: Path) -> None:
    """tests/ut/op_kernel of every package (the Ascend 950 one with that SoC's API and UB),
    built against the CPU model with test-only stand-ins of googletest and tikicpulib."""
    sources = {name: packages[name] / f"tests/ut/op_kernel/test_{PACKAGES[name][2]}.cpp"
               for name in PACKAGES}
    sources[ARCH35] = packages[ARCH35] / "tests/ut/op_kernel/test_bias_add_apt.cpp"
    run_kernel_unit_tests(sources, ARCH35, tmp_path)


def run_kernel_unit_tests(sources: dict[str, Path], arch35_name: str, tmp_path: Path) -> None:
    """Build each package's tests/ut/op_kernel source against the CPU model (the one named
    `arch35_name` for Ascend 950: its API and UB) with the test-only stand-ins of googletest
    and tikicpulib, in parallel, then run each: one test, passed."""
    ran = build_and_run_unit_tests(
        {name: (source, ARCH35_UT_FLAGS if name == arch35_name else ())
         for name, source in sources.items()}, tmp_path)
    for name, done in ran.items():
        assert done.returncode == 0, f"{name}:\n{done.stdout}{done.stderr}"
        assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", name


def test_host_tiling_refuses_another_shape_naming_the_input(packages: dict[str, Path],
                                                             tmp_path: Path) -> None:
    """The bias add's op_host tiling, unchanged, on the CPU model of the tiling context."""
    package = packages["bias"]
    op = host_tiling.OpDefinition("BiasAdd", [("arg0", (1,)), ("arg1", (1,))], [("y", (1,))])
    built = host_tiling.build(folder(package, "ascend910b"), op, {}, "BiasAddTilingData", [],
                              None, None, compiler(), tmp_path)

    def tile(*shapes: tuple[int, ...]) -> subprocess.CompletedProcess[str]:
        tensors = [f"1:{'x'.join(map(str, s))}" for s in shapes]
        command = [str(built.executable), "--op", "BiasAdd", "--soc", "ascend910b",
                   "--core-num", "48", "--ub-size", "196608",
                   "--input", tensors[0], "--input", tensors[1], "--output", tensors[2]]
        return subprocess.run(command, capture_output=True, text=True, timeout=60,
                              check=False)

    done = tile((4, 64), (64,), (4, 64))
    assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
    for shapes, name, said in (
            (((4, 64), (65,), (4, 64)), "arg1", "{64}"),
            (((4, 64), (4, 64), (4, 64)), "arg1", "{64}"),
            (((4, 64), (), (4, 64)), "arg1", "{64}"),
            (((256,), (64,), (4, 64)), "arg0", "{4, 64}")):
        done = tile(*shapes)
        assert done.returncode != 0 and "status failed" in done.stdout, shapes
        assert (f"BiasAdd: {name} must have shape {said}, the shape its kernel was compiled "
                "for") in done.stderr, done.stderr


def test_the_ascend950_package_checks_the_shapes_too(packages: dict[str, Path]) -> None:
    package = packages[ARCH35]
    tiling = (package / "op_host/arch35/bias_add_tiling_arch35.cpp").read_text()
    assert "const gert::Shape shape = gert::Shape({4, 64});" in tiling
    assert '"BiasAdd: arg1 must have shape {64}, the shape its kernel was compiled for"' in tiling
    infer = (package / "op_host/bias_add_infershape.cpp").read_text()
    assert "    *yShape = gert::Shape({4, 64});" in infer
    ut = (package / "tests/ut/op_host/arch35/test_bias_add_tiling.cpp").read_text()
    assert "Arch35TilingTest, arg1_has_another_shape)" in ut
