"""Golden models of the gated linear units (hswc.dialects.hsg_gated_ops), written from
PyTorch's definitions independently of their decomposition (hswc.ops.gated_ops): each in
float64 on the operands' values (math.erf and math.tanh of the exact GeLU), rounded to their
type where PyTorch 2.14 holds a tensor of it: F.silu(a) and F.gelu(a) before the product,
glu_backward's sigmoid(b), the gradient of the product autograd hands the activation's backward
(`_held`), and the result. The decomposition computes each step in f32, so the two agree within
PyTorch's tolerance, not bit for bit. ops-nn's gated variants (hswc.dialects.hsg_gated_variants)
follow, from their kernels' formulas.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from hswc import arith_semantics as sem

_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def _held(v: np.ndarray, like: np.ndarray) -> np.ndarray:
    """`v` rounded to `like`'s type (a tensor PyTorch holds between kernels), as float64."""
    return sem.convert(v, np.asarray(like).dtype).astype(np.float64)


def _halves(x: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.split(np.asarray(x).astype(np.float64), 2, axis=dim)
    return a, b


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-v))


def _tanh_half(v: np.ndarray) -> np.ndarray:
    """0.5 * (1 + tanh(w)) of the tanh GeLU's w = sqrt(2 / pi) * (v + 0.044715 v^3), as
    1 / (1 + exp(-2 w)): the same function without the cancellation of 1 + tanh(w) where
    tanh(w) rounds to -1 (w below about -19: v below about -7.5), which made the GeLU of such v
    0 where it is a tiny negative number (a kernel computing v / (1 + exp(-2 w)), as GeGluV2's,
    gives it, and a large other half makes the product large)."""
    w = math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)
    return 1.0 / (1.0 + np.exp(-2.0 * w))


def _normal_cdf(v: np.ndarray) -> np.ndarray:
    """0.5 * (1 + erf(v / sqrt 2)) as 0.5 * erfc(-v / sqrt 2): no cancellation for very
    negative v (the same reason as `_tanh_half`)."""
    return 0.5 * _ERFC(-v / math.sqrt(2.0))


def _gelu(v: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        return v * _tanh_half(v)
    return v * _normal_cdf(v)


def _gelu_derivative(v: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":  # 0.5 (1 + t) = s, 1 - t^2 = 4 s (1 - s), t = tanh(w)
        k = math.sqrt(2.0 / math.pi)
        s = _tanh_half(v)
        return s + 2.0 * v * s * (1.0 - s) * k * (1.0 + 3 * 0.044715 * v * v)
    return _normal_cdf(v) + v * np.exp(-0.5 * v * v) / math.sqrt(2.0 * math.pi)


def glu(x: np.ndarray, dim: int) -> np.ndarray:
    a, b = _halves(x, dim)
    return a * _sigmoid(b)


def swi_glu(x: np.ndarray, dim: int) -> np.ndarray:
    a, b = _halves(x, dim)
    return _held(a * _sigmoid(a), x) * b


def ge_glu(x: np.ndarray, dim: int, approximate: str = "none",
           activate_left: bool = True) -> np.ndarray:
    a, b = _halves(x, dim)
    if activate_left:
        return _held(_gelu(a, approximate), x) * b
    return a * _held(_gelu(b, approximate), x)


def glu_grad(grad: np.ndarray, x: np.ndarray, dim: int) -> np.ndarray:
    a, b = _halves(x, dim)
    g = np.asarray(grad).astype(np.float64)
    s = _held(_sigmoid(b), x)
    return np.concatenate([g * s, g * a * s * (1.0 - s)], axis=dim)


def swi_glu_grad(grad: np.ndarray, x: np.ndarray, dim: int) -> np.ndarray:
    a, b = _halves(x, dim)
    g = np.asarray(grad).astype(np.float64)
    s = _sigmoid(a)
    gb = _held(g * b, x)
    return np.concatenate([gb * s * (1.0 + a * (1.0 - s)), g * _held(a * s, x)], axis=dim)


def ge_glu_grad(grad: np.ndarray, x: np.ndarray, dim: int, approximate: str = "none",
                activate_left: bool = True) -> np.ndarray:
    a, b = _halves(x, dim)
    g = np.asarray(grad).astype(np.float64)
    if activate_left:
        parts = [_held(g * b, x) * _gelu_derivative(a, approximate),
                 g * _held(_gelu(a, approximate), x)]
    else:
        parts = [g * _held(_gelu(b, approximate), x),
                 _held(g * a, x) * _gelu_derivative(b, approximate)]
    return np.concatenate(parts, axis=dim)


# region ops-nn's variants (hswc.dialects.hsg_gated_variants): the formulas of their kernels in
# float64, rounded once; the kernels' f32 steps agree within PyTorch's tolerance, not bit for bit.


def _clip(v: np.ndarray, limit: float) -> np.ndarray:
    return np.minimum(np.maximum(v, -limit), limit)


def gelu_mul(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    a, b = _halves(x, -1)
    return _gelu(a, approximate) * b


def fatrelu_mul(x: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    a, b = _halves(x, -1)
    t = float(np.asarray(threshold).astype(np.float64).reshape(-1)[0])
    return np.where(a > t, a, 0.0) * b


def situ_glu(x: np.ndarray, dim: int = -1, beta: float = 1.0, linear_beta: float = 0.0,
             activate_left: bool = True) -> np.ndarray:
    a, b = _halves(x, dim)
    gate, up = (a, b) if activate_left else (b, a)
    situ = beta * np.tanh(gate / beta) * _sigmoid(gate)
    if linear_beta > 0:
        up = linear_beta * np.tanh(up / linear_beta)
    return situ * up


def swiglu_clamp(x: np.ndarray, limit: float = 7.0) -> np.ndarray:
    a, b = _halves(x, -1)
    return np.minimum(a * _sigmoid(a), limit) * _clip(b, limit)


def swiglu_group(x: np.ndarray, clamp_limit: float = -1.0) -> np.ndarray:
    """SwigluGroup's README formula: silu(A) * B, A and B clamped first when clamp_limit is
    not -1.0 (the default, no clamp)."""
    a, b = _halves(x, -1)
    if clamp_limit != -1.0:
        a, b = np.minimum(a, clamp_limit), _clip(b, clamp_limit)
    return a * _sigmoid(a) * b


def _pairs(x: np.ndarray, dim: int, interleaved: bool) -> tuple[np.ndarray, np.ndarray]:
    """ClippedSwiglu's (a, b): the even and odd elements of `dim` when interleaved, else its
    halves."""
    if not interleaved:
        return _halves(x, dim)
    v = np.moveaxis(np.asarray(x).astype(np.float64), dim, -1)
    a, b = (np.moveaxis(v[..., k::2], -1, dim) for k in (0, 1))
    return a, b


def clipped_swiglu(x: np.ndarray, dim: int = -1, alpha: float = 1.702, limit: float = 7.0,
                   bias: float = 1.0, interleaved: bool = True, clamp_mode: int = 0
                   ) -> np.ndarray:
    a, b = _pairs(x, dim, interleaved)
    if clamp_mode == 1:
        return np.minimum(a * _sigmoid(a), limit) * _clip(b, limit)
    a = np.minimum(a, limit)
    return a * _sigmoid(alpha * a) * (_clip(b, limit) + bias)


def ge_glu_v2(x: np.ndarray, dim: int = -1, approximate: str = "tanh",
              activate_left: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """GeGluV2's y (ge_glu: the GeLU held in x's type times the other half) and gelu."""
    a, b = _halves(x, dim)
    held = _held(_gelu(a if activate_left else b, approximate), x)
    return held * (b if activate_left else a), held


def situ_glu_grad(grad: np.ndarray, x: np.ndarray, dim: int = -1, beta: float = 1.0,
                  linear_beta: float = 0.0, activate_left: bool = True) -> np.ndarray:
    """The derivative of situ_glu (the chain rule on its formula, dividing by beta)."""
    a, b = _halves(x, dim)
    g = np.asarray(grad).astype(np.float64)
    gate, up = (a, b) if activate_left else (b, a)
    t, s = np.tanh(gate / beta), _sigmoid(gate)
    # d/dgate beta * tanh(gate / beta) * sigmoid(gate)
    situ_derivative = (1.0 - t * t) * s + beta * t * s * (1.0 - s)
    if linear_beta > 0:
        tu = np.tanh(up / linear_beta)
        up_value, up_derivative = linear_beta * tu, 1.0 - tu * tu
    else:
        up_value, up_derivative = up, 1.0
    d_gate = g * up_value * situ_derivative
    d_up = g * beta * t * s * up_derivative
    parts = [d_gate, d_up] if activate_left else [d_up, d_gate]
    return np.concatenate(parts, axis=dim)


def ge_glu_grad_v2(grad: np.ndarray, x: np.ndarray, gelu: np.ndarray, dim: int = -1,
                   approximate: str = "tanh", activate_left: bool = False) -> np.ndarray:
    """GeGluGradV2: the GeLU half given (`gelu`), the GeLU's argument's gradient from x."""
    a, b = _halves(x, dim)
    g = np.asarray(grad).astype(np.float64)
    given = np.asarray(gelu).astype(np.float64)
    gated, other = (a, b) if activate_left else (b, a)
    d_gated = g * other * _gelu_derivative(gated, approximate)
    d_other = g * given
    parts = [d_gated, d_other] if activate_left else [d_other, d_gated]
    return np.concatenate(parts, axis=dim)


def clipped_swiglu_grad(grad: np.ndarray, x: np.ndarray, dim: int = -1, alpha: float = 1.702,
                        limit: float = 7.0, bias: float = 1.0, interleaved: bool = True
                        ) -> np.ndarray:
    """The derivative of clipped_swiglu's clamp_mode 0, y = A * sigmoid(alpha * A) *
    (B + bias) with A = min(a, limit), B = clamp(b, -limit, limit): the clamps pass the
    gradient where a <= limit and -limit <= b <= limit (ops-nn's masks, ends included), else
    zero."""
    a, b = _pairs(x, dim, interleaved)
    g = np.asarray(grad).astype(np.float64)
    big_a = np.minimum(a, limit)
    s = _sigmoid(alpha * big_a)
    # d/dA A * sigmoid(alpha A) = s + alpha * A * s * (1 - s)
    d_a = np.where(a <= limit, g * (s + alpha * big_a * s * (1.0 - s)) * (_clip(b, limit) + bias),
                   0.0)
    d_b = np.where((b >= -limit) & (b <= limit), g * big_a * s, 0.0)
    if not interleaved:
        return np.concatenate([d_a, d_b], axis=dim)
    out = np.stack([np.moveaxis(d_a, dim, -1), np.moveaxis(d_b, dim, -1)], axis=-1)
    return np.moveaxis(out.reshape(*out.shape[:-2], -1), -1, dim)


def swiglu_group_quant_grad(grad_y: np.ndarray, x: np.ndarray, weight: np.ndarray | None = None,
                            y_origin: np.ndarray | None = None, clamp_limit: float = -1.0
                            ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """SwigluGroupQuantGrad from its README's formulas (docs/aclnnSwigluGroupQuantGrad.md): with
    g0 = grad_y * weight (grad_y without weight), a', b' = a, b clamped by L = clamp_limit when
    it is not -1.0, d_a = g0 * b' * silu'(a'), d_b = g0 * silu(a'), zero where the clamp cut a
    (a >= L) or b (outside (-L, L)); grad_weight = the row sum of grad_y * y_origin, f32.
    silu'(a) = s (1 + a (1 - s)) with the kernel's s = e / (e + 1), e = exp(a) held in f32 (inf
    past its largest value, so NaN there) and its masks a product (NaN times 0 stays NaN)."""
    a, b = _halves(x, -1)
    g = np.asarray(grad_y).astype(np.float64)
    g0 = g * np.asarray(weight).astype(np.float64)[..., None] if weight is not None else g
    clamped = clamp_limit != -1.0
    if clamped:
        a_c, b_c = np.minimum(a, clamp_limit), _clip(b, clamp_limit)
    else:
        a_c, b_c = a, b
    e = np.exp(a_c)
    e = np.where(e > float(np.finfo(np.float32).max), np.inf, e)
    s = e / (e + 1.0)
    d_a = g0 * b_c * (s * (1.0 + a_c * (1.0 - s)))
    d_b = g0 * a_c * s
    if clamped:
        d_a = d_a * (a < clamp_limit)
        d_b = d_b * ((-clamp_limit < b) & (b < clamp_limit))
    dx = np.concatenate([d_a, d_b], axis=-1)
    if weight is None or y_origin is None:
        return dx
    grad_weight = (g * np.asarray(y_origin).astype(np.float64)).sum(axis=-1)
    return dx, sem.convert(grad_weight, np.dtype(np.float32))


VARIANT_REFERENCES: dict[str, Callable[..., np.ndarray | tuple[np.ndarray, ...]]] = {
    "hsg.gelu_mul": gelu_mul, "hsg.fatrelu_mul": fatrelu_mul, "hsg.situ_glu": situ_glu,
    "hsg.swiglu_clamp": swiglu_clamp, "hsg.clipped_swiglu": clipped_swiglu,
    "hsg.swiglu_group": swiglu_group,
    "hsg.situ_glu_grad": situ_glu_grad, "hsg.ge_glu_grad_v2": ge_glu_grad_v2,
    "hsg.clipped_swiglu_grad": clipped_swiglu_grad, "hsg.ge_glu_v2": ge_glu_v2,
    "hsg.swiglu_group_quant_grad": swiglu_group_quant_grad,
}


def run_variant_outputs(name: str, inputs: list[np.ndarray], **attributes: object
                        ) -> tuple[np.ndarray, ...]:
    """An ops-nn gated variant's results (GeGluV2's two), each in x's type (its first
    operand's) unless the model rounded it to its own (SwigluGroupQuantGrad's f32
    grad_weight)."""
    with np.errstate(all="ignore"):
        exact = VARIANT_REFERENCES[name](*inputs, **attributes)
    dtype = np.asarray(inputs[0]).dtype
    return tuple(sem.convert(r, dtype) if r.dtype == np.float64 else r
                 for r in (exact if isinstance(exact, tuple) else (exact,)))


def run_variant_reference(name: str, inputs: list[np.ndarray], **attributes: object
                          ) -> np.ndarray:
    """An ops-nn gated variant's result in x's type (its first operand's); its first result,
    for an op of several."""
    return run_variant_outputs(name, inputs, **attributes)[0]


# endregion


GATED_REFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "hsg.glu": glu, "hsg.swi_glu": swi_glu, "hsg.ge_glu": ge_glu,
    "hsg.glu_grad": glu_grad, "hsg.swi_glu_grad": swi_glu_grad, "hsg.ge_glu_grad": ge_glu_grad,
}


def run_gated_reference(name: str, inputs: list[np.ndarray], **attributes: object
                        ) -> np.ndarray:
    """The op's result in x's type (its last operand's)."""
    with np.errstate(all="ignore"):
        exact = GATED_REFERENCES[name](*inputs, **attributes)
    return sem.convert(exact, np.asarray(inputs[-1]).dtype)
