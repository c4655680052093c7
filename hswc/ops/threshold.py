"""hsg.threshold and hsg.threshold_grad, as PyTorch computes them (FAMILY.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import ThresholdGradOp, ThresholdOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_0_EXAMPLE, AROUND_0_TEST, GRAD_EXAMPLE, GRAD_TEST


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


THRESHOLD_TEXT = {"threshold": "x is compared with it (in float32)"}
DOCS = OpDocs(
    # ops-nn's Threshold is Caffe's (1 above the threshold, else 0), and ThresholdV2, which
    # aclnnThreshold launches, takes threshold and value as tensors; with them as attributes it
    # is ThresholdV2D, as ThresholdGradV2D is the attribute form of the gradient.
    op_type="ThresholdV2D",
    summary="Threshold: {value} where {x} <= {threshold}, else {x}",
    computations={"torch": Computation(
        formula=(("{x} <= {threshold}", "{value}"), ("{x} > {threshold}", "{x}")),
        notes=f"{TORCH_NOTES} value is rounded to the input dtype with the result.",
        nan_x="NaN")},
    parameters={"x": "the input", "y": "x, or value where x is at most the threshold",
                "value": "what y is where x is at most the threshold", **THRESHOLD_TEXT},
    aclnn_inputs=("self",),
    example_inputs={"x": AROUND_0_EXAMPLE},
    kernel_test_inputs={"x": AROUND_0_TEST},
)
GRAD_DOCS = OpDocs(
    op_type="ThresholdGradV2D",
    summary="the gradient of Threshold: 0 where {x} <= {threshold}, else {grad} (with "
            "threshold 0, ReLU's gradient)",
    computations={"torch": Computation(
        formula=(("{x} <= {threshold}", "+0"), ("{x} > {threshold}", "{grad}")),
        notes=TORCH_NOTES,
        nan_x="grad")},
    parameters={"grad": "the gradient flowing back from Threshold's output",
                "x": "Threshold's forward input", "y": "the gradient with respect to x",
                **THRESHOLD_TEXT},
    aclnn_inputs=("gradOutput", "self"),
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_0_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_0_TEST},
)

THRESHOLD = OpDefinition(op=ThresholdOp, semantics={"torch": torch}, aclnn="aclnnThreshold",
                         docs=DOCS)
THRESHOLD_GRAD = OpDefinition(op=ThresholdGradOp, semantics={"torch": torch_grad},
                              aclnn="aclnnThresholdBackward", docs=GRAD_DOCS)
