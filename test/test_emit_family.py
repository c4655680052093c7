"""hswc-emit on every named op: the package has ops-nn's names for the op and its aclnn API, the
attributes go through every layer, and what runs here runs and agrees with hswc-run.

Expectations are typed in from ops-nn's (and, for aclnnHardtanh, ops-math's) own sources: each
op's type, its aclnn API and that API's parameters, its OpDef attributes. Figures come from
hswc.tiling (the formula, not the IR the package is printed from), hswc-run and hswc.reference.
The C++ is built several files at once: one driver for all tiling cores, one CPU-model harness
per op kernel, one kernel unit test per op.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import DTYPES, MODEL, REPO, STRICT, Build, build, compiler
from family_packages import (
    ATTRIBUTES,
    INPUTS,
    STEMS,
    example_floats,
    family_module,
    hswc_run,
    run_on_cpu,
    sample,
    unit_test_array,
)
from family_packages import same_bits as same
from sampling import halves

from hswc.op_plans import default_ub_plan
from hswc.ops import definition_of
from hswc.reference import OP_REFERENCES
from hswc.tiling import TilingError, compute_tiling
from hswc.tools.hswc_emit import main

SHIMS = REPO / "test" / "cpp_fixtures" / "ut_shims"

OPS_NN = {
    "hard_swish": ("HardSwish", "hard_swish", "aclnnHardswish", "aclnn_hardswish",
                   "const aclTensor* self, aclTensor* out"),
    "hard_swish_grad": ("HardSwishGrad", "hard_swish_grad", "aclnnHardswishBackward",
                        "aclnn_hardswish_backward",
                        "const aclTensor* gradOutput, const aclTensor* self, aclTensor* out"),
    "hard_sigmoid": ("HardSigmoid", "hard_sigmoid", "aclnnHardsigmoid", "aclnn_hardsigmoid",
                     "const aclTensor* self, aclTensor* out"),
    "hard_sigmoid_grad": ("HardSigmoidGrad", "hard_sigmoid_grad", "aclnnHardsigmoidBackward",
                          "aclnn_hardsigmoid_backward",
                          "const aclTensor* gradOutput, const aclTensor* self, aclTensor* out"),
    "hardtanh": ("Hardtanh", "hardtanh", "aclnnHardtanh", "aclnn_hardtanh",
                 "const aclTensor* self, const aclScalar* clipValueMin, "
                 "const aclScalar* clipValueMax, aclTensor* out"),
    "hardtanh_grad": ("HardtanhGrad", "hardtanh_grad", "aclnnHardtanhBackward",
                      "aclnn_hardtanh_backward",
                      "const aclTensor* gradOutput, const aclTensor* self, const aclScalar* min, "
                      "const aclScalar* max, aclTensor* out"),
    "leaky_relu": ("LeakyRelu", "leaky_relu", "aclnnLeakyRelu", "aclnn_leaky_relu",
                   "const aclTensor* self, const aclScalar* negativeSlope, aclTensor* out"),
    "leaky_relu_grad": ("LeakyReluGrad", "leaky_relu_grad", "aclnnLeakyReluBackward",
                        "aclnn_leaky_relu_backward",
                        "const aclTensor* gradOutput, const aclTensor* self, "
                        "const aclScalar* negativeSlope, bool selfIsResult, aclTensor* out"),
    "threshold": ("ThresholdV2D", "threshold_v2_d", "aclnnThreshold", "aclnn_threshold",
                  "const aclTensor* self, const aclScalar* threshold, const aclScalar* value, "
                  "aclTensor* out"),
    "threshold_grad": ("ThresholdGradV2D", "threshold_grad_v2_d", "aclnnThresholdBackward",
                       "aclnn_threshold_backward",
                       "const aclTensor* gradOutput, const aclTensor* self, "
                       "const aclScalar* threshold, aclTensor* out"),
    "hard_shrink": ("HardShrink", "hard_shrink", "aclnnHardshrink", "aclnn_hardshrink",
                    "const aclTensor* self, const aclScalar* lambd, aclTensor* out"),
    "hard_shrink_grad": ("HardShrinkGrad", "hard_shrink_grad", "aclnnHardshrinkBackward",
                         "aclnn_hardshrink_backward",
                         "const aclTensor* gradOutput, const aclTensor* self, "
                         "const aclScalar* lambd, aclTensor* gradInput"),
    "softshrink": ("Softshrink", "softshrink", "aclnnSoftshrink", "aclnn_softshrink",
                   "const aclTensor* self, const aclScalar* lambd, aclTensor* out"),
    "softshrink_grad": ("SoftShrinkGrad", "soft_shrink_grad", "aclnnSoftshrinkBackward",
                        "aclnn_softshrink_backward",
                        "const aclTensor* gradOutput, const aclTensor* self, "
                        "const aclScalar* lambda, aclTensor* gradInput"),
}
"""stem -> (op type, kernel entry and file stem, aclnn API, its file stem, its parameters
before workspaceSize), as ops-nn's def, op_api and aclnn header spell them."""

BOUNDS = ['this->Attr("min_val").AttrType(OPTIONAL).Float(-1.0f);',
          'this->Attr("max_val").AttrType(OPTIONAL).Float(1.0f);']
SLOPE = ['this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);']
LAMBD = ['this->Attr("lambd").AttrType(OPTIONAL).Float(0.5f);']
ALPHA_BETA = ['this->Attr("alpha").AttrType(OPTIONAL).Float(0.166666672f);',
              'this->Attr("beta").AttrType(OPTIONAL).Float(0.5f);']
OP_DEF_ATTRIBUTES = {
    "hardtanh": BOUNDS, "hardtanh_grad": BOUNDS, "leaky_relu": SLOPE, "leaky_relu_grad": SLOPE,
    "threshold": ['this->Attr("threshold").AttrType(REQUIRED).Float();',
                  'this->Attr("value").AttrType(REQUIRED).Float();'],
    "threshold_grad": ['this->Attr("threshold").AttrType(REQUIRED).Float();'],
    "hard_shrink": LAMBD, "hard_shrink_grad": LAMBD,
    "softshrink": [*LAMBD, 'this->Attr("bias").AttrType(REQUIRED).Float();'],
    "softshrink_grad": LAMBD, "hard_sigmoid": ALPHA_BETA, "hard_sigmoid_grad": ALPHA_BETA,
}
"""The op definition's attributes: PyTorch's defaults (threshold and value have none)."""

NAN_X = {"hard_swish": "NaN", "hard_swish_grad": "grad", "hard_sigmoid": "NaN",
         "hard_sigmoid_grad": "+0", "hardtanh": "NaN", "hardtanh_grad": "grad",
         "leaky_relu": "NaN", "leaky_relu_grad": "grad * negative_slope", "threshold": "NaN",
         "threshold_grad": "grad", "hard_shrink": "NaN", "hard_shrink_grad": "grad",
         "softshrink": "+0", "softshrink_grad": "grad"}
"""What a NaN x gives, worked out by hand from each formula (comparisons with NaN are false,
min and max propagate it)."""


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every named op's package (f16, f32 and bf16 kernels), written by the hswc-emit command."""
    root = tmp_path_factory.mktemp("family")
    written = {}
    for stem in STEMS:
        source = root / f"{stem}.mlir"
        source.write_text(family_module(stem))
        assert main([str(source), "-o", str(root / stem)]) == 0, stem
        written[stem] = root / stem
    return written


def read(packages: dict[str, Path], stem: str, relative: str) -> str:
    return (packages[stem] / relative).read_text()


def flat(text: str) -> str:
    """Whitespace runs as one space, so wrapped declarations compare as written on one line."""
    return " ".join(text.split())


def field(attribute: str) -> str:
    """The tiling struct's field of an attribute: its lowerCamel (min_val -> minVal)."""
    head, *rest = attribute.split("_")
    return head + "".join(word.title() for word in rest)


def cpp_float(value: float) -> str:
    return f"{np.float32(value)!s}f"


def launched(stem: str) -> dict[str, float]:
    """Every attribute of the op as the module launches it: ATTRIBUTES' values, else the
    attribute it follows, else its default (HardSigmoid's alpha and beta)."""
    values: dict[str, float] = {}
    for a in definition_of(stem).op.ATTRIBUTES:
        given = ATTRIBUTES.get(stem, {}).get(a.name)
        values[a.name] = given if given is not None else \
            values[a.same_as] if a.same_as else a.default  # type: ignore[assignment]
    return values


# region content


@pytest.mark.parametrize("stem", STEMS)
def test_files_are_named_as_ops_nn_names_them(packages: dict[str, Path], stem: str) -> None:
    op_type, entry, api, api_stem, _ = OPS_NN[stem]
    written = {str(p.relative_to(packages[stem])) for p in packages[stem].rglob("*")
               if p.is_file()}
    assert written == {
        ".hswc-package", "CMakeLists.txt", "README.md", f"docs/{api}.md",
        f"op_kernel/{entry}.cpp", f"op_kernel/{entry}.h", f"op_kernel/{entry}_tiling_data.h",
        f"op_kernel/{entry}_tiling_key.h", "op_host/CMakeLists.txt", f"op_host/{entry}_tiling.cpp",
        f"op_host/{entry}_tiling_compute.h", f"op_host/{entry}_def.cpp",
        f"op_host/{entry}_infershape.cpp", f"op_host/op_api/{api_stem}.h",
        f"op_host/op_api/{api_stem}.cpp", f"op_host/op_api/{entry}.h",
        f"op_host/op_api/{entry}.cpp", f"examples/test_aclnn_{entry}.cpp",
        "tests/CMakeLists.txt", "tests/ut/CMakeLists.txt", "tests/ut/op_host/CMakeLists.txt",
        f"tests/ut/op_host/test_{entry}_tiling.cpp", "tests/ut/op_kernel/CMakeLists.txt",
        f"tests/ut/op_kernel/test_{entry}.cpp"}
    kernel = read(packages, stem, f"op_kernel/{entry}.cpp")
    assert f"__global__ __aicore__ void {entry}(" in kernel
    assert f"{op_type}TilingData" in kernel and f"Ns{op_type}::{op_type}<half> op;" in kernel
    definition = read(packages, stem, f"op_host/{entry}_def.cpp")
    assert f"class {op_type} : public OpDef {{" in definition
    assert f"OP_ADD({op_type});" in definition
    assert f"OPTYPE {entry}" in read(packages, stem, "op_host/CMakeLists.txt")
    assert read(packages, stem, "README.md").splitlines()[1] == f"# {op_type}"


@pytest.mark.parametrize("stem", STEMS)
def test_aclnn_api_takes_what_ops_nn_header_takes(packages: dict[str, Path], stem: str) -> None:
    op_type, entry, api, api_stem, params = OPS_NN[stem]
    header = flat(read(packages, stem, f"op_host/op_api/{api_stem}.h"))
    assert (f"ACLNN_API aclnnStatus {api}GetWorkspaceSize({params}, uint64_t* workspaceSize, "
            "aclOpExecutor** executor);") in header
    assert (f"ACLNN_API aclnnStatus {api}(void* workspace, uint64_t workspaceSize, "
            "aclOpExecutor* executor, aclrtStream stream);") in header
    source = flat(read(packages, stem, f"op_host/op_api/{api_stem}.cpp"))
    assert f"aclnnStatus {api}GetWorkspaceSize({params}, uint64_t* workspaceSize" in source
    scalars = re.findall(r"const aclScalar\* (\w+)", params)
    for scalar in scalars:
        assert f"const float {scalar}Value = {scalar}->ToFloat();" in source
        assert f"OP_CHECK_NULL({scalar}, return false);" in source
    definition = definition_of(stem)  # the l0op takes every attribute, aclnn ops-nn's only
    taken = iter(scalars)
    values = ", ".join(f"{field(a.name)}Value" if a.name in definition.docs.aclnn_omits
                       else f"{next(taken)}Value" for a in definition.op.ATTRIBUTES)
    for a in definition.op.ATTRIBUTES:
        if a.name in definition.docs.aclnn_omits:  # launched at the default, or as it follows
            assert re.search(rf"const float {field(a.name)}Value = "
                             rf"({field(a.same_as or '')}Value|[0-9.e+-]+f);", source), a.name
    contiguous = ", ".join(f"{n}Contiguous" for n in re.findall(r"const aclTensor\* (\w+)",
                                                                   params))
    call = ", ".join(p for p in (contiguous, values, "uniqueExecutor.get()") if p)
    assert f"const aclTensor* result = l0op::{op_type}({call});" in source
    l0op = flat(read(packages, stem, f"op_host/op_api/{entry}.cpp"))
    attrs = [field(a.name) for a in definition.op.ATTRIBUTES]  # in the definition's order
    op_attr = f", OP_ATTR({', '.join(attrs)})" if attrs else ""
    assert (f"ADD_TO_LAUNCHER_LIST_AICORE({op_type}, OP_INPUT({', '.join(INPUTS[stem])}), "
            f"OP_OUTPUT(y){op_attr});") in l0op


@pytest.mark.parametrize("stem", STEMS)
def test_attributes_go_through_the_op_definition_and_tiling(packages: dict[str, Path],
                                                            stem: str) -> None:
    _, entry, *_ = OPS_NN[stem]
    definition = read(packages, stem, f"op_host/{entry}_def.cpp")
    given = [line.strip() for line in definition.splitlines() if "this->Attr(" in line]
    assert given == OP_DEF_ATTRIBUTES.get(stem, [])
    names = [re.search(r'Attr\("(\w+)"\)', line)[1] for line in given]  # type: ignore[index]
    struct = read(packages, stem, f"op_kernel/{entry}_tiling_data.h")
    tiling = read(packages, stem, f"op_host/{entry}_tiling.cpp")
    kernel = read(packages, stem, f"op_kernel/{entry}.h")
    for index, name in enumerate(names):
        f = field(name)
        assert f"    float {f} = 0;" in struct.splitlines()
        assert f"const float* {f}Attr = attrs->GetFloat({index});" in tiling
        assert f"tilingData->{f} = *{f}Attr;" in tiling
        assert f"tilingData->{f}" in kernel  # Init reads it into the kernel
    assert ("float " in struct) == bool(names)
    assert ("GetAttrs" in tiling) == bool(names)


def test_an_attribute_ops_nns_aclnn_does_not_take_is_packaged_only_at_its_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """aclnnHardsigmoid takes no alpha (ops-nn's API, which the package keeps): a module setting
    alpha = 0.2 would be packaged wrong, so it is refused at its kernel."""
    source = tmp_path / "hs.mlir"
    source.write_text("func.func @hs(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
                      "  %y = hsg.hard_sigmoid %x {alpha = 0.2 : f32} : tensor<?xf32>\n"
                      "  func.return %y : tensor<?xf32>\n}\n")
    assert main([str(source), "-o", str(tmp_path / "p")]) == 1
    assert ("sets alpha = 0.2, but aclnnHardsigmoid takes no alpha (ops-nn's API, which the "
            "package keeps), so its package would launch alpha = 0.166667") in \
        capsys.readouterr().err
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize("stem", STEMS)
def test_attribute_checks_follow_the_op(packages: dict[str, Path], stem: str) -> None:
    """What aclnn and TilingFunc refuse is what the op's verifier refuses."""
    _, entry, _, api_stem, _ = OPS_NN[stem]
    aclnn = read(packages, stem, f"op_host/op_api/{api_stem}.cpp")
    tiling = read(packages, stem, f"op_host/{entry}_tiling.cpp")
    for name in ATTRIBUTES.get(stem, {}):
        assert f"{name} must be a finite float" in tiling
    lambd = "lambd" in ATTRIBUTES.get(stem, {})
    assert ("lambd must not be negative" in tiling) == lambd
    assert (">= 0.0f" in aclnn) == (lambd or stem == "leaky_relu_grad")
    assert ("min_val (%f) is greater than max_val" in tiling) == stem.startswith("hardtanh")
    # The values converted to the input's dtype (PyTorch): hardtanh's bounds, threshold's
    # value, the shrink ops' lambd.
    converted = stem in ("hardtanh", "threshold") or lambd
    assert ("LargestFinite(dataType)" in tiling) == converted
    assert ("case ge::DT_FLOAT16:\n            return 65504.0f;" in tiling) == converted
    if stem == "leaky_relu_grad":
        assert "OP_CHECK(!selfIsResult || negativeSlopeValue >= 0.0f," in aclnn


@pytest.mark.parametrize("stem", STEMS)
def test_example_calls_the_api_with_the_modules_values(packages: dict[str, Path],
                                                       stem: str) -> None:
    _, entry, api, _, params = OPS_NN[stem]
    text = read(packages, stem, f"examples/test_aclnn_{entry}.cpp")
    scalars = re.findall(r"const aclScalar\* (\w+)", params)
    values = list(ATTRIBUTES.get(stem, {}).values())
    for scalar, value in zip(scalars, values, strict=True):
        assert f"    HostScalar {scalar}Scalar({cpp_float(value)});" in text.splitlines()
    arguments = [f"{n}.tensor" for n in INPUTS[stem]] + [f"{s}Scalar.scalar" for s in scalars]
    arguments += ["false"] if "selfIsResult" in params else []
    assert f"if (!Ok({api}GetWorkspaceSize({', '.join([*arguments, 'y.tensor'])}," in text

    inputs = [example_floats(text, f"{n.upper()}_HOST") for n in INPUTS[stem]]
    expected = example_floats(text, "EXPECTED")
    semantics = "cann" if stem == "hard_swish_grad" else "torch"
    reference = OP_REFERENCES[(stem, semantics)](*inputs, **ATTRIBUTES.get(stem, {}))
    np.testing.assert_array_equal(expected, reference)
    np.testing.assert_array_equal(expected, np.asarray(hswc_run(stem, "f32")(*inputs)))


@pytest.mark.parametrize("stem", STEMS)
def test_docs_say_what_a_nan_x_gives_and_hswc_does_it(packages: dict[str, Path],
                                                      stem: str) -> None:
    text = read(packages, stem, "README.md")
    nan = NAN_X[stem]
    assert f"A NaN x gives {nan}." in text
    api = OPS_NN[stem][2]
    assert f"A NaN x gives {nan}." in read(packages, stem, f"docs/{api}.md")
    grad = np.array([2.0, -3.0, 0.5, -0.0, np.inf], np.float32)
    x = np.full(grad.shape, np.nan, np.float32)
    y = np.asarray(hswc_run(stem, "f32")(*((grad, x) if INPUTS[stem][0] == "grad" else (x,))))
    said = {"NaN": np.full(grad.shape, np.nan, np.float32), "grad": grad,
            "+0": np.zeros(grad.shape, np.float32),
            "grad * negative_slope": grad * np.float32(ATTRIBUTES[stem]["negative_slope"])
            if stem == "leaky_relu_grad" else grad}[nan]
    assert same(y, said), (stem, y)


@pytest.mark.parametrize("stem", STEMS)
def test_aclnn_doc_lists_the_attributes(packages: dict[str, Path], stem: str) -> None:
    _, _, api, _, params = OPS_NN[stem]
    doc = read(packages, stem, f"docs/{api}.md")
    prototype = re.search(r"```cpp\n(aclnnStatus \w+GetWorkspaceSize\([^`]+;)\n```", doc)
    assert prototype and params in flat(prototype[1])
    for scalar in re.findall(r"const aclScalar\* (\w+)", params):
        assert re.search(rf"^\| `{scalar}` \| input \| .* \| FLOAT \(a host aclScalar\) \|",
                         doc, re.M), scalar
    readme = read(packages, stem, "README.md")
    for name in ATTRIBUTES.get(stem, {}):
        assert re.search(rf"^\| `{name}` \| attribute \| .* \| FLOAT \| - \|$", readme, re.M)
        assert re.search(rf"^- `{name}` is a finite float32", readme, re.M)


# endregion
# region the unit tests' expectations

TILING_TEST = re.compile(r"TEST_F\(\w+TilingTest, (\w+)\)\n\{\n(.*?)\n\}", re.S)
TENSOR = re.compile(r"Tensor\(\{\{([\d, ]*)\}, \{[\d, ]*\}\}, (ge::DT_\w+)\)")
GE = {"ge::DT_FLOAT16": "f16", "ge::DT_FLOAT": "f32", "ge::DT_BF16": "bf16"}


def tiling_tests(text: str) -> dict[str, str]:
    return dict(TILING_TEST.findall(text))


@pytest.mark.parametrize("stem", STEMS)
def test_tiling_unit_test_expects_hswc_tiling(packages: dict[str, Path], stem: str) -> None:
    _, entry, *_ = OPS_NN[stem]
    tests = tiling_tests(read(packages, stem, f"tests/ut/op_host/test_{entry}_tiling.cpp"))
    attributes = launched(stem)
    given = [(k, np.float32(v)) for k, v in attributes.items()]
    checked = 0
    for name, body in tests.items():
        tensors = [(tuple(int(d) for d in re.findall(r"\d+", dims)), dtype)
                   for dims, dtype in TENSOR.findall(body)]
        call = re.search(r"Tile\(tensors, (?:\{(.*?)\}, )?(\d+), (\d+), info\)", body)
        assert call, name
        attrs, cores, ub = call[1], int(call[2]), int(call[3])
        passed = [(k, np.float32(v)) for k, v in
                  re.findall(r'Attribute\("(\w+)", ([-+0-9.e]+|[^)]*?)f?\)', attrs or "")
                  if re.fullmatch(r"[-+0-9.e]+", v)]
        if {dtype for _, dtype in tensors} - set(GE) or len(set(tensors)) > 1 or \
                passed != given or (attrs or "").count("Attribute(") != len(given):
            assert "EXPECT_FALSE(Tile(" in body, name  # a refusal case
            continue
        (shape, dtype), *_ = tensors
        total = int(np.prod(shape)) if shape else 1
        expected = re.search(r"ExpectTiling\(info, (\d+), (\d+), \{([\d, ]+)\}(?:, \{(.*)\})?\);",
                             body)
        try:
            t = compute_tiling(total, cores, ub, GE[dtype], default_ub_plan(stem, GE[dtype]))
        except TilingError:
            assert expected is None, name
        else:
            assert expected, name
            assert (int(expected[1]), int(expected[2]), *map(int, expected[3].split(", "))) == (
                t.tiling_key, t.used_core_num, t.total_num, t.block_factor, t.ub_factor), name
            fields = [v.strip() for v in (expected[4] or "").split(",") if v.strip()]
            record = hswc_run(stem, GE[dtype]).run(
                *[np.zeros(4, DTYPES[GE[dtype]])] * len(INPUTS[stem])).tilings[0]
            assert record is not None
            scalars = [np.float32(v) for v in record.values() if isinstance(v, float)]
            assert [np.float32(f.removesuffix("f")) for f in fields] == scalars, name
        checked += 1
    assert checked == 3 * 5
    refusals = {n for n in tests if not n.startswith(("f16_", "f32_", "bf16_"))}
    expected_refusals = {"dtype_without_a_kernel"}
    if len(INPUTS[stem]) == 2:
        expected_refusals |= {"inputs_differ_in_shape", "inputs_differ_in_dtype"}
    expected_refusals |= {f"{a}_is_not_finite" for a in attributes}
    if "lambd" in attributes:
        expected_refusals |= {"lambd_is_negative", "lambd_does_not_fit_f16"}
    if "bias" in attributes:  # Softshrink's, converted to the dtype as lambd is
        expected_refusals |= {"bias_does_not_fit_f16"}
    if stem == "hardtanh":
        expected_refusals |= {"min_val_does_not_fit_f16", "max_val_does_not_fit_f16"}
    if stem == "threshold":
        expected_refusals |= {"value_does_not_fit_f16"}
    if stem.startswith("hardtanh"):
        expected_refusals |= {"min_val_greater_than_max_val"}
    assert refusals == expected_refusals


KERNEL_TEST = re.compile(r"TEST_F\(\w+KernelTest, (\w+)_kernel\)\n\{\n(.*?)\n\}", re.S)


@pytest.mark.parametrize("stem", STEMS)
def test_kernel_unit_test_expects_what_hswc_run_computes(packages: dict[str, Path],
                                                         stem: str) -> None:
    _, entry, *_ = OPS_NN[stem]
    bodies = dict(KERNEL_TEST.findall(read(packages, stem, f"tests/ut/op_kernel/test_{entry}.cpp")))
    assert sorted(bodies) == ["bf16", "f16", "f32"]
    semantics = "cann" if stem == "hard_swish_grad" else "torch"
    for dtype, body in bodies.items():
        inputs = [unit_test_array(body, name, dtype) for name in INPUTS[stem]]
        expected = unit_test_array(body, "expected", dtype)
        assert inputs[0].size == 21
        kernel = hswc_run(stem, dtype)
        result = kernel.run(*inputs)
        assert same(np.asarray(result.outputs[0]), expected), dtype
        reference = OP_REFERENCES[(stem, semantics)](*inputs, **ATTRIBUTES.get(stem, {}))
        assert same(reference, expected), dtype
        record = result.tilings[0]
        assert record is not None
        assert f"LaunchKernel<{record['tilingKey']}>({', '.join(INPUTS[stem])}, tiling, " \
               f"{record['usedCoreNum']});" in body
        for key, value in record.items():
            if key in ("totalNum", "blockFactor", "ubFactor"):
                assert f"tiling.{key} = {value};" in body
            elif isinstance(value, float):
                written = re.search(rf"tiling\.{key} = ([-+0-9.e]+)f;", body)
                assert written and np.float32(written[1]) == np.float32(value), key


# endregion
# region what runs here

TILING_CASES = [(21, 64, 262144), (10**6, 48, 196608), (0, 48, 196608), (5, 7, 16384),
                (100003, 40, 196352), (21, 64, 2048), (4033, 1, 65536), (1, 1, 9000)]


def tiling_driver(packages: dict[str, Path], directory: Path) -> tuple[Path, list[tuple[str, str]]]:
    """One program with every package's tiling core: reads `index total cores ub` lines, prints
    the tiling of entry `index` (an op and a dtype)."""
    entries = [(stem, dtype) for stem in STEMS for dtype in DTYPES]
    lines = ["#include <cstdio>"]
    lines += [f'#include "{packages[stem]}/op_host/{OPS_NN[stem][1]}_tiling_compute.h"'
              for stem in STEMS]
    lines += ["template <typename Data, typename F>",
              "void Run(F compute, long long total, long long cores, long long ub)", "{",
              "    Data data;", "    int64_t blockDim = -1, key = -1;",
              '    const char* error = "";',
              "    if (compute(total, cores, ub, &data, &blockDim, &key, &error)) {",
              '        std::printf("%lld %lld %lld %lld %lld\\n", (long long)data.totalNum,',
              "            (long long)data.blockFactor, (long long)data.ubFactor,",
              "            (long long)blockDim, (long long)key);", "    } else {",
              '        std::printf("failed: %s\\n", error);', "    }", "}", "int main()", "{",
              "    long long index = 0, total = 0, cores = 0, ub = 0;",
              '    while (std::scanf("%lld %lld %lld %lld", &index, &total, &cores, &ub) == 4) {',
              "        switch (index) {"]
    for index, (stem, dtype) in enumerate(entries):
        op_type = OPS_NN[stem][0]
        lines += [f"            case {index}:",
                  f"                Run<{op_type}TilingData>(Ns{op_type}Tiling::Compute{op_type}"
                  f"Tiling{dtype.capitalize()}, total, cores, ub);", "                break;"]
    lines += ["        }", "    }", "    return 0;", "}"]
    source = directory / "tiling_driver.cpp"
    source.write_text("\n".join(lines) + "\n")
    exe = directory / "tiling_driver"
    subprocess.run([compiler(), *STRICT, str(source), "-o", str(exe)], check=True)
    return exe, entries


def test_every_tiling_core_agrees_with_hswc_run(packages: dict[str, Path],
                                                tmp_path: Path) -> None:
    exe, entries = tiling_driver(packages, tmp_path)
    stdin = "".join(f"{i} {n} {c} {u}\n" for i in range(len(entries)) for n, c, u in TILING_CASES)
    out = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert len(out) == len(entries) * len(TILING_CASES)
    lines = iter(out)
    for stem, dtype in entries:
        kernel = hswc_run(stem, dtype)
        for n, c, u in TILING_CASES:
            line = next(lines)
            try:
                t = kernel.with_platform(core_num=c, ub_size=u).tiling((n,))
            except Exception as error:  # hswc-run refuses: the core fails with the same reason
                assert line.startswith("failed: ") and line.removeprefix("failed: ") in str(
                    error), (stem, dtype, n, c, u)
                continue
            assert line == " ".join(str(t[k]) for k in ("totalNum", "blockFactor", "ubFactor",
                                                         "usedCoreNum", "tilingKey")), (
                stem, dtype, n, c, u)


CPU_PLATFORM = (3, 16384)
"""(cores, UB bytes) of the CPU runs: several UB passes per core, a short last core."""

CPU_SAMPLE = ("hard_swish_grad", "hard_sigmoid", "leaky_relu_grad", "softshrink_grad",
              "threshold")
"""The packages whose kernels and unit tests the default suite builds and runs (the CANN
kernel, a clamp, an attribute slope, two-sided bounds on grad, a strict threshold with an
attribute value); `pytest -m sweep` the rest."""


@pytest.mark.parametrize("stems", halves(STEMS, CPU_SAMPLE))
def test_every_package_kernel_runs_bit_exact_on_the_cpu_model(packages: dict[str, Path],
                                                              stems: tuple[str, ...],
                                                              tmp_path: Path) -> None:
    """op_kernel/<entry>.cpp of every package in the CPU model's harness, on the example's
    data and on 5000 values with every special, in f16, bf16 and f32: the bits of hswc-run and
    of the reference model (NaN x aside: outside the contract, there hswc-run is the truth)."""
    builds = []
    for stem in stems:
        entry = OPS_NN[stem][1]
        builds.append(Build(packages[stem] / f"op_kernel/{entry}.cpp", tmp_path / f"run_{stem}",
                            (f"-DHSWC_KERNEL_ENTRY={entry}",
                             f"-DHSWC_GM_INPUTS={len(INPUTS[stem])}")))
    build(builds)
    cores, ub = CPU_PLATFORM
    for stem in stems:
        semantics = "cann" if stem == "hard_swish_grad" else "torch"
        reference = OP_REFERENCES[(stem, semantics)]
        example = definition_of(stem).docs.example_inputs
        for dtype in DTYPES:
            kernel = hswc_run(stem, dtype).with_platform(core_num=cores, ub_size=ub)
            datasets = [[np.array(example[n], DTYPES[dtype]) for n in INPUTS[stem]],
                        sample(stem, dtype, 5000, 1)]
            for seed, inputs in enumerate(datasets):
                result = kernel.run(*inputs)
                record = result.tilings[0]
                assert record is not None
                y = run_on_cpu(tmp_path / f"run_{stem}", inputs, record, ub,
                               tmp_path / f"{stem}_{dtype}_{seed}")
                assert same(y, np.asarray(result.outputs[0])), (stem, dtype, seed)
                defined = ~np.isnan(inputs[-1].astype(np.float32))
                expected = reference(*inputs, **ATTRIBUTES.get(stem, {}))
                assert same(y[defined], expected[defined]), (stem, dtype, seed)


@pytest.mark.parametrize("stems", halves(STEMS, CPU_SAMPLE))
def test_every_kernel_unit_test_passes_on_the_cpu_model(packages: dict[str, Path],
                                                        stems: tuple[str, ...],
                                                        tmp_path: Path) -> None:
    """tests/ut/op_kernel of every package, built against the CPU model with test-only
    stand-ins of googletest and tikicpulib, all at once."""
    cxx = compiler()
    jobs = []
    for stem in stems:
        source = packages[stem] / f"tests/ut/op_kernel/test_{OPS_NN[stem][1]}.cpp"
        command = [cxx, *STRICT, f"-I{SHIMS}", f"-I{MODEL}", str(source), "-o",
                   str(tmp_path / f"ut_{stem}")]
        jobs.append((stem, subprocess.Popen(command, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT, text=True)))
    for stem, job in jobs:
        output, _ = job.communicate()
        assert job.returncode == 0, f"{stem}:\n{output}"
    for stem in stems:
        done = subprocess.run([str(tmp_path / f"ut_{stem}")], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, f"{stem}:\n{done.stdout}{done.stderr}"
        assert done.stdout.splitlines()[-1] == "3 passed, 0 failed", stem

# endregion
