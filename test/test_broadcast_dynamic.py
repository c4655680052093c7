"""Broadcast operands of dynamic shapes (hswc.broadcast): PReLU's per-channel weight over a
dynamic batch, a bias over a dynamic row count, a per-row scale `(?, 1)`, a rank-0 tensor, a
weight whose own dim is dynamic. One compiled module runs at several run-time shapes, at every
level, equal bit for bit to numpy's broadcasting (an independent model: one IEEE operation per
element in the dtype); a run-time shape that does not broadcast stops the host with a message
naming the input; what the description cannot hold stays on the host, saying why. torch-mlir's
export of `F.prelu` with a dynamic batch lowers as exported, equal to MLIR's execution."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from math_bodies import same_bits
from sampling import sampled
from xdsl.dialects import func

from hswc.broadcast import DYNAMIC_DIM, Broadcast
from hswc.cost_model.stream import MTE2, VECTOR, core_program
from hswc.dialects import hsg
from hswc.platform import COST_FIGURES
from hswc.reference import compare_bitwise
from hswc.remarks import collecting
from hswc.runner import LEVELS, compile_file, compile_text
from hswc.tools import hswc_emit

DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
          "bf16": np.dtype(ml_dtypes.bfloat16)}


def _type(shape: tuple[int | None, ...], dtype: str) -> str:
    return f"tensor<{''.join(('?' if n is None else str(n)) + 'x' for n in shape)}{dtype}>"


def prelu(name: str, x: tuple[int | None, ...], w: tuple[int | None, ...], m: str,
          dtype: str) -> str:
    """`x > 0 ? x : x * w` (PReLU, as torch-mlir writes it), w read through the map `m`; the
    output's init sized by `tensor.dim` of x's dynamic dims."""
    rank = len(x)
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    tx, tw = _type(x, dtype), _type(w, dtype)
    sizes = [f"%n{k}" for k, n in enumerate(x) if n is None]
    dim_ops = "".join(f"  %c{k} = arith.constant {k} : index\n"
                      f"  %n{k} = tensor.dim %x, %c{k} : {tx}\n"
                      for k, n in enumerate(x) if n is None)
    parallel = ", ".join(['"parallel"'] * rank)
    return f"""
func.func @{name}(%x: {tx}, %w: {tw}) -> {tx} {{
{dim_ops}  %e = tensor.empty({", ".join(sizes)}) : {tx}
  %y = linalg.generic {{indexing_maps = [{ident}, affine_map<({dims}) -> ({m})>, {ident}],
      iterator_types = [{parallel}]}} ins(%x, %w : {tx}, {tw}) outs(%e : {tx}) {{
  ^bb0(%a: {dtype}, %b: {dtype}, %o: {dtype}):
    %z = arith.constant 0.0 : {dtype}
    %p = arith.cmpf ogt, %a, %z : {dtype}
    %m = arith.mulf %a, %b : {dtype}
    %r = arith.select %p, %a, %m : {dtype}
    linalg.yield %r : {dtype}
  }} -> {tx}
  func.return %y : {tx}
}}
"""


Spread = Callable[[np.ndarray], np.ndarray]
CASES: dict[str, tuple[tuple[int | None, ...], tuple[int | None, ...], str, Spread, str,
                       list[tuple[tuple[int, ...], tuple[int, ...]]]]] = {
    # name: (x's type, w's type, map, w as numpy broadcasts it, dtype, run-time shapes)
    "prelu_nchw_f32": ((None, 3, 4, 8), (3,), "d1", lambda w: w[:, None, None], "f32",
                       [((1, 3, 4, 8), (3,)), ((5, 3, 4, 8), (3,)), ((40, 3, 4, 8), (3,))]),
    "prelu_nchw_odd_f16": ((None, 5, 3, 3), (5,), "d1", lambda w: w[:, None, None], "f16",
                           [((2, 5, 3, 3), (5,)), ((33, 5, 3, 3), (5,))]),
    "prelu_nc_bf16": ((None, 48), (48,), "d1", lambda w: w, "bf16",
                      [((3, 48), (48,)), ((129, 48), (48,))]),
    "bias_dynamic_weight_f32": ((None, 16), (None,), "d1", lambda w: w, "f32",
                                [((7, 16), (16,)), ((300, 16), (16,))]),
    "bias_odd_row_f16": ((None, 10), (10,), "d1", lambda w: w, "f16",
                         [((1, 10), (10,)), ((77, 10), (10,))]),
    "row_scale_f32": ((None, 16), (None, 1), "d0, 0", lambda w: w, "f32",
                      [((5, 16), (5, 1)), ((211, 16), (211, 1))]),
    "row_scale_rank1_f16": ((None, 24), (None,), "d0", lambda w: w[:, None], "f16",
                            [((9, 24), (9,)), ((130, 24), (130,))]),
    "row_scale_odd_rows_f32": ((None, 5), (None, 1), "d0, 0", lambda w: w, "f32",
                               [((3, 5), (3, 1)), ((97, 5), (97, 1))]),
    "rank0_f16": ((None, None), (), "", lambda w: w, "f16",
                  [((4, 90), ()), ((17, 3), ())]),
    "static_weight_fixes_columns_f32": ((None, None), (16,), "d1", lambda w: w, "f32",
                                        [((6, 16), (16,)), ((50, 16), (16,))]),
    "channel_last_dims_dynamic_batch_f16": ((None, 2, 16), (2, 16), "d1, d2", lambda w: w,
                                            "f16", [((3, 2, 16), (2, 16)),
                                                    ((65, 2, 16), (2, 16))]),
}


def _values(shape: tuple[int, ...], dtype: np.dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    flat = rng.uniform(-8, 8, int(np.prod(shape))).astype(np.float32)
    flat[rng.integers(0, flat.size, min(flat.size, 4))] = [0.0, -0.0, np.inf, np.nan][
        :min(flat.size, 4)]
    return flat.astype(dtype).reshape(shape)


def _want(x: np.ndarray, w: np.ndarray, spread: Spread) -> np.ndarray:
    """PReLU by numpy: in f32 for bf16 (one operation rounded once: exact, hsg-widen-bf16)."""
    wide = x.dtype == DTYPES["bf16"]
    a, b = (x.astype(np.float32), spread(w).astype(np.float32)) if wide else (x, spread(w))
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(a > 0, a, a * b).astype(x.dtype)


ODD_VARIANTS = ("prelu_nchw_odd_f16", "row_scale_odd_rows_f32")
"""Cases the sweep adds: odd-sized variants of a per-channel weight and a per-row scale whose
schedule choice costs the most of the file (bias_odd_row_f16 keeps an odd row by default)."""


@pytest.mark.parametrize("case", sampled(CASES, [c for c in CASES if c not in ODD_VARIANTS]))
def test_every_level_at_several_run_time_shapes_equals_numpy(case: str) -> None:
    x_type, w_type, m, spread, dtype, shapes = CASES[case]
    text = prelu(case, x_type, w_type, m, dtype)
    t = DTYPES[dtype]
    for level in LEVELS[1:]:
        kernel = compile_text(text, level=level, core_num=7, ub_size=196608)
        for seed, (xs, ws) in enumerate(shapes):
            x, w = _values(xs, t, seed), _values(ws, t, seed + 100)
            got = np.asarray(kernel(x, w))
            want = _want(x, w, spread)
            assert got.shape == want.shape and got.dtype == want.dtype, (case, level, xs)
            assert same_bits(want, got), f"{case} at level {level}, shape {xs}"


def test_the_prelu_kernel_reads_its_weight_by_row_runs_with_no_run_time_value() -> None:
    """PReLU's weight `(3)` over `(?, 3, 4, 8)`: constant runs of H*W = 32 (one GetValue and
    one Duplicate per run) from the weight's copy in UB; the description keeps the batch
    dynamic and every stride static."""
    module = str(compile_text(prelu("p", (None, 3, 4, 8), (3,), "d1", "f32"),
                              level="ascend").module)
    assert "hsg.broadcast = [array<i64: -1, 3, 4, 8>, array<i64>, array<i64: 0, 1, 0, 0>]" \
        in module
    assert 'row runs of 32 f32: one GetValue from the input\'s copy in UB + Duplicate' in module
    assert "cf.assert" not in module.split("func.func @p_tiling")[0]  # static weight: no check


def test_a_per_row_scale_covers_what_its_core_reads() -> None:
    """A per-row scale `(?, 1)` holds as many elements as the run-time rows: its GlobalTensor
    covers ceil(end / 16) elements of the core's slice [0, end), and it is never copied into
    UB whole."""
    module = str(compile_text(prelu("r", (None, 16), (None, 1), "d0, 0", "f32"),
                              level="ascend").module)
    assert "_resident" not in module
    kernel = module.split("func.func @r_kernel")[1]
    gm = next(line for line in kernel.splitlines() if "%w_gm = ascend.set_global_buffer" in line)
    assert "%c16" not in gm and "[%c0" in gm, gm


@pytest.mark.parametrize(("x_type", "w_type", "m", "x_shape", "w_shape", "message"), [
    ((None, 16), (None,), "d1", (8, 16), (15,),
     "input w (broadcast) does not broadcast: its dim 0 must be 16 at run time"),
    ((None, 16), (None, 1), "d0, 0", (8, 16), (7, 1),
     "input w (broadcast) does not broadcast: its dim 0 must be dim 0 of x at run time"),
    ((None, None), (16,), "d1", (8, 12), (16,),
     "input x (read at the output's index) does not broadcast: its dim 1 must be 16"),
])
def test_a_run_time_shape_that_does_not_broadcast_stops_the_host(
        x_type: tuple[int | None, ...], w_type: tuple[int | None, ...], m: str,
        x_shape: tuple[int, ...], w_shape: tuple[int, ...], message: str) -> None:
    """The host code before the launch compares the run-time dims (tensor.dim) and asserts,
    naming the input: never a read past the weight's buffer or a silently wrong result."""
    kernel = compile_text(prelu("bad", x_type, w_type, m, "f32"), level="ascend")
    x, w = _values(x_shape, DTYPES["f32"], 0), _values(w_shape, DTYPES["f32"], 1)
    with pytest.raises(Exception, match="does not broadcast") as caught:
        kernel(x, w)
    assert message in str(caught.value)


@pytest.mark.parametrize(("x_type", "w_type", "m", "message"), [
    ((None, None), (None,), "d1",
     "input 2 reads output dim 1, of a run-time size, inside another dim"),
    ((4, None), (4,), "d0",
     "input 2 reads output dim 0, whose digit divides by the run-time size of dim 1"),
    ((None, 16), (None, 16), "d0, d1", None),  # the identity map of x's shape: no broadcast
])
def test_what_the_description_cannot_hold_stays_on_the_host(
        x_type: tuple[int | None, ...], w_type: tuple[int | None, ...], m: str,
        message: str | None) -> None:
    """A bias `(?)` over `(?, ?)` wraps at a run-time size; a per-row scale over `(4, ?)`
    divides by one: each stays on the host with the reason (a warning at the generic)."""
    text = prelu("hard", x_type, w_type, m, "f32")
    with collecting() as said:
        module = str(compile_text(text, level="tiled").module)
    if message is None:
        assert "hsg.launch" in module and all(r.severity == "remark" for r in said), said
        return
    assert "linalg.generic" in module and "hsg.launch" not in module
    assert len(said) == 1 and said[0].severity == "warning", said
    assert message in said[0].text, said[0].text


def test_the_description_round_trips_and_resolves() -> None:
    """-1 marks a run-time dim; resolving it gives the static description of that shape, whose
    indices are the dynamic one's (a per-row scale over (?, 3): 0 0 0 1 1 1)."""
    row = Broadcast((DYNAMIC_DIM, 3), ((1, 0),))
    assert Broadcast.from_attr(row.to_attr()) == row
    assert not row.has_static_size(0) and row.covered(0) == (3, 1)
    flat = np.arange(6)
    assert row.index(0, flat).tolist() == [0, 0, 0, 1, 1, 1]
    assert row.resolve((2, 3)).operand_size(0) == 2
    assert row.resolve((2, 3)).index(0, flat).tolist() == row.index(0, flat).tolist()
    with pytest.raises(ValueError, match="not the kernel's output shape"):
        row.resolve((2, 4))
    bias = Broadcast((3, DYNAMIC_DIM), ((0, 1),))
    with pytest.raises(ValueError, match="wraps at a size known only at run time"):
        Broadcast.from_attr(bias.to_attr())


PRELU_FIXTURES = Path(__file__).parent / "fixtures" / "torch_models" / "gated"


@pytest.mark.parametrize("dtype", sampled(DTYPES, ["f16"]))
def test_torch_mlir_prelu_with_a_dynamic_batch_equals_mlir(dtype: str) -> None:
    """`F.prelu(x, weight)`, x `(batch, 16, 8)` exported with `torch.export.Dim` for the batch
    (test/fixtures/torch_models/gated, tools/export_model_fixtures.py): the weight's
    `expand_shape` folds into the kernel's map, one launch; every level gives MLIR's own
    execution (the npz's out0, batch 3) bit for bit, and the same module at batches 1 and 50
    gives numpy's PReLU. f32 and bf16 in the sweep (each its own schedule choice; the
    every-level cases above lower PReLU's body in both by default)."""
    path = PRELU_FIXTURES / f"prelu_dynamic_{dtype}.mlir"
    data = np.load(path.with_suffix(".npz"))
    x, w, want = (data[k].view(DTYPES[dtype]) for k in ("in0", "in1", "out0"))
    assert x.shape == (3, 16, 8) and "tensor<?x16x8x" in path.read_text()
    for level in LEVELS:
        with collecting() as said:
            kernel = compile_file(path, level=level)
        if level == "ascend":
            lowered = str(kernel.module)
            assert lowered.count("hsg.launch") == 1 and "linalg.generic" not in lowered
            assert not [r for r in said if r.severity == "warning"], said
        got = np.asarray(kernel.run(x, w).outputs[0])
        assert compare_bitwise(got, want).equal, f"{dtype} at level {level}"
        for batch in (1, 50):
            other = _values((batch, 16, 8), DTYPES[dtype], batch)
            got = np.asarray(kernel.run(other, w).outputs[0])
            assert same_bits(_want(other, w, lambda v: v[:, None]), got), (dtype, level, batch)


def test_hswc_emit_refuses_a_run_time_dim_it_cannot_pair_with_an_output_dim(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hswc-emit packages dynamic broadcasts (test_emit_broadcast_dynamic); a weight of a
    run-time length read along an output dim of static size 1 (`(?,)` read as `(d1)` over
    `(?, 1)`) is one whose dim its host tiling cannot pair with the output's: it says so at
    the kernel and writes nothing."""
    source = tmp_path / "odd.mlir"
    source.write_text(prelu("odd", (None, 1), (None,), "d1", "f32"))
    with collecting():
        code = hswc_emit.main([str(source), "-o", str(tmp_path / "out"), "--name", "Odd"])
    assert code == 1 and not (tmp_path / "out").exists()
    said = capsys.readouterr().err
    assert "odd.mlir:6:3: error:" in said and "a shape known only at run time" in said, said
    assert "a dim of a run-time size read along an output dim of size 1" in said, said


@pytest.mark.parametrize(("tiling", "block", "runs"), [
    ((640, 640, 256), 0, 40),  # 40 rows in chunks of 16, 16 and 8 rows
    ((16000, 3200, 4096), 0, 200),  # the first of 5 cores: 200 rows in one chunk
    # core 1 of 2 starts mid-row (200 = 12.5 rows); chunks of 64 split rows 16, 20 and 24
    # again: 13 rows + 3 = 16 runs
    ((400, 200, 64), 1, 16),
])
def test_the_cost_model_counts_the_per_row_runs_at_the_modelled_size(
        tiling: tuple[int, int, int], block: int, runs: int) -> None:
    """hswc.cost_model.stream walks the kernel with the tiling of the modelled size: a per-row
    scale `(?, 1)` over `(?, 16)` costs one GetValue (MTE2) and one Duplicate (V) per row run
    of each chunk, computed from totalNum as the kernel computes them at run time."""
    module = compile_text(prelu("r", (None, 16), (None, 1), "d0, 0", "f32"),
                          level="ascend").module
    kernel = next(o for o in module.ops if isinstance(o, func.FuncOp) and hsg.is_kernel(o))
    work = core_program(kernel, block, tiling[0] // tiling[1], tiling, COST_FIGURES).work()
    assert sum(w.pipe == VECTOR and w.label == "duplicate" for w in work) == runs
    assert sum(w.pipe == MTE2 and w.label == "get_value w" for w in work) == runs


def test_the_schedule_is_chosen_for_the_output_not_a_weight_listed_first() -> None:
    """`ins(%w, %x)`: the cost model chooses the schedule for the output's element count
    (unknown with a dynamic batch: CHOICE_ELEMENTS), not for the weight's 16."""
    text = prelu("wfirst", (None, 16), (16,), "d1", "f32")
    text = text.replace("ins(%x, %w : tensor<?x16xf32>, tensor<16xf32>)",
                        "ins(%w, %x : tensor<16xf32>, tensor<?x16xf32>)")
    text = text.replace("affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>",
                        "affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>")
    text = text.replace("^bb0(%a: f32, %b: f32", "^bb0(%b: f32, %a: f32")
    module = str(compile_text(text, level="tiled").module)
    assert "hsg.launch" in module and "elements = 1048576 : i64" in module


def heaviside(w_type: tuple[int | None, ...], m: str) -> str:
    """torch.heaviside(x, values) on x `(?, 16)` f16: 0 below 0, values at 0, 1 above."""
    tw = _type(w_type, "f16")
    return f"""
func.func @heaviside(%x: tensor<?x16xf16>, %v: {tw}) -> tensor<?x16xf16> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf16>
  %e = tensor.empty(%n) : tensor<?x16xf16>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> ({m})>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%x, %v : tensor<?x16xf16>, {tw}) outs(%e : tensor<?x16xf16>) {{
  ^bb0(%a: f16, %b: f16, %o: f16):
    %zero = arith.constant 0.0 : f16
    %one = arith.constant 1.0 : f16
    %is0 = arith.cmpf oeq, %a, %zero : f16
    %pos = arith.cmpf ogt, %a, %zero : f16
    %step = arith.select %pos, %one, %zero : f16
    %r = arith.select %is0, %b, %step : f16
    linalg.yield %r : f16
  }} -> tensor<?x16xf16>
  func.return %y : tensor<?x16xf16>
}}
"""


@pytest.mark.parametrize(("w_type", "m", "w_shape"), [
    pytest.param((16,), "d1", (16,), marks=pytest.mark.sweep), ((), "", ()),
    pytest.param((None, 1), "d0, 0", None, marks=pytest.mark.sweep)])
def test_heaviside_values_broadcast_over_a_dynamic_batch(
        w_type: tuple[int | None, ...], m: str, w_shape: tuple[int, ...] | None) -> None:
    """heaviside's `values` per column, rank-0 or per row, at every level and two batches,
    equal to numpy.heaviside (no rounding: a choice between x's zeros, values and 1). The
    rank-0 values by default; per column and per row (the PReLU cases' reads) in the sweep."""
    text = heaviside(w_type, m)
    for level in LEVELS[1:]:
        kernel = compile_text(text, level=level, core_num=7, ub_size=196608)
        for batch in (3, 70):
            x = _values((batch, 16), DTYPES["f16"], batch)
            x[:, ::3] = 0.0  # zeros, where values are read
            v = _values(w_shape if w_shape is not None else (batch, 1), DTYPES["f16"], 7)
            got = np.asarray(kernel(x, v))
            with np.errstate(invalid="ignore"):
                want = np.heaviside(x, v).astype(np.float16)
            want[np.isnan(x)] = 0.0  # arith: cmpf on NaN is false both ways: the step's 0
            assert same_bits(want, got), (m, level, batch)
