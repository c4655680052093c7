"""The tensor dialect on the host (hswc.interpreter.tensor_functions): reshapes, slices, concat,
pad, element access, against numpy and hand-checked values; an access outside a tensor and a
shape that does not fit are refused at the op."""

from __future__ import annotations

import numpy as np
import pytest

from hswc.runner import KernelError, compile_text


def run(text: str, *inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    return compile_text(text, name="t.mlir", level="hsg").run(*inputs).outputs


X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def test_reshapes_are_row_major() -> None:
    text = """
func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x6xf32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 3, 2, 2]
    : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
  %shape = arith.constant dense<[4, 6]> : tensor<2xi64>
  %r = tensor.reshape %x(%shape) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  func.return %c, %e, %r : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x6xf32>
}"""
    c, e, r = run(text, X)
    assert np.array_equal(c, X.reshape(6, 4)) and np.array_equal(e, X.reshape(2, 3, 2, 2))
    assert np.array_equal(r, X.reshape(4, 6))


def test_dynamic_expand_takes_its_output_shape() -> None:
    text = """
func.func @main(%x: tensor<?xf32>) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %h = arith.divui %n, %c2 : index
  %e = tensor.expand_shape %x [[0, 1]] output_shape [%h, 2] : tensor<?xf32> into tensor<?x2xf32>
  func.return %e : tensor<?x2xf32>
}"""
    (e,) = run(text, np.arange(6, dtype=np.float32))
    assert e.tolist() == [[0, 1], [2, 3], [4, 5]]


def test_slices() -> None:
    """extract_slice with strides, a dynamic offset and a rank-reducing result; insert_slice
    back into a copy."""
    text = """
func.func @main(%x: tensor<2x3x4xf32>, %z: tensor<2x3x4xf32>)
    -> (tensor<3x2xf32>, tensor<2x3x4xf32>) {
  %c1 = arith.constant 1 : index
  %s = tensor.extract_slice %x[%c1, 0, 1] [1, 3, 2] [1, 1, 2] : tensor<2x3x4xf32> to tensor<3x2xf32>
  %i = tensor.insert_slice %s into %z[0, 0, 0] [1, 3, 2] [1, 1, 1]
    : tensor<3x2xf32> into tensor<2x3x4xf32>
  func.return %s, %i : tensor<3x2xf32>, tensor<2x3x4xf32>
}"""
    s, i = run(text, X, np.zeros_like(X))
    assert np.array_equal(s, X[1, :, 1::2])
    want = np.zeros_like(X)
    want[0, :, :2] = X[1, :, 1::2]
    assert np.array_equal(i, want)


def test_pad_value_depending_on_the_index() -> None:
    """tensor.pad's region runs at every padded position: here the value is the row index."""
    text = """
func.func @main(%x: tensor<2x2xf32>) -> (tensor<2x6xf32>, tensor<4x5xf32>, tensor<2x2xf32>) {
  %c = tensor.concat dim(1) %x, %x, %x
    : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x6xf32>
  %p = tensor.pad %x low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %k = arith.index_cast %i : index to i64
    %f = arith.sitofp %k : i64 to f32
    tensor.yield %f : f32
  } : tensor<2x2xf32> to tensor<4x5xf32>
  %v = arith.constant -1.5 : f32
  %s = tensor.splat %v : tensor<2x2xf32>
  func.return %c, %p, %s : tensor<2x6xf32>, tensor<4x5xf32>, tensor<2x2xf32>
}"""
    x = np.array([[1, 2], [3, 4]], np.float32)
    c, p, s = run(text, x)
    assert np.array_equal(c, np.concatenate([x, x, x], 1))
    assert p.tolist() == [[0, 0, 0, 0, 0], [1, 1, 1, 2, 1], [2, 2, 3, 4, 2], [3, 3, 3, 3, 3]]
    assert s.tolist() == [[-1.5, -1.5], [-1.5, -1.5]]


def test_element_access_and_from_elements() -> None:
    text = """
func.func @main(%x: tensor<2x3xi64>) -> (tensor<3xi64>, tensor<2x3xi64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %x[%c0, %c2] : tensor<2x3xi64>
  %seven = arith.constant 7 : i64
  %f = tensor.from_elements %e, %seven, %e : tensor<3xi64>
  %i = tensor.insert %seven into %x[%c0, %c0] : tensor<2x3xi64>
  func.return %f, %i : tensor<3xi64>, tensor<2x3xi64>
}"""
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    f, i = run(text, x)
    assert f.tolist() == [2, 7, 2] and i.tolist() == [[7, 1, 2], [3, 4, 5]]
    assert x[0, 0] == 0  # tensors are values: the input is not written


REFUSED = {
    "slice past the end": ("""
func.func @main(%x: tensor<?xf32>) -> tensor<3xf32> {
  %s = tensor.extract_slice %x[2] [3] [1] : tensor<?xf32> to tensor<3xf32>
  func.return %s : tensor<3xf32>
}""", r"takes 3 elements from offset 2 with stride 1 along dim 0 of a tensor of shape \(4,\)"),
    "extract outside": ("""
func.func @main(%x: tensor<?xf32>) -> f32 {
  %c9 = arith.constant 9 : index
  %e = tensor.extract %x[%c9] : tensor<?xf32>
  func.return %e : f32
}""", r"reads index \(9,\) of a tensor of shape \(4,\)"),
    "cast to another shape": ("""
func.func @main(%x: tensor<?xf32>) -> tensor<5xf32> {
  %c = tensor.cast %x : tensor<?xf32> to tensor<5xf32>
  func.return %c : tensor<5xf32>
}""", r"gives a tensor of shape \(4,\), which its type tensor<5xf32> does not have"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_refused_at_the_op(case: str) -> None:
    text, message = REFUSED[case]
    with pytest.raises(KernelError, match=message) as error:
        run(text, np.zeros(4, np.float32))
    assert str(error.value).startswith("t.mlir:")
