"""hsg.hard_shrink, hsg.softshrink and their gradients, as PyTorch 2.14 computes them: lambd is
first rounded to the input dtype (FAMILY.md says f32; PyTorch itself rounds it), then the band
[-lambd, lambd] is compared and shifted by in f32."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.dialects.hsg import HardShrinkGradOp, HardShrinkOp, SoftshrinkGradOp, SoftshrinkOp
from hswc.ops.body import BodyBuilder
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import TORCH_NOTES, Computation, OpDocs
from hswc.ops.samples import AROUND_HALF_EXAMPLE, AROUND_HALF_TEST, GRAD_EXAMPLE, GRAD_TEST


def _lambd(b: BodyBuilder, x: SSAValue, attrs: Mapping[str, SSAValue],
           name: str = "lambd") -> SSAValue:
    """lambd (or bias) as PyTorch uses it: rounded to x's dtype, as f32 (exact for f32)."""
    return b.widen(b.narrow(attrs[name], x.type, f"{name}_in_dtype"), f"{name}_rounded")


def _inside(b: BodyBuilder, x_fp32: SSAValue, lambd: SSAValue) -> SSAValue:
    """x >= -lambd and x <= lambd: the band the shrink ops zero (NaN is outside)."""
    above = b.cmpf("oge", x_fp32, b.negf(lambd, "minus_lambd"), "above")
    below = b.cmpf("ole", x_fp32, lambd, "below")
    return b.andi(above, below, "inside")


def hard_shrink(b: BodyBuilder, inputs: Sequence[SSAValue],
                attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x >= -lambd and x <= lambd, +0, x)."""
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    inside = _inside(b, x_fp32, _lambd(b, x, attrs))
    return b.select(inside, b.const(0.0, "zero"), x_fp32, "result")


def shrink_grad(b: BodyBuilder, inputs: Sequence[SSAValue],
                attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x >= -lambd and x <= lambd, +0, grad): both shrink ops' backward."""
    grad, x = inputs
    x_fp32 = b.widen(x, "x_fp32")
    grad_fp32 = b.widen(grad, "grad_fp32")
    inside = _inside(b, x_fp32, _lambd(b, x, attrs))
    return b.select(inside, b.const(0.0, "zero"), grad_fp32, "result")


def softshrink(b: BodyBuilder, inputs: Sequence[SSAValue],
               attrs: Mapping[str, SSAValue]) -> SSAValue:
    """where(x > lambd, x - bias, where(x < -lambd, x + bias, +0)); bias is lambd unless
    given (ONNX Shrink's), rounded to x's dtype as lambd is."""
    (x,) = inputs
    x_fp32 = b.widen(x, "x_fp32")
    lambd = _lambd(b, x, attrs)
    below = b.cmpf("olt", x_fp32, b.negf(lambd, "minus_lambd"), "below")
    above = b.cmpf("ogt", x_fp32, lambd, "above")
    bias = _lambd(b, x, attrs, "bias")  # after lambd's uses: the kernel's scalars in one order
    shifted_down = b.subf(x_fp32, bias, "shifted_down")
    shifted_up = b.addf(x_fp32, bias, "shifted_up")
    lower = b.select(below, shifted_up, b.const(0.0, "zero"), "lower")
    return b.select(above, shifted_down, lower, "result")


SHRINK_NOTES = f"{TORCH_NOTES} lambd is first rounded to the input dtype, as PyTorch does."
LAMBD = {"lambd": "the half-width of the band around 0"}
SOFTSHRINK_ZERO = (" Inside the band the result is +0, as PyTorch's vectorised loop gives it; "
                   "PyTorch's scalar loop (tensors shorter than one vector, the last n % 16 "
                   "float32 or n % 32 float16/bfloat16 elements, strided tensors) gives -0 "
                   "for a negative x there.")
BAND = (("-{lambd} <= {x} <= {lambd}", "+0"),)
HARD_SHRINK_DOCS = OpDocs(
    op_type="HardShrink",
    summary="HardShrink: 0 where |{x}| <= {lambd}, else {x}",
    computations={"torch": Computation(formula=(*BAND, ("|{x}| > {lambd}", "{x}")),
                                       notes=SHRINK_NOTES, nan_x="NaN")},
    parameters={"x": "the input", "y": "HardShrink of x", **LAMBD},
    aclnn_inputs=("self",),
    example_inputs={"x": AROUND_HALF_EXAMPLE},
    kernel_test_inputs={"x": AROUND_HALF_TEST},
)
HARD_SHRINK_GRAD_DOCS = OpDocs(
    op_type="HardShrinkGrad",
    summary="the gradient of HardShrink: 0 where |{x}| <= {lambd}, else {grad}",
    computations={"torch": Computation(formula=(*BAND, ("|{x}| > {lambd}", "{grad}")),
                                       notes=SHRINK_NOTES, nan_x="grad")},
    parameters={"grad": "the gradient flowing back from HardShrink's output",
                "x": "HardShrink's forward input", "y": "the gradient with respect to x", **LAMBD},
    aclnn_inputs=("gradOutput", "self"),
    aclnn_output="gradInput",
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_HALF_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_HALF_TEST},
)
SOFTSHRINK_DOCS = OpDocs(
    op_type="Softshrink",
    summary="Softshrink: {x} moved towards 0 by {bias} where |{x}| > {lambd}, and 0 elsewhere",
    computations={"torch": Computation(
        formula=(("{x} > {lambd}", "{x} - {bias}"), ("{x} < -{lambd}", "{x} + {bias}"), *BAND),
        notes=SHRINK_NOTES + " So is bias, which is lambd unless given (PyTorch's softshrink; "
              "ONNX's Shrink sets it apart)." + SOFTSHRINK_ZERO, nan_x="+0")},
    parameters={"x": "the input", "y": "Softshrink of x", **LAMBD,
                "bias": "how far x moves towards 0 outside the band (lambd unless given)"},
    aclnn_inputs=("self",),
    aclnn_omits=("bias",),
    example_inputs={"x": AROUND_HALF_EXAMPLE},
    kernel_test_inputs={"x": AROUND_HALF_TEST},
)
SOFTSHRINK_GRAD_DOCS = OpDocs(
    op_type="SoftShrinkGrad",
    summary="the gradient of Softshrink: 0 where |{x}| <= {lambd}, else {grad}",
    computations={"torch": Computation(formula=(*BAND, ("|{x}| > {lambd}", "{grad}")),
                                       notes=SHRINK_NOTES, nan_x="grad")},
    parameters={"grad": "the gradient flowing back from Softshrink's output",
                "x": "Softshrink's forward input", "y": "the gradient with respect to x", **LAMBD},
    aclnn_inputs=("gradOutput", "self"),
    aclnn_output="gradInput",
    aclnn_attributes={"lambd": "lambda"},
    example_inputs={"grad": GRAD_EXAMPLE, "x": AROUND_HALF_EXAMPLE},
    kernel_test_inputs={"grad": GRAD_TEST, "x": AROUND_HALF_TEST},
)

HARD_SHRINK = OpDefinition(op=HardShrinkOp, semantics={"torch": hard_shrink},
                           aclnn="aclnnHardshrink", docs=HARD_SHRINK_DOCS)
HARD_SHRINK_GRAD = OpDefinition(op=HardShrinkGradOp, semantics={"torch": shrink_grad},
                                aclnn="aclnnHardshrinkBackward", docs=HARD_SHRINK_GRAD_DOCS)
SOFTSHRINK = OpDefinition(op=SoftshrinkOp, semantics={"torch": softshrink},
                          aclnn="aclnnSoftshrink", docs=SOFTSHRINK_DOCS)
SOFTSHRINK_GRAD = OpDefinition(op=SoftshrinkGradOp, semantics={"torch": shrink_grad},
                               aclnn="aclnnSoftshrinkBackward", docs=SOFTSHRINK_GRAD_DOCS)
