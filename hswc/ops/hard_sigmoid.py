"""hsg.hard_sigmoid and hsg.hard_sigmoid_grad, as PyTorch computes them (FAMILY.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardSigmoidGradOp, HardSigmoidOp
from hswc.ops.body import BodyBuilder, f32_from_bits
from hswc.ops.definition import OpDefinition

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


HARD_SIGMOID = OpDefinition(op=HardSigmoidOp, semantics={"torch": torch},
                            aclnn="aclnnHardsigmoid")
HARD_SIGMOID_GRAD = OpDefinition(op=HardSigmoidGradOp, semantics={"torch": torch_grad},
                                 aclnn="aclnnHardsigmoidBackward")
