"""hsg-tile-on-cores reports how far a partition is on a terminal (hswc.progress), one line
naming the generic it works on, and nothing in a pipe or a log."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from hswc.runner import compile_text

THREE = """
func.func @f(%x: tensor<8xf32>, %m: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %t = tensor.empty() : tensor<8x4xf32>
  %b = linalg.transpose ins(%m : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
  return %a, %b : tensor<8xf32>, tensor<8x4xf32>
}
"""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_partition_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setenv("TERM", "xterm")
    compile_text(THREE, level="tiled", name="model.mlir")
    frames = screen.getvalue()
    assert "hsg-tile-on-cores" in frames and "/1 " in frames, frames
    assert "model.mlir:4:" in frames  # the generic it is working on
    assert frames.endswith("\r\x1b[K")  # erased at the end: what follows starts clean


def test_a_pipe_sees_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    compile_text(THREE, level="tiled", name="model.mlir")
    assert log.getvalue() == ""


def test_the_partition_indexes_a_modules_functions_once(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    """hsg-tile-on-cores builds one KernelFunctions (an index of every function of the module)
    per module, not one per generic: a module of n functions with a generic each was tiled in
    n^2 steps (100,000 unfused ops: 10,000 functions indexed 100,000 times)."""
    from hswc.passes import kernel_functions
    from hswc.tools import hswc_opt

    built: list[object] = []

    class Counted(kernel_functions.KernelFunctions):
        def __init__(self, module: object) -> None:
            built.append(module)
            super().__init__(module)  # type: ignore[arg-type]

    monkeypatch.setattr(kernel_functions, "KernelFunctions", Counted)
    functions = "\n".join(
        f"func.func @f{i}(%x: tensor<8xf32>) -> tensor<8xf32> {{\n"
        f"  %y = hsg.leaky_relu %x {{negative_slope = {0.01 * (i + 1):e} : f32}} : tensor<8xf32>\n"
        "  return %y : tensor<8xf32>\n}" for i in range(6))
    source = tmp_path / "six.mlir"
    source.write_text(functions)
    assert hswc_opt.main(["--lower-to-ascend", str(source), "-o", str(tmp_path / "out.mlir")]) == 0
    assert (tmp_path / "out.mlir").read_text().count("hsg.launch") == 6
    assert len(built) == 1, built
