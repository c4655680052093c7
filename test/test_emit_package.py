"""hswc-emit: the ops-nn package of HardSwishGrad holds every file, says what the IR says, and
what can be compiled here is: the op_kernel files run bit-exact on the CPU model, and the host
tiling (printed from the IR's hsg.tiling functions) agrees with hswc.tiling on many inputs.

Host files that need the CANN SDK cannot be compiled here; their content is checked line by line.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import DTYPES, Build, bits, build, compiler, operator_module, run_kernel

from hswc.backend.package import package_files
from hswc.ops.hard_swish_grad import CANN_BUDGET as HSG
from hswc.ops.hard_swish_grad import DOCS
from hswc.reference import hard_swish_grad_cann
from hswc.runner import KernelError, compile_text
from hswc.tiling import TilingError, compute_tiling
from hswc.tools.hswc_emit import load, main

PACKAGE = {
    "op_kernel/hard_swish_grad.cpp",
    "op_kernel/hard_swish_grad.h",
    "op_kernel/hard_swish_grad_tiling_data.h",
    "op_kernel/hard_swish_grad_tiling_key.h",
    "op_host/hard_swish_grad_tiling.cpp",
    "op_host/hard_swish_grad_tiling_compute.h",
    "op_host/hard_swish_grad_def.cpp",
    "op_host/hard_swish_grad_infershape.cpp",
    "op_host/op_api/aclnn_hardswish_backward.h",
    "op_host/op_api/aclnn_hardswish_backward.cpp",
    "op_host/op_api/hard_swish_grad.h",
    "op_host/op_api/hard_swish_grad.cpp",
    "examples/test_aclnn_hard_swish_grad.cpp",
    "CMakeLists.txt",
    "README.md",
    "docs/aclnnHardswishBackward.md",
    "op_host/CMakeLists.txt",
    "tests/CMakeLists.txt",
    "tests/ut/CMakeLists.txt",
    "tests/ut/op_host/CMakeLists.txt",
    "tests/ut/op_host/test_hard_swish_grad_tiling.cpp",
    "tests/ut/op_kernel/CMakeLists.txt",
    "tests/ut/op_kernel/test_hard_swish_grad.cpp",
}
"""Every file of ops-nn's layout (experimental/activation/hard_swish_grad, plus tests/CMakeLists.txt
as the production operator and the other experimental ones have it)."""


def files(*dtypes: str, socs: tuple[str, ...] = ("ascend910b", "ascend910_93")) -> dict[str, str]:
    return package_files(load(operator_module(dtypes), "<test>"), socs)


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def assert_block(text: str, expected: list[str]) -> None:
    """`expected` appears as consecutive lines of `text` (indentation ignored), like CHECK-NEXT."""
    have, want = lines(text), [line.strip() for line in expected]
    for start in range(len(have) - len(want) + 1):
        if have[start:start + len(want)] == want:
            return
    raise AssertionError("lines not found in order:\n" + "\n".join(want))


def test_package_holds_every_file(package: Path) -> None:
    written = {str(p.relative_to(package)) for p in package.rglob("*") if p.is_file()}
    assert written == PACKAGE | {".hswc-package"}
    manifest = (package / ".hswc-package").read_text().splitlines()
    assert manifest[0].startswith("#") and {line.split("  ")[1] for line in manifest[1:]} \
        == PACKAGE
    for line in manifest[1:]:  # each file with the SHA-256 of what was written
        recorded, name = line.split("  ")
        assert recorded == hashlib.sha256((package / name).read_bytes()).hexdigest()


def test_package_is_deterministic() -> None:
    assert files("f16", "bf16") == files("f16", "bf16")


def test_op_definition_registers_the_dtypes_and_socs(package: Path) -> None:
    text = (package / "op_host/hard_swish_grad_def.cpp").read_text()
    for name, kind in (("grad", "Input"), ("x", "Input"), ("y", "Output")):
        assert_block(text, [
            f'this->{kind}("{name}")',
            ".ParamType(REQUIRED)",
            ".DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})",
            ".Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})",
            ".UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});",
        ])
    assert_block(text, ['this->AICore().AddConfig("ascend910b");',
                        'this->AICore().AddConfig("ascend910_93");', "}", "};", "",
                        "OP_ADD(HardSwishGrad);"])


def test_one_dtype_package_lists_only_that_dtype_and_the_chosen_soc() -> None:
    package = files("f16", socs=("ascend910_93",))
    definition = package["op_host/hard_swish_grad_def.cpp"]
    assert ".DataType({ge::DT_FLOAT16})" in lines(definition)
    assert [line for line in lines(definition) if "AddConfig" in line] == [
        'this->AICore().AddConfig("ascend910_93");']
    assert "#define HARDSWISHGRAD_TPL_SCH_MODE_FP16 0" in lines(
        package["op_kernel/hard_swish_grad_tiling_key.h"])
    assert "SCH_MODE_FP32" not in package["op_kernel/hard_swish_grad.cpp"]
    aclnn = package["op_host/op_api/aclnn_hardswish_backward.cpp"]
    assert "const std::initializer_list<op::DataType> DTYPES = {op::DataType::DT_FLOAT16};" in (
        lines(aclnn))


def test_tiling_func_wraps_the_generated_tiling(package: Path) -> None:
    text = (package / "op_host/hard_swish_grad_tiling.cpp").read_text()
    assert_block(text, [
        "switch (dataType) {",
        "case ge::DT_FLOAT16:",
        "return NsHardSwishGradTiling::ComputeHardSwishGradTilingF16;",
        "case ge::DT_FLOAT:",
        "return NsHardSwishGradTiling::ComputeHardSwishGradTilingF32;",
        "case ge::DT_BF16:",
        "return NsHardSwishGradTiling::ComputeHardSwishGradTilingBf16;",
        "default:",
        "return nullptr;",
    ])
    assert_block(text, [
        "const int64_t coreNum = static_cast<int64_t>(ascendcPlatform.GetCoreNumAiv());",
        "uint64_t ubSize = 0;",
        "ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
    ])
    assert_block(text, [
        "OP_CHECK_IF(!computeTiling(shape.GetShapeSize(), coreNum,",
        "static_cast<int64_t>(ubSize), tilingData, &blockDim, &tilingKey, &error),",
        'OP_LOGE(context, "HardSwishGrad: tiling failed: %s", error), return ge::GRAPH_FAILED);',
        "context->SetBlockDim(static_cast<uint32_t>(blockDim));",
        "context->SetTilingKey(GET_TPL_TILING_KEY(static_cast<uint64_t>(tilingKey)));",
    ])
    # No second copy of the formula: its constants live only in the generated header.
    assert not re.search(r"\b(1024|48|64)\b", text)


def test_host_tiling_is_printed_from_the_ir() -> None:
    """Change the IR's tiling function and the shipped C++ changes with it."""
    lowered = load(operator_module(("f32",)), "<test>")
    text = str(lowered).replace("arith.constant 48 : index", "arith.constant 40 : index")
    assert text != str(lowered)
    header = package_files(load(text, "<edited>"))["op_host/hard_swish_grad_tiling_compute.h"]
    assert "int64_t ubFactorRaw = FloorDiv(Max(availableUbSize, 0), 40);" in lines(header)


def test_aclnn_checks_and_launches(package: Path) -> None:
    text = (package / "op_host/op_api/aclnn_hardswish_backward.cpp").read_text()
    assert_block(text, ["constexpr int64_t MAX_RANK = 8;"])
    assert_block(text, [
        "CHECK_RET(CheckNotNull(gradOutput, self, out), ACLNN_ERR_PARAM_NULLPTR);",
        "CHECK_RET(CheckDtypes(gradOutput, self, out), ACLNN_ERR_PARAM_INVALID);",
        "CHECK_RET(CheckShapes(gradOutput, self, out), ACLNN_ERR_PARAM_INVALID);",
    ])
    assert_block(text, ["if (gradOutput->IsEmpty() || self->IsEmpty()) {",
                        "*workspaceSize = 0;"])
    # The headers ops-nn's own aclnn sources take these helpers from (op_api_def.h was renamed).
    for header in ("op_api/level2_base.h", "opdev/make_op_executor.h",
                   "aclnn_kernels/common/op_error_check.h"):
        assert f'#include "{header}"' in lines(text)
    assert "op_api/op_api_def.h" not in text
    assert_block(text, ["OP_CHECK_NULL(gradOutput, return false);",
                        "OP_CHECK_NULL(self, return false);", "OP_CHECK_NULL(out, return false);"])
    assert_block(text, ["const auto supported = GetDtypeSupportListV3(DTYPES, "
                        "DTYPES_WITHOUT_BF16);",
                        "OP_CHECK_DTYPE_NOT_SUPPORT(gradOutput, supported, return false);",
                        "OP_CHECK_DTYPE_NOT_SUPPORT(self, supported, return false);",
                        "OP_CHECK_DTYPE_NOT_MATCH(self, gradOutput->GetDataType(), return false);",
                        "OP_CHECK_DTYPE_NOT_MATCH(out, gradOutput->GetDataType(), return false);"])
    assert_block(text, [
        "const aclTensor* gradOutputContiguous = l0op::Contiguous(gradOutput, "
        "uniqueExecutor.get());"])
    assert_block(text, ["const aclTensor* result = l0op::HardSwishGrad(gradOutputContiguous, "
                        "selfContiguous, uniqueExecutor.get());"])
    assert_block(text, [
        "const aclTensor* copied = l0op::ViewCopy(result, out, uniqueExecutor.get());"])
    header = (package / "op_host/op_api/aclnn_hardswish_backward.h").read_text()
    assert_block(header, [
        "ACLNN_API aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor* gradOutput,",
        "const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, "
        "aclOpExecutor** executor);"])
    assert_block(header, [
        "ACLNN_API aclnnStatus aclnnHardswishBackward(void* workspace, uint64_t workspaceSize,",
        "aclOpExecutor* executor, aclrtStream stream);"])
    l0op = (package / "op_host/op_api/hard_swish_grad.cpp").read_text()
    assert_block(l0op, ["ADD_TO_LAUNCHER_LIST_AICORE(HardSwishGrad, OP_INPUT(grad, x), "
                        "OP_OUTPUT(y));"])
    infer = (package / "op_host/hard_swish_grad_infershape.cpp").read_text()
    assert_block(infer, ["*yShape = *gradShape;", "return ge::GRAPH_SUCCESS;"])


def test_example_checks_the_spec_example_against_the_reference(package: Path) -> None:
    text = (package / "examples/test_aclnn_hard_swish_grad.cpp").read_text()
    assert_block(text, [
        "using Element = float;",
        "constexpr aclDataType DTYPE = ACL_FLOAT;",
        "const std::vector<int64_t> SHAPE = {9};",
        "const std::vector<Element> GRAD_HOST = {1.0f, 2.0f, 3.0f, -4.0f, 5.0f, -6.0f, 7.0f, 8.0f, "
        "-9.0f};",
        "const std::vector<Element> X_HOST = {-4.0f, -3.0f, -2.0f, -1.0f, 0.0f, 1.0f, 2.0f, 3.0f, "
        "4.0f};",
        # SPEC section 7's hand-derived result.
        "const std::vector<float> EXPECTED = {0.0f, 0.0f, -0.50000006f, -0.6666666f, 2.5f, -5.0f, "
        "8.166667f, 8.0f, -9.0f};",
        "constexpr float TOLERANCE = 1e-05f;",
    ])
    assert_block(text, ["return std::fabs(actual - expected) <= TOLERANCE + TOLERANCE * "
                        "std::fabs(expected);"])
    assert_block(text, ["if (!Ok(aclnnHardswishBackwardGetWorkspaceSize(grad.tensor, x.tensor, "
                        "y.tensor,", '&workspaceSize, &executor), '
                        '"aclnnHardswishBackwardGetWorkspaceSize")) {'])


def test_example_without_f32_uses_bit_patterns() -> None:
    text = files("bf16")["examples/test_aclnn_hard_swish_grad.cpp"]
    assert "constexpr aclDataType DTYPE = ACL_BF16;" in lines(text)
    assert "const std::vector<Element> X_HOST = {0xc080 /* -4.0f */, 0xc040 /* -3.0f */," in text


def test_hswc_emit_reports_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text('func.func @f() {\n  "test.op"() : () -> ()\n  func.return\n}\n')
    assert main([str(bad), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:3: error: 'test.op' has no AscendC printing rule" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()
    assert main([str(tmp_path / "missing.mlir"), "-o", str(tmp_path / "out")]) == 1
    assert "hswc-emit: error: cannot read" in capsys.readouterr().err
    binary = tmp_path / "binary.mlir"
    binary.write_bytes(b"func.func @f() {\xd0\x00}")
    assert main([str(binary), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"{binary}:1:17: error: the input is not UTF-8 text: byte 0xd0" in err
    assert "Traceback" not in err


# region what compiles here

TILING_DRIVER = """
#include <cstdio>
#include "hard_swish_grad_tiling_compute.h"
int main()
{
    long long total = 0, cores = 0, ub = 0;
    while (std::scanf("%lld %lld %lld", &total, &cores, &ub) == 3) {
        HardSwishGradTilingData data;
        int64_t blockDim = -1, key = -1;
        const char* error = "";
        if (NsHardSwishGradTiling::FUNCTION(total, cores, ub, &data, &blockDim, &key, &error)) {
            std::printf("%lld %lld %lld %lld %lld\\n", (long long)data.totalNum,
                (long long)data.blockFactor, (long long)data.ubFactor, (long long)blockDim,
                (long long)key);
        } else {
            std::printf("failed: %s\\n", error);
        }
    }
    return 0;
}
"""


def tiling_cases() -> list[tuple[int, int, int]]:
    rng = np.random.default_rng(4)
    cases = [(n, c, u) for n in (0, 1, 2, 21, 63, 64, 65, 4031, 4032, 4033, 100003, 10**9)
             for c in (0, 1, 7, 40, 48, 64) for u in (0, 1024, 1025, 4095, 4096, 8192, 196352,
                                                      196608, 262144)]
    cases += [(int(rng.integers(0, 10**7)), int(rng.integers(1, 100)),
               int(rng.integers(0, 1 << 20))) for _ in range(2000)]
    return cases


def run_tiling_core(package: Path, workdir: Path, dtype: str,
                    cases: list[tuple[int, int, int]]) -> list[str]:
    """The package's tiling compute header, built into a driver, on (total, cores, ub) cases."""
    driver = workdir / "driver.cpp"
    driver.write_text(TILING_DRIVER)
    function = f"ComputeHardSwishGradTiling{dtype.capitalize()}"
    exe = workdir / f"driver_{dtype}"
    subprocess.run([compiler(), "-std=c++17", "-Wall", "-Wextra", "-Werror",
                    f"-DFUNCTION={function}", f"-I{package / 'op_host'}", str(driver), "-o",
                    str(exe)], check=True)
    stdin = "".join(f"{n} {c} {u}\n" for n, c, u in cases)
    out = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_generated_host_tiling_agrees_with_hswc_tiling(package: Path, tmp_path: Path,
                                                       dtype: str) -> None:
    cases = tiling_cases()
    for (n, c, u), line in zip(cases, run_tiling_core(package, tmp_path, dtype, cases),
                               strict=True):
        try:
            t = compute_tiling(n, c, u, dtype, HSG)
        except TilingError as error:
            assert line == f"failed: {str(error).removeprefix('tiling failed: ')}"
            continue
        assert line == " ".join(map(str, t.as_tuple())), (n, c, u)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_generated_host_tiling_agrees_with_hswc_run(package: Path, tmp_path: Path,
                                                    dtype: str) -> None:
    """hswc-run's tiling (the interpreter running the module's tiling function) on the same
    inputs as the package's tiling core, refusals included."""
    rng = np.random.default_rng(11)
    cases = [(21, 64, 262144), (10**6, 48, 196608), (0, 48, 196608), (5, 7, 4096),
             (100003, 40, 196352), (21, 64, 2048), (21, 64, 1024)]
    cases += [(int(rng.integers(0, 10**7)), int(rng.integers(1, 100)),
               int(rng.integers(1, 1 << 20))) for _ in range(40)]
    kernel = compile_text(operator_module((dtype,)), function=f"hsg_{dtype}")
    for (n, c, u), line in zip(cases, run_tiling_core(package, tmp_path, dtype, cases),
                               strict=True):
        try:
            t = kernel.with_platform(core_num=c, ub_size=u).tiling((n,))
        except KernelError as error:
            assert line.startswith("failed: ") and line.removeprefix("failed: ") in str(error)
            continue
        assert line == " ".join(str(t[k]) for k in ("totalNum", "blockFactor", "ubFactor",
                                                     "usedCoreNum", "tilingKey")), (n, c, u)


def test_package_kernel_runs_on_the_cpu_model(package: Path, tmp_path: Path) -> None:
    """op_kernel/hard_swish_grad.cpp (entry + class header + tiling headers) as ops-nn builds
    it, with a no-op stand-in for ascendc's template-argument header."""
    exe = tmp_path / "run_package_kernel"
    build([Build(package / "op_kernel/hard_swish_grad.cpp", exe)])
    for dtype, t in DTYPES.items():
        rng = np.random.default_rng(7)
        x = rng.uniform(-5, 5, 4100).astype(np.float32).astype(t)
        grad = rng.uniform(-5, 5, 4100).astype(np.float32).astype(t)
        y = run_kernel(exe, grad, x, 3, 196608, tmp_path / dtype)
        np.testing.assert_array_equal(bits(y), bits(hard_swish_grad_cann(grad, x)))
        # The example's data (SPEC section 7) on 48 cores, against hswc-run.
        grad, x = (np.array(DOCS.example_inputs[name], dtype=t) for name in ("grad", "x"))
        y = run_kernel(exe, grad, x, 48, 196608, tmp_path / f"{dtype}_example")
        expected = compile_text(operator_module((dtype,)), function=f"hsg_{dtype}")(grad, x)
        np.testing.assert_array_equal(bits(y), bits(np.asarray(expected)))

# endregion
