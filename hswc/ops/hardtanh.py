"""hsg.hardtanh and hsg.hardtanh_grad, as PyTorch computes them (FAMILY.md); the bounds are
the ops' f32 attributes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardtanhGradOp, HardtanhOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x < min_val, min_val, where(x > max_val, max_val, x)): x itself in the bounds."""
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    lo, hi = attrs["min_val"], attrs["max_val"]
    upper = b.select(b.cmpf("ogt", x_fp32, hi, "above"), hi, x_fp32, "upper")
    return b.select(b.cmpf("olt", x_fp32, lo, "below"), lo, upper, "result")


def torch_grad(b: BodyBuilder, inputs: Sequence[SSAValue],
               attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x <= min_val or x >= max_val, +0, grad), compared in f32."""
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    low = b.cmpf("ole", x_fp32, attrs["min_val"], "low")
    high = b.cmpf("oge", x_fp32, attrs["max_val"], "high")
    outside = b.ori(low, high, "outside")
    return b.select(outside, b.const(0.0, "zero"), grad_fp32, "result")


HARDTANH = OpDefinition(op=HardtanhOp, semantics={"torch": torch}, aclnn="aclnnHardtanh")
HARDTANH_GRAD = OpDefinition(op=HardtanhGradOp, semantics={"torch": torch_grad},
                             aclnn="aclnnHardtanhBackward")
