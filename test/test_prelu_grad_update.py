"""PReluGradUpdate (ops-nn activation/p_relu_grad_update) as hswc compiles it: one elementwise
linalg.generic of two results, dx and update, with its weight per channel (x's dim 1) and a batch
known only at run time. Every level against a NumPy model of its README's two formulas; its
package checks both outputs against the run-time batch and its kernel unit test passes on the
CPU model of AscendC."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_emit_broadcast import run_kernel_unit_tests

from hswc import runner
from hswc.remarks import collecting
from hswc.tools.hswc_emit import main

TEXT = """
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ch = affine_map<(d0, d1, d2) -> (d1)>
func.func @prelu_grad_update(%g: tensor<?x16x40xT>, %x: tensor<?x16x40xT>, %w: tensor<16xT>)
    -> (tensor<?x16x40xT>, tensor<?x16x40xT>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %g, %c0 : tensor<?x16x40xT>
  %e = tensor.empty(%n) : tensor<?x16x40xT>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #ch, #id, #id],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g, %x, %w : tensor<?x16x40xT>, tensor<?x16x40xT>, tensor<16xT>)
      outs(%e, %e : tensor<?x16x40xT>, tensor<?x16x40xT>) {
  ^bb0(%gi: T, %xi: T, %wi: T, %o0: T, %o1: T):
    %zero = arith.constant 0.0 : T
    %pos = arith.cmpf ogt, %xi, %zero : T
    %wg = arith.mulf %wi, %gi : T
    %dx = arith.select %pos, %gi, %wg : T
    %xg = arith.mulf %xi, %gi : T
    %up = arith.select %pos, %zero, %xg : T
    linalg.yield %dx, %up : T, T
  } -> (tensor<?x16x40xT>, tensor<?x16x40xT>)
  return %r#0, %r#1 : tensor<?x16x40xT>, tensor<?x16x40xT>
}
"""
NUMPY = {"f16": np.float16, "f32": np.float32}


def _model(g: np.ndarray, x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The README's formulas, each product rounded once to the dtype (one multiply each)."""
    wc = w.reshape(1, -1, 1)
    dx = np.where(x > 0, g, (wc.astype(np.float64) * g).astype(g.dtype))
    update = np.where(x > 0, np.zeros_like(x), (x.astype(np.float64) * g).astype(g.dtype))
    return dx, update


@pytest.mark.parametrize("dtype", ["f16", "f32"])
@pytest.mark.parametrize("level", ["linalg", "tiled", "blocked", "ascend"])
def test_every_level_equals_the_formulas_at_run_time_batches(dtype: str, level: str) -> None:
    kernel = runner.compile_text(TEXT.replace("T", dtype),
                                 level=level)
    rng = np.random.default_rng(7)
    t = NUMPY[dtype]
    for batch in (1, 3, 37):
        g = rng.uniform(-4, 4, (batch, 16, 40)).astype(t)
        x = rng.uniform(-4, 4, (batch, 16, 40)).astype(t)
        x[0, 0, :3] = [0.0, -0.0, np.nan]
        w = rng.uniform(-1, 1, 16).astype(t)
        dx, update = kernel.run(g, x, w).outputs
        want_dx, want_update = _model(g, x, w)
        assert np.array_equal(np.asarray(dx), want_dx, equal_nan=True)
        assert np.array_equal(np.asarray(update), want_update, equal_nan=True)


def test_the_package_checks_both_outputs_and_its_unit_test_passes(tmp_path: Path) -> None:
    source = tmp_path / "prelu_grad_update.mlir"
    source.write_text(TEXT.replace("T", "f16"))
    package = tmp_path / "pkg"
    with collecting():
        assert main([str(source), "--name", "PReluGradUpdate", "-o", str(package)]) == 0
    stem = "p_relu_grad_update"
    api = (package / f"op_host/op_api/aclnn_{stem}.cpp").read_text()
    batch = "g->GetViewShape().GetDim(0)"
    for out in ("out0", "out1"):  # each output has the batch of g, as compiled otherwise
        assert f"OP_CHECK(HasShape({out}, {{{batch}, 16, 40}})," in api
    assert "OP_CHECK(HasShape(w, {16})," in api
    infer = (package / f"op_host/{stem}_infershape.cpp").read_text()
    assert infer.count("gert::Shape({(*gShape).GetDim(0), 16, 40});") == 2
    run_kernel_unit_tests({"update": package / f"tests/ut/op_kernel/test_{stem}.cpp"}, "",
                          tmp_path)
