"""The exponential activations' definitions: their decompositions (hswc.ops.exponential,
hswc.ops.exponential_grad), ops-nn's op types and aclnn names (looked up in ops-nn's
activation/ folders), and what their packages say."""

from __future__ import annotations

import hswc.ops.exponential as fw
import hswc.ops.exponential_grad as bw
from hswc.dialects import hsg
from hswc.ops.definition import Decomposition, OpDefinition
from hswc.ops.docs import Computation, OpDocs
from hswc.ops.samples import AROUND_0_EXAMPLE, AROUND_0_TEST, GRAD_EXAMPLE, GRAD_TEST

NOTES = (
    "Every step is one float32 operation rounded to nearest even, in the order of PyTorch "
    "2.14's CPU kernel; exp, log1p, expm1, tanh and erf are AscendC Exp and Ln or their "
    "decompositions (EXPONENTIAL.md); float16 and bfloat16 inputs are widened exactly and the "
    "result is rounded once: within torch.testing.assert_close's default tolerance of PyTorch."
)
"""How every exponential activation computes."""


def _definition(op: type[hsg.NamedOp], decomposition: Decomposition, op_type: str,
                aclnn: str, formula: str, aclnn_inputs: tuple[str, ...],
                parameters: dict[str, str], nan_x: str = "NaN",
                aclnn_omits: tuple[str, ...] = ()) -> OpDefinition:
    grad = len(op.INPUTS) == 2
    inputs = {"grad": GRAD_EXAMPLE, op.INPUTS[-1]: AROUND_0_EXAMPLE} if grad \
        else {"x": AROUND_0_EXAMPLE}
    tests = {"grad": GRAD_TEST, op.INPUTS[-1]: AROUND_0_TEST} if grad else {"x": AROUND_0_TEST}
    docs = OpDocs(
        op_type=op_type, summary=f"{op.TITLE}: {formula}",
        computations={"torch": Computation(formula=(("", formula),), notes=NOTES, nan_x=nan_x)},
        parameters={**({"grad": "the gradient flowing back"} if grad else {}),
                    op.INPUTS[-1]: "the input" if not grad else f"the forward {op.INPUTS[-1]}",
                    "y": f"{op.TITLE} of x" if not grad else "the gradient with respect to x",
                    **parameters},
        aclnn_inputs=aclnn_inputs, example_inputs=inputs, kernel_test_inputs=tests,
        aclnn_omits=aclnn_omits)
    return OpDefinition(op=op, semantics={"torch": decomposition}, aclnn=aclnn, docs=docs,
                        exact=False)


X = ("self",)
GRAD_X = ("gradOutput", "self")
ELU = {"alpha": "the scale of the negative side", "scale": "the output scale",
       "input_scale": "the input scale of the negative side"}
SWISH = {"scale": "the factor of x inside the sigmoid (1: PyTorch's SiLU)"}
SOFTPLUS = {"beta": "the sharpness (positive)", "threshold": "above x * beta the result is x"}

EXPONENTIAL = (
    _definition(hsg.SigmoidOp, fw.sigmoid, "Sigmoid", "aclnnSigmoid", "1 / (1 + exp(-{x}))",
                X, {}),
    _definition(hsg.TanhOp, fw.tanh, "Tanh", "aclnnTanh", "tanh({x})", X, {}),
    _definition(hsg.SiluOp, fw.silu, "Swish", "aclnnSilu",
                "{x} / (1 + exp(-{x} * {scale}))", X, SWISH, aclnn_omits=("scale",)),
    _definition(hsg.GeluOp, fw.gelu, "GeluV2", "aclnnGeluV2",
                "{x} / 2 * (1 + erf({x} / sqrt 2)) (approximate = tanh: 0.5 {x} (1 + "
                "tanh(sqrt(2 / pi) ({x} + 0.044715 {x}^3))))", ("x",), {}),
    _definition(hsg.EluOp, fw.elu, "Elu", "aclnnElu",
                "{x} > 0 ? {x} * {scale} : expm1({x} * {input_scale}) * {alpha} * {scale}", X,
                ELU),
    _definition(hsg.SeluOp, fw.selu, "Selu", "aclnnSelu",
                "Elu with alpha 1.6732632, scale 1.0507010", X, {}),
    _definition(hsg.CeluOp, fw.celu, "CeluV2", "aclnnCelu",
                "{x} >= 0 ? {x} * {alpha3} : expm1({x} / {alpha2}) * {alpha}", X,
                {"alpha": "the scale of the negative side (not zero)",
                 "alpha2": "the divisor of x on the negative side (not zero; alpha unless given)",
                 "alpha3": "the slope of the non-negative side (1: PyTorch's celu)"},
                aclnn_omits=("alpha2", "alpha3")),
    _definition(hsg.SoftplusOp, fw.softplus, "SoftplusV2", "aclnnSoftplus",
                "{x} * {beta} > {threshold} ? {x} : log1p(exp({x} * {beta})) / {beta}", X,
                SOFTPLUS),
    _definition(hsg.MishOp, fw.mish, "Mish", "aclnnMish", "{x} * tanh(log1p(exp({x})))", X, {}),
    _definition(hsg.SoftsignOp, fw.softsign, "Softsign", "aclnnSoftsign",
                "{x} / (1 + |{x}|)", X, {}),
    _definition(hsg.LogSigmoidOp, fw.log_sigmoid, "LogSigmoid", "aclnnLogSigmoid",
                "min({x}, 0) - log1p(exp(-|{x}|))", X, {}),
    _definition(hsg.SigmoidGradOp, bw.sigmoid_grad, "SigmoidGrad", "aclnnSigmoidBackward",
                "{grad} * (1 - {result}) * {result}", ("gradOutput", "output"), {}),
    _definition(hsg.TanhGradOp, bw.tanh_grad, "TanhGrad", "aclnnTanhBackward",
                "{grad} * (1 - {result} * {result})", ("gradOutput", "output"), {}),
    _definition(hsg.SiluGradOp, bw.silu_grad, "SiluGrad", "aclnnSiluBackward",
                "{grad} * s * (1 + {x} * {scale} * (1 - s)), s = sigmoid({x} * {scale})",
                GRAD_X, SWISH, aclnn_omits=("scale",)),
    _definition(hsg.GeluGradOp, bw.gelu_grad, "GeluGrad", "aclnnGeluBackward",
                "{grad} * (cdf({x}) + {x} * pdf({x}))", GRAD_X, {}),
    _definition(hsg.EluGradOp, bw.elu_grad, "EluGradV2", "aclnnEluBackward",
                "{v} > 0 ? {grad} * {scale} : {grad} * {input_scale} * {alpha} * {scale} * "
                "exp({v} * {input_scale}) (is_result: {grad} * {input_scale} * ({v} + "
                "{alpha} * {scale}))", ("gradOutput", "selfOrResult"), ELU),
    _definition(hsg.SoftplusGradOp, bw.softplus_grad, "SoftplusV2Grad", "aclnnSoftplusBackward",
                "{x} * {beta} > {threshold} ? {grad} : {grad} * z / (z + 1), z = exp({x} * "
                "{beta})", GRAD_X, SOFTPLUS),
    _definition(hsg.MishGradOp, bw.mish_grad, "MishGrad", "aclnnMishBackward",
                "{grad} * (t + {x} * sigmoid({x}) * (1 - t^2)), t = tanh(softplus({x}))",
                GRAD_X, {}),
    _definition(hsg.LogSigmoidGradOp, bw.log_sigmoid_grad, "LogSigmoidGrad",
                "aclnnLogSigmoidBackward",
                "{grad} * ({x} < 0 ? 1 - z / (1 + z) : z / (1 + z)), z = exp(-|{x}|)",
                GRAD_X, {}),
)
"""The 19 ops, in the order of EXPONENTIAL.md."""
