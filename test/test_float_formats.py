"""hswc.float_formats against the interpreter's conversions (numpy's, ml_dtypes', and
hswc.arith_semantics' for a double to bf16, which ml_dtypes before 0.7 rounds twice): every f16
and bf16 value, random doubles of every kind (NaN payloads, subnormals, ties, overflow), and
numpy's shortest f32 spelling; the interpreter's double -> bf16 against exact rational rounding
and values checked by hand."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from exact_rounding import exact_round

from hswc import arith_semantics as sem
from hswc.float_formats import float_bits, from_bits, next_f32, round_float, shortest_f32
from hswc.interpreter.ascendc_cast import scalar_operand

NUMPY = {"f16": (np.float16, np.uint16), "bf16": (ml_dtypes.bfloat16, np.uint16),
         "f32": (np.float32, np.uint32)}


def converted(doubles: np.ndarray, dtype: str) -> np.ndarray:
    """The doubles as the interpreter converts them to `dtype`."""
    return sem.convert(doubles, np.dtype(NUMPY[dtype][0]))


def interpreter_bits(doubles: np.ndarray, dtype: str) -> np.ndarray:
    return converted(doubles, dtype).view(NUMPY[dtype][1]).astype(np.int64)


def doubles_of_every_kind(count: int) -> np.ndarray:
    """Random bit patterns over all doubles, over the exponents of the narrow types, ties
    between neighbours of each type, and their immediate neighbours."""
    rng = np.random.default_rng(5)
    everywhere = rng.integers(0, 1 << 64, count, dtype=np.uint64)
    exponents = rng.integers(1023 - 160, 1023 + 140, count).astype(np.uint64) << np.uint64(52)
    narrow = (everywhere & np.uint64((1 << 52) - 1)) | exponents | (everywhere & np.uint64(1 << 63))
    halves = []
    for kind, _ in NUMPY.values():
        with np.errstate(all="ignore"):
            values = narrow.view(np.float64).astype(kind).astype(np.float64)
            spacing = np.spacing(np.abs(values).astype(kind)).astype(np.float64)
        halves.append((values + spacing / 2).view(np.uint64))
    patterns = np.concatenate([everywhere, narrow, *halves])
    nudged = np.concatenate([patterns, patterns + np.uint64(1), patterns - np.uint64(1)])
    return nudged.view(np.float64)


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_every_narrow_value_round_trips(dtype: str) -> None:
    kind, unsigned = NUMPY[dtype]
    patterns = np.arange(1 << 16, dtype=np.uint64).astype(unsigned)
    with np.errstate(all="ignore"):
        widened = patterns.view(kind).astype(np.float64)
    got = [float_bits(float(d), dtype) for d in widened]
    assert got == interpreter_bits(widened, dtype).tolist()
    back = np.array([from_bits(int(p), dtype) for p in patterns]).view(np.uint64)
    assert back.tolist() == widened.view(np.uint64).tolist()


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_random_doubles_round_as_the_interpreter_rounds_them(dtype: str) -> None:
    doubles = doubles_of_every_kind(4000)
    got = [float_bits(float(d), dtype) for d in doubles]
    expected = interpreter_bits(doubles, dtype).tolist()
    mismatches = [(float(d), g, e) for d, g, e in zip(doubles, got, expected, strict=True)
                  if g != e]
    assert not mismatches[:5]
    widened = converted(doubles, dtype).astype(np.float64).view(np.uint64).tolist()
    rounded = [np.float64(round_float(float(d), dtype)).view(np.uint64) for d in doubles]
    assert rounded == widened


def test_doubles_round_once_to_bf16() -> None:
    doubles = doubles_of_every_kind(4000)
    finite = doubles[np.isfinite(doubles)]
    exact = [math.copysign(exact_round(Fraction(float(d)), sem.BF16), d) for d in finite]
    got = converted(finite, "bf16").astype(np.float64).view(np.uint64)
    assert got.tolist() == np.array(exact).view(np.uint64).tolist()


@pytest.mark.parametrize("to_bf16", [lambda d: sem.constant(d, sem.BF16),
                                     lambda d: scalar_operand(d, sem.BF16)],
                         ids=["constant", "scalar_operand"])
def test_doubles_to_bf16_checked_by_hand(to_bf16: Callable[[float], np.ndarray]) -> None:
    cases = {
        1.0 + 3 * 2**-8 - 2**-40: 0x3F81,  # below the tie 1 + 3 * 2**-8 (its f32 is the tie)
        1.0 + 3 * 2**-8: 0x3F82,  # the tie: to the even 1 + 2**-6
        -(1.0 + 2**-8 + 2**-40): 0xBF81,
        (2 - 2**-8) * 2.0**127 - 2.0**80: 0x7F7F,  # below the tie with inf: the largest bf16
        (2 - 2**-8) * 2.0**127: 0x7F80,  # the tie: to inf
        1e39: 0x7F80,  # beyond f32's range too
        2.0**-134 + 2.0**-160: 0x0001,  # above half the smallest subnormal (below f32's)
        2.0**-134: 0x0000,  # half of it: to the even zero
        -1e-50: 0x8000,
        math.inf: 0x7F80,
        -math.nan: 0xFFC0,
    }
    got = {d: int(to_bf16(d).view(np.uint16)) for d in cases}
    assert got == cases


def test_rounding_examples_checked_by_hand() -> None:
    assert round_float(1 / 3, "f32") == 0.3333333432674408  # 0x3eaaaaab
    assert float_bits(65520.0, "f16") == 0x7C00  # the tie above the largest half: infinity
    assert float_bits(65519.99, "f16") == 0x7BFF
    assert float_bits(1.0 + 2**-8, "bf16") == 0x3F80  # tie: to the even 1.0
    assert float_bits(1.0 + 2**-8 + 2**-40, "bf16") == 0x3F81  # rounded once, not via f32
    assert float_bits(2.0**-25, "f16") == 0  # half the smallest subnormal: to even, zero
    assert float_bits(-(2.0**-24), "f16") == 0x8001
    assert float_bits(float("-nan"), "bf16") == 0xFFC0


def test_shortest_f32_spells_as_numpy_does() -> None:
    rng = np.random.default_rng(7)
    patterns = rng.integers(0, 1 << 32, 8000, dtype=np.uint64).astype(np.uint32)
    short = (np.round(rng.standard_normal(4000) * 10.0 ** rng.integers(-12, 12, 4000), 3)
             .astype(np.float32).view(np.uint32))
    powers = np.float32(2.0) ** np.arange(-149, 128, dtype=np.float32)
    # Decimals of few digits that fall exactly halfway between two f32 (3e10 = 29296875 * 2**10).
    ties = np.float32([3e10, 2.5e11, 7.5e12, 1.5e13, 1e11, 16777217.0, 33554434.0])
    values = np.concatenate([patterns.view(np.float32), short.view(np.float32), powers, -powers,
                             ties, np.nextafter(ties, np.float32(np.inf)), np.float32([0, -0.0])])
    values = values[np.isfinite(values)]
    mismatches = [(str(v), shortest_f32(float(v))) for v in values
                  if shortest_f32(float(v)) != str(v)]
    assert not mismatches[:5]


def test_next_f32_steps_as_numpy_nextafter_does() -> None:
    """Every kind of f32 (zeros of both signs, subnormals, the largest finite, infinities),
    stepped both ways, against numpy.nextafter."""
    with np.errstate(over="ignore", invalid="ignore"):
        values = np.float32(doubles_of_every_kind(2000))
    values = np.concatenate([values[~np.isnan(values)], np.float32(
        [0.0, -0.0, 1e-45, -1e-45, 3.4028235e38, -3.4028235e38, np.inf, -np.inf])])
    for up, towards in ((True, np.float32(np.inf)), (False, np.float32(-np.inf))):
        with np.errstate(over="ignore"):
            expected = np.nextafter(values, towards).view(np.uint32).tolist()
        got = [float_bits(next_f32(float(v), up), "f32") for v in values]
        assert got == expected
