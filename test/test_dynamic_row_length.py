"""The named row ops with a run-time row length (the reduced dim `?`), issue 36.

A dynamic reduced dim decomposes as a static one does, with the row length n read from x's
shape at run time (tensor.dim, converted once to f32 for the means) and each weight's and
bias's length asserted equal to it on the host; the generics then become one row kernel that
takes n after its tiling values (hswc.rows `dynamic`: rows in segments of a compile-time
length, the last one padded with each combiner's identity). Checked against the independent
float64 model (hswc.reference_norms) within PyTorch's tolerance at every level, one compiled
module at several row lengths, the kernel's levels (the tiled and blocked interpreters of
hswc.reduction_order, the ascend level's calls) bit for bit with each other, and on bad input
(an empty row, a weight of another length).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_dynamic_rows import ALL_LEVELS, ATTRIBUTES, _text
from test_row_kernels import _named_inputs, _reference, _row_kernels

from hswc.reduction_order import padded, reduce_rows
from hswc.reference import compare_tolerance
from hswc.rows import read_rows
from hswc.runner import compile_text

LENGTHS = (1, 7, 64, 1000)
"""Row lengths one compiled module runs in the default suite (the sweep adds the long ones)."""
KERNEL_LEVELS = ("tiled", "blocked", "ascend")
"""The levels that run the row kernel (hsg and linalg run the generics)."""
HOST_WITHIN = 64
"""The longest of LENGTHS the generics' levels (MLIR's sequential f32 loop) are held to
PyTorch's tolerance at: log_softmax_grad at 1000 is 743 ulp off there (docs/accuracy.md)."""


def _inputs(op: str, rows: int, length: int, dtype: str) -> list[np.ndarray]:
    return _named_inputs(op, (rows, length), dtype)


@pytest.mark.parametrize("op", list(ATTRIBUTES))
def test_one_module_of_a_run_time_row_length_runs_every_length_at_every_level(op: str) -> None:
    """x `?x?` (the weights `?`): each level's one module run at rows of 1, 7, 64 and 1000
    (one segment, padded), within tolerance of the float64 model (the generics' levels run up
    to HOST_WITHIN only); the row kernel's three levels give the same bits."""
    text = _text(op, _inputs(op, 3, 8, "f32"), "f32", (0, 1))
    text = text.replace("tensor<8xf32>", "tensor<?xf32>")
    assert "tensor<?x?xf32>" in text and "tensor<8x" not in text
    kernels = {level: compile_text(text, level=level) for level in ALL_LEVELS}
    assert _row_kernels(kernels["ascend"]) >= 2  # its branches (hswc.passes.row_branches)
    for length in LENGTHS:
        inputs = _inputs(op, 3, length, "f32")
        want = _reference(op, inputs, -1)
        kernel_bits = set()
        for level, kernel in kernels.items():
            if level not in KERNEL_LEVELS and length > HOST_WITHIN:
                continue  # MLIR's loop, interpreted element by element: slow, and not held
            got = kernel.run(*inputs).outputs[0]
            assert got.shape == inputs[0].shape
            within = compare_tolerance(got, want)
            assert within.equal, f"{level}, rows of {length}: {within.summary()}"
            if level in KERNEL_LEVELS:
                kernel_bits.add(got.tobytes())
        assert len(kernel_bits) == 1, f"rows of {length}: the kernel's levels differ"


@pytest.mark.parametrize(("op", "dtype"), [("hsg.softmax", "f16"), ("hsg.layer_norm", "bf16")])
def test_half_types_of_a_run_time_row_length(op: str, dtype: str) -> None:
    """A sample of f16 and bf16 (accumulated in f32, rounded once): one module at rows of 1, 7,
    64 and 1000, within tolerance, the ascend level's bits the tiled level's."""
    text = _text(op, _inputs(op, 3, 8, dtype), dtype, (0, 1))
    text = text.replace(f"tensor<8x{dtype}>", f"tensor<?x{dtype}>")
    kernel = compile_text(text, level="ascend")
    tiled = compile_text(text, level="tiled")
    for length in LENGTHS:
        inputs = _inputs(op, 3, length, dtype)
        got = kernel.run(*inputs).outputs[0]
        within = compare_tolerance(got, _reference(op, inputs, -1))
        assert within.equal, f"rows of {length}: {within.summary()}"
        same = tiled.run(*inputs).outputs[0]
        assert got.tobytes() == same.tobytes(), f"rows of {length}"


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_softmax_over_each_dynamic_dim_of_a_3d_tensor(dim: int) -> None:
    """`?x?x?`, softmax and log_softmax over each dim in turn, within tolerance."""
    rng = np.random.default_rng(dim)
    x = rng.standard_normal((3, 5, 4)).astype(np.float32)
    for op in ("hsg.softmax", "hsg.log_softmax"):
        text = _text(op, [x], "f32", (0, 1, 2)).replace("dim = -1", f"dim = {dim}")
        assert "tensor<?x?x?xf32>" in text
        got = compile_text(text, level="ascend").run(x).outputs[0]
        within = compare_tolerance(got, _reference(op, [x], dim))
        assert within.equal, f"{op} over dim {dim}: {within.summary()}"


@pytest.mark.parametrize("op", list(ATTRIBUTES))
def test_a_row_length_of_zero_gives_an_empty_result(op: str) -> None:
    """PyTorch's answer: softmax and the norms of a (3, 0) tensor are (3, 0) tensors."""
    inputs = _inputs(op, 3, 0, "f32")
    text = _text(op, _inputs(op, 3, 8, "f32"), "f32", (0, 1))
    text = text.replace("tensor<8xf32>", "tensor<?xf32>")
    for level in ("linalg", "tiled", "ascend"):
        got = compile_text(text, level=level).run(*inputs).outputs[0]
        assert got.shape == (3, 0) and got.dtype == np.float32, level


@pytest.mark.parametrize("op", ["hsg.rms_norm", "hsg.layer_norm"])
def test_a_weight_of_another_length_than_the_run_time_row_stops_the_host(op: str) -> None:
    """A static weight of 8 against rows of 7, and a dynamic one of 6: the host's check names
    the op and the operand before any generic runs."""
    inputs = _inputs(op, 3, 8, "f32")
    dynamic = _text(op, inputs, "f32", (0, 1))
    assert "tensor<8xf32>" in dynamic
    short = [inputs[0][:, :7], *inputs[1:]]
    for text, args in ((dynamic, short),
                       (dynamic.replace("tensor<8xf32>", "tensor<?xf32>"),
                        [inputs[0], *(w[:6] for w in inputs[1:])])):
        kernel = compile_text(text, level="ascend")
        with pytest.raises(Exception, match=rf"2:3: error: .*{op}: weight's length is not the "
                                            r"row length \(x's dim 1\)"):
            kernel.run(*args)


LONG_CASES = [(op, length, dtype) for dtype in ("f32", "f16", "bf16")
              for length in (8192, 12345, 60000) for op in ATTRIBUTES]
"""The long rows of the issue. On the host (MLIR's sequential loop, before the row kernel took a
run-time length) six were outside PyTorch's tolerance (41 to 455 ulp: softmax_grad and
log_softmax_grad f32 at 8192 and 60,000, rms_norm f32 and layer_norm f16 at 60,000)."""


@pytest.mark.sweep
@pytest.mark.parametrize(("op", "length", "dtype"), LONG_CASES)
def test_long_run_time_rows_within_tolerance(op: str, length: int, dtype: str) -> None:
    """The long rows of the issue, in several segments (one full at 8192, the last padded),
    in the row kernel at the ascend level, within PyTorch's tolerance."""
    inputs = _inputs(op, 2, length, dtype)
    text = _text(op, inputs, dtype, (0, 1)).replace(f"tensor<{length}x{dtype}>",
                                                     f"tensor<?x{dtype}>")
    kernel = compile_text(text, level="ascend")
    assert _row_kernels(kernel) >= 1  # its branches (hswc.passes.row_branches)
    within = compare_tolerance(kernel.run(*inputs).outputs[0], _reference(op, inputs, -1))
    assert within.equal, within.summary()


def test_padding_with_the_identity_changes_no_value() -> None:
    """hswc.reduction_order.padded: the row's values, then the identity (-0.0 for a sum, -inf
    for a maximum) to whole segments; reduced so, a row of small integers sums exactly and its
    maximum is its maximum, whatever the length against the segment."""
    assert padded(np.array([[1, 2, 3]], np.float32), "addf", 4).tolist() == [[1, 2, 3, 0]]
    assert np.signbit(padded(np.ones((1, 3), np.float32), "addf", 4)[0, 3])
    rng = np.random.default_rng(4)
    for length in (1, 63, 64, 65, 1000):
        x = rng.integers(-50, 50, (2, length)).astype(np.float32)
        for combiner, want in (("addf", x.sum(-1)), ("maximumf", x.max(-1))):
            got = reduce_rows(padded(x, combiner, 256), combiner, segment=256)
            assert got.tolist() == want.tolist(), (length, combiner)


@pytest.mark.parametrize("op", ["hsg.rms_norm", "hsg.layer_norm"])
def test_a_static_weight_gives_a_run_time_row_its_length(op: str) -> None:
    """x `?x?` with a weight (and bias) of 64: the weights' static length joins the row
    (norm_ops' _Decomposer.join: x cast to `?x64` after the host's check), so the row kernel
    has a static length of 64 (whole rows a chunk, not a padded segment a row) and no run-time
    length; within tolerance at the generics' and the kernel's levels; rows of 63 stop the host
    with the check's one message."""
    inputs = _inputs(op, 5, 64, "f32")
    text = _text(op, inputs, "f32", (0, 1))
    assert "tensor<?x?xf32>" in text and "tensor<64xf32>" in text
    want = _reference(op, inputs, -1)
    for level in ("linalg", "ascend"):
        kernel = compile_text(text, level=level)
        within = compare_tolerance(kernel.run(*inputs).outputs[0], want)
        assert within.equal, f"{level}: {within.summary()}"
    (rows,) = [read_rows(f) for f in kernel.module.walk() if read_rows(f) is not None
               and f.name == "func.func"]
    assert rows is not None and (rows.length, rows.dynamic, rows.segment) == (64, False, None)
    with pytest.raises(Exception, match=rf"2:3: error: .*{op}: weight's length is not the row "
                                        r"length \(x's dim 1\)"):
        kernel.run(inputs[0][:, :63], *inputs[1:])


AMAX = Path(__file__).parent / "data" / "amax_rows_dynamic_f32.mlir"
"""`x.amax(-1)` of a `?x?` f32 x as torch-mlir writes it (test/fixtures/torch_models/
reductions/amax_rows64_f32.mlir, written by hand with its dims dynamic, each init a
tensor.empty of x's dim 0): the two-result max generic, its index result unused."""


@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_amax_of_a_run_time_row_length_at_every_level(dtype: str) -> None:
    """One module at rows of 0, 1, 7, 64, 1000 and 1025 (the whole branches of W = 64, 1024 and
    the top one: hswc.passes.row_branches), at every level, equal to numpy's maximum
    (NaN in a row gives NaN, a row of -inf gives -inf); a length of 0 gives MLIR's answer,
    the init -inf (PyTorch refuses an amax over no elements), computed by the host
    (hswc.passes.row_kernels: an scf.if on the length) while longer rows run the row kernel.
    f16 runs the kernel's levels only."""
    np_type = {"f32": np.float32, "f16": np.float16}[dtype]
    text = AMAX.read_text()
    if dtype == "f16":
        text = text.replace("f32", "f16").replace("0xFF800000", "0xFC00")
    levels = ALL_LEVELS if dtype == "f32" else KERNEL_LEVELS
    kernels = {level: compile_text(text, level=level) for level in levels}
    assert _row_kernels(kernels["ascend"]) >= 2  # its branches (hswc.passes.row_branches)
    rng = np.random.default_rng(36)
    for length in (0, 1, 7, 64, 1000, 1025):
        x = (100 * rng.standard_normal((3, length))).astype(np_type)
        if length >= 7:
            x[1, length // 2] = np.nan
            x[2] = -np.inf
        want = x.max(-1) if length else np.full(3, -np.inf, np_type)
        for level, kernel in kernels.items():
            got = kernel.run(x).outputs[0]
            assert got.dtype == np_type and got.shape == (3,), level
            np.testing.assert_array_equal(got, want, f"{level}, rows of {length}")
