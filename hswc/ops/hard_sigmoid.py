"""hsg.hard_sigmoid and hsg.hard_sigmoid_grad, as PyTorch computes them (FAMILY.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardSigmoidGradOp, HardSigmoidOp
from hswc.ops.body import BodyBuilder, f32_from_bits
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_3_EXAMPLE, AROUND_3_TEST, GRAD_EXAMPLE, GRAD_TEST

ONE_SIXTH = f32_from_bits(0x3E2AAAAB)
"""The f32 nearest 1/6: hardsigmoid_backward multiplies by it."""


def relu6_of_x_plus_3(b: BodyBuilder, x_fp32: SSAValue) -> SSAValue:
    """min(max(x + 3, 0), 6), three f32 steps (NaN propagates through max and min)."""
    shifted = b.addf(x_fp32, b.const(3.0, "three"), "shifted")
    return b.minimumf(b.maximumf(shifted, b.const(0.0, "zero"), "relu"), b.const(6.0, "six"),
                      "relu6")


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    """min(max(x + 3, 0), 6) / 6, a true division."""
    (x,) = inputs
    return b.divf(relu6_of_x_plus_3(b, b.widen(x, "x_fp32")), b.const(6.0, "six"), "result")


def torch_grad(b: BodyBuilder, inputs: Sequence[SSAValue],
               attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x > -3 and x < 3, grad * (1/6), +0)."""
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    above = b.cmpf("ogt", x_fp32, b.const(-3.0, "lower"), "above")
    below = b.cmpf("olt", x_fp32, b.const(3.0, "upper"), "below")
    inside = b.andi(above, below, "inside")
    scaled = b.mulf(grad_fp32, b.const(ONE_SIXTH, "one_sixth"), "scaled")
    return b.select(inside, scaled, b.const(0.0, "zero"), "result")


DOCS = OpDocs(
    op_type="HardSigmoid",
    summary="HardSigmoid: relu6({x} + 3) / 6",
    computations={"torch": Computation(
        formula=(("", "min(max({x} + 3, 0), 6) / 6"),),
        notes=f"{TORCH_NOTES} The division by 6 is a true division.",
        nan_x="NaN")},
    parameters={"x": "the input", "y": "HardSigmoid of x"},
    aclnn_inputs=("self",),
    example_inputs={"x": AROUND_3_EXAMPLE},
    kernel_test_inputs={"x": AROUND_3_TEST},
)
GRAD_DOCS = OpDocs(
    op_type="HardSigmoidGrad",
    summary="the gradient of HardSigmoid: {grad} times the derivative of HardSigmoid at {x}",
    computations={"torch": Computation(
        formula=(("-3 < {x} < 3", "{grad} * 0.166666672f"), ("{x} <= -3 or {x} >= 3", "+0")),
        notes=f"{TORCH_NOTES} 0.166666672f is the float nearest 1/6.",
        nan_x="+0")},
    parameters={"grad": "the gradient flowing back from HardSigmoid's output",
                "x": "HardSigmoid's forward input", "y": "the gradient with respect to x"},
    aclnn_inputs=("gradOutput", "self"),
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_3_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_3_TEST},
)

HARD_SIGMOID = OpDefinition(op=HardSigmoidOp, semantics={"torch": torch},
                            aclnn="aclnnHardsigmoid", docs=DOCS)
HARD_SIGMOID_GRAD = OpDefinition(op=HardSigmoidGradOp, semantics={"torch": torch_grad},
                                 aclnn="aclnnHardsigmoidBackward", docs=GRAD_DOCS)
