"""The exponential activations, forward: sigmoid, tanh, silu, gelu, elu, selu, celu, softplus,
mish, softsign, log_sigmoid, each as PyTorch 2.14's CPU kernel computes it (EXPONENTIAL.md).

Every step is one f32 operation in the order of ATen's formula (aten/src/ATen/native/cpu/
Activation.cpp, UnaryOpsKernel.cpp); exp, log1p, expm1, tanh and erf are math ops, which the
vectorizer maps to AscendC's Exp and Ln or their decompositions (hswc.math_decompositions).
f16 and bf16 inputs are widened first and the result rounded once, as ATen's opmath does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from xdsl.ir import SSAValue

from hswc.ops.body import BodyBuilder

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
GELU_KAPPA = 0.044715
GELU_TANH_BETA = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5
"""sqrt(2 / pi), as ATen spells it: M_SQRT2 * M_2_SQRTPI * 0.5."""
SQRT1_2 = math.sqrt(0.5)
Attrs = Mapping[str, SSAValue]


def _one(b: BodyBuilder) -> SSAValue:
    return b.const(1.0, "one")


def sigmoid_of(b: BodyBuilder, x: SSAValue) -> SSAValue:
    """1 / (1 + exp(-x))."""
    e = b.math("exp", b.negf(x, "minus_x"), "exp_minus_x")
    return b.divf(_one(b), b.addf(_one(b), e, "denominator"), "sigmoid")


def sigmoid(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    return sigmoid_of(b, b.widen(inputs[0], "x_fp32"))


def tanh(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    return b.math("tanh", b.widen(inputs[0], "x_fp32"), "tanh")


def scaled_by(b: BodyBuilder, x: SSAValue, attrs: Attrs) -> SSAValue:
    """x * scale (Swish's), or x itself where the caller gives no scale."""
    return b.mulf(x, attrs["scale"], "x_scaled") if "scale" in attrs else x


def silu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """x / (1 + exp(-(x * scale))): PyTorch's x / (1 + exp(-x)) for scale 1 (x * 1 is x),
    and without a scale (the gated ops' SiLU, hswc.ops.gated_ops)."""
    x = b.widen(inputs[0], "x_fp32")
    scaled = scaled_by(b, x, attrs)
    e = b.math("exp", b.negf(scaled, "minus_x"), "exp_minus_x")
    return b.divf(x, b.addf(_one(b), e, "denominator"), "silu")


def gelu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """none: x * 0.5 * (1 + erf(x * sqrt(1/2))), NaN for x = -inf (-inf times 0, as PyTorch
    2.14.1's eager CPU gelu gives in every dtype and CPU capability); tanh: 0.5 * x * (1 +
    tanh(beta * (x + kappa * x^3)))."""
    x = b.widen(inputs[0], "x_fp32")
    half = b.const(0.5, "half")
    if b.options.get("approximate", "none") == "tanh":
        cube = b.mulf(b.mulf(x, x, "x_sq"), x, "x_cube")
        inner = b.mulf(b.const(GELU_TANH_BETA, "beta"),
                       b.addf(x, b.mulf(b.const(GELU_KAPPA, "kappa"), cube), "inner_sum"),
                       "inner")
        return b.mulf(b.mulf(half, x, "half_x"),
                      b.addf(_one(b), b.math("tanh", inner, "tanh_inner")), "gelu")
    erf = b.math("erf", b.mulf(x, b.const(SQRT1_2, "sqrt1_2"), "scaled"), "erf")
    return b.mulf(b.mulf(x, half, "half_x"), b.addf(_one(b), erf, "one_plus_erf"), "gelu")


def elu_of(b: BodyBuilder, x: SSAValue, negcoef: SSAValue, poscoef: SSAValue,
           negiptcoef: SSAValue) -> SSAValue:
    """x >= 0 ? x * poscoef : expm1(x * negiptcoef) * negcoef (ATen's vectorised elu)."""
    above = b.cmpf("oge", x, b.const(0.0, "zero"), "not_negative")
    below = b.mulf(b.math("expm1", b.mulf(x, negiptcoef, "x_in"), "expm1"), negcoef, "below")
    return b.select(above, b.mulf(x, poscoef, "above"), below, "elu")


def elu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    x = b.widen(inputs[0], "x_fp32")
    negcoef = b.mulf(attrs["alpha"], attrs["scale"], "negcoef")
    return elu_of(b, x, negcoef, attrs["scale"], attrs["input_scale"])


def selu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    x = b.widen(inputs[0], "x_fp32")
    scale = b.const(SELU_SCALE, "scale")
    negcoef = b.mulf(b.const(SELU_ALPHA, "alpha"), scale, "negcoef")
    return elu_of(b, x, negcoef, scale, _one(b))


def celu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """Elu with negcoef alpha, poscoef alpha3 and input_scale 1 / alpha2: PyTorch's celu (alpha2
    = alpha, alpha3 = 1: x * 1 is x) and ops-nn's three-alpha Celu."""
    x = b.widen(inputs[0], "x_fp32")
    inverse = b.divf(_one(b), attrs["alpha2"], "inv_alpha")
    return elu_of(b, x, attrs["alpha"], attrs["alpha3"], inverse)


def softplus(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """(x * beta) > threshold ? x : log1p(exp(x * beta)) / beta."""
    x = b.widen(inputs[0], "x_fp32")
    scaled = b.mulf(x, attrs["beta"], "x_beta")
    linear = b.cmpf("ogt", scaled, attrs["threshold"], "linear")
    soft = b.divf(b.math("log1p", b.math("exp", scaled, "exp"), "log1p"), attrs["beta"], "soft")
    return b.select(linear, x, soft, "softplus")


def mish_tanh(b: BodyBuilder, x: SSAValue) -> SSAValue:
    """tanh(log1p(exp(x)))."""
    return b.math("tanh", b.math("log1p", b.math("exp", x, "exp"), "softplus"), "tanh_softplus")


def mish(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    x = b.widen(inputs[0], "x_fp32")
    return b.mulf(x, mish_tanh(b, x), "mish")


def softsign(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """x / (1 + |x|)."""
    x = b.widen(inputs[0], "x_fp32")
    return b.divf(x, b.addf(b.math("absf", x, "abs_x"), _one(b), "denominator"), "softsign")


def log_sigmoid(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """min(x, 0) - log1p(exp(-|x|))."""
    x = b.widen(inputs[0], "x_fp32")
    low = b.minimumf(x, b.const(0.0, "zero"), "min_x_0")
    z = b.math("exp", b.negf(b.math("absf", x, "abs_x"), "minus_abs_x"), "z")
    return b.subf(low, b.math("log1p", z, "log1p_z"), "log_sigmoid")
