"""hsg.hardtanh and hsg.hardtanh_grad, as PyTorch computes them (FAMILY.md); the bounds are
the ops' f32 attributes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardtanhGradOp, HardtanhOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_1_EXAMPLE, AROUND_1_TEST, GRAD_EXAMPLE, GRAD_TEST


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


BOUNDS = {"min_val": "the lower bound", "max_val": "the upper bound"}
DOCS = OpDocs(
    op_type="Hardtanh",
    summary="Hardtanh: {x} clamped to [{min_val}, {max_val}]",
    computations={"torch": Computation(
        formula=(("{x} < {min_val}", "{min_val}"), ("{x} > {max_val}", "{max_val}"),
                 ("{min_val} <= {x} <= {max_val}", "{x}")),
        notes=(f"{TORCH_NOTES} The bounds are compared in float32; an x inside them is returned "
               "as it is (-0 stays -0)."),
        nan_x="NaN")},
    parameters={"x": "the input", "y": "x clamped to the bounds", **BOUNDS},
    aclnn_inputs=("self",),
    aclnn_attributes={"min_val": "clipValueMin", "max_val": "clipValueMax"},
    ordered=(("min_val", "max_val"),),
    example_inputs={"x": AROUND_1_EXAMPLE},
    kernel_test_inputs={"x": AROUND_1_TEST},
)
GRAD_DOCS = OpDocs(
    op_type="HardtanhGrad",
    summary="the gradient of Hardtanh: {grad} where {x} is strictly between {min_val} and "
            "{max_val}, else 0",
    computations={"torch": Computation(
        formula=(("{x} <= {min_val} or {x} >= {max_val}", "+0"),
                 ("{min_val} < {x} < {max_val}", "{grad}")),
        notes=f"{TORCH_NOTES} The bounds are compared in float32.",
        nan_x="grad")},
    parameters={"grad": "the gradient flowing back from Hardtanh's output",
                "x": "Hardtanh's forward input", "y": "the gradient with respect to x", **BOUNDS},
    aclnn_inputs=("gradOutput", "self"),
    aclnn_attributes={"min_val": "min", "max_val": "max"},
    ordered=(("min_val", "max_val"),),
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_1_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_1_TEST},
)

HARDTANH = OpDefinition(op=HardtanhOp, semantics={"torch": torch}, aclnn="aclnnHardtanh",
                        docs=DOCS)
HARDTANH_GRAD = OpDefinition(op=HardtanhGradOp, semantics={"torch": torch_grad},
                             aclnn="aclnnHardtanhBackward", docs=GRAD_DOCS)
