"""f8E4M3FN and f8E5M2 as a quantizing generic's output (`arith.truncf` f32 to f8): hswc's
interpreter against an independent model of the two formats (every value decoded from its bit
fields, f32 rounded to the nearest, ties to an even significand, beyond the largest finite
value NaN for E4M3FN, which has no inf, and inf for E5M2, as MLIR's APFloat rounds), and the
one located message that keeps such a generic on the host on both SoCs (no kernel writes an
8-bit float yet: hswc.elementwise.FLOAT8_CASTS)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

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


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
@pytest.mark.parametrize(("name", "said"), [
    ("f8E4M3FN", "Atlas A2/A3's Cast converts to no 8-bit float"),
    ("f8E5M2", "fp8_e5m2_t (CAST_RINT alone"),
])
def test_a_float8_output_is_one_located_message(name: str, said: str, soc: str) -> None:
    """Lowered for either SoC, the generic stays on the host with one warning at it saying
    why, and the module still runs (on the host) as the linalg level does."""
    from hswc.remarks import collecting

    with collecting() as found:
        kernel = compile_text(_module(name, 64), name="f8.mlir", level="tiled", soc=soc)
    module = str(kernel.module)
    assert "linalg.generic" in module and "hsg.launch" not in module
    assert len(found) == 1 and found[0].severity == "warning", found
    assert said in found[0].text and f"has the element type {name}" in found[0].text
    assert found[0].where == "f8.mlir:4:3"
