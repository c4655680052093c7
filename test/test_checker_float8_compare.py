"""The checker compares 8-bit float outputs (an FP8 quantization's y, an MX block's E8M0 scale):
bit for bit, within N steps of the type (--tolerance ulp:N), and shown in hex, against values
computed by hand from the OCP MX formats (E4M3: bias 7, 3 mantissa bits, 0x7f NaN; E5M2: bias
15; E8M0: 2^(bits - 127), no sign, 0xff NaN)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hswc.checker.dtypes import bits, hex_value
from hswc.checker.report import first_differences
from hswc.checker.tolerance import parse_tolerance
from hswc.reference import compare_bitwise, compare_tolerance

E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
E5M2 = np.dtype(ml_dtypes.float8_e5m2)
E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)


def _of(dtype: np.dtype, codes: list[int]) -> np.ndarray:
    return np.array(codes, np.uint8).view(dtype)


def test_e4m3_kinds_and_steps() -> None:
    # 0x38 = 1.0, 0x39 = 1.125 (one step); 0x80 = -0, 0x00 = +0; 0x7f NaN against 0x38;
    # 0x7e = 448 against 0x7d = 416 (one step); 0xb8 = -1.0 against 0x38: 56 + 56 steps.
    actual = _of(E4M3, [0x38, 0x80, 0x7F, 0x7E, 0xB8, 0x10])
    expected = _of(E4M3, [0x39, 0x00, 0x38, 0x7D, 0x38, 0x10])
    c = compare_bitwise(actual, expected)
    assert (c.mismatches, c.values.count, c.zero_signs.count, c.nans.count) == (5, 3, 1, 1)
    assert c.max_ulp_error == 112 and c.max_abs_error == 32.0
    t = compare_tolerance(actual, expected)
    assert (t.max_ulp, t.specials_differ, t.worst_index) == (112.0, 1, (4,))
    one_step = compare_tolerance(actual[[0, 3]], expected[[0, 3]])
    assert one_step.max_ulp == 1.0
    assert parse_tolerance("ulp:1", True).compare(actual[[0, 3]], expected[[0, 3]])[0]
    assert not parse_tolerance("ulp:1", True).compare(actual, expected)[0]


def test_e5m2_steps() -> None:
    # 0x3c = 1.0, 0x3d = 1.25; 0x7b = 57344 (largest), 0x7c = inf: one step, but a special.
    actual, expected = _of(E5M2, [0x3D, 0x7C]), _of(E5M2, [0x3C, 0x7B])
    c = compare_bitwise(actual, expected)
    assert c.values.count == 2 and c.max_ulp_error == 1
    t = compare_tolerance(actual, expected)
    assert t.specials_differ == 1 and t.max_ulp == 1.0


def test_e8m0_has_no_sign_and_counts_exponent_steps() -> None:
    # 0x7f = 1, 0x80 = 2, 0x82 = 8, 0x00 = 2^-127, 0xff NaN.
    actual = _of(E8M0, [0x7F, 0x80, 0x00, 0xFF])
    expected = _of(E8M0, [0x7F, 0x82, 0x01, 0xFF])
    assert float(actual[1]) == 2.0 and float(expected[1]) == 8.0
    c = compare_bitwise(actual, expected)
    assert (c.mismatches, c.values.count, c.nans.count, c.max_ulp_error) == (2, 2, 0, 2)
    assert compare_tolerance(actual, expected).max_ulp == 2.0


@pytest.mark.parametrize(("dtype", "code", "shown"), [
    (E4M3, 0x38, "0x38 (1)"), (E5M2, 0xC0, "0xc0 (-2)"), (E8M0, 0x80, "0x80 (2)")])
def test_an_element_is_shown_as_its_byte_and_value(dtype: np.dtype, code: int,
                                                   shown: str) -> None:
    a = _of(dtype, [code])
    assert hex_value(a[0]) == shown and bits(a).tolist() == [code]


def test_first_differences_of_an_e4m3_output() -> None:
    x = np.array([1.0, 2.0, 3.0], np.float16)
    actual, expected = _of(E4M3, [0x38, 0x80, 0x40]), _of(E4M3, [0x38, 0x00, 0x41])
    rows = first_differences([x], actual, expected, compare_bitwise(actual, expected), limit=4)
    assert [(r.index, r.actual, r.expected) for r in rows] == [
        (1, "0x80 (-0)", "0x00 (0)"), (2, "0x40 (2)", "0x41 (2.25)")]
