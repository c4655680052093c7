"""hswc-check-kernel on an op folder inside an ops-nn tree (examples/check_kernel/opsnn_tree,
written for these tests), built as ops-nn's own CMake builds it:

- the tiling includes `../op_kernel/arch35/leaky_forms_dag.h` from op_host/arch35/, found
  through op_host/ (cmake/func.cmake add_tiling_sources's include directories);
- its tiling data uses TILING_DATA_FIELD_DEF_ARR and TILING_DATA_FIELD_DEF_STRUCT, laid out as
  metadef's tilingdata_base does (fields at multiples of their size, a nested class at 8, the
  whole padded to 8);
- the definition is `OP_ADD(LeakyFormsDef)` while the binary configuration and the tiling name
  the op LeakyForms: the tiling is looked up by the binary configuration's op_type, as
  cmake/func.cmake's get_op_type_from_binary_json takes it;
- the entry is `KERNEL_API void leaky_forms(...)`, KERNEL_API coming from "../inc/platform.h",
  which ops-nn's kernel build finds in tbe/ascendc/inc/ (its common/inc/op_kernel/).

Also: where nlohmann/json is looked for, and the message when a tiling needs it and it is not
there; and an op whose tiling data class exists only on the host (activation/leaky_host_data, as
ops-nn's sigmoid): the kernel says GET_TILING_DATA and gets the struct generated from the class
REGISTER_TILING_DATA_CLASS registers, force-included as CANN's kernel build does; an optional
input the reference does not take (activation/leaky_grad_optional, as ops-nn's MishGrad's tanhx)
left out as the framework leaves it out: absent for the tiling, a null address for the kernel;
the host model's ge::DataType and ge::Format whole (metadef's graph/types.h), and opbase's
`op_host/util/platform_util.h` spelling reaching the model's, not opbase's header beside it; of
several `__global__` functions the entry the build launches (ops-nn's swish: `swish`, not the
`SwishKernel` template it calls); the kernel op_kernel/CMakeLists.txt lists for the SoC, with a
UT entry and a device one under #ifdef DTYPE_X (activation/leaky_ut_variant, as ops-nn's
hard_swish_grad_v2).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from hswc.checker import op_folder
from hswc.checker.check import build_plans, plan, run_plan
from hswc.checker.errors import CheckError
from hswc.checker.kernel_source import expanded_qualifiers, object_macros, scan
from hswc.checker.options import CheckOptions

TREE = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "opsnn_tree"
FOLDER = TREE / "activation" / "leaky_forms"
BASE = CheckOptions(kernel=str(FOLDER), op="hsg.leaky_relu", soc="ascend950", core_num=4,
                    ub_size=16384, sizes=(129, 2561), jobs=2, dtypes=("f32",))


def test_an_op_folder_built_with_ops_nn_include_dirs_tiling_forms_and_op_type() -> None:
    p = plan(BASE)
    try:
        assert p.sources.entry.name == "leaky_forms"  # through KERNEL_API
        assert p.struct == "LeakyFormsTiling"
        assert p.report.notes[0].startswith("tiling: LeakyFormsDef's own, registered as "
                                            "LeakyForms (its binary configuration's op type) (")
        launch = next(c.launch for c in p.cases if c.size == 2561)
        assert launch.block_dim == 4
        assert launch.fields["blockFactor"] == 641 and launch.fields["flag"] == 1
        raw = launch.raw
        assert raw is not None and len(raw) == 48  # padded to 8
        total, block, ub = struct.unpack_from("<3q", raw)
        slope, flag = struct.unpack_from("<fB", raw, 24)
        dims = struct.unpack_from("<2q", raw, 32)
        assert (total, block, slope, flag, dims) == (2561, 641, 0.125, 1, (2561, 7))
        assert ub % 128 == 0 and ub > 0
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()  # the kernel writes nothing unless dims came through


def test_the_binary_configuration_names_the_op_type(tmp_path: Path) -> None:
    assert op_folder.binary_op_type(FOLDER, "ascend950") == "LeakyForms"
    assert op_folder.binary_op_type(FOLDER, "ascend910b") is None  # no config: OP_ADD's name
    folder = op_folder.folder(FOLDER, "ascend950")
    assert folder.op_type == "LeakyForms"
    host = (FOLDER / "op_host").resolve()
    assert folder.include_dirs[-2:] == (host.parent.parent, host)
    assert TREE.resolve() / "common" / "inc" / "op_host" in folder.include_dirs
    tree = [d for d in folder.kernel_include_dirs if (d / ".." / "inc" / "platform.h").is_file()]
    assert len(tree) == 1
    assert (tree[0] / ".." / "inc").resolve() == (TREE / "common" / "inc" / "op_kernel").resolve()


def test_an_entrys_qualifiers_are_read_through_object_like_macros() -> None:
    text = ('#define API extern "C" __global__ __aicore__\n#define OUTER API\n'
            "#define F(x) x\n#define GONE __global__\n#undef GONE\n#define SELF SELF __aicore__\n")
    macros = object_macros(text)
    assert macros == {"API": 'extern "C" __global__ __aicore__', "OUTER": "API",
                      "SELF": "SELF __aicore__"}
    assert "__global__" in expanded_qualifiers("OUTER ", macros)
    assert "__global__" not in expanded_qualifiers("GONE ", macros)  # undefined again
    assert expanded_qualifiers("SELF ", macros) == ["SELF", "__aicore__"]  # not recursive
    assert "__global__" not in expanded_qualifiers("__aicore__ inline ", macros)


def test_nlohmann_json_is_looked_for_where_ops_nns_build_takes_it(tmp_path: Path) -> None:
    source = tmp_path / "json_source"
    third = tmp_path / "third_party"
    for header in (source / "include", third / "json" / "include"):
        (header / "nlohmann").mkdir(parents=True)
        (header / "nlohmann" / "json.hpp").touch()  # only its presence is looked at
    both = {"JSON_SOURCE_PATH": str(source), "CANN_3RD_LIB_PATH": str(third)}
    assert op_folder.json_includes(both) == ((source / "include").resolve(),)
    assert op_folder.json_includes({"CANN_3RD_LIB_PATH": str(third)}) == (
        (third / "json" / "include").resolve(),)
    assert op_folder.json_includes({"JSON_SOURCE_PATH": str(tmp_path / "none")}) == ()


def _compiler_finds_json() -> bool:
    done = subprocess.run(["g++", "-std=c++17", "-E", "-x", "c++", "-", "-o", "/dev/null"],
                          input="#include <nlohmann/json.hpp>\n", capture_output=True,
                          text=True, check=False)
    return done.returncode == 0


JSON_PARSE = ("#include <nlohmann/json.hpp>\n"
              "static const bool kParsed = [] { (void)nlohmann::json::parse(\"{\\\"a\\\": [1]}\"); "
              "return true; }();\n")
"""What Sigmoid's arch35 tiling does with nlohmann/json: parse its compile info."""


def test_a_tiling_that_parses_json_builds_on_the_stand_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JSON_SOURCE_PATH", raising=False)
    monkeypatch.delenv("CANN_3RD_LIB_PATH", raising=False)
    tree = tmp_path / "ops-nn"
    shutil.copytree(TREE, tree)
    tiling = tree / "activation" / "leaky_forms" / "op_host" / "arch35" / "leaky_forms_tiling.cpp"
    tiling.write_text(JSON_PARSE + tiling.read_text())
    kernel = tree / "activation" / "leaky_forms" / "op_kernel" / "leaky_forms_apt.cpp"
    kernel.write_text(kernel.read_text().replace("../../../../elementwise_kernel.h",
                                                 str(TREE.parent / "elementwise_kernel.h")))
    p = plan(replace(BASE, kernel=str(tiling.parents[2]), sizes=(129,)))
    assert p.struct is not None


def test_a_tiling_that_needs_more_of_nlohmann_json_where_there_is_none_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JSON_SOURCE_PATH", raising=False)
    monkeypatch.delenv("CANN_3RD_LIB_PATH", raising=False)
    if op_folder.json_includes() or _compiler_finds_json():
        pytest.skip("nlohmann/json is installed here")
    tree = tmp_path / "ops-nn"
    shutil.copytree(TREE, tree)
    tiling = tree / "activation" / "leaky_forms" / "op_host" / "arch35" / "leaky_forms_tiling.cpp"
    more = 'static int Slope() { return nlohmann::json::parse("{}")["s"]; }\n'
    tiling.write_text(JSON_PARSE + more + tiling.read_text())
    kernel = tree / "activation" / "leaky_forms" / "op_kernel" / "leaky_forms_apt.cpp"
    shared = "../../../../elementwise_kernel.h"
    kernel.write_text(kernel.read_text().replace(shared, "no/such/header.h"))
    with pytest.raises(CheckError, match=r"no __global__ __aicore__ entry function in .*"
                       r"leaky_forms_apt\.cpp \(the checker could not preprocess .*no/such/"):
        plan(replace(BASE, kernel=str(tiling.parents[2])))  # KERNEL_API is in a header
    kernel.write_text(kernel.read_text().replace("no/such/header.h",
                                                 str(TREE.parent / "elementwise_kernel.h")))
    with pytest.raises(CheckError) as error:
        plan(replace(BASE, kernel=str(tiling.parents[2])))
    text = str(error.value)
    assert text.startswith("the tiling of LeakyFormsDef (")
    assert "uses more of nlohmann/json than hswc's stand-in for it" in text
    assert "the library is not found" in text
    assert "$JSON_SOURCE_PATH/include" in text and "pip install nlohmann-json" in text
    assert "\n" not in text  # one line for the sweep's table


HOST_DATA = TREE / "activation" / "leaky_host_data"


def test_a_tiling_data_class_only_the_host_declares_is_the_kernels_generated_struct() -> None:
    p = plan(replace(BASE, kernel=str(HOST_DATA), sizes=(129,)))
    try:
        assert p.struct == "LeakyHostDataTilingData"
        header = p.report.notes[1].rsplit("(", 1)[1].rstrip(")")
        assert "generated from the tiling-data class LeakyHostData's tiling registers" in (
            p.report.notes[1])
        assert header in p.options.forced_includes
        text = Path(header).read_text()
        # The host's layout, asserted in the header: the 2-byte flag at 28, marks at 32, 48 in all.
        for line in ("int32_t marks[3]{};", "sizeof(LeakyHostDataTilingData) == 48",
                     "offsetof(LeakyHostDataTilingData, flag) == 28",
                     "offsetof(LeakyHostDataTilingData, marks) == 32",
                     # the class registered for tiling key 500 (LeakyHostData_500) as well
                     "struct alignas(8) LeakyHostDataKeyTilingData {",
                     "sizeof(LeakyHostDataKeyTilingData) == 8"):
            assert line in text
        # Not op_kernel/leaky_host_data_tiling_data.h's struct of that name (another kernel's).
        assert "smallCoreDataNum" not in {f.name for f in p.fields}
        launch = p.cases[0].launch
        assert launch.fields["flag"] == 0x1234 and launch.fields["negativeSlope"] == 0.25
        raw = launch.raw
        assert raw is not None and len(raw) == 48
        assert struct.unpack_from("<H2x3i", raw, 28) == (0x1234, 1, 2, 3)
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()  # the kernel writes nothing unless flag and marks came


OPTIONAL = TREE / "activation" / "leaky_grad_optional"


def test_an_optional_input_the_reference_does_not_take_is_left_out() -> None:
    p = plan(replace(BASE, kernel=str(OPTIONAL), op="hsg.leaky_relu_grad", sizes=(2561,),
                     ignore_nan_inputs=("x",)))
    try:
        assert p.absent_inputs == frozenset({2})
        assert p.order == (0, 1)  # dy <- grad, x <- x
        assert "scale <- none (an optional input left out: a null address)" in (
            p.report.arguments)
        assert p.cases[0].launch.fields["absent"] == 1  # what the tiling saw
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()  # the kernel writes nothing unless scale is null


def test_the_host_models_types_are_metadefs_and_opbase_helpers_are_the_models(
        tmp_path: Path) -> None:
    from hswc.checker.host_tiling import HOST_MODEL

    # Stands for opbase's include/op_common, whose op_host/util/platform_util.h defines what the
    # model defines (ops-nn's experimental relu_grad_v3 includes it by that spelling).
    opbase = tmp_path / "opbase" / "include" / "op_common"
    (opbase / "op_host" / "util").mkdir(parents=True)
    (opbase / "op_host" / "util" / "platform_util.h").write_text(
        "namespace Ops { namespace Base {\n"
        "template <typename T> unsigned GetAivCoreNum(const T*) { return 0; }\n}}\n")
    source = tmp_path / "uses.cpp"
    source.write_text(
        '#include "register/op_def_registry.h"\n#include "op_host/util/platform_util.h"\n'
        '#include "op_host/util/math_util.h"\n#include "op_common/op_host/util/platform_util.h"\n'
        "static_assert(ge::DT_UINT1 == 30 && ge::DT_HIFLOAT4 == 42 && ge::DT_MAX == 43, \"\");\n"
        "static_assert(ge::FORMAT_C1HWNCoC0 == 25 && ge::FORMAT_NCL == 47, \"\");\n"
        "static_assert(ge::FORMAT_END == 55 && ge::FORMAT_MAX == 0xff, \"\");\n"
        "static_assert(C_DT_UINT1 == 30, \"\");\n"
        "unsigned Cores(const gert::TilingContext* c) { return Ops::Base::GetAivCoreNum(c); }\n")
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", f"-I{HOST_MODEL}", f"-I{opbase}",
                           str(source)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_an_int_attribute_read_through_int32_is_its_low_half(tmp_path: Path) -> None:
    """metadef's RuntimeAttrs::GetAttrPointer<T> reinterprets the stored value's address
    (exe_graph/runtime/runtime_attrs.h): GeluQuant's arch35 tiling reads its Int dst_type
    through int32_t*, the low half of the int64_t on a little-endian host; another type of the
    value is still nullptr. ge::char_t is graph/types.h's char."""
    from hswc.checker.host_tiling import HOST_MODEL

    source = tmp_path / "attrs.cpp"
    source.write_text(
        '#include "register/op_def_registry.h"\n'
        "int main() {\n"
        "    gert::RuntimeAttrs attrs;\n"
        "    gert::RuntimeAttrs::Value v;\n"
        "    v.kind = gert::RuntimeAttrs::Kind::kInt;\n"
        "    v.i = (int64_t{7} << 32) | 2;\n"
        "    attrs.Add(v);\n"
        "    const int32_t* low = attrs.GetAttrPointer<int32_t>(0);\n"
        "    const ge::char_t* text = attrs.GetAttrPointer<ge::char_t>(0);\n"
        "    return low != nullptr && *low == 2 && text == nullptr && attrs.WasRead(0) ? 0 : 1;\n"
        "}\n")
    exe = tmp_path / "attrs"
    built = subprocess.run(["g++", "-std=c++17", f"-I{HOST_MODEL}", str(source), "-o", str(exe)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(exe)], check=False).returncode == 0


def test_of_several_global_functions_the_entry_is_the_one_the_build_launches(
        tmp_path: Path) -> None:
    kernel = tmp_path / "op_kernel"
    kernel.mkdir()
    helper = ("template <uint64_t M, typename D>\n__global__ __aicore__ void SwishKernel("
              "GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n{\n}\n")
    entry = ("template <uint64_t M>\n__global__ __aicore__ void swish(GM_ADDR x, GM_ADDR y, "
             "GM_ADDR workspace, GM_ADDR tiling)\n{\n    SwishKernel<M, float>(x, y, workspace, "
             "tiling);\n}\n")
    (kernel / "swish_apt.cpp").write_text('#include "kernel_operator.h"\n' + helper + entry)
    with pytest.raises(CheckError, match=r"several entries \(SwishKernel, swish\)"):
        scan(kernel)
    # Named as the op's kernel (an op folder's op type in snake case, its opFile).
    assert scan(kernel, kernel_names=("swish", "swish_apt")).entry.name == "swish"
    assert scan(kernel, kernel_names=("other", "swish")).entry.name == "swish"
    # Else the one extern "C" function, what the launch looks up by name.
    (kernel / "swish_apt.cpp").write_text('#include "kernel_operator.h"\n' + helper
                                         + 'extern "C" ' + entry.split("\n", 1)[1])
    chosen = scan(kernel).entry
    assert (chosen.name, chosen.extern_c, chosen.template) == ("swish", True, None)


UT_VARIANT = TREE / "activation" / "leaky_ut_variant"


def test_the_950_kernel_is_the_one_cmake_lists_and_its_device_entry_is_checked() -> None:
    """As ops-nn's hard_swish_grad_v2: op_kernel/CMakeLists.txt names arch35's kernel for
    ascend950 (op_kernel/ holds another of the name); its entry is a UT variant under
    #ifdef DTYPE_X and the device template under #else. The checker builds the device one
    (DTYPE_X appears only in the headers' #ifdefs: not defined for it) and the tiling-data
    header its header includes."""
    p = plan(replace(BASE, kernel=str(UT_VARIANT), sizes=(2561,), ignore_nan_inputs=("x",)))
    try:
        arch35 = UT_VARIANT / "op_kernel" / "arch35" / "leaky_ut_variant.cpp"
        assert p.sources.entry.source == arch35
        assert p.sources.entry.template is not None  # the device template
        assert p.sources.dtype_macros == ()
        assert not p.options.forced_includes  # its header includes the tiling data itself
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()


def test_the_ut_variant_of_an_entry_gets_the_tiling_data_header_its_header_leaves_out() -> None:
    """-D DTYPE_X=float picks the UT entry, whose header leaves the tiling data to the UT
    build: the guarded header the struct is found in is force-included, as that build would."""
    p = plan(replace(BASE, kernel=str(UT_VARIANT), sizes=(2561,), ignore_nan_inputs=("x",),
                     defines={None: ("DTYPE_X=float",)}))
    try:
        assert p.sources.entry.template is None  # the UT entry
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()


def test_a_bool_attribute_takes_the_definitions_default_as_true_or_false() -> None:
    """EluGradV2's is_result is Bool(false), which the host model's description gives as 0."""
    from hswc.checker.host_tiling import Attribute, OpDefinition
    from hswc.checker.op_dir import OpDir

    definition = OpDefinition("EluGradV2", attributes=[Attribute("alpha", "Float", "1.0"),
                                                       Attribute("is_result", "Bool", "0")])
    opdir = OpDir(None, definition, TREE, "g++", TREE)  # type: ignore[arg-type]
    semantic, _ = opdir.split_attributes("hsg.elu_grad", {})
    assert semantic["is_result"] == "false" and semantic["alpha"] == "1.0"
