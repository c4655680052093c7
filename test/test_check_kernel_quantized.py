"""hswc-check-kernel on ops-nn's GeluQuant (hswc.checker.quantized): the sweep maps
activation/gelu_quant to the generic of its dynamic mode (x of [rows, L], its smooth scales of
[L], y int8 and out_scale f32 per row) and, as variants, of its static mode (input_scale and
input_offset per channel or per tensor, out_scale a null address); the generics, run by hswc's
interpreter (and, the static one, lowered to the ascend level for both SoCs), against the
README's formula evaluated here in float64; the A2/A3 kernels' two-Cast rounding (CAST_ODD to
half, CAST_RINT to int8) against one rounding; the inputs made defined; the attributes it
refuses. The check of the folder itself needs ops-nn (bench/check_kernel_ops_nn.md has its
rows)."""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.checker import halves, quantized
from hswc.checker.errors import CheckError
from hswc.checker.expected import from_quantized
from hswc.checker.sweep import VARIANTS, blocked, mapping

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


def _readme_static(x: np.ndarray, scale: np.ndarray, offset: np.ndarray, approximate: str
                   ) -> np.ndarray:
    """README.md's static mode in float64, before its rounding: gelu(x) * scale + offset."""
    w = x.astype(np.float64)
    if approximate == "none":
        gelu = 0.5 * w * (1 + np.vectorize(math.erf)(w / math.sqrt(2)))
    else:
        gelu = 0.5 * w * (1 + np.tanh(math.sqrt(2 / math.pi) * (w + 0.044715 * w**3)))
    return gelu * scale.astype(np.float64) + offset.astype(np.float64)


def test_the_folder_has_static_variants() -> None:
    assert dict(VARIANTS["gelu_quant"]) == {
        "static": {"quant_mode": "static"},
        "static-tensor": {"quant_mode": "static", "scales": "tensor"}}
    assert quantized.tiling_attributes({"quant_mode": "static", "scales": "tensor"}) == {
        "quant_mode": "static"}  # the tiling is given the definition's attributes alone


@pytest.mark.parametrize("scales", ["channel", "tensor"])
@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", ["f32", "f16", "bf16"])
def test_the_static_generic_is_the_readmes_formula(dtype: str, approximate: str,
                                                   scales: str) -> None:
    """y = round half to even of gelu(x) * scale + offset, saturated to int8: equal to the
    float64 value's rounding where it is not within 1e-3 of a boundary, one step off at most
    there; out_scale empty (a null address)."""
    rng = np.random.default_rng(7)
    rows, length = halves.shape("x", 768)
    k = length if scales == "channel" else 1
    x = (rng.standard_normal((rows, length)) * 3).astype(NUMPY[dtype])
    scale = rng.uniform(0.5, 60.0, k).astype(NUMPY[dtype])
    offset = rng.uniform(-20.0, 20.0, k).astype(NUMPY[dtype])
    ref = from_quantized("gelu_quant", {"quant_mode": "static", "approximate": approximate,
                                        "scales": scales})
    assert ref.input_names == ("x", "input_scale", "input_offset")
    y, out_scale = ref.outputs(dtype, [x.reshape(-1), scale, offset])
    assert y.dtype == np.int8 and out_scale.size == 0
    want = np.clip(_readme_static(x, scale, offset, approximate), -128, 127)
    y = y.reshape(rows, length).astype(np.int64)
    assert np.abs(y - np.rint(want)).max() <= 1
    clear = np.abs(np.abs(want - np.floor(want)) - 0.5) > 1e-3
    assert np.array_equal(y[clear], np.rint(want)[clear].astype(np.int64))
    assert (y == 127).any() and (y < 0).any()  # saturated and negative values both reached


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
def test_hswc_compiles_the_static_generic_to_a_kernel(soc: str) -> None:
    """The static mode is a generic hswc compiles: its ascend level (the kernel's IR) gives
    the linalg level's bits."""
    from hswc.runner import compile_text

    text = quantized.static_module_text(4, 64, "f16", "none", per_tensor=False)
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((4, 64)) * 3).astype(np.float16)
    scale = rng.uniform(1.0, 60.0, 64).astype(np.float16)
    offset = rng.uniform(-5.0, 5.0, 64).astype(np.float16)
    want = compile_text(text, name="q", level="linalg").run(x, scale, offset).outputs[0]
    got = compile_text(text, name="q", level="ascend", soc=soc).run(x, scale, offset).outputs[0]
    assert np.array_equal(got, want) and (want == 127).any()


def test_the_kernels_two_casts_are_one_rounding() -> None:
    """CAST_ODD to half, then CAST_RINT to int8 (op_kernel/gelu_static_quant.h:241-243) gives
    the one rounding (half to even, saturated) of every f32 tried: each integer and half
    integer of [-300, 300] and its 4 f32 neighbours each side, the half range's ends, inf, and
    200000 random values; rounding to nearest first would not (2.5000002: 2, not 3)."""
    base = np.arange(-600, 601, dtype=np.float32) / 2
    near = [base]
    up, down = base.copy(), base.copy()
    for _ in range(4):
        up, down = np.nextafter(up, np.float32(np.inf)), np.nextafter(down, np.float32(-np.inf))
        near += [up, down]
    rng = np.random.default_rng(11)
    wide = rng.standard_normal(200000).astype(np.float32) * np.float32(100)
    ends = np.array([65504, 65519, 65520, 1e10, -65520, -1e10, np.inf, -np.inf, 127.5,
                     -128.5, 128.49999, -0.0], np.float32)
    v = np.concatenate([*near, wide, ends])
    one = np.clip(np.rint(v.astype(np.float64)), -128, 127).astype(np.int8)
    assert np.array_equal(quantized.odd_then_rint(v), one)
    tie = np.float32(2.5000002)
    assert quantized.odd_then_rint(np.array([tie]))[0] == 3
    assert np.rint(np.float64(np.float16(tie))) == 2  # nearest first rounds twice


@pytest.mark.parametrize(("attr", "said"), [
    ({"quant_mode": "fast"}, "must be static or dynamic"),
    ({"scales": "tensor"}, "the dynamic mode's smooth scales are compared per channel"),
    ({"quant_mode": "static", "scales": "row"}, "must be channel"),
    ({"approximate": "fast"}, "must be none or tanh"),
    ({"dst_type": "35"}, "int8 output (dst_type 2, DT_INT8)"),
    ({"alpha": "1"}, "gelu_quant has no attribute 'alpha'"),
])
def test_attributes_it_does_not_compute_are_refused(attr: dict[str, str], said: str) -> None:
    with pytest.raises(CheckError) as error:
        from_quantized("gelu_quant", attr)
    assert said in str(error.value)


def test_the_bench_table_names_and_replaces_the_variants(tmp_path: Path) -> None:
    """bench/check_kernel_ops_nn.py: a variant's row shows its attributes, and a sweep of the
    folder with --folders replaces the variants' rows with the folder's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "check_kernel_ops_nn", Path(__file__).parents[1] / "bench" / "check_kernel_ops_nn.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ops_nn = Path("/ops-nn")
    assert bench._maps_to(ops_nn, "activation/gelu_quant:static-tensor") == (
        "gelu_quant quant_mode=static scales=tensor")
    assert bench._maps_to(ops_nn, "activation/gelu_quant") == "gelu_quant"
    old = [("activation/gelu_quant", "ascend910b", "f16", "differing (old)"),
           ("activation/gelu_quant:static", "ascend910b", "f16", "differing (old)"),
           ("activation/gelu", "ascend910b", "f16", "bit-exact (3 runs)")]
    out = tmp_path / "table.md"
    out.write_text(bench.markdown(old, [], ops_nn, "c0", "c1"))
    new = [("activation/gelu_quant:static", "ascend910b", "f16", "bit-exact (19 runs)")]
    rows, _ = bench._merged(out, ["activation/gelu_quant"], new, [])
    assert [(r[0], r[3]) for r in rows] == [("activation/gelu", "bit-exact (3 runs)"),
                                            ("activation/gelu_quant:static",
                                             "bit-exact (19 runs)")]


@pytest.mark.parametrize("bad", ["0.0", "0x7FC00000"])
def test_a_constant_scale_of_zero_or_nan_is_one_located_warning(bad: str) -> None:
    """The static generic with its scale a constant zero or NaN: the generic stays on the host
    with one warning at it, naming the scaling op's line (every element would be one value)."""
    from hswc.remarks import collecting
    from hswc.runner import compile_text

    text = quantized.static_module_text(4, 64, "f32", "none", per_tensor=False).replace(
        "%scaled = arith.mulf %gelu, %w : f32",
        f"%bad = arith.constant {bad} : f32\n      %scaled = arith.mulf %gelu, %bad : f32")
    line = next(k for k, t in enumerate(text.splitlines(), 1) if "%scaled = arith.mulf" in t)
    with collecting() as said:
        compile_text(text, name="z.mlir", level="tiled", soc="ascend910b")
    assert len(said) == 1 and said[0].severity == "warning", said
    assert said[0].where == "z.mlir:13:3"
    assert f"'arith.mulf' at z.mlir:{line}:7 scales by" in said[0].text
    assert "a quantization scale of zero or NaN" in said[0].text
