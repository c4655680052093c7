"""hsg.leaky_relu and hsg.leaky_relu_grad, as PyTorch computes them (FAMILY.md); the slope is
the ops' f32 attribute."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import LeakyReluGradOp, LeakyReluOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, AclnnFlag, Computation, OpDocs
from hswc.ops.samples import AROUND_0_EXAMPLE, AROUND_0_TEST, GRAD_EXAMPLE, GRAD_TEST


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


SLOPE = {"negative_slope": "the slope where x is not positive"}
DOCS = OpDocs(
    op_type="LeakyRelu",
    summary="LeakyRelu: {x}, times {negative_slope} where it is not positive",
    computations={"torch": Computation(
        formula=(("{x} > 0", "{x}"), ("{x} <= 0", "{x} * {negative_slope}")),
        notes=TORCH_NOTES,
        nan_x="NaN")},
    parameters={"x": "the input", "y": "LeakyRelu of x", **SLOPE},
    aclnn_inputs=("self",),
    example_inputs={"x": AROUND_0_EXAMPLE},
    kernel_test_inputs={"x": AROUND_0_TEST},
)
GRAD_DOCS = OpDocs(
    op_type="LeakyReluGrad",
    summary="the gradient of LeakyRelu: {grad}, times {negative_slope} where {x} is not "
            "positive",
    computations={"torch": Computation(
        formula=(("{x} > 0", "{grad}"), ("{x} <= 0", "{grad} * {negative_slope}")),
        notes=TORCH_NOTES,
        nan_x="grad * negative_slope")},
    parameters={"grad": "the gradient flowing back from LeakyRelu's output",
                "x": "LeakyRelu's forward input", "y": "the gradient with respect to x",
                **SLOPE},
    aclnn_inputs=("gradOutput", "self"),
    aclnn_flags=(AclnnFlag(
        "selfIsResult", "whether `self` is LeakyRelu's result rather than its input (the same "
        "signs, so the same gradient)", non_negative_with="negative_slope"),),
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_0_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_0_TEST},
)

LEAKY_RELU = OpDefinition(op=LeakyReluOp, semantics={"torch": torch}, aclnn="aclnnLeakyRelu",
                          docs=DOCS)
LEAKY_RELU_GRAD = OpDefinition(op=LeakyReluGradOp, semantics={"torch": torch_grad},
                               aclnn="aclnnLeakyReluBackward", docs=GRAD_DOCS)
