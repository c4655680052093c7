"""Inputs read at constant offsets (hswc.broadcast windows: a slice folded into the reader's
map): the description of each read, by hand; the kernels at every level against numpy's
slicing, bit for bit, when chunks and core slices start mid-row; their copy-in (row runs of the
sliced length from rows of the whole length, or the element loop); the C++ of two of them on the
CPU model; and what is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from test_broadcast_operands import DTYPES, _same, _values, generic, parse_map

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.broadcast import Broadcast, Window, operand_access
from hswc.runner import LEVELS, CompileError, compile_text

CASES = {
    # name: (output shape, operand shape, map results, numpy's slice of the operand, dtype)
    "second_half_f16": ((4, 64), (4, 128), "d0, d1 + 64", lambda b: b[:, 64:], "f16"),
    "leading_half_f32": ((3, 40), (6, 40), "d0 + 3, d1", lambda b: b[3:], "f32"),
    "column_f32": ((6,), (6, 8), "d0, 3", lambda b: b[:, 3], "f32"),
    "odd_half_f16": ((5, 21), (5, 42), "d0, d1 + 21", lambda b: b[:, 21:], "f16"),
    "view_half_bf16": ((4, 32), (4, 2, 32), "d0, 1, d1", lambda b: b[:, 1], "bf16"),
    "window_f16": ((4, 16), (4, 48), "d0, d1 + 5", lambda b: b[:, 5:21], "f16"),
}
MULTI_CHUNK = {
    "second_half_chunks_f16": ((40, 80), (40, 160), "d0, d1 + 80", lambda b: b[:, 80:], "f16"),
    "first_half_chunks_f32": ((30, 64), (30, 2, 64), "d0, 0, d1", lambda b: b[:, 0], "f32"),
}


def _window(out: tuple[int, ...], operand: tuple[int, ...], m: str) -> Broadcast:
    dims = ", ".join(f"d{i}" for i in range(len(out)))
    strides, window = operand_access(parse_map(f"({dims}) -> ({m})"), operand, out)
    return Broadcast(out, (strides,), (window,))


def test_each_read_by_hand() -> None:
    """The second half of a 2x6 tensor read into 2x3: flat indices 3 4 5 9 10 11; column 3 of
    a 3x4 tensor: 3 7 11; the first half through a 2x2x3 view: 0 1 2 6 7 8, a window at 0."""
    flat = np.arange(6)
    half = _window((2, 3), (2, 6), "d0, d1 + 3")
    assert half.strides == ((6, 1),) and half.windows == (Window(3, 12),)
    assert half.index(0, flat).tolist() == [3, 4, 5, 9, 10, 11]
    column = _window((3,), (3, 4), "d0, 3")
    assert column.index(0, np.arange(3)).tolist() == [3, 7, 11] and column.operand_size(0) == 12
    first = _window((2, 3), (2, 2, 3), "d0, 0, d1")
    assert first.index(0, flat).tolist() == [0, 1, 2, 6, 7, 8] and first.offset(0) == 0
    assert Broadcast.from_attr(half.to_attr()) == half


@pytest.mark.parametrize(("out", "operand", "m", "message"), [
    ((2, 3), (2, 5), "d0, d1 + 3", "reads operand dim 1 at 3 to 5, outside its 5 elements"),
    ((2,), (2, 4), "d0, 4", "reads operand dim 1 at 4, outside its 4 elements"),
    ((2, 3), (2, 6), "d0, d1 * 2", "a gather, a strided or a shifted window"),
])
def test_reads_outside_or_strided_are_refused(out: tuple[int, ...], operand: tuple[int, ...],
                                              m: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("*", r"\*")):
        _window(out, operand, m)


def _want(case: tuple, x: np.ndarray, b: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    spread, dtype = case[3], case[4]
    with np.errstate(invalid="ignore", over="ignore"):
        if dtype == "bf16":
            return (x.astype(np.float32) * spread(b).astype(np.float32)).astype(DTYPES[dtype])
        return x * spread(b)


@pytest.mark.parametrize("name", [*CASES, *MULTI_CHUNK])
def test_every_level_equals_numpys_slice(name: str) -> None:
    """x * b[window] at every level, bit for bit; the multi-chunk cases on a 4096-byte UB over
    7 cores (chunks and core slices start mid-row)."""
    case = {**CASES, **MULTI_CHUNK}[name]
    out, operand, m, _, dtype = case
    x, b = _values(out, DTYPES[dtype], 5), _values(operand, DTYPES[dtype], 6)
    text = generic(name, out, operand, m, dtype)
    options = {"core_num": 7, "ub_size": 4096} if name in MULTI_CHUNK else {"core_num": 5}
    want = _want(case, x, b)
    for level in LEVELS[1:]:
        got = compile_text(text, level=level, **options).run(x, b).outputs[0]
        assert _same(np.asarray(got), want), f"{name} at level {level}"


@pytest.mark.parametrize(("name", "how"), [
    ("second_half_chunks_f16", "row runs of 80 f16: one DataCopyPad per run"),
    ("second_half_f16", "row runs of 64 f16: one DataCopy UB -> UB from the input's copy in "
                        "UB per run"),
    ("odd_half_f16", "element loop: a row of 21 f16 is 42 bytes"),
    ("leading_half_f32", "row runs of 120 f32"),
    ("window_f16", "row runs of 16 f16: one DataCopyPad per run"),  # offset 5: from GM
])
def test_the_copy_in(name: str, how: str) -> None:
    """A half of the last dim: a run per row of the sliced length at its offset in the
    un-sliced row (from GM, or from the tensor's copy in UB when it is small); a half of a
    leading dim: contiguous, a GM offset; a row that is not whole 32-byte blocks: the element
    loop."""
    out, operand, m, _, dtype = {**CASES, **MULTI_CHUNK}[name]
    options = {"ub_size": 4096} if name in MULTI_CHUNK else {}
    lowered = str(compile_text(generic(name, out, operand, m, dtype), level="ascend",
                               **options).module)
    assert f'hsg.broadcast_copy = "{how}' in lowered


def test_the_cost_model_times_the_runs() -> None:
    """One DataCopyPad item per row run of the half on MTE2's stream (40 rows on one core)."""
    out, operand, m, _, dtype = MULTI_CHUNK["second_half_chunks_f16"]
    report = compile_text(generic("k", out, operand, m, dtype), core_num=1).profile(40 * 80)
    (schedule,) = report.schedules
    labels = [w.label for w in schedule.program.work()]
    assert labels.count("copy-in b") == 40 and not any("scalar" in w for w in labels)


BUILT = ("second_half_chunks_f16", "odd_half_f16")


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("window_cpu_build")
    builds = {}
    for name in BUILT:
        out, operand, m, _, dtype = {**CASES, **MULTI_CHUNK}[name]
        lowered = runner.compile_text(generic(name, out, operand, m, dtype)).module
        source = directory / f"{name}.cpp"
        source.write_text(kernel_source(lowered))
        builds[name] = Build(source, directory / name,
                             (f"-DHSWC_KERNEL_ENTRY={name}", "-DHSWC_GM_INPUTS=2"))
    build(list(builds.values()))
    return {name: b.output for name, b in builds.items()}


@pytest.mark.parametrize("name", BUILT)
def test_cpu_build_matches_interpreter_and_numpy(name: str, executables: dict[str, Path],
                                                 tmp_path: Path) -> None:
    case = {**CASES, **MULTI_CHUNK}[name]
    out, operand, m, _, dtype = case
    x, b = _values(out, DTYPES[dtype], 3), _values(operand, DTYPES[dtype], 4)
    ub = 4096 if name in MULTI_CHUNK else 196608
    kernel = runner.compile_text(generic(name, out, operand, m, dtype), core_num=5, ub_size=ub)
    result = kernel.run(x, b)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executables[name], record, [x, b], ub, tmp_path)
    assert _same(on_cpu, np.asarray(result.outputs[0])), f"{name}: C++ != interpreter"
    assert _same(on_cpu, _want(case, x, b)), f"{name}: C++ != numpy"


def test_a_launch_checks_the_windowed_tensor() -> None:
    """hswc-run with an operand of another shape than the window's tensor: refused, naming the
    shape the function takes."""
    out, operand, m, _, dtype = CASES["second_half_f16"]
    kernel = compile_text(generic("k", out, operand, m, dtype), level="ascend")
    x = _values(out, DTYPES[dtype], 1)
    with pytest.raises(runner.RunnerError, match=r"expected shape \(4, 128\)"):
        kernel.run(x, _values((4, 100), DTYPES[dtype], 2))


def test_a_dynamic_window_stays_on_the_host() -> None:
    text = generic("dyn", (4, 6), (4, 12), "d0, d1 + 6", "f32").replace(
        "tensor<4x6xf32>", "tensor<?x6xf32>").replace("tensor<4x12xf32>", "tensor<?x12xf32>")
    text = text.replace("%e = tensor.empty() : tensor<?x6xf32>",
                        "%c0 = arith.constant 0 : index\n  %d = tensor.dim %x, %c0 : "
                        "tensor<?x6xf32>\n  %e = tensor.empty(%d) : tensor<?x6xf32>")
    from hswc.remarks import collecting

    with collecting() as said:
        module = str(compile_text(text, level="tiled").module)
    assert "hsg.launch" not in module
    assert any("a read at an offset (a slice) needs static shapes" in r.text for r in said)


def test_an_offset_past_the_operand_is_an_error() -> None:
    with pytest.raises(CompileError, match="greater than or equal to"):
        compile_text(generic("bad", (2, 4), (2, 6), "d0, d1 + 3", "f32"), level="ascend")



def test_a_reshape_of_a_windowed_generic_reindexes_the_window() -> None:
    """hsg-fold-reshapes makes a generic reading `d2 + 32` iterate its collapsed shape: the
    window follows its dim, `(d0, d1) -> (0, d0, d1 + 32)`, and every level gives the second
    half."""
    text = """func.func @f(%x: tensor<1x4x64xf32>) -> tensor<4x32xf32> {
  %e = tensor.empty() : tensor<1x4x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2 + 32)>,
      affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel",
      "parallel"]} ins(%x : tensor<1x4x64xf32>) outs(%e : tensor<1x4x32xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<1x4x32xf32>
  %c = tensor.collapse_shape %y [[0, 1], [2]] : tensor<1x4x32xf32> into tensor<4x32xf32>
  return %c : tensor<4x32xf32>
}
"""
    linalg = str(compile_text(text, level="linalg").module)
    assert "affine_map<(d0, d1) -> (0, d0, (d1 + 32))>" in linalg
    x = _values((1, 4, 64), DTYPES["f32"], 7)
    for level in LEVELS:
        got = compile_text(text, level=level).run(x).outputs[0]
        assert _same(np.asarray(got), -x[0, :, 32:]), level
