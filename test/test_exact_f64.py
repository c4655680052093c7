"""hsg-exact-f64: an f32 value widened to f64 and compared with an f64 constant gives, after the
rewrite into an f32 compare, the same answer for every predicate and every f32 x: the
constant's f32 neighbours, their neighbours, zeros, infinities and NaN included. The `hsg`
level runs the file as written (in f64, hswc.arith_semantics); the `linalg` level runs it
rewritten."""

from __future__ import annotations

import numpy as np
import pytest

from hswc.runner import compile_text
from hswc.vectorizer.dag import CMPF_NAMES

CONSTANTS = (0.01, 0.1, -0.7, 0.5, 1e39, -1e39, 1e-46, 3.4028235677973366e38,
             float.fromhex("0x1.000001p0"))
"""Inexact in f32 (two of them beyond its range, one below its smallest subnormal, one a tie
between two f32 values), and exact ones."""


def _text(c: float, swapped: bool) -> str:
    """Every predicate of (x, c) (or of (c, x)), the answers as the bits of an f32 (exact: 16
    powers of two)."""
    lines = ["func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {",
             "  %z = arith.constant 0 : index",
             "  %n = tensor.dim %a, %z : tensor<?xf32>",
             "  %e = tensor.empty(%n) : tensor<?xf32>",
             f"  %c = arith.constant 0x{np.float64(c).view(np.uint64):016X} : f64",
             "  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> "
             "(i)>], iterator_types = [\"parallel\"]} ins(%a : tensor<?xf32>) "
             "outs(%e : tensor<?xf32>) {",
             "  ^bb0(%x: f32, %o: f32):",
             "    %w = arith.extf %x : f32 to f64",
             "    %zero = arith.constant 0.0 : f32",
             "    %s0 = arith.constant 0.0 : f32"]
    for k, predicate in enumerate(CMPF_NAMES):
        operands = "%c, %w" if swapped else "%w, %c"
        lines += [f"    %p{k} = arith.cmpf {predicate}, {operands} : f64",
                  f"    %bit{k} = arith.constant {float(1 << k)!r} : f32",
                  f"    %u{k} = arith.select %p{k}, %bit{k}, %zero : f32",
                  f"    %s{k + 1} = arith.addf %s{k}, %u{k} : f32"]
    lines += [f"    linalg.yield %s{len(CMPF_NAMES)} : f32", "  } -> tensor<?xf32>",
              "  func.return %y : tensor<?xf32>", "}"]
    return "\n".join(lines)


def _inputs(c: float) -> np.ndarray:
    with np.errstate(over="ignore"):
        c32 = np.float32(c)
    around = [c32]
    for _ in range(3):
        around += [np.nextafter(around[-1], np.float32(np.inf))]
    below = [c32]
    for _ in range(3):
        below += [np.nextafter(below[-1], np.float32(-np.inf))]
    specials = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 3.4028235e38,
                           -3.4028235e38, 1e-45, -1e-45])
    return np.concatenate([np.float32(around + below), specials, -np.float32(around)])


@pytest.mark.parametrize("swapped", [False, True])
@pytest.mark.parametrize("c", CONSTANTS)
def test_widened_compares_with_f64_constants_keep_every_answer(c: float, swapped: bool) -> None:
    text = _text(c, swapped)
    x = _inputs(c)
    as_written = compile_text(text, level="hsg")(x)
    rewritten = compile_text(text, level="linalg")
    assert "f64" not in str(rewritten.module)
    assert np.array_equal(rewritten(x), as_written), (c, x)
    # the answers themselves, from Python's own doubles, for the ordered `<` and unordered `>`
    bits = as_written.astype(np.int64)
    olt, ugt = CMPF_NAMES.index("olt"), CMPF_NAMES.index("ugt")
    wide = x.astype(np.float64)
    lhs, rhs = (c, wide) if swapped else (wide, c)
    with np.errstate(invalid="ignore"):
        assert np.array_equal((bits >> olt) & 1, np.less(lhs, rhs).astype(np.int64))
        assert np.array_equal((bits >> ugt) & 1, (~np.less_equal(lhs, rhs)).astype(np.int64))
