"""A kernel reading its row count from a tensor (hsg.first_rows: ops-nn's group_index) is
packaged with group_index as an optional int64 input, as ops-nn's ClippedSwiglu declares it
(activation/clipped_swiglu/op_host/clipped_swiglu_def.cpp): the op definition, the tiling
(groupNum: the counts' number, -1 when absent), aclnn (a `const aclTensor*` that may be
nullptr) and the kernel entry take it; the kernel unit tests pass on the CPU model, absent
(every row bit-exact) and given (the counted rows bit-exact, no other row written), for
ClippedSwiglu (A2/A3 and 950), a softmax row kernel (950) and SwigluGroup (950: its only SoC)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from cpu_build import ARCH35_UT_FLAGS, build_and_run_unit_tests

from hswc.tools.hswc_emit import main as hswc_emit

CLIPPED = """
func.func @f(%x: tensor<8x128xf16>, %group_index: tensor<3xi64>) -> tensor<8x64xf16> {
  %y = hsg.clipped_swiglu %x {interleaved = false} : tensor<8x128xf16>
  %z = hsg.first_rows %y, %group_index : tensor<8x64xf16>, tensor<3xi64>
  return %z : tensor<8x64xf16>
}
"""
SOFTMAX = """
func.func @f(%x: tensor<6x96xf32>, %group_index: tensor<2xi64>) -> tensor<6x96xf32> {
  %y = hsg.softmax %x : tensor<6x96xf32>
  %z = hsg.first_rows %y, %group_index : tensor<6x96xf32>, tensor<2xi64>
  return %z : tensor<6x96xf32>
}
"""
"""A row kernel (its tiling counts rows): its package takes group_index too."""
SWIGLU_GROUP = """
func.func @f(%x: tensor<16x256xbf16>, %group_index: tensor<4xi64>) -> tensor<16x128xbf16> {
  %y = hsg.swiglu_group %x {clamp_limit = 7.0 : f32} : tensor<16x256xbf16>
  %z = hsg.first_rows %y, %group_index : tensor<16x128xbf16>, tensor<4xi64>
  return %z : tensor<16x128xbf16>
}
"""
"""ops-nn's SwigluGroup (Ascend 950 only, its definition's one SoC) with its group_index."""


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, Path]:
    root = tmp_path_factory.mktemp("group_index")
    made = {}
    both = ["--soc", "ascend910b", "--soc", "ascend950"]
    for name, text, args in (("clipped", CLIPPED, ["--name", "ClippedSwiglu", *both]),
                             ("softmax", SOFTMAX, both),
                             ("swiglu_group", SWIGLU_GROUP,
                              ["--name", "SwigluGroup", "--soc", "ascend950"])):
        source = root / f"{name}.mlir"
        source.write_text(text)
        assert hswc_emit([str(source), *args, "-o", str(root / name)]) == 0
        made[name] = root / name
    return made


def test_every_layer_takes_group_index_as_an_optional_int64(
        packages: Mapping[str, Path]) -> None:
    pkg = packages["clipped"]
    definition = (pkg / "op_host/clipped_swiglu_def.cpp").read_text()
    x, group, y = (definition.index(f'Input("{n}")') if n != "y" else
                   definition.index('Output("y")') for n in ("x", "group_index", "y"))
    assert x < group < y
    assert "ParamType(OPTIONAL)" in definition[group:y]
    assert "ge::DT_INT64" in definition[group:y]
    tiling = (pkg / "op_host/arch22/clipped_swiglu_tiling.cpp").read_text()
    assert "context->GetOptionalInputShape(1)" in tiling
    assert "tilingData->groupNum = -1;" in tiling
    assert "tilingData->groupNum = groupIndexDims.GetDim(0);" in tiling
    data = (pkg / "op_kernel/clipped_swiglu_tiling_data.h").read_text()
    assert "int64_t groupNum = 0;" in data
    aclnn = (pkg / "op_host/op_api/aclnn_clipped_swiglu.h").read_text()
    assert "const aclTensor* x,\n    const aclTensor* groupIndexOptional, aclTensor* out" in aclnn
    entry = (pkg / "op_kernel/clipped_swiglu.cpp").read_text()
    assert "clipped_swiglu(GM_ADDR x, GM_ADDR group_index, GM_ADDR y, GM_ADDR workspace" in entry
    example = (pkg / "examples/test_aclnn_clipped_swiglu.cpp").read_text()
    assert "aclnnClippedSwigluGetWorkspaceSize(x.tensor, nullptr, y.tensor" in example
    readme = (pkg / "README.md").read_text()
    assert "| `group_index` | optional input |" in readme


def test_kernel_unit_tests_pass_on_the_cpu_model(packages: Mapping[str, Path],
                                                 tmp_path: Path) -> None:
    ut = "tests/ut/op_kernel"
    sources = {"clipped": (packages["clipped"] / ut / "test_clipped_swiglu.cpp", ()),
               "softmax_950": (packages["softmax"] / ut / "test_softmax_apt.cpp",
                               ARCH35_UT_FLAGS),
               "swiglu_group_950": (packages["swiglu_group"] / ut / "test_swiglu_group_apt.cpp",
                                    ARCH35_UT_FLAGS)}
    for name, done in build_and_run_unit_tests(sources, tmp_path).items():
        assert done.stdout.splitlines()[-1:] == ["1 passed, 0 failed"], \
            f"{name}:\n{done.stdout}\n{done.stderr}"
