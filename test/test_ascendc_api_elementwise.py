"""The elementwise AscendC calls of the API model (hswc.interpreter.ascendc_api) against
hand-worked bit patterns and an independent exact-rational rounding.

Arithmetic is checked against `exact_round`, which rounds a Fraction to a binary format by
counting quanta (no floating point involved): every result must be the correctly rounded
(nearest, ties to even) value, subnormals included. Max / Min follow IEEE 754-2019 maximum /
minimum, which the hardware is assumed to implement (see ascendc_api's interpretation
decisions); Abs clears the sign bit; the bitwise calls act on 16-bit patterns.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from exact_rounding import exact_round
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hswc.interpreter.ascendc_api import (
    ApiError,
    abs_,
    add,
    and_,
    compare_scalar,
    data_copy_ub_to_ub,
    div,
    duplicate,
    max_,
    maxs,
    min_,
    mins,
    mul,
    not_,
    or_,
    relu,
    sub,
)

F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
BF16 = np.dtype(ml_dtypes.bfloat16)
UINT = {2: np.uint16, 4: np.uint32}

Binary = Callable[[np.ndarray, np.ndarray, np.ndarray, int], None]


def from_bits(bits: list[int], dtype: np.dtype) -> np.ndarray:
    return np.array(bits, dtype=UINT[dtype.itemsize]).view(dtype)


def bits_of(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a).view(UINT[a.dtype.itemsize]).ravel()]


def sample(dtype: np.dtype, size: int, seed: int) -> np.ndarray:
    """Finite values of every magnitude: random bit patterns, subnormals and small integers."""
    rng = np.random.default_rng(seed)
    width = UINT[dtype.itemsize]
    raw = rng.integers(0, np.iinfo(width).max, size, dtype=np.uint64).astype(width).view(dtype)
    raw = raw[np.isfinite(raw)]
    subnormal = from_bits(list(rng.integers(1, 0x400, 64)), F16).astype(dtype)
    small = rng.integers(-40, 40, 64).astype(dtype)
    return np.concatenate([raw, subnormal, small])


# region Add, Sub, Mul, Div: one rounding, subnormals kept


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
@pytest.mark.parametrize(
    ("call", "exact"),
    [(add, lambda a, b: a + b), (sub, lambda a, b: a - b), (mul, lambda a, b: a * b),
     (div, lambda a, b: a / b)],
    ids=["Add", "Sub", "Mul", "Div"],
)
def test_arithmetic_is_correctly_rounded(
        dtype: np.dtype, call: Binary, exact: Callable[[Fraction, Fraction], Fraction]) -> None:
    """Against exact rationals: 1500+ operand pairs of every magnitude, subnormal results
    included (for f16 Div this checks that f64 division then one rounding is exact)."""
    a = sample(dtype, 1200, 1)
    b = np.random.default_rng(2).permutation(sample(dtype, 1200, 3))[: a.size]
    b = np.where(b == 0, dtype.type(1), b) if call is div else b
    out = np.zeros(a.size + 4, dtype)
    call(out, a, b, a.size)
    mismatch = []
    for x, y, got in zip(a, b, out[: a.size].astype(np.float64), strict=True):
        q = exact(Fraction(float(x)), Fraction(float(y)))
        want = exact_round(q, dtype)
        # The sign of a zero is the exact result's, except for an exact 0 (x - x, 0 * y),
        # which the rationals cannot sign; the IEEE cases of those are checked by hand below.
        same_sign = q == 0 or np.signbit(got) == np.signbit(want)
        if got != want or not same_sign:
            mismatch.append((float(x), float(y), float(got), want))
    assert not mismatch, mismatch[:5]
    assert out[a.size :].tolist() == [0] * 4  # past count: untouched


def test_f16_rounding_by_hand() -> None:
    """Ties to even, the division's rounding direction, subnormal results (no flush to zero)."""
    h = lambda *v: np.array(v, F16)  # noqa: E731
    out = np.zeros(4, F16)
    add(out, h(2048, 2048, 1, 2.0**-14), h(1, 3, -(2.0**-12), -(2.0**-24)), 4)
    # 2049: tie 2048|2050 -> 2048; 2051: tie 2050|2052 -> 2052 (even significand);
    # 1 - 2^-12: tie (1 - 2^-11)|1 -> 1; 2^-14 - 2^-24 = 1023 * 2^-24, the largest subnormal.
    assert bits_of(out) == [0x6800, 0x6802, 0x3C00, 0x03FF]
    div(out, h(1, 2, 2.0**-14, 3 * 2.0**-14), h(3, 3, 2048, 2048), 4)
    # 1/3 = 1.0101010101|0101.. x 2^-2 rounds down to 0x3555, 2/3 to 0x3955; 2^-25 is a tie
    # 0|2^-24 -> +0; 3 * 2^-25 is a tie 2^-24|2^-23 -> 2^-23 (0x0002).
    assert bits_of(out) == [0x3555, 0x3955, 0x0000, 0x0002]
    mul(out, h(2.0**-12, 3 * 2.0**-13, 300, -(2.0**-12)), h(2.0**-12, 2.0**-12, 300, 2.0**-13), 4)
    # 2^-24 exactly (the smallest subnormal); 3 * 2^-25 -> 0x0002; 90000 overflows; -2^-25 -> -0.
    assert bits_of(out) == [0x0001, 0x0002, 0x7C00, 0x8000]
    sub(out, h(0, -0.0, 0, 65504), h(0, 0, -0.0, -65504), 4)
    assert bits_of(out) == [0x0000, 0x8000, 0x0000, 0x7C00]  # +0, -0, +0, +inf


def test_ieee_specials_in_f32() -> None:
    f = lambda *v: np.array(v, F32)  # noqa: E731
    out = np.zeros(6, F32)
    div(out, f(1, 1, -1, 0, np.inf, 2.0**-70), f(0, -0.0, 0, 0, np.inf, 2.0**70), 6)
    assert out[:3].tolist() == [np.inf, -np.inf, -np.inf] and np.isnan(out[3:5]).all()
    assert bits_of(out[5:]) == [0x200]  # 2^-140 is the subnormal 2^9 * 2^-149
    add(out, f(np.inf, -0.0, 0, 1, 2.0**-149, 3e38), f(-np.inf, -0.0, -0.0, -1, 2.0**-149, 3e38), 6)
    assert np.isnan(out[0]) and bits_of(out[1:]) == [0x80000000, 0, 0, 2, 0x7F800000]
    mul(out, f(np.inf, -2.0**-75, 0, 0, 0, 0), f(0, 2.0**-75, 0, 0, 0, 0), 2)
    assert np.isnan(out[0]) and bits_of(out[1:2]) == [0x80000000]  # -2^-150: a tie -> -0


@pytest.mark.parametrize(
    ("dtype", "nan", "snan", "quieted"),
    [(F16, 0x7E00, 0x7D01, 0x7F01), (F32, 0x7FC00000, 0x7F800001, 0x7FC00001)],
    ids=["f16", "f32"],
)
def test_arithmetic_propagates_the_nan_operand(dtype: np.dtype, nan: int, snan: int,
                                                quieted: int) -> None:
    """A NaN operand comes out quieted, src0's when both are NaN (ascendc_api's decision)."""
    sign = 1 << (8 * dtype.itemsize - 1)
    one = bits_of(np.array([1], dtype))[0]
    a = from_bits([nan, one, nan | sign, snan], dtype)
    b = from_bits([nan | sign, nan | sign, nan, one], dtype)
    for call in (add, sub, mul, div):
        out = np.zeros(4, dtype)
        call(out, a, b, 4)
        assert bits_of(out) == [nan, nan | sign, nan | sign, quieted], call.__name__


# endregion
# region Max, Min, Maxs, Mins, Relu: IEEE 754-2019 maximum / minimum (an assumption)


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
def test_max_min_zeros_and_values(dtype: np.dtype) -> None:
    a = np.array([-0.0, 0.0, -0.0, 0.0, 1, -np.inf, 2.0**-24, 3], dtype)
    b = np.array([0.0, -0.0, -0.0, 0.0, 2, 1, 0, -np.inf], dtype)
    hi, lo = np.zeros(8, dtype), np.zeros(8, dtype)
    max_(hi, a, b, 8)
    min_(lo, a, b, 8)
    sign = 1 << (8 * dtype.itemsize - 1)
    assert bits_of(hi[:4]) == [0, 0, sign, 0]  # max(-0, +0) = max(+0, -0) = +0
    assert bits_of(lo[:4]) == [sign, sign, sign, 0]  # min(-0, +0) = min(+0, -0) = -0
    assert hi[4:].tolist() == [2, 1, dtype.type(2.0**-24), 3]  # the subnormal is not flushed
    assert lo[4:].tolist() == [1, -np.inf, 0, -np.inf]


@pytest.mark.parametrize(
    ("dtype", "nan", "snan", "quieted"),
    [(F16, 0x7E00, 0x7C01, 0x7E01), (F32, 0x7FC00000, 0x7F800001, 0x7FC00001)],
    ids=["f16", "f32"],
)
def test_max_min_nan(dtype: np.dtype, nan: int, snan: int, quieted: int) -> None:
    """A NaN operand gives a NaN whatever the other is: src0's when both are NaN, quieted."""
    one = bits_of(np.array([1], dtype))[0]
    negative_nan = nan | (1 << (8 * dtype.itemsize - 1))
    a = from_bits([nan, one, snan, negative_nan, nan], dtype)
    b = from_bits([one, snan, one, nan, negative_nan], dtype)
    for call in (max_, min_):
        out = np.zeros(5, dtype)
        call(out, a, b, 5)
        assert bits_of(out) == [nan, quieted, quieted, negative_nan, nan]


@pytest.mark.parametrize(
    ("dtype", "specials"),
    [(F16, [0x0000, 0x8000, 0x7E00, 0x7C01, 0xFE00, 0x7C00, 0xFC00, 0x0001]),
     (F32, [0, 1 << 31, 0x7FC00000, 0x7F800001, 0xFFC00000, 0x7F800000, 0xFF800000, 1])],
    ids=["f16", "f32"],
)
def test_in_place_equals_a_separate_dst(dtype: np.dtype, specials: list[int]) -> None:
    """dst = src0, dst = src1 (through a scratch) and a dst of its own (written directly) give
    the same bits, signed zeros and NaNs included."""
    values = sample(dtype, 4000, seed=8)
    pairs = [(x, y) for x in specials for y in specials]  # every pair of the specials
    a = np.concatenate([values, from_bits([x for x, _ in pairs], dtype)])
    b = np.concatenate([np.random.default_rng(7).permutation(values),
                        from_bits([y for _, y in pairs], dtype)])
    for call in (add, sub, mul, div, max_, min_):
        separate = np.zeros_like(a)
        call(separate, a, b, a.size)
        in_place = a.copy()
        call(in_place, in_place, b, a.size)
        assert bits_of(separate) == bits_of(in_place), call.__name__
        into_src1 = b.copy()
        call(into_src1, a, into_src1, a.size)
        assert bits_of(separate) == bits_of(into_src1), call.__name__


def test_maxs_mins_with_scalars() -> None:
    x = np.array([-1, 0.5, 7, -0.0, np.nan, 2.0**-24], F16)
    out = np.full(7, 9, F16)
    maxs(out, x, 0.0, 6)
    assert bits_of(out) == [0, 0x3800, 0x4700, 0, 0x7E00, 0x0001, 0x4880]  # last: untouched 9
    mins(out, x, 6.0, 6)
    assert bits_of(out[:6]) == [0xBC00, 0x3800, 0x4600, 0x8000, 0x7E00, 0x0001]
    maxs(out, x, -0.0, 4)  # max(-0, -0) = -0, max(-1, -0) = -0
    assert bits_of(out[:4]) == [0x8000, 0x3800, 0x4700, 0x8000]
    f = np.zeros(2, F32)
    mins(f, np.array([1, -np.inf], F32), float("nan"), 2)  # a NaN scalar: NaN everywhere
    assert np.isnan(f).all()
    maxs(f, np.array([1e-40, -3], F32), 1e-45, 2)  # subnormals compare as values
    assert bits_of(f) == [bits_of(np.array([1e-40], F32))[0], 1]


def test_relu() -> None:
    x = from_bits([0x8000, 0xBC00, 0x7D00, 0xFE00, 0x0001, 0x7C00, 0xFC00, 0x3C00], F16)
    out = np.full(9, 5, F16)
    relu(out, x, 8)
    # -0 -> +0; -1 -> +0; a signalling NaN stays a NaN (quieted); -NaN stays; subnormal kept;
    # +inf; -inf -> +0; 1.
    assert bits_of(out) == [0, 0, 0x7F00, 0xFE00, 0x0001, 0x7C00, 0, 0x3C00, 0x4500]
    f = np.zeros(3, F32)
    relu(f, np.array([-1e-45, 2.0**-149, -0.0], F32), 3)
    assert bits_of(f) == [0, 1, 0]


# endregion
# region Abs and the bitwise calls


def test_abs_clears_the_sign_bit() -> None:
    x = from_bits([0x8000, 0xFC00, 0xFE00, 0x8001, 0xC000, 0x7E01], F16)
    out = np.zeros(6, F16)
    abs_(out, x, 6)
    assert bits_of(out) == [0x0000, 0x7C00, 0x7E00, 0x0001, 0x4000, 0x7E01]
    f = from_bits([0xFFC00001, 0x80000001, 0xBF800000], F32)
    g = np.zeros(3, F32)
    abs_(g, f, 3)
    assert bits_of(g) == [0x7FC00001, 0x00000001, 0x3F800000]  # the NaN payload is kept


def test_bitwise_on_16_bit_patterns() -> None:
    a = np.array([0xF0F0, 0xFFFF, 0x0000, 0x8001], np.uint16)
    b = np.array([0x0FF0, 0x1234, 0xFFFF, 0x0001], np.uint16)
    out = np.zeros(5, np.uint16)
    and_(out, a, b, 4)
    assert out.tolist() == [0x00F0, 0x1234, 0x0000, 0x0001, 0]
    or_(out, a, b, 4)
    assert out.tolist() == [0xFFF0, 0xFFFF, 0xFFFF, 0x8001, 0]
    not_(out, a, 4)
    assert out.tolist() == [0x0F0F, 0x0000, 0xFFFF, 0x7FFE, 0]
    s = np.array([-1, 0, 0x7FFF, -32768], np.int16)
    t = np.zeros(4, np.int16)
    and_(t, s, np.array([0x7FFF, -1, 0x00FF, -1], np.int16), 4)
    assert t.tolist() == [0x7FFF, 0, 0x00FF, -32768]
    not_(t, s, 4)
    assert t.tolist() == [0, -1, -32768, 0x7FFF]


def test_masks_combine_as_uint16() -> None:
    """Two CompareScalar masks over 128 halves (16 bytes each), seen as 8 uint16 lanes:
    And / Or / Not give the masks of `and`, `or`, `not` of the comparisons, element by element."""
    x = np.linspace(-4, 4, 128).astype(F16)
    gt, lt = np.zeros(16, np.uint8), np.zeros(16, np.uint8)
    compare_scalar(gt, x, -3.0, "gt", 128)
    compare_scalar(lt, x, 3.0, "lt", 128)
    both, either, outside = (np.zeros(16, np.uint8) for _ in range(3))
    and_(both.view(np.uint16), gt.view(np.uint16), lt.view(np.uint16), 8)
    or_(either.view(np.uint16), gt.view(np.uint16), lt.view(np.uint16), 8)
    not_(outside.view(np.uint16), both.view(np.uint16), 8)
    unpack = lambda m: np.unpackbits(m, bitorder="little").astype(bool)  # noqa: E731
    inside = (x > -3) & (x < 3)
    assert (unpack(both) == inside).all() and (unpack(outside) == ~inside).all()
    assert unpack(either).all()


# endregion
# region count, dtype and operand rules


CALLS: list[tuple[str, Callable[[np.ndarray, np.ndarray, int], None]]] = [
    ("Add", lambda d, s, n: add(d, s, s, n)), ("Sub", lambda d, s, n: sub(d, s, s, n)),
    ("Mul", lambda d, s, n: mul(d, s, s, n)), ("Div", lambda d, s, n: div(d, s, s, n)),
    ("Max", lambda d, s, n: max_(d, s, s, n)), ("Min", lambda d, s, n: min_(d, s, s, n)),
    ("Maxs", lambda d, s, n: maxs(d, s, 1.0, n)), ("Mins", lambda d, s, n: mins(d, s, 1.0, n)),
    ("Abs", abs_), ("Relu", relu),
]


EXACT_ON_BF16: dict[str, Callable[[float], float]] = {
    "Max": lambda v: v, "Min": lambda v: v, "Maxs": lambda v: max(v, 1.0),
    "Mins": lambda v: min(v, 1.0), "Add": lambda v: v + v, "Sub": lambda v: 0.0,
    "Mul": lambda v: v * v}
"""The calls that also take bf16, with each lane's value for a lane v (Max and Min of v with
itself): the maxima and minima return an operand; Add, Sub and Mul round their float result
to bf16 (Ascend 950's documented rule; these small values are exact)."""


@pytest.mark.parametrize(("api", "call"), CALLS, ids=[name for name, _ in CALLS])
def test_count_rules(api: str, call: Callable[[np.ndarray, np.ndarray, int], None]) -> None:
    """count 0 writes nothing, elements past count stay, every tensor must hold count, and
    bf16 (where no rounding in bf16 is documented) and mixed dtypes are refused; the maxima,
    minima, Add, Sub and Mul compute bf16 (which SoC has them is the interpreter's API-table
    check)."""
    src = np.array([-2, 3, -4, 5], F32)
    dst = np.full(4, 7, F32)
    call(dst, src, 0)
    assert dst.tolist() == [7] * 4
    call(dst, src, 2)
    assert dst[2:].tolist() == [7, 7] and dst[:2].tolist() != [7, 7]
    with pytest.raises(ApiError, match=f"{api}: count 5 exceeds dst"):
        call(dst, src, 5)
    with pytest.raises(ApiError, match=f"{api}: count 5 exceeds"):
        call(np.zeros(5, F32), src, 5)
    with pytest.raises(ApiError, match="non-negative"):
        call(dst, src, -1)
    if api in EXACT_ON_BF16:  # computed in bf16 (Ascend 950 has it)
        out = np.zeros(4, BF16)
        call(out, src.astype(BF16), 4)
        assert out.astype(F32).tolist() == [EXACT_ON_BF16[api](v) for v in src.tolist()]
    else:
        with pytest.raises(ApiError, match="no bfloat16 arithmetic"):
            call(np.zeros(4, BF16), src.astype(BF16), 4)
    with pytest.raises(ApiError, match="has dtype float16, expected float32"):
        call(dst, src.astype(F16), 4)


def test_bitwise_operand_rules() -> None:
    u = np.zeros(4, np.uint16)
    with pytest.raises(ApiError,
                       match=r"And: unsupported dtype float16 \(uint16, int16, int32, uint32\)"):
        and_(np.zeros(4, F16), np.zeros(4, F16), np.zeros(4, F16), 4)
    with pytest.raises(ApiError, match="Or: unsupported dtype uint8"):
        or_(np.zeros(4, np.uint8), np.zeros(4, np.uint8), np.zeros(4, np.uint8), 4)
    with pytest.raises(ApiError, match="Not: src has dtype int16, expected uint16"):
        not_(u, np.zeros(4, np.int16), 4)
    with pytest.raises(ApiError, match="And: count 5 exceeds src1"):
        and_(np.zeros(5, np.uint16), np.zeros(5, np.uint16), u, 5)
    and_(u, u + 1, u + 3, 0)
    assert u.tolist() == [0] * 4


def test_duplicate_still_takes_bf16() -> None:
    out = np.zeros(3, BF16)
    duplicate(out, 1.5, 2)
    assert out.tolist() == [1.5, 1.5, 0]


# endregion
# region DataCopy UB -> UB


def test_data_copy_ub_to_ub() -> None:
    src = np.arange(40, dtype=F16)
    dst = np.full(40, -1, F16)
    data_copy_ub_to_ub(dst, src, 32)  # 64 bytes: two 32-byte blocks
    assert dst[:32].tolist() == list(range(32)) and dst[32:].tolist() == [-1] * 8
    data_copy_ub_to_ub(dst, src, 0)
    with pytest.raises(ApiError, match=r"count 8 x 2 bytes = 16 bytes is not a multiple of 32"):
        data_copy_ub_to_ub(dst, src, 8)
    with pytest.raises(ApiError, match="src has dtype float32, expected float16"):
        data_copy_ub_to_ub(dst, src.astype(F32), 16)
    with pytest.raises(ApiError, match="count 48 exceeds dst"):
        data_copy_ub_to_ub(dst, np.zeros(48, F16), 48)
    words = np.zeros(16, np.uint16)
    data_copy_ub_to_ub(words, np.arange(16, dtype=np.uint16), 16)  # any element type
    assert words.tolist() == list(range(16))


# endregion
# region batched == unbatched


@st.composite
def elementwise_batch(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int]:
    dtype = draw(st.sampled_from([F16, F32]))
    cores, n = draw(st.integers(1, 4)), draw(st.integers(1, 40))
    values = st.sampled_from([0.0, -0.0, 1.0, -3.0, 2.5, 1e-7, 6e4, np.nan, np.inf, -np.inf])
    arr = hnp.arrays(np.float64, (cores, n), elements=values)
    return draw(arr).astype(dtype), draw(arr).astype(dtype), draw(st.integers(0, n))


@settings(max_examples=40, deadline=None)
@given(elementwise_batch())
def test_batched_equals_per_core(case: tuple[np.ndarray, np.ndarray, int]) -> None:
    """Cores in lock-step (a (cores, n) batch) get what each core alone gets, bit for bit."""
    a, b, count = case

    def run(x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
        outs = []
        for call in (add, sub, mul, div, max_, min_):
            d = np.zeros_like(x)
            call(d, x, y, count)
            outs.append(d)
        for scalar_call in (maxs, mins):
            d = np.zeros_like(x)
            scalar_call(d, x, -0.0, count)
            outs.append(d)
        for unary in (abs_, relu):
            d = np.zeros_like(x)
            unary(d, x, count)
            outs.append(d)
        w = np.zeros(x.shape, np.uint16)
        and_(w, x.view(np.uint16)[..., : x.shape[-1]], y.view(np.uint16)[..., : x.shape[-1]],
             count)
        outs.append(w)
        return outs

    batched = run(a, b)
    for core in range(a.shape[0]):
        for got, want in zip(batched, run(a[core], b[core]), strict=True):
            assert got[core].tobytes() == want.tobytes()


# endregion
