"""Golden models of the operators that reduce along a dim (hswc.dialects.hsg_norm_ops), written
from PyTorch's definitions independently of their decomposition (hswc.ops.norm_ops): each in
float64 on the operands' values, rounded once to their type. What the hsg level runs; the
decomposition's kernels and host reductions compute in f32 and sum in another order, so they
agree with it (and with PyTorch) within PyTorch's tolerance, not bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hswc import arith_semantics as sem


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a).astype(np.float64)


def softmax(x: np.ndarray, dim: int) -> np.ndarray:
    v = _f64(x)
    e = np.exp(v - v.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    v = _f64(x)
    shifted = v - v.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def softmax_grad(grad_output: np.ndarray, output: np.ndarray, dim: int) -> np.ndarray:
    g, y = _f64(grad_output), _f64(output)
    return y * (g - (g * y).sum(axis=dim, keepdims=True))


def log_softmax_grad(grad_output: np.ndarray, output: np.ndarray, dim: int) -> np.ndarray:
    g, y = _f64(grad_output), _f64(output)
    return g - np.exp(y) * g.sum(axis=dim, keepdims=True)


def rms_norm(x: np.ndarray, weight: np.ndarray, epsilon: float) -> np.ndarray:
    v = _f64(x)
    return v / np.sqrt((v * v).mean(axis=-1, keepdims=True) + epsilon) * _f64(weight)


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray,
               epsilon: float) -> np.ndarray:
    v = _f64(x)
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + epsilon) * _f64(weight) + _f64(bias)


NORM_REFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "hsg.softmax": softmax, "hsg.log_softmax": log_softmax,
    "hsg.softmax_grad": softmax_grad, "hsg.log_softmax_grad": log_softmax_grad,
    "hsg.rms_norm": rms_norm, "hsg.layer_norm": layer_norm,
}


def run_reference(name: str, inputs: list[np.ndarray], **attributes: float) -> np.ndarray:
    """The op's result in its operands' type (the first operand's)."""
    with np.errstate(all="ignore"):
        exact = NORM_REFERENCES[name](*inputs, **attributes)
    return sem.convert(exact, np.asarray(inputs[0]).dtype)
