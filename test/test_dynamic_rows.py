"""Row kernels of a run-time row count (hswc.passes.row_kernels): the rows' dims dynamic, the
row length static. The named ops decompose with their kept dims dynamic, a generic with
dynamic kept dims becomes a row kernel, and the host computes the row count from the run-time
shape (hsg.num_elements over the row length) before calling the tiling function.

Checked against the static compile of the same shape (every level: the same kernel, so the
same bits) and against the independent float64 model (hswc.reference_norms) within PyTorch's
tolerance, for several row counts of one compiled module; what the kernel cannot take
(inputs of different row counts) gets a located message; a run-time row length is
test_dynamic_row_length's.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_norm_ops import module
from test_row_kernels import NUMPY, _named_inputs, _reference, _row_kernels

from hswc.reference import compare_tolerance
from hswc.runner import compile_text

ALL_LEVELS = ("hsg", "linalg", "tiled", "blocked", "ascend")
ATTRIBUTES = {"hsg.softmax": "{dim = -1 : i64}", "hsg.log_softmax": "{dim = -1 : i64}",
              "hsg.softmax_grad": "{dim = -1 : i64}", "hsg.log_softmax_grad": "{dim = -1 : i64}",
              "hsg.rms_norm": "{epsilon = 1.0e-06 : f32}",
              "hsg.layer_norm": "{epsilon = 1.0e-05 : f32}"}


def _text(op: str, inputs: list[np.ndarray], dtype: str, dynamic: tuple[int, ...]) -> str:
    """The op's module with x's dims at `dynamic` written `?` (its weights stay static)."""
    def shape(a: np.ndarray, i: int) -> str:
        dims = [("?" if i == 0 or ATTRIBUTES[op].startswith("{dim") else str(n))
                if k in dynamic else str(n) for k, n in enumerate(a.shape)]
        return f"tensor<{'x'.join([*dims, dtype])}>"
    weights = op in ("hsg.rms_norm", "hsg.layer_norm")
    return module(op, ATTRIBUTES[op], [shape(a, i) if i == 0 or not weights
                                       else f"tensor<{a.shape[0]}x{dtype}>"
                                       for i, a in enumerate(inputs)])


@pytest.mark.parametrize("dtype", list(NUMPY))
@pytest.mark.parametrize("op", list(ATTRIBUTES))
def test_named_ops_of_a_run_time_row_count_equal_their_static_compile_at_every_level(
        op: str, dtype: str) -> None:
    inputs = _named_inputs(op, (6, 40), dtype)
    dynamic = _text(op, inputs, dtype, (0,))
    static = _text(op, inputs, dtype, ())
    assert "?x40" in dynamic and "?" not in static
    want = _reference(op, inputs, -1)
    for level in ALL_LEVELS:
        kernel = compile_text(dynamic, level=level)
        if level in ("tiled", "blocked", "ascend"):
            assert _row_kernels(kernel) == 1, level
        got = kernel.run(*inputs).outputs[0]
        same = compile_text(static, level=level).run(*inputs).outputs[0]
        assert got.shape == same.shape == inputs[0].shape
        assert got.tobytes() == same.tobytes(), f"{level}: dynamic != static"
        within = compare_tolerance(got, want)
        assert within.equal, f"{level}: {within.summary()}"


@pytest.mark.parametrize("rows", [1, 47, 48 * 7 + 3])
def test_one_module_runs_every_row_count_as_its_static_compile(rows: int) -> None:
    """Two dynamic kept dims (?x?x24): the rows over ascend910b's 48 cores as CANN's formula
    splits them (ceil(rows / 48) a core: 1 core, 47 cores of one row, 43 cores of 8), each run
    equal to the module compiled for its shape."""
    inputs = _named_inputs("hsg.layer_norm", (rows, 1, 24), "f16")
    inputs[0] = inputs[0].reshape(1, rows, 24)
    dynamic = _text("hsg.layer_norm", inputs, "f16", (0, 1))
    assert "tensor<?x?x24xf16>" in dynamic
    kernel = compile_text(dynamic, level="ascend")
    result = kernel.run(*inputs)
    (record,) = result.tilings
    assert record is not None and int(record["totalNum"]) == rows
    per_core = -(-rows // 48)
    assert int(record["blockFactor"]) == per_core
    assert int(record["usedCoreNum"]) == -(-rows // per_core)
    same = compile_text(_text("hsg.layer_norm", inputs, "f16", ()), level="ascend")
    assert result.outputs[0].tobytes() == same.run(*inputs).outputs[0].tobytes()


GENERIC = """
func.func @row_sums(%x: tensor<?x?x16xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x16xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>,
                                        affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x?x16xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.mulf %a, %a : f32
    %r = arith.addf %t, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
"""


def test_a_generic_with_dynamic_kept_dims_is_a_row_kernel_checked_on_the_host() -> None:
    """A sum of squares over the last dim plus a per-row bias, every kept dim dynamic: one row
    kernel (element and row operands), equal to the float64 sum rounded once within
    tolerance; a bias of another row count stops the host with the check naming it."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 5, 16)).astype(np.float32)
    b = rng.standard_normal((3, 5)).astype(np.float32)
    want = ((x.astype(np.float64) ** 2).sum(-1) + b).astype(np.float32)
    for level in ALL_LEVELS:
        kernel = compile_text(GENERIC, level=level)
        if level != "hsg" and level != "linalg":
            assert _row_kernels(kernel) == 1, level
        within = compare_tolerance(kernel.run(x, b).outputs[0], want)
        assert within.equal, f"{level}: {within.summary()}"
    kernel = compile_text(GENERIC, level="ascend")
    with pytest.raises(Exception, match=r"input b \(a row operand\) must hold one value for "
                                         r"each row of x at run time"):
        kernel.run(x, b[:2])


def test_a_generic_of_a_dynamic_row_length_writing_row_values_is_a_row_kernel() -> None:
    """A sum per row of a run-time length is a row kernel (a kernel a branch of lengths), and a
    length of 0 gives each row the sum's init (the host runs the region's generics there, as
    MLIR defines them: 0 + b)."""
    text = GENERIC.replace("16xf32", "?xf32")
    b = np.random.default_rng(3).standard_normal((2, 3)).astype(np.float32)
    kernel = compile_text(text, level="ascend")
    assert _row_kernels(kernel) > 0
    for length in (5, 0):
        x = np.random.default_rng(2).standard_normal((2, 3, length)).astype(np.float32)
        want = ((x.astype(np.float64) ** 2).sum(-1) + b).astype(np.float32)
        within = compare_tolerance(kernel.run(x, b).outputs[0], want)
        assert within.equal, f"n = {length}: {within.summary()}"
    x = np.zeros((2, 3, 5), np.float32)
    with pytest.raises(Exception, match=r"input b \(a row operand\) must hold one value for "
                                         r"each row of x at run time"):
        kernel.run(x, b[:1])


TWO_OUTPUTS = """
func.func @scaled(%x: tensor<?x32xf32>) -> (tensor<?x1xf32>, tensor<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty(%n) : tensor<?x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (i, 0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x32xf32>) outs(%init : tensor<?x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = math.absf %a : f32
    %r = arith.maximumf %t, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x1xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (i, 0)>,
                                        affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<?x32xf32>, tensor<?x1xf32>) outs(%e : tensor<?x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<?x32xf32>
  return %m, %y : tensor<?x1xf32>, tensor<?x32xf32>
}
"""


@pytest.mark.parametrize("rows", [1, 50])
def test_a_row_kernel_of_two_outputs_gives_each_its_run_time_shape(rows: int) -> None:
    """A keepdim row maximum (?x1) and the elements scaled by it (?x32), one row kernel of two
    outputs: each result has its own run-time shape, the maximum exact, the quotient one
    division of the two f32 values (so exact in f32 too)."""
    x = np.random.default_rng(rows).standard_normal((rows, 32)).astype(np.float32)
    m = np.abs(x).max(axis=-1, keepdims=True)
    for level in ("linalg", "ascend"):
        kernel = compile_text(TWO_OUTPUTS, level=level)
        if level == "ascend":
            assert _row_kernels(kernel) == 1
        got_m, got_y = kernel.run(x).outputs
        assert got_m.shape == (rows, 1) and got_y.shape == (rows, 32)
        assert got_m.tobytes() == m.tobytes(), level
        assert got_y.tobytes() == (x / m).tobytes(), level


def test_an_element_input_of_another_row_count_stops_the_host() -> None:
    """softmax_grad of a run-time row count: its output argument of fewer rows than its
    gradient is refused before the launch, naming both."""
    g = np.ones((4, 8), np.float32)
    text = module("hsg.softmax_grad", "{dim = -1 : i64}", ["tensor<?x8xf32>"] * 2)
    kernel = compile_text(text, level="ascend")
    with pytest.raises(Exception, match=r"input a1 \(an element operand\) must hold as many "
                                         r"rows of 8 as there are rows of a0 at run time"):
        kernel.run(g, g[:3])
