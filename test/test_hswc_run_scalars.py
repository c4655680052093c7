"""hswc-run binds scalar function arguments: `--input 0.3` for `%alpha: f32` (a number, rounded
once to the argument's type, or a .npy file of one value), at every --level, for an
elementwise kernel and a row kernel (each taking the scalar as a kernel argument), against
hand-written numpy references; a value that is not a number, of another dtype, of several
elements, out of range, or missing is one message naming the input, and exit 1.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType, f16, f32, i8, i32

from hswc.interpreter.binding import bind_inputs
from hswc.reference import compare_tolerance
from hswc.runner import InputError
from hswc.tools.hswc_run import main

LEVELS = ["hsg", "tiled", "blocked", "ascend"]

SCALED = """func.func @scaled(%x: tensor<?xf16>, %alpha: f32) -> tensor<?xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf16>
  %init = tensor.empty(%n) : tensor<?xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf16>) outs(%init : tensor<?xf16>) {
  ^bb0(%a: f16, %out: f16):
    %w = arith.extf %a : f16 to f32
    %p = arith.mulf %w, %alpha : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?xf16>
  func.return %y : tensor<?xf16>
}
"""
"""x * alpha in f32, rounded once to f16: an elementwise kernel taking alpha at run time."""

RMS = """func.func @rms(%x: tensor<6x32xf32>, %eps: f32) -> tensor<6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x32xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %ye = tensor.empty() : tensor<6x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<6x32xf32>, tensor<6xf32>) outs(%ye : tensor<6x32xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %n = arith.constant 32.0 : f32
    %m = arith.divf %t, %n : f32
    %me = arith.addf %m, %eps : f32
    %r = math.rsqrt %me : f32
    %v = arith.mulf %a, %r : f32
    linalg.yield %v : f32
  } -> tensor<6x32xf32>
  func.return %y : tensor<6x32xf32>
}
"""
"""x / sqrt(mean(x^2) + eps) over rows of 32: a row kernel taking eps at run time."""


def _files(tmp_path: Path, text: str, x: np.ndarray) -> tuple[str, str]:
    (tmp_path / "m.mlir").write_text(text)
    np.save(tmp_path / "x.npy", x)
    return str(tmp_path / "m.mlir"), str(tmp_path / "x.npy")


@pytest.mark.parametrize("level", LEVELS)
def test_an_elementwise_kernel_takes_an_f32_scalar(level: str, tmp_path: Path) -> None:
    """`--input 0.3` for %alpha: f32 gives x * float32(0.3) rounded once to f16, bit for bit;
    a .npy file of one float32 value gives the same."""
    x = np.linspace(-65504.0, 65504.0, 301).astype(np.float16)
    source, xs = _files(tmp_path, SCALED, x)
    want = (x.astype(np.float32) * np.float32(0.3)).astype(np.float16)
    out = tmp_path / "y.npy"
    assert main([source, "--input", xs, "--input", "0.3", "--level", level, "--core-num", "3",
                 "--ub-size", "8192", "--output", str(out)]) == 0
    assert np.load(out).view(np.uint16).tolist() == want.view(np.uint16).tolist()
    np.save(tmp_path / "alpha.npy", np.float32(0.3))
    assert main([source, "--input", xs, "--input", str(tmp_path / "alpha.npy"), "--level",
                 level, "--output", str(out)]) == 0
    assert np.load(out).view(np.uint16).tolist() == want.view(np.uint16).tolist()


@pytest.mark.parametrize("level", LEVELS)
def test_a_row_kernel_takes_an_f32_scalar(level: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`--input 0.75` for %eps: f32 of a row kernel: within PyTorch's tolerance of the float64
    x / sqrt(mean(x^2) + 0.75) rounded once, which differs from the value at eps = 1e-6
    beyond it, and
    --check agrees."""
    x = np.random.default_rng(3).standard_normal((6, 32)).astype(np.float32)
    source, xs = _files(tmp_path, RMS, x)
    out = tmp_path / "y.npy"
    assert main([source, "--input", xs, "--input", "0.75", "--level", level, "--output",
                 str(out), "--check"]) == 0
    assert "0 outside rtol/atol" in capsys.readouterr().out
    wide = x.astype(np.float64)

    def exact(eps: float) -> np.ndarray:
        return (wide / np.sqrt((wide * wide).mean(axis=1, keepdims=True) + eps)
                ).astype(np.float32)  # rounded once

    y = np.load(out)
    assert compare_tolerance(y, exact(0.75)).equal
    assert not compare_tolerance(y, exact(1e-6)).equal


@pytest.mark.parametrize(("value", "said"), [
    ("0.3x", "input 2 (alpha): '0.3x' is not a value of the argument's type f32: give a float "
             "such as 0.5"),
    ("f64.npy", "input 2 (alpha): expected a value of type f32 (float32), got one of dtype "
                "float64"),
    ("three.npy", "input 2 (alpha): the argument is a scalar of type f32: expected one value "
                  "(a number, or a rank-0 array), got an array of shape (3,)"),
    (None, "the function takes 2 input(s), 1 given (missing: input 2 (alpha): f32)"),
])
def test_a_bad_scalar_is_one_message(value: str | None, said: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    source, xs = _files(tmp_path, SCALED, np.ones(8, np.float16))
    np.save(tmp_path / "f64.npy", np.float64(0.3))
    np.save(tmp_path / "three.npy", np.ones(3, np.float32))
    given = [] if value is None else \
        ["--input", str(tmp_path / value) if value.endswith(".npy") else value]
    assert main([source, "--input", xs, *given, "--level", "hsg"]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_binding_rounds_once_and_checks_integer_ranges() -> None:
    """The text of a float is rounded once to the argument's type (0.1 to f16 is not 0.1 to
    f32 then to f16 only by chance: checked against numpy's own rounding); integers in their
    type's range, hexadecimal too; booleans and values beyond the range are refused."""
    bound = bind_inputs([f32, f16, i32, IndexType()], ["0.1", "65519.0", "0x10", -5])
    assert bound[0] == np.float32(0.1) and bound[0].dtype == np.float32
    assert bound[1] == np.float16(65504.0) and bound[1].dtype == np.float16
    assert bound[2:] == [16, -5]
    for t, value, said in ((i8, "128", "128 does not fit the argument's type i8 ([-128, 127])"),
                           (i32, True, "expected a number, got bool"),
                           (f32, None, "expected a number, got NoneType")):
        with pytest.raises(InputError, match=re.escape(said)):
            bind_inputs([t], [value])
