"""What exporters write inside regions (issue 35): math.fpowi by a constant exponent, integer
constants converted to floats, and f64 tensor arithmetic (computed in f32 with a remark, or
refused with --strict-f64). Each is run at every level against numpy written from MLIR's
semantics of the op."""

from __future__ import annotations

import numpy as np
import pytest

from hswc import runner
from hswc.remarks import collecting
from hswc.runner import LEVELS, CompileError

MAP = "affine_map<(d0) -> (d0)>"
NUMPY = {"f16": np.float16, "f32": np.float32}


def _unary(dtype: str, body: str, extra: str = "", out: str | None = None) -> str:
    out = out or dtype
    return f"""\
func.func @f(%x: tensor<77x{dtype}>) -> tensor<77x{out}> {{
{extra}  %e = tensor.empty() : tensor<77x{out}>
  %y = linalg.generic {{indexing_maps = [{MAP}, {MAP}], iterator_types = ["parallel"]}}
      ins(%x : tensor<77x{dtype}>) outs(%e : tensor<77x{out}>) {{
  ^bb0(%a: {dtype}, %o: {out}):
{body}
  }} -> tensor<77x{out}>
  func.return %y : tensor<77x{out}>
}}
"""


def _samples(dtype: str) -> np.ndarray:
    r = np.random.default_rng(7)
    x = (r.standard_normal(77) * 20).astype(NUMPY[dtype])
    x[:5] = [0.0, -0.0, np.inf, -np.inf, np.nan]
    return x


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.array_equal(a.view(np.uint32 if a.itemsize == 4 else np.uint16),
                               b.view(np.uint32 if b.itemsize == 4 else np.uint16)))


def _squaring(x: np.ndarray, n: int) -> np.ndarray:
    """x ** n as LLVM expands math.fpowi and compiler-rt's __powisf2 computes it, in f32."""
    w = x.astype(np.float32)
    with np.errstate(all="ignore"):
        result, square, m = None, w, abs(n)
        while m:
            if m & 1:
                result = square if result is None else result * square
            m >>= 1
            if m:
                square = square * square
        r = np.ones_like(w) if result is None else result
        r = np.float32(1) / r if n < 0 else r
        return r.astype(x.dtype)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", [2, 3, -2, 0, 5])
@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_fpowi_by_a_constant_exponent(dtype: str, n: int, level: str) -> None:
    text = _unary(dtype, f"    %p = math.fpowi %a, %n : {dtype}, i64\n    linalg.yield %p : "
                  f"{dtype}", extra=f"  %n = arith.constant {n} : i64\n")
    kernel = runner.compile_text(text, level=level, core_num=3, ub_size=8192)
    x = _samples(dtype)
    assert _same(np.asarray(kernel(x)), _squaring(x, n))
    if level == "ascend":
        assert "hsg.launch" in str(kernel.module)


def test_fpowi_by_an_exponent_known_at_run_time_stays_on_the_host() -> None:
    text = """\
#m = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<8xf32>, %n: i32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %n : f32, i32
    linalg.yield %p : f32
  } -> tensor<8xf32>
  func.return %y : tensor<8xf32>
}
"""
    with collecting() as said:
        module = str(runner.compile_text(text, level="tiled").module)
    assert "hsg.launch" not in module
    assert [r.severity for r in said] == ["warning"]
    assert "exponent that is not an arith.constant" in said[0].text


@pytest.mark.parametrize("level", ["linalg", "ascend"])
def test_an_integer_constant_converted_to_a_float_is_that_float(level: str) -> None:
    """torch-mlir writes `1 - x` as a tensor<i64> constant read through sitofp."""
    text = """\
#s = affine_map<(d0, d1) -> ()>
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %one = arith.constant dense<1> : tensor<i64>
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [#s, #m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%one, %x : tensor<i64>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%i: i64, %a: f32, %o: f32):
    %f = arith.sitofp %i : i64 to f32
    %d = arith.subf %f, %a : f32
    linalg.yield %d : f32
  } -> tensor<4x64xf32>
  func.return %y : tensor<4x64xf32>
}
"""
    kernel = runner.compile_text(text, level=level)
    x = np.random.default_rng(1).standard_normal((4, 64)).astype(np.float32)
    assert _same(np.asarray(kernel(x)), np.float32(1) - x)
    if level == "ascend":
        assert str(kernel.module).count("hsg.launch") == 1


F64_CHAIN = _unary("f32", """\
    %w = arith.extf %a : f32 to f64
    %m = arith.mulf %w, %third : f64
    %s = arith.addf %m, %eps : f64
    %r = arith.truncf %s : f64 to f32
    linalg.yield %r : f32""", extra="  %third = arith.constant 0.33333333333333331 : f64\n"
    "  %eps = arith.constant 1.0000000000000001E-5 : f64\n")


@pytest.mark.parametrize("level", LEVELS[1:])
def test_f64_arithmetic_is_computed_in_f32_with_a_remark(level: str) -> None:
    with collecting() as said:
        kernel = runner.compile_text(F64_CHAIN, level=level)
    assert any("computes in f32 what it wrote in f64" in r.text for r in said), said
    x = _samples("f32")
    got = np.asarray(kernel(x))
    with np.errstate(all="ignore"):
        in_f32 = x * np.float32(0.33333333333333331) + np.float32(1.0000000000000001e-5)
        in_f64 = (x.astype(np.float64) * 0.33333333333333331 + 1e-5).astype(np.float32)
    assert _same(got, in_f32)
    finite = np.isfinite(in_f64)
    ulps = np.abs(got[finite].view(np.int32).astype(np.int64)
                  - in_f64[finite].view(np.int32).astype(np.int64))
    assert ulps.max() <= 2  # two roundings in f32 where MLIR rounds once from f64
    if level == "ascend":
        assert "hsg.launch" in str(kernel.module)


def test_strict_f64_refuses_it_at_the_op() -> None:
    with pytest.raises(CompileError, match=r"9:5: error: 'arith.mulf' computes in f64"):
        runner.compile_text(F64_CHAIN, strict_f64=True)
