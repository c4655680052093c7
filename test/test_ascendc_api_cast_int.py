"""The interpreter's Cast to and from integer types (hswc.interpreter.ascendc_cast_int), on
values checked by hand against asc-devkit's precision_conversion.md: a float rounded to an
integer by the mode then saturated, an integer rounded to a float by the mode, an integer
narrowed saturating (signed) or keeping its low bits (unsigned), and what has no documented
result (NaN, a negative value into an unsigned type) refused. Which pairs and modes each SoC
takes is hswc/api_tables.def's (A2/A3 casts half to int8_t with CAST_NONE, Ascend 950 not)."""

from __future__ import annotations

import numpy as np
import pytest

from hswc.interpreter.ascendc_api import ApiError, cast

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)


def _cast(values: list[float] | list[int], src: type, dst: type, mode: str,
          family: str = "dav_c220") -> list[float] | list[int]:
    x = np.array(values, src)
    out = np.zeros(len(values), dst)
    cast(out, x, mode, len(values), family)
    return out.tolist()


def test_half_to_int8_rounds_by_the_mode_then_saturates() -> None:
    values = [2.5, 3.5, -2.5, 127.6, 200.0, -300.0, -0.0]
    assert _cast(values, np.float16, np.int8, "rint") == [2, 4, -2, 127, 127, -128, 0]
    assert _cast(values, np.float16, np.int8, "none") == [2, 4, -2, 127, 127, -128, 0]
    ties = [-2.5, 2.5, -1.25, 1.75]
    assert _cast(ties, np.float16, np.int8, "trunc") == [-2, 2, -1, 1]
    assert _cast(ties, np.float16, np.int8, "floor") == [-3, 2, -2, 1]
    assert _cast(ties, np.float16, np.int8, "ceil") == [-2, 3, -1, 2]
    assert _cast(ties, np.float16, np.int8, "round") == [-3, 3, -1, 2]


def test_what_has_no_documented_result_is_refused() -> None:
    with pytest.raises(ApiError, match="of NaN"):
        _cast([1.0, float("nan")], np.float16, np.int8, "rint")
    with pytest.raises(ApiError, match="negative value"):
        _cast([3.0, -1.0], np.float16, np.uint8, "rint")
    with pytest.raises(ApiError, match="negative value"):
        _cast([3, -1], np.int16, np.uint8, "none", "dav_3510")


def test_integers_narrow_saturating_or_to_their_low_bits() -> None:
    assert _cast([2**31 - 1, -(2**31), 5], np.int32, np.int16, "none") == [32767, -32768, 5]
    assert _cast([300, 255, 0], np.int16, np.uint8, "none", "dav_3510") == [44, 255, 0]
    assert _cast([-128, 127, 0], np.int8, np.int32, "none", "dav_3510") == [-128, 127, 0]


def test_integers_round_to_floats_by_the_mode() -> None:
    # 4098 lies halfway between the halves 4096 and 4100 (spacing 4 at 2^12).
    tie = [4098, -4098]
    assert _cast(tie, np.int16, np.float16, "rint") == [4096.0, -4096.0]
    assert _cast(tie, np.int16, np.float16, "round") == [4100.0, -4100.0]
    assert _cast(tie, np.int16, np.float16, "floor") == [4096.0, -4100.0]
    assert _cast(tie, np.int16, np.float16, "ceil") == [4100.0, -4096.0]
    assert _cast(tie, np.int16, np.float16, "trunc") == [4096.0, -4096.0]
    # 2^25 + 3: the floats around it are 2^25 and 2^25 + 4 (spacing 4), + 4 the nearer.
    big = [2**25 + 3, -(2**25) - 3]
    assert _cast(big, np.int32, np.float32, "rint") == [2**25 + 4, -(2**25) - 4]
    assert _cast(big, np.int32, np.float32, "trunc") == [2**25, -(2**25)]
    assert _cast(big, np.int32, np.float32, "floor") == [2**25, -(2**25) - 4]


def test_float_to_float_rounds_to_an_integral_value() -> None:
    got = _cast([0.5, 1.5, -0.5, 2.5e9], np.float32, np.float32, "rint")
    assert got == [0.0, 2.0, -0.0, 2.5e9] and np.signbit(got[2])
    assert _cast([0.5, 1.5, -0.5], np.float32, np.float32, "round") == [1.0, 2.0, -1.0]


def test_each_family_takes_its_own_pairs_and_modes() -> None:
    assert _cast([1.5], np.float16, np.int8, "none", "dav_c220") == [2]
    with pytest.raises(ApiError, match="does not support round mode 'none'"):
        _cast([1.5], np.float16, np.int8, "none", "dav_3510")
    with pytest.raises(ApiError, match="not a supported conversion"):
        _cast([1], np.int8, np.int16, "none", "dav_c220")  # A2/A3: through half
