"""The exponential activations, backward: sigmoid_grad, tanh_grad, silu_grad, gelu_grad,
elu_grad, softplus_grad, mish_grad, log_sigmoid_grad, each as PyTorch 2.14's CPU kernel
computes it (EXPONENTIAL.md; ATen's *_backward kernels), every step one f32 operation; but
gelu_grad (approximate = none), a fitted form with its zero factored out (`gelu_grad_mirror`),
its tanh form through a sigmoid (`gelu_grad_tanh`), and mish_grad, on mish's cheaper terms
(hswc.ops.exponential.mish_terms), within PyTorch's tolerance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import BFloat16Type, Float16Type
from xdsl.ir import SSAValue

from hswc.ops import half_math
from hswc.ops.body import BodyBuilder
from hswc.ops.exponential import (
    GELU_KAPPA,
    GELU_TANH_BETA,
    abs_and_gauss,
    fitted,
    gelu_cdf,
    mish_terms,
    polynomial,
    scaled_by,
    sigmoid_of,
)

Attrs = Mapping[str, SSAValue]
F16 = Float16Type()
GELU_GRAD_ROOT = 0.7517915246935645
"""a0, where gelu'(-a0) = Phi(-a0) - a0 phi(a0) is 0 (mpmath.findroot, tools/
fit_erf_coefficients.py): gelu' is 0 at x = -a0."""
GELU_GRAD_FIT = (
    0.02026553265750408, -0.05946614220738411, 0.015134654939174652, -0.055728211998939514,
    -0.046725813299417496, -0.06463458389043808, -0.07498481124639511, -0.3989385962486267,
)
"""N(t) of degree 7, highest power first: gelu'(-a) = exp(-a^2 / 2) (a - a0) N(t), t = 4 / (4 +
a), for every a >= 0, relative error below 4.8e-8 (tools/fit_erf_coefficients.py, which prints
it): N is (Phi(-a) exp(a^2 / 2) - a / sqrt(2 pi)) / (a - a0), smooth in t, its zero factored out
of the fit."""
GELU_GRAD_FIT_F16 = (4.0, (
    -0.17761152982711792, 0.12659846246242523, -0.16278515756130219, -0.05001763626933098,
    -0.40126124024391174,
))
"""(c, N(t)) for a result rounded to f16: N of degree 4 on t = 4 / (4 + a), relative error below
6.9e-5 (2^-13.8), and below (0.02 + a) / 1.02 of that next to 0, where half patterns crowd
(tools/fit_erf_coefficients.py, which prints it)."""
GELU_GRAD_FIT_BF16 = (3.0, (
    -0.0991533100605011, -0.06699066609144211, -0.09961484372615814, -0.3993223309516907,
))
"""(c, N(t)) for a result rounded to bf16, which keeps 8 bits: N of degree 3 on t = 3 / (3 + a),
relative error below 2.5e-4 (2^-12; weighted as GELU_GRAD_FIT_F16)."""
HALF_FITS = {Float16Type: GELU_GRAD_FIT_F16, BFloat16Type: GELU_GRAD_FIT_BF16}


def _wide(b: BodyBuilder, inputs: Sequence[SSAValue], second: str) -> tuple[SSAValue, SSAValue]:
    grad, v = inputs
    return b.widen(grad, "grad_fp32"), b.widen(v, f"{second}_fp32")


def sigmoid_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """grad * (1 - y) * y, y the forward result; f16 in f16, each step rounded (ATen's half
    kernel does not widen), the other dtypes in f32."""
    if inputs[0].type == F16:
        grad, y = inputs
        one = b.const(1.0, "one", element_type=F16)
    else:
        grad, y = _wide(b, inputs, "result")
        one = b.const(1.0, "one")
    return b.mulf(b.mulf(grad, b.subf(one, y, "one_minus_y")), y, "dx")


def tanh_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """grad * (1 - y * y), y the forward result."""
    grad, y = _wide(b, inputs, "result")
    return b.mulf(grad, b.subf(b.const(1.0, "one"), b.mulf(y, y, "y_sq"), "one_minus_y_sq"),
                  "dx")


def silu_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """grad * s * (1 + x * scale * (1 - s)), s = sigmoid(x * scale): PyTorch's silu_backward
    for scale 1 (x * 1 is x)."""
    grad, x = _wide(b, inputs, "x")
    scaled = scaled_by(b, x, attrs)
    s = sigmoid_of(b, scaled)
    one = b.const(1.0, "one")
    inner = b.addf(one, b.mulf(scaled, b.subf(one, s, "one_minus_s")), "inner")
    return b.mulf(b.mulf(grad, s, "grad_s"), inner, "dx")


def gelu_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """none: grad * gelu'(x), gelu'(x) = cdf + x pdf as `gelu_grad_mirror` computes it (one
    Exp, no erf, no cancellation next to its zero); tanh: `gelu_grad_tanh`."""
    grad, x = _wide(b, inputs, "x")
    if b.options.get("approximate", "none") == "tanh":
        return b.mulf(grad, gelu_grad_tanh(b, x), "dx")
    mirror = gelu_grad_mirror(b, x, HALF_FITS.get(type(inputs[0].type)))
    return b.mulf(grad, gelu_cdf(b, x, mirror), "dx")


def gelu_grad_tanh(b: BodyBuilder, x: SSAValue) -> SSAValue:
    """The derivative of the tanh form, ATen's 0.5 (1 + t) + 0.5 x (1 - t^2) beta (1 + 3 kappa
    x^2), t = tanh(u), u = beta (x + kappa x^3), in one Exp and one Div (issue 38 item 4): with
    s = (1 + t) / 2 = 1 / (1 + exp(-2u)) (gelu's tanh form, `hswc.ops.exponential.gelu`),
    1 - t^2 = 4 s (1 - s), so it is s + s (1 - s) x (2u)', (2u)' = 2 beta (1 + 3 kappa x^2).
    1 - s cancels as s nears 1 (x above 2): its absolute error, 2^-24, times x (2u)' stays
    below 2.1e-6, inside PyTorch's f32 tolerance (atol 1e-5), and f16 and bf16 round it away.
    Its order, s (1 - s) first, gives ATen's values where its terms leave the f32 range: 1 and 0
    where exp(-2u) is 0 or +inf but x (2u)' finite (|x| from about 10 to 1.8e19; an x (1 - s)
    (2u)' first would give -inf * 0 = NaN below x = -1e13), NaN where (2u)' overflows, at +-inf
    and NaN."""
    one = b.const(1.0, "one")
    square = b.mulf(x, x, "x_sq")
    slope = b.addf(b.mulf(square, b.const(-2.0 * GELU_TANH_BETA * GELU_KAPPA, "kappa2"),
                          "kappa_x_sq"), b.const(-2.0 * GELU_TANH_BETA, "beta2"), "slope")
    e = b.math("exp", b.mulf(x, slope, "minus_2u"), "exp_minus_2u")
    s = b.divf(one, b.addf(one, e, "denominator"), "half_one_plus_t")
    inner_derivative = b.addf(
        b.mulf(square, b.const(6.0 * GELU_TANH_BETA * GELU_KAPPA, "kappa6"), "kappa_x_sq6"),
        b.const(2.0 * GELU_TANH_BETA, "beta2_plus"), "two_u_derivative")
    spread = b.mulf(b.mulf(s, b.subf(one, s, "one_minus_s"), "s_one_minus_s"), x, "spread_x")
    return b.addf(s, b.mulf(spread, inner_derivative, "right_derivative"), "derivative")


def gelu_grad_mirror(b: BodyBuilder, x: SSAValue,
                     half_fit: tuple[float, Sequence[float]] | None) -> SSAValue:
    """gelu'(-|x|) = Phi(-a) - a phi(a), a = |x|, as exp(-a^2 / 2) (a - a0) N(c / (c + a)):
    GELU_GRAD_FIT on c = 4 for f32 (Horner on t), and for a result rounded to half its
    `half_fit` (c, N), GELU_GRAD_FIT_F16 or _BF16 (`fitted`; (a0 - a) (-N) where N's leading
    coefficient is negative, as `fitted` wants it positive). Its zero a0 is a factor, so there
    is no cancellation next to it, where Phi(-a) + x phi(a) loses its digits (a - a0 is exact
    near a0, Sterbenz). gelu'(x) = 1 - gelu'(-x) (`gelu_cdf`) for x >= 0. NaN at NaN and at
    +-inf (0 times -inf), as ATen's cdf + x pdf."""
    a, gauss = abs_and_gauss(b, x)
    root = b.const(GELU_GRAD_ROOT, "root")
    if half_fit is None:
        c = b.const(4.0, "tail_offset")
        t = b.divf(c, b.addf(a, c, "t_denominator"), "t")
        distance, n = b.subf(a, root, "a_minus_root"), polynomial(b, GELU_GRAD_FIT, t, "grad_n")
    elif half_fit[1][0] < 0:
        distance = b.subf(root, a, "root_minus_a")
        n = fitted(b, a, half_fit[0], tuple(-c for c in half_fit[1]), "grad_n")
    else:
        distance, n = b.subf(a, root, "a_minus_root"), fitted(b, a, *half_fit, "grad_n")
    return b.mulf(gauss, b.mulf(distance, n, "root_times_n"), "mirror")


def elu_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """v > 0: grad * scale; otherwise (NaN too, as ATen's vectorised kernel) grad * input_scale
    * (v + alpha * scale) if is_result, else grad * input_scale * alpha * scale *
    exp(v * input_scale)."""
    grad, v = _wide(b, inputs, "v")
    negcoef = b.mulf(attrs["alpha"], attrs["scale"], "negcoef")
    negiptcoef = attrs["input_scale"]
    positive = b.cmpf("ogt", v, b.const(0.0, "zero"), "positive")  # a NaN v: the first form
    if b.options.get("is_result", False):
        below = b.mulf(b.mulf(grad, negiptcoef), b.addf(v, negcoef), "below")
    else:
        below = b.mulf(b.mulf(b.mulf(grad, negiptcoef), negcoef),
                       b.math("exp", b.mulf(v, negiptcoef, "v_in"), "exp"), "below")
    return b.select(positive, b.mulf(grad, attrs["scale"], "above"), below, "dx")


def softplus_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """(x * beta) > threshold ? grad : grad * z / (z + 1), z = exp(x * beta)."""
    grad, x = _wide(b, inputs, "x")
    scaled = b.mulf(x, attrs["beta"], "x_beta")
    z = b.math("exp", scaled, "z")
    soft = b.divf(b.mulf(grad, z), b.addf(z, b.const(1.0, "one")), "soft")
    return b.select(b.cmpf("ogt", scaled, attrs["threshold"], "linear"), grad, soft, "dx")


def mish_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """grad * (t + x * sigmoid(x) * (1 - t * t)), t = tanh(log1p(exp(x))), from mish's terms
    (`mish_terms`: one Exp): t = n / d, sigmoid(x) = e / (1 + e), 1 - t^2 = 4 (n + 1) / d^2
    without cancellation (d = n + 2; d^2 overflows to +inf from x = 22.2, where 1 - t^2 is
    below 2^-126 and x sigmoid(x) (1 - t^2) within PyTorch's tolerance of 0; at x = +inf
    +inf * 0 = NaN, as the formula gives). For a result rounded to f16 or bf16 (`_half_slope`)
    sigmoid(x) (1 - t^2) in 5 vector calls where these take 8."""
    grad, x = _wide(b, inputs, "x")
    e, n, d = mish_terms(b, x)
    t = b.divf(n, d, "t")
    if half_math.rounds_to_half(inputs[1]):
        return b.mulf(grad, b.addf(t, _half_slope(b, x, e, n, d), "derivative"), "dx")
    one = b.const(1.0, "one")
    s = b.divf(e, b.addf(e, one, "one_plus_e"), "sigmoid")
    one_minus = b.mulf(b.divf(b.addf(n, one, "n_plus_1"), b.mulf(d, d, "d_sq"), "n1_over_d_sq"),
                       b.const(4.0, "four"), "one_minus_t_sq")  # 4 (n + 1) overflows at x = 44
    return b.mulf(grad, b.addf(t, b.mulf(b.mulf(x, s, "x_sigmoid"), one_minus)), "dx")


def _half_slope(b: BodyBuilder, x: SSAValue, e: SSAValue, n: SSAValue,
                d: SSAValue) -> SSAValue:
    """x sigmoid(x) (1 - t^2) = 4 x (n - e) / d^2: sigmoid(x) (1 - t^2) = 4 e (1 + e) / d^2 and
    e (1 + e) = n - e, at least n / 2 (no cancellation). Its absolute error next to mish_grad's
    zero (x = -1.19, where t and this term cancel) is below the f32 form's (sampled: largest
    6.4e-8 against 9.0e-8), but its largest error in ulps over bench_exponential_accuracy's f32
    sample is not (5.1e5 against 1.8e4, both at results next to that zero), so f32 keeps its
    form. d^2 = +inf from x = 22.2 gives 0, and NaN at x = +inf, as `mish_grad`'s form."""
    slope = b.divf(b.subf(n, e, "n_minus_e"), b.mulf(d, d, "d_sq"), "quarter_slope")
    return b.mulf(b.mulf(x, slope, "x_quarter_slope"), b.const(4.0, "four"), "x_slope")


def log_sigmoid_grad(b: BodyBuilder, inputs: Sequence[SSAValue], attrs: Attrs) -> SSAValue:
    """grad * (max_deriv - sign * z / (1 + z)), z = exp(-|x|); x < 0: max_deriv 1, sign 1;
    else 0 and -1."""
    grad, x = _wide(b, inputs, "x")
    one, zero = b.const(1.0, "one"), b.const(0.0, "zero")
    negative = b.cmpf("olt", x, zero, "in_negative")
    max_deriv = b.select(negative, one, zero, "max_deriv")
    sign = b.select(negative, one, b.const(-1.0, "minus_one"), "sign")
    z = b.math("exp", b.negf(b.math("absf", x, "abs_x")), "z")
    ratio = b.divf(z, b.addf(one, z), "ratio")
    return b.mulf(grad, b.subf(max_deriv, b.mulf(sign, ratio)), "dx")
