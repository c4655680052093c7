"""f8E4M3FN and f8E5M2 as a quantizing generic's output (`arith.truncf` to f8): hswc's
interpreter against an independent model of the two formats (every value decoded from its bit
fields, f32 rounded to the nearest, ties to an even significand, beyond the largest finite
value NaN for E4M3FN, which has no inf, and inf for E5M2, as MLIR's APFloat rounds). Ascend
950's kernel (an exact Cast to float, then float -> fp8 CAST_RINT with CTRL[48] = 1 set at its
start: hswc.float8_casts) gives the same bits at every level; its Cast, modelled with the CTRL
register, saturates without that bit (every f16 pattern, both modes). Atlas A2/A3, which has no
Cast to an 8-bit float, keeps the generic on the host with one located warning."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.dialects import ascend
from hswc.float8_casts import DEFAULT_CTRL, set_bits
from hswc.interpreter.ascendc_cast import cast
from hswc.runner import compile_text

FORMATS = {"f8E4M3FN": (4, 3, ml_dtypes.float8_e4m3fn), "f8E5M2": (5, 2, ml_dtypes.float8_e5m2)}


def _module(element: str, n: int) -> str:
    return f"""#id = affine_map<(d0) -> (d0)>
func.func @q(%x: tensor<{n}xf32>, %s: tensor<{n}xf32>) -> tensor<{n}x{element}> {{
  %e = tensor.empty() : tensor<{n}x{element}>
  %y = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%x, %s : tensor<{n}xf32>, tensor<{n}xf32>) outs(%e : tensor<{n}x{element}>) {{
    ^bb0(%a: f32, %b: f32, %o: {element}):
      %m = arith.mulf %a, %b : f32
      %t = arith.truncf %m : f32 to {element}
      linalg.yield %t : {element}
  }} -> tensor<{n}x{element}>
  return %y : tensor<{n}x{element}>
}}
"""


def _finite_values(exponent: int, mantissa: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(the non-negative finite values, their bit patterns), decoded from the fields."""
    bias = (1 << (exponent - 1)) - 1
    values, codes = [], []
    for code in range(1 << (exponent + mantissa)):
        e, m = code >> mantissa, code & ((1 << mantissa) - 1)
        top = (1 << exponent) - 1
        if (name == "f8E5M2" and e == top) or (name == "f8E4M3FN" and e == top
                                                and m == (1 << mantissa) - 1):
            continue  # inf / NaN
        scale = 2.0 ** (max(e, 1) - bias)
        values.append(scale * ((1.0 if e else 0.0) + m / (1 << mantissa)))
        codes.append(code)
    return np.array(values), np.array(codes)


def _model(v: np.ndarray, name: str) -> np.ndarray:
    """f32 values rounded to the format (bit patterns), as the module docstring says."""
    exponent, mantissa, _ = FORMATS[name]
    values, codes = _finite_values(exponent, mantissa, name)
    top = values[-1]
    beyond = top + 2.0 ** (np.floor(np.log2(top)) - mantissa)  # the next step past the top
    out = np.empty(v.size, np.uint8)
    for i, x in enumerate(v.astype(np.float64)):
        sign = 0x80 if np.signbit(x) else 0
        a = abs(x)
        if np.isnan(x):
            out[i] = 0x7F if name == "f8E4M3FN" else 0x7E
            continue
        k = int(np.searchsorted(values, a))
        if k == len(values):  # past the top: to the top, or beyond it (NaN / inf)
            lo, hi, hi_even = top, beyond, name == "f8E5M2"  # 57344 -> 2^16 is even
        else:
            lo = values[k - 1] if k else values[0]
            hi = values[k]
            hi_even = codes[k] % 2 == 0
        if a == hi or (a - lo > hi - a) or (a - lo == hi - a and hi_even):
            pick_hi = True
        else:
            pick_hi = False
        if pick_hi and hi == beyond:
            out[i] = sign | (0x7F if name == "f8E4M3FN" else 0x7C)
        else:
            chosen = hi if pick_hi else lo
            out[i] = sign | codes[int(np.searchsorted(values, chosen))]
    return out


@pytest.mark.parametrize("name", list(FORMATS))
def test_the_interpreter_rounds_to_float8_as_the_model(name: str) -> None:
    """Each f8 value, each midpoint between neighbours and its f32 neighbours, values beyond
    the largest finite one, signed zeros and random products: bit for bit (NaNs by class)."""
    exponent, mantissa, _ = FORMATS[name]
    values, _ = _finite_values(exponent, mantissa, name)
    mids = (values[1:] + values[:-1]) / 2
    top = values[-1]
    beyond = top + 2.0 ** (np.floor(np.log2(top)) - mantissa)
    edge = np.array([(top + beyond) / 2, beyond, beyond * 4, 1e30, np.inf])
    grid = np.concatenate([values, mids, edge]).astype(np.float32)
    v = np.concatenate([grid, np.nextafter(grid, np.float32(0)),
                        np.nextafter(grid, np.float32(np.inf))])
    v = np.concatenate([v, -v, [0.0, -0.0]]).astype(np.float32)
    rng = np.random.default_rng(2)
    x = np.concatenate([v, rng.standard_normal(4096).astype(np.float32) * 40])
    s = np.concatenate([np.ones(v.size, np.float32),
                        rng.uniform(0.1, 30, 4096).astype(np.float32)])
    y = compile_text(_module(name, x.size), name="f8", level="linalg").run(x, s).outputs[0]
    got = np.asarray(y).view(np.uint8)
    want = _model((x * s).astype(np.float32), name)
    nan = np.isnan(np.asarray(y).astype(np.float32))
    assert np.array_equal(nan, np.isnan(want.view(FORMATS[name][2]).astype(np.float32)))
    assert np.array_equal(got[~nan], want[~nan])
    assert nan.any() if name == "f8E4M3FN" else np.isinf(np.asarray(y).astype(np.float32)).any()


NON_SATURATING = set_bits(DEFAULT_CTRL, 48, 48, 1)
SOURCES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}


def _saturated(want: np.ndarray, x: np.ndarray, name: str) -> np.ndarray:
    """The model's bits as the saturating Cast gives them: a result beyond the finite values
    (NaN or inf from a number) +-max, a NaN input 0 (SetCtrlSpr(ISASI).md, CTRL[48] = 0)."""
    top = 0x7E if name == "f8E4M3FN" else 0x7B
    values = want.view(FORMATS[name][2]).astype(np.float32)
    beyond = ~np.isfinite(values) & ~np.isnan(x)
    sign = np.where(np.signbit(x), 0x80, 0).astype(np.uint8)
    out = np.where(beyond, sign | top, want)
    return np.where(np.isnan(x), 0, out).astype(np.uint8)


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_f16_pattern_casts_as_the_model_under_both_modes(name: str) -> None:
    """The ascend level's Cast float -> fp8 (CAST_RINT) of every f16 value widened (exactly) to
    float: without saturation the model bit for bit (NaNs by class); saturating, beyond the
    finite values +-max and NaN 0."""
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float32)
    want = _model(x, name)
    dtype = np.dtype(FORMATS[name][2])
    for ctrl, expected in ((NON_SATURATING, want), (DEFAULT_CTRL, _saturated(want, x, name))):
        dst = np.zeros(x.size, dtype)
        cast(dst, x, "rint", x.size, "dav_3510", ctrl)
        got = dst.view(np.uint8)
        nan = np.isnan(dst.astype(np.float32))
        assert np.array_equal(nan, np.isnan(expected.view(dtype).astype(np.float32)))
        assert np.array_equal(got[~nan], expected[~nan]), name


def _edge_values(source: str, n: int) -> np.ndarray:
    """Each f8 value and midpoint's neighbours in the source type, values past the top, inf,
    NaN, signed zeros, subnormals and random ones: n in all."""
    grid = []
    for exponent, mantissa, _ in FORMATS.values():
        values, _ = _finite_values(exponent, mantissa, "f8E5M2" if exponent == 5 else "f8E4M3FN")
        grid += [values, (values[1:] + values[:-1]) / 2]
    base = np.concatenate([*grid, [480.0, 464.0, 61440.0, 65504.0, 1e30, np.inf, np.nan, 0.0,
                                   2.0**-10, 2.0**-17, 3 * 2.0**-18]])
    t = SOURCES[source]
    with np.errstate(over="ignore"):
        v = base.astype(t)
    v = np.concatenate([v, np.nextafter(v, t(0)), np.nextafter(v, t(np.inf))])
    v = np.concatenate([v, -v])
    rng = np.random.default_rng(5)
    rest = (rng.standard_normal(n - v.size) * 200).astype(t)
    return np.concatenate([v, rest])


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("name", list(FORMATS))
def test_every_level_writes_the_same_bits_on_950(name: str, source: str) -> None:
    """x * s -> truncf, lowered for Ascend 950 with 3 cores: linalg (the model, NaNs by class),
    tiled, blocked and ascend give identical bits for edge values and random ones."""
    n = 4096
    x = _edge_values(source, n)
    s = np.ones(n, SOURCES[source])
    text = _module(name, n).replace("f32", source)
    outputs = {level: np.asarray(compile_text(text, name="f8", level=level, soc="ascend950",
                                              core_num=3).run(x, s).outputs[0]).view(np.uint8)
               for level in ("linalg", "tiled", "blocked", "ascend")}
    for level, got in outputs.items():
        assert np.array_equal(got, outputs["linalg"]), level
    want = _model(x.astype(np.float32), name)
    nan = np.isnan(outputs["linalg"].view(FORMATS[name][2]).astype(np.float32))
    assert np.array_equal(outputs["linalg"][~nan], want[~nan])


def test_the_kernel_sets_the_non_saturating_mode_and_needs_it() -> None:
    """The 950 kernel sets CTRL[48] once (printed as AscendC::SetCtrlSpr<48, 48>(1)); without
    it the interpreter's Cast saturates: 448 and 0 where truncf gives NaN."""
    n = 64
    x = np.array([1e4, -1e4, np.inf, np.nan] * (n // 4), np.float32)
    kernel = compile_text(_module("f8E4M3FN", n), name="f8", level="ascend", soc="ascend950")
    sets = [op for op in kernel.module.walk() if isinstance(op, ascend.SetCtrlSprOp)]
    assert [op.bits for op in sets] == [(48, 48, 1)]
    from hswc.backend.source import kernel_source

    assert "AscendC::SetCtrlSpr<48, 48>(1);" in kernel_source(kernel.module)
    good = np.asarray(kernel.run(x, np.ones(n, np.float32)).outputs[0]).astype(np.float32)
    assert np.isnan(good).all()
    sets[0].detach()
    sets[0].erase()
    bad = np.asarray(kernel.run(x, np.ones(n, np.float32)).outputs[0]).astype(np.float32)
    assert bad[:4].tolist() == [448.0, -448.0, 448.0, 0.0]


@pytest.mark.parametrize("name", list(FORMATS))
def test_a2_keeps_a_float8_output_on_the_host_with_one_located_warning(name: str) -> None:
    """Lowered for Atlas A2, the generic stays on the host with one warning at it naming its
    truncf and why, and the module still runs (on the host) as the linalg level does."""
    from hswc.remarks import collecting

    with collecting() as found:
        kernel = compile_text(_module(name, 64), name="f8.mlir", level="tiled", soc="ascend910b")
    module = str(kernel.module)
    assert "linalg.generic" in module and "hsg.launch" not in module
    assert len(found) == 1 and found[0].severity == "warning", found
    assert f"'arith.truncf' at f8.mlir:8:7 converts f32 to {name}, which Atlas A2/A3's Cast " \
        "does not" in found[0].text
    assert found[0].where == "f8.mlir:4:3"
    x = np.linspace(-500, 500, 64, dtype=np.float32)
    y = np.asarray(kernel.run(x, np.ones(64, np.float32)).outputs[0])
    assert np.array_equal(y.view(np.uint8), x.astype(FORMATS[name][2]).view(np.uint8))


def test_hswc_run_checks_and_writes_a_float8_result(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """hswc-run --soc ascend950 --check compares the kernel's f8 result bit for bit with the
    host's, and writes it as numpy saves an ml_dtypes float8 array (`|V1`)."""
    from hswc.tools.hswc_run import main

    source = tmp_path / "q.mlir"
    source.write_text(_module("f8E5M2", 64))
    x = np.linspace(-7e4, 7e4, 64, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "s.npy", np.ones(64, np.float32))
    out = tmp_path / "y.npy"
    assert main([str(source), "--soc", "ascend950", "--input", str(tmp_path / "x.npy"),
                 "--input", str(tmp_path / "s.npy"), "--output", str(out), "--check"]) == 0
    assert "bit-exact: all 64 float8_e5m2 elements match" in capsys.readouterr().out
    y = np.load(out).view(ml_dtypes.float8_e5m2)
    assert np.array_equal(y.view(np.uint8), _model(x, "f8E5M2"))


def test_hswc_emit_packages_a_float8_kernel_for_950_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 950 package declares y DT_FLOAT8_E5M2 (op definition, aclnn check, tiling) and its
    kernel sets the non-saturating mode; for Atlas A2/A3 hswc-emit writes nothing and says why
    (the generic's warning, then one error)."""
    from hswc.tools.hswc_emit import main

    source = tmp_path / "q.mlir"
    source.write_text(_module("f8E5M2", 64))
    out = tmp_path / "pkg"
    assert main([str(source), "--soc", "ascend950", "--name", "QuantF8", "-o", str(out)]) == 0
    assert ".DataType({ge::DT_FLOAT8_E5M2})" in (out / "op_host" / "quant_f8_def.cpp").read_text()
    assert "op::DataType::DT_FLOAT8_E5M2" in \
        (out / "op_host" / "op_api" / "aclnn_quant_f8.cpp").read_text()
    kernel = (out / "op_kernel" / "arch35" / "quant_f8.h").read_text()
    assert "AscendC::SetCtrlSpr<48, 48>(1);" in kernel and "fp8_e5m2_t" in kernel
    capsys.readouterr()
    assert main([str(source), "--name", "QuantF8", "-o", str(tmp_path / "a2")]) == 1
    err = capsys.readouterr().err
    assert "warning: 'linalg.generic' stays on the host" in err and "Atlas A2/A3's Cast" in err
    assert "error: the module holds no kernel to package" in err
    assert not (tmp_path / "a2").exists()


ROW_QUANT = """#x = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @q(%x: tensor<8x256xf32>) -> tensor<8x256xf8E4M3FN> {
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x256xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.maximumf %a, %acc : f32
      linalg.yield %v : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x256xf8E4M3FN>
  %y = linalg.generic {indexing_maps = [#x, #r, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x256xf32>, tensor<8xf32>) outs(%e : tensor<8x256xf8E4M3FN>) {
    ^bb0(%a: f32, %mx: f32, %o: f8E4M3FN):
      %d = arith.divf %a, %mx : f32
      %c = arith.constant 1.0e+3 : f32
      %s = arith.mulf %d, %c : f32
      %t = arith.truncf %s : f32 to f8E4M3FN
      linalg.yield %t : f8E4M3FN
  } -> tensor<8x256xf8E4M3FN>
  return %y : tensor<8x256xf8E4M3FN>
}
"""
"""A dynamic per-row quantization to f8E4M3FN: x / (the row's max) * 1000, beyond 448 for many."""


def test_a_row_kernel_writing_float8_sets_the_mode_too() -> None:
    """The row kernel (a reduction, then the quantizing body) sets CTRL[48] as the elementwise
    one does, so its NaNs beyond 464 are truncf's at every level."""
    x = np.random.default_rng(1).standard_normal((8, 256)).astype(np.float32)
    outs = {}
    for level in ("linalg", "tiled", "ascend"):
        kernel = compile_text(ROW_QUANT, name="r.mlir", level=level, soc="ascend950", core_num=3)
        outs[level] = np.asarray(kernel.run(x).outputs[0]).view(np.uint8)
    assert "ascend.set_ctrl_spr" in str(kernel.module)
    assert all(np.array_equal(o, outs["linalg"]) for o in outs.values())
    assert np.isnan(outs["linalg"].view(ml_dtypes.float8_e4m3fn).astype(np.float32)).sum() > 100
