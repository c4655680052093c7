"""The semantics of ops-nn's gated variants (hswc.dialects.hsg_gated_variants), written once,
as the linalg.generic each decomposes into: one generic reading x's two halves (or its even and
odd elements) through hswc.ops.gated_ops' view and offset maps, every step in f32 as the
kernels compute, the result rounded once to x's type:

    gelu_mul        gelu(a) * b                                     (approximate: none | tanh)
    fatrelu_mul     select(a > t, a, 0) * b                         (t: threshold's element)
    situ_glu        beta * tanh(g * (1 / beta)) * sigmoid(g) * u',  u' = lb * tanh(u * (1 / lb))
                    for lb = linear_beta > 0, else u; (g, u) = (a, b), or (b, a) when not
                    activate_left
    swiglu_clamp    min(silu(a), limit) * min(max(b, -limit), limit)
    ge_glu_v2       y: ge_glu's body ([gelu(g)] * o); gelu: [gelu(g)] (two generics, two results)
    swiglu_group    a' / (1 + exp(-a')) * b', (a', b') = (min(a, L), min(max(b, -L), L)) with a
                    clamp_limit L, else (a, b)
    clipped_swiglu  clamp_mode 0: a' = min(a, limit); a' / (1 + exp(-alpha * a')) *
                    (min(max(b, -limit), limit) + bias); clamp_mode 1: min(silu(a), limit) *
                    min(max(b, -limit), limit)

and the gradients, two generics (one per half of dx, hswc.ops.gated_ops' `halves`):

    situ_glu_grad   d_g = grad * u' * s * ((1 - t^2) + beta * t * (1 - s)), d_u = grad * situ
                    (times 1 - tanh(u * (1 / lb))^2 for lb > 0); t = tanh(g * (1 / beta)),
                    s = sigmoid(g)
    ge_glu_grad_v2  d_o = grad * gelu (the operand), d_g = gelu_backward(grad * o, g)
    clipped_swiglu_grad  da = ((((1 - s) * A) * alpha + 1) * s) * (clamp(b) + bias) * grad
                    where a <= limit, db = (A * s) * grad where |b| <= limit (else 0);
                    A = min(a, limit), s = sigmoid(alpha * A); dx interleaved as x is
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import SSAValue

from hswc.dialects import hsg_gated_variants as ops
from hswc.ops.body import BodyBuilder
from hswc.ops.exponential import gelu, sigmoid_of, silu
from hswc.ops.exponential_grad import gelu_grad
from hswc.ops.gated_ops import Decomposer, ge_glu_body


def _f32(op: ops.GatedVariantOp, name: str) -> float:
    value = op.value(name)
    assert isinstance(value, float | int)
    return float(value)


def _clamp(bb: BodyBuilder, v: SSAValue, limit: float, name: str) -> SSAValue:
    """min(max(v, -limit), limit): Maxs then Mins, as the kernels clamp (NaN stays NaN)."""
    low = bb.maximumf(v, bb.const(-limit, "minus_limit"), f"{name}_low")
    return bb.minimumf(low, bb.const(limit, "limit"), name)


def _gelu_mul(d: Decomposer) -> SSAValue:
    return d.generic(lambda bb, a: bb.mulf(gelu(bb, [a[0]], {}), a[1], "gelu_mul"), None, "y")


def _fatrelu_mul(d: Decomposer) -> SSAValue:
    def body(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        kept = bb.select(bb.cmpf("ogt", a[0], a[2], "above"), a[0], bb.const(0.0, "zero"),
                         "fatrelu")
        return bb.mulf(kept, a[1], "fatrelu_mul")

    return d.generic(body, None, "y", d.op.inputs[1:])


def _situ_glu(d: Decomposer) -> SSAValue:
    op = d.op
    assert isinstance(op, ops.SituGluOp)
    beta, linear = _f32(op, "beta"), _f32(op, "linear_beta")
    gate, up = (0, 1) if op.left() else (1, 0)

    def scaled_tanh(bb: BodyBuilder, v: SSAValue, k: float, name: str) -> SSAValue:
        inner = bb.mulf(v, bb.const(1.0 / k, f"{name}_reciprocal"), f"{name}_scaled")
        return bb.mulf(bb.math("tanh", inner, f"{name}_tanh"), bb.const(k, name), f"{name}_out")

    def body(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        g = a[gate]
        situ = bb.mulf(scaled_tanh(bb, g, beta, "beta"), sigmoid_of(bb, g), "situ")
        u = scaled_tanh(bb, a[up], linear, "linear_beta") if linear > 0 else a[up]
        return bb.mulf(situ, u, "situ_glu")

    return d.generic(body, None, "y")


def _swiglu_clamp(d: Decomposer) -> SSAValue:
    assert isinstance(d.op, ops.SwigluClampOp)
    limit = _f32(d.op, "limit")

    def body(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        gate = bb.minimumf(silu(bb, [a[0]], {}), bb.const(limit, "limit"), "silu_clamped")
        return bb.mulf(gate, _clamp(bb, a[1], limit, "up_clamped"), "swiglu_clamp")

    return d.generic(body, None, "y")


def swiglu_group_value(bb: BodyBuilder, a: Sequence[SSAValue], limit: float | None) -> SSAValue:
    """SwigluGroup's f32 value of the halves a[0], a[1] (clamped first by `limit` if given):
    Muls -1, Exp, Adds 1, Div, Mul (hswc.dialects.hsg_gated_variants.SwigluGroupOp)."""
    gate, up = a[0], a[1]
    if limit is not None:
        gate = bb.minimumf(gate, bb.const(limit, "limit"), "a_clamped")
        up = _clamp(bb, up, limit, "b_clamped")
    e = bb.math("exp", bb.mulf(gate, bb.const(-1.0, "minus_one"), "negated"), "exp_negated")
    glu = bb.divf(gate, bb.addf(e, bb.const(1.0, "one"), "denominator"), "silu")
    return bb.mulf(glu, up, "swiglu_group")


def _swiglu_group(d: Decomposer) -> SSAValue:
    op = d.op
    assert isinstance(op, ops.SwigluGroupOp)
    limit = _f32(op, "clamp_limit") if op.clamped() else None
    return d.generic(lambda bb, a: swiglu_group_value(bb, a, limit), None, "y")


def _clipped_swiglu(d: Decomposer) -> SSAValue:
    op = d.op
    assert isinstance(op, ops.ClippedSwigluOp)
    alpha, limit, bias = _f32(op, "alpha"), _f32(op, "limit"), _f32(op, "bias")
    after = op.value("clamp_mode") == 1

    def body(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        b = _clamp(bb, a[1], limit, "b_clamped")
        if after:
            gate = bb.minimumf(silu(bb, [a[0]], {}), bb.const(limit, "limit"), "silu_clamped")
            return bb.mulf(gate, b, "clipped_swiglu")
        a_clamped = bb.minimumf(a[0], bb.const(limit, "limit"), "a_clamped")
        e = bb.math("exp", bb.mulf(a_clamped, bb.const(-alpha, "minus_alpha"), "scaled"),
                    "exp_scaled")
        glu = bb.divf(a_clamped, bb.addf(e, bb.const(1.0, "one"), "denominator"), "glu")
        return bb.mulf(bb.addf(b, bb.const(bias, "bias"), "b_biased"), glu, "clipped_swiglu")

    return d.generic(body, None, "y")


def _situ_glu_grad(d: Decomposer) -> SSAValue:
    """SituGluGrad's kernel steps (op_kernel/situ_glu_grad.hpp:315-416), each in f32."""
    op = d.op
    assert isinstance(op, ops.SituGluGradOp)
    beta, linear = _f32(op, "beta"), _f32(op, "linear_beta")
    gate, up = (1, 2) if op.left() else (2, 1)  # body arguments: grad, a, b

    def tanh_of(bb: BodyBuilder, v: SSAValue, k: float, name: str) -> SSAValue:
        inner = bb.mulf(v, bb.const(1.0 / k, f"{name}_reciprocal"), f"{name}_scaled")
        return bb.math("tanh", inner, f"{name}_tanh")

    def one_minus_square(bb: BodyBuilder, t: SSAValue, name: str) -> SSAValue:
        return bb.subf(bb.const(1.0, "one"), bb.mulf(t, t, f"{name}_squared"), name)

    def d_gate(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        t = tanh_of(bb, a[gate], beta, "beta")
        s = sigmoid_of(bb, a[gate])
        u = a[up]
        if linear > 0:
            u = bb.mulf(tanh_of(bb, u, linear, "linear_beta"), bb.const(linear, "linear_beta"),
                        "up_scaled")
        grad_situ = bb.mulf(a[0], u, "grad_situ")
        one_minus_s = bb.subf(bb.const(1.0, "one"), s, "one_minus_s")
        term = bb.mulf(bb.mulf(one_minus_s, t, "t_one_minus_s"), bb.const(beta, "beta"),
                       "beta_term")
        factor = bb.addf(one_minus_square(bb, t, "one_minus_t2"), term, "situ_derivative")
        return bb.mulf(bb.mulf(grad_situ, s, "grad_situ_s"), factor, "d_gate")

    def d_up(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        t = tanh_of(bb, a[gate], beta, "beta")
        situ = bb.mulf(bb.mulf(t, bb.const(beta, "beta"), "beta_t"), sigmoid_of(bb, a[gate]),
                       "situ")
        grad_up = bb.mulf(a[0], situ, "grad_up")
        if linear <= 0:
            return grad_up
        tu = tanh_of(bb, a[up], linear, "linear_beta")
        return bb.mulf(grad_up, one_minus_square(bb, tu, "one_minus_tu2"), "d_up")

    first, second = (d_gate, d_up) if op.left() else (d_up, d_gate)
    g = op.inputs[0]
    return d.halves(d.generic(first, g, "da"), d.generic(second, g, "db"))


def _ge_glu_grad_v2(d: Decomposer) -> SSAValue:
    """GeGluGradV2's kernel: the other half's gradient grad * gelu (the GeLU half given), the
    GeLU's argument's gelu_backward(grad * other, it), each in f32."""
    op = d.op
    assert isinstance(op, ops.GeGluGradV2Op)
    gated, other = (1, 2) if op.left() else (2, 1)  # body arguments: grad, a, b, gelu
    gelu_half = [("gelu", op.inputs[2])]

    def through(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        grad_other = bb.mulf(a[0], a[other], "grad_other")
        return gelu_grad(bb, [grad_other, a[gated]], {})

    def plain(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.mulf(a[0], a[3], "grad_gelu")

    first, second = (through, plain) if op.left() else (plain, through)
    g = op.inputs[0]
    return d.halves(d.generic(first, g, "da", halves=gelu_half),
                    d.generic(second, g, "db", halves=gelu_half))


def _clipped_swiglu_grad(d: Decomposer) -> SSAValue:
    """ClippedSwigluGrad's A2/A3 kernel steps (op_kernel/clipped_swiglu_grad.h:461-553), each
    in f32; the masks compare a and b as read (NaN compares false: a zero gradient)."""
    op = d.op
    assert isinstance(op, ops.ClippedSwigluGradOp)
    alpha, limit, bias = _f32(op, "alpha"), _f32(op, "limit"), _f32(op, "bias")

    def clamped_sigmoid(bb: BodyBuilder, a: SSAValue) -> tuple[SSAValue, SSAValue]:
        a_clamped = bb.minimumf(a, bb.const(limit, "limit"), "a_clamped")
        e = bb.math("exp", bb.mulf(a_clamped, bb.const(-alpha, "minus_alpha"), "scaled"),
                    "exp_scaled")
        s = bb.divf(bb.const(1.0, "one"), bb.addf(e, bb.const(1.0, "one"), "denominator"),
                    "sigmoid")
        return a_clamped, s

    def kept(bb: BodyBuilder, keep: SSAValue, v: SSAValue, name: str) -> SSAValue:
        return bb.select(keep, v, bb.const(0.0, "zero"), name)

    def d_a(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        a_clamped, s = clamped_sigmoid(bb, a[1])
        b = bb.addf(_clamp(bb, a[2], limit, "b_clamped"), bb.const(bias, "bias"), "b_biased")
        one_minus_s = bb.addf(bb.mulf(s, bb.const(-1.0, "minus_one"), "minus_s"),
                              bb.const(1.0, "one"), "one_minus_s")
        term = bb.mulf(bb.mulf(one_minus_s, a_clamped, "one_minus_s_a"),
                       bb.const(alpha, "alpha"), "alpha_term")
        factor = bb.mulf(bb.addf(term, bb.const(1.0, "one"), "derivative"), s, "derivative_s")
        value = bb.mulf(bb.mulf(factor, b, "times_b"), a[0], "da_all")
        return kept(bb, bb.cmpf("ole", a[1], bb.const(limit, "limit"), "a_in"), value, "da")

    def d_b(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        a_clamped, s = clamped_sigmoid(bb, a[1])
        value = bb.mulf(bb.mulf(a_clamped, s, "glu"), a[0], "db_all")
        below = kept(bb, bb.cmpf("ole", a[2], bb.const(limit, "limit"), "b_below"), value,
                     "db_below")
        return kept(bb, bb.cmpf("oge", a[2], bb.const(-limit, "minus_limit"), "b_above"),
                    below, "db")

    g = op.inputs[0]
    return d.halves(d.generic(d_a, g, "da"), d.generic(d_b, g, "db"))


def _ge_glu_v2(d: Decomposer) -> tuple[SSAValue, ...]:
    """GeGluV2's y, hsg.ge_glu's body (the GeLU held in x's type times the other half), and its
    gelu: the GeLU of the gated half, rounded to x's type."""
    gated = 0 if d.op.left() else 1
    y = ge_glu_body(d)  # first, as the results: the fused kernel's outputs in their order
    return y, d.generic(lambda bb, a: gelu(bb, [a[gated]], {}), None, "gelu")


Decomposition = Callable[[Decomposer], SSAValue | tuple[SSAValue, ...]]
DECOMPOSITIONS: dict[type[ops.GatedVariantOp], Decomposition] = {
    ops.GeluMulOp: _gelu_mul,
    ops.FatreluMulOp: _fatrelu_mul,
    ops.SituGluOp: _situ_glu,
    ops.SwigluClampOp: _swiglu_clamp,
    ops.ClippedSwigluOp: _clipped_swiglu,
    ops.SwigluGroupOp: _swiglu_group,
    ops.GeGluV2Op: _ge_glu_v2,
    ops.SituGluGradOp: _situ_glu_grad,
    ops.GeGluGradV2Op: _ge_glu_grad_v2,
    ops.ClippedSwigluGradOp: _clipped_swiglu_grad,
}


def decompose_variant(op: ops.GatedVariantOp) -> SSAValue | tuple[SSAValue, ...]:
    """Insert the generic(s) of `op` before it; the result (of op's type), or its results (an op
    of several)."""
    interleaved = bool(op.value("interleaved")) if "interleaved" in op.DEFAULTS else False
    return DECOMPOSITIONS[type(op)](Decomposer(op, interleaved))
