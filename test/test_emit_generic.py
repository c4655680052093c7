"""hswc-emit on what is not one named op: a user's generic (a fused chain) named with --name,
a module with several operators (refused unless --function picks one), and bad input (one
message, exit 1, nothing written). Also --semantics: a package's goldens are those of the
semantics its kernels compute, and a kernel lowered otherwise is refused, not shipped with
wrong goldens.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import BITS, DTYPES, REPO, STRICT, build_unit_test, compiler
from family_packages import family_module, same_bits

from hswc import runner
from hswc.ops.hard_swish_grad import DOCS
from hswc.reference import hard_swish_grad_cann, hard_swish_grad_torch
from hswc.tools.hswc_emit import main

CHAIN = """
// hard_swish_grad, times a third tensor, clamped: one fused generic with two captured scalars.
func.func @scaled_grad(%g: tensor<?xf16>, %x: tensor<?xf16>, %scale: tensor<?xf16>)
    -> tensor<?xf16> {
  %0 = hsg.hard_swish_grad %g, %x : tensor<?xf16>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %g, %c0 : tensor<?xf16>
  %e = tensor.empty(%d) : tensor<?xf16>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
      affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%0, %scale : tensor<?xf16>, tensor<?xf16>) outs(%e : tensor<?xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<?xf16>
  %2 = hsg.hardtanh %1 {min_val = -2.0 : f32, max_val = 4.0 : f32} : tensor<?xf16>
  func.return %2 : tensor<?xf16>
}
"""


def emit(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


@pytest.fixture
def chain(tmp_path: Path) -> Path:
    path = tmp_path / "chain.mlir"
    path.write_text(CHAIN)
    return path


def test_a_generic_is_refused_without_a_name(chain: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, err = emit(capsys, chain, "-o", tmp_path / "out")
    assert code == 1
    assert err == ("hswc-emit: error: the operator is a generic one (kernel "
                   "@scaled_grad_kernel_f16), not a named op: give its package an op type with "
                   "--name (e.g. --name ScaledGrad)\n")
    assert not (tmp_path / "out").exists()


@pytest.fixture
def generic_package(chain: Path, tmp_path: Path) -> Path:
    out = tmp_path / "scaled"
    assert main([str(chain), "-o", str(out), "--name", "ScaledGradClamp"]) == 0
    return out


def test_a_named_generic_gets_its_names_inputs_and_attributes(generic_package: Path) -> None:
    pkg = generic_package
    assert (pkg / "op_kernel/scaled_grad_clamp.cpp").is_file()
    assert (pkg / "docs/aclnnScaledGradClamp.md").is_file()
    header = " ".join((pkg / "op_host/op_api/aclnn_scaled_grad_clamp.h").read_text().split())
    # Inputs after the function's arguments; the chain's captured bounds are attributes (in
    # the kernel's order, as the body captures them).
    assert ("aclnnScaledGradClampGetWorkspaceSize(const aclTensor* g, const aclTensor* x, "
            "const aclTensor* scale, const aclScalar* maxVal, const aclScalar* minVal, "
            "aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);") in header
    definition = (pkg / "op_host/scaled_grad_clamp_def.cpp").read_text()
    for name in ("g", "x", "scale"):
        assert f'this->Input("{name}")' in definition
    # The module's values are the defaults.
    assert 'this->Attr("max_val").AttrType(OPTIONAL).Float(4.0f);' in definition
    assert 'this->Attr("min_val").AttrType(OPTIONAL).Float(-2.0f);' in definition
    readme = (pkg / "README.md").read_text()
    assert "ScaledGradClamp computes the body of a linalg.generic that hswc compiled (a " \
           "generated elementwise operator)" in readme
    body = re.search(r"```mlir\n(.*?)```", readme, re.S)
    assert body and "^bb0(%g: f16, %x: f16, %scale: f16):" in body[1]
    assert "arith.mulf" in body[1] and "arith.cmpf ogt" in body[1] and "%max_val" in body[1]
    assert "golden values of the example and of the kernel unit test are hswc-run's" in readme


def test_a_generics_unit_test_passes_and_agrees_with_hswc_run(
        generic_package: Path, chain: Path, tmp_path: Path) -> None:
    source = generic_package / "tests/ut/op_kernel/test_scaled_grad_clamp.cpp"
    exe = tmp_path / "ut"
    build_unit_test(source, exe)
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "1 passed, 0 failed"
    body = source.read_text()

    def bits(name: str) -> np.ndarray:
        found = re.search(rf"const std::vector<uint16_t> {name} = \{{(.*?)\}};", body, re.S)
        assert found, name
        raw = [int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", found[1])]
        return np.array(raw, BITS["f16"]).view(DTYPES["f16"])

    inputs = [bits(n) for n in ("g", "x", "scale")]
    kernel = runner.compile_file(chain)
    assert same_bits(np.asarray(kernel(*inputs)), bits("expected"))
    # ... which is the composition of the reference models (hswc.reference), independently.
    product = (hard_swish_grad_cann(inputs[0], inputs[1]).astype(np.float32)
               * inputs[2].astype(np.float32)).astype(np.float16)
    clamped = np.clip(product.astype(np.float32), -2.0, 4.0).astype(np.float16)
    assert same_bits(clamped, bits("expected"))


def test_aclnn_name_of_a_generic(chain: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, _ = emit(capsys, chain, "-o", out, "--name", "ScaledGradClamp", "--aclnn",
                   "aclnnScaledGradBackward")
    assert code == 0
    assert (out / "op_host/op_api/aclnn_scaled_grad_backward.h").is_file()
    assert (out / "docs/aclnnScaledGradBackward.md").is_file()


@pytest.mark.parametrize(("option", "message"), [
    (["--name", "scaled-grad"], "--name 'scaled-grad' is not an op type: write it as ops-nn "
     "does, a capital letter then up to 63 letters and digits (e.g. GradTimesScale)"),
    (["--name", "Scaled_Grad"], "--name 'Scaled_Grad' is not an op type"),
    (["--name", "Int"], "--name 'Int' makes the kernel entry 'int', which C++ code cannot "
     "declare (it is a C++ keyword): choose another name"),
    (["--name", "MyOp", "--aclnn", "MyOp"], "--aclnn 'MyOp' is not an aclnn API name"),
    (["--aclnn", "aclnnOp"], "--aclnn names a generic operator's API: give --name too"),
])
def test_bad_names_are_refused(chain: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               option: list[str], message: str) -> None:
    code, err = emit(capsys, chain, "-o", tmp_path / "out", *option)
    assert code == 1 and err.startswith(f"hswc-emit: error: {message}")
    assert len(err.splitlines()) == 1 and not (tmp_path / "out").exists()


def test_a_named_op_keeps_ops_nn_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "lrg.mlir"
    source.write_text(family_module("leaky_relu_grad", ("f32",)))
    code, err = emit(capsys, source, "-o", tmp_path / "out", "--name", "MyLeaky")
    assert code == 1
    assert err == ("hswc-emit: error: the operator is hsg.leaky_relu_grad, packaged with "
                   "ops-nn's names (LeakyReluGrad, aclnnLeakyReluBackward); --name and --aclnn "
                   "name a generic operator\n")


TWO = family_module("softshrink", ("f32",)) + family_module("leaky_relu", ("f16", "f32"))


def test_several_operators_are_refused_unless_function_picks_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "two.mlir"
    source.write_text(TWO)
    code, err = emit(capsys, source, "-o", tmp_path / "out")
    assert code == 1
    assert err == ("hswc-emit: error: the module holds 2 operators (LeakyRelu (hsg.leaky_relu), "
                   "launched by @leaky_relu_f16, @leaky_relu_f32; Softshrink (hsg.softshrink), "
                   "launched by @softshrink_f32); a package holds one: pick its host function "
                   "with --function\n")
    assert not (tmp_path / "out").exists()
    # --function picks the operator, with all of its kernels (both dtypes).
    code, _ = emit(capsys, source, "-o", tmp_path / "leaky", "--function", "leaky_relu_f32")
    assert code == 0
    definition = (tmp_path / "leaky/op_host/leaky_relu_def.cpp").read_text()
    assert ".DataType({ge::DT_FLOAT16, ge::DT_FLOAT})" in definition
    assert not (tmp_path / "leaky/op_kernel/softshrink.cpp").exists()
    code, err = emit(capsys, source, "-o", tmp_path / "none", "--function", "missing")
    assert code == 1
    assert err == ("hswc-emit: error: no host function @missing launches a kernel (functions "
                   "that do: @leaky_relu_f16, @leaky_relu_f32, @softshrink_f32)\n")


def test_a_module_without_an_operator_is_refused(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "empty.mlir"
    source.write_text("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  func.return %x : tensor<4xf32>\n}\n")
    code, err = emit(capsys, source, "-o", tmp_path / "out")
    assert code == 1
    assert err == ("hswc-emit: error: the module holds no operator to package: no named op "
                   "(hsg.*), no linalg.generic and no lowered kernel (hsg.kernel)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("attrs", "message"), [
    ("{lambd = -0.5 : f32}", "'hsg.softshrink' attribute lambd must not be negative, got -0.5"),
    ("{lambd = 1.0e+05 : f32}", "attribute lambd = 100000.0 does not fit f16"),
    ("{lambd = 0x7FC00000 : f32}", "attribute lambd must be a finite f32, got nan"),
])
def test_attributes_out_of_range_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             attrs: str, message: str) -> None:
    source = tmp_path / "bad.mlir"
    source.write_text("func.func @f(%x: tensor<?xf16>) -> tensor<?xf16> {\n"
                      f"  %y = hsg.softshrink %x {attrs} : tensor<?xf16>\n"
                      "  func.return %y : tensor<?xf16>\n}\n")
    code, err = emit(capsys, source, "-o", tmp_path / "out")
    assert code == 1 and message in err and err.startswith(f"{source}:2:")
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def hsg_module() -> str:
    return ("func.func @f(%grad: tensor<?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {\n"
            "  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf32>\n"
            "  func.return %y : tensor<?xf32>\n}\n")


def kernel_test_bits(package: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    body = (package / "tests/ut/op_kernel/test_hard_swish_grad.cpp").read_text()

    def bits(name: str) -> np.ndarray:
        found = re.search(rf"const std::vector<uint32_t> {name} = \{{(.*?)\}};", body, re.S)
        assert found, name
        return np.array([int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", found[1])],
                        np.uint32).view(np.float32)

    return bits("grad"), bits("x"), bits("expected")


def test_semantics_choose_the_goldens_and_a_mismatch_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "hsg.mlir"
    source.write_text(hsg_module())
    assert emit(capsys, source, "-o", tmp_path / "torch", "--semantics", "torch")[0] == 0
    grad, x, expected = kernel_test_bits(tmp_path / "torch")
    assert same_bits(expected, hard_swish_grad_torch(grad, x))
    assert not same_bits(expected, hard_swish_grad_cann(grad, x))  # the data tells them apart
    assert "x <= -3 | +0" not in (tmp_path / "torch/README.md").read_text()
    assert "y = grad * (x / 3 + 0.5)  if -3 < x < 3" in (tmp_path / "torch/README.md").read_text()
    # A module lowered with torch semantics, packaged as if it were the default (cann).
    lowered = tmp_path / "lowered.mlir"
    done = subprocess.run(["hswc-opt", "-p", "hsg-decompose{semantics=torch},hsg-tile-on-cores,"
                           "hsg-block-into-ub,convert-hsg-to-ascend", str(source), "-o",
                           str(lowered)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    code, err = emit(capsys, lowered, "-o", tmp_path / "wrong")
    data = [np.array(DOCS.kernel_test_inputs[n], np.float32) for n in ("grad", "x")]
    differ = int(np.sum(hard_swish_grad_torch(*data).view(np.uint32)
                        != hard_swish_grad_cann(*data).view(np.uint32)))
    assert code == 1 and f"'func.func' computes {differ} of the 21 unit-test elements " \
        "otherwise than the package's reference model" in err
    assert "give them with --semantics" in err
    assert not (tmp_path / "wrong").exists()
    assert emit(capsys, lowered, "-o", tmp_path / "right", "--semantics", "torch")[0] == 0


def test_the_default_package_is_a2_a3_only(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """ascend950 runs ops-nn's arch35 kernel: its package is asked for with --soc ascend950
    (test_emit_950.py); the default package does not list it."""
    source = REPO / "examples" / "hard_swish_grad.mlir"
    assert emit(capsys, source, "-o", tmp_path / "c")[0] == 0
    definition = (tmp_path / "c" / "op_host" / "hard_swish_grad_def.cpp").read_text()
    assert re.findall(r'AddConfig\("(\w+)"\)', definition) == ["ascend910b", "ascend910_93"]


def test_an_example_expecting_an_infinity_compiles_and_matches_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """examples/ten_op_body.mlir's example data divide by zero: the golden holds +inf. The
    example spells it with the compiler's builtin (C++ has no inf literal) and its IsClose
    takes an equal infinity as a match and a NaN for an infinity as a mismatch; compiled and
    run here with the example's own EXPECTED, TOLERANCE and IsClose."""
    assert emit(capsys, REPO / "examples" / "ten_op_body.mlir", "--name", "TenOpBody", "-o",
                tmp_path / "p")[0] == 0
    example = (tmp_path / "p" / "examples" / "test_aclnn_ten_op_body.cpp").read_text()
    assert "__builtin_inff()" in example
    start = example.index("const std::vector<float> EXPECTED")
    end = example.index("bool Ok(")
    parts = example[start:end].split("\n\n")  # EXPECTED and TOLERANCE, ToFloat, IsClose
    program = tmp_path / "close.cpp"
    program.write_text("#include <cmath>\n#include <cstdint>\n#include <vector>\n"
                       "using Element = uint16_t;\nfloat aclFloat16ToFloat(Element) { return 0; }\n"
                       + "\n\n".join(parts) + """
int main()
{
    bool ok = true;
    for (float e : EXPECTED) {
        ok = ok && IsClose(e, e);
        ok = ok && (!std::isinf(e) || (!IsClose(std::nanf(""), e) && !IsClose(0.0f, e)));
    }
    return ok && !IsClose(1.0f, 1.5f) ? 0 : 1;
}
""")
    binary = tmp_path / "close"
    subprocess.run([compiler(), *STRICT, "-Wno-unused-function", str(program), "-o",
                    str(binary)], check=True)
    assert subprocess.run([str(binary)], check=False).returncode == 0


def test_no_package_copies_more_than_one_data_copy_pad_moves() -> None:
    """A schedule of 8 bytes an element (f32 negf, single-buffered queues shared in place)
    would tile Atlas A2's UB into 24576-element chunks, 98304 bytes per DataCopyPad, which its
    16-bit blockLen would cut to 32768. The tiling stops at the 16320 elements one DataCopyPad
    moves (hswc.tiling), so that schedule packages too, its host tiling saying so; the
    double-buffered schedule (12288 elements) is not cut."""
    from dataclasses import replace

    from test_schedule_choice import NEGF

    from hswc.backend.description import PackageRequest
    from hswc.backend.package import package_files
    from hswc.pipeline import parse_text
    from hswc.profiling import lower
    from hswc.vectorizer.schedule import FAST

    def tiling(double_buffer: bool) -> str:
        module = lower(parse_text(NEGF, "<negf>"),
                       replace(FAST, double_buffer=double_buffer, in_place=True))
        files = package_files(module, ["ascend910b"], PackageRequest(name="Neg"))
        return files["op_host/neg_tiling_compute.h"]

    assert "int64_t ubFactor = cond ? 0 : Min(FloorDiv(ubFactorRaw, 64) * 64, 16320);" in \
        tiling(False)
    assert "FloorDiv(Max(availableUbSize, 0), 16)" in tiling(True)


CLASH = """\
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %cst_0 = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %cst : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %cst_0 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""


def test_an_input_and_a_scalar_of_one_name_hint_get_distinct_names(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """xDSL reads %cst (a tensor) and %cst_0 (a scalar) as the same hint 'cst', as torch-mlir's
    exports name them: the op definition and the l0op function take both, so the input is
    renamed (a C++ function with two parameters `cst` does not compile)."""
    source = tmp_path / "clash.mlir"
    source.write_text(CLASH)
    code, _ = emit(capsys, source, "--name", "Clash", "-o", tmp_path / "out")
    assert code == 0
    definition = (tmp_path / "out/op_host/clash_def.cpp").read_text()
    assert re.findall(r'Input\("(\w+)"\)', definition) == ["x", "in1"]
    assert re.findall(r'Attr\("(\w+)"\)', definition) == ["cst"]
    l0op = (tmp_path / "out/op_host/op_api/clash.h").read_text()
    assert "Clash(const aclTensor* x, const aclTensor* in1, float cst, aclOpExecutor*" in l0op
