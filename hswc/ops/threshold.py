"""hsg.threshold and hsg.threshold_grad, as PyTorch computes them (FAMILY.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import ThresholdGradOp, ThresholdOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x <= threshold, value, x), compared in f32."""
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    at_most = b.cmpf("ole", x_fp32, attrs["threshold"], "at_most")
    return b.select(at_most, attrs["value"], x_fp32, "result")


def torch_grad(b: BodyBuilder, inputs: Sequence[SSAValue],
               attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x <= threshold, +0, grad)."""
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    at_most = b.cmpf("ole", x_fp32, attrs["threshold"], "at_most")
    return b.select(at_most, b.const(0.0, "zero"), grad_fp32, "result")


THRESHOLD = OpDefinition(op=ThresholdOp, semantics={"torch": torch}, aclnn="aclnnThreshold")
THRESHOLD_GRAD = OpDefinition(op=ThresholdGradOp, semantics={"torch": torch_grad},
                              aclnn="aclnnThresholdBackward")
