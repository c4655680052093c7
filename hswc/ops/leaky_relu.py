"""hsg.leaky_relu and hsg.leaky_relu_grad, as PyTorch computes them (FAMILY.md); the slope is
the ops' f32 attribute."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import LeakyReluGradOp, LeakyReluOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x > 0, x, x * negative_slope)."""
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    positive = b.cmpf("ogt", x_fp32, b.const(0.0, "zero"), "positive")
    scaled = b.mulf(x_fp32, attrs["negative_slope"], "scaled")
    return b.select(positive, x_fp32, scaled, "result")


def torch_grad(b: BodyBuilder, inputs: Sequence[SSAValue],
               attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x > 0, grad, grad * negative_slope)."""
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    positive = b.cmpf("ogt", x_fp32, b.const(0.0, "zero"), "positive")
    scaled = b.mulf(grad_fp32, attrs["negative_slope"], "scaled")
    return b.select(positive, grad_fp32, scaled, "result")


LEAKY_RELU = OpDefinition(op=LeakyReluOp, semantics={"torch": torch}, aclnn="aclnnLeakyRelu")
LEAKY_RELU_GRAD = OpDefinition(op=LeakyReluGradOp, semantics={"torch": torch_grad},
                               aclnn="aclnnLeakyReluBackward")
