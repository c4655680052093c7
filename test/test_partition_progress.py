"""hsg-tile-on-cores reports how far a partition is on a terminal (hswc.progress), one line
naming the generic it works on, and nothing in a pipe or a log."""

from __future__ import annotations

import io
import sys

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
