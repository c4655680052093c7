"""hsg.hard_swish_grad: the backward of HardSwish, in three semantics.

- cann: ops-nn's experimental A2/A3 kernel (SPEC.md section 2), step by step in its order:
  Compare GT -3 and LT 3 on x, Muls 0.333333343f, Adds 0.5, Select with 0 then with 1, Mul by grad.
- cann-arch35: ops-nn's production Ascend 950 kernel (`activation/hard_swish_grad/op_kernel/
  arch35/hard_swish_grad.h`), in its order: Muls 0.333333343f and Adds 0.5 on x, Compares GE -3
  and Select with 0, Compares LE 3 and Select with 1, then grad (cast to f32 last) times the
  slope; so -0.5 * grad at x = -3 and 1.5 * grad at x = 3.
- torch: PyTorch's hardswish_backward (FAMILY.md): where(x <= -3, +0, where(x < 3,
  grad * (x / 3 + 0.5), grad)), with a true division.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardSwishGradOp
from hswc.ops.body import BodyBuilder, f32_from_bits
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_3_EXAMPLE, AROUND_3_TEST, GRAD_EXAMPLE, GRAD_TEST
from hswc.platform import UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES
from hswc.tiling import ELEMENT_BYTES, Budget, UbPlan

ONE_THIRD = f32_from_bits(0x3EAAAAAB)
"""0.333333343f: the CANN kernel multiplies by this instead of dividing by 3."""

CANN_BUDGET = UbPlan(bytes_per_element=48, ub_reserve=1024, align_elements=64)
"""ops-nn's hard_swish_grad tiling: BYTES_PER_ELEMENT 48 and UB_MASK_RESERVE 1024 (SPEC.md 4)."""

ARCH35_BUFFER_NUM = {("f32", 1): 5, ("f32", 2): 8, ("f16", 1): 8, ("f16", 2): 11,
                     ("bf16", 1): 8, ("bf16", 2): 11}
"""ops-nn arch35 hard_swish_grad tiling's bufferNum by dtype and queue depth (SIZE_5, SIZE_8,
SIZE_11): how many ubFactor * typeSize buffers it divides the UB into."""
ARCH35_ALIGN = max(UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES // ELEMENT_BYTES["f32"])
"""Its alignUnit, max(GetUbBlockSize(), 256 / sizeof(float)) = 64 elements."""


def cann_budget(dtype: str) -> Budget:
    return Budget("reference", ((1, CANN_BUDGET),))


def arch35_budget(dtype: str) -> Budget:
    """`ubFactor = FloorAlign(FloorDiv(ubSize / typeSize, bufferNum), alignUnit)`, no reserve:
    typeSize * bufferNum bytes per element (the same floor for positive integers)."""
    return Budget("arch35", tuple(
        (depth, UbPlan(bytes_per_element=ELEMENT_BYTES[dtype] * ARCH35_BUFFER_NUM[dtype, depth],
                       ub_reserve=0, align_elements=ARCH35_ALIGN))
        for depth in (1, 2)))


def cann(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    greater = b.cmpf("ogt", x_fp32, b.const(-3.0, "lower"), "greater")
    less = b.cmpf("olt", x_fp32, b.const(3.0, "upper"), "less")
    slope = b.mulf(x_fp32, b.const(ONE_THIRD, "one_third"), "slope")
    slope = b.addf(slope, b.const(0.5, "half"), "slope")
    slope = b.select(greater, slope, b.const(0.0, "zero"), "slope")
    slope = b.select(less, slope, b.const(1.0, "one"), "slope")
    return b.mulf(grad_fp32, slope, "product")


def cann_arch35(b: BodyBuilder, inputs: Sequence[SSAValue],
                attrs: Mapping[str, SSAValue]) -> SSAValue:
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    slope = b.mulf(x_fp32, b.const(ONE_THIRD, "one_third"), "slope")
    slope = b.addf(slope, b.const(0.5, "half"), "slope")
    in_range = b.cmpf("oge", x_fp32, b.const(-3.0, "lower"), "range_mask")
    slope = b.select(in_range, slope, b.const(0.0, "zero"), "slope")
    in_range = b.cmpf("ole", x_fp32, b.const(3.0, "upper"), "range_mask")
    slope = b.select(in_range, slope, b.const(1.0, "one"), "slope")
    grad_fp32 = b.widen(grad, "grad_fp32")
    return b.mulf(grad_fp32, slope, "product")


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    three = b.const(3.0, "three")
    slope = b.addf(b.divf(x_fp32, three, "third"), b.const(0.5, "half"), "slope")
    linear = b.mulf(grad_fp32, slope, "linear")
    middle = b.select(b.cmpf("olt", x_fp32, three, "below"), linear, grad_fp32, "middle")
    low = b.cmpf("ole", x_fp32, b.const(-3.0, "lower"), "low")
    return b.select(low, b.const(0.0, "zero"), middle, "result")


DOCS = OpDocs(
    op_type="HardSwishGrad",
    summary="the gradient of HardSwish: {grad} times the derivative of HardSwish at {x}",
    computations={
        "cann": Computation(
            formula=(("{x} <= -3", "{grad} * 0"),
                     ("-3 < {x} < 3", "{grad} * ({x} * 0.333333343f + 0.5f)"),
                     ("{x} >= 3", "{grad}")),
            notes=("Every step is computed in float32 and rounded to nearest even; the result is "
                   "rounded once to the input dtype. The slope multiplies by 0.333333343f (the "
                   "float nearest 1/3), so it can differ from x / 3 by one ulp. x <= -3 gives "
                   "grad * 0: -0 for a negative grad, NaN for an infinite or NaN grad."),
            nan_x="grad"),
        "cann-arch35": Computation(
            formula=(("{x} < -3", "{grad} * 0"),
                     ("-3 <= {x} <= 3", "{grad} * ({x} * 0.333333343f + 0.5f)"),
                     ("{x} > 3", "{grad}")),
            notes=("ops-nn's Ascend 950 (arch35) kernel: every step is computed in float32 and "
                   "rounded to nearest even; the result is rounded once to the input dtype. "
                   "Unlike the A2/A3 kernel, x = -3 and x = 3 take the linear piece (Compares "
                   "GE / LE): -0.5 * grad and 1.5 * grad. x < -3 gives grad * 0: -0 for a "
                   "negative grad, NaN for an infinite or NaN grad."),
            nan_x="grad"),
        "torch": Computation(
            formula=(("{x} <= -3", "+0"), ("-3 < {x} < 3", "{grad} * ({x} / 3 + 0.5)"),
                     ("{x} >= 3", "{grad}")),
            notes=f"{TORCH_NOTES} x / 3 is a true division.",
            nan_x="grad"),
    },
    parameters={
        "grad": "the gradient flowing back from HardSwish's output",
        "x": "HardSwish's forward input, which sets the local slope",
        "y": "the gradient with respect to x",
    },
    aclnn_inputs=("gradOutput", "self"),
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_3_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_3_TEST},
)

HARD_SWISH_GRAD = OpDefinition(
    op=HardSwishGradOp,
    semantics={"cann": cann, "torch": torch, "cann-arch35": cann_arch35},
    aclnn="aclnnHardswishBackward",
    docs=DOCS,
    budgets={"cann": cann_budget, "cann-arch35": arch35_budget},
)
