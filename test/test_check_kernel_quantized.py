"""hswc-check-kernel on ops-nn's GeluQuant (hswc.checker.quantized): the sweep maps
activation/gelu_quant to the generic of its dynamic mode (x of [rows, L], its smooth scales of
[L], y int8 and out_scale f32 per row); the generic, run by hswc's interpreter, against the
README's formula evaluated here in float64; the inputs made defined; the attributes it refuses.
The check of the folder itself needs ops-nn (bench/check_kernel_ops_nn.md has its rows)."""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.checker import halves, quantized
from hswc.checker.errors import CheckError
from hswc.checker.expected import from_quantized
from hswc.checker.sweep import blocked, mapping

NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def _readme(x: np.ndarray, scale: np.ndarray, approximate: str
            ) -> tuple[np.ndarray, np.ndarray]:
    """activation/gelu_quant/README.md's dynamic mode in float64: the quotient g / out_scale
    and out_scale per row."""
    w = x.astype(np.float64)
    if approximate == "none":
        gelu = 0.5 * w * (1 + np.vectorize(math.erf)(w / math.sqrt(2)))
    else:
        gelu = 0.5 * w * (1 + np.tanh(math.sqrt(2 / math.pi) * (w + 0.044715 * w**3)))
    g = gelu * scale.astype(np.float64)
    out_scale = np.abs(g).max(axis=-1) / 127
    return g / out_scale[:, None], out_scale


def test_the_folder_maps_to_the_quantized_generic() -> None:
    found = mapping(Path("/ops-nn/activation/gelu_quant"))
    assert found is not None and found[:2] == ("gelu_quant", {})
    assert blocked(Path("/ops-nn/activation/gelu_quant")) is None


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", ["f32", "f16", "bf16"])
def test_the_generic_is_the_readmes_formula(dtype: str, approximate: str) -> None:
    """out_scale within f32's rounding of the float64 value; y the quotient rounded half to
    even, one step off at most where the quotient is within 1e-3 of a rounding boundary."""
    rng = np.random.default_rng(5)
    rows, length = halves.shape("x", 768)  # how a run of 768 elements views x: 3 x 256
    x = (rng.standard_normal((rows, length)) * 3).astype(NUMPY[dtype])
    scale = rng.uniform(0.25, 2.0, length).astype(NUMPY[dtype])
    ref = from_quantized("gelu_quant", {"approximate": approximate})
    y, out_scale = ref.outputs(dtype, [x.reshape(-1), scale])
    quotient, want_scale = _readme(x, scale, approximate)
    assert y.dtype == np.int8 and out_scale.dtype == np.float32 and out_scale.size == rows
    assert np.allclose(out_scale, want_scale, rtol=2e-6, atol=0)
    y = y.reshape(rows, length).astype(np.int64)
    assert np.abs(y - np.rint(quotient)).max() <= 1
    clear = np.abs(np.abs(quotient - np.floor(quotient)) - 0.5) > 1e-3
    assert np.array_equal(y[clear], np.rint(quotient)[clear].astype(np.int64))
    assert (np.abs(y).max(axis=1) == 127).all()  # each row's largest |g| is 127 steps


def test_the_tensors_are_rows_columns_and_a_value_per_row() -> None:
    ref = from_quantized("gelu_quant", {})
    assert ref.halves is not None and ref.output_dtypes == ("int8", "float32")
    rows, length = halves.shape("x", 96)
    assert halves.shape("column", 96) == (length,) and halves.shape("row", 96) == (rows,)
    assert [ref.halves.output_size(k, 96) for k in (0, 1)] == [96, rows]


def test_the_inputs_are_made_defined() -> None:
    """inf and NaN become 0, magnitudes above 2^32 are clipped, and a row with no element of
    x >= 1/16 (with a smooth scale of that magnitude) gets x = 1 first: a very negative x is
    GELU's tail, no row max."""
    x = np.array([np.inf, np.nan, 1e20, 3.0, 1e-3, -1e-3, -1e20, -3.0], np.float32)
    scale = np.array([0.0, 1.0], np.float32)
    got_x, got_scale = quantized.defined([x, scale], 4)
    want = np.array([1.0, 0.0, 2.0**32, 3.0, 1.0, -1e-3, 1.0, -3.0], np.float32)
    assert np.array_equal(got_x, want)
    assert got_scale.tolist() == [1.0, 1.0]  # the first column's scale made 1
    assert not quantized.undefined_rows(np.array([0.5, 1e-30], np.float32)).any()
    assert quantized.undefined_rows(np.array([0.0, np.inf, np.nan], np.float32)).all()


@pytest.mark.parametrize(("attr", "said"), [
    ({"quant_mode": "static"}, "its static mode is not compared yet"),
    ({"approximate": "fast"}, "must be none or tanh"),
    ({"dst_type": "35"}, "int8 output (dst_type 2, DT_INT8)"),
    ({"alpha": "1"}, "gelu_quant has no attribute 'alpha'"),
])
def test_attributes_it_does_not_compute_are_refused(attr: dict[str, str], said: str) -> None:
    with pytest.raises(CheckError) as error:
        from_quantized("gelu_quant", attr)
    assert said in str(error.value)
