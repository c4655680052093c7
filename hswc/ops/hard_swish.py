"""hsg.hard_swish: HardSwish, as PyTorch computes it (FAMILY.md):
(x * min(max(x + 3, 0), 6)) / 6, each step one f32 operation, rounded once at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardSwishOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    six = b.const(6.0, "six")
    shifted = b.addf(x_fp32, b.const(3.0, "three"), "shifted")
    clamped = b.minimumf(b.maximumf(shifted, b.const(0.0, "zero"), "relu"), six, "relu6")
    return b.divf(b.mulf(x_fp32, clamped, "scaled"), six, "result")


HARD_SWISH = OpDefinition(op=HardSwishOp, semantics={"torch": torch}, aclnn="aclnnHardswish")
