"""The exponential activations, forward: sigmoid, tanh, silu, gelu, elu, selu, celu, softplus,
mish, softsign, log_sigmoid, each as PyTorch 2.14's CPU kernel computes it (EXPONENTIAL.md),
but gelu and mish, whose ATen formulas cost the vector unit 3 to 8 times as many calls: an
equal form of the function with one Exp (their docstrings), within PyTorch's tolerance. Where
the result is rounded to f16 or bf16, tanh, elu, selu, celu, softplus, log_sigmoid and gelu take
shorter forms still, accurate enough for that one rounding (hswc.ops.half_math,
GELU_TAIL_FIT_HALF, GELU_LOGIT_FIT_F16).

Every step is one f32 operation in the order of ATen's formula (aten/src/ATen/native/cpu/
Activation.cpp, UnaryOpsKernel.cpp); exp, log1p, expm1, tanh and erf are math ops, which the
vectorizer maps to AscendC's Exp and Ln or their decompositions (hswc.math_decompositions).
f16 and bf16 inputs are widened first and the result rounded once, as ATen's opmath does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import Float16Type
from xdsl.ir import SSAValue

from hswc.ops import half_math
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
    """math.tanh; on f16 and bf16 hswc.ops.half_math's form, in half the vector calls."""
    x = b.widen(inputs[0], "x_fp32")
    if half_math.rounds_to_half(inputs[0]):
        return half_math.tanh(b, x)
    return b.math("tanh", x, "tanh")


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


GELU_TAIL_SCALE = 0.25
"""GELU's tail polynomial runs on t = 1 / (1 + |x| GELU_TAIL_SCALE) (GELU_TAIL_FIT)."""
GELU_TAIL_FIT = (
    0.03286110237240791, -0.19060102105140686, 0.3826160132884979, -0.31788304448127747,
    0.2922589182853699, -0.01419015135616064, 0.11954427510499954, 0.09523124247789383,
    0.10018191486597061, -1.9281455024611205e-05,
)
"""G(t), highest power first: erfc(|x| / sqrt 2) / 2 = exp(-x^2 / 2) G(t) for every x, relative
error below 7e-8 (tools/fit_erf_coefficients.py, which prints it)."""


def polynomial(b: BodyBuilder, coefficients: Sequence[float], t: SSAValue,
               name: str) -> SSAValue:
    """Horner's scheme, highest power first: (c0 t + c1) t + ..."""
    p = b.addf(b.mulf(t, b.const(coefficients[0]), f"{name}_0"), b.const(coefficients[1]),
               f"{name}_1")
    for k, c in enumerate(coefficients[2:], start=2):
        p = b.addf(b.mulf(p, t, f"{name}_{k}t"), b.const(c), f"{name}_{k}")
    return p


GELU_TAIL_HALF_OFFSET = 3.5
"""For a result rounded to f16 or bf16, GELU's tail polynomial runs on t = 3.5 / (3.5 + |x|)
(GELU_TAIL_FIT_HALF), a t of the same cost as GELU_TAIL_SCALE's."""
GELU_TAIL_FIT_HALF = (
    0.2859436273574829, -0.07166290283203125, 0.1834913194179535, 0.1013834998011589,
    0.0008464806596748531,
)
"""G(t) of degree 4, highest power first, for a result rounded to f16 or bf16: relative error
below 2.1e-4 (2^-12.2), and below (0.02 + |x|) / 1.02 of that next to 0, where half patterns
crowd and gelu lies next to half-way points (tools/fit_erf_coefficients.py, which prints it).
Every bf16 result is within an ulp of the function (test/test_exponential_half.py), in 6 Horner
steps fewer than GELU_TAIL_FIT; f16 takes GELU_LOGIT_FIT_F16, shorter still. gelu only:
gelu_grad has fits of its own
(hswc.ops.exponential_grad.GELU_GRAD_FIT_F16, GELU_GRAD_FIT_BF16)."""


GELU_LOGIT_FIT_F16 = (
    3.710099250042731e-08, -2.3829347810533363e-06, 4.65620105387643e-05,
    0.00042176092392764986, -0.07351276278495789, -1.5951969623565674,
)
"""r(y), highest power first, for a GELU rounded to f16: gelu(x) = x / (1 + exp(x r(x^2))),
-x r(x^2) fitted to logit(Phi(x)) = ln(Phi(x) / Phi(-x)) over |x| <= 5.75 so that the result's
relative error stays below 2^-12 (2^-25 absolute where it is an f16 subnormal; 0.786 of that at
most; tools/fit_erf_coefficients.py, which prints it). Every f16 result is within an ulp of the
function, 1.99% of them one off (test/test_exponential_half.py). Not for bf16: exp(x r)
overflows f32 from about x = -13.2, where gelu is still a bf16 number (down to x = -13.56)."""
GELU_LOGIT_CAP = 33.0625
"""y = min(x^2, 5.75^2): r(y) of degree 5 turns upwards beyond its range, and at the cap it is
-3.26, so for every f16 x beyond 5.75 exp(x r) is below 2^-27 (the result rounds to x) or above
1.4e8 (the result within an ulp of the function's -0, and -0 itself from |x| = 5.9 on); +inf at
+inf, NaN at -inf (-inf / +inf) and at NaN."""


def gelu_logistic_f16(b: BodyBuilder, x: SSAValue) -> SSAValue:
    """x Phi(x) as x / (1 + exp(x r(y))), y = min(x^2, GELU_LOGIT_CAP) (GELU_LOGIT_FIT_F16): no
    Abs, Compare or Select, and 5 Horner steps where the tail form takes 4 behind a Div."""
    y = b.minimumf(b.mulf(x, x, "x_sq"), b.const(GELU_LOGIT_CAP, "logit_cap"), "y")
    r = polynomial(b, GELU_LOGIT_FIT_F16, y, "logit_r")
    e = b.math("exp", b.mulf(x, r, "minus_logit"), "exp_minus_logit")
    return b.divf(x, b.addf(_one(b), e, "denominator"), "gelu")


def abs_and_gauss(b: BodyBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(|x|, exp(-x^2 / 2))."""
    a = b.math("absf", x, "abs_x")
    return a, b.math("exp", b.mulf(b.mulf(x, x, "x_sq"), b.const(-0.5, "minus_half"),
                                   "minus_half_x_sq"), "gauss")


def fitted(b: BodyBuilder, a: SSAValue, offset: float, coefficients: Sequence[float],
           name: str) -> SSAValue:
    """G(t) = c0 t^n + c1 t^(n-1) + ... + cn (`coefficients`, highest power first; c0 > 0 or n
    odd), t = offset / (offset + a), by Horner's scheme on u = k t, k^n = c0: G = (u + b1) u +
    ... + bn, b_i = c_i / k^(n-i), so its first step is an Adds where c0 t + c1 takes a Muls
    too, and u costs what t does (offset k / (offset + a)). For results rounded to f16 or bf16
    only: the b_i and offset k rounded to f32 move G by a few f32 ulps (GELU's f32 results, 0.85
    ulp on average against 0.79 on t, sampled), which half rounds away (every half result is
    within an ulp: test/test_exponential_half.py); f32 keeps `polynomial` on t."""
    degree = len(coefficients) - 1
    if coefficients[0] < 0 and degree % 2 == 0:
        raise ValueError("a polynomial of even degree needs a positive leading coefficient")
    k = math.copysign(abs(coefficients[0]) ** (1.0 / degree), coefficients[0])
    u = b.divf(b.const(offset * k, "tail_numerator"),
               b.addf(a, b.const(offset, "tail_offset"), "t_denominator"), "u")
    p = b.addf(u, b.const(coefficients[1] / k ** (degree - 1)), f"{name}_1")
    for i, c in enumerate(coefficients[2:], start=2):
        p = b.addf(b.mulf(p, u, f"{name}_{i}u"), b.const(c / k ** (degree - i)), f"{name}_{i}")
    return p


def gelu_tail(b: BodyBuilder, x: SSAValue, half: bool = False) -> tuple[SSAValue, SSAValue]:
    """(g, h): g = exp(-x^2 / 2) and h = erfc(|x| / sqrt 2) / 2, the normal distribution's mass
    beyond |x|, as g G(1 / (1 + |x| / 4)) (GELU_TAIL_FIT): one range for every x, one Exp, no
    erf. `half` (a result rounded to f16 or bf16): G of degree 4 on t = 3.5 / (3.5 + |x|)
    (GELU_TAIL_FIT_HALF, `fitted`)."""
    a, gauss = abs_and_gauss(b, x)
    if half:
        g = fitted(b, a, GELU_TAIL_HALF_OFFSET, GELU_TAIL_FIT_HALF, "tail_g")
        return gauss, b.mulf(gauss, g, "tail")
    t = b.divf(_one(b), b.addf(b.mulf(a, b.const(GELU_TAIL_SCALE, "tail_scale"), "a_scaled"),
                               _one(b), "t_denominator"), "t")
    return gauss, b.mulf(gauss, polynomial(b, GELU_TAIL_FIT, t, "tail_g"), "tail")


def gelu_cdf(b: BodyBuilder, x: SSAValue, h: SSAValue) -> SSAValue:
    """Phi(x) from h = Phi(-|x|) (`gelu_tail`): 1 - h for x >= 0, h below (and for NaN)."""
    return b.select(b.cmpf("oge", x, b.const(0.0, "zero"), "not_negative"),
                    b.subf(_one(b), h, "one_minus_tail"), h, "cdf")


def gelu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """The function, in fewer vector calls than ATen's formula (issue 38 item 4), within
    PyTorch's tolerance of it (docs/accuracy.md).

    none: x Phi(x), Phi(x) = 1 - h for x >= 0 and h below, h = Phi(-|x|) (`gelu_tail`); no
    cancellation for negative x, where ATen's 1 + erf(x / sqrt 2) loses its digits; +inf at
    +inf and NaN at -inf (-inf times 0) as PyTorch 2.14.1's eager CPU gelu gives. For a
    result rounded to f16, x Phi(x) as x / (1 + exp(x r(x^2))) (`gelu_logistic_f16`).
    tanh: 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)), u = beta (x + kappa x^3) = beta x (1 +
    kappa x^2), so -2u = x (x^2 (-2 beta kappa) - 2 beta): one Exp and one Div; +inf at +inf,
    NaN at -inf (-inf / +inf), -0 where exp(-2u) overflows, as the formula's 1 + tanh(u) = 0.
    """
    x = b.widen(inputs[0], "x_fp32")
    if b.options.get("approximate", "none") == "tanh":
        square = b.mulf(x, x, "x_sq")
        slope = b.addf(b.mulf(square, b.const(-2.0 * GELU_TANH_BETA * GELU_KAPPA, "kappa2"),
                              "kappa_x_sq"), b.const(-2.0 * GELU_TANH_BETA, "beta2"), "slope")
        e = b.math("exp", b.mulf(x, slope, "minus_2u"), "exp_minus_2u")
        return b.divf(x, b.addf(_one(b), e, "denominator"), "gelu")
    if isinstance(inputs[0].type, Float16Type):
        return gelu_logistic_f16(b, x)
    _, h = gelu_tail(b, x, half_math.rounds_to_half(inputs[0]))
    return b.mulf(x, gelu_cdf(b, x, h), "gelu")


def elu_of(b: BodyBuilder, x: SSAValue, negcoef: SSAValue, poscoef: SSAValue,
           negiptcoef: SSAValue, half: bool = False) -> SSAValue:
    """x >= 0 ? x * poscoef : expm1(x * negiptcoef) * negcoef (ATen's vectorised elu); `half`
    (a result rounded to f16 or bf16): hswc.ops.half_math's expm1, in fewer vector calls."""
    above = b.cmpf("oge", x, b.const(0.0, "zero"), "not_negative")
    scaled = b.mulf(x, negiptcoef, "x_in")
    e = half_math.expm1(b, scaled) if half else b.math("expm1", scaled, "expm1")
    below = b.mulf(e, negcoef, "below")
    return b.select(above, b.mulf(x, poscoef, "above"), below, "elu")


def elu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    x = b.widen(inputs[0], "x_fp32")
    negcoef = b.mulf(attrs["alpha"], attrs["scale"], "negcoef")
    return elu_of(b, x, negcoef, attrs["scale"], attrs["input_scale"],
                  half_math.rounds_to_half(inputs[0]))


def selu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    x = b.widen(inputs[0], "x_fp32")
    scale = b.const(SELU_SCALE, "scale")
    negcoef = b.mulf(b.const(SELU_ALPHA, "alpha"), scale, "negcoef")
    return elu_of(b, x, negcoef, scale, _one(b), half_math.rounds_to_half(inputs[0]))


def celu(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """Elu with negcoef alpha, poscoef alpha3 and input_scale 1 / alpha2: PyTorch's celu (alpha2
    = alpha, alpha3 = 1: x * 1 is x) and ops-nn's three-alpha Celu."""
    x = b.widen(inputs[0], "x_fp32")
    inverse = b.divf(_one(b), attrs["alpha2"], "inv_alpha")
    return elu_of(b, x, attrs["alpha"], attrs["alpha3"], inverse,
                  half_math.rounds_to_half(inputs[0]))


def softplus(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """(x * beta) > threshold ? x : log1p(exp(x * beta)) / beta."""
    x = b.widen(inputs[0], "x_fp32")
    scaled = b.mulf(x, attrs["beta"], "x_beta")
    linear = b.cmpf("ogt", scaled, attrs["threshold"], "linear")
    e = b.math("exp", scaled, "exp")
    ln = (half_math.log1p_of_nonnegative(b, e) if half_math.rounds_to_half(inputs[0])
          else b.math("log1p", e, "log1p"))
    soft = b.divf(ln, attrs["beta"], "soft")
    return b.select(linear, x, soft, "softplus")


MISH_EXP_CAP = 44.0
"""mish's terms take e = exp(min(x, MISH_EXP_CAP)): e (e + 2) stays finite (e^88 < 3.4e38),
and from x = 9.1 on tanh(softplus(x)) is 1 in f32 (1 - 2 e^-2x < 2^-25), so the cap changes
nothing the function gives."""


def mish_terms(b: BodyBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(e, n, n + 2), e = exp(min(x, MISH_EXP_CAP)), n = e (e + 2): tanh(log1p(e^x)) is
    ((1 + e)^2 - 1) / ((1 + e)^2 + 1) = n / (n + 2)."""
    e = b.math("exp", b.minimumf(x, b.const(MISH_EXP_CAP, "exp_cap"), "x_capped"), "exp")
    two = b.const(2.0, "two")
    n = b.mulf(e, b.addf(e, two, "e_plus_2"), "n")
    return e, n, b.addf(n, two, "n_plus_2")


def mish(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """x tanh(log1p(e^x)) = x n / (n + 2) (`mish_terms`): one Exp and one Div where ATen's
    formula takes Exp, log1p and tanh (issue 38 item 4), within PyTorch's tolerance of it
    (docs/accuracy.md); no cancellation for negative x (n / (n + 2) tends to e). +inf at +inf,
    NaN at -inf (-inf times 0), as the formula gives."""
    x = b.widen(inputs[0], "x_fp32")
    _, n, denominator = mish_terms(b, x)
    return b.mulf(x, b.divf(n, denominator, "tanh_softplus"), "mish")


def softsign(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """x / (1 + |x|)."""
    x = b.widen(inputs[0], "x_fp32")
    return b.divf(x, b.addf(b.math("absf", x, "abs_x"), _one(b), "denominator"), "softsign")


def log_sigmoid(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """min(x, 0) - log1p(exp(-|x|))."""
    x = b.widen(inputs[0], "x_fp32")
    low = b.minimumf(x, b.const(0.0, "zero"), "min_x_0")
    z = b.math("exp", b.negf(b.math("absf", x, "abs_x"), "minus_abs_x"), "z")
    ln = (half_math.log1p_of_nonnegative(b, z) if half_math.rounds_to_half(inputs[0])
          else b.math("log1p", z, "log1p_z"))
    return b.subf(low, ln, "log_sigmoid")
