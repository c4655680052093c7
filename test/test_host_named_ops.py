"""Upstream linalg's named ops on the host (hswc.interpreter.linalg_named_functions), in f32,
f16, bf16 and integers: equal bit for bit to explicit loops written from MLIR's definition
(each input cast to the output's type, multiplied, added to the output's value, in the
reduction dims' order), within tolerance to numpy's einsum (another order, in f64), and to
hand-checked values."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from hswc.runner import compile_text

F32, F16, BF16 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
I8, I32 = np.dtype(np.int8), np.dtype(np.int32)
NAMES = {F32: "f32", F16: "f16", BF16: "bf16", I8: "i8", I32: "i32"}
RNG = np.random.default_rng(7)


def tensor(shape: tuple[int, ...], dtype: np.dtype) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{NAMES[dtype]}>"


def named(op: str, ins: list[np.ndarray], out: np.ndarray) -> np.ndarray:
    """`op` (with its attributes) on `ins`, accumulating into `out`."""
    types = [tensor(a.shape, a.dtype) for a in ins]
    result = tensor(out.shape, out.dtype)
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    text = (f"func.func @main({args}, %o: {result}) -> {result} {{\n"
            f"  %r = {op} ins({', '.join(f'%a{i}' for i in range(len(ins)))} : "
            f"{', '.join(types)}) outs(%o : {result}) -> {result}\n"
            f"  func.return %r : {result}\n}}")
    (got,) = compile_text(text, level="hsg").run(*ins, out).outputs
    return got


def values(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype.kind == "i":
        return RNG.integers(-100, 100, shape).astype(dtype)
    return (RNG.standard_normal(shape) * 2).astype(dtype)


def mac(acc: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """acc + cast(a) * cast(b), each op rounded in acc's type (MLIR's mulf / addf, or muli /
    addi)."""
    t = acc.dtype
    return (acc + (a.astype(t) * b.astype(t)).astype(t)).astype(t)


def same(got: np.ndarray, want: np.ndarray) -> bool:
    return got.dtype == want.dtype and got.shape == want.shape and (
        got.view(np.uint8).tobytes() == want.view(np.uint8).tobytes())


def test_matmul_hand_checked() -> None:
    a = np.array([[1, 2], [3, 4]], np.float32)
    b = np.array([[5, 6], [7, 8]], np.float32)
    got = named("linalg.matmul", [a, b], np.full((2, 2), 0.5, np.float32))
    assert got.tolist() == [[19.5, 22.5], [43.5, 50.5]]


MATMUL_TYPES = [(F32, F32), (F16, F32), (BF16, F32), (F16, F16), (BF16, BF16), (F32, F16),
                (I8, I32), (I8, F32)]


@pytest.mark.parametrize(("operand", "accumulator"), MATMUL_TYPES,
                         ids=[f"{NAMES[a]}_{NAMES[c]}" for a, c in MATMUL_TYPES])
def test_matmul_in_mlir_order(operand: np.dtype, accumulator: np.dtype) -> None:
    a, b = values((5, 40), operand), values((40, 3), operand)
    c = values((5, 3), accumulator)
    want = c.copy()
    for k in range(40):
        want = mac(want, a[:, k:k + 1], b[k:k + 1, :])
    got = named("linalg.matmul", [a, b], c)
    assert same(got, want)
    if accumulator.kind == "f":
        exact = np.einsum("mk,kn->mn", a.astype(np.float64), b.astype(np.float64)) + c.astype(
            np.float64)
        tolerance = {F32: 1e-4, F16: 0.1, BF16: 1.0}[accumulator]
        np.testing.assert_allclose(got.astype(np.float64), exact, atol=tolerance, rtol=0.02)


@pytest.mark.parametrize("dtype", [F32, F16, BF16], ids=lambda d: NAMES[d])
def test_batch_matmul_in_mlir_order(dtype: np.dtype) -> None:
    a, b = values((2, 3, 16), dtype), values((2, 16, 4), dtype)
    c = np.zeros((2, 3, 4), np.float32)
    want = c.copy()
    for k in range(16):
        want = mac(want, a[:, :, k:k + 1], b[:, k:k + 1, :])
    assert same(named("linalg.batch_matmul", [a, b], c), want)


WINDOW = "{{dilations = dense<{d}> : vector<2xi64>, strides = dense<{s}> : vector<2xi64>}}"


def conv_reference(x: np.ndarray, w: np.ndarray, out: np.ndarray, s: int, d: int,
                   depthwise: bool = False) -> np.ndarray:
    """MLIR's conv_2d_nchw_fchw (depthwise_conv_2d_nchw_chw) by its loops: for each (c, kh, kw)
    in order (depthwise: (kh, kw)), every output point adds x at oh*s + kh*d, ow*s + kw*d."""
    acc = out.copy()
    oh, ow = out.shape[2:]
    kh_n, kw_n = w.shape[-2:]
    channels = [None] if depthwise else range(x.shape[1])
    for c, kh, kw in itertools.product(channels, range(kh_n), range(kw_n)):
        rows = slice(kh * d, kh * d + s * (oh - 1) + 1, s)
        cols = slice(kw * d, kw * d + s * (ow - 1) + 1, s)
        if depthwise:
            acc = mac(acc, x[:, :, rows, cols], w[None, :, kh, kw, None, None])
        else:
            acc = mac(acc, x[:, None, c, rows, cols], w[None, :, c, kh, kw, None, None])
    return acc


@pytest.mark.parametrize(("dtype", "stride", "dilation"),
                         [(F32, 1, 1), (F16, 2, 1), (BF16, 1, 2), (F32, 2, 2)],
                         ids=["f32", "f16_stride2", "bf16_dilation2", "f32_both"])
def test_convolution_in_mlir_order(dtype: np.dtype, stride: int, dilation: int) -> None:
    x, w = values((2, 3, 9, 9), dtype), values((4, 3, 3, 3), dtype)
    span = (9 - dilation * 2 - 1) // stride + 1
    out = values((2, 4, span, span), np.dtype(np.float32))
    op = "linalg.conv_2d_nchw_fchw " + WINDOW.format(d=dilation, s=stride)
    got = named(op, [x, w], out)
    assert same(got, conv_reference(x, w, out, stride, dilation))
    exact = out.astype(np.float64) + np.einsum(
        "nchwkl,fckl->nfhw", np.lib.stride_tricks.sliding_window_view(
            x.astype(np.float64), (3 * dilation - dilation + 1,) * 2, axis=(2, 3))[
            :, :, ::stride, ::stride, ::dilation, ::dilation], w.astype(np.float64))
    np.testing.assert_allclose(got, exact, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("dtype", [F32, F16, BF16], ids=lambda d: NAMES[d])
def test_depthwise_convolution_in_mlir_order(dtype: np.dtype) -> None:
    x, w = values((1, 5, 9, 9), dtype), values((5, 3, 3), dtype)
    out = np.zeros((1, 5, 4, 4), np.float32)
    op = "linalg.depthwise_conv_2d_nchw_chw " + WINDOW.format(d=1, s=2)
    assert same(named(op, [x, w], out), conv_reference(x, w, out, 2, 1, depthwise=True))


def test_grouped_convolution_equals_one_convolution_per_group() -> None:
    x, w = values((1, 2, 3, 6, 6), F32), values((2, 4, 3, 3, 3), F32)
    out = np.zeros((1, 2, 4, 4, 4), np.float32)
    op = ("linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, "
          "strides = dense<1> : vector<2xi64>}")
    got = named(op, [x, w], out)
    for g in range(2):
        assert same(got[:, g], conv_reference(x[:, g], w[g], out[:, g], 1, 1))


def test_pooling_max_and_sum() -> None:
    x = values((1, 2, 5, 5), F16)
    window = np.zeros((2, 2), np.float32)
    low = np.full((1, 2, 2, 2), -np.inf, np.float32)
    op = "linalg.pooling_nchw_max " + WINDOW.format(d=1, s=2)
    got = named(op, [x, window], low)
    want = x[:, :, :4, :4].astype(np.float32).reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5))
    assert same(got, want)
    x[0, 0, 1, 1] = np.nan
    assert np.isnan(named(op, [x, window], low)[0, 0, 0, 0])  # maximumf propagates NaN
    total = named("linalg.pooling_nchw_sum " + WINDOW.format(d=1, s=2), [x, window],
                  np.zeros((1, 2, 2, 2), np.float32))
    acc = np.zeros((1, 2, 2, 2), np.float32)
    for kh, kw in itertools.product(range(2), range(2)):
        acc = (acc + x[:, :, kh:kh + 3:2, kw:kw + 3:2].astype(np.float32)).astype(np.float32)
    assert same(total, acc)


def test_conv_1d_and_3d() -> None:
    x, w = values((1, 2, 7), F32), values((3, 2, 3), F32)
    got = named("linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = "
                "dense<2> : vector<1xi64>}", [x, w], np.zeros((1, 3, 3), np.float32))
    acc = np.zeros((1, 3, 3), np.float32)
    for c, k in itertools.product(range(2), range(3)):
        acc = mac(acc, x[:, None, c, k:k + 5:2], w[None, :, c, k, None])
    assert same(got, acc)
    x3, w3 = values((1, 1, 3, 3, 3), F32), values((1, 1, 2, 2, 2), F32)
    got3 = named("linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = "
                 "dense<1> : vector<3xi64>}", [x3, w3], np.zeros((1, 1, 2, 2, 2), np.float32))
    exact = np.einsum("dhwkij,kij->dhw", np.lib.stride_tricks.sliding_window_view(
        x3[0, 0].astype(np.float64), (2, 2, 2)), w3[0, 0].astype(np.float64))
    np.testing.assert_allclose(got3[0, 0], exact, rtol=1e-6)


def test_data_movement_and_fill() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    text = """
func.func @main(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<2x4x3xf32>,
    tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xf32>) {
  %e0 = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e0 : tensor<3x2xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<2x4x3xf32>
  %b = linalg.broadcast ins(%x : tensor<2x3xf32>) outs(%e1 : tensor<2x4x3xf32>) dimensions = [1]
  %c = arith.constant 2.5 : f32
  %e2 = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%c : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2xf32>) -> tensor<2xf32>
  %s = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%z : tensor<2xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %sum = linalg.add ins(%x, %f : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>)
    -> tensor<2x3xf32>
  func.return %t, %b, %f, %s, %sum
    : tensor<3x2xf32>, tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xf32>
}"""
    t, b, f, s, total = compile_text(text, level="hsg").run(x, np.zeros(3, np.float32)).outputs
    assert t.tolist() == x.T.tolist()
    assert b.shape == (2, 4, 3) and (b == x[:, None, :]).all()
    assert f.tolist() == [[2.5] * 3] * 2
    assert s.tolist() == [3.0, 12.0]
    assert total.tolist() == (x + 2.5).tolist()
