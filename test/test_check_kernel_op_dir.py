"""hswc-check-kernel on an op folder (examples/check_kernel/leaky_relu_op, written for these tests
in ops-nn's layout): the op's own op_host tiling, run on the CPU model of the tiling context
(hswc/checker/ascendc_cpu/host), gives every launch; the kernel file, its entry variant, the tiling
struct and the template arguments are found as the build finds them; attributes are matched in
either spelling and default to the op definition's. Bad folders, attributes and SoCs get one message
naming the file.

The fixture's tiling is CANN's split (fixture_tiling.py's, written again in C++): with 4 cores
and 16 KiB of UB, blockFactor = ceil(n / 4), ubFactor = (16384 - 1024) // (2*2*size + 12) // 128
* 128, block dim ceil(n / blockFactor).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from fake_terminal import FakeClock, FakeTerminal

from hswc.checker.check import build_plans, check, plan, run_plan
from hswc.checker.errors import CheckError
from hswc.checker.options import CheckOptions
from hswc.checker.report import RunOutcome
from hswc.checker.sweep import Row, mapping, sweep, table
from hswc.progress import ERASE, Progress

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "leaky_relu_op"
BASE = CheckOptions(kernel=str(FOLDER), op="hsg.leaky_relu", soc="ascend950", core_num=4,
                    ub_size=16384, sizes=(129, 2561), jobs=2)


def _ub_factor(size: int) -> int:
    return (16384 - 1024) // (2 * 2 * size + 12) // 128 * 128


def test_the_ops_own_tiling_gives_each_launch_and_the_template_argument() -> None:
    p = plan(replace(BASE, dtypes=("bf16", "f32")))
    try:
        assert p.sources.entry.source.name == "leaky_relu_fixture_apt.cpp"
        assert [t.name for t in p.sources.entry.template or ()] == ["D_T_X"]
        assert p.struct == "LeakyReluFixtureTiling"
        launches = {(c.dtype, c.size): c.launch for c in p.cases}
        bf16 = launches["bf16", 2561]
        assert (bf16.block_dim, bf16.template_args) == (4, "bfloat16_t")
        assert bf16.tiling_key == 27  # a DATATYPE parameter is encoded as its C_DT value
        assert bf16.fields == {"totalNum": 2561, "blockFactor": 641,
                               "ubFactor": _ub_factor(2), "negativeSlope": 0.25}
        f32 = launches["f32", 129]
        assert (f32.block_dim, f32.template_args, f32.tiling_key) == (4, "float", 0)
        assert f32.fields["blockFactor"] == 33 and f32.fields["ubFactor"] == _ub_factor(4)
        assert f32.raw is not None and len(f32.raw) == 32
        assert int.from_bytes(f32.raw[:8], "little") == 129
        assert "negative_slope = 0.25" in p.reference.title  # the definition's default
    finally:
        p.cleanup()


def test_the_device_and_ut_entries_and_the_a2_kernel_all_pass() -> None:
    device = plan(replace(BASE, dtypes=("f16",)))
    ut = plan(replace(BASE, dtypes=("f32",), defines={None: ["DTYPE_X={T}"]}))
    a2 = plan(replace(BASE, soc="ascend910b", dtypes=("bf16",)))
    plans = [device, ut, a2]
    try:
        assert ut.sources.entry.template is None  # the #ifdef DTYPE_X variant
        assert a2.sources.entry.source.name == "leaky_relu_fixture.cpp"
        assert [c.launch.tiling_key for c in a2.cases] == [2, 2]
        build_plans(plans)
        for p in plans:
            report = run_plan(p)
            assert report.passed, report.format()
    finally:
        for p in plans:
            p.cleanup()


def test_an_attribute_in_either_spelling_reaches_reference_and_tiling() -> None:
    report = check(replace(BASE, dtypes=("f16",), sizes=(2561,),
                           attrs={"negativeSlope": "0.5"}))
    assert "negative_slope = 0.5" in report.reference
    assert report.outcomes[0].tiling["negativeSlope"] == 0.5
    assert report.passed, report.format()


@pytest.mark.parametrize(("change", "message"), [
    ({"soc": "ascend910_93"}, "LeakyReluFixture has no AICore configuration for ascend910_93 "
                              "(it has ascend950, ascend910b): give --soc ascend950"),
    ({"attrs": {"unread_knob": "3"}}, "--attr unread_knob: LeakyReluFixture's tiling"),
    ({"attrs": {"bias": "1"}}, "--attr bias: neither hsg.leaky_relu (attributes: "
                               "negative_slope) nor LeakyReluFixture"),
    ({"dtypes": ("f32",), "attrs": {"negative_slope": "0.5", "unread_knob": "1"}},
     "does not read it, so the kernel would not see it"),
])
def test_bad_attributes_and_socs_name_the_file_and_reason(change: dict, message: str) -> None:
    with pytest.raises(CheckError) as error:
        plan(replace(BASE, **change))
    assert message in str(error.value)
    if "soc" in change:
        assert "leaky_relu_fixture_def.cpp" in str(error.value)


def test_the_other_spellings_asc_devkit_accepts_give_the_same_launch(tmp_path: Path) -> None:
    # glu_grad includes "tiling/template_argument.h", the same header by its source path; opbase's
    # GEN_REDUCE_TILING_KEY leaves a trailing comma in the key's list (a braced list on the
    # device); metadef's REPORT_INNER_ERR_MSG reports an error.
    folder = tmp_path / "spelt"
    shutil.copytree(FOLDER, folder)
    key = folder / "op_kernel" / "arch35" / "leaky_relu_fixture_tiling_key.h"
    key.write_text(key.read_text().replace('"ascendc/host_api/tiling/template_argument.h"',
                                           '"tiling/template_argument.h"'))
    kernel = folder / "op_kernel" / "arch35" / "leaky_relu_fixture.h"
    kernel.write_text(kernel.read_text().replace("../../../elementwise_kernel.h",
                                                 str(FOLDER.parent / "elementwise_kernel.h")))
    tiling = folder / "op_host" / "arch35" / "leaky_relu_fixture_tiling.cpp"
    tiling.write_text(tiling.read_text().replace(
        "ASCENDC_TPL_SEL_PARAM(context, code);",
        'if (code > 100) { REPORT_INNER_ERR_MSG("E89999", "code %d", code); }\n'
        "    ASCENDC_TPL_SEL_PARAM(context, code, );"))
    p = plan(replace(BASE, kernel=str(folder), dtypes=("bf16",), sizes=(129,)))
    try:
        launch = p.cases[0].launch
        assert (launch.template_args, launch.tiling_key) == ("bfloat16_t", 27)
    finally:
        p.cleanup()


def test_a_folder_that_is_not_an_op_and_a_tiling_that_does_not_build(tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    (bare / "op_host").mkdir(parents=True)
    (bare / "op_kernel").mkdir()
    with pytest.raises(CheckError, match=r"bare: not an ops-nn op folder .*no \*_def\.cpp"):
        plan(replace(BASE, kernel=str(bare)))
    broken = tmp_path / "broken"
    shutil.copytree(FOLDER, broken)
    kernel = broken / "op_kernel" / "arch35" / "leaky_relu_fixture.h"
    shared = FOLDER.parent / "elementwise_kernel.h"
    kernel.write_text(kernel.read_text().replace("../../../elementwise_kernel.h", str(shared)))
    tiling = broken / "op_host" / "arch35" / "leaky_relu_fixture_tiling.cpp"
    tiling.write_text(tiling.read_text().replace("ASCENDC_TPL_SEL_PARAM(context, code);",
                                                 "ASCENDC_TPL_SEL_PARAM(context, code)"))
    with pytest.raises(CheckError) as error:
        plan(replace(BASE, kernel=str(broken)))
    text = str(error.value)
    assert "the tiling of LeakyReluFixture" in text and "does not build" in text
    assert "leaky_relu_fixture_tiling.cpp" in text and "error" in text
    kernel.write_text(kernel.read_text().replace(str(shared), "no/such/header.h"))
    with pytest.raises(CheckError, match=r"leaky_relu_fixture_apt\.cpp defines entry "
                       r"leaky_relu_fixture 2 times .* could not preprocess it .*no/such/header"):
        plan(replace(BASE, kernel=str(broken)))


def test_record_gm_reads_compares_the_values_of_a_run_that_reads_past_the_end() -> None:
    seeded = replace(BASE, dtypes=("f32",), sizes=(2561,),
                     defines={None: ["SEEDED_FULL_TAIL_COPY"]})
    stopped = check(seeded).outcomes[0]
    assert stopped.comparisons is None and len(stopped.violations) == 1
    bound = "DataCopyPad: read of elements [512, 1024) outside the GlobalTensor bound of 641"
    assert str(stopped.violations[0]).startswith(bound)
    kept = check(replace(seeded, record_gm_reads=True)).outcomes[0]
    assert kept.comparisons is not None and all(c.equal for c in kept.comparisons)
    rules = [str(v) for v in kept.violations]
    assert rules[0].startswith(bound) and len(rules) == 2  # block 0 past its slice, then
    # the last block past the tensor's end: block 3 starts at 3 * 641 elements (7692 bytes), its
    # second chunk 512 elements on: 9740 + 2048 > 2561 * 4 bytes
    assert rules[1] == ("DataCopyPad: read of 2048 bytes at byte 9740 of GM tensor 'input 0 (x)' "
                        "runs past its end (10244 bytes) [block 3]")
    assert {v.category for v in kept.violations} == {"GM out of bounds"}
    assert not kept.passed


@pytest.mark.parametrize(("name", "expected"), [
    ("leakyrelu_v2", ("hsg.leaky_relu", {}, "leakyrelu_v2 = hsg.leaky_relu")),
    ("relu6_d", ("hsg.hardtanh", {"min_val": "0", "max_val": "6"},
                 "relu6_d = hsg.hardtanh(min_val=0, max_val=6)")),
    ("threshold_grad_v2_d", ("hsg.threshold_grad", {}, "threshold_grad_v2_d = hsg.threshold_grad "
                                                        "(same name)")),
    ("soft_shrink_grad", ("hsg.softshrink_grad", {}, "soft_shrink_grad = hsg.softshrink_grad")),
    ("gelu", ("hsg.gelu", {"approximate": "tanh"}, "gelu = hsg.gelu(approximate=tanh)")),
    ("gelu_v2", ("hsg.gelu", {}, "gelu_v2 = hsg.gelu")),
    ("gelu_grad_v2", ("hsg.gelu_grad", {}, "gelu_grad_v2 = hsg.gelu_grad")),
    ("swish_v2", ("hsg.silu", {}, "swish_v2 = hsg.silu")),
    ("logsigmoid_v2", ("hsg.log_sigmoid", {}, "logsigmoid_v2 = hsg.log_sigmoid")),
    ("logsigmoid_grad", ("hsg.log_sigmoid_grad", {}, "logsigmoid_grad = hsg.log_sigmoid_grad")),
    ("soft_plus_v2", ("hsg.softplus", {}, "soft_plus_v2 = hsg.softplus")),
    ("softplus_v2_grad", ("hsg.softplus_grad", {}, "softplus_v2_grad = hsg.softplus_grad")),
    ("threshold_v2", ("hsg.threshold", {"threshold": "0.5", "value": "-2"},
                      "threshold_v2 = hsg.threshold(threshold=0.5, value=-2)")),
    ("threshold", ("generic threshold_step", {},  # a step function, not torch.threshold
                   "threshold = the generic threshold_step")),
    ("elu_grad", ("hsg.elu_grad", {"is_result": "true"},  # EluGrad reads the forward output
                  "elu_grad = hsg.elu_grad(is_result=true)")),
    ("prelu", ("generic prelu", {}, "prelu = the generic prelu")),  # its weight per channel
    ("crelu", None),
])
def test_sweep_maps_folder_names_to_hsg_ops(name: str, expected: tuple | None) -> None:
    assert mapping(Path(name)) == expected


def test_sweep_checks_every_mapped_folder_on_each_configured_soc(tmp_path: Path) -> None:
    tree = tmp_path / "ops-nn"
    folder = tree / "activation" / "leaky_relu"
    shutil.copytree(FOLDER, folder)
    kernel = folder / "op_kernel" / "arch35" / "leaky_relu_fixture.h"
    kernel.write_text(kernel.read_text().replace("../../../elementwise_kernel.h",
                                                 str(FOLDER.parent / "elementwise_kernel.h")))
    for unmapped in ("crelu/op_host", "crelu/op_kernel"):
        (tree / "activation" / unmapped).mkdir(parents=True)
    terminal = FakeTerminal()
    with Progress(0, "sweep", terminal, clock=FakeClock(), tick=None) as progress:
        rows = sweep(tree, replace(BASE, kernel="", dtypes=("f32",), sizes=(129,)), None,
                     progress)
    assert rows == [Row("activation/leaky_relu", "ascend950", "f32", "bit-exact (1 run)"),
                    Row("activation/leaky_relu", "ascend910b", "f32", "bit-exact (1 run)")]
    # one mapped folder of two op folders (crelu maps to no hsg op), on each SoC in turn
    assert terminal.getvalue().split(ERASE) == ["", "sweep 0/1 0s activation/leaky_relu on "
                                                "ascend950", "sweep 0/1 0s activation/"
                                                "leaky_relu on ascend910b", "sweep 1/1 0s "
                                                "activation/leaky_relu on ascend910b", ""]
    assert mapping(folder) == ("hsg.leaky_relu", {}, "leaky_relu = hsg.leaky_relu (same name)")
    assert table(rows).splitlines() == [
        "kernel                 soc         dtype  verdict",
        "activation/leaky_relu  ascend950   f32    bit-exact (1 run)",
        "activation/leaky_relu  ascend910b  f32    bit-exact (1 run)",
        "",
        "2 rows: bit-exact 2"]


def test_the_sweeps_table_ends_with_its_rows_counted_by_verdict() -> None:
    rows = [Row("a", "ascend910b", "f16", "bit-exact (20 runs)"),
            Row("a", "ascend910b", "f32", "differing (2 of 20 runs: values 3, signs of zero 0, "
                                          "NaN class 0); rule broken (gm-out-of-bounds)"),
            Row("b", "ascend950", "f16", "within torch (6 runs, max 1.5 ulp)"),
            Row("c", "ascend950", "-", "not checkable: does not compile (x)"),
            Row("d", "ascend950", "f16", "rule broken (ub-overflow)")]
    assert table(rows).splitlines()[-2:] == [
        "", "5 rows: bit-exact 1, within 1, rule broken 1, differing 1, not checkable 1"]
    assert table([]).splitlines() == ["kernel  soc  dtype  verdict", "", "0 rows"]


def test_a_sweep_in_a_pipe_prints_only_its_table(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from hswc.tools.hswc_check_kernel import run

    for unmapped in ("crelu/op_host", "crelu/op_kernel"):
        (tmp_path / "activation" / unmapped).mkdir(parents=True)
    assert run(["--sweep", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("kernel  soc  dtype  verdict\n\n0 rows\n", "")


@pytest.mark.parametrize(("argv", "message"), [
    (["--sweep", "no/such/tree"], "--sweep no/such/tree: no such directory"),
    (["--sweep", "."], "--sweep checks every op folder it finds: give no KERNEL or --op"),
    ([], "give the KERNEL (or --sweep OPS_NN_DIR)"),
])
def test_sweep_and_kernel_arguments_are_refused_in_one_line(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    from hswc.tools.hswc_check_kernel import run

    extra = ["--op", "hsg.relu"] if argv[-1:] == ["."] else []
    assert run([*argv, *extra]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_sweep_of_a_tree_without_op_folders_says_so(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from hswc.tools.hswc_check_kernel import run

    assert run(["--sweep", str(tmp_path)]) == 1
    assert "no op folder (op_host/ and op_kernel/) below it" in capsys.readouterr().err


def test_opbase_is_found_where_ops_nns_build_looks(tmp_path: Path) -> None:
    from hswc.checker.op_folder import opbase_includes, opbase_root

    ops_nn = tmp_path / "src" / "cann" / "ops-nn"  # ${PROJECT_SOURCE_DIR}
    ops_nn.mkdir(parents=True)
    third = tmp_path / "3rd" / "opbase"
    given = tmp_path / "given"
    for root in (third, given):
        (root / "pkg_inc" / "op_common").mkdir(parents=True)
    assert opbase_root(ops_nn, {}) is None
    beside = tmp_path / "src" / "ops-base"  # ${PROJECT_SOURCE_DIR}/../../ops-base
    (beside / "pkg_inc").mkdir(parents=True)
    assert opbase_root(ops_nn, {"CANN_3RD_LIB_PATH": str(tmp_path / "3rd")}) == beside.resolve()
    (beside / "pkg_inc").rmdir()
    assert opbase_root(ops_nn, {"CANN_3RD_LIB_PATH": str(tmp_path / "3rd")}) == third.resolve()
    assert opbase_root(ops_nn, {"OPBASE_SOURCE_PATH": str(given),
                                "CANN_3RD_LIB_PATH": str(tmp_path / "3rd")}) == given.resolve()
    assert opbase_includes(given) == (given / "pkg_inc" / "op_common", given / "pkg_inc")


def test_the_tiling_struct_is_found_wherever_the_entrys_includes_lead(tmp_path: Path) -> None:
    from hswc.checker.kernel_source import find_struct, scan

    lib = tmp_path / "lib" / "atvoss" / "elewise"
    lib.mkdir(parents=True)
    (lib / "base_struct.h").write_text(
        "struct __attribute__((aligned(8))) DeepTiling {\n  int64_t dim0 = 0;\n  float s;\n};\n")
    (lib / "dag.h").write_text('#include "base_struct.h"\n')
    kernel = tmp_path / "op_kernel" / "deep.cpp"
    kernel.parent.mkdir()
    kernel.write_text('#include "kernel_operator.h"\n#include "atvoss/elewise/dag.h"\n'
                      'extern "C" __global__ __aicore__ void deep(GM_ADDR x, GM_ADDR y, '
                      'GM_ADDR workspace, GM_ADDR tiling)\n{\n'
                      '    GET_TILING_DATA_WITH_STRUCT(DeepTiling, t, tiling);\n}\n')
    sources = scan(kernel, include_dirs=[tmp_path / "lib"])
    assert sources.tiling_struct_used == "DeepTiling"
    fields, where = find_struct(sources, "DeepTiling", (tmp_path / "lib",))
    assert [f.name for f in fields] == ["dim0", "s"] and where == lib / "base_struct.h"


def test_sweep_leaves_nan_out_only_where_the_family_contract_does() -> None:
    from hswc.checker.sweep import _nan_outside_contract

    assert _nan_outside_contract("hsg.hardtanh_grad") == ("x",)
    assert _nan_outside_contract("hsg.sigmoid") == ()  # NaN propagates, as PyTorch's does
    assert _nan_outside_contract("hsg.tanh_grad") == ()  # (grad, y): no x at all


def _outcome(actual: list[float], expected: list[float], tolerance: bool) -> RunOutcome:
    import numpy as np

    from hswc.checker.tolerance import Tolerance
    from hswc.reference import compare_bitwise

    a, e = np.array(actual, np.float32), np.array(expected, np.float32)
    o = RunOutcome("f32", a.size, 1, {}, None, comparisons=[compare_bitwise(a, e)])
    if tolerance:
        o.tolerance = "PyTorch's tolerance"
        o.measured = [Tolerance("torch").compare(a, e)]
    return o


def test_sweep_verdict_of_a_tolerance_op_is_within_or_outside_it() -> None:
    from hswc.checker.sweep import _values_verdict

    one_ulp = float(np.nextafter(np.float32(0.5), np.float32(1)))
    near = _outcome([one_ulp, 2.0], [0.5, 2.0], tolerance=True)  # 1 ulp: torch accepts it
    far = _outcome([0.75, 2.0], [0.5, 2.0], tolerance=True)
    assert _values_verdict([near]) == "within PyTorch's tolerance (1 run, max 1 ulp)"
    assert _values_verdict([near, far]) == (
        "outside PyTorch's tolerance (1 of 2 runs: 1 values outside rtol/atol, 0 inf/NaN "
        "misplaced; max 4.19e+06 ulp)")
    exact = _outcome([one_ulp, 2.0], [0.5, 2.0], tolerance=False)  # the family: every bit
    assert _values_verdict([exact]) == ("differing (1 of 1 runs: values 1, signs of zero 0, "
                                        "NaN class 0)")


def test_a_backward_ops_forward_result_input_is_found_by_name(tmp_path: Path) -> None:
    from hswc.checker.host_tiling import OpDefinition
    from hswc.checker.op_dir import OpDir

    def forward(inputs: list[str], op: str = "hsg.gelu_grad") -> dict[int, str]:
        definition = OpDefinition("GeluGrad", [(n, (1,)) for n in inputs])
        opdir = OpDir(None, definition, tmp_path, "g++", tmp_path)  # type: ignore[arg-type]
        return opdir.forward_inputs(op, ("grad", "x"))

    assert forward(["dy", "x", "y"]) == {2: "hsg.gelu"}  # ops-nn's GeluGrad: y = gelu(x)
    assert forward(["grad", "x", "y"], "hsg.silu_grad") == {2: "hsg.silu"}  # SwishGrad
    assert forward(["dy", "x"]) == {}  # nothing extra
    assert forward(["dy", "x", "z"]) == {}  # an extra input not named as a result
    assert forward(["dy", "y"], "hsg.sigmoid_grad") == {}  # (grad, y): y is the reference's own


def test_the_sweep_compares_hard_swish_grad_with_the_cann_kernel_of_the_soc() -> None:
    from hswc.checker.sweep import _soc_semantics

    assert _soc_semantics("hsg.hard_swish_grad", "ascend950") == "cann-arch35"
    assert _soc_semantics("hsg.hard_swish_grad", "ascend910b") is None  # its default, cann
    assert _soc_semantics("hsg.hard_swish", "ascend950") is None
