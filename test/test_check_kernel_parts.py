"""hswc-check-kernel's parts that need no compiler: reading kernel sources, tiling values and
their bytes, the sizes around a tiling's boundaries, the inputs, the reference's thresholds,
the model's violation lines and the report's first differences."""

from __future__ import annotations

import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.checker import expected, inputs, kernel_source, rules, sizes
from hswc.checker.errors import CheckError
from hswc.checker.report import first_differences
from hswc.checker.tiling_values import (
    Launch,
    TilingSource,
    load_function,
    parse_layout,
    parse_values,
)
from hswc.reference import compare_bitwise

FIXTURES = Path(__file__).resolve().parents[1] / "examples" / "check_kernel"

# region kernel sources

KERNEL = r"""
#include "kernel_operator.h"
struct MyTiling {
    int64_t totalNum = 0;      // elements
    uint32_t ubFactor;         /* no default */
    float lambd = 0.5f, bias{1.0f};
    __aicore__ inline int64_t Half() const { return totalNum / 2; }
    static constexpr int kMax = 8;
};
// template <typename X> __global__ __aicore__ void gone(GM_ADDR a, GM_ADDR w, GM_ADDR t) {}
template <typename D_T, int BUFFER_MODE = 0>
__global__ __aicore__ void my_op(GM_ADDR grad, GM_ADDR x, [[maybe_unused]] GM_ADDR y,
                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(MyTiling, t, tiling);
    DTYPE_X v = DTYPE_GRAD(0);
}
#define DTYPE_OWN float
template <int DTYPE_SELF_ID> void helper() {}
"""


def test_scan_finds_the_entry_its_template_gm_arguments_macros_and_struct(tmp_path: Path) -> None:
    (tmp_path / "my_op.cpp").write_text(KERNEL)
    (tmp_path / "notes.txt").write_text("__global__ __aicore__ void not_source(")
    found = kernel_source.scan(tmp_path)
    assert found.entry.name == "my_op"
    assert found.entry.gm_arguments == ("grad", "x", "y")
    assert [(p.name, p.is_type) for p in found.entry.template or ()] == [
        ("D_T", True), ("BUFFER_MODE", False)]
    assert found.entry.template_spelling == "template <typename D_T, int BUFFER_MODE = 0>"
    # DTYPE_OWN is #defined and DTYPE_SELF_ID a template parameter: only the other two.
    assert found.dtype_macros == ("DTYPE_GRAD", "DTYPE_X")
    assert found.tiling_struct_used == "MyTiling"
    fields = kernel_source.tiling_fields(found, "MyTiling")
    assert [(f.name, f.has_default) for f in fields] == [
        ("totalNum", True), ("ubFactor", False), ("lambd", True), ("bias", True)]


def test_scan_expands_a_template_parameter_list_spelt_as_a_macro(tmp_path: Path) -> None:
    # opbase's reduce kernels write `template <REDUCE_TPL_PARAM>` (atvoss/reduce/
    # reduce_tiling_key_decl.h:63): the parameters are the macro's, as the compiler reads them.
    (tmp_path / "my_reduce.cpp").write_text(
        '#include "kernel_operator.h"\n'
        "#define MY_TPL_PARAM \\\n    bool IsContiguous, uint32_t PatternID\n"
        "template <typename T, MY_TPL_PARAM>\n"
        "__global__ __aicore__ void my_reduce(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, "
        "GM_ADDR tiling) {}\n")
    found = kernel_source.scan(tmp_path)
    assert [(p.name, p.is_type) for p in found.entry.template or ()] == [
        ("T", True), ("IsContiguous", False), ("PatternID", False)]


def test_scan_finds_orig_dtype_macros_read_only_by_if_lines(tmp_path: Path) -> None:
    """CANN's kernel build defines ORIG_DTYPE_<N> (a ge::DataType name) beside DTYPE_<N>;
    kernels compare it in #if lines (ClippedSwiglu: `#if (ORIG_DTYPE_X == DT_FLOAT16)`), which
    preprocessing removes, so the scan reads them from the files as written."""
    (tmp_path / "my_op.cpp").write_text(KERNEL.replace(
        "    DTYPE_X v = DTYPE_GRAD(0);\n",
        "    DTYPE_X v = DTYPE_GRAD(0);\n#if (ORIG_DTYPE_X == DT_FLOAT16)\n    v = v;\n#endif\n"))
    found = kernel_source.scan(tmp_path)
    assert found.dtype_macros == ("DTYPE_GRAD", "DTYPE_X", "ORIG_DTYPE_X")


def test_scan_uses_op_kernel_of_an_operator_directory_and_the_file_named_after_the_entry(
        tmp_path: Path) -> None:
    kernel = tmp_path / "relu_v9" / "op_kernel"
    kernel.mkdir(parents=True)
    entry = "__global__ __aicore__ void relu_v9(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n"
    (kernel / "relu_v9.cpp").write_text(entry)
    (kernel / "relu_v9_apt.cpp").write_text(entry)
    found = kernel_source.scan(tmp_path / "relu_v9")
    assert found.directory == kernel and found.entry.source == kernel / "relu_v9.cpp"
    assert found.entry.template is None


@pytest.mark.parametrize("text,entry,message", [
    ("int main() {}", None, "no __global__ __aicore__ entry"),
    ("__global__ __aicore__ void a(GM_ADDR x, GM_ADDR w, GM_ADDR t) {}\n"
     "__global__ __aicore__ void b(GM_ADDR x, GM_ADDR w, GM_ADDR t) {}", None,
     "several entries (a, b): name one with --entry"),
    ("__global__ __aicore__ void a(GM_ADDR x, GM_ADDR w, GM_ADDR t) {}", "c",
     "no __global__ entry 'c'"),
    ("__global__ __aicore__ void a(GM_ADDR t) {}", None, "does not take (GM_ADDR inputs"),
])
def test_scan_says_what_is_missing_or_ambiguous(tmp_path: Path, text: str, entry: str | None,
                                                message: str) -> None:
    (tmp_path / "k.cpp").write_text(text)
    with pytest.raises(CheckError, match=message.replace("(", r"\(").replace(")", r"\)")):
        kernel_source.scan(tmp_path, entry)


def test_scan_refuses_a_missing_kernel_and_a_missing_struct(tmp_path: Path) -> None:
    with pytest.raises(CheckError, match="does not exist"):
        kernel_source.scan(tmp_path / "nowhere")
    with pytest.raises(CheckError, match=r"holds no \.cpp file"):
        kernel_source.scan(tmp_path)
    (tmp_path / "k.cpp").write_text(KERNEL)
    with pytest.raises(CheckError, match="no tiling struct Other"):
        kernel_source.tiling_fields(kernel_source.scan(tmp_path), "Other")


def test_a_struct_in_an_include_header_is_found(tmp_path: Path) -> None:
    """ops-nn's GET_TILING_DATA kernels get their struct from a UT tiling_def.h (--include)."""
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_kernel" / "k.cpp").write_text(KERNEL)
    header = tmp_path / "tiling_def.h"
    header.write_text("struct Other {\n    int64_t elementNum = 0;\n    uint32_t needCoreNum;\n};")
    sources = kernel_source.scan(tmp_path / "op_kernel")
    with pytest.raises(CheckError, match="no tiling struct Other"):
        kernel_source.tiling_fields(sources, "Other")
    fields = kernel_source.tiling_fields(sources, "Other", (), (header,))
    assert [f.name for f in fields] == ["elementNum", "needCoreNum"]


# endregion
# region tiling values


LAYOUT = ("struct 24 000000000000000000000000000000000000003f00000000\n"
          "field totalNum 0 8 int\nfield ubFactor 8 4 uint\nfield lambd 16 4 float\n"
          "field flag 20 1 bool\n")
FIELDS = (kernel_source.TilingField("totalNum", True), kernel_source.TilingField("ubFactor", False),
          kernel_source.TilingField("lambd", True), kernel_source.TilingField("flag", True))


def test_pack_lays_values_out_over_the_structs_defaults() -> None:
    layout = parse_layout("MyTiling", LAYOUT)
    data = layout.pack({"totalNum": -3, "ubFactor": 4096}, FIELDS, "here")
    assert len(data) == 24
    assert struct.unpack_from("<q", data, 0)[0] == -3
    assert struct.unpack_from("<I", data, 8)[0] == 4096
    assert struct.unpack_from("<f", data, 16)[0] == 0.5  # the default bytes, 0x3f000000
    data = layout.pack({"ubFactor": 1, "lambd": 0.1, "flag": 1}, FIELDS, "here")
    assert struct.unpack_from("<f", data, 16)[0] == np.float32(0.1)
    assert data[20] == 1


@pytest.mark.parametrize("values,message", [
    ({"ubFactor": 1, "nope": 2}, "MyTiling has no field nope"),
    ({"totalNum": 1}, r"ubFactor of MyTiling have no default"),
    ({"ubFactor": -1}, r"ubFactor \(uint, 4 bytes\) = -1: outside \[0, 4294967295\]"),
    ({"ubFactor": 1 << 32}, "outside"),
    ({"ubFactor": 2.5}, "the field is an integer"),
    ({"ubFactor": 1, "lambd": 1e39}, "too large for a float"),
    ({"ubFactor": 1, "flag": 2}, r"outside \[0, 1\]"),
])
def test_pack_names_the_field_of_a_bad_value(values: dict, message: str) -> None:
    with pytest.raises(CheckError, match=message):
        parse_layout("MyTiling", LAYOUT).pack(values, FIELDS, "f16 run of 8 elements")


def test_parse_values_reads_integers_in_any_base_and_floats() -> None:
    assert parse_values("a=1, b=0x10,c=-2.5e-1") == {"a": 1, "b": 16, "c": -0.25}
    for bad in ("a", "a=", "=1", "a=one", "1a=2"):
        with pytest.raises(CheckError, match="--tiling"):
            parse_values(bad)


def test_launch_merges_fixed_values_over_the_function_and_checks_its_result(
        tmp_path: Path) -> None:
    module = tmp_path / "my_tiling.py"
    module.write_text("def f(total, cores, ub, dtype):\n"
                      "    return {'totalNum': total, 'ubFactor': ub // 8, 'block_dim': cores,\n"
                      "            'template_args': ('{T}', 1), 'tiling_key': 7}\n"
                      "def raises(total, cores, ub, dtype):\n    raise ValueError('no UB')\n"
                      "def no_dim(total, cores, ub, dtype):\n    return {'totalNum': total}\n"
                      "def not_a_map(total, cores, ub, dtype):\n    return [total]\n")
    source = TilingSource({"f16": {"ubFactor": 64}}, load_function(f"{module}:f"), "f", None, {})
    assert source.launch(100, "f16", 8, 1024) == Launch(
        {"totalNum": 100, "ubFactor": 64}, 8, 7, "{T}, 1")
    assert source.launch(100, "f32", 8, 1024).fields["ubFactor"] == 128
    for name, message in (("raises", r"raises\(100, 8, 1024, 'f16'\) raised ValueError: no UB"),
                          ("no_dim", "no block_dim"), ("not_a_map", "returned list")):
        bad = TilingSource({}, load_function(f"{module}:{name}"), name, None, {})
        with pytest.raises(CheckError, match=message):
            bad.launch(100, "f16", 8, 1024)


@pytest.mark.parametrize("spec,message", [
    ("nocolon", "expected module:function"),
    ("missing_file.py:f", "no file 'missing_file.py'"),
    ("hswc_no_such_module:f", "importing hswc_no_such_module failed: ModuleNotFoundError"),
    ("hswc.reference:no_such_function", "hswc.reference has no function no_such_function"),
])
def test_load_function_says_what_failed(spec: str, message: str) -> None:
    with pytest.raises(CheckError, match=message):
        load_function(spec)


# endregion
# region sizes


def _cann_like(total: int) -> Launch:
    """CANN's split on 8 cores with a 1000-element pass."""
    block_factor = -(-total // 8)
    return Launch({"totalNum": total, "blockFactor": block_factor, "ubFactor": 1000,
                   "dataType": 1}, -(-total // block_factor), 0, None)


def test_boundary_sizes_straddle_the_core_boundary_and_every_pass_boundary() -> None:
    assert sizes.tiles(_cann_like) == [1000]  # dataType (1) is too small to be a pass
    assert sizes.core_boundary(_cann_like) == (8, 8)
    got = sizes.boundary_sizes(_cann_like, pool_size=65536)
    want = {1, 2, 15, 16, 17, 127, 128, 129, 7, 8, 9, 65536, 999, 1000, 1001, 2001, 7999,
            8000, 8001, 16007}
    assert got == sorted(want)
    assert max(sizes.boundary_sizes(_cann_like, 65536, limit=9000)) == 8001


# endregion
# region inputs and the reference's thresholds


def test_f16_and_bf16_pools_hold_every_bit_pattern_once_and_the_full_run_feeds_them_in_order(
) -> None:
    for dtype in ("f16", "bf16"):
        pool = inputs.pool(dtype, [3.0])
        assert np.array_equal(np.sort(pool.view(np.uint16)), np.arange(1 << 16, dtype=np.uint16))
        first, second = inputs.draw(dtype, [3.0], 2, 1 << 16)
        assert np.array_equal(first.view(np.uint16), np.arange(1 << 16, dtype=np.uint16))
        assert np.array_equal(np.sort(second.view(np.uint16)), np.arange(1 << 16))


def test_short_runs_start_with_the_specials_and_the_thresholds_neighbours() -> None:
    special = inputs.interesting("f32", [3.0])
    bits = set(special.view(np.uint32).tolist())
    three = 0x40400000
    assert {three - 8, three, three + 8, 0xC0400000 + 8, 0x7F800000, 0xFF800000,
            0x00000001, 0x80000000} <= bits
    drawn = inputs.draw("f32", [3.0], 2, 20)
    assert all(a.size == 20 and a.dtype == np.float32 for a in drawn)
    assert set(drawn[0].view(np.uint32).tolist()) <= bits  # the first 20 are all interesting
    again = inputs.draw("f32", [3.0], 2, 20)
    assert all(np.array_equal(a.view(np.uint32), b.view(np.uint32))
               for a, b in zip(drawn, again, strict=True))  # seeded
    bf16 = inputs.interesting("bf16", [0.7])
    assert 0x3F33 in set(bf16.view(np.uint16).tolist())  # 0.7 rounded to bf16


def test_thresholds_are_the_float_constants_and_attributes_of_the_computation() -> None:
    ref = expected.from_op("hsg.hard_swish", {}, None)
    assert {3.0, 6.0, 0.0} <= set(ref.thresholds)
    ref = expected.from_op("threshold", {"threshold": "0.7", "value": "-2"}, None)
    assert np.float32(0.7) in {np.float32(t) for t in ref.thresholds} and -2.0 in ref.thresholds
    assert ref.input_names == ("x",) and ref.dtypes == ("f16", "bf16", "f32")
    x = np.array([0.5, 0.75, np.nan], np.float32)
    np.testing.assert_array_equal(ref.outputs("f32", [x])[0], [-2.0, 0.75, np.nan])


@pytest.mark.parametrize("op,attrs,semantics,message", [
    ("hsg.nope", {}, None, "unknown op 'hsg.nope'"),
    ("hardtanh", {"lambd": "1"}, None, "has no attribute 'lambd'"),
    ("hardtanh", {"min_val": "x"}, None, "--attr min_val=x: not a number"),
    ("hardtanh", {"min_val": "inf"}, None, "must be finite"),
    ("hardtanh", {"min_val": "2", "max_val": "1"}, None, "min_val"),
    ("threshold", {"value": "1"}, None, "needs --attr for threshold"),
    ("hard_sigmoid", {}, "cann", "has no semantics 'cann'"),
])
def test_from_op_refuses_unknown_ops_attributes_values_and_semantics(
        op: str, attrs: dict, semantics: str | None, message: str) -> None:
    with pytest.raises(CheckError, match=message):
        expected.from_op(op, attrs, semantics)


def test_from_file_runs_each_dtypes_function_in_the_interpreter(tmp_path: Path) -> None:
    path = tmp_path / "ref.mlir"
    body = """
func.func @half(%a: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hardtanh %a {min_val = -0.5 : f32, max_val = 0.25 : f32} : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
func.func @single(%a: tensor<4xf32>) -> tensor<4xf32> {
  %y = hsg.leaky_relu %a {negative_slope = 0.125 : f32} : tensor<4xf32>
  func.return %y : tensor<4xf32>
}
"""
    path.write_text(body)
    ref = expected.from_file(str(path), None, None)
    assert ref.dtypes == ("f16", "f32") and ref.shapes == {"f16": None, "f32": (4,)}
    assert {-0.5, 0.25, 0.125} <= set(ref.thresholds)
    x = np.array([-1.0, 0.0, 0.2, 8.0], np.float16)
    np.testing.assert_array_equal(ref.outputs("f16", [x])[0],
                                  np.array([-0.5, 0.0, 0.2, 0.25], np.float16))
    y = np.array([-8.0, -0.0, 1.0, 2.0], np.float32)
    got = ref.outputs("f32", [y])[0]
    assert got.tolist() == [-1.0, 0.0, 1.0, 2.0] and np.signbit(got[1])
    for text, message in (("func.func @f(%a: f32) -> f32 {\n func.return %a : f32\n}",
                           "must take and return tensors"),
                          ("not mlir", "error"),
                          (body + body.replace("@half", "@h2").replace("@single", "@s2"),
                           "two functions take")):
        path.write_text(text)
        with pytest.raises(CheckError, match=message):
            expected.from_file(str(path), None, None)


# endregion
# region build errors


def test_build_errors_name_the_unmodelled_mask_repeat_form(tmp_path: Path) -> None:
    """g++'s "no matching function" for a level-0 call the model lacks (Adds with
    UnaryRepeatParams) is one sentence naming it; the level-0 Compares the model has compiles."""
    import shutil
    import subprocess

    from hswc.checker.build import MODEL, c_locale, summarise_errors

    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++)")
    source = tmp_path / "level0.cpp"
    source.write_text(
        '#include "kernel_operator.h"\nusing namespace AscendC;\n'
        "void F(const LocalTensor<float>& t, const LocalTensor<uint8_t>& m) {\n"
        "    Compares(m, t, 0.0f, CMPMODE::GT, uint64_t{64}, 1, UnaryRepeatParams{1, 1, 8, 8});\n"
        "    Adds(t, t, 1.0f, uint64_t{64}, 1, UnaryRepeatParams{});\n}\n")
    run = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", f"-I{MODEL}", str(source)],
                         capture_output=True, text=True, env=c_locale(), check=False)
    assert run.returncode != 0
    lines = summarise_errors(run.stdout + run.stderr)
    assert lines[0] == ("the kernel calls a mask/repeat (level-0) form of Adds, which "
                        "hswc/checker/ascendc_cpu does not model (it models those of Copy, "
                        "Compare, Compares / CompareScalar, Select, Add, Sub, Mul, Div, Max, "
                        "Min, Brcb and the WholeReduce and BlockReduce calls)"), lines
    assert not any("Compares" in line and "error" in line for line in lines), lines


# endregion
# region violations and differences


def test_violation_lines_are_parsed_and_sorted_into_kinds_of_rule() -> None:
    stderr = "\n".join([
        "ascendc_cpu: TPipe::InitBuffer: UB overflow: TQue<VECIN> 2x65536 at offset 0 would "
        "end at byte 131072 but the UB has 65536 bytes; buffers so far: [none] [block 3]",
        "some other line",
        "ascendc_cpu: Add: read of src0 (UB byte 64) races with an earlier write by MTE2",
        "ascendc_cpu: harness: 2 of 8 bytes of output 0 (y) were never written (first at byte 6)",
    ])
    found = rules.parse(stderr)
    assert [(v.api, v.block, v.category) for v in found] == [
        ("TPipe::InitBuffer", 3, "UB overflow"), ("Add", None, "unsynchronised pipes"),
        ("harness", None, "output never written")]
    assert found[0].rule.endswith("buffers so far: [none]")
    assert found[1].key == "Add: read of srcN (UB byte N) races with an earlier write by MTEN"
    samples = {
        "Cast: dst UB address (offset 48) is not 32-byte aligned": "misalignment",
        "DataCopyPad: read of elements [0, 640) outside the GlobalTensor bound of 1 elements":
            "GM out of bounds",
        "And: src0 needs 7008 bytes but the LocalTensor has 3520": "operand past its buffer",
        "TQue::AllocTensor: all 2 buffers of the TQue<VECIN> are in use": "queue misuse",
        "Select: a scalar src1 needs VSEL_TENSOR_SCALAR_MODE": "API misuse",
    }
    for line, kind in samples.items():
        (v,) = rules.parse(f"ascendc_cpu: {line}")
        assert v.category == kind, line


def test_first_differences_show_each_kind_with_every_input_in_hex() -> None:
    bits = np.array([0x3C00, 0x8000, 0x7E00, 0x4000, 0x4000, 0x3C00], np.uint16)
    actual = bits.view(np.float16)
    expected_ = np.array([0x3C01, 0x0000, 0x3C00, 0x4000, 0x7E00, 0x3C00],
                         np.uint16).view(np.float16)
    x = np.arange(6, dtype=np.float16)
    comparison = compare_bitwise(actual, expected_)
    rows = first_differences([x], actual, expected_, comparison, limit=4)
    assert [r.index for r in rows] == [0, 1, 2, 4]
    assert (rows[0].inputs, rows[0].actual, rows[0].expected) == (
        ("0x0000 (0)",), "0x3c00 (1)", "0x3c01 (1.0009766)")
    assert rows[1].actual == "0x8000 (-0)" and rows[2].actual == "0x7e00 (nan)"
    assert [r.index for r in first_differences([x], actual, expected_, comparison, 1)] == [
        0, 1, 2]
    bf = np.array([1.5], ml_dtypes.bfloat16)
    row = first_differences([bf], bf, np.array([2.0], ml_dtypes.bfloat16),
                            compare_bitwise(bf, np.array([2.0], ml_dtypes.bfloat16)), 4)[0]
    assert row.actual == "0x3fc0 (1.5)" and row.expected == "0x4000 (2)"

# endregion


def test_the_assumed_call_notes_read_the_headers_the_kernel_includes(tmp_path: Path) -> None:
    """An ops-nn arch35 kernel's calls sit in the DAG header it includes (ATVOSS's Vec::Exp<T>),
    not in its entry file; a header of the other SoC's folder it does not include is not read."""
    from hswc.checker import kernel_source

    kernel = tmp_path / "op" / "op_kernel"
    (kernel / "arch35").mkdir(parents=True)
    (kernel / "arch22").mkdir()
    (kernel / "k_apt.cpp").write_text(
        '#include "kernel_operator.h"\n#include "arch35/k_dag.h"\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, '
        'GM_ADDR tiling) {}\n')
    (kernel / "arch35" / "k_dag.h").write_text("using E = Bind<Vec::Exp<T>, In0>;\n")
    (kernel / "arch22" / "k_other.h").write_text("Div(z, x, y, n);\n")
    sources = kernel_source.scan(kernel / "k_apt.cpp", None, (), [])
    text = sources.own_text()
    assert "Vec::Exp<T>" in text and "Div(" not in text


def test_the_kernel_file_for_a_soc_is_the_one_op_kernel_cmake_lists_for_it(tmp_path: Path) -> None:
    """ops-nn's hard_swish_grad_v2 has its A2 kernel in op_kernel/ and its 950 one in
    op_kernel/arch35/ under one name; its CMakeLists.txt's add_kernel_sources says which."""
    from hswc.checker.op_folder import kernel_file

    kernel = tmp_path / "op_kernel"
    (kernel / "arch35").mkdir(parents=True)
    for path in (kernel / "k_op.cpp", kernel / "arch35" / "k_op.cpp"):
        path.write_text("")
    (kernel / "CMakeLists.txt").write_text(
        "add_kernel_sources(\n    COMPUTE_UNITS ascend910b ascend910_93\n)\n"
        "# add_kernel_sources(KERNEL_SRC k_op.cpp COMPUTE_UNITS ascend950)\n"
        "add_kernel_sources(\n    KERNEL_SRC arch35/k_op.cpp\n    COMPUTE_UNITS ascend950 mc62\n"
        "    AUTO_SYNC false\n)\n")
    configured = ("ascend910b", "ascend950")
    arch35 = kernel / "arch35" / "k_op.cpp"
    assert kernel_file(tmp_path, "KOp", None, "ascend950", configured) == arch35
    assert kernel_file(tmp_path, "KOp", None, "ascend910b", configured) == kernel / "k_op.cpp"


def test_an_entry_templated_on_its_tiling_key_gets_the_launchs_key() -> None:
    """ops-nn's experimental elu: `template <uint64_t tilingKey> __global__ void elu(...)`,
    one instance per key, the key chosen by `if constexpr`; ASCENDC_TPL choices by name."""
    from types import SimpleNamespace

    from hswc.checker.host_tiling import HostTiling

    def args(template: list[tuple[str, bool]], chosen: dict[str, str], key: int) -> str | None:
        return HostTiling._template_args(SimpleNamespace(template=template), chosen, key)  # type: ignore[arg-type]

    assert args([("tilingKey", False)], {}, 6) == "6"
    assert args([("schMode", False), ("T", True)], {"schMode": "1", "T": "1"}, 9) == "1, half"
    assert args([("schMode", False)], {}, 3) is None  # nothing chosen: the default instance


def test_a_missing_micro_api_call_is_named_with_its_namespace() -> None:
    from hswc.checker.build import summarise_errors

    # g++'s words for opbase's reduce_operator.h:236 and a name declared nowhere after it.
    output = ("reduce_operator.h:236:36: error: 'MaskNot' is not a member of 'AscendC::MicroAPI'\n"
              "reduce_operator.h:240:9: error: 'uDst' was not declared in this scope\n")
    assert summarise_errors(output)[:2] == [
        "the kernel uses MicroAPI::MaskNot, which hswc/checker/ascendc_cpu does not model (or the "
        "kernel misspells it)",
        "the kernel uses uDst, which hswc/checker/ascendc_cpu does not model (or the kernel "
        "misspells it)"]


def test_a_failed_link_names_what_it_lacks(tmp_path: Path) -> None:
    """ld's undefined references are one sentence each before `collect2: error` (ops-nn's
    swi_glu tiling lacked `vtable for optiling::GluBaseTiling4RegBase`, defined in a folder its
    op_host/CMakeLists.txt names)."""
    import shutil
    import subprocess

    from hswc.checker.build import c_locale, summarise_errors

    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++)")
    source = tmp_path / "link.cpp"
    source.write_text("namespace optiling { struct Base { virtual ~Base(); virtual int F(); }; }\n"
                      "int main() { optiling::Base b; return b.F(); }\n")
    run = subprocess.run([cxx, str(source), "-o", str(tmp_path / "a.out")], capture_output=True,
                         text=True, env=c_locale(), check=False)
    assert run.returncode != 0
    lines = summarise_errors(run.stdout + run.stderr)
    assert lines[0] == ("the link lacks vtable for optiling::Base (declared, defined nowhere in "
                        "the build)"), lines
    assert lines[-1].endswith("ld returned 1 exit status"), lines
