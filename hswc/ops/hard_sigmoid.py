"""hsg.hard_sigmoid and hsg.hard_sigmoid_grad, as PyTorch computes them (FAMILY.md), with
ONNX's and ops-nn's alpha and beta (defaults 1/6 and 1/2: PyTorch's function)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardSigmoidGradOp, HardSigmoidOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_3_EXAMPLE, AROUND_3_TEST, GRAD_EXAMPLE, GRAD_TEST


def offset_and_span(b: BodyBuilder, attrs: Mapping[str, SSAValue]) -> tuple[SSAValue, SSAValue]:
    """beta / alpha and 1 / alpha: where alpha * x + beta is 0, and how far x goes for it to
    rise by 1 (3 and 6 exactly for the f32 nearest 1/6 and 1/2: PyTorch's constants)."""
    alpha = attrs["alpha"]
    offset = b.divf(attrs["beta"], alpha, "offset")
    span = b.divf(b.const(1.0, "one"), alpha, "span")
    return offset, span


def torch(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Mapping[str, SSAValue]) -> SSAValue:
    """min(max((x + beta / alpha) / (1 / alpha), 0), 1): alpha * x + beta clamped to [0, 1],
    computed as PyTorch's min(max(x + 3, 0), 6) / 6 is (a true division, then the clamp, which
    the division keeps: 0 / 6 and 6 / 6 are exact)."""
    (x,) = inputs
    offset, span = offset_and_span(b, attrs)
    shifted = b.addf(b.widen(x, "x_fp32"), offset, "shifted")
    ratio = b.divf(shifted, span, "ratio")
    return b.minimumf(b.maximumf(ratio, b.const(0.0, "zero"), "above_zero"),
                      b.const(1.0, "one"), "result")


def torch_grad(b: BodyBuilder, inputs: Sequence[SSAValue],
               attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(lower < x < upper, grad * alpha, +0), lower and upper the x where alpha * x +
    beta is 0 and 1 (-3 and 3 for the defaults, where PyTorch compares x with them)."""
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    offset, span = offset_and_span(b, attrs)
    at_zero = b.negf(offset, "at_zero")
    at_one = b.subf(span, offset, "at_one")
    lower = b.minimumf(at_zero, at_one, "lower")
    upper = b.maximumf(at_zero, at_one, "upper")
    above = b.cmpf("ogt", x_fp32, lower, "above")
    below = b.cmpf("olt", x_fp32, upper, "below")
    inside = b.andi(above, below, "inside")
    scaled = b.mulf(grad_fp32, attrs["alpha"], "scaled")
    return b.select(inside, scaled, b.const(0.0, "zero"), "result")


ALPHA_BETA = {"alpha": "the slope (not zero; default 1/6)",
              "beta": "the value at x = 0 (default 1/2)"}
DOCS = OpDocs(
    op_type="HardSigmoid",
    summary="HardSigmoid: {alpha} * {x} + {beta} clamped to [0, 1] (relu6({x} + 3) / 6 for the "
            "defaults)",
    computations={"torch": Computation(
        formula=(("", "min(max(({x} + {beta} / {alpha}) / (1 / {alpha}), 0), 1)"),),
        notes=f"{TORCH_NOTES} The divisions are true divisions; for the default alpha and beta "
              "(the float nearest 1/6, and 1/2) beta / alpha is 3 and 1 / alpha is 6, so the "
              "result is PyTorch's min(max(x + 3, 0), 6) / 6.",
        nan_x="NaN")},
    parameters={"x": "the input", "y": "HardSigmoid of x", **ALPHA_BETA},
    aclnn_inputs=("self",),
    aclnn_omits=("alpha", "beta"),
    example_inputs={"x": AROUND_3_EXAMPLE},
    kernel_test_inputs={"x": AROUND_3_TEST},
)
GRAD_DOCS = OpDocs(
    op_type="HardSigmoidGrad",
    summary="the gradient of HardSigmoid: {grad} times the derivative of HardSigmoid at {x}",
    computations={"torch": Computation(
        formula=(("lower < {x} < upper", "{grad} * {alpha}"), ("otherwise", "+0")),
        notes=f"{TORCH_NOTES} lower and upper are the x where alpha * x + beta is 0 and 1, "
              "computed as -(beta / alpha) and 1 / alpha - beta / alpha (in either order); for "
              "the defaults -3 and 3, and alpha is 0.166666672f, the float nearest 1/6.",
        nan_x="+0")},
    parameters={"grad": "the gradient flowing back from HardSigmoid's output",
                "x": "HardSigmoid's forward input", "y": "the gradient with respect to x",
                **ALPHA_BETA},
    aclnn_inputs=("gradOutput", "self"),
    aclnn_omits=("alpha", "beta"),
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_3_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_3_TEST},
)

HARD_SIGMOID = OpDefinition(op=HardSigmoidOp, semantics={"torch": torch},
                            aclnn="aclnnHardsigmoid", docs=DOCS)
HARD_SIGMOID_GRAD = OpDefinition(op=HardSigmoidGradOp, semantics={"torch": torch_grad},
                                 aclnn="aclnnHardsigmoidBackward", docs=GRAD_DOCS)
