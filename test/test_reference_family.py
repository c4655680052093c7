"""The activation family's golden models against values derived by hand, and their identities.

Every expected value is a literal bit pattern worked out in the comments (one f32 rounding per
step, then one rounding to the dtype), never taken from the functions under test. Notation:
f16 spacing in [2^e, 2^(e+1)) is 2^(e-10), bf16 2^(e-7), f32 2^(e-23); "ulp" below is that
spacing in the dtype of x. Constants used throughout:
  0.7f = 0x3F333333 = 0.699999988;  f16(0.7) = 0x399A = 1434 * 2^-11 = 0.70019531 (rounds up);
  bf16(0.7) = 0x3F33 = 0.69921875 (rounds down);  bf16(0.3) = 0x3E9A = 0.30078125 (rounds up);
  0.1f = 0x3DCCCCCD = 0.100000001 (above 0.1);  f16(0.1) = 0x2E66 = 1638 * 2^-14 (below).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hswc.reference import (
    EXPONENTIAL_REFERENCES,
    REFERENCES,
    compare_bitwise,
    hard_shrink_grad_torch,
    hard_shrink_torch,
    hard_sigmoid_grad_torch,
    hard_sigmoid_torch,
    hard_swish_grad_cann,
    hard_swish_grad_cann_arch35,
    hard_swish_grad_torch,
    hard_swish_torch,
    hardtanh_grad_torch,
    hardtanh_torch,
    leaky_relu_grad_torch,
    leaky_relu_torch,
    softshrink_grad_torch,
    softshrink_torch,
    threshold_grad_torch,
    threshold_torch,
)
from hswc.reference import (
    OP_REFERENCES as ALL_REFERENCES,
)

OP_REFERENCES = {k: f for k, f in ALL_REFERENCES.items() if k[0] not in EXPONENTIAL_REFERENCES}
"""The piecewise-linear family's bit-exact models (the exponential ones:
test_exponential_ops.py)."""

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [F16, BF16, F32]
UINT = {2: np.uint16, 4: np.uint32}
NAN = {"float16": 0x7E00, "bfloat16": 0x7FC0, "float32": 0x7FC00000}


def from_bits(bits: list[int], dtype: np.dtype) -> np.ndarray:
    return np.array(bits, dtype=UINT[dtype.itemsize]).view(dtype)


def bits_of(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a).view(UINT[a.dtype.itemsize]).ravel()]


def unary(fn: Callable[..., np.ndarray], dtype: np.dtype, x: list[int],
          **attrs: float) -> list[int]:
    return bits_of(fn(from_bits(x, dtype), **attrs))


def binary(fn: Callable[..., np.ndarray], dtype: np.dtype, g: list[int], x: list[int],
           **attrs: float) -> list[int]:
    return bits_of(fn(from_bits(g, dtype), from_bits(x, dtype), **attrs))


def full(bits: int, n: int) -> list[int]:
    return [bits] * n


# The value 2 and -3 in each dtype, and the smallest positive subnormal.
TWO = {"float16": 0x4000, "bfloat16": 0x4000, "float32": 0x40000000}
SUB = {"float16": 0x0001, "bfloat16": 0x0001, "float32": 0x00000001}
INF = {"float16": 0x7C00, "bfloat16": 0x7F80, "float32": 0x7F800000}
SIGN = {"float16": 0x8000, "bfloat16": 0x8000, "float32": 0x80000000}

# x = [-3 - ulp, -3, -3 + ulp, 3 - ulp, 3, 3 + ulp]: f16 3 - ulp = 3 - 2^-9, bf16 3 - 2^-6,
# f32 3 - 2^-22 (the spacing below 3 is that of [2, 4)).
AROUND_THREE = {
    "float16": [0xC201, 0xC200, 0xC1FF, 0x41FF, 0x4200, 0x4201],
    "bfloat16": [0xC041, 0xC040, 0xC03F, 0x403F, 0x4040, 0x4041],
    "float32": [0xC0400001, 0xC0400000, 0xC03FFFFF, 0x403FFFFF, 0x40400000, 0x40400001],
}


# region hard_swish: (x * min(max(x + 3, 0), 6)) / 6


HARD_SWISH = {
    # -3 - ulp, -3: x + 3 <= 0 -> 0; x * 0 = -0; -0 / 6 = -0.
    # -3 + ulp = -(3 - u): x + 3 = u exactly; x*u exact; /6 = -(u/2 - u^2/6).
    #   f16 u = 2^-9: -(2^-10 - 2^-18/6); spacing below 2^-10 is 2^-21 and 2^-18/6 = 1.33 of
    #   it -> -(2^-10 - 2^-21) = 0x93FF.  bf16 u = 2^-6: -(2^-7 - 2^-12/6), spacing 2^-15,
    #   1.33 of it -> -(2^-7 - 2^-15) = 0xBBFF.  f32 u = 2^-22: -(2^-23 - 2^-44/6), spacing
    #   2^-47 -> -(2^-23 - 2^-47) = 0xB3FFFFFF.
    # 3 - u: f16: 6 - 2^-9 exact; (3 - 2^-9)(6 - 2^-9) = 4713985 * 2^-18 exact; /6 =
    #   785664.1667 * 2^-18 = 1534.5003 * 2^-9 (f32 keeps it above the tie) -> 1535 * 2^-9,
    #   x itself, 0x41FF.
    #   bf16: 73153 * 2^-12 exact; /6 = 190.5026 * 2^-6 -> 191 * 2^-6 = x itself, 0x403F.
    #   f32: 6 - 2^-22 is a tie -> 6 (even); x*6 = 18 - 0.75 * 2^-19 -> 18 - 2^-19 (the
    #   spacing there); /6 = 3 - 1.33 * 2^-22 -> 3 - 2^-22, x itself, 0x403FFFFF.
    # 3: 3 * 6 / 6 = 3.  3 + u: min(., 6) = 6; f16/bf16: x*6 and /6 are exact -> x;
    #   f32: x*6 = 18 + 0.75 * 2^-19 -> 18 + 2^-19; /6 = 3 + 1.33 * 2^-22 -> x, 0x40400001.
    "float16": [0x8000, 0x8000, 0x93FF, 0x41FF, 0x4200, 0x4201],
    "bfloat16": [0x8000, 0x8000, 0xBBFF, 0x403F, 0x4040, 0x4041],
    "float32": [0x80000000, 0x80000000, 0xB3FFFFFF, 0x403FFFFF, 0x40400000, 0x40400001],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_swish_around_the_bounds(dtype: np.dtype) -> None:
    assert unary(hard_swish_torch, dtype, AROUND_THREE[str(dtype)]) == HARD_SWISH[str(dtype)]


def test_hard_swish_overflows_f32_in_x_times_6() -> None:
    # bf16 and f32 largest finite (~3.4e38) times 6 is beyond f32: inf, and inf / 6 = inf.
    assert unary(hard_swish_torch, BF16, [0x7F7F, 0xFF7F]) == [0x7F80, 0x8000]
    assert unary(hard_swish_torch, F32, [0x7F7FFFFF]) == [0x7F800000]


@pytest.mark.parametrize(
    ("dtype", "x", "want"),
    [
        # 0 -> 0 * 3 / 6 = +0; -0 -> -0 * 3 = -0; +inf -> inf * 6 / 6 = inf;
        # -inf -> max(-inf, 0) = 0, -inf * 0 = NaN.
        # 1 -> 4 / 6: f32 2/3 = 0x3F2AAAAB; f16 keeps 10 of 0x2AAAAB's bits: 0x155 (rest 0xAAB
        # < half) -> 0x3955; bf16 keeps 7: 0x3F2A|AAAB rounds up -> 0x3F2B.
        # smallest subnormal s: x + 3 = 3, s*3/6 = s/2, a tie between 0 and s -> +0.
        (F16, [0x0000, 0x8000, 0x7C00, 0xFC00, 0x3C00, 0x0001],
         [0x0000, 0x8000, 0x7C00, 0x7E00, 0x3955, 0x0000]),
        (BF16, [0x0000, 0x8000, 0x7F80, 0xFF80, 0x3F80, 0x0001],
         [0x0000, 0x8000, 0x7F80, 0x7FC0, 0x3F2B, 0x0000]),
        (F32, [0, 0x80000000, 0x7F800000, 0xFF800000, 0x3F800000, 0x00000001],
         [0, 0x80000000, 0x7F800000, 0x7FC00000, 0x3F2AAAAB, 0]),
    ],
    ids=str,
)
def test_hard_swish_special_values(dtype: np.dtype, x: list[int], want: list[int]) -> None:
    y = hard_swish_torch(from_bits(x, dtype))
    nan = np.isnan(y.astype(np.float32))
    assert nan.tolist() == [b == NAN[str(dtype)] for b in want]
    assert [b for b, n in zip(bits_of(y), nan, strict=True) if not n] == [
        b for b in want if b != NAN[str(dtype)]
    ]


# endregion
# region hard_sigmoid: min(max(x + 3, 0), 6) / 6


HARD_SIGMOID = {
    # -3 - ulp, -3: +0.  -3 + u: u / 6 = u * fl(1/6) scaled by a power of two:
    #   f16 2^-9/6 = 1.333 * 2^-12 -> mantissa 0x155, exponent field 3 -> 0x0D55;
    #   bf16 2^-6/6 = 1.333 * 2^-9 -> 0x3B2A|AAAB rounds up -> 0x3B2B; f32 0x332AAAAB.
    # 3 - u: f16 (6 - 2^-9)/6 = 1 - 0.667 * 2^-11 -> 1 - 2^-11 = 0x3BFF; bf16 1 - 0.667 * 2^-8
    #   -> 0x3F7F; f32 6 - 2^-22 rounds to 6 (a tie, even) -> 1.0.   3, 3 + u: 6/6 = 1.
    "float16": [0x0000, 0x0000, 0x0D55, 0x3BFF, 0x3C00, 0x3C00],
    "bfloat16": [0x0000, 0x0000, 0x3B2B, 0x3F7F, 0x3F80, 0x3F80],
    "float32": [0, 0, 0x332AAAAB, 0x3F800000, 0x3F800000, 0x3F800000],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_sigmoid_around_the_bounds(dtype: np.dtype) -> None:
    assert unary(hard_sigmoid_torch, dtype, AROUND_THREE[str(dtype)]) == HARD_SIGMOID[str(dtype)]


def test_hard_sigmoid_special_values() -> None:
    # +-0 -> 3/6 = 0.5; -inf -> +0; +inf -> 1.
    x = [0x0000, 0x8000, 0xFC00, 0x7C00]
    assert unary(hard_sigmoid_torch, F16, x) == [0x3800, 0x3800, 0x0000, 0x3C00]


# endregion
# region hard_sigmoid_grad: where(x > -3 and x < 3, grad * (1/6), +0)


# fl32(1/6) = 0x3E2AAAAB; in f16 0x155 of mantissa (rest < half), exponent field 12 -> 0x3155;
# in bf16 0x3E2A|AAAB rounds up -> 0x3E2B.
ONE_SIXTH = {"float16": 0x3155, "bfloat16": 0x3E2B, "float32": 0x3E2AAAAB}
ONE = {"float16": 0x3C00, "bfloat16": 0x3F80, "float32": 0x3F800000}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_sigmoid_grad_open_bounds(dtype: np.dtype) -> None:
    """Only -3 + ulp and 3 - ulp are inside; +-3 themselves give +0."""
    c = ONE_SIXTH[str(dtype)]
    got = binary(hard_sigmoid_grad_torch, dtype, full(ONE[str(dtype)], 6), AROUND_THREE[str(dtype)])
    assert got == [0, 0, c, c, 0, 0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_sigmoid_grad_special_grads(dtype: np.dtype) -> None:
    d = str(dtype)
    six = {"float16": 0x4600, "bfloat16": 0x40C0, "float32": 0x40C00000}[d]
    # 6 * 0x3E2AAAAB = 0x4000002 * 2^-26 = 1 + 2^-25 -> 1.0; -6 -> -1.0; -0 -> -0; inf -> inf;
    # the smallest subnormal s: s * 0.1667 is below s/2 in every dtype -> +0.
    g = [six, six | SIGN[d], SIGN[d], INF[d], SUB[d]]
    got = binary(hard_sigmoid_grad_torch, dtype, g, full(0, 5))
    assert got == [ONE[d], ONE[d] | SIGN[d], SIGN[d], INF[d], 0]
    # Outside (x = 6, x = -inf): the constant +0, even for a NaN or infinite grad.
    outside = [six, INF[d] | SIGN[d]]
    assert binary(hard_sigmoid_grad_torch, dtype, [NAN[d], INF[d]], outside) == [0, 0]
    assert np.isnan(hard_sigmoid_grad_torch(from_bits([NAN[d]], dtype), from_bits([0], dtype)))


# endregion
# region hardtanh: where(x < min_val, min_val, where(x > max_val, max_val, x))


# x = [below 0.7, the dtype's 0.7, above, and the same negated]; min_val = -0.7, max_val = 0.7.
AROUND_07 = {
    "float16": [0x3999, 0x399A, 0x399B, 0xB999, 0xB99A, 0xB99B],
    "bfloat16": [0x3F32, 0x3F33, 0x3F34, 0xBF32, 0xBF33, 0xBF34],
    "float32": [0x3F333332, 0x3F333333, 0x3F333334, 0xBF333332, 0xBF333333, 0xBF333334],
}
HARDTANH_07 = {
    # f16: 0x399A = 0.70019531 > 0.7f, so it is clamped to 0.7f, which rounds back to 0x399A.
    "float16": [0x3999, 0x399A, 0x399A, 0xB999, 0xB99A, 0xB99A],
    # bf16: 0x3F33 = 0.69921875 < 0.7f stays; 0x3F34 = 0.703125 -> 0.7f -> 0x3F33.
    "bfloat16": [0x3F32, 0x3F33, 0x3F33, 0xBF32, 0xBF33, 0xBF33],
    "float32": [0x3F333332, 0x3F333333, 0x3F333333, 0xBF333332, 0xBF333333, 0xBF333333],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hardtanh_bounds_not_representable(dtype: np.dtype) -> None:
    got = unary(hardtanh_torch, dtype, AROUND_07[str(dtype)], min_val=-0.7, max_val=0.7)
    assert got == HARDTANH_07[str(dtype)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hardtanh_keeps_minus_zero_and_clamps_infinities(dtype: np.dtype) -> None:
    d = str(dtype)
    x = [SIGN[d], INF[d], INF[d] | SIGN[d]]
    got = unary(hardtanh_torch, dtype, x, min_val=-1.0, max_val=2.0)
    assert got == [SIGN[d], TWO[d], ONE[d] | SIGN[d]]


def test_relu6_is_hardtanh_0_6() -> None:
    # -0 stays -0 (-0 < 0 is false); -1 -> +0 (min_val); 6 -> 6; 7 -> 6; 6.5 -> 6.
    x = [0x8000, 0xBC00, 0x4600, 0x4700, 0x4680]
    want = [0x8000, 0, 0x4600, 0x4600, 0x4600]
    assert unary(hardtanh_torch, F16, x, min_val=0, max_val=6) == want


def test_hardtanh_bound_rounded_to_the_dtype() -> None:
    # max_val 60000.7 -> f32 60000.69921875; f16 spacing there is 32: 1875.02 * 32 -> 60000 =
    # 1.8310546875 * 2^15 -> exponent field 30, mantissa 851 = 0x353 -> 0x7B53.
    # bf16 spacing 256: 234.38 * 256 -> 59904 -> exponent field 142 = 0x8E, mantissa 106 -> 0x476A.
    assert unary(hardtanh_torch, F16, [0x7C00], min_val=-1, max_val=60000.7) == [0x7B53]
    assert unary(hardtanh_torch, BF16, [0x7F80], min_val=-1, max_val=60000.7) == [0x476A]


# endregion
# region hardtanh_grad: where(x <= min_val or x >= max_val, +0, grad)


HARDTANH_GRAD_07 = {
    # f16 0x399A = 0.70019531 >= 0.7f -> +0.  bf16 0x3F33 = 0.69921875 < 0.7f: inside -> grad
    # (were the bound rounded to bf16 first, it would be +0).
    "float16": [1, 0, 0, 1, 0, 0],
    "bfloat16": [1, 1, 0, 1, 1, 0],
    "float32": [1, 0, 0, 1, 0, 0],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hardtanh_grad_bounds_compare_in_f32(dtype: np.dtype) -> None:
    d = str(dtype)
    got = binary(hardtanh_grad_torch, dtype, full(TWO[d], 6), AROUND_07[d], min_val=-0.7,
                 max_val=0.7)
    assert got == [TWO[d] if keep else 0 for keep in HARDTANH_GRAD_07[d]]


def test_hardtanh_grad_f16_bound_that_rounds_down() -> None:
    # max_val 0.1: 0x2E66 = 0.09997559 < 0.1f -> grad; 0x2E67 = 0.10003662 -> +0.
    got = binary(hardtanh_grad_torch, F16, [0x4000, 0x4000], [0x2E66, 0x2E67], min_val=-1,
                 max_val=0.1)
    assert got == [0x4000, 0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hardtanh_grad_special_grads(dtype: np.dtype) -> None:
    d = str(dtype)
    g = [NAN[d], INF[d], SIGN[d], SUB[d]]
    inside = binary(hardtanh_grad_torch, dtype, g, full(0, 4), min_val=-1, max_val=1)
    assert inside == g
    outside = binary(hardtanh_grad_torch, dtype, g, full(ONE[d], 4), min_val=-1, max_val=1)
    assert outside == [0, 0, 0, 0]
    # min_val == max_val: every x is a bound or outside.
    assert binary(hardtanh_grad_torch, dtype, g, full(0, 4), min_val=0, max_val=0) == [0] * 4


# endregion
# region leaky_relu / leaky_relu_grad: where(x > 0, x | grad, (x | grad) * negative_slope)


# -3 * 0.7f = 35232153 * 2^-24 (26 bits) -> 8808038 * 2^-22 = 2.09999990 = 0x40066666.
# f16: 8808038 / 2^13 = 1075.19 -> 1075 * 2^-9, mantissa 51 -> 0x4033 (a slope first rounded to
# f16 would give 3 * 0.70019531 = 1075.5 * 2^-9 -> 1076).  bf16: 134.399 -> 134 -> 0x4006.
MINUS_3_TIMES_07 = {"float16": 0xC033, "bfloat16": 0xC006, "float32": 0xC0066666}
MINUS_3 = {"float16": 0xC200, "bfloat16": 0xC040, "float32": 0xC0400000}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_leaky_relu_values(dtype: np.dtype) -> None:
    d = str(dtype)
    # +0 -> 0 * 0.01 = +0; -0 -> -0; s > 0 -> s; -s * 0.01 -> -0; +-inf -> +-inf.
    x = [0, SIGN[d], SUB[d], SUB[d] | SIGN[d], INF[d], INF[d] | SIGN[d]]
    want = [0, SIGN[d], SUB[d], SIGN[d], INF[d], INF[d] | SIGN[d]]
    assert unary(leaky_relu_torch, dtype, x, negative_slope=0.01) == want
    assert unary(leaky_relu_torch, dtype, [MINUS_3[d]], negative_slope=0.7) == [
        MINUS_3_TIMES_07[d]]
    # slope 0: -inf * 0 = NaN, -1 * 0 = -0.  slope -0.5: -0 -> +0, -2 -> 1.
    y = leaky_relu_torch(from_bits([INF[d] | SIGN[d], ONE[d] | SIGN[d]], dtype), negative_slope=0)
    assert np.isnan(y[0]) and bits_of(y[1:]) == [SIGN[d]]
    assert unary(leaky_relu_torch, dtype, [SIGN[d], TWO[d] | SIGN[d]], negative_slope=-0.5) == [
        0, ONE[d]]


def test_leaky_relu_f16_overflow() -> None:
    # -30000 * 2.5 = -75000 beyond 65504 (rounds past 65520) -> -inf; the grad likewise.
    assert unary(leaky_relu_torch, F16, [0xF753], negative_slope=2.5) == [0xFC00]
    assert binary(leaky_relu_grad_torch, F16, [0x7753, 0x7753], [0xBC00, 0x3C00],
                  negative_slope=2.5) == [0x7C00, 0x7753]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_leaky_relu_grad_values(dtype: np.dtype) -> None:
    d = str(dtype)
    # x = 1 and x = s > 0 pass grad; x = +0, -0, -1 and NaN take grad * slope.
    x = [ONE[d], 0, SIGN[d], ONE[d] | SIGN[d], NAN[d], SUB[d]]
    got = binary(leaky_relu_grad_torch, dtype, full(MINUS_3[d], 6), x, negative_slope=0.7)
    m = MINUS_3_TIMES_07[d]
    assert got == [MINUS_3[d], m, m, m, m, MINUS_3[d]]
    # inf * 0 = NaN where x <= 0.
    y = leaky_relu_grad_torch(from_bits([INF[d]], dtype), from_bits([0], dtype), negative_slope=0)
    assert np.isnan(y[0])


# endregion
# region threshold / threshold_grad: where(x <= threshold, value | +0, x | grad)


def test_threshold_compares_in_f32_and_rounds_value() -> None:
    # f16, threshold 0.7 (0x399A = 0.70019531 > 0.7f: kept), value -0.3: -0.3f in f16 spacing
    # 2^-12 is 1228.8 -> 1229, mantissa 205 = 0xCD, exponent field 13 -> 0xB4CD.
    x = [0x3999, 0x399A, 0x399B, 0xFC00, 0x7C00]
    got = unary(threshold_torch, F16, x, threshold=0.7, value=-0.3)
    assert got == [0xB4CD, 0x399A, 0x399B, 0xB4CD, 0x7C00]
    # bf16, threshold 0.3 (0x3E9A = 0.30078125 > 0.3f: kept), value 0.7 -> 0x3F33.
    got = unary(threshold_torch, BF16, [0x3E99, 0x3E9A, 0x3E9B], threshold=0.3, value=0.7)
    assert got == [0x3F33, 0x3E9A, 0x3E9B]
    # f32, threshold 0.1 -> 0.1f = 0x3DCCCCCD, which is <= itself (a double 0.1 would not be).
    got = unary(threshold_torch, F32, [0x3DCCCCCC, 0x3DCCCCCD, 0x3DCCCCCE], threshold=0.1, value=2)
    assert got == [0x40000000, 0x40000000, 0x3DCCCCCE]


def test_threshold_value_beyond_f16_is_refused_but_rounds_in_bf16() -> None:
    # 65519 in bf16: spacing 256 -> 255.93 -> 256 * 256 = 65536 = 0x4780.
    assert unary(threshold_torch, BF16, [0xBF80], threshold=0, value=65519) == [0x4780]
    assert unary(threshold_torch, F16, [0xBC00], threshold=0, value=65504) == [0x7BFF]
    with pytest.raises(ValueError, match=r"threshold: attribute value = 65505 is outside the "
                                         r"float16 range"):
        threshold_torch(np.zeros(1, np.float16), threshold=0, value=65505)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_relu_is_threshold_0_0(dtype: np.dtype) -> None:
    d = str(dtype)
    x = [SIGN[d], 0, SUB[d], SUB[d] | SIGN[d], INF[d] | SIGN[d], INF[d]]
    # -0 <= 0 -> value +0; s stays; -s -> +0; -inf -> +0; inf stays.
    assert unary(threshold_torch, dtype, x, threshold=0, value=0) == [0, 0, SUB[d], 0, 0, INF[d]]
    assert unary(threshold_torch, dtype, [ONE[d] | SIGN[d]], threshold=0, value=-0.0) == [SIGN[d]]


def test_threshold_grad_bounds() -> None:
    assert binary(threshold_grad_torch, F16, [0x4000] * 2, [0x3999, 0x399A], threshold=0.7) == [
        0, 0x4000]
    assert binary(threshold_grad_torch, BF16, [0x4000] * 2, [0x3E99, 0x3E9A], threshold=0.3) == [
        0, 0x4000]
    got = binary(threshold_grad_torch, F32, [0x40000000] * 2, [0x3DCCCCCD, 0x3DCCCCCE],
                 threshold=0.1)
    assert got == [0, 0x40000000]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_threshold_grad_special_grads(dtype: np.dtype) -> None:
    d = str(dtype)
    g = [SIGN[d], NAN[d], INF[d], SUB[d]]
    assert binary(threshold_grad_torch, dtype, g, full(ONE[d], 4), threshold=0) == g
    assert binary(threshold_grad_torch, dtype, g, full(SIGN[d], 4), threshold=0) == [0] * 4


# endregion
# region hard_shrink / softshrink and their backward: lambd rounded to the dtype


# x = [below lambd, the dtype's lambd, above, -(the dtype's lambd), -(above)] for lambd 0.7.
SHRINK_X = {
    "float16": [0x3999, 0x399A, 0x399B, 0xB99A, 0xB99B],
    "bfloat16": [0x3F32, 0x3F33, 0x3F34, 0xBF33, 0xBF34],
    "float32": [0x3F333332, 0x3F333333, 0x3F333334, 0xBF333333, 0xBF333334],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_shrink_band_is_closed_around_the_rounded_lambd(dtype: np.dtype) -> None:
    # f16: lambd 0.7 -> 0x399A, so x = 0x399A (0.70019531 > 0.7f) is in the band -> +0.
    x = SHRINK_X[str(dtype)]
    assert unary(hard_shrink_torch, dtype, x, lambd=0.7) == [0, 0, x[2], 0, x[4]]


def test_hard_shrink_bf16_lambd_that_rounds_up() -> None:
    # lambd 0.3 -> 0x3E9A = 0.30078125: x = 0x3E9A is in the band.
    assert unary(hard_shrink_torch, BF16, [0x3E9A, 0x3E9B, 0xBE9A], lambd=0.3) == [0, 0x3E9B, 0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_shrink_lambd_zero(dtype: np.dtype) -> None:
    d = str(dtype)
    x = [0, SIGN[d], SUB[d], SUB[d] | SIGN[d], INF[d]]
    # Only +-0 are in [-0, 0], and both give +0.
    assert unary(hard_shrink_torch, dtype, x, lambd=0) == [0, 0, SUB[d], SUB[d] | SIGN[d], INF[d]]
    assert unary(hard_shrink_torch, dtype, x, lambd=-0.0) == [0, 0, SUB[d], SUB[d] | SIGN[d],
                                                               INF[d]]


@pytest.mark.parametrize("fn", [hard_shrink_grad_torch, softshrink_grad_torch],
                         ids=["hard_shrink_grad", "softshrink_grad"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_shrink_grads(fn: Callable[..., np.ndarray], dtype: np.dtype) -> None:
    d = str(dtype)
    got = binary(fn, dtype, full(TWO[d], 5), SHRINK_X[d], lambd=0.7)
    assert got == [0, 0, TWO[d], 0, TWO[d]]
    # A NaN or infinite grad inside the band still gives +0; outside it passes.
    g = [NAN[d], INF[d], SIGN[d]]
    assert binary(fn, dtype, g, full(0, 3), lambd=0.5) == [0, 0, 0]
    assert binary(fn, dtype, g, full(INF[d], 3), lambd=0.5) == g


def test_softshrink_subtracts_the_rounded_lambd() -> None:
    # f16 lambd 0.7 -> 1434 * 2^-11: 0x399B - lambd = 2^-11 -> exponent field 4 -> 0x1000.
    got = unary(softshrink_torch, F16, [0x399A, 0x399B, 0xB99B, 0x3999, 0x8000], lambd=0.7)
    assert got == [0, 0x1000, 0x9000, 0, 0]
    # bf16 lambd 0.7 -> 0.69921875: 0.703125 - 0.69921875 = 2^-8 -> 0x3B80 (with 0.7f it would
    # be 0.0031280518).
    assert unary(softshrink_torch, BF16, [0x3F33, 0x3F34, 0xBF34], lambd=0.7) == [0, 0x3B80,
                                                                                 0xBB80]
    # f32 lambd 0.5: 0x3F000001 - 0.5 = 2^-24 = 0x33800000; -0.3 -> +0 (not -0).
    x = [0x3F000000, 0x3F000001, 0xBF000000, 0xBF000001, 0xBE99999A]
    assert unary(softshrink_torch, F32, x, lambd=0.5) == [0, 0x33800000, 0, 0xB3800000, 0]


def test_softshrink_rounds_the_difference_once() -> None:
    # f16 x = 3, lambd 0.1 -> 1638 * 2^-14: 3 - lambd = 2.90002441 = 1484.81 * 2^-9 (f32 exact
    # enough) -> 1485 * 2^-9, mantissa 461 = 0x1CD -> 0x41CD.  +-inf stay +-inf.
    assert unary(softshrink_torch, F16, [0x4200, 0x7C00, 0xFC00], lambd=0.1) == [0x41CD, 0x7C00,
                                                                                 0xFC00]


@pytest.mark.parametrize(
    "fn", [hard_shrink_torch, softshrink_torch, hard_shrink_grad_torch, softshrink_grad_torch])
def test_shrink_lambd_range_follows_the_dtype(fn: Callable[..., np.ndarray]) -> None:
    operands = (2 if "grad" in fn.__name__ else 1)
    for dtype, ok in ((F16, False), (BF16, True), (F32, True)):
        arrays = [np.zeros(1, dtype)] * operands
        if ok:
            fn(*arrays, lambd=65519)
        else:
            with pytest.raises(ValueError, match="lambd = 65519 is outside the float16 range"):
                fn(*arrays, lambd=65519)
        fn(*arrays, lambd=65504)
        with pytest.raises(ValueError, match="lambd must be >= 0"):
            fn(*arrays, lambd=-0.5)


# endregion
# region hard_swish_grad: the Ascend 950 (arch35) kernel


# grad = -2 at AROUND_THREE. Ascend A2/A3 (cann): x = +-3 are outside (GT / LT) -> grad*0 at -3
# and grad at 3. arch35 (GE / LE) keeps the slope there: fl(fl(-3 * 0x3EAAAAAB) + 0.5):
# 3 * 0xAAAAAB * 2^-25 = (2^25 + 1) * 2^-25 rounds to 1 -> -1 + 0.5 = -0.5, times -2 = 1; at 3,
# 1 + 0.5 = 1.5, times -2 = -3. The other four are the cann values (test_reference.py).
ARCH35 = {
    "float16": [0x8000, 0x3C00, 0x3BFD, 0xC1FF, 0xC200, 0xC000],
    "bfloat16": [0x8000, 0x3F80, 0x3F7D, 0xC03F, 0xC040, 0xC000],
    "float32": [0x80000000, 0x3F800000, 0x3F7FFFFE, 0xC0400000, 0xC0400000, 0xC0000000],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_arch35_boundaries(dtype: np.dtype) -> None:
    d = str(dtype)
    g = full(TWO[d] | SIGN[d], 6)
    assert binary(hard_swish_grad_cann_arch35, dtype, g, AROUND_THREE[d]) == ARCH35[d]
    cann = binary(hard_swish_grad_cann, dtype, g, AROUND_THREE[d])
    assert [i for i in range(6) if cann[i] != ARCH35[d][i]] == [1, 4]  # only x = -3 and 3


def test_arch35_at_minus_three_halves_subnormal_grads() -> None:
    # f32: -0.5 * +-2^-149 = -+2^-150, a tie -> -0 / +0; inf -> -inf; -0 -> +0.
    g = [0x00000001, 0x80000001, 0x7F800000, 0x80000000]
    assert binary(hard_swish_grad_cann_arch35, F32, g, full(0xC0400000, 4)) == [
        0x80000000, 0, 0xFF800000, 0]
    # f16 grads 2^-24 and 3 * 2^-24: -0.5 * them = -2^-25 (a tie -> -0) and -1.5 * 2^-24 (a tie
    # between 0x8001 and 0x8002 -> even 0x8002).
    assert binary(hard_swish_grad_cann_arch35, F16, [0x0001, 0x0003], [0xC200, 0xC200]) == [
        0x8000, 0x8002]


def test_arch35_at_three_overflows() -> None:
    # 1.5 * largest finite: f16 98256 -> inf; bf16 5.08e38 and f32 5.1e38 beyond f32 -> inf.
    assert binary(hard_swish_grad_cann_arch35, F16, [0x7BFF], [0x4200]) == [0x7C00]
    assert binary(hard_swish_grad_cann_arch35, BF16, [0x7F7F], [0x4040]) == [0x7F80]
    assert binary(hard_swish_grad_cann_arch35, F32, [0x7F7FFFFF], [0x40400000]) == [0x7F800000]


def test_arch35_below_minus_three_is_grad_times_zero() -> None:
    y = hard_swish_grad_cann_arch35(np.array([-2, 2, np.inf], np.float32),
                                    np.full(3, -4, np.float32))
    assert bits_of(y[:2]) == [0x80000000, 0] and np.isnan(y[2])


# endregion
# region NaN in x: what each formula returns (comparisons false, min/max propagate NaN)


NAN_X_RESULT: dict[str, tuple[dict[str, float], str]] = {
    # op: (attributes, result for grad = -1.5 / x = NaN: "nan", "grad", "+0" or "grad*slope")
    "hard_swish": ({}, "nan"),
    "hard_swish_grad": ({}, "grad"),
    "hard_sigmoid": ({"alpha": 0.2, "beta": 0.5}, "nan"),
    "hard_sigmoid_grad": ({"alpha": 0.2, "beta": 0.5}, "+0"),
    "hardtanh": ({"min_val": -1, "max_val": 1}, "nan"),
    "hardtanh_grad": ({"min_val": -1, "max_val": 1}, "grad"),
    "leaky_relu": ({"negative_slope": 0.5}, "nan"),
    "leaky_relu_grad": ({"negative_slope": 0.5}, "grad*slope"),
    "threshold": ({"threshold": 0, "value": 2}, "nan"),
    "threshold_grad": ({"threshold": 0}, "grad"),
    "hard_shrink": ({"lambd": 0.5}, "nan"),
    "hard_shrink_grad": ({"lambd": 0.5}, "grad"),
    "softshrink": ({"lambd": 0.5, "bias": 0.25}, "+0"),
    "softshrink_grad": ({"lambd": 0.5}, "grad"),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(("op", "semantics"), sorted(OP_REFERENCES))
def test_nan_x(op: str, semantics: str, dtype: np.dtype) -> None:
    attrs, want = NAN_X_RESULT[op]
    x = from_bits([NAN[str(dtype)], NAN[str(dtype)] | SIGN[str(dtype)]], dtype)
    g = np.full(2, -1.5, dtype)
    fn = OP_REFERENCES[(op, semantics)]
    y = fn(g, x, **attrs) if op.endswith("_grad") else fn(x, **attrs)
    expected = {
        "nan": np.full(2, np.nan, dtype),
        "grad": g,
        "+0": np.zeros(2, dtype),
        "grad*slope": np.full(2, -0.75, dtype),
    }[want]
    assert compare_bitwise(y, expected).equal, (op, semantics)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(("alpha", "beta", "x", "want"), [
    (0.2, 0.5, [-3.0, -2.5, 0.0, 1.0, 2.5, 3.0], [0.0, 0.0, 0.5, 0.7, 1.0, 1.0]),
    (-0.5, 0.5, [-3.0, -1.0, 0.0, 0.5, 1.0, 3.0], [1.0, 1.0, 0.5, 0.25, 0.0, 0.0]),
])
def test_hard_sigmoid_alpha_beta(alpha: float, beta: float, x: list[float], want: list[float],
                                 dtype: np.dtype) -> None:
    """ONNX's HardSigmoid, clamp(alpha x + beta, 0, 1), by hand; a negative alpha falls."""
    y = hard_sigmoid_torch(np.array(x, dtype), alpha, beta)
    assert compare_bitwise(y, np.array(want, np.float32).astype(dtype)).equal, y


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_hard_sigmoid_grad_alpha_beta(dtype: np.dtype) -> None:
    """grad * alpha inside 0 < alpha x + beta < 1 (x in (-2.5, 2.5) for 0.2, 0.5), else +0;
    the ends give +0 as PyTorch's -3 and 3 do."""
    x = np.array([-3.0, -2.5, -2.0, 0.0, 2.0, 2.5, 3.0], dtype)
    g = np.full(7, 2.0, dtype)
    y = hard_sigmoid_grad_torch(g, x, 0.25, 0.5)  # ends -2 and 2
    want = np.array([0, 0, 0, 0.5, 0, 0, 0], np.float32).astype(dtype)
    assert compare_bitwise(y, want).equal, y
    y = hard_sigmoid_grad_torch(g, x, 0.2, 0.5)
    want = np.where(np.abs(x.astype(np.float32)) < 2.5, np.float32(2.0) * np.float32(0.2),
                    0).astype(np.float32).astype(dtype)
    assert compare_bitwise(y, want).equal, y


def test_hard_sigmoid_refuses_a_zero_alpha() -> None:
    with pytest.raises(ValueError, match=r"alpha = 0\.0 is below the smallest normal f32"):
        hard_sigmoid_torch(np.zeros(2, np.float32), 0.0, 0.5)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_softshrink_bias(dtype: np.dtype) -> None:
    """ONNX Shrink (lambd 0.5, bias 0 and 0.25) by hand; without bias, lambd shifts."""
    x = np.array([-1.0, -0.5, 0.25, 0.5, 1.0], dtype)
    for bias, want in ((0.0, [-1.0, 0, 0, 0, 1.0]), (0.25, [-0.75, 0, 0, 0, 0.75]),
                       (None, [-0.5, 0, 0, 0, 0.5])):
        y = softshrink_torch(x, 0.5, bias)
        assert compare_bitwise(y, np.array(want, np.float32).astype(dtype)).equal, (bias, y)


# endregion
# region the registry, signatures, operand and attribute checks


def test_registry_entries() -> None:
    ops = {op for op, _ in OP_REFERENCES}
    assert ops == set(NAN_X_RESULT)
    assert all((op, "torch") in OP_REFERENCES for op in ops)
    assert {s for op, s in OP_REFERENCES if op == "hard_swish_grad"} == {
        "torch", "cann", "cann-arch35"}
    assert len(OP_REFERENCES) == len(ops) + 2
    assert REFERENCES == {
        "cann": hard_swish_grad_cann,
        "cann-arch35": hard_swish_grad_cann_arch35,
        "torch": hard_swish_grad_torch,
    }
    for name, fn in REFERENCES.items():
        assert OP_REFERENCES[("hard_swish_grad", name)] is fn


@pytest.mark.parametrize(("op", "semantics"), sorted(OP_REFERENCES))
def test_signatures(op: str, semantics: str) -> None:
    """Inputs first (grad then x), then the attributes, named as in FAMILY.md."""
    params = list(inspect.signature(OP_REFERENCES[(op, semantics)]).parameters)
    inputs = ["grad", "x"] if op.endswith("_grad") else ["x"]
    assert params[: len(inputs)] == inputs
    assert params[len(inputs):] == list(NAN_X_RESULT[op][0])


def _call(op: str, semantics: str, dtype_g: np.dtype, dtype_x: np.dtype,
          shape_g: tuple[int, ...] = (2,), shape_x: tuple[int, ...] = (2,),
          **override: object) -> np.ndarray:
    fn = OP_REFERENCES[(op, semantics)]
    attrs = {**NAN_X_RESULT[op][0], **override}
    if op.endswith("_grad"):
        return fn(np.ones(shape_g, dtype_g), np.ones(shape_x, dtype_x), **attrs)
    return fn(np.ones(shape_x, dtype_x), **attrs)


@pytest.mark.parametrize(("op", "semantics"), sorted(OP_REFERENCES))
def test_operand_checks(op: str, semantics: str) -> None:
    with pytest.raises(ValueError, match=rf"^{op}: unsupported dtype float64"):
        _call(op, semantics, np.dtype(np.float64), np.dtype(np.float64))
    with pytest.raises(ValueError, match=rf"^{op}: unsupported dtype int32"):
        _call(op, semantics, np.dtype(np.int32), np.dtype(np.int32))
    if op.endswith("_grad"):
        with pytest.raises(ValueError, match=rf"^{op}: grad and x differ in dtype: float32 vs "
                                             "float16"):
            _call(op, semantics, F32, F16)
        with pytest.raises(ValueError, match=rf"^{op}: grad and x differ in shape: \(2,\) vs "
                                             r"\(3,\)"):
            _call(op, semantics, F32, F32, shape_x=(3,))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (2, 3, 4)])
@pytest.mark.parametrize(("op", "semantics"), sorted(OP_REFERENCES))
def test_shapes_and_dtypes_kept(op: str, semantics: str, dtype: np.dtype,
                                shape: tuple[int, ...]) -> None:
    y = _call(op, semantics, dtype, dtype, shape, shape)
    assert isinstance(y, np.ndarray) and y.dtype == dtype and y.shape == shape


ATTRIBUTE_OPS = sorted(op for op, _ in OP_REFERENCES if NAN_X_RESULT[op][0])


@pytest.mark.parametrize("op", ATTRIBUTE_OPS)
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (float("nan"), "must be finite, got nan"),
        (float("inf"), "must be finite, got inf"),
        (-float("inf"), "must be finite, got -inf"),
        (1e39, r"= 1e\+39 is outside the float32 range"),
        (10**400, "must be finite"),
        (True, "must be a real number, got True"),
        ("0.5", "must be a real number, got '0.5'"),
        (None, "must be a real number, got None"),
        (np.array([0.5]), "must be a real number"),
    ],
    ids=["nan", "inf", "-inf", "f32-overflow", "huge-int", "bool", "str", "none", "array"],
)
def test_bad_attributes_are_refused(op: str, bad: object, message: str) -> None:
    for name in NAN_X_RESULT[op][0]:
        if bad is None and name == "bias":  # softshrink's bias left out: lambd
            continue
        with pytest.raises(ValueError, match=rf"^{op}: attribute {name} {message}"):
            _call(op, "torch", F32, F32, **{name: bad})


@pytest.mark.parametrize("op", ["hardtanh", "hardtanh_grad"])
def test_hardtanh_min_greater_than_max_is_refused(op: str) -> None:
    with pytest.raises(ValueError, match=rf"^{op}: min_val \(2.0\) is greater than max_val "
                                         r"\(1.0\)"):
        _call(op, "torch", F32, F32, min_val=2.0, max_val=1.0)
    _call(op, "torch", F32, F32, min_val=1.0, max_val=1.0)


def test_hardtanh_bounds_beyond_f16() -> None:
    # The forward refuses (PyTorch converts its bounds to the dtype); the backward compares in
    # f32 and takes them.
    with pytest.raises(ValueError, match=r"hardtanh: attribute min_val = -70000\.0 is outside"):
        hardtanh_torch(np.zeros(1, np.float16), min_val=-70000.0, max_val=70000.0)
    g = np.ones(1, np.float16)
    assert bits_of(hardtanh_grad_torch(g, g, min_val=-70000.0, max_val=70000.0)) == [0x3C00]
    assert bits_of(hardtanh_torch(np.ones(1, ml_dtypes.bfloat16), min_val=-70000.0,
                                  max_val=70000.0)) == [0x3F80]


def test_attributes_are_rounded_from_the_double_once() -> None:
    """An int, a numpy float64 and a float16 scalar are numbers like a Python float."""
    x = from_bits([0x3DCCCCCD], F32)
    g = np.ones(1, np.float32)
    for t in (0.1, np.float64(0.1)):
        assert bits_of(threshold_grad_torch(g, x, threshold=t)) == [0]
    # np.float16(0.7) is 0.70019531 exactly, above 0x3F333334.
    assert bits_of(threshold_grad_torch(g, from_bits([0x3F333334], F32),
                                        threshold=np.float16(0.7))) == [0]
    assert bits_of(leaky_relu_torch(np.array([-2], np.float32), negative_slope=1)) == [0xC0000000]


def test_no_numpy_warnings() -> None:
    x = np.array([-np.inf, -3, np.nan, 2.5, np.inf, -0.0], np.float16)
    g = np.array([np.inf, np.nan, np.inf, 65504, -np.inf, 0], np.float16)
    with np.errstate(all="raise"):
        for (op, semantics), fn in OP_REFERENCES.items():
            attrs = NAN_X_RESULT[op][0]
            _ = fn(g, x, **attrs) if op.endswith("_grad") else fn(x, **attrs)
            assert semantics


# endregion
# region properties


SPECIAL = {
    "float16": [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x4200, 0xC200, 0x7BFF, 0x0001, 0x399A],
    "bfloat16": [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x4040, 0xC040, 0x7F7F, 0x0001, 0x3F33],
    "float32": [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x40400000, 0xC0400000,
                0x00000001, 0x3F333333],
}


@st.composite
def operands(draw: st.DrawFn, dtypes: list[np.dtype] = DTYPES) -> tuple[np.ndarray, np.ndarray]:
    dtype = draw(st.sampled_from(dtypes))
    uint = UINT[dtype.itemsize]
    elems = st.one_of(st.sampled_from(SPECIAL[str(dtype)]),
                      st.integers(0, int(np.iinfo(uint).max)))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=8))
    g = draw(hnp.arrays(uint, shape, elements=elems)).view(dtype)
    x = draw(hnp.arrays(uint, shape, elements=elems)).view(dtype)
    return g, x


small_floats = st.floats(-8, 8, allow_nan=False, allow_infinity=False)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return compare_bitwise(a, b).equal


def _f32(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float32)


def _rounded(v: float, dtype: np.dtype) -> float:
    return float(np.float32(v).astype(dtype))


@settings(max_examples=100, deadline=None)
@given(operands(), small_floats, small_floats)
def test_property_hardtanh_lies_within_the_rounded_bounds(
    ops: tuple[np.ndarray, np.ndarray], a: float, b: float
) -> None:
    g, x = ops
    lo, hi = min(a, b), max(a, b)
    y = _f32(hardtanh_torch(x, min_val=lo, max_val=hi))
    ok = ~np.isnan(_f32(x))
    assert np.all(y[ok] >= _rounded(lo, x.dtype)) and np.all(y[ok] <= _rounded(hi, x.dtype))
    # Where the backward passes grad, the forward is the identity.
    passed = hardtanh_grad_torch(np.ones_like(g), x, min_val=lo, max_val=hi) != 0
    assert _same(hardtanh_torch(x, min_val=lo, max_val=hi)[passed & ok], x[passed & ok])


@settings(max_examples=100, deadline=None)
@given(operands())
def test_property_relu_is_threshold_zero(ops: tuple[np.ndarray, np.ndarray]) -> None:
    g, x = ops
    y = threshold_torch(x, threshold=0, value=0)
    ok = ~np.isnan(_f32(x))
    assert np.array_equal(_f32(y)[ok], np.maximum(_f32(x), 0)[ok])
    assert not np.any(np.signbit(_f32(y)[ok]))
    # relu's backward: grad where x > 0, else +0, i.e. hardtanh_grad with no upper bound.
    big = float(ml_dtypes.finfo(np.float32).max)
    t = threshold_grad_torch(g, x, threshold=0)
    ht = hardtanh_grad_torch(g, x, min_val=0, max_val=big)
    finite = np.isfinite(_f32(x))
    assert _same(t[finite], ht[finite])


@settings(max_examples=100, deadline=None)
@given(operands())
def test_property_leaky_relu_with_slope_one_is_identity(ops: tuple[np.ndarray, np.ndarray]) -> None:
    g, x = ops
    assert _same(leaky_relu_torch(x, negative_slope=1), x)
    assert _same(leaky_relu_grad_torch(g, x, negative_slope=1), g)


@settings(max_examples=100, deadline=None)
@given(operands(dtypes=[F16, BF16]))
def test_property_hard_swish_and_sigmoid_outside_the_ramp(
    ops: tuple[np.ndarray, np.ndarray],
) -> None:
    """x >= 3: hard_swish is x (x*6/6 is exact in f32 for 11-bit mantissas, unless x*6
    overflows f32), hard_sigmoid 1; finite x <= -3: -0 and +0. hard_sigmoid lies in [0, 1]."""
    _, x = ops
    xf = _f32(x)
    hs, sig = hard_swish_torch(x), hard_sigmoid_torch(x)
    hi, lo = xf >= 3, (xf <= -3) & np.isfinite(xf)
    exact = hi & ((xf < 2.0**125) | (xf == np.inf))
    assert _same(hs[exact], x[exact]) and np.all(_f32(sig[hi]) == 1)
    assert _same(hs[lo], np.full(lo.sum(), -0.0, x.dtype))
    assert _same(sig[lo], np.zeros(lo.sum(), x.dtype))
    ok = ~np.isnan(xf)
    assert np.all((_f32(sig)[ok] >= 0) & (_f32(sig)[ok] <= 1))


@settings(max_examples=100, deadline=None)
@given(operands(), st.floats(0, 8))
def test_property_shrinks(ops: tuple[np.ndarray, np.ndarray], lambd: float) -> None:
    g, x = ops
    xf = _f32(x)
    hs = hard_shrink_torch(x, lambd=lambd)
    zero = _f32(hs) == 0
    assert _same(hs[~zero], x[~zero])  # x or +0
    assert not np.any(np.signbit(_f32(hs)[zero]))
    ss = _f32(softshrink_torch(x, lambd=lambd))
    ok = ~np.isnan(xf)
    assert np.all(np.abs(ss[ok]) <= np.abs(xf[ok]))
    assert np.all((np.sign(ss[ok]) == np.sign(xf[ok])) | (ss[ok] == 0))
    # The two backward ops are one formula, and zero where hard_shrink zeroes a nonzero x.
    hard, soft = hard_shrink_grad_torch(g, x, lambd=lambd), softshrink_grad_torch(g, x, lambd=lambd)
    assert _same(hard, soft)


@settings(max_examples=100, deadline=None)
@given(operands(), small_floats)
def test_property_arch35_equals_cann_away_from_three(
    ops: tuple[np.ndarray, np.ndarray], _: float
) -> None:
    g, x = ops
    away = np.abs(_f32(x)) != 3
    assert _same(hard_swish_grad_cann_arch35(g, x)[away], hard_swish_grad_cann(g, x)[away])


ATTRS_FOR = {
    "hardtanh": lambda a, b: {"min_val": min(a, b), "max_val": max(a, b)},
    "hardtanh_grad": lambda a, b: {"min_val": min(a, b), "max_val": max(a, b)},
    "leaky_relu": lambda a, b: {"negative_slope": a},
    "leaky_relu_grad": lambda a, b: {"negative_slope": a},
    "threshold": lambda a, b: {"threshold": a, "value": b},
    "threshold_grad": lambda a, b: {"threshold": a},
    "hard_shrink": lambda a, b: {"lambd": abs(a)},
    "hard_shrink_grad": lambda a, b: {"lambd": abs(a)},
    "softshrink": lambda a, b: {"lambd": abs(a)},
    "softshrink_grad": lambda a, b: {"lambd": abs(a)},
}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(OP_REFERENCES)), operands(dtypes=[F16, BF16]), small_floats,
       small_floats)
def test_property_reduced_dtypes_are_the_f32_model_rounded_once(
    key: tuple[str, str], ops: tuple[np.ndarray, np.ndarray], a: float, b: float
) -> None:
    """f16/bf16 results are the f32 model's on the widened inputs, rounded once (RNE). The
    shrink ops' lambd is the one attribute rounded to the dtype first."""
    op, _ = key
    g, x = ops
    fn = OP_REFERENCES[key]
    attrs = ATTRS_FOR.get(op, lambda a, b: {})(a, b)
    wide = {k: _rounded(v, x.dtype) if k == "lambd" else v for k, v in attrs.items()}
    if op.endswith("_grad"):
        y, y32 = fn(g, x, **attrs), fn(_f32(g), _f32(x), **wide)
    else:
        y, y32 = fn(x, **attrs), fn(_f32(x), **wide)
    with np.errstate(all="ignore"):
        assert _same(y, y32.astype(x.dtype))


# endregion


@pytest.mark.parametrize(("dtype", "vector"), [(np.float32, 16), (np.float16, 32),
                                               (ml_dtypes.bfloat16, 32)])
def test_torch_softshrink_disagrees_with_itself(dtype: np.dtype, vector: int) -> None:
    # Issue 20: for a negative x with |x| <= lambd PyTorch's vectorised loop gives +0 and its
    # scalar loop -0 (short tensors, the n % vector tail, strided tensors); hswc's reference
    # is the vectorised loop's everywhere. Run where torch is installed (never needed by CI).
    torch = pytest.importorskip("torch")
    torch_dtype = {np.float32: torch.float32, np.float16: torch.float16,
                   ml_dtypes.bfloat16: torch.bfloat16}[dtype]
    n = 2 * vector + 3
    x = torch.full((n,), -0.25, dtype=torch_dtype)
    y = torch.nn.functional.softshrink(x, 0.5).float().numpy()
    assert not np.signbit(y[: 2 * vector]).any() and np.signbit(y[2 * vector:]).all()
    short = torch.nn.functional.softshrink(x[:3], 0.5).float().numpy()
    strided = torch.nn.functional.softshrink(torch.full((4 * vector,), -0.25,
                                                        dtype=torch_dtype)[::2], 0.5)
    assert np.signbit(short).all() and np.signbit(strided.float().numpy()).all()
    ours = _f32(softshrink_torch(np.full(n, -0.25, dtype), lambd=0.5))
    assert np.all(ours == 0) and not np.signbit(ours).any()
