"""hsg.first_rows: a kernel reading its row count from an int64 tensor in GM (ops-nn's
group_index, hswc.counted_rows). Every IR level gives the golden model's rows up to the
clamped sum of the counts and the fresh output buffer's bytes after them, bit for bit, on
Atlas A2 and Ascend 950; the counts reach the kernel (the launch takes them); what cannot be
folded stays on the host; bad counts get one located message."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hswc.dialects import hsg
from hswc.interpreter.launch import FRESH_GM_BYTE
from hswc.reference_gated import clipped_swiglu
from hswc.runner import CompileError, InputError, compile_text

LEVELS = ("hsg", "linalg", "tiled", "blocked", "ascend")
SWIGLU = """func.func @f(%x: tensor<8x128xf16>, %g: tensor<3xi64>) -> tensor<8x64xf16> {
  %y = hsg.clipped_swiglu %x {interleaved = false} : tensor<8x128xf16>
  %z = hsg.first_rows %y, %g : tensor<8x64xf16>, tensor<3xi64>
  return %z : tensor<8x64xf16>
}"""
SOFTMAX = """func.func @f(%x: tensor<?x64xbf16>, %g: tensor<2xi64>) -> tensor<?x64xbf16> {
  %y = hsg.softmax %x : tensor<?x64xbf16>
  %z = hsg.first_rows %y, %g : tensor<?x64xbf16>, tensor<2xi64>
  return %z : tensor<?x64xbf16>
}"""
COUNTS = {  # counts: the rows they give of 8
    "some": ([2, 1, 2], 5), "past the rows": ([6, 0, 9], 8), "none": ([0, 0, 0], 0),
    "a negative sum": ([3, -9, 1], 0), "a negative count": ([-2, 4, 3], 5)}


def _expected(golden: np.ndarray, rows: int) -> np.ndarray:
    """The golden rows before `rows`, every byte after them the fresh buffer's."""
    out = np.array(golden, copy=True)
    out[rows:].view(np.uint8).fill(FRESH_GM_BYTE)
    return out


def _x(shape: tuple[int, ...], dtype: object) -> np.ndarray:
    return (np.random.default_rng(7).standard_normal(shape) * 4).astype(dtype)


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
def test_clipped_swiglu_of_counted_rows_is_the_golden_rows_at_every_level(soc: str) -> None:
    x = _x((8, 128), np.float16)
    golden = clipped_swiglu(x.astype(np.float32), interleaved=False).astype(np.float16)
    kernels = {level: compile_text(SWIGLU, level=level, soc=soc, core_num=4)
               for level in LEVELS}
    for name, (counts, rows) in COUNTS.items():
        g = np.array(counts, dtype=np.int64)
        want = _expected(golden, rows)
        top = kernels["hsg"](x, g).tobytes()
        for level, kernel in kernels.items():
            got = kernel(x, g)
            # f32 steps rounded once: within an f16 ulp of the float64 golden model
            assert np.array_equal(got[rows:].view(np.uint16), want[rows:].view(np.uint16)), \
                f"{name}, {level}: rows past {rows}"
            assert np.allclose(got[:rows], want[:rows], rtol=1e-3, atol=1e-3), (name, level)
            assert got.tobytes() == top, f"{name}, {level} differs from the hsg level"


def test_a_row_kernel_of_a_run_time_row_count_reads_its_count_from_the_tensor() -> None:
    kernels = {level: compile_text(SOFTMAX, level=level, soc="ascend950", core_num=4)
               for level in LEVELS}
    uncounted = compile_text(SOFTMAX.replace(
        "%z = hsg.first_rows %y, %g : tensor<?x64xbf16>, tensor<2xi64>\n  return %z",
        "return %y"), level="ascend", soc="ascend950", core_num=4)
    for total, counts in ((1, [1, 0]), (37, [20, 5]), (37, [40, 1]), (120, [64, 56])):
        x = _x((total, 64), ml_dtypes.bfloat16)
        g = np.array(counts, dtype=np.int64)
        rows = min(sum(counts), total)
        whole = np.asarray(uncounted(x, g))
        want = _expected(whole, rows)
        for level, kernel in kernels.items():
            got = np.asarray(kernel(x, g))
            assert got.tobytes() == want.tobytes(), f"{total} rows, {counts}, {level}"


def test_the_launch_takes_the_counts_and_the_kernel_sums_them_before_its_slice() -> None:
    module = compile_text(SWIGLU, level="tiled", soc="ascend910b").module
    launches = [o for o in module.walk() if isinstance(o, hsg.LaunchOp)]
    assert len(launches) == 1 and launches[0].counts is not None
    assert not any(isinstance(o, hsg.FirstRowsOp) for o in module.walk())


def test_first_rows_of_a_function_argument_stays_on_the_host() -> None:
    text = """func.func @f(%y: tensor<4x8xf32>, %g: tensor<1xi64>) -> tensor<4x8xf32> {
  %z = hsg.first_rows %y, %g : tensor<4x8xf32>, tensor<1xi64>
  return %z : tensor<4x8xf32>
}"""
    y = _x((4, 8), np.float32)
    got = compile_text(text, level="ascend")(y, np.array([3], dtype=np.int64))
    assert got.tobytes() == _expected(y, 3).tobytes()


@pytest.mark.parametrize(("counts", "message"), [
    ("tensor<3xi32>", "counts has type tensor<3xi32>; it must be a rank-1 tensor of i64"),
    ("tensor<1x3xi64>", "counts has type tensor<1x3xi64>; it must be a rank-1 tensor of i64"),
])
def test_counts_of_another_type_are_refused_with_their_location(counts: str,
                                                                message: str) -> None:
    text = SWIGLU.replace("tensor<3xi64>", counts)
    with pytest.raises(CompileError) as error:
        compile_text(text)
    assert str(error.value).startswith("<input>:3:3: error: 'hsg.first_rows' " + message)


def test_counts_of_another_dtype_at_run_time_are_refused() -> None:
    kernel = compile_text(SWIGLU, level="ascend")
    with pytest.raises(InputError) as error:
        kernel(_x((8, 128), np.float16), np.array([1, 2, 3], dtype=np.int32))
    assert str(error.value) == ("input 2 (g): expected element type i64 (int64) for "
                                "tensor<3xi64>, got an array of dtype int32")


def test_thousands_of_groups_are_summed_within_the_default_loop_limit() -> None:
    text = SWIGLU.replace("tensor<3xi64>", "tensor<5000xi64>")
    g = np.zeros(5000, dtype=np.int64)
    g[::1000] = 1  # 5 rows
    x = _x((8, 128), np.float16)
    got = compile_text(text, level="ascend")(x, g)
    want = compile_text(SWIGLU, level="ascend")(x, np.array([5, 0, 0], dtype=np.int64))
    assert got.tobytes() == want.tobytes()


def test_rows_of_leading_dims_count_whole_blocks_of_the_interleaved_kernel() -> None:
    text = """func.func @f(%x: tensor<4x6x128xf32>, %g: tensor<2xi64>) -> tensor<4x6x64xf32> {
  %y = hsg.clipped_swiglu %x : tensor<4x6x128xf32>
  %z = hsg.first_rows %y, %g {row_dims = 1 : i64} : tensor<4x6x64xf32>, tensor<2xi64>
  return %z : tensor<4x6x64xf32>
}"""
    x = _x((4, 6, 128), np.float32)
    g = np.array([0, 3], dtype=np.int64)
    decomposed = compile_text(text, level="linalg")(x, g)  # the kernels' f32 steps, unlaunched
    assert decomposed.tobytes() == _expected(compile_text(text.replace(
        "hsg.first_rows %y, %g {row_dims = 1 : i64}", "hsg.first_rows %y, %g {row_dims = 3 : i64}"
    ), level="linalg")(x, np.array([10**6, 0], dtype=np.int64)), 3).tobytes()
    assert compile_text(text, level="ascend", core_num=5)(x, g).tobytes() == decomposed.tobytes()
