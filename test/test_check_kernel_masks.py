"""hswc-check-kernel on ops with a mask tensor (hswc.checker.masks), as ops-nn's ReluV2 (a
DT_UINT1 mask output beside y) and ReluGradV2 (a DT_UINT1 mask input instead of x) have, on the
op folders examples/check_kernel/mask_ops/relu_mask_fixture and relu_grad_mask_fixture, written
for these tests: the mask an output must hold, and an input is fed, is the comparison the hsg op
makes (x > threshold for hsg.threshold and hsg.threshold_grad), one bit per element, the least
significant bit first; the op's tiling sees the mask as DT_UINT1 of x's shape (each fixture's
`maskSeen`: its kernel writes nothing otherwise); a mask output is read back at ceil(n / 8)
bytes and compared bit for bit; a kernel with a seeded mistake in its mask differs where it
should. Also the recognition table, the bit order, the sizes an op's tiling refuses, the sweep,
and the one message for a DT_UINT1 tensor no mask rule covers.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hswc.checker import inputs, masks
from hswc.checker.cases import Sizes, run_sizes
from hswc.checker.check import build_plans, check, plan, run_plan
from hswc.checker.errors import CheckError
from hswc.checker.expected import from_op, from_relu_mask
from hswc.checker.options import CheckOptions, tiling_source
from hswc.checker.sweep import Row, mapping, sweep
from hswc.checker.tiling_values import load_function
from hswc.platform import get_platform

MASK_OPS = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "mask_ops"
FORWARD = MASK_OPS / "relu_mask_fixture"
BACKWARD = MASK_OPS / "relu_grad_mask_fixture"
RELU = CheckOptions(kernel=str(FORWARD), op="hsg.threshold",
                    attrs={"threshold": "0", "value": "0"}, soc="ascend950", core_num=4,
                    ub_size=65536, sizes=(129, 5000), jobs=2, ignore_nan_inputs=("x",))
RELU_GRAD = replace(RELU, kernel=str(BACKWARD), op="hsg.threshold_grad",
                    attrs={"threshold": "0"})
BLOCK = 1280
"""The fixtures' blockFactor for 5000 elements on 4 cores: ceil(5000 / 4) rounded up to 256."""


def _drawn(dtype: str, count: int, size: int) -> list[np.ndarray]:
    """The reference inputs a run draws (hswc.checker.inputs is seeded)."""
    ref = from_op("hsg.threshold", {"threshold": "0", "value": "0"}, None)
    return inputs.draw(dtype, ref.thresholds, count, size)


def test_a_mask_output_is_read_back_packed_and_compared_bit_for_bit() -> None:
    p = plan(replace(RELU, dtypes=("f32", "f16")))
    try:
        assert p.masks is not None and set(p.masks.outputs) == {1} and not p.masks.inputs
        assert ("outputs y, mask (mask: the mask of x > 0 (bits, element i = bit i % 8 of byte "
                "i / 8))") in p.report.arguments
        assert all(c.launch.fields["maskSeen"] == 1 for c in p.cases)  # DT_UINT1, x's shape
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()
    for o in report.outcomes:
        assert o.comparisons is not None and len(o.comparisons) == 2
        assert (o.comparisons[1].dtype, o.comparisons[1].size) == ("uint1", o.size)
    # 129 elements: 17 bytes, the last with one element's bit and 7 padding bits.
    assert {o.size for o in report.outcomes} == {129, 5000}


def test_a_mask_output_of_x_ge_0_differs_exactly_where_x_is_zero() -> None:
    report = check(replace(RELU, dtypes=("f16",), sizes=(129,),
                           defines={None: ["SEEDED_MASK_GE"]}))
    (o,) = report.outcomes
    assert o.comparisons is not None
    y, mask = o.comparisons
    assert y.equal  # y is computed from its own, right compare
    (x,) = _drawn("f16", 1, 129)
    zeros = [int(i) for i in np.flatnonzero(x.astype(np.float32) == 0)]
    assert zeros and mask.mismatches == len(zeros) and mask.first_index == (zeros[0],)
    rows = o.differences[1]
    assert [r.index for r in rows] == zeros[:RELU.first]
    assert {(r.inputs[0].split()[0], r.actual, r.expected) for r in rows} <= {
        ("0x0000", "1", "0"), ("0x8000", "1", "0")}
    assert "output 1: MISMATCH 2 of 129 mask bits" in report.format()
    assert "first differences of each kind, f16 n=129, output 1:" in report.format()
    assert not report.passed


def test_hsg_relu_mask_checks_y_and_the_mask_from_its_golden_model() -> None:
    """The folder checked against hsg.relu_mask (as the sweep maps ReluV2 and ReluV3): y of
    its golden model, the mask output of the same model's mask; a kernel comparing x >= 0 into
    the mask differs exactly at x = +-0."""
    relu_mask = replace(RELU, op="hsg.relu_mask", attrs={})
    p = plan(replace(relu_mask, dtypes=("f32",), sizes=(129,)))
    try:
        assert p.masks is not None and set(p.masks.outputs) == {1}
        assert "mask: the mask of x > 0 (bits" in p.report.arguments
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()
    seeded = check(replace(relu_mask, dtypes=("f16",), sizes=(129,),
                           defines={None: ["SEEDED_MASK_GE"]}))
    (o,) = seeded.outcomes
    assert o.comparisons is not None
    (x,) = _drawn("f16", 1, 129)
    zeros = np.flatnonzero(x.astype(np.float32) == 0)
    assert o.comparisons[0].equal and o.comparisons[1].mismatches == len(zeros) > 0


def test_hsg_relu_mask_takes_no_attributes() -> None:
    with pytest.raises(CheckError, match=re.escape(
            "--attr value: neither hsg.relu_mask (attributes: none) nor ReluMaskFixture")):
        plan(replace(RELU, op="hsg.relu_mask", attrs={"value": "1"}))
    with pytest.raises(CheckError, match=re.escape(
            "hsg.relu_mask takes no attributes (--attr value)")):
        from_relu_mask("hsg.relu_mask", {"value": "1"})


def test_a_mask_input_is_fed_the_packed_mask_of_the_drawn_x() -> None:
    p = plan(replace(RELU_GRAD, dtypes=("f32", "bf16")))
    try:
        assert p.masks is not None and set(p.masks.inputs) == {1}
        assert p.masks.hidden == ("x",) and p.order == (0,)  # gradients <- grad; x: the mask
        assert ("inputs gradients <- grad, mask <- the mask of x > 0 (bits, element i = bit i % "
                "8 of byte i / 8); outputs backprops") in p.report.arguments
        assert p.report.input_names == ("gradients", "mask", "x (of the mask)")
        assert all(c.launch.fields["maskSeen"] == 1 for c in p.cases)  # DT_UINT1, [n]
        build_plans([p])
        report = run_plan(p)
    finally:
        p.cleanup()
    assert report.passed, report.format()


def test_a_mask_input_read_from_the_wrong_byte_differs_from_the_second_core_on() -> None:
    report = check(replace(RELU_GRAD, dtypes=("f32",), sizes=(5000,),
                           defines={None: ["SEEDED_MASK_OFFSET"]}))
    (o,) = report.outcomes
    assert o.comparisons is not None and o.block_dim == 4
    grad, x = _drawn("f32", 2, 5000)
    bits = x > 0
    read = bits[np.arange(5000) % BLOCK]  # every core reads core 0's bytes
    kernel = np.where(read, grad, np.float32(0)).view(np.uint32)
    wanted = np.where(bits, grad, np.float32(0)).view(np.uint32)
    nan_grad = np.isnan(grad)
    differ = (kernel != wanted) & ~np.isnan(x) & ~(nan_grad & read & bits)
    assert o.comparisons[0].mismatches == int(differ.sum()) > 0
    assert o.comparisons[0].first_index == (int(np.argmax(differ)),)
    assert int(np.argmax(differ)) >= BLOCK  # core 0 reads its own bits
    row = o.differences[0][0]
    assert row.inputs[1] == str(int(bits[row.index]))  # the mask column: the bit fed


def test_the_sweep_checks_mask_folders_from_the_folder_alone(tmp_path: Path) -> None:
    tree = tmp_path / "ops-nn"
    shutil.copytree(FORWARD, tree / "activation" / "relu_v2")
    shutil.copytree(BACKWARD, tree / "activation" / "relu_grad_v2")
    base = replace(RELU, kernel="", op=None, attrs={}, ignore_nan_inputs=(), dtypes=("f32",),
                   sizes=(129,))
    rows = sweep(tree, base, None)
    assert rows == [Row("activation/relu_grad_v2", "ascend950", "f32", "bit-exact (1 run)"),
                    Row("activation/relu_v2", "ascend950", "f32",
                        "bit-exact (1 run, mask bits too)")]
    assert mapping(tree / "activation" / "relu_v2") == (
        "hsg.relu_mask", {}, "relu_v2 = hsg.relu_mask")


def test_a_uint1_tensor_no_mask_rule_covers_is_one_message(
        capsys: pytest.CaptureFixture[str]) -> None:
    from hswc.tools.hswc_check_kernel import run

    with pytest.raises(CheckError) as error:
        plan(replace(RELU, op="hsg.leaky_relu", attrs={}))
    said = str(error.value)
    assert said.startswith(str(FORWARD / "op_host" / "relu_mask_fixture_def.cpp") + ": ")
    assert ("ReluMaskFixture's output mask is DT_UINT1, a bit mask, and hsg.leaky_relu makes no "
            "comparison a mask can hold (masks are known for hsg.threshold, "
            "hsg.threshold_grad, hsg.relu_mask: hswc/checker/masks.py)") in said
    assert run([str(BACKWARD), "--op", "hsg.hardtanh_grad", "--soc", "ascend950"]) == 1
    err = capsys.readouterr().err
    assert "ReluGradMaskFixture's input mask is DT_UINT1" in err and "Traceback" not in err
    assert err.count("\n") == 1


UINT1, UINT8, F32, F16 = masks.DT_UINT1, masks.DT_UINT8, 0, 1


@pytest.mark.parametrize(("op", "inputs_", "outputs", "found"), [
    # ReluV2: a DT_UINT1 output.
    ("hsg.threshold", [("x", (F32, F16))], [("y", (F32, F16)), ("mask", (UINT1, UINT1))],
     [("output", 1, UINT1, True)]),
    # ReluGradV2: a DT_UINT1 input.
    ("hsg.threshold_grad", [("gradients", (F32, F16)), ("mask", (UINT1, UINT1))],
     [("backprops", (F32, F16))], [("input", 1, UINT1, True)]),
    # ReluV3: a uint8 output named mask, packed (ge::ReluV2's mask is uint8 or uint1).
    ("hsg.threshold", [("x", (F32,))], [("y", (F32,)), ("mask", (UINT8,))],
     [("output", 1, UINT8, True)]),
    # ReluGradV4: a uint8 input standing for x, one byte per element.
    ("hsg.threshold_grad", [("gradients", (F32,)), ("features", (UINT8,))],
     [("backprops", (F32,))], [("input", 1, UINT8, False)]),
    # A uint8 output not named mask is not one; nor is a float x.
    ("hsg.threshold", [("x", (F32,))], [("y", (F32,)), ("indices", (UINT8,))], []),
    ("hsg.threshold_grad", [("dy", (F32,)), ("x", (F32,))], [("z", (F32,))], []),
    # An op without a mask rule: its uint8 inputs are its own business.
    ("hsg.leaky_relu", [("x", (F32,)), ("mask", (UINT8,))], [("y", (F32,))], []),
])
def test_which_tensors_of_a_definition_are_masks(op: str, inputs_: list, outputs: list,
                                                 found: list) -> None:
    got = masks.find(inputs_, outputs, op, ("grad", "x") if op.endswith("_grad") else ("x",),
                     "def.cpp", "Op")
    assert [(m.direction, m.position, m.ge_dtype, m.packed) for m in got] == found


def test_the_bit_order_is_compares_least_significant_bit_first() -> None:
    bits = masks.MaskTensor("output", 1, "mask", masks.DT_UINT1, packed=True)
    # asc-devkit's Compare.md example: GT of [2 3 5 7 11 13 17 19] and [2 4 6 8 10 12 14 16].
    gt = np.array([2, 3, 5, 7, 11, 13, 17, 19]) > np.array([2, 4, 6, 8, 10, 12, 14, 16])
    assert bits.pack(gt).tolist() == [0b11110000]
    ten = np.zeros(10, bool)
    ten[[0, 9]] = True
    assert bits.pack(ten).tolist() == [0x01, 0x02]  # element 9: bit 1 of byte 1, padding 0
    assert bits.unpack(np.array([0x01, 0xFE], np.uint8), 10).tolist() == ten.tolist()
    assert (bits.nbytes(10), bits.tiling_tensor(10)) == (2, "30:10")  # DT_UINT1 of [10]
    uint8 = replace(bits, ge_dtype=masks.DT_UINT8)
    assert uint8.tiling_tensor(10) == "4:2"  # its bytes, as ReluV3's InferShape gives
    per_byte = replace(uint8, packed=False)
    assert per_byte.pack(ten).tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    assert per_byte.tiling_tensor(10) == "4:10"
    rule = masks.MASK_RULES["hsg.threshold_grad"]
    x = np.array([0.0, -0.0, 1e-45, -1.0, np.nan, np.inf], np.float32)
    assert rule.values(x, {"threshold": "0"}).tolist() == [False, False, True, False, False,
                                                            True]


def test_sizes_an_op_with_a_packed_mask_refuses_move_to_whole_bytes() -> None:
    platform = get_platform("ascend950").with_overrides(4, 65536)
    split = load_function(str(MASK_OPS.parent / "fixture_tiling.py") + ":one_input")

    def whole_bytes(n: int, core_num: int, ub_size: int, dtype: str) -> dict:
        if n % 8:
            raise ValueError("the last dimension of x must be divisible by 8")
        return dict(split(n, core_num, ub_size, dtype))

    strict = replace(tiling_source(CheckOptions(kernel="")), function=whole_bytes,
                     function_name="whole_bytes")
    ref = from_op("hsg.threshold", {"threshold": "0", "value": "0"}, None)
    sizes = Sizes(strict, "f32", platform, granule=8)
    found = run_sizes(CheckOptions(kernel="", max_size=1 << 16), ref, "f32", strict, platform,
                      sizes)
    assert found and all(n % 8 == 0 for n in found)
    assert sizes.moved[1] == 8 and sizes.moved[129] == 136
    note = sizes.note()
    assert note is not None and note.startswith(
        "f32: the op's tiling refuses sizes that are not a multiple of 8 (whole_bytes(1, 4, "
        "65536, 'f32') raised ValueError: the last dimension of x must be divisible by 8); "
        "those were run at the next multiple (1 -> 8, 2 -> 8, ")
    with pytest.raises(CheckError, match="raised ValueError"):
        Sizes(strict, "f32", platform).taken(129)  # no granule: the refusal stands


def test_the_sweep_counts_differing_mask_bits_apart() -> None:
    from hswc.checker.report import RunOutcome
    from hswc.checker.sweep import _values_verdict
    from hswc.reference import compare_bitwise

    y = np.array([1.0, 0.0], np.float32)
    bits = np.array([True, False, True])
    o = RunOutcome("f32", 2, 1, {}, None, comparisons=[
        compare_bitwise(y, y), masks.compare(bits, np.array([True, True, False]))])
    assert _values_verdict([o]) == ("differing (1 of 1 runs: values 0, signs of zero 0, NaN "
                                    "class 0, mask bits 2)")
