"""The scalar semantics bodies on the host need beyond the kernels' (hswc.arith_integer_semantics,
hswc.host_math_semantics, hswc.interpreter.body_ops): integers of their own width, fpowi, f64
and other math, cf.assert and tensor.extract in a body; hand-checked against arith's and math's
definitions, and through whole bodies."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from hswc import arith_integer_semantics as ints
from hswc import host_math_semantics as host_math
from hswc.runner import KernelError, compile_text

I8, I32, I64 = np.dtype(np.int8), np.dtype(np.int32), np.dtype(np.int64)
BF16 = np.dtype(ml_dtypes.bfloat16)


def test_integers_wrap_in_their_width() -> None:
    a, b = np.array([127, -128, 100], I8), np.array([1, -1, 100], I8)
    assert ints.BINARY["arith.addi"](a, b).tolist() == [-128, 127, -56]
    assert ints.BINARY["arith.muli"](a, b).tolist() == [127, -128, 16]
    assert ints.BINARY["arith.addi"](np.array([True, True]), np.array([True, False])).tolist() \
        == [False, True]  # i1 addition is xor


def test_divisions_round_toward_zero_and_read_unsigned_bits() -> None:
    a, b = np.array([-7, 7, -7, 7], I32), np.array([2, -2, -2, 2], I32)
    assert ints.BINARY["arith.divsi"](a, b).tolist() == [-3, -3, 3, 3]
    assert ints.BINARY["arith.remsi"](a, b).tolist() == [-1, 1, -1, 1]
    assert ints.BINARY["arith.floordivsi"](a, b).tolist() == [-4, -4, 3, 3]
    assert ints.BINARY["arith.ceildivsi"](a, b).tolist() == [-3, -3, 4, 4]
    assert ints.BINARY["arith.divui"](np.array([-2], I8), np.array([2], I8)).tolist() == [127]
    assert ints.BINARY["arith.maxui"](np.array([-1], I8), np.array([1], I8)).tolist() == [-1]
    with pytest.raises(ints.IntegerError, match="divides by zero"):
        ints.BINARY["arith.divsi"](a, np.zeros(4, I32))
    with pytest.raises(ints.IntegerError, match="smallest value by -1"):
        ints.BINARY["arith.divsi"](np.array([-128], I8), np.array([-1], I8))


def test_compares_and_conversions() -> None:
    a, b = np.array([-1, 1], I8), np.array([1, 1], I8)
    names = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
    table = {n: ints.CMPI[i](a, b).tolist() for i, n in enumerate(names)}
    assert table["slt"] == [True, False] and table["ult"] == [False, False]
    assert table["ugt"] == [True, False] and table["uge"] == [True, True]
    assert ints.extend(np.array([-1], I8), I32, signed=False).tolist() == [255]
    assert ints.extend(np.array([-1], I8), I32, signed=True).tolist() == [-1]
    assert ints.extend(np.array([True]), I32, signed=True).tolist() == [-1]
    assert ints.truncate(np.array([257, 3], I32), I8).tolist() == [1, 3]
    assert ints.truncate(np.array([2, 3], I32), np.dtype(np.bool_)).tolist() == [False, True]
    # sitofp rounds once to nearest even: 2^24 + 1 is a tie in f32, 257 one in bf16
    assert ints.to_float(np.array([2 ** 24 + 1], I64), np.dtype(np.float32), True)[0] == 2 ** 24
    assert float(ints.to_float(np.array([257, 259], I32), BF16, True)[1]) == 260.0
    assert ints.to_float(np.array([True]), np.dtype(np.float32), signed=True).tolist() == [-1.0]
    assert ints.to_integer(np.array([-2.9, 2.9], np.float32), I32, True).tolist() == [-2, 2]
    assert ints.constant(-1, np.dtype(np.bool_)) and ints.constant(255, I8) == -1


def test_fpowi_multiplies_in_f32_or_f64() -> None:
    """Square-and-multiply, each product rounded in f32 (f64 for f64): x^3 of an f16 is
    x * (x * x) in f32, rounded once to f16, which differs from the product rounded to f16 at
    each step; a negative exponent is the reciprocal."""
    x = np.array([1.5, -2.0, 0.1, 3.0], np.float32)
    assert host_math.fpowi(x, np.int64(2)).tobytes() == (x * x).tobytes()
    assert host_math.fpowi(x, np.int64(3)).tobytes() == (x * (x * x)).tobytes()
    assert host_math.fpowi(x, np.int64(0)).tolist() == [1.0] * 4
    assert host_math.fpowi(np.float32(2.0), np.int64(-3)) == np.float32(0.125)
    f16 = np.arange(0x3C00, 0x4000, dtype=np.uint16).view(np.float16)  # [1, 2)
    wide = f16.astype(np.float32)
    once = (wide * (wide * wide)).astype(np.float16)
    stepwise = f16 * (f16 * f16)
    assert (once != stepwise).sum() == 249  # 1.0137 ** 3: 1.042 in f32, 1.041 rounded twice
    assert host_math.fpowi(f16, np.int64(3)).tobytes() == once.tobytes()
    x64 = np.array([1.1, -0.3])
    assert host_math.fpowi(x64, np.int64(5)).tolist() == [
        v * ((v * v) * (v * v)) for v in (1.1, -0.3)]


def test_math_in_double_rounds_once() -> None:
    x = np.array([0.5, -1.25, 2.0], np.float32)
    assert host_math.in_double("math.erf", x).tolist() == [
        np.float32(math.erf(v)) for v in (0.5, -1.25, 2.0)]
    assert host_math.in_double("math.round", np.array([2.5, -2.5, 0.49999997], np.float32)
                               ).tolist() == [3.0, -3.0, 0.0]
    assert host_math.in_double("math.roundeven", np.array([2.5, 3.5], np.float32)).tolist() == [
        2.0, 4.0]
    assert host_math.in_double("math.floor", np.array([-0.5], BF16)).dtype == BF16


BODY = """
func.func @main(%x: tensor<4xf64>, %t: tensor<3xf32>, %k: tensor<4xi64>)
    -> (tensor<4xf64>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4xf64>
  %e1 = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %k : tensor<4xf64>, tensor<4xi64>) outs(%e0, %e1 : tensor<4xf64>, tensor<4xf32>) {
  ^bb0(%a: f64, %i: i64, %o0: f64, %o1: f32):
    %s = math.sqrt %a : f64
    %three = arith.constant 3 : i32
    %p = math.fpowi %s, %three : f64, i32
    %zero = arith.constant 0 : i64
    %ok = arith.cmpi sge, %i, %zero : i64
    cf.assert %ok, "index must not be negative"
    %j = arith.index_cast %i : i64 to index
    %v = tensor.extract %t[%j] : tensor<3xf32>
    linalg.yield %p, %v : f64, f32
  } -> (tensor<4xf64>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf64>, tensor<4xf32>
}"""


def test_a_body_with_f64_math_asserts_and_gathers() -> None:
    kernel = compile_text(BODY, name="b.mlir", level="hsg")
    x = np.array([4.0, 2.0, 9.0, 0.25])
    t = np.array([10, 20, 30], np.float32)
    p, v = kernel.run(x, t, np.array([2, 0, 1, 2], np.int64)).outputs
    s = np.sqrt(x)
    assert p.tolist() == (s * (s * s)).tolist() and v.tolist() == [30, 10, 20, 30]
    with pytest.raises(KernelError, match=r"b.mlir:\d+:\d+: error: 'cf.assert' assertion "
                       "failed: index must not be negative"):
        kernel.run(x, t, np.array([2, -1, 1, 2], np.int64))
    with pytest.raises(KernelError, match=r"'tensor.extract' reads index 3 of dim 0 of a tensor "
                       r"of shape \(3,\)"):
        kernel.run(x, t, np.array([2, 3, 1, 2], np.int64))


@pytest.mark.parametrize("op", ["exp", "rsqrt", "tanh"])
def test_math_on_bf16_is_computed_in_f32_and_rounded_once(op: str) -> None:
    """As hsg-widen-bf16 lowers it for the kernels (the vector unit has no bf16 math) and MLIR's
    math-extend-to-supported-types: the f32 model's result, rounded to bf16."""
    from hswc import arith_semantics as sem
    from hswc.interpreter.body import _ArrayBuilder
    from hswc.math_decompositions import MATH_OPS

    x = np.arange(0, 1 << 16, dtype=np.uint16).view(BF16)
    n = x.size
    text = f"""
func.func @main(%x: tensor<{n}xbf16>) -> tensor<{n}xbf16> {{
  %e = tensor.empty() : tensor<{n}xbf16>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<{n}xbf16>) outs(%e : tensor<{n}xbf16>) {{
  ^bb0(%a: bf16, %o: bf16):
    %y = math.{op} %a : bf16
    linalg.yield %y : bf16
  }} -> tensor<{n}xbf16>
  return %r : tensor<{n}xbf16>
}}"""
    (got,) = compile_text(text, level="hsg").run(x).outputs
    want = sem.convert(np.asarray(MATH_OPS[f"math.{op}"](_ArrayBuilder(), x.astype(np.float32))),
                       BF16)
    nan = np.isnan(want.astype(np.float32))
    assert np.array_equal(np.isnan(got.astype(np.float32)), nan)
    assert np.array_equal(got.view(np.uint16)[~nan], want.view(np.uint16)[~nan])
