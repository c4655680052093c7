"""The parts of the ops-nn package that ops-nn's build picks up: CMake files, docs, unit tests.

What runs here runs: the CMake files are configured by cmake against recording stand-ins of
ops-nn's functions (add_modules_sources, add_modules_ut_sources, AddOpTestCase); the kernel unit
test is built against the CPU model of AscendC with test-only stand-ins for googletest and
tikicpulib, and run; its expected bits and the example's golden values are compared with
hswc-run on the same inputs. The tiling unit test needs ops-nn's test libraries: its cases are
read back and compared with hswc.tiling (the formula, not the IR the package was printed from)
and with the hand-checked figures of SPEC section 4.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import BITS, MODEL, REPO, compiler, operator_module
from family_packages import example_floats, unit_test_array

from hswc.ops.hard_swish_grad import CANN_BUDGET
from hswc.runner import compile_text
from hswc.tiling import TilingError, compute_tiling

SHIMS = REPO / "test" / "cpp_fixtures" / "ut_shims"
GE = {"ge::DT_FLOAT16": "f16", "ge::DT_FLOAT": "f32", "ge::DT_BF16": "bf16"}


def read(package: Path, relative: str) -> str:
    return (package / relative).read_text()


# region CMake

RECORDER = """cmake_minimum_required(VERSION 3.16)
project(record NONE)
# Stand-ins of ops-nn's functions: each call is written to calls.txt, one line per call.
file(WRITE ${CMAKE_BINARY_DIR}/calls.txt "")
function(record name)
    list(JOIN ARGN " ; " args)
    file(APPEND ${CMAKE_BINARY_DIR}/calls.txt "${name} ${CMAKE_CURRENT_SOURCE_DIR} | ${args}\\n")
endfunction()
function(add_modules_sources)
    record(add_modules_sources ${ARGN})
endfunction()
function(add_modules_ut_sources)
    record(add_modules_ut_sources ${ARGN})
endfunction()
function(AddOpTestCase)
    record(AddOpTestCase ${ARGN})
endfunction()
set(OPHOST_NAME ophost)
set(OP_TILING_MODULE_NAME tiling_ut)
add_subdirectory(${PACKAGE} pkg)
"""


def configure(package: Path, tmp_path: Path, *options: str
              ) -> list[tuple[str, str, list[str]]]:
    """(function, calling folder relative to the package, arguments) of every recorded call."""
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not installed: the package's CMake files are checked by content")
    driver = tmp_path / "driver"
    driver.mkdir()
    (driver / "CMakeLists.txt").write_text(RECORDER)
    build = tmp_path / "build"
    done = subprocess.run([cmake, "-S", str(driver), "-B", str(build), f"-DPACKAGE={package}",
                           *options], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    calls = []
    for line in (build / "calls.txt").read_text().splitlines():
        head, args = line.split(" | ", 1)
        name, folder = head.split(" ", 1)
        calls.append((name, str(Path(folder).relative_to(package)), args.split(" ; ")))
    return calls


def test_cmake_registers_the_host_sources(package: Path, tmp_path: Path) -> None:
    assert configure(package, tmp_path) == [
        ("add_modules_sources", "op_host", ["HOSTNAME", "ophost", "MODE", "PRIVATE", "DIR",
         str(package / "op_host"), "OPTYPE", "hard_swish_grad", "ACLNNTYPE", "aclnn_exclude"])]
    # add_modules_sources takes each kind of source by these globs (ops-nn cmake/func.cmake).
    names = [p.name for p in (package / "op_host").iterdir()]
    assert fnmatch.filter(names, "hard_swish_grad_def*.cpp") == ["hard_swish_grad_def.cpp"]
    assert fnmatch.filter(names, "*_infershape*.cpp") == ["hard_swish_grad_infershape.cpp"]
    assert sorted(p.name for p in (package / "op_host/op_api").glob("aclnn_*.h")) == [
        "aclnn_hardswish_backward.h"]


def test_cmake_adds_the_unit_tests_when_tests_are_built(package: Path, tmp_path: Path) -> None:
    calls = configure(package, tmp_path, "-DENABLE_TEST=ON", "-DUT_TEST_ALL=ON")
    assert [(name, folder) for name, folder, _ in calls] == [
        ("add_modules_sources", "op_host"),
        ("add_modules_ut_sources", "tests/ut/op_host"),
        ("AddOpTestCase", "tests/ut/op_kernel"),
    ]
    ut_dir = package / "tests/ut/op_host"
    assert calls[1][2] == ["HOSTNAME", "tiling_ut", "MODE", "PRIVATE", "DIR", str(ut_dir)]
    # add_modules_ut_sources globs test_*_tiling.cpp in that folder (ops-nn cmake/ut.cmake).
    assert [p.name for p in ut_dir.glob("test_*_tiling.cpp")] == [
        "test_hard_swish_grad_tiling.cpp"]
    # AddOpTestCase(op, soc, flags, tiling sources): the f32 kernel's types, files that exist.
    name, soc, flags, *sources = calls[2][2]
    assert (name, soc, flags) == ("hard_swish_grad", "ascend910B1",
                                  "-DDTYPE_GRAD=float -DDTYPE_X=float -DDTYPE_Y=float")
    assert [Path(f).resolve().relative_to(package.resolve()) for f in sources] == [
        Path("op_host/hard_swish_grad_tiling.cpp"), Path("op_host/hard_swish_grad_infershape.cpp")]


# endregion
# region docs


def test_readme_says_what_the_op_computes_and_where(package: Path) -> None:
    text = read(package, "README.md")
    assert text.splitlines()[1] == "# HardSwishGrad"
    for row in ("| Atlas A2 training series | `ascend910b` | yes |",
                "| Atlas A3 series | `ascend910_93` | yes |",
                "| `grad` | input | the gradient flowing back from HardSwish's output | "
                "FLOAT16, FLOAT, BFLOAT16 | ND |",
                "| `x` | input | HardSwish's forward input, which sets the local slope | "
                "as `grad` | ND |",
                # SPEC section 4: 196608 bytes of UB -> 4032 elements per pass, every dtype.
                "| `ascend910b` | 48 | 196608 | 4032 | 4032 | 4032 |"):
        assert row in text.splitlines(), row
    assert "y = grad * (x * 0.333333343f + 0.5f)  if -3 < x < 3" in text
    assert "- Any rank from 0 to 8, dynamic shapes and dynamic rank; a scalar is computed as " \
           "shape {1}." in text
    for link in re.findall(r"\]\(([^)]+)\)", text):
        assert (package / link).is_file(), link


def test_aclnn_doc_matches_the_header(package: Path) -> None:
    doc = read(package, "docs/aclnnHardswishBackward.md")
    header = read(package, "op_host/op_api/aclnn_hardswish_backward.h")
    declared = [" ".join(d.split())
                for d in re.findall(r"ACLNN_API (aclnnStatus [^;]+;)", header)]
    prototypes = [" ".join(p.split())
                  for p in re.findall(r"```cpp\n(aclnnStatus [^`]+;)\n```", doc)]
    assert len(declared) == 2 and prototypes == declared
    for row in ("| `gradOutput` | input | the gradient flowing back from HardSwish's output | "
                "FLOAT16, FLOAT, BFLOAT16 | ND | any, rank <= 8 |",
                "| `self` | input | HardSwish's forward input, which sets the local slope | "
                "as `gradOutput` | ND | as `gradOutput` |",
                "| `out` | output | the gradient with respect to x | as `gradOutput` | ND | "
                "as `gradOutput` |"):
        assert row in doc.splitlines(), row
    # The values of opdev/op_errno.h (opbase).
    for code, value in (("ACLNN_SUCCESS", 0), ("ACLNN_ERR_PARAM_NULLPTR", 161001),
                        ("ACLNN_ERR_PARAM_INVALID", 161002),
                        ("ACLNN_ERR_INNER_CREATE_EXECUTOR", 561101),
                        ("ACLNN_ERR_INNER_NULLPTR", 561103)):
        assert f"| `{code}` | {value} |" in doc
        if code != "ACLNN_SUCCESS":
            assert code in read(package, "op_host/op_api/aclnn_hardswish_backward.cpp")
    assert "out = gradOutput * (self * 0.333333343f + 0.5f)  if -3 < self < 3" in doc
    for link in re.findall(r"\]\(([^)]+)\)", doc):
        assert (package / "docs" / link).resolve().is_file(), link


# endregion
# region the tiling unit test

TEST_BLOCK = re.compile(r"TEST_F\(HardSwishGradTilingTest, (\w+)\)\n\{\n(.*?)\n\}", re.S)


def tiling_cases(package: Path) -> dict[str, tuple[list[tuple[tuple[int, ...], str]], int, int,
                                                      tuple[int, ...] | None]]:
    """name -> (tensors (shape, dtype), coreNum, ubSize, (key, blockDim, fields) or None)."""
    text = read(package, "tests/ut/op_host/test_hard_swish_grad_tiling.cpp")
    cases = {}
    for name, body in TEST_BLOCK.findall(text):
        tensors = [(tuple(int(d) for d in re.findall(r"\d+", dims)), dtype) for dims, dtype in
                   re.findall(r"Tensor\(\{\{([\d, ]*)\}, \{[\d, ]*\}\}, (ge::DT_\w+)\)", body)]
        core, ub = map(int, re.search(r"Tile\(tensors, (\d+), (\d+), info\)", body).groups())
        expected = re.search(r"ExpectTiling\(info, (\d+), (\d+), \{([\d, ]+)\}\);", body)
        figures = None
        if expected:
            figures = (int(expected[1]), int(expected[2]),
                       *(int(v) for v in expected[3].split(", ")))
        else:
            assert "EXPECT_FALSE(Tile(" in body
        cases[name] = (tensors, core, ub, figures)
    return cases


def test_tiling_unit_test_expects_what_hswc_tiling_computes(package: Path) -> None:
    cases = tiling_cases(package)
    checked = 0
    for name, (tensors, core, ub, figures) in cases.items():
        dtypes = {dtype for _, dtype in tensors}
        shapes = {shape for shape, _ in tensors}
        if len(dtypes) > 1 or len(shapes) > 1 or not dtypes <= set(GE):
            assert figures is None, name  # TilingFunc refuses mixed or unsupported inputs
            continue
        (shape,), (dtype,) = shapes, dtypes
        total = int(np.prod(shape)) if shape else 1
        try:
            t = compute_tiling(total, core, ub, GE[dtype], CANN_BUDGET)
        except TilingError:
            assert figures is None, name
        else:
            assert figures == (t.tiling_key, t.used_core_num, t.total_num, t.block_factor,
                               t.ub_factor), name
        checked += 1
    assert checked == 3 * 5
    assert {"inputs_differ_in_shape", "inputs_differ_in_dtype", "dtype_without_a_kernel"} <= \
        set(cases)


def test_tiling_unit_test_has_the_hand_checked_cases(package: Path) -> None:
    """SPEC section 4: ops-nn's own UT ({7, 3}, 64 cores, 262144 B) and 10^6 on 48 cores."""
    cases = tiling_cases(package)
    for dtype, key in (("f16", 0), ("f32", 1), ("bf16", 2)):
        assert cases[f"{dtype}_shape_7x3_on_64_cores"][3] == (key, 21, 21, 1, 5440)
        assert cases[f"{dtype}_one_million_on_48_cores"][3] == (key, 48, 1000000, 20834, 4032)
        assert cases[f"{dtype}_ub_too_small"][3] is None
        assert cases[f"{dtype}_empty"][3] == (key, 1, 0, 0, 0)


# endregion
# region the kernel unit test and the example, against hswc-run

KERNEL_TEST = re.compile(r"TEST_F\(HardSwishGradKernelTest, (\w+)_kernel\)\n\{\n(.*?)\n\}", re.S)


def hswc_run(dtype: str, grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    kernel = compile_text(operator_module((dtype,)), function=f"hsg_{dtype}", soc="ascend910b")
    return np.asarray(kernel(grad, x))


def test_kernel_unit_test_expects_what_hswc_run_computes(package: Path) -> None:
    text = read(package, "tests/ut/op_kernel/test_hard_swish_grad.cpp")
    bodies = dict(KERNEL_TEST.findall(text))
    assert sorted(bodies) == ["bf16", "f16", "f32"]
    for dtype, body in bodies.items():
        grad, x = unit_test_array(body, "grad", dtype), unit_test_array(body, "x", dtype)
        expected = unit_test_array(body, "expected", dtype)
        assert grad.size == 21 and -3 in x.astype(np.float32) and 3 in x.astype(np.float32)
        y = hswc_run(dtype, grad, x)
        np.testing.assert_array_equal(y.view(BITS[dtype]), expected.view(BITS[dtype]))
        tiling = compile_text(operator_module((dtype,)), function=f"hsg_{dtype}",
                              soc="ascend910b").tiling(grad.shape)
        key, cores = tiling["tilingKey"], tiling["usedCoreNum"]
        assert f"LaunchKernel<{key}>(grad, x, tiling, {cores});" in body
        for field in ("totalNum", "blockFactor", "ubFactor"):
            assert f"tiling.{field} = {tiling[field]};" in body


def build_kernel_ut(source: Path, exe: Path) -> subprocess.CompletedProcess[str]:
    subprocess.run([compiler(), "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{SHIMS}",
                    f"-I{MODEL}", str(source), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)


def test_kernel_unit_test_passes_on_the_cpu_model(package: Path, tmp_path: Path) -> None:
    source = package / "tests/ut/op_kernel/test_hard_swish_grad.cpp"
    done = build_kernel_ut(source, tmp_path / "ut")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "3 passed, 0 failed"
    # The same test with one expected bit flipped fails: it compares what the kernel computed.
    text = source.read_text()
    flipped = re.sub(r"(const std::vector<uint32_t> expected = \{0x[0-9a-f]{7})([0-9a-f])",
                     lambda m: m[1] + format(int(m[2], 16) ^ 1, "x"), text, count=1)
    assert flipped != text
    broken = source.parent / "test_flipped.cpp"
    broken.write_text(flipped)
    try:
        done = build_kernel_ut(broken, tmp_path / "ut_flipped")
    finally:
        broken.unlink()
    assert done.returncode == 1
    assert "[FAILED] HardSwishGradKernelTest.f32_kernel" in done.stdout
    assert done.stdout.splitlines()[-1] == "2 passed, 1 failed"


def test_example_goldens_are_what_hswc_run_computes(package: Path) -> None:
    """The aclnn example runs the f32 kernel; its EXPECTED values are hswc-run's results."""
    text = read(package, "examples/test_aclnn_hard_swish_grad.cpp")

    grad, x = example_floats(text, "GRAD_HOST"), example_floats(text, "X_HOST")
    np.testing.assert_array_equal(example_floats(text, "EXPECTED"), hswc_run("f32", grad, x))

# endregion
