"""linalg.generic on the host (hswc.interpreter.structured): reductions in MLIR's loop order,
several results, bodies reading their output or their indices, windowed maps; each against
hand-checked values or explicit loops written from MLIR's definition (convert-linalg-to-loops:
the dims nested in order, the body run at each point), and refused at the op where MLIR's
semantics are undefined or the map is not affine in the dims."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from hswc.runner import KernelError, compile_text

F32, F16, BF16 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
NAMES = {F32: "f32", F16: "f16", BF16: "bf16"}


def run(text: str, *inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    return compile_text(text, level="hsg").run(*inputs).outputs


def row_sum(dtype: np.dtype, rows: int, cols: int) -> str:
    t = NAMES[dtype]
    return f"""
func.func @main(%x: tensor<{rows}x{cols}x{t}>) -> tensor<{rows}x{t}> {{
  %zero = arith.constant 0.0 : {t}
  %e = tensor.empty() : tensor<{rows}x{t}>
  %init = linalg.fill ins(%zero : {t}) outs(%e : tensor<{rows}x{t}>) -> tensor<{rows}x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<{rows}x{cols}x{t}>) outs(%init : tensor<{rows}x{t}>) {{
  ^bb0(%in: {t}, %acc: {t}):
    %s = arith.addf %acc, %in : {t}
    linalg.yield %s : {t}
  }} -> tensor<{rows}x{t}>
  return %r : tensor<{rows}x{t}>
}}"""


def test_a_sum_is_taken_in_loop_order() -> None:
    """1e8 + 1 + 1 - 1e8 in f32, left to right, is 0 (each 1 is lost); in another order it is
    2: the host sums as MLIR's loops do."""
    x = np.array([[1e8, 1, 1, -1e8], [1, 1, 1e8, -1e8]], np.float32)
    (got,) = run(row_sum(F32, 2, 4), x)
    assert got.tolist() == [0.0, 0.0]
    assert float(np.sum(x[0], dtype=np.float64)) == 2.0


@pytest.mark.parametrize("dtype", [F32, F16, BF16], ids=lambda d: NAMES[d])
def test_a_sum_equals_explicit_loops_in_its_type(dtype: np.dtype) -> None:
    x = (np.random.default_rng(1).standard_normal((3, 50)) * 100).astype(dtype)
    want = np.zeros(3, dtype)
    for i, j in itertools.product(range(3), range(50)):  # MLIR's loop nest, one add at a time
        want[i] = (want[i].astype(np.float32) + x[i, j].astype(np.float32)).astype(dtype)
    (got,) = run(row_sum(dtype, 3, 50), x)
    assert got.dtype == dtype and got.view(np.uint8).tobytes() == want.view(np.uint8).tobytes()


ARGMAX = """
func.func @main(%x: tensor<3x5xf32>) -> (tensor<3xf32>, tensor<3xi64>) {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<3xi64>
  %i0 = linalg.fill ins(%c0 : i64) outs(%e0 : tensor<3xi64>) -> tensor<3xi64>
  %e1 = tensor.empty() : tensor<3xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x5xf32>) outs(%m0, %i0 : tensor<3xf32>, tensor<3xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %k = arith.index_cast %j : index to i64
    %mx = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %s = arith.select %gt, %k, %i : i64
    linalg.yield %mx, %s : f32, i64
  } -> (tensor<3xf32>, tensor<3xi64>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xi64>
}"""


def test_max_and_index_two_results() -> None:
    """torch.max(x, -1) as torch-mlir writes it: the first of equal maxima wins (ogt), and a
    NaN makes the maximum NaN (maximumf), after which no ogt holds: the index stays 0, where
    the last ogt (1 > -inf) left it."""
    x = np.array([[1, 5, 5, 2, 0], [-3, -1, -2, -1, -5], [1, np.nan, 7, 2, 3]], np.float32)
    values, indices = run(ARGMAX, x)
    assert indices.dtype == np.int64 and indices.tolist() == [1, 1, 0]
    assert values[:2].tolist() == [5.0, -1.0] and np.isnan(values[2])


def test_index_of_parallel_and_reduction_dims() -> None:
    text = """
func.func @main(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} outs(%x : tensor<2x3xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ten = arith.constant 10 : index
    %t = arith.muli %i, %ten : index
    %s = arith.addi %t, %j : index
    %v = arith.index_cast %s : index to i64
    linalg.yield %v : i64
  } -> tensor<2x3xi64>
  return %r : tensor<2x3xi64>
}"""
    (got,) = run(text, np.zeros((2, 3), np.int64))
    assert got.tolist() == [[0, 1, 2], [10, 11, 12]]


def test_transposed_output_and_broadcast_input() -> None:
    """out[j, i] = x[i] * y[j, i] + 1: a transposed output map, an input with a dim dropped."""
    text = """
func.func @main(%x: tensor<3xf32>, %y: tensor<2x3xf32>, %o: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<3xf32>, tensor<2x3xf32>) outs(%o : tensor<3x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}"""
    x = np.array([1, 2, 3], np.float32)
    y = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    (got,) = run(text, x, y, np.ones((3, 2), np.float32))
    assert got.tolist() == [[2, 5], [5, 11], [10, 19]]


def test_a_windowed_map_equals_explicit_loops() -> None:
    """A 1-D convolution written as a generic: x[d0 * 2 + d1] (stride 2) gathered per window."""
    text = """
func.func @main(%x: tensor<9xf32>, %w: tensor<3xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<9xf32>, tensor<3xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal(9).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    want = np.zeros(4, np.float32)
    for i, k in itertools.product(range(4), range(3)):
        want[i] = np.float32(want[i] + np.float32(x[2 * i + k] * w[k]))
    (got,) = run(text, x, w, np.zeros(4, np.float32))
    assert got.tobytes() == want.tobytes()


def test_a_diagonal_read_is_gathered() -> None:
    """x[d0, d0]: one parallel dim in two axes (a gather, not a strided view)."""
    text = """
func.func @main(%x: tensor<3x3xf32>, %o: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<3x3xf32>) outs(%o : tensor<3xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}"""
    x = np.arange(9, dtype=np.float32).reshape(3, 3)
    (got,) = run(text, x, np.zeros(3, np.float32))
    assert got.tolist() == [0, 4, 8]


def test_an_empty_reduction_leaves_the_init() -> None:
    (got,) = run(row_sum(F32, 2, 0), np.zeros((2, 0), np.float32))
    assert got.tolist() == [0.0, 0.0]


def _one_output(out_map: str, iterators: str, in_type: str = "tensor<4x4xf32>",
                in_map: str = "affine_map<(d0, d1) -> (d0, d1)>",
                out_type: str = "tensor<4xf32>") -> str:
    return f"""
func.func @main(%x: {in_type}, %o: {out_type}) -> {out_type} {{
  %r = linalg.generic {{indexing_maps = [{in_map}, {out_map}], iterator_types = {iterators}}}
      ins(%x : {in_type}) outs(%o : {out_type}) {{
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }} -> {out_type}
  return %r : {out_type}
}}"""


REFUSED = {
    "output missing a parallel dim": (
        _one_output("affine_map<(d0, d1) -> (d0)>", '["parallel", "parallel"]'),
        "does not name every parallel dim once: an element would be written more than once"),
    "output indexed by a reduction dim": (
        _one_output("affine_map<(d0, d1) -> (d1)>", '["parallel", "reduction"]'),
        "the interpreter runs outputs indexed by parallel dims"),
    "a map with mod": (
        _one_output("affine_map<(d0) -> (d0)>", '["parallel"]',
                    in_map="affine_map<(d0) -> (d0 mod 2)>", in_type="tensor<2xf32>"),
        "the interpreter runs maps that are sums of dims times constants"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_refused_at_the_op(case: str) -> None:
    text, message = REFUSED[case]
    module = compile_text(text, name="g.mlir", level="hsg")
    args = [np.zeros([4 if d < 0 else d for d in t.get_shape()], np.float32)
            for t in module.input_types]
    with pytest.raises(KernelError, match=message) as error:
        module.run(*args)
    assert "g.mlir:" in str(error.value) and "linalg.generic" in str(error.value)


def test_an_out_of_bounds_window_is_refused() -> None:
    """A window past its input (which the verifier catches when the shapes are static)."""
    text = """
func.func @main(%x: tensor<?xf32>, %w: tensor<3xf32>, %o: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<?xf32>, tensor<3xf32>) outs(%o : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}"""
    kernel = compile_text(text, level="hsg")
    with pytest.raises(KernelError, match=r"reads operand 0 at index 4 of its dim 0, outside "
                       r"its shape \(4,\)"):
        kernel.run(np.zeros(4, np.float32), np.zeros(3, np.float32), np.zeros(3, np.float32))


def test_a_result_larger_than_the_memory_is_refused_at_the_op() -> None:
    text = """
func.func @main(%x: tensor<3xf32>) -> tensor<3x2000000000xf32> {
  %e = tensor.empty() : tensor<3x2000000000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3x2000000000xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %a, %out : f32
    linalg.yield %s : f32
  } -> tensor<3x2000000000xf32>
  return %r : tensor<3x2000000000xf32>
}"""
    with pytest.raises(KernelError, match=r"'linalg.generic' cannot run: its 1 result\(s\) of "
                       r"6000000000 elements each \(and their next values\) needs .* of memory"):
        run(text, np.zeros(3, np.float32))
