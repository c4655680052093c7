"""hswc-check-kernel on an op folder written the way opbase's ATVOSS kernels are
(examples/check_kernel/threshold_tensor_op, for these tests): attributes passed as one-element
tensors of x's dtype (ThresholdV2's threshold and value) fed from --attr, a tiling struct in a
namespace named through an alias, and an Ascend 950 kernel on static UB tensors ordered by
Mutex Lock/Unlock, computing in MicroAPI registers. Also: --record-rules on the A2/A3 kernel of
examples/check_kernel/leaky_relu_op, a backward op's inputs matched by the definition's names,
and the namespace of a struct.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hswc.checker.check import build_plans, plan, run_plan
from hswc.checker.host_tiling import OpDefinition
from hswc.checker.kernel_source import struct_namespace
from hswc.checker.op_dir import OpDir
from hswc.checker.options import CheckOptions

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "threshold_tensor_op"
BASE = CheckOptions(kernel=str(FOLDER), op="hsg.threshold",
                    attrs={"threshold": "0.5", "value": "-2"}, soc="ascend950", core_num=4,
                    ub_size=65536, sizes=(100, 5000), jobs=2)


def test_attribute_tensors_locks_and_registers() -> None:
    """f32 runs as written; f16 without the vector pipe's locks, which the sync checker
    reports as MTE2 -> V and V -> MTE3 races while the values still match."""
    p = plan(replace(BASE, dtypes=("f32", "f16"), defines={"f16": ["FIXTURE_NO_VECTOR_LOCK"]}))
    try:
        assert p.struct == "ThresholdTensorFixtureTilingData"  # an alias, in checker_fixture
        assert [f.name for f in p.fields] == ["totalNum", "blockFactor"]
        assert "threshold <- threshold = 0.5 (one element)" in p.report.arguments
        assert "value <- value = -2 (one element)" in p.report.arguments
        launch = next(c.launch for c in p.cases if c.size == 5000)
        # The tiling refuses unless threshold and value are one-element tensors.
        assert (launch.block_dim, launch.fields["blockFactor"]) == (4, 1280)
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    f32 = [o for o in report.outcomes if o.dtype == "f32"]
    f16 = [o for o in report.outcomes if o.dtype == "f16"]
    assert all(o.comparisons and all(c.equal for c in o.comparisons) and not o.violations
               for o in f32), report.format()
    assert all(o.comparisons and all(c.equal for c in o.comparisons) for o in f16)
    said = {(v.category, v.api) for o in f16 for v in o.violations}
    assert ("unsynchronised pipes", "MicroAPI::LoadAlign") in said, report.format()
    assert ("unsynchronised pipes", "DataCopyPad") in said, report.format()


def test_record_rules_goes_on_after_a_partial_compare_and_compares_the_values() -> None:
    """SEEDED_PARTIAL_REPEAT compares 129 f32 lanes on A2: Compares only does the two whole
    repeats, so without --record-rules the run stops there; with it the run goes on, lane 128's
    mask bit is whatever the UB held, and the values are compared."""
    a2 = CheckOptions(kernel=str(FOLDER.parent / "leaky_relu_op"), op="hsg.leaky_relu",
                      soc="ascend910b", core_num=4, ub_size=16384, sizes=(516,), jobs=1,
                      dtypes=("f32",), defines={None: ["SEEDED_PARTIAL_REPEAT"]})
    p = plan(a2)
    try:
        build_plans([p])  # one build, run twice
        stopped = run_plan(p).outcomes[0]
        p.options = replace(a2, record_rules=True)
        kept = run_plan(p).outcomes[0]
    finally:
        p.cleanup()
    assert stopped.comparisons is None
    assert [v.api for v in stopped.violations] == ["Compares"]
    assert "count 129 x 4 bytes is not a multiple of 256 bytes" in str(stopped.violations[0])
    assert kept.comparisons is not None
    assert {v.api for v in kept.violations} == {"Compares"}


def _opdir(*inputs: str) -> OpDir:
    op = OpDefinition("SomeGrad", inputs=[(name, (0,)) for name in inputs])
    return OpDir(None, op, Path("k.cpp"), "g++", Path("."))  # type: ignore[arg-type]


def test_a_backward_ops_inputs_are_matched_by_the_definitions_names() -> None:
    assert _opdir("result", "grad").kernel_inputs(("grad", "x")) == ["x", "grad"]
    assert _opdir("y", "dy").kernel_inputs(("grad", "y")) == ["y", "grad"]
    assert _opdir("gradients", "features").kernel_inputs(("grad", "x")) == ["grad", "x"]
    assert _opdir("a", "b").kernel_inputs(("grad", "x")) is None  # names do not decide
    assert _opdir("x", "y").kernel_inputs(("grad", "x")) == ["x", "grad"]  # ReluGradV3
    assert _opdir("y", "x").kernel_inputs(("grad", "x")) == ["grad", "x"]
    assert _opdir("x").kernel_inputs(("x",)) is None  # not a backward op
    # SoftmaxGrad's definition (softmax, grad_softmax), hsg.softmax_grad's (grad_output, output)
    assert _opdir("softmax", "grad_softmax").kernel_inputs(("grad_output", "output")) == [
        "output", "grad_output"]
    assert _opdir("grad", "x").kernel_inputs(("grad_output", "output")) == [
        "grad_output", "output"]  # LogSoftmaxGrad


def test_the_namespace_of_a_struct_or_alias() -> None:
    text = ("namespace Ops { namespace Base { struct Other { int a; };\n"
            "struct __attribute__((aligned(8))) S { int b; }; using V2 = S; } }\n"
            "struct Top { int c; };")
    assert struct_namespace(text, "S") == "Ops::Base::"
    assert struct_namespace(text, "V2") == "Ops::Base::"
    assert struct_namespace(text, "Top") == ""
