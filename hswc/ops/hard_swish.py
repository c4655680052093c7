"""hsg.hard_swish: HardSwish, as PyTorch computes it (FAMILY.md):
(x * min(max(x + 3, 0), 6)) / 6, each step one f32 operation, rounded once at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardSwishOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_3_EXAMPLE, AROUND_3_TEST


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    six = b.const(6.0, "six")
    shifted = b.addf(x_fp32, b.const(3.0, "three"), "shifted")
    clamped = b.minimumf(b.maximumf(shifted, b.const(0.0, "zero"), "relu"), six, "relu6")
    return b.divf(b.mulf(x_fp32, clamped, "scaled"), six, "result")


DOCS = OpDocs(
    op_type="HardSwish",
    summary="HardSwish: {x} times relu6({x} + 3) / 6",
    computations={"torch": Computation(
        formula=(("", "({x} * min(max({x} + 3, 0), 6)) / 6"),),
        notes=(f"{TORCH_NOTES} The division by 6 is a true division; x <= -3 gives x * 0 (-0 for "
               "a negative x, NaN for x = -inf)."),
        nan_x="NaN")},
    parameters={"x": "the input", "y": "HardSwish of x"},
    aclnn_inputs=("self",),
    example_inputs={"x": AROUND_3_EXAMPLE},
    kernel_test_inputs={"x": AROUND_3_TEST},
)

HARD_SWISH = OpDefinition(op=HardSwishOp, semantics={"torch": torch}, aclnn="aclnnHardswish",
                          docs=DOCS)
