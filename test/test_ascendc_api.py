"""The AscendC API model against hand-worked expectations, and batched-vs-unbatched agreement."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hswc.interpreter.ascendc_api import (
    ApiError,
    adds,
    cast,
    compare,
    compare_scalar,
    data_copy_gm_to_ub,
    data_copy_pad_gm_to_ub,
    data_copy_pad_ub_to_gm,
    data_copy_ub_to_gm,
    div,
    duplicate,
    mul,
    muls,
    select,
)

F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
BF16 = np.dtype(ml_dtypes.bfloat16)
UINT = {2: np.uint16, 4: np.uint32}


def from_bits(bits: list[int], dtype: np.dtype) -> np.ndarray:
    return np.array(bits, dtype=UINT[dtype.itemsize]).view(dtype)


def bits_of(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a).view(UINT[a.dtype.itemsize]).ravel()]


# region Compare


def test_compare_mask_bit_layout() -> None:
    """Element i -> bit i%8 of byte i//8; bytes past count/8 untouched."""
    src0 = np.zeros(64, F32)
    src0[[0, 3, 8, 9, 63]] = 5.0
    src1 = np.ones(64, F32)
    mask = np.full(16, 0xEE, np.uint8)
    compare(mask, src0, src1, "gt", 64)
    assert mask.tolist() == [0x09, 0x03, 0, 0, 0, 0, 0, 0x80] + [0xEE] * 8


@pytest.mark.parametrize(
    ("mode", "want"),
    [
        ("lt", [1, 0, 0, 0]),
        ("gt", [0, 0, 1, 0]),
        ("ge", [0, 1, 1, 0]),
        ("eq", [0, 1, 0, 0]),
        ("ne", [1, 0, 1, 1]),  # NaN != 2 is true (IEEE), every other NaN compare is false
        ("le", [1, 1, 0, 0]),
    ],
)
def test_compare_modes_and_nan(mode: str, want: list[int]) -> None:
    src0 = np.zeros(128, F16)
    src0[:4] = [1, 2, 3, np.nan]
    src1 = np.full(128, 2, F16)
    src1[4:] = 0  # 0 vs 0 beyond: lt/gt/ne false, ge/eq/le true
    mask = np.zeros(16, np.uint8)
    compare(mask, src0, src1, mode, 128)
    bits = np.unpackbits(mask, bitorder="little")
    assert bits[:4].tolist() == want
    assert set(bits[4:].tolist()) == ({1} if mode in ("ge", "eq", "le") else {0})


def test_compare_scalar() -> None:
    x = np.array([-4, -3, -2.9, 0] + [0] * 60, F32)
    mask = np.zeros(8, np.uint8)
    compare_scalar(mask, x, -3.0, "gt", 64)
    assert mask[0] == 0b1111_1100  # elements 2.. are > -3; -4 and -3 are not


@pytest.mark.parametrize(("dtype", "count"), [(F32, 32), (F32, 65), (F16, 64), (BF16, 200)])
def test_compare_only_whole_256_byte_blocks(dtype: np.dtype, count: int) -> None:
    src = np.zeros(256, dtype)
    with pytest.raises(ApiError, match="multiple of 256"):
        compare(np.zeros(64, np.uint8), src, src, "lt", count)


def test_compare_checks_capacity_and_mode() -> None:
    src = np.zeros(128, F32)
    compare(np.zeros(16, np.uint8), src, src, "lt", 128)  # 128 bits fit in 16 bytes
    compare(np.zeros(0, np.uint8), src, src, "lt", 0)  # count 0: nothing to do
    with pytest.raises(ApiError, match="mask holds 15 bytes"):
        compare(np.zeros(15, np.uint8), src, src, "lt", 128)
    with pytest.raises(ApiError, match="count 192 exceeds"):
        compare(np.zeros(32, np.uint8), src, src, "lt", 192)
    with pytest.raises(ApiError, match="unknown mode"):
        compare(np.zeros(16, np.uint8), src, src, "lg", 64)
    with pytest.raises(ApiError, match="dtype"):
        compare(np.zeros(16, np.uint8), src, src.astype(F16), "lt", 64)


# endregion
# region Select

MASK = np.array([0b1010_0101, 0b0000_0010], np.uint8)  # bits 0,2,5,7,9 set (of 0..9)
PICK = [1, 0, 1, 0, 0, 1, 0, 1, 0, 1]


def test_select_tensor_tensor() -> None:
    src0 = np.arange(10, dtype=F32)
    src1 = -np.arange(10, dtype=F32)
    dst = np.full(12, 99, F32)
    select(dst, MASK, src0, src1, "tensor_tensor", 10)
    want = [i if p else -i for i, p in enumerate(PICK)] + [99, 99]
    assert dst.tolist() == want


def test_select_tensor_scalar() -> None:
    src0 = np.arange(10, dtype=F16)
    dst = np.full(12, 99, F16)
    select(dst, MASK, src0, 7.0, "tensor_scalar", 10)
    assert dst.tolist() == [i if p else 7 for i, p in enumerate(PICK)] + [99, 99]


@pytest.mark.parametrize("dtype", [F32, F16])
def test_select_cmpmask_spr_reuses_one_repeat_of_bits(dtype: np.dtype) -> None:
    per = 256 // dtype.itemsize  # 64 f32 or 128 f16 lanes per repeat
    mask = np.zeros(64, np.uint8)
    mask[0] = 0b0010_0001  # bits 0 and 5
    mask[per // 8 - 1] = 0x80  # the repeat's last bit
    mask[per // 8 :] = 0xFF  # beyond the first repeat: never read
    count = 2 * per + 2
    src0 = np.ones(count, dtype)
    src1 = np.zeros(count, dtype)
    dst = np.full(count + 1, 5, dtype)
    select(dst, mask, src0, src1, "cmpmask_spr", count)
    want = {0, 5, per - 1}
    want |= {per + i for i in want} | {2 * per}  # element 2*per+1 reuses bit 1: clear
    assert np.flatnonzero(dst[:count] == 1).tolist() == sorted(want)
    assert dst[count] == 5


def test_select_dst_may_be_src0() -> None:
    a = np.arange(10, dtype=F32)
    select(a, MASK, a, np.full(10, -1, F32), "tensor_tensor", 10)
    assert a.tolist() == [i if p else -1 for i, p in enumerate(PICK)]


@pytest.mark.parametrize("dtype", [F32, F16])
@pytest.mark.parametrize("dst_is", ["own", "src0", "src1", "src1 shifted"])
def test_select_into_dst_any_alias_gives_where_s_bits(dtype: np.dtype, dst_is: str) -> None:
    """Whatever dst aliases (src0, src1, part of src1, nothing) and in batched shapes, dst holds
    exactly numpy.where's bits: NaN payloads and signed zeros untouched, past count kept."""
    rng = np.random.default_rng(5)
    cores, n, count = 3, 512, 500
    bits = rng.integers(0, 1 << (8 * dtype.itemsize), (2, cores, n + 4), dtype=np.uint64)
    bits[:, :, :8] = [0, 1 << (8 * dtype.itemsize - 1)] * 4  # signed zeros
    pool = bits.astype(UINT[dtype.itemsize]).view(dtype)  # NaNs with payloads, infs, any value
    src0, src1 = pool[0, :, :n], pool[1, :, 2:]
    mask = rng.integers(0, 256, (cores, n // 8), dtype=np.uint8)
    picked = np.unpackbits(mask, axis=-1, bitorder="little")[:, :count].astype(bool)
    want = np.where(picked, src0[:, :count].copy(), src1[:, :count].copy())
    dst = {"own": np.zeros((cores, n), dtype), "src0": src0, "src1": src1,
           "src1 shifted": pool[1, :, 1:n + 1]}[dst_is]
    tail = dst[:, count:].copy()
    select(dst, mask, src0, src1, "tensor_tensor", count)
    assert bits_of(dst[:, :count]) == bits_of(want)
    assert bits_of(dst[:, count:]) == bits_of(tail)


def test_select_checks() -> None:
    a = np.zeros(16, F32)
    with pytest.raises(ApiError, match="unknown mode"):
        select(a, MASK, a, a, "vsel", 4)
    with pytest.raises(ApiError, match="takes a scalar"):
        select(a, MASK, a, a, "tensor_scalar", 4)
    with pytest.raises(ApiError, match="takes a tensor"):
        select(a, MASK, a, 1.0, "tensor_tensor", 4)
    with pytest.raises(ApiError, match="count 17 exceeds dst"):
        select(a, MASK, a, a, "tensor_tensor", 17)
    b = np.zeros(24, F32)
    with pytest.raises(ApiError, match="mask holds 2 bytes, 17 bits need 3"):
        select(b, MASK, b, b, "tensor_tensor", 17)


# endregion
# region Cast

ROUNDINGS = ("rint", "round", "floor", "ceil", "trunc", "odd")

# f32 value -> f16 bits under rint, round, floor, ceil, trunc, odd. f16 spacing: 2^-10 at 1,
# 2^-24 for subnormals, max finite 65504 (0x7BFF), the rint overflow tie at 65520.
F16_CASES: list[tuple[float, tuple[int, ...]]] = [
    (1 + 2**-11, (0x3C00, 0x3C01, 0x3C00, 0x3C01, 0x3C00, 0x3C01)),  # tie, even below
    (1 + 3 * 2**-11, (0x3C02, 0x3C02, 0x3C01, 0x3C02, 0x3C01, 0x3C01)),  # tie, even above
    (-(1 + 2**-11), (0xBC00, 0xBC01, 0xBC01, 0xBC00, 0xBC00, 0xBC01)),  # negative tie
    (1 + 2**-12, (0x3C00, 0x3C00, 0x3C00, 0x3C01, 0x3C00, 0x3C01)),  # below half
    (1.5, (0x3E00,) * 6),  # exact: no mode moves it, ODD included
    (2.0**-25, (0x0000, 0x0001, 0x0000, 0x0001, 0x0000, 0x0001)),  # half the min subnormal
    (3 * 2.0**-25, (0x0002, 0x0002, 0x0001, 0x0002, 0x0001, 0x0001)),  # subnormal tie
    (-(2.0**-30), (0x8000, 0x8000, 0x8001, 0x8000, 0x8000, 0x8001)),  # tiny negative
    (65519.0, (0x7BFF, 0x7BFF, 0x7BFF, 0x7C00, 0x7BFF, 0x7BFF)),  # above max, below the tie
    (65520.0, (0x7C00, 0x7C00, 0x7BFF, 0x7C00, 0x7BFF, 0x7BFF)),  # the overflow tie
    (-1e6, (0xFC00, 0xFC00, 0xFC00, 0xFBFF, 0xFBFF, 0xFBFF)),  # negative overflow
    (-0.0, (0x8000,) * 6),
    (np.inf, (0x7C00,) * 6),
    (-np.inf, (0xFC00,) * 6),
]

# f32 -> bf16 under rint, round, floor, ceil, trunc (spacing 2^-7 at 1, min subnormal 2^-133).
BF16_CASES: list[tuple[float, tuple[int, ...]]] = [
    (1 + 2**-8, (0x3F80, 0x3F81, 0x3F80, 0x3F81, 0x3F80)),
    (-(1 + 3 * 2**-8), (0xBF82, 0xBF82, 0xBF82, 0xBF81, 0xBF81)),
    (2.0**-134, (0x0000, 0x0001, 0x0000, 0x0001, 0x0000)),
    (float(np.finfo(np.float32).max), (0x7F80, 0x7F80, 0x7F7F, 0x7F80, 0x7F7F)),
    (-float(np.finfo(np.float32).max), (0xFF80, 0xFF80, 0xFF80, 0xFF7F, 0xFF7F)),
    (-0.0, (0x8000,) * 5),
]


@pytest.mark.parametrize(("value", "want"), F16_CASES, ids=lambda v: repr(v)[:12])
def test_cast_f32_to_f16_every_mode(value: float, want: tuple[int, ...]) -> None:
    src = np.full(4, value, F32)
    got = []
    for mode in ROUNDINGS:
        dst = np.full(5, 7, F16)
        cast(dst, src, mode, 4)
        assert dst[4] == 7  # past count: untouched
        assert len(set(bits_of(dst[:4]))) == 1
        got.append(bits_of(dst[:1])[0])
    assert tuple(got) == want


@pytest.mark.parametrize(("value", "want"), BF16_CASES, ids=lambda v: repr(v)[:12])
def test_cast_f32_to_bf16_every_mode(value: float, want: tuple[int, ...]) -> None:
    src = np.full(2, value, F32)
    got = []
    for mode in ROUNDINGS[:5]:
        dst = np.zeros(2, BF16)
        cast(dst, src, mode, 2)
        got.append(bits_of(dst[:1])[0])
    assert tuple(got) == want


def test_cast_nan_and_none() -> None:
    src = np.array([np.nan, -np.nan, 1 + 2**-11, 0.1], F32)
    for mode in (*ROUNDINGS, "none"):
        dst = np.zeros(4, F16)
        cast(dst, src, mode, 4)
        assert np.isnan(dst[:2]).all()
    dst = np.zeros(4, F16)
    cast(dst, src, "none", 4)  # NONE on a lossy conversion rounds like RINT
    assert bits_of(dst[2:]) == bits_of(src[2:].astype(F16))


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_cast_widening_is_exact(dtype: np.dtype) -> None:
    src = from_bits([0x0001, 0x8001, 0x3C01, 0x7C00], dtype)  # subnormals too
    dst = np.zeros(4, F32)
    cast(dst, src, "none", 4)
    assert dst.tolist() == src.astype(np.float64).tolist()


@pytest.mark.parametrize(
    ("src", "dst", "mode", "match"),
    [
        (F32, BF16, "none", "does not support round mode 'none'"),
        (F32, BF16, "odd", "does not support round mode 'odd'"),
        (F16, F32, "rint", "does not support round mode 'rint'"),
        (BF16, F32, "floor", "float32 does not support"),
        (F32, F32, "none", "does not support round mode 'none'"),  # to an integral value
        (F16, BF16, "rint", "not a supported conversion"),  # Ascend 950 only
        (F32, F16, "nearest", "does not support round mode 'nearest'"),
    ],
)
def test_cast_rejects_pairs_and_modes(src: np.dtype, dst: np.dtype, mode: str, match: str) -> None:
    with pytest.raises(ApiError, match=match):
        cast(np.zeros(4, dst), np.zeros(4, src), mode, 4)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.uint32, 64, elements=st.integers(0, 2**32 - 1)))
def test_cast_rint_matches_numpy_and_ml_dtypes(bits: np.ndarray) -> None:
    src = bits.view(F32)
    for target in (F16, BF16):
        dst = np.zeros(64, target)
        cast(dst, src, "rint", 64)
        with np.errstate(all="ignore"):
            want = src.astype(target)
        ok = np.isnan(src) | (dst.view(np.uint16) == want.view(np.uint16))
        assert ok.all() and np.isnan(dst[np.isnan(src)].astype(F32)).all()


def _next_up(a: np.ndarray) -> np.ndarray:
    """The next representable value above each element (not for NaN / +inf)."""
    b = a.view(np.uint16).astype(np.int64)
    up = np.where(b & 0x8000, np.where(b == 0x8000, 1, b - 1), b + 1)
    return up.astype(np.uint16).view(a.dtype)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.uint32, 64, elements=st.integers(0, 2**32 - 1)))
def test_cast_floor_and_ceil_bracket_the_value(bits: np.ndarray) -> None:
    """floor(x) <= x < next_up(floor(x)), and ceil(x) is floor(x) or its successor."""
    src = bits.view(F32)
    finite = np.isfinite(src)
    x = src.astype(np.float64)[finite]
    for target in (F16, BF16):
        lo = np.zeros(64, target)
        hi = np.zeros(64, target)
        cast(lo, src, "floor", 64)
        cast(hi, src, "ceil", 64)
        lo64 = lo.astype(np.float64)[finite]
        hi64 = hi.astype(np.float64)[finite]
        assert (lo64 <= x).all() and (x <= hi64).all()
        not_top = lo[finite].view(np.uint16) != (0x7C00 if target == F16 else 0x7F80)
        up = _next_up(lo[finite][not_top]).astype(np.float64)
        assert (x[not_top] < up).all()
        exact = lo64 == x
        assert (hi64[exact] == x[exact]).all()
        assert (hi64[~exact] == _next_up(lo[finite][~exact]).astype(np.float64)).all()


# endregion
# region elementwise arithmetic


def test_muls_in_f32_rounds_once() -> None:
    src = np.array([1, 2, -2, 25 / 64], F32)
    dst = np.zeros(5, F32)
    third = np.uint32(0x3EAAAAAB).view(np.float32)
    muls(dst, src, third, 4)
    assert bits_of(dst[:4]) == [0x3EAAAAAB, 0x3F2AAAAB, 0xBF2AAAAB, 0x3E055556]
    adds(dst, dst, 0.5, 4)  # dst may be src
    assert bits_of(dst[:4]) == [0x3F555556, 0x3F955556, 0xBE2AAAAC, 0x3F215556]


def test_f16_arithmetic_and_bf16_only_where_documented() -> None:
    """bf16 Adds, Mul and Muls round the float result to bf16 (Ascend 950's documented rule, Muls
    a Duplicate then Mul; which SoC has them is the API-table check); Div has no documented bf16
    rounding."""
    a = np.array([300, 2048, 1, 65504], F16)
    dst = np.zeros(4, F16)
    mul(dst, a, a, 1)
    assert dst[0] == np.inf  # 90000 overflows f16
    adds(dst, a, 1.0, 3)  # 2049 is a tie between 2048 and 2050 -> even 2048
    assert dst[:3].tolist() == [301, 2048, 2]
    b = np.array([1, 257], BF16)  # 257 is 256 in bf16 (8 significant bits)
    out = np.zeros(2, BF16)
    adds(out, b, 1.0, 2)  # 257 -> 256 + 1 = 257 -> a tie between 256 and 258 -> even 256
    assert out.tolist() == [2, 256]
    mul(out, b, b, 2)
    assert out.tolist() == [1, 65536]
    c = np.array([1.0078125, -1.0078125], BF16)  # 1 + 2^-7, one bf16 ulp above 1
    muls(out, c, 3.0, 2)  # 3.0234375 = 3 + 1.5 ulp (2^-6 at 3): a tie -> even, 3 + 2 ulp
    assert out.view(np.uint16).tolist() == [0x4042, 0xC042]
    out[:] = 0
    with pytest.raises(ApiError, match="no bfloat16 arithmetic"):
        div(out, b, b, 2)
    assert out.tolist() == [0, 0]


def test_scalar_rounds_once_to_the_dtype() -> None:
    """A Python float becomes the tensor's dtype by one RNE rounding (no detour via f32)."""
    dst = np.zeros(3, BF16)
    duplicate(dst, 1 + 2**-8 + 2**-30, 2)
    assert bits_of(dst) == [0x3F81, 0x3F81, 0]
    h = np.zeros(2, F16)
    duplicate(h, 1e10, 2)
    assert np.isinf(h).all()


def test_arithmetic_checks() -> None:
    a = np.zeros(8, F32)
    muls(a, a, 2.0, 0)  # count 0: a no-op
    with pytest.raises(ApiError, match="count 9 exceeds dst"):
        muls(a, a, 2.0, 9)
    with pytest.raises(ApiError, match="count 9 exceeds src1"):
        mul(np.zeros(9, F32), np.zeros(9, F32), a, 9)
    with pytest.raises(ApiError, match="dtype"):
        adds(a, np.zeros(8, F16), 1.0, 8)
    with pytest.raises(ApiError, match="non-negative"):
        duplicate(a, 1.0, -1)
    with pytest.raises(ApiError, match="1-D or"):
        duplicate(np.zeros((2, 2, 2), F32), 1.0, 1)
    with pytest.raises(ApiError, match="unsupported dtype"):
        duplicate(np.zeros(4, np.float64), 1, 4)
    filled = np.zeros(4, np.int32)  # integer lanes: which SoC takes them is soc_api's table
    duplicate(filled, -7, 3)
    assert filled.tolist() == [-7, -7, -7, 0]


# endregion
# region data copies


def test_data_copy_pad_gm_to_ub_pads_with_first_element_of_block() -> None:
    gm = np.arange(40, dtype=F32)
    ub = np.full(24, -1, F32)
    data_copy_pad_gm_to_ub(ub, gm, 3, 5 * 4)  # 20 bytes -> one 32-byte block
    assert ub.tolist() == [3, 4, 5, 6, 7, 3, 3, 3] + [-1] * 16
    ub[:] = -1
    data_copy_pad_gm_to_ub(ub, gm, 3, 10 * 4)  # 40 bytes: the pad copies the 2nd block's first
    assert ub.tolist() == [*range(3, 13), 11, 11, 11, 11, 11, 11] + [-1] * 8
    ub[:] = -1
    data_copy_pad_gm_to_ub(ub, gm, 3, 10 * 4, is_pad=True, pad_value=0.5)
    assert ub.tolist() == [*range(3, 13)] + [0.5] * 6 + [-1] * 8
    ub[:] = -1
    data_copy_pad_gm_to_ub(ub, gm, 0, 8 * 4)  # already aligned: nothing padded
    assert ub.tolist() == [*range(8)] + [-1] * 16


def test_data_copy_pad_f16_and_byte_views() -> None:
    gm = np.arange(1, 8, dtype=F16)
    arena = np.full(64, 0xAB, np.uint8)  # a UB arena, typed by GM's dtype
    data_copy_pad_gm_to_ub(arena[:32], gm, 4, 3 * 2)
    assert arena[:32].view(F16).tolist() == [5, 6, 7] + [5] * 13
    assert (arena[32:] == 0xAB).all()


def test_data_copy_pad_ub_to_gm_writes_exactly_nbytes() -> None:
    gm = np.zeros(10, F32)
    ub = np.arange(1, 9, dtype=F32)
    data_copy_pad_ub_to_gm(gm, 2, ub, 3 * 4)
    assert gm.tolist() == [0, 0, 1, 2, 3, 0, 0, 0, 0, 0]
    data_copy_pad_ub_to_gm(gm, 9, ub, 0)  # 0 bytes: a no-op, even at the edge
    data_copy_pad_gm_to_ub(ub, gm, 10, 0)


def test_data_copy_pad_errors() -> None:
    gm = np.zeros(10, F32)
    with pytest.raises(ApiError, match=r"offset 8, length 3 elements, GM size 10"):
        data_copy_pad_gm_to_ub(np.zeros(8, F32), gm, 8, 12)
    with pytest.raises(ApiError, match=r"offset -1"):
        data_copy_pad_ub_to_gm(gm, -1, np.zeros(8, F32), 4)
    with pytest.raises(ApiError, match="not a multiple of the 4-byte element"):
        data_copy_pad_gm_to_ub(np.zeros(8, F32), gm, 0, 6)
    with pytest.raises(ApiError, match="pad to 32 bytes, UB tensor holds 16"):
        data_copy_pad_gm_to_ub(np.zeros(4, F32), gm, 0, 12)
    with pytest.raises(ApiError, match="differ"):
        data_copy_pad_gm_to_ub(np.zeros(8, F16), gm, 0, 4)
    with pytest.raises(
        ApiError, match=r"offset 9, length 2 elements, GM size 10 elements \(core 1"
    ):
        data_copy_pad_ub_to_gm(gm, np.array([0, 9]), np.zeros((2, 8), F32), 8)


def test_data_copy_requires_32_byte_multiples() -> None:
    gm = np.arange(32, dtype=F16)
    ub = np.zeros(32, F16)
    data_copy_gm_to_ub(ub, gm, 0, 16)  # 32 bytes
    assert ub[:16].tolist() == list(range(16))
    with pytest.raises(ApiError, match="not a multiple of 32"):
        data_copy_gm_to_ub(ub, gm, 0, 15)
    out = np.zeros(40, F16)
    data_copy_ub_to_gm(out, 8, ub, 16)
    assert out[8:24].tolist() == list(range(16)) and not out[:8].any() and not out[24:].any()
    with pytest.raises(ApiError, match="not a multiple of 32"):
        data_copy_ub_to_gm(out, 0, ub, 8 + 1)


@pytest.mark.parametrize("offsets", [[0, 5, 10, 15], [0, 7, 3, 12], [4], [2, 2, 2]])
def test_batched_copies_per_core_offsets(offsets: list[int]) -> None:
    gm = np.arange(40, dtype=F32)
    offs = np.array(offsets)
    ub = np.full((len(offsets), 8), -1, F32)
    data_copy_pad_gm_to_ub(ub, gm, offs, 5 * 4)
    for row, off in zip(ub, offsets, strict=True):
        assert row.tolist() == [*range(off, off + 5), off, off, off]
    out = np.zeros(40, F32)
    data_copy_pad_ub_to_gm(out, offs, ub, 5 * 4)
    for off in offsets:
        assert out[off : off + 5].tolist() == list(range(off, off + 5))


# endregion
# region batched == unbatched


@st.composite
def batch(draw: st.DrawFn) -> tuple[np.dtype, np.ndarray, np.ndarray, np.ndarray, int]:
    dtype = draw(st.sampled_from([F16, F32, BF16]))
    cores = draw(st.integers(1, 4))
    per_repeat = 256 // dtype.itemsize
    n = per_repeat * draw(st.integers(1, 2))
    values = st.sampled_from([0.0, -0.0, 1.0, -3.0, 3.0, 2.5, -1.5, 1e-3, 6e4, np.nan, np.inf])
    arr = hnp.arrays(np.float64, (cores, n), elements=values)
    a = draw(arr).astype(dtype)
    b = draw(arr).astype(dtype)
    mask = draw(hnp.arrays(np.uint8, (cores, n // 8)))
    return dtype, a, b, mask, draw(st.integers(0, n))


@settings(max_examples=40, deadline=None)
@given(batch())
def test_batched_equals_per_core(
    case: tuple[np.dtype, np.ndarray, np.ndarray, np.ndarray, int],
) -> None:
    dtype, a, b, mask, count = case
    cores, n = a.shape
    whole = n  # Compare needs whole repeats

    def run(x: np.ndarray, y: np.ndarray, m: np.ndarray) -> list[np.ndarray]:
        outs: list[np.ndarray] = []
        if dtype != BF16:  # the vector unit has no bf16 arithmetic
            d = np.zeros_like(x)
            muls(d, x, 1.5, count)
            adds(d, d, -0.5, count)
            mul(d, d, y, count)
            outs.append(d)
        cm = np.zeros_like(m)
        compare(cm, x, y, "le", whole)
        outs.append(cm)
        cs = np.zeros_like(m)
        compare_scalar(cs, x, 1.0, "ne", whole)
        outs.append(cs)
        for mode in ("tensor_tensor", "cmpmask_spr"):
            s = x.copy()
            select(s, m, s, y, mode, count)
            outs.append(s)
        s = np.zeros_like(x)
        select(s, m, x, 2.0, "tensor_scalar", count)
        outs.append(s)
        if dtype == F32:
            for target, mode in ((F16, "odd"), (BF16, "floor")):
                c = np.zeros(x.shape, target)
                cast(c, x, mode, count)
                outs.append(c)
        return outs

    batched = run(a, b, mask)
    for core in range(cores):
        single = run(a[core], b[core], mask[core])
        for got, want in zip(batched, single, strict=True):
            assert got[core].tobytes() == want.tobytes()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=5),
    st.integers(0, 10),
    st.booleans(),
)
def test_batched_gm_copies_equal_per_core(offsets: list[int], n: int, is_pad: bool) -> None:
    gm = np.arange(40, dtype=F16) * 3
    ub = np.full((len(offsets), 16), -1, F16)
    data_copy_pad_gm_to_ub(ub, gm, np.array(offsets), 2 * n, is_pad, 9.0)
    for row, off in zip(ub, offsets, strict=True):
        single = np.full(16, -1, F16)
        data_copy_pad_gm_to_ub(single, gm, off, 2 * n, is_pad, 9.0)
        assert row.tobytes() == single.tobytes()
    # Disjoint per-core stores land where per-core stores would.
    offs = np.arange(len(offsets)) * 10
    out = np.zeros(60, F16)
    data_copy_pad_ub_to_gm(out, offs, ub, 2 * n)
    want = np.zeros(60, F16)
    for row, off in zip(ub, offs, strict=True):
        data_copy_pad_ub_to_gm(want, int(off), row, 2 * n)
    assert out.tobytes() == want.tobytes()


# endregion
