"""Bit-exact golden models of the activation family, and a bitwise comparison helper.

HardSwishGrad has three semantics. `hard_swish_grad_cann` is the CANN ops-nn AscendC kernel of
Atlas A2/A3 (SPEC.md section 2): every step in f32 with round-to-nearest-even, the slope taken
as `x * 0.333333343f` (not `x / 3`), the two range selects applied in the kernel's order, then
one RNE rounding back to the input dtype. `hard_swish_grad_cann_arch35` is ops-nn's production
Ascend 950 kernel, which selects with GE -3 / LE 3 instead. `hard_swish_grad_torch` is current
PyTorch `hardswish_backward` (SPEC.md "Other semantics").

Every other member of the family (FAMILY.md) has one model, `<op>_torch`: PyTorch 2.14's eager
CPU result, written from FAMILY.md's formula. f16 and bf16 inputs are widened to f32 exactly,
every step is one IEEE f32 operation in the order the formula is written, and the result is
rounded once to the input dtype (RNE); f32 inputs are computed directly. Attributes are f32: a
Python number is taken as the double it denotes and rounded once to f32. One exception, found
by tools/check_family_against_torch.py against torch 2.14.1 itself: the shrink ops' lambd is
then rounded to the input dtype too, as PyTorch does (FAMILY.md says f32). Comparisons with
NaN are false; `min` and `max` propagate NaN (IEEE 754-2019 minimum and maximum,
`np.minimum` / `np.maximum`). What each model returns for NaN x, where torch parity does not
hold (FAMILY.md), is in its docstring. Attributes PyTorch refuses are refused with a
ValueError naming the op and the attribute: NaN, +-inf, values beyond the range of the type
PyTorch converts them to, min_val > max_val, and a negative lambd (which PyTorch refuses for
softshrink).

`OP_REFERENCES` maps (hsg op name, semantics) to the model: inputs are positional arrays (grad
then x for a gradient), attributes keyword arguments. `REFERENCES` maps HardSwishGrad's
semantics names to its models.

This module depends on numpy and ml_dtypes only, never on the rest of `hswc`: it is the
independent side of every interpreter-vs-reference test.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np

SUPPORTED_DTYPES: tuple[np.dtype, ...] = (
    np.dtype(np.float16),
    np.dtype(np.float32),
    np.dtype(ml_dtypes.bfloat16),
)

# The kernel's Muls scalar, 0.333333343f; spelt by its bits so nothing rounds it on the way.
ONE_THIRD_F32 = np.uint32(0x3EAAAAAB).view(np.float32)
# PyTorch's hardsigmoid_backward constant 1.0f / 6.0f, the f32 nearest to 1/6.
ONE_SIXTH_F32 = np.uint32(0x3E2AAAAB).view(np.float32)

_F32 = np.float32
_F32_DTYPE = np.dtype(_F32)
_HALF, _ONE, _THREE, _SIX, _ZERO = _F32(0.5), _F32(1.0), _F32(3.0), _F32(6.0), _F32(0.0)

Attribute = float | int | np.floating | np.integer
"""An attribute as callers give it: a Python number or a numpy scalar."""

# region operands and attributes


def _checked(op: str, **operands: np.ndarray) -> list[np.ndarray]:
    """The operands as arrays, checked like the operator contract: one supported dtype, one
    shape (no broadcasting). Keyword order is the message order."""
    names = list(operands)
    arrays = [np.asarray(a) for a in operands.values()]
    first, dtype, shape = names[0], arrays[0].dtype, arrays[0].shape
    for name, a in zip(names[1:], arrays[1:], strict=True):
        if a.dtype != dtype:
            raise ValueError(f"{op}: {first} and {name} differ in dtype: {dtype} vs {a.dtype}")
    if dtype not in SUPPORTED_DTYPES:
        raise ValueError(
            f"{op}: unsupported dtype {dtype} of {first} (supported: float16, float32, bfloat16)"
        )
    for name, a in zip(names[1:], arrays[1:], strict=True):
        if a.shape != shape:
            raise ValueError(f"{op}: {first} and {name} differ in shape: {shape} vs {a.shape}")
    return arrays


def _widened(a: np.ndarray) -> np.ndarray:
    """f16 / bf16 -> f32 is exact; f32 stays f32 (a copy)."""
    return a.astype(_F32)


def _narrowed(yf: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The one rounding of an f32 result to the input dtype: RNE, overflow to +-inf."""
    return np.asarray(yf.astype(dtype))


def _attribute(op: str, name: str, value: Attribute, fits: np.dtype = _F32_DTYPE) -> np.float32:
    """`value` as the f32 the kernels compute with: the double it denotes, rounded once (RNE).

    Refused, as PyTorch's checked conversion refuses it: a bool or non-number, NaN, +-inf, and a
    magnitude above the largest finite value of `fits` (f32, or the input dtype for the
    attributes PyTorch converts to it).
    """
    if isinstance(value, bool) or not isinstance(value, float | int | np.floating | np.integer):
        raise ValueError(f"{op}: attribute {name} must be a real number, got {value!r}")
    try:
        as_double = float(value)
    except OverflowError:
        as_double = math.inf
    if not math.isfinite(as_double):
        raise ValueError(f"{op}: attribute {name} must be finite, got {value!r}")
    largest = float(ml_dtypes.finfo(fits).max)
    if abs(as_double) > largest:
        raise ValueError(f"{op}: attribute {name} = {value!r} is outside the {fits} range "
                         f"(largest finite {largest:.9g})")
    return _F32(as_double)


def _in_dtype(f: np.float32, dtype: np.dtype) -> np.float32:
    """An f32 attribute rounded to `dtype` (RNE) and widened back: exact for f32."""
    return _F32(np.asarray(f).astype(dtype).astype(_F32)[()])


def _lambd(op: str, lambd: Attribute, dtype: np.dtype) -> np.float32:
    """The shrink ops' lambd as PyTorch 2.14 uses it: converted to the input dtype (via f32;
    refused outside its range) and compared and subtracted in f32. A negative lambd is
    refused (-0.0 is accepted)."""
    f = _attribute(op, "lambd", lambd, fits=dtype)
    if f < 0:
        raise ValueError(f"{op}: attribute lambd must be >= 0, got {lambd!r}")
    return _in_dtype(f, dtype)


# endregion
# region HardSwishGrad: cann, cann-arch35, torch


def hard_swish_grad_cann(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The CANN kernel's result, bit for bit (SPEC.md section 2), in grad's dtype and shape.

    NaN x: both compares are false, the second select picks 1, so the result is grad.
    """
    grad, x = _checked("hard_swish_grad", grad=grad, x=x)
    # inf*0, inf-inf and f16 overflow are part of the semantics, not accidents: no warnings.
    with np.errstate(all="ignore"):
        xf = _widened(x)
        gf = _widened(grad)
        s = xf * ONE_THIRD_F32  # Muls: an f32 product, rounded RNE
        s = s + _HALF  # Adds
        s = np.where(xf > -_THREE, s, _ZERO)  # Compare GT + Select (NaN compares false)
        s = np.where(xf < _THREE, s, _ONE)  # Compare LT + Select, applied second
        yf = gf * s  # Mul: x <= -3 gives grad*0, so -0.0 or NaN, never a constant
        return _narrowed(yf, grad.dtype)  # RNE back to the input dtype


def hard_swish_grad_cann_arch35(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """ops-nn's production Ascend 950 (arch35) kernel, bit for bit, in grad's dtype and shape.

    Read from ops-nn `activation/hard_swish_grad/op_kernel/arch35/hard_swish_grad.h`,
    `HardSwishGrad<T, BUFFER_MODE>::Compute`, which has one branch for f16/bf16 (`NEED_CAST`)
    and one for f32; both do the same arithmetic, in this order:

    1. f16/bf16: `Cast` of x to f32 with `CAST_NONE` (exact); f32 uses x as it is.
    2. `Muls` by a compile-time constant: `1.0f / 3.0f` in the f16/bf16 branch, `(float)(1.0 /
       3.0)` in the f32 branch. Both are the f32 nearest to 1/3, 0x3EAAAAAB (= ONE_THIRD_F32,
       the A2/A3 kernel's constant): a multiply, not a division.
    3. `Adds` 0.5f.
    4. `Compares(mask, x, -3.0f, CMPMODE::GE)`, then `Select(..., 0.0f,
       VSEL_TENSOR_SCALAR_MODE)`: the slope where x >= -3, the scalar +0.0 elsewhere.
    5. `Compares(mask, x, 3.0f, CMPMODE::LE)`, then `Select(..., 1.0f,
       VSEL_TENSOR_SCALAR_MODE)`: the slope where x <= 3, the scalar 1.0 elsewhere.
    6. `Mul` of grad (f16/bf16: cast to f32 with `CAST_NONE` first) by the slope. Below -3 the
       result is grad * +0.0 (-0.0 for a negative grad, NaN for an infinite or NaN one), not a
       constant 0.
    7. f16/bf16: `Cast` back with `CAST_RINT` (RNE; f32 -> f16 overflow gives +-inf, assuming
       the IEEE Inf/NaN mode of A2/A3); f32: the product is the result.

    So it equals `hard_swish_grad_cann` except at x = +-3 exactly, where GE / LE keep the linear
    piece: fl(fl(-3 * 0x3EAAAAAB) + 0.5) = -0.5 (3 * 0xAAAAAB * 2^-25 = 1 + 2^-25 rounds to 1)
    gives -0.5 * grad at x = -3, and 1.5 * grad at x = 3 (PyTorch up to 2.6 did the same).
    Compares is assumed false for NaN, as on A2/A3 (SPEC.md section 6, an inference).

    NaN x: both compares are false, the selects give 0 then 1, so the result is grad * 1 = grad.
    """
    grad, x = _checked("hard_swish_grad", grad=grad, x=x)
    with np.errstate(all="ignore"):
        xf = _widened(x)  # step 1
        gf = _widened(grad)
        s = xf * ONE_THIRD_F32  # step 2
        s = s + _HALF  # step 3
        s = np.where(xf >= -_THREE, s, _ZERO)  # step 4
        s = np.where(xf <= _THREE, s, _ONE)  # step 5
        yf = gf * s  # step 6
        return _narrowed(yf, grad.dtype)  # step 7


def hard_swish_grad_torch(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """PyTorch hardswish_backward: `where(x <= -3, +0, where(x < 3, grad * (x / 3 + 0.5), grad))`.

    A true division by 3. NaN x: both compares are false, so the result is grad.
    """
    grad, x = _checked("hard_swish_grad", grad=grad, x=x)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        gf = _widened(grad)
        linear = gf * (xf / _THREE + _HALF)
        yf = np.where(xf <= -_THREE, _ZERO, np.where(xf < _THREE, linear, gf))
        return _narrowed(yf, grad.dtype)


REFERENCES: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "cann": hard_swish_grad_cann,
    "cann-arch35": hard_swish_grad_cann_arch35,
    "torch": hard_swish_grad_torch,
}


# endregion
# region the rest of the family: PyTorch semantics (FAMILY.md)


def _relu6_of_x_plus_3(xf: np.ndarray) -> np.ndarray:
    """`min(max(x + 3, 0), 6)` in f32, three steps; max and min propagate NaN."""
    t = xf + _THREE
    t = np.maximum(t, _ZERO)
    return np.minimum(t, _SIX)


def hard_swish_torch(x: np.ndarray) -> np.ndarray:
    """PyTorch hardswish: `(x * min(max(x + 3, 0), 6)) / 6`, a true division by 6.

    x <= -3 gives x * +0 / 6 = -0.0; x = -inf gives -inf * 0 = NaN; x = +inf gives +inf.
    NaN x: x + 3 is NaN, max and min propagate it, and so does the product: NaN.
    """
    (x,) = _checked("hard_swish", x=x)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        t = xf * _relu6_of_x_plus_3(xf)
        yf = t / _SIX
        return _narrowed(yf, x.dtype)


def _hard_sigmoid_constants(op: str, alpha: Attribute, beta: Attribute
                            ) -> tuple[np.float32, np.float32, np.float32]:
    """(alpha, beta / alpha, 1 / alpha) in f32: the slope, the x at which alpha x + beta is 0
    (negated), and the run of x over which it rises by 1. For the defaults (0x3E2AAAAB, the f32
    nearest 1/6, and 1/2) the two quotients round to exactly 3 and 6, PyTorch's constants.
    Refused: an alpha below the smallest normal f32 in magnitude (zero included), whose
    reciprocal is not finite."""
    a = _attribute(op, "alpha", alpha)
    b = _attribute(op, "beta", beta)
    if abs(a) < _F32(2.0 ** -126):
        raise ValueError(f"{op}: attribute alpha = {alpha!r} is below the smallest normal f32 "
                         "in magnitude")
    with np.errstate(all="ignore"):
        return a, _F32(b / a), _F32(_ONE / a)


def hard_sigmoid_torch(x: np.ndarray, alpha: Attribute = ONE_SIXTH_F32,
                       beta: Attribute = 0.5) -> np.ndarray:
    """HardSigmoid: `clamp(alpha x + beta, 0, 1)` (ONNX's), computed as PyTorch's hardsigmoid
    `min(max(x + 3, 0), 6) / 6` is: `min(max((x + beta / alpha) / (1 / alpha), 0), 1)`, two
    true divisions. For the defaults that is PyTorch's result bit for bit: beta / alpha = 3,
    1 / alpha = 6, and clamping after the division by 6 rather than before gives the same
    float (the division is monotone and exact at 0 and 6).

    NaN x: the sum and quotient are NaN and max and min propagate it: NaN.
    """
    (x,) = _checked("hard_sigmoid", x=x)
    _, offset, span = _hard_sigmoid_constants("hard_sigmoid", alpha, beta)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        yf = np.minimum(np.maximum((xf + offset) / span, _ZERO), _ONE)
        return _narrowed(yf, x.dtype)


def hard_sigmoid_grad_torch(grad: np.ndarray, x: np.ndarray, alpha: Attribute = ONE_SIXTH_F32,
                            beta: Attribute = 0.5) -> np.ndarray:
    """HardSigmoid's gradient: `grad * alpha` where `0 < alpha x + beta < 1`, else +0, with the
    interval's ends in x computed as `-(beta / alpha)` and `1 / alpha - beta / alpha` (ordered
    by size: a negative alpha swaps them) and compared with x in f32. For the defaults that is
    PyTorch's hardsigmoid_backward: `where(x > -3 and x < 3, grad * (1/6), +0)`, `1/6` the f32
    constant 0x3E2AAAAB (a multiply, not a division); x = +-3 gives +0.
    NaN x: both compares are false, so the result is +0.
    """
    grad, x = _checked("hard_sigmoid_grad", grad=grad, x=x)
    a, offset, span = _hard_sigmoid_constants("hard_sigmoid_grad", alpha, beta)
    with np.errstate(all="ignore"):
        ends = (-offset, _F32(span - offset))
        lower, upper = min(ends), max(ends)
        xf = _widened(x)
        gf = _widened(grad)
        inside = (xf > lower) & (xf < upper)
        yf = np.where(inside, gf * a, _ZERO)
        return _narrowed(yf, grad.dtype)


def _hardtanh_bounds(
    op: str, min_val: Attribute, max_val: Attribute, fits: np.dtype = _F32_DTYPE
) -> tuple[np.float32, np.float32]:
    lo = _attribute(op, "min_val", min_val, fits)
    hi = _attribute(op, "max_val", max_val, fits)
    if lo > hi:
        raise ValueError(f"{op}: min_val ({min_val!r}) is greater than max_val ({max_val!r})")
    return lo, hi


def hardtanh_torch(x: np.ndarray, min_val: Attribute, max_val: Attribute) -> np.ndarray:
    """PyTorch hardtanh: `where(x < min_val, min_val, where(x > max_val, max_val, x))`.

    x itself is returned where it lies in the bounds, so -0.0 stays -0.0; a bound is returned
    rounded from f32 to the dtype. relu6 is hardtanh(x, 0, 6). Refused: min_val > max_val, and
    (as PyTorch, which converts the bounds to the input dtype) a bound outside the dtype's
    range. That conversion does not change the result: rounding is monotone, so for x in the
    dtype, x < b exactly when x < round(b) or x = round(b) = the returned bound.
    NaN x: both compares are false, so the result is x (NaN).
    """
    (x,) = _checked("hardtanh", x=x)
    lo, hi = _hardtanh_bounds("hardtanh", min_val, max_val, fits=x.dtype)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        yf = np.where(xf < lo, lo, np.where(xf > hi, hi, xf))
        return _narrowed(yf, x.dtype)


def hardtanh_grad_torch(
    grad: np.ndarray, x: np.ndarray, min_val: Attribute, max_val: Attribute
) -> np.ndarray:
    """PyTorch hardtanh_backward: `where(x <= min_val or x >= max_val, +0, grad)`.

    The bounds are compared in f32 (0.7 is not rounded to f16's 0.70019531), and the bounds
    themselves give +0. min_val > max_val is refused.
    NaN x: both compares are false, so the result is grad.
    """
    grad, x = _checked("hardtanh_grad", grad=grad, x=x)
    lo, hi = _hardtanh_bounds("hardtanh_grad", min_val, max_val)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        gf = _widened(grad)
        outside = (xf <= lo) | (xf >= hi)
        yf = np.where(outside, _ZERO, gf)
        return _narrowed(yf, grad.dtype)


def leaky_relu_torch(x: np.ndarray, negative_slope: Attribute) -> np.ndarray:
    """PyTorch leaky_relu: `where(x > 0, x, x * negative_slope)`, the slope in f32.

    x = -0.0 gives -0.0 * negative_slope; x = -inf with slope 0 gives NaN.
    NaN x: the compare is false, so the result is x * negative_slope (NaN).
    """
    (x,) = _checked("leaky_relu", x=x)
    slope = _attribute("leaky_relu", "negative_slope", negative_slope)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        yf = np.where(xf > _ZERO, xf, xf * slope)
        return _narrowed(yf, x.dtype)


def leaky_relu_grad_torch(grad: np.ndarray, x: np.ndarray, negative_slope: Attribute) -> np.ndarray:
    """PyTorch leaky_relu_backward: `where(x > 0, grad, grad * negative_slope)`, the slope in
    f32. x = 0 takes the negative side.
    NaN x: the compare is false, so the result is grad * negative_slope.
    """
    grad, x = _checked("leaky_relu_grad", grad=grad, x=x)
    slope = _attribute("leaky_relu_grad", "negative_slope", negative_slope)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        gf = _widened(grad)
        yf = np.where(xf > _ZERO, gf, gf * slope)
        return _narrowed(yf, grad.dtype)


def threshold_torch(x: np.ndarray, threshold: Attribute, value: Attribute) -> np.ndarray:
    """PyTorch threshold: `where(x <= threshold, value, x)`.

    The compare is in f32; value is rounded from f32 to the dtype, and refused (as PyTorch
    refuses it) outside the dtype's range. relu is threshold(x, 0, 0).
    NaN x: the compare is false, so the result is x (NaN).
    """
    (x,) = _checked("threshold", x=x)
    t = _attribute("threshold", "threshold", threshold)
    v = _attribute("threshold", "value", value, fits=x.dtype)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        yf = np.where(xf <= t, v, xf)
        return _narrowed(yf, x.dtype)


def threshold_grad_torch(grad: np.ndarray, x: np.ndarray, threshold: Attribute) -> np.ndarray:
    """PyTorch threshold_backward: `where(x <= threshold, +0, grad)`, compared in f32; relu's
    backward is threshold 0. NaN x: the compare is false, so the result is grad.
    """
    grad, x = _checked("threshold_grad", grad=grad, x=x)
    t = _attribute("threshold_grad", "threshold", threshold)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        gf = _widened(grad)
        yf = np.where(xf <= t, _ZERO, gf)
        return _narrowed(yf, grad.dtype)


def _inside_closed(xf: np.ndarray, lambd: np.float32) -> np.ndarray:
    """`x >= -lambd and x <= lambd`: the band the shrink ops zero (NaN is outside)."""
    return (xf >= -lambd) & (xf <= lambd)


def hard_shrink_torch(x: np.ndarray, lambd: Attribute) -> np.ndarray:
    """PyTorch hardshrink: `where(x >= -lambd and x <= lambd, +0, x)`.

    lambd is first rounded to the input dtype, as PyTorch 2.14 does (FAMILY.md says f32): in
    f16, lambd = 0.7 becomes 0.70019531, so x = 0.70019531 gives +0. The band is closed: x =
    +-lambd gives +0. Refused: a negative lambd, and one outside the dtype's range.
    NaN x: both compares are false, so the result is x (NaN).
    """
    (x,) = _checked("hard_shrink", x=x)
    lam = _lambd("hard_shrink", lambd, x.dtype)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        yf = np.where(_inside_closed(xf, lam), _ZERO, xf)
        return _narrowed(yf, x.dtype)


def _shrink_grad(op: str, grad: np.ndarray, x: np.ndarray, lambd: Attribute) -> np.ndarray:
    """`where(x >= -lambd and x <= lambd, +0, grad)`, the backward of both shrink ops."""
    grad, x = _checked(op, grad=grad, x=x)
    lam = _lambd(op, lambd, x.dtype)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        gf = _widened(grad)
        yf = np.where(_inside_closed(xf, lam), _ZERO, gf)
        return _narrowed(yf, grad.dtype)


def hard_shrink_grad_torch(grad: np.ndarray, x: np.ndarray, lambd: Attribute) -> np.ndarray:
    """PyTorch hardshrink_backward: `where(x >= -lambd and x <= lambd, +0, grad)`.

    lambd is first rounded to the input dtype, as in `hard_shrink_torch`. Refused: a negative
    lambd, and one outside the dtype's range.
    NaN x: both compares are false, so the result is grad.
    """
    return _shrink_grad("hard_shrink_grad", grad, x, lambd)


def softshrink_torch(x: np.ndarray, lambd: Attribute, bias: Attribute | None = None
                     ) -> np.ndarray:
    """PyTorch softshrink: `where(x > lambd, x - lambd, where(x < -lambd, x + lambd, +0))`;
    with `bias` (ONNX Shrink's), x moves towards 0 by bias instead of lambd.

    lambd is first rounded to the input dtype, as PyTorch 2.14 does (FAMILY.md says f32): in
    bf16, 0.7 becomes 0.69921875, so x = 0.703125 gives 0.00390625; bias likewise. Inside the
    band the result is +0, as in PyTorch's vectorised loop; its scalar loop (the tail of a
    contiguous tensor, and strided tensors) returns a zero with x's sign instead, so -0.0 for x
    in [-lambd, -0.0] there. Refused: a negative lambd, and a lambd or bias outside the dtype's
    range.
    NaN x: both compares are false, so the result is +0.
    """
    (x,) = _checked("softshrink", x=x)
    lam = _lambd("softshrink", lambd, x.dtype)
    shift = lam if bias is None else _in_dtype(
        _attribute("softshrink", "bias", bias, fits=x.dtype), x.dtype)
    with np.errstate(all="ignore"):
        xf = _widened(x)
        yf = np.where(xf > lam, xf - shift, np.where(xf < -lam, xf + shift, _ZERO))
        return _narrowed(yf, x.dtype)


def softshrink_grad_torch(grad: np.ndarray, x: np.ndarray, lambd: Attribute) -> np.ndarray:
    """PyTorch softshrink_backward: `where(x >= -lambd and x <= lambd, +0, grad)`, the same as
    hardshrink_backward (lambd first rounded to the input dtype). Refused: a negative lambd,
    and one outside the dtype's range.
    NaN x: both compares are false, so the result is grad.
    """
    return _shrink_grad("softshrink_grad", grad, x, lambd)


OP_REFERENCES: dict[tuple[str, str], Callable[..., np.ndarray]] = {
    ("hard_swish", "torch"): hard_swish_torch,
    ("hard_swish_grad", "torch"): hard_swish_grad_torch,
    ("hard_swish_grad", "cann"): hard_swish_grad_cann,
    ("hard_swish_grad", "cann-arch35"): hard_swish_grad_cann_arch35,
    ("hard_sigmoid", "torch"): hard_sigmoid_torch,
    ("hard_sigmoid_grad", "torch"): hard_sigmoid_grad_torch,
    ("hardtanh", "torch"): hardtanh_torch,
    ("hardtanh_grad", "torch"): hardtanh_grad_torch,
    ("leaky_relu", "torch"): leaky_relu_torch,
    ("leaky_relu_grad", "torch"): leaky_relu_grad_torch,
    ("threshold", "torch"): threshold_torch,
    ("threshold_grad", "torch"): threshold_grad_torch,
    ("hard_shrink", "torch"): hard_shrink_torch,
    ("hard_shrink_grad", "torch"): hard_shrink_grad_torch,
    ("softshrink", "torch"): softshrink_torch,
    ("softshrink_grad", "torch"): softshrink_grad_torch,
}
"""(hsg op name, semantics) -> the golden model. Inputs are positional arrays (grad, then x,
for a gradient); attributes are keyword arguments (min_val, max_val, negative_slope,
threshold, value, lambd)."""


# endregion
# region the exponential activations: PyTorch 2.14's formulas, evaluated exactly


_F64 = np.float64
_ERF = np.frompyfunc(math.erf, 1, 1)
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _exact(op: str, f: Callable[..., np.ndarray], *operands: np.ndarray) -> np.ndarray:
    """f on the operands widened to double, rounded once to their dtype: PyTorch's formula
    without its f32 roundings (the yardstick the kernels are measured against)."""
    names = ("x",) if len(operands) == 1 else ("grad", "x")
    arrays = _checked(op, **dict(zip(names, operands, strict=True)))
    with np.errstate(all="ignore"):
        wide = [a.astype(_F64) for a in arrays]
        return np.asarray(np.asarray(f(*wide), dtype=_F64).astype(arrays[0].dtype))


def _erf(x: np.ndarray) -> np.ndarray:
    return np.asarray(_ERF(x), dtype=_F64)


def _f32(op: str, name: str, value: Attribute) -> float:
    return float(_attribute(op, name, value))


def _sigmoid64(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def sigmoid_torch(x: np.ndarray) -> np.ndarray:
    """torch.sigmoid: 1 / (1 + exp(-x)). NaN x gives NaN."""
    return _exact("sigmoid", _sigmoid64, x)


def tanh_torch(x: np.ndarray) -> np.ndarray:
    """torch.tanh."""
    return _exact("tanh", np.tanh, x)


def silu_torch(x: np.ndarray, scale: Attribute = 1.0) -> np.ndarray:
    """F.silu: x * sigmoid(x); with scale (ops-nn's Swish) x * sigmoid(scale x)."""
    k = _f32("silu", "scale", scale)
    return _exact("silu", lambda v: v * _sigmoid64(k * v), x)


def _gelu64(v: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        # 0.5 v (1 + tanh(w)) as v / (1 + exp(-2 w)): 1 + tanh(w) cancels to 0 in float64 once
        # tanh(w) rounds to -1 (w below about -19, v below about -7.5), where the GeLU is a tiny
        # negative number (as reference_gated's _tanh_half)
        w = math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)
        return v / (1.0 + np.exp(-2.0 * w))
    return 0.5 * v * (1.0 + _erf(v / math.sqrt(2.0)))  # NaN at -inf, as PyTorch 2.14.1


def _approximate(op: str, approximate: str) -> str:
    if approximate not in ("none", "tanh"):
        raise ValueError(f"{op}: attribute approximate must be 'none' or 'tanh', got "
                         f"{approximate!r}")
    return approximate


def gelu_torch(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    """F.gelu: x/2 (1 + erf(x / sqrt 2)), NaN at -inf; approximate='tanh': x/2 (1 +
    tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    a = _approximate("gelu", approximate)
    return _exact("gelu", lambda v: _gelu64(v, a), x)


def _elu64(v: np.ndarray, alpha: float, scale: float, input_scale: float) -> np.ndarray:
    return np.where(v <= 0, np.expm1(v * input_scale) * alpha * scale, v * scale)


def elu_torch(x: np.ndarray, alpha: Attribute = 1.0, scale: Attribute = 1.0,
              input_scale: Attribute = 1.0) -> np.ndarray:
    """aten.elu: x > 0 ? scale x : alpha scale (exp(input_scale x) - 1)."""
    a, s, i = (_f32("elu", n, v) for n, v in
               (("alpha", alpha), ("scale", scale), ("input_scale", input_scale)))
    return _exact("elu", lambda v: _elu64(v, a, s, i), x)


def selu_torch(x: np.ndarray) -> np.ndarray:
    """torch.selu: elu with SELU's alpha and scale (rounded to f32, as ATen's opmath)."""
    a, s = float(_F32(SELU_ALPHA)), float(_F32(SELU_SCALE))
    return _exact("selu", lambda v: _elu64(v, a, s, 1.0), x)


def celu_torch(x: np.ndarray, alpha: Attribute = 1.0, alpha2: Attribute | None = None,
               alpha3: Attribute = 1.0) -> np.ndarray:
    """torch.celu: max(0, x) + min(0, alpha (exp(x / alpha) - 1)); with ops-nn's three alphas
    (its alpha1 is alpha; alpha2 defaults to alpha): x >= 0 ? alpha3 x : alpha (exp(x / alpha2)
    - 1). A zero alpha or alpha2 is refused."""
    a = _f32("celu", "alpha", alpha)
    a2 = a if alpha2 is None else _f32("celu", "alpha2", alpha2)
    a3 = _f32("celu", "alpha3", alpha3)
    if a == 0 or a2 == 0:
        raise ValueError(f"celu: attribute {'alpha' if a == 0 else 'alpha2'} must not be zero")
    return _exact("celu", lambda v: np.where(v < 0, a * np.expm1(v / a2), a3 * v), x)


def _softplus_attributes(op: str, beta: Attribute, threshold: Attribute) -> tuple[float, float]:
    b, t = _f32(op, "beta", beta), _f32(op, "threshold", threshold)
    if b <= 0:
        raise ValueError(f"{op}: attribute beta must be positive, got {beta!r}")
    return b, t


def softplus_torch(x: np.ndarray, beta: Attribute = 1.0, threshold: Attribute = 20.0
                   ) -> np.ndarray:
    """F.softplus: x where x beta > threshold, else log(1 + exp(beta x)) / beta."""
    b, t = _softplus_attributes("softplus", beta, threshold)
    return _exact("softplus",
                  lambda v: np.where(v * b > t, v, np.log1p(np.exp(v * b)) / b), x)


def _softplus64(v: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, v)


def mish_torch(x: np.ndarray) -> np.ndarray:
    """F.mish: x tanh(softplus(x))."""
    return _exact("mish", lambda v: v * np.tanh(_softplus64(v)), x)


def softsign_torch(x: np.ndarray) -> np.ndarray:
    """F.softsign: x / (1 + |x|)."""
    return _exact("softsign", lambda v: v / (1.0 + np.abs(v)), x)


def log_sigmoid_torch(x: np.ndarray) -> np.ndarray:
    """F.logsigmoid: -softplus(-x)."""
    return _exact("log_sigmoid", lambda v: -_softplus64(-v), x)


def sigmoid_grad_torch(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """aten.sigmoid_backward(grad, y): grad (1 - y) y; for float16 PyTorch 2.14 computes in
    half, each of the three steps rounded (found against torch itself), so this model does."""
    if np.asarray(grad).dtype == np.float16:
        g, v = _checked("sigmoid_grad", grad=grad, y=y)
        with np.errstate(all="ignore"):
            return np.asarray((g * (np.float16(1.0) - v)) * v)
    return _exact("sigmoid_grad", lambda g, v: g * (1.0 - v) * v, grad, y)


def tanh_grad_torch(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """aten.tanh_backward(grad, y): grad (1 - y^2)."""
    return _exact("tanh_grad", lambda g, v: g * (1.0 - v * v), grad, y)


def silu_grad_torch(grad: np.ndarray, x: np.ndarray, scale: Attribute = 1.0) -> np.ndarray:
    """aten.silu_backward: grad s (1 + x (1 - s)), s = sigmoid(x); with scale k (ops-nn's
    SwishGrad) the derivative of x sigmoid(k x): s + k x s (1 - s), s = sigmoid(k x)."""
    k = _f32("silu_grad", "scale", scale)

    def f(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        s = _sigmoid64(k * v)
        return g * (s + k * v * s * (1.0 - s))
    return _exact("silu_grad", f, grad, x)


def gelu_grad_torch(grad: np.ndarray, x: np.ndarray, approximate: str = "none") -> np.ndarray:
    """aten.gelu_backward: grad times the derivative of gelu (of its tanh form for
    approximate='tanh')."""
    a = _approximate("gelu_grad", approximate)

    def f(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        if a == "tanh":  # in f32, as ATen: x^3 and 3 kappa x^2 overflow for large |x|,
            # and 0 * inf gives NaN there, as in PyTorch (the double formula would not)
            g, v = g.astype(_F32), v.astype(_F32)
            k, kappa = _F32(math.sqrt(2.0 / math.pi)), _F32(0.044715)
            v_sq = v * v
            t = np.tanh(k * (v + kappa * (v_sq * v)))
            slope = (_F32(0.5) * v) * (_F32(1) - t * t) * (k * (_F32(1) + _F32(3 * 0.044715)
                                                                * v_sq))
            return g * (_F32(0.5) * (_F32(1) + t) + slope)
        return g * (0.5 * (1.0 + _erf(v / math.sqrt(2.0)))
                    + v * np.exp(-0.5 * v * v) / math.sqrt(2.0 * math.pi))
    return _exact("gelu_grad", f, grad, x)


def elu_grad_torch(grad: np.ndarray, v: np.ndarray, alpha: Attribute = 1.0,
                   scale: Attribute = 1.0, input_scale: Attribute = 1.0,
                   is_result: bool = False) -> np.ndarray:
    """aten.elu_backward: v > 0: grad scale; else (NaN too) grad input_scale (v + alpha scale)
    when v is the result, grad input_scale alpha scale exp(input_scale v) when it is x."""
    a, s, i = (_f32("elu_grad", n, w) for n, w in
               (("alpha", alpha), ("scale", scale), ("input_scale", input_scale)))

    def f(g: np.ndarray, w: np.ndarray) -> np.ndarray:
        below = g * i * (w + a * s) if is_result else g * i * a * s * np.exp(w * i)
        return np.where(w > 0, g * s, below)  # a NaN v gives NaN, as ATen's vectorised kernel
    return _exact("elu_grad", f, grad, v)


def softplus_grad_torch(grad: np.ndarray, x: np.ndarray, beta: Attribute = 1.0,
                        threshold: Attribute = 20.0) -> np.ndarray:
    """aten.softplus_backward: grad where x beta > threshold, else grad sigmoid(beta x)."""
    b, t = _softplus_attributes("softplus_grad", beta, threshold)
    return _exact("softplus_grad",
                  lambda g, v: np.where(v * b > t, g, g * _sigmoid64(v * b)), grad, x)


def mish_grad_torch(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """aten.mish_backward: grad (t + x sigmoid(x) (1 - t^2)), t = tanh(softplus(x))."""
    def f(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        t = np.tanh(_softplus64(v))
        return g * (t + v * _sigmoid64(v) * (1.0 - t * t))
    return _exact("mish_grad", f, grad, x)


def log_sigmoid_grad_torch(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """aten.log_sigmoid_backward: grad sigmoid(-x)."""
    return _exact("log_sigmoid_grad", lambda g, v: g * _sigmoid64(-v), grad, x)


EXPONENTIAL_REFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "sigmoid": sigmoid_torch, "tanh": tanh_torch, "silu": silu_torch, "gelu": gelu_torch,
    "elu": elu_torch, "selu": selu_torch, "celu": celu_torch, "softplus": softplus_torch,
    "mish": mish_torch, "softsign": softsign_torch, "log_sigmoid": log_sigmoid_torch,
    "sigmoid_grad": sigmoid_grad_torch, "tanh_grad": tanh_grad_torch,
    "silu_grad": silu_grad_torch, "gelu_grad": gelu_grad_torch, "elu_grad": elu_grad_torch,
    "softplus_grad": softplus_grad_torch, "mish_grad": mish_grad_torch,
    "log_sigmoid_grad": log_sigmoid_grad_torch,
}
"""The exponential activations' models: the exact function of PyTorch's formula, rounded once;
compared with a tolerance (compare_tolerance), never bit for bit."""
OP_REFERENCES.update({(name, "torch"): f for name, f in EXPONENTIAL_REFERENCES.items()})


# endregion
# region tolerance comparison


TORCH_TOLERANCES: dict[np.dtype, tuple[float, float]] = {
    np.dtype(np.float32): (1.3e-6, 1e-5),
    np.dtype(np.float16): (1e-3, 1e-5),
    np.dtype(ml_dtypes.bfloat16): (1.6e-2, 1e-5),
    np.dtype(np.float64): (1e-7, 1e-7),
}
"""torch.testing.assert_close's default (rtol, atol) per dtype (integers and bools: exact)."""


@dataclass(frozen=True)
class ToleranceComparison:
    """actual against expected within a tolerance: the largest error in ulps of the expected
    value (its dtype's spacing there), where it is, whether assert_close's default tolerance
    holds, and whether infinities and NaNs sit at the same places."""

    count: int
    max_ulp: float
    worst_index: tuple[int, ...] | None
    worst_actual: float
    worst_expected: float
    outside: int
    """Elements outside |actual - expected| <= atol + rtol |expected|."""
    specials_differ: int
    """Elements where one side is inf or NaN and the other is not the same."""
    tolerance_used: float = 0.0
    """The largest |actual - expected| / (atol + rtol |expected|) over finite pairs: the share
    of the tolerance the worst element takes (within it below 1)."""

    @property
    def equal(self) -> bool:
        return self.outside == 0 and self.specials_differ == 0

    def summary(self, inputs: tuple[np.ndarray, ...] = ()) -> str:
        verdict = "within torch tolerance" if self.equal else "OUTSIDE torch tolerance"
        where = ""
        if self.worst_index is not None and self.max_ulp > 0:
            values = ", ".join(f"{float(a[self.worst_index]):.9g}" for a in inputs)
            where = (f" at index {self.worst_index}{' (inputs ' + values + ')' if values else ''}"
                     f": {self.worst_actual:.9g} vs {self.worst_expected:.9g}")
        return (f"{verdict}: max {self.max_ulp:.3g} ulp over {self.count} elements{where}; "
                f"{self.outside} outside rtol/atol, {self.specials_differ} inf/NaN positions "
                "differ")


_FORMATS = {np.dtype(np.float32): (23, -126), np.dtype(np.float16): (10, -14),
            np.dtype(ml_dtypes.bfloat16): (7, -126), np.dtype(np.float64): (52, -1022),
            np.dtype(ml_dtypes.float8_e4m3fn): (3, -6), np.dtype(ml_dtypes.float8_e5m2): (2, -14),
            np.dtype(ml_dtypes.float8_e8m0fnu): (0, -127)}
"""(stored mantissa bits, smallest normal exponent) of each dtype (OCP MX spec v1.0 for the
8-bit floats: E4M3's bias 7, E5M2's 15, E8M0's 127 with no mantissa, sign or subnormals)."""


def _spacing(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The dtype's ulp at each (finite) value: 2^(exponent - mantissa bits), no smaller than
    the smallest subnormal (1 for integers)."""
    if dtype not in _FORMATS:
        return np.ones_like(values)
    bits, emin = _FORMATS[dtype]
    _, exponent = np.frexp(np.where(np.isfinite(values), values, 0.0))
    return np.ldexp(1.0, np.maximum(exponent - 1, emin) - bits)


def _steps(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """How many of an 8-bit float type's values lie from expected to actual (+0 and -0 one)."""
    abits, ebits = actual.view(np.uint8).astype(np.int64), expected.view(np.uint8).astype(np.int64)
    if expected.dtype not in UNSIGNED_FLOATS:
        abits, ebits = _ordered(abits, 8), _ordered(ebits, 8)
    return np.abs(abits - ebits).astype(np.float64)


def compare_tolerance(actual: np.ndarray, expected: np.ndarray) -> ToleranceComparison:
    """actual against expected (one dtype and shape): see ToleranceComparison."""
    a, e = np.asarray(actual), np.asarray(expected)
    if a.dtype != e.dtype or a.shape != e.shape:
        raise ValueError(f"cannot compare {a.dtype}{list(a.shape)} with "
                         f"{e.dtype}{list(e.shape)}")
    rtol, atol = TORCH_TOLERANCES.get(e.dtype, (0.0, 0.0))
    a64, e64 = a.astype(_F64), e.astype(_F64)
    finite = np.isfinite(a64) & np.isfinite(e64)
    special = ~finite & ~((np.isnan(a64) & np.isnan(e64)) | (a64 == e64))
    with np.errstate(all="ignore"):
        ulps = np.where(finite, np.abs(a64 - e64) / _spacing(e64, e.dtype), 0.0)
    if e.dtype in FLOAT8_DTYPES:  # steps between the two: each of the type's values one ulp
        ulps = np.where(finite, _steps(a, e), 0.0)
    with np.errstate(all="ignore"):
        outside = finite & (np.abs(a64 - e64) > atol + rtol * np.abs(e64))
        used = np.abs(a64 - e64)[finite] / (atol + rtol * np.abs(e64[finite]))
    worst = None
    if a.size:
        flat = int(np.argmax(ulps.reshape(-1)))
        worst = tuple(int(i) for i in np.unravel_index(flat, a.shape))
    return ToleranceComparison(
        count=int(a.size), max_ulp=float(ulps.max()) if a.size else 0.0, worst_index=worst,
        worst_actual=float(a64[worst]) if worst is not None else 0.0,
        worst_expected=float(e64[worst]) if worst is not None else 0.0,
        outside=int(outside.sum()), specials_differ=int(special.sum()),
        tolerance_used=float(used.max(initial=0.0)))


# endregion
# region bitwise comparison


@dataclass(frozen=True)
class Difference:
    """One kind of mismatch: how many elements differ that way, and the first of them."""

    count: int
    first_index: tuple[int, ...] | None
    """Index (into the shape) of the first such element, in C order; None if there is none."""
    first_actual_bits: int | None
    first_expected_bits: int | None


@dataclass(frozen=True)
class Comparison:
    """The outcome of a bit-for-bit comparison of two same-shaped float arrays.

    Differing elements fall in exactly one of three kinds, counted apart: `values` (two
    numbers, infinities included, that differ in value), `zero_signs` (+0.0 against -0.0) and
    `nans` (NaN against a number, either way round). Two NaNs are equal whatever their payload.
    """

    dtype: str
    size: int
    mismatches: int
    """All differing elements: values + zero_signs + nans."""
    first_index: tuple[int, ...] | None
    """Index of the first differing element of any kind, in C order; None if all agree."""
    first_actual_bits: int | None
    first_expected_bits: int | None
    values: Difference
    zero_signs: Difference
    nans: Difference
    max_abs_error: float
    """Over the `values` mismatches (inf against a finite number: inf); 0.0 if none."""
    max_ulp_error: int
    """Over the `values` mismatches: the largest difference of the ordered integer
    representations (+0 and -0 both map to 0); 0 if none."""

    @property
    def equal(self) -> bool:
        return self.mismatches == 0

    def summary(self) -> str:
        """A short human-readable report: the total, then each kind with its first index."""
        if self.equal:
            return f"bit-exact: all {self.size} {self.dtype} elements match"
        assert self.first_actual_bits is not None and self.first_expected_bits is not None
        first = self._pair(self.first_actual_bits, self.first_expected_bits)
        values = self._kind(self.values)
        if self.values.count:
            values += (f"; max abs error {self.max_abs_error:.9g}, "
                       f"max ulp error {self.max_ulp_error}")
        return "\n".join([
            f"MISMATCH: {self.mismatches} of {self.size} {self.dtype} elements differ",
            f"first difference at index {self.first_index}: {first}",
            f"  values differ:        {values}",
            f"  signs of zero differ: {self._kind(self.zero_signs)}",
            f"  NaN against a number: {self._kind(self.nans)}",
        ])

    def _kind(self, kind: Difference) -> str:
        if not kind.count:
            return "0"
        assert kind.first_actual_bits is not None and kind.first_expected_bits is not None
        pair = self._pair(kind.first_actual_bits, kind.first_expected_bits)
        return f"{kind.count}, first at index {kind.first_index}: {pair}"

    def _pair(self, actual: int, expected: int) -> str:
        width = 2 * np.dtype(_DTYPES_BY_NAME[self.dtype]).itemsize
        return (f"actual 0x{actual:0{width}x} ({_value_of(actual, self.dtype)!r}), "
                f"expected 0x{expected:0{width}x} ({_value_of(expected, self.dtype)!r})")


FLOAT8_DTYPES: tuple[np.dtype, ...] = (np.dtype(ml_dtypes.float8_e4m3fn),
                                       np.dtype(ml_dtypes.float8_e5m2),
                                       np.dtype(ml_dtypes.float8_e8m0fnu))
UNSIGNED_FLOATS: tuple[np.dtype, ...] = (np.dtype(ml_dtypes.float8_e8m0fnu),)
"""Floats without a sign bit (E8M0, an MX block scale): their bits are in their values' order."""
COMPARABLE_DTYPES: tuple[np.dtype, ...] = (
    *SUPPORTED_DTYPES, np.dtype(np.float64), np.dtype(np.bool_), *FLOAT8_DTYPES,
    *(np.dtype(f"{kind}{size}") for kind in "iu" for size in (1, 2, 4, 8)))
"""What compare_bitwise compares: the golden models' dtypes, and f64, integers and bools (the
results of a whole model file), and a quantization's 8-bit floats."""
_DTYPES_BY_NAME = {str(d): d for d in COMPARABLE_DTYPES}
_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _value_of(bits: int, dtype_name: str) -> float | int:
    dtype = _DTYPES_BY_NAME[dtype_name]
    value = np.array(bits, dtype=_UINT_OF_SIZE[dtype.itemsize]).view(dtype)
    return float(value) if dtype.kind == "f" or dtype == ml_dtypes.bfloat16 else int(value)


def _ordered(bits: np.ndarray, nbits: int) -> np.ndarray:
    """Sign-magnitude float bits -> integers in the same order as the values (+0 == -0 == 0)."""
    b = bits.astype(np.int64)
    sign = np.int64(1) << (nbits - 1)
    return np.where(b & sign, -(b & (sign - 1)), b)


def _difference(where: np.ndarray, abits: np.ndarray, ebits: np.ndarray) -> Difference:
    """The count and first element of the mask `where` (over the flattened arrays)."""
    count = int(np.count_nonzero(where))
    if not count:
        return Difference(0, None, None, None)
    flat = int(np.argmax(where))
    index = tuple(int(i) for i in np.unravel_index(flat, abits.shape))
    return Difference(count, index, int(abits.flat[flat]), int(ebits.flat[flat]))


def compare_bitwise(actual: np.ndarray, expected: np.ndarray) -> Comparison:
    """Compare bit patterns; NaN equals NaN whatever the payload, -0.0 differs from +0.0
    (integers and bools: values)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        raise ValueError(f"shapes differ: actual {actual.shape} vs expected {expected.shape}")
    if actual.dtype != expected.dtype:
        raise ValueError(f"dtypes differ: actual {actual.dtype} vs expected {expected.dtype}")
    if actual.dtype not in COMPARABLE_DTYPES:
        raise ValueError(f"unsupported dtype {actual.dtype}")
    uint = _UINT_OF_SIZE[actual.dtype.itemsize]
    abits, ebits = actual.view(uint), expected.view(uint)
    floats = actual.dtype.kind == "f" or actual.dtype == ml_dtypes.bfloat16 \
        or actual.dtype in FLOAT8_DTYPES
    if not floats:
        return _compare_integers(actual, expected, abits, ebits)
    anan, enan = np.isnan(actual), np.isnan(expected)
    differ = (abits != ebits) & ~(anan & enan)
    nans = differ & (anan != enan)
    zero_signs = differ & (actual == 0) & (expected == 0)
    values = differ & ~nans & ~zero_signs
    max_abs, max_ulp = 0.0, 0
    if values.any():
        a64 = actual[values].astype(np.float64)
        e64 = expected[values].astype(np.float64)
        # Two equal infinities cannot differ bitwise, so the difference is never NaN.
        max_abs = float(np.max(np.abs(a64 - e64)))
        if actual.dtype.itemsize <= 4:
            nbits = 8 * actual.dtype.itemsize
            if actual.dtype in UNSIGNED_FLOATS:
                ulp = np.abs(abits[values].astype(np.int64) - ebits[values].astype(np.int64))
            else:
                ulp = np.abs(_ordered(abits[values], nbits) - _ordered(ebits[values], nbits))
            max_ulp = int(ulp.max())
        else:  # f64: its ordered bits do not fit int64 arithmetic; in its spacing instead
            with np.errstate(all="ignore"):
                ulp = np.abs(a64 - e64) / _spacing(e64, actual.dtype)
            max_ulp = int(min(float(np.nan_to_num(ulp, posinf=2.0 ** 62).max()), 2.0 ** 62))
    overall = _difference(differ, abits, ebits)
    return Comparison(
        dtype=str(actual.dtype),
        size=int(actual.size),
        mismatches=overall.count,
        first_index=overall.first_index,
        first_actual_bits=overall.first_actual_bits,
        first_expected_bits=overall.first_expected_bits,
        values=_difference(values, abits, ebits),
        zero_signs=_difference(zero_signs, abits, ebits),
        nans=_difference(nans, abits, ebits),
        max_abs_error=max_abs,
        max_ulp_error=max_ulp,
    )


def _compare_integers(actual: np.ndarray, expected: np.ndarray, abits: np.ndarray,
                      ebits: np.ndarray) -> Comparison:
    """compare_bitwise of integer or bool arrays: every difference is a value difference."""
    differ = abits != ebits
    none = np.zeros_like(differ)
    delta = np.abs(actual.astype(_F64) - expected.astype(_F64))
    overall = _difference(differ, abits, ebits)
    return Comparison(
        dtype=str(actual.dtype), size=int(actual.size), mismatches=overall.count,
        first_index=overall.first_index, first_actual_bits=overall.first_actual_bits,
        first_expected_bits=overall.first_expected_bits, values=overall,
        zero_signs=_difference(none, abits, ebits), nans=_difference(none, abits, ebits),
        max_abs_error=float(delta.max()) if differ.any() else 0.0,
        max_ulp_error=int(delta.max()) if differ.any() else 0)


# endregion
