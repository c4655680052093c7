"""The golden models against values derived by hand, and their defining properties."""

from __future__ import annotations

import struct

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hswc.reference import (
    ONE_THIRD_F32,
    REFERENCES,
    Comparison,
    Difference,
    compare_bitwise,
    hard_swish_grad_cann,
    hard_swish_grad_torch,
)

BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.dtype(np.float16), np.dtype(np.float32), BF16]
UINT = {2: np.uint16, 4: np.uint32}


def f32_bits(v: float | np.floating) -> int:
    return struct.unpack("<I", struct.pack("<f", float(v)))[0]


def from_bits(bits: list[int], dtype: np.dtype) -> np.ndarray:
    return np.array(bits, dtype=UINT[dtype.itemsize]).view(dtype)


def bits_of(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a).view(UINT[a.dtype.itemsize]).ravel()]


# region SPEC section 7 example


def test_one_third_constant_is_0x3eaaaaab() -> None:
    assert f32_bits(ONE_THIRD_F32) == 0x3EAAAAAB
    # 0x3EAAAAAB = 0xAAAAAB * 2^-25, slightly above 1/3.
    assert float(ONE_THIRD_F32) == 0xAAAAAB / 2**25 > 1 / 3


def test_spec_example_steps_by_hand() -> None:
    """The middle entries of the SPEC example, one f32 rounding at a time.

    c = 0xAAAAAB * 2^-25.
    x=-2: -2c = -0xAAAAAB*2^-24 exact; +0.5 = -0x2AAAAB*2^-24 exact; *3 = -(2^23+1)*2^-24 exact
          = -(0.5 + 2^-24) -> 0xBF000001.
    x=-1: -c exact; +0.5 = 0x555555*2^-25 exact; *-4 = -0x555555*2^-23 exact -> 0xBF2AAAAA.
    x=0:  0.5 * 5 = 2.5 -> 0x40200000.
    x=1:  c + 0.5 = 0x1AAAAAB*2^-25 needs 25 bits, a tie -> even 0x1AAAAAC*2^-25;
          *-6 = -0x5000004*2^-24 needs 25 bits after normalising, a tie -> even: -5.0.
    x=2:  2c + 0.5 = 0x12AAAAB*2^-24, a tie -> 0x12AAAAC*2^-24 = 9786710*2^-23;
          *7 = 68506970*2^-23 -> /8 = 8563371.25 -> 8563371*2^-20 -> 0x4102AAAB.
    """
    f = np.float32
    c = f(struct.unpack("<f", struct.pack("<I", 0x3EAAAAAB))[0])
    steps = {
        -2.0: (3.0, 0xBF000001),
        -1.0: (-4.0, 0xBF2AAAAA),
        0.0: (5.0, 0x40200000),
        1.0: (-6.0, 0xC0A00000),
        2.0: (7.0, 0x4102AAAB),
    }
    for x, (g, want) in steps.items():
        s = f(f(x) * c)
        s = f(s + f(0.5))
        assert f32_bits(f(f(g) * s)) == want, x


def test_spec_example_cann() -> None:
    x = np.array([-4, -3, -2, -1, 0, 1, 2, 3, 4], np.float32)
    g = np.array([1, 2, 3, -4, 5, -6, 7, 8, -9], np.float32)
    y = hard_swish_grad_cann(g, x)
    assert y.dtype == np.float32 and y.shape == (9,)
    assert bits_of(y) == [
        0x00000000,  # 1 * 0
        0x00000000,  # 2 * 0 (x = -3 selects 0)
        0xBF000001,  # -0.50000006
        0xBF2AAAAA,  # -0.6666666
        0x40200000,  # 2.5
        0xC0A00000,  # -5
        0x4102AAAB,  # 8.166667
        0x41000000,  # 8 (x = 3 selects 1)
        0xC1100000,  # -9
    ]
    # The example's own tolerance check, for completeness.
    expect = np.array([0, 0, -0.50000006, -0.6666666, 2.5, -5, 8.166667, 8, -9], np.float32)
    assert np.all(np.abs(y - expect) <= 1e-5 + 1e-5 * np.abs(expect))


# endregion
# region the range boundaries, in each dtype's own spacing


# x = [below 3, 3, above 3, above -3, -3, below -3] (one ulp steps), grad = -2 everywhere.
BOUNDARY_X = {
    "float32": [0x403FFFFF, 0x40400000, 0x40400001, 0xC03FFFFF, 0xC0400000, 0xC0400001],
    "float16": [0x41FF, 0x4200, 0x4201, 0xC1FF, 0xC200, 0xC201],
    "bfloat16": [0x403F, 0x4040, 0x4041, 0xC03F, 0xC040, 0xC041],
}
BOUNDARY_CANN = {
    # below 3: s = fl(fl((3 - 2^-22) c) + 0.5) = fl(1 - 2^-24 + 0.5) = 1.5 (a tie, even), y = -3.
    # above -3: s = fl(-(1 - 2^-24) + 0.5) = -0.5 + 2^-24 (exact); times -2: 1 - 2^-23.
    "float32": [0xC0400000, 0xC0000000, 0xC0000000, 0x3F7FFFFE, 0x80000000, 0x80000000],
    # below 3: 2.998046875 -> s ~ 1.499349 -> y ~ -2.998698 -> RNE f16 -2.998046875.
    "float16": [0xC1FF, 0xC000, 0xC000, 0x3BFD, 0x8000, 0x8000],
    "bfloat16": [0xC03F, 0xC000, 0xC000, 0x3F7D, 0x8000, 0x8000],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_boundaries_cann(dtype: np.dtype) -> None:
    x = from_bits(BOUNDARY_X[str(dtype)], dtype)
    g = np.full(6, -2, dtype)
    assert bits_of(hard_swish_grad_cann(g, x)) == BOUNDARY_CANN[str(dtype)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_boundaries_torch(dtype: np.dtype) -> None:
    """Same as the kernel except x <= -3: PyTorch returns the constant +0.0."""
    x = from_bits(BOUNDARY_X[str(dtype)], dtype)
    g = np.full(6, -2, dtype)
    want = [*BOUNDARY_CANN[str(dtype)][:4], 0, 0]
    assert bits_of(hard_swish_grad_torch(g, x)) == want


def test_neighbours_of_three_come_from_nextafter() -> None:
    """The bit patterns above are the one-ulp neighbours (f16/f32 via nextafter)."""
    for dtype in (np.float16, np.float32):
        t = dtype(3)
        got = [np.nextafter(t, dtype(0)), t, np.nextafter(t, dtype(4))]
        got += [np.nextafter(-t, dtype(0)), -t, np.nextafter(-t, dtype(-4))]
        assert bits_of(np.array(got, dtype)) == BOUNDARY_X[np.dtype(dtype).name]


# endregion
# region special values


def test_minus_three_gives_grad_times_zero() -> None:
    x = np.full(5, -3, np.float32)
    g = np.array([-2, 2, np.inf, -np.inf, np.nan], np.float32)
    y = hard_swish_grad_cann(g, x)
    assert bits_of(y[:2]) == [0x80000000, 0x00000000]  # -0.0 for a negative grad
    assert np.isnan(y[2:]).all()  # inf * 0 and NaN * 0
    t = hard_swish_grad_torch(g, x)
    assert bits_of(t) == [0] * 5  # PyTorch: a constant +0.0


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_nan_and_inf_in_x(dtype: np.dtype) -> None:
    x = np.array([np.nan, np.inf, -np.inf, -np.inf, -np.inf], dtype)
    g = np.array([-1.5, -1.5, -1.5, 1.5, np.inf], dtype)
    y = hard_swish_grad_cann(g, x)
    one5 = bits_of(np.array([-1.5], dtype))[0]
    sign = 0x80000000 if dtype.itemsize == 4 else 0x8000
    # NaN: both compares false, the second select picks 1 -> grad; +inf -> grad; -inf -> grad*0.
    assert bits_of(y[:4]) == [one5, one5, sign, 0]
    assert np.isnan(y[4])
    t = hard_swish_grad_torch(g, x)
    assert bits_of(t) == [one5, one5, 0, 0, 0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_nan_and_inf_in_grad(dtype: np.dtype) -> None:
    x = np.array([0, 1, 5, -5, 0], dtype)
    g = np.array([np.nan, np.inf, -np.inf, 1, -np.inf], dtype)
    y = hard_swish_grad_cann(g, x)
    assert np.isnan(y[0])
    assert y[1] == np.inf and y[2] == -np.inf and y[4] == -np.inf
    assert bits_of(y[3:4]) == [0]


def test_f16_overflow_to_inf() -> None:
    # x = 2.5: s = fl(fl(2.5c) + 0.5) = 1.3333334; 65504 * 1.3333334 = 87338.7 > 65520 -> inf.
    x = np.array([2.5, 2.5, 3.0], np.float16)
    g = np.array([65504, -65504, 65504], np.float16)
    y = hard_swish_grad_cann(g, x)
    assert bits_of(y) == [0x7C00, 0xFC00, 0x7BFF]


def test_cann_and_torch_differ_by_one_ulp_of_the_slope() -> None:
    """x = 25/64: x*0x3EAAAAAB and x/3 round to neighbouring f32 values.

    x*c = 25*0xAAAAAB*2^-31 = 279620275*2^-31 -> /32 = 8738133.59 -> 0x855556*2^-26 (0x3E055556)
    x/3 = 25/192 = 8738133.33*2^-26 -> 0x855555*2^-26 (0x3E055555)
    +0.5: (2^25 + 0x855556)/4 = 10573141.5, tie -> 10573142 = 0xA15556 -> 0x3F215556
          (2^25 + 0x855555)/4 = 10573141.25 -> 10573141 = 0xA15555 -> 0x3F215555
    """
    x = np.array([0.390625], np.float32)
    g = np.ones(1, np.float32)
    assert bits_of(hard_swish_grad_cann(g, x)) == [0x3F215556]
    assert bits_of(hard_swish_grad_torch(g, x)) == [0x3F215555]
    cmp = compare_bitwise(hard_swish_grad_cann(g, x), hard_swish_grad_torch(g, x))
    assert cmp.mismatches == 1 and cmp.max_ulp_error == 1


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (2, 3, 4)])
def test_shapes(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    g = np.ones(shape, dtype)
    x = np.full(shape, 4, dtype)
    for model in REFERENCES.values():
        y = model(g, x)
        assert isinstance(y, np.ndarray) and y.dtype == dtype and y.shape == shape
        assert bits_of(y) == bits_of(g)


def test_no_numpy_warnings() -> None:
    x = np.array([-np.inf, -3, np.nan, 2.5, np.inf], np.float16)
    g = np.array([np.inf, np.nan, np.inf, 65504, -np.inf], np.float16)
    with np.errstate(all="raise"):
        for model in REFERENCES.values():
            model(g, x)


def test_rejects_mismatched_operands() -> None:
    with pytest.raises(ValueError, match="dtype"):
        hard_swish_grad_cann(np.ones(2, np.float32), np.ones(2, np.float16))
    with pytest.raises(ValueError, match="shape"):
        hard_swish_grad_cann(np.ones(2, np.float32), np.ones(3, np.float32))
    with pytest.raises(ValueError, match="unsupported"):
        hard_swish_grad_torch(np.ones(2, np.float64), np.ones(2, np.float64))


# endregion
# region compare_bitwise


def test_compare_equal_including_nan_payloads() -> None:
    a = from_bits([0x7FC00000, 0x3F800000, 0x7F800001], np.dtype(np.float32))
    b = from_bits([0xFFC00001, 0x3F800000, 0x7FC00000], np.dtype(np.float32))
    cmp = compare_bitwise(a, b)
    assert cmp.equal and cmp.mismatches == 0 and cmp.first_index is None
    assert "bit-exact" in cmp.summary()


def test_compare_reports_first_index_abs_and_ulp() -> None:
    a = np.zeros((2, 3), np.float16)
    b = np.zeros((2, 3), np.float16)
    b[0, 2] = -0.0  # sign of zero: a mismatch of 0 ulp
    a[1, 1] = 1.0
    b[1, 1] = np.nextafter(np.float16(1), np.float16(0))  # 1 ulp below (2 ulp counted from +)
    a[1, 2] = np.nan  # NaN against a number: counted apart, left out of abs and ulp
    cmp = compare_bitwise(a, b)
    assert isinstance(cmp, Comparison)
    assert cmp.mismatches == 3
    assert cmp.first_index == (0, 2)
    assert (cmp.first_actual_bits, cmp.first_expected_bits) == (0x0000, 0x8000)
    assert cmp.values == Difference(1, (1, 1), 0x3C00, 0x3BFF)
    assert cmp.zero_signs == Difference(1, (0, 2), 0x0000, 0x8000)
    assert cmp.nans == Difference(1, (1, 2), 0x7E00, 0x0000)
    assert cmp.max_abs_error == 2.0**-11  # 1.0 against 1 - 2^-11, the only value mismatch
    assert cmp.max_ulp_error == 1
    text = cmp.summary()
    assert "3 of 6" in text and "first difference at index (0, 2)" in text
    assert "values differ:        1, first at index (1, 1)" in text
    assert "signs of zero differ: 1, first at index (0, 2)" in text
    assert "NaN against a number: 1, first at index (1, 2)" in text


def test_compare_sign_of_zero_alone_claims_no_ulp_error() -> None:
    a = np.array([0.0, 1.0, -0.0], np.float32)
    b = np.array([-0.0, 1.0, -0.0], np.float32)
    cmp = compare_bitwise(a, b)
    assert (cmp.mismatches, cmp.zero_signs.count, cmp.values.count, cmp.nans.count) == (1, 1, 0, 0)
    text = cmp.summary()
    assert "values differ:        0\n" in text and "ulp" not in text


def test_compare_counts_nan_against_number_both_ways() -> None:
    a = np.array([np.nan, 2.0, np.nan, 5.0], np.float16)
    b = np.array([1.0, np.nan, np.nan, 5.0], np.float16)
    cmp = compare_bitwise(a, b)
    assert cmp.nans.count == 2 and cmp.nans.first_index == (0,)
    assert cmp.values.count == 0 and cmp.max_abs_error == 0.0


def test_compare_ulp_across_zero_and_bf16() -> None:
    a = from_bits([0x0001, 0x3F80], BF16)  # +min subnormal, 1.0
    b = from_bits([0x8001, 0x3F82], BF16)  # -min subnormal, 1.0 + 2 ulp
    cmp = compare_bitwise(a, b)
    assert cmp.mismatches == 2 and cmp.max_ulp_error == 2
    assert cmp.max_abs_error == pytest.approx(2 * 2.0**-7)


def test_compare_rejects_shape_or_dtype_mismatch() -> None:
    with pytest.raises(ValueError, match="shapes"):
        compare_bitwise(np.zeros(2, np.float32), np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="dtypes"):
        compare_bitwise(np.zeros(2, np.float32), np.zeros(2, np.float16))


def test_compare_zero_d() -> None:
    cmp = compare_bitwise(np.array(1.0, np.float32), np.array(2.0, np.float32))
    assert cmp.first_index == () and cmp.max_abs_error == 1.0


# endregion
# region properties


SPECIAL = {
    2: [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x4200, 0xC200, 0x7BFF, 0x0001],
    4: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x40400000, 0xC0400000, 0x00000001],
}
BF16_SPECIAL = [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x4040, 0xC040, 0x7F7F, 0x0001]


@st.composite
def operands(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    dtype = draw(st.sampled_from(DTYPES))
    uint = UINT[dtype.itemsize]
    special = BF16_SPECIAL if dtype == BF16 else SPECIAL[dtype.itemsize]
    elems = st.one_of(st.sampled_from(special), st.integers(0, int(np.iinfo(uint).max)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    g = draw(hnp.arrays(uint, shape, elements=elems)).view(dtype)
    x = draw(hnp.arrays(uint, shape, elements=elems)).view(dtype)
    return g, x


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return compare_bitwise(a, b).equal


@settings(max_examples=150, deadline=None)
@given(operands())
def test_property_dtype_shape_and_ranges(ops: tuple[np.ndarray, np.ndarray]) -> None:
    g, x = ops
    y = hard_swish_grad_cann(g, x)
    t = hard_swish_grad_torch(g, x)
    assert y.dtype == g.dtype and y.shape == g.shape
    assert t.dtype == g.dtype and t.shape == g.shape
    with np.errstate(all="ignore"):
        xf = x.astype(np.float32)
        grad_times_zero = (g.astype(np.float32) * np.float32(0)).astype(g.dtype)
    hi = xf >= 3
    lo = xf <= -3
    assert _same(y[hi], g[hi])  # x >= 3 -> grad, bit for bit
    assert _same(t[hi], g[hi])
    assert _same(y[lo], grad_times_zero[lo])  # x <= -3 -> grad * 0
    assert not np.any(t[lo].view(UINT[g.dtype.itemsize]))  # PyTorch: +0.0
    nan_x = np.isnan(xf)
    assert _same(y[nan_x], g[nan_x]) and _same(t[nan_x], g[nan_x])


@settings(max_examples=100, deadline=None)
@given(operands())
def test_property_torch_agrees_with_cann_outside_the_linear_range(
    ops: tuple[np.ndarray, np.ndarray],
) -> None:
    g, x = ops
    xf = x.astype(np.float32)
    y, t = hard_swish_grad_cann(g, x), hard_swish_grad_torch(g, x)
    hi = (xf >= 3) | np.isnan(xf)
    assert _same(y[hi], t[hi])
    # x <= -3 with a finite grad: the same value, only the sign of zero may differ.
    lo = (xf <= -3) & np.isfinite(g.astype(np.float32))
    assert np.all(y[lo].astype(np.float32) == t[lo].astype(np.float32))


@settings(max_examples=100, deadline=None)
@given(operands())
def test_property_wider_then_round_matches_f32_model(ops: tuple[np.ndarray, np.ndarray]) -> None:
    """f16/bf16 results are the f32 model's result rounded once (RNE) to the dtype."""
    g, x = ops
    y32 = hard_swish_grad_cann(g.astype(np.float32), x.astype(np.float32))
    with np.errstate(all="ignore"):
        assert _same(hard_swish_grad_cann(g, x), y32.astype(g.dtype))


# endregion


def test_tanh_gelu_golden_keeps_tiny_negative_results() -> None:
    """The tanh GeLU of very negative x is a tiny negative number, not -0: the golden must not
    compute 1 + tanh(w), which is 0 in float64 once tanh(w) rounds to -1 (w below about -19).
    Expected: mpmath at 200 digits (enough for 1 + tanh(w) of w = -71), rounded to f32."""
    import mpmath

    from hswc.reference import gelu_torch

    x = np.array([-7.0, -8.0, -10.0, -12.0, -1.0, 0.5, 3.0], np.float32)
    with mpmath.workdps(200):
        def exact(v: float) -> float:
            w = mpmath.sqrt(2 / mpmath.pi) * (v + mpmath.mpf(0.044715) * v ** 3)
            return float(mpmath.mpf(v) / 2 * (1 + mpmath.tanh(w)))
        want = np.array([exact(float(v)) for v in x]).astype(np.float32)
    got = gelu_torch(x, approximate="tanh")
    assert np.all(got[:3] < 0)  # -12's is below f32's smallest subnormal: -0
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
