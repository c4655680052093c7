"""One kernel for generics that differ only in a channel count (hswc.passes.shape_sharing), and
linalg.broadcast of size-1 dims as a view (hswc.passes.unit_broadcast)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func, tensor
from xdsl.dialects.linalg.ops import GenericOp

from hswc.broadcast import DYNAMIC_DIM, Broadcast, Window, read_broadcast
from hswc.elementwise import Elementwise, elementwise
from hswc.passes.hsg_tile_on_cores import _build_kernel_function
from hswc.passes.schedule_choice import TRADED, modelled_times
from hswc.passes.shape_sharing import shared_broadcast
from hswc.passes.unit_broadcast import unit_groups
from hswc.pipeline import parse_text
from hswc.platform import get_platform

ID = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CH = "affine_map<(d0, d1, d2, d3) -> (d1)>"


def _add(n: int, c: int, h: int, w: int) -> str:
    """A per-channel add x[1, c, h, w] + w[c] of the function's arguments 2n and 2n + 1
    (numbered SSA names: the kernels' buffers take no name from them, as in a torch export)."""
    t = f"tensor<1x{c}x{h}x{w}xf32>"
    return (f"  %e{n} = tensor.empty() : {t}\n"
            f"  %{10 + n} = linalg.generic {{indexing_maps = [{ID}, {CH}, {ID}], iterator_types "
            f"= [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%{2 * n}, "
            f"%{2 * n + 1} : {t}, tensor<{c}xf32>) outs(%e{n} : {t}) {{\n"
            "  ^bb0(%a: f32, %b: f32, %o: f32):\n    %s = arith.addf %a, %b : f32\n"
            f"    linalg.yield %s : f32\n  }} -> {t}\n")


SHAPES = ((600, 7, 7), (700, 7, 7), (16, 7, 7))
"""Two channel counts whose weights exceed RESIDENT_BYTES (one kernel), one that fits (its
own)."""


def _module_text() -> str:
    args = ", ".join(f"%{2 * n}: tensor<1x{c}x{h}x{w}xf32>, %{2 * n + 1}: tensor<{c}xf32>"
                     for n, (c, h, w) in enumerate(SHAPES))
    results = ", ".join(f"tensor<1x{c}x{h}x{w}xf32>" for c, h, w in SHAPES)
    body = "".join(_add(n, *shape) for n, shape in enumerate(SHAPES))
    values = ", ".join(f"%{10 + n}" for n in range(len(SHAPES)))
    return (f"func.func @main({args}) -> ({results}) {{\n{body}"
            f"  func.return {values} : {results}\n}}\n")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    tool = args[0].replace("-", "_")
    return subprocess.run([sys.executable, "-c", f"import sys; from hswc.tools.{tool} import "
                           "main; sys.exit(main())", *args[1:]],
                          capture_output=True, text=True, check=False)


def test_channel_counts_share_one_kernel_where_the_copy_in_is_the_same(tmp_path: Path) -> None:
    source = tmp_path / "share.mlir"
    source.write_text(_module_text())
    done = _run("hswc-opt", str(source), "--lower-to-ascend")
    assert done.returncode == 0, done.stderr
    module = parse_text(done.stdout, "lowered.mlir")
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp)
                and op.sym_name.data == "main")
    launched = [op.properties["kernel"] for op in main.walk() if op.name == "hsg.launch"]
    names = [getattr(k, "root_reference", k).data for k in launched]
    assert len(names) == 3 and names[0] == names[1] != names[2]
    kernels = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
               and "hsg.kernel" in op.attributes}
    assert len(kernels) == 2
    shared, own = read_broadcast(kernels[names[0]]), read_broadcast(kernels[names[2]])
    assert shared is not None and shared.shape == (1, DYNAMIC_DIM, 7, 7)
    assert own is not None and own.shape == (1, 16, 7, 7)  # its weight stays in UB


def test_the_shared_kernel_runs_equal_to_mlir(tmp_path: Path) -> None:
    source = tmp_path / "share.mlir"
    source.write_text(_module_text())
    rng = np.random.default_rng(35)
    inputs = []
    for n, (c, h, w) in enumerate(SHAPES):
        for k, shape in enumerate(((1, c, h, w), (c,))):
            path = tmp_path / f"in{n}_{k}.npy"
            np.save(path, rng.standard_normal(shape).astype(np.float32))
            inputs += ["--input", str(path)]
    outputs = []
    for n in range(len(SHAPES)):
        outputs += ["--output", str(tmp_path / f"out{n}.npy")]
    done = _run("hswc-run", str(source), "--level", "ascend", *inputs, *outputs)
    assert done.returncode == 0, done.stderr
    for n in range(len(SHAPES)):
        x = np.load(tmp_path / f"in{n}_0.npy")
        wt = np.load(tmp_path / f"in{n}_1.npy")
        expected = x + wt.reshape(1, -1, 1, 1)  # f32 adds, rounded once each: bit for bit
        assert np.array_equal(np.load(tmp_path / f"out{n}.npy"), expected)


def _one(c: int, h: int, w: int) -> Elementwise:
    """The checked generic of one per-channel add."""
    t = f"tensor<1x{c}x{h}x{w}xf32>"
    module = parse_text(f"func.func @main(%0: {t}, %1: tensor<{c}xf32>) -> {t} {{\n"
                        + _add(0, c, h, w).replace("%10 =", "%r =")
                        + f"  func.return %r : {t}\n}}\n", "one.mlir")
    return elementwise(next(op for op in module.walk() if isinstance(op, GenericOp)))


def _fastest(ew: Elementwise, elements: int) -> float:
    """The fastest candidate's modelled seconds (the schedule choice's first step)."""
    times = modelled_times(lambda: _build_kernel_function("k_f32", ew), ew.dag, "f32",
                           ew.output_names(), get_platform("ascend910b"), elements, TRADED)
    return min(time for _, time in times)


def test_the_cost_model_times_a_shared_kernel_as_its_own() -> None:
    """Where the rule shares, the fastest candidate's time is the static kernel's (the same
    copies and vector instructions); a size it keeps apart models slower shared (the
    independent check that the rule does not share what costs)."""
    big = _one(576, 7, 7)
    shared = shared_broadcast(big.broadcast, ["f32", "f32"])
    assert shared is not None
    assert _fastest(replace(big, broadcast=shared), 576 * 49) == _fastest(big, 576 * 49)
    small = _one(96, 14, 14)
    assert small.broadcast is not None
    assert shared_broadcast(small.broadcast, ["f32", "f32"]) is None
    dynamic = replace(small, broadcast=Broadcast((1, DYNAMIC_DIM, 14, 14),
                                                 small.broadcast.strides))
    assert _fastest(dynamic, 96 * 196) > _fastest(small, 96 * 196) * 1.01


@pytest.mark.parametrize(("broadcast", "why"), [
    (Broadcast((1, 16, 56, 56), (None, (0, 1, 0, 0))), "its weight stays in UB"),
    (Broadcast((1, 600, 7, 7), ((0, 1, 0, 0), (0, 1, 0, 0))), "no input at the output's index"),
    (Broadcast((1, 600, 7, 7), (None, (0, 1, 0, 0)), (None, Window(7, 800))), "a window"),
    (Broadcast((1, 1, 1, 1), (None, (0, 0, 0, 0))), "no dim above 1"),
])
def test_what_stays_one_kernel_per_shape(broadcast: Broadcast, why: str) -> None:
    assert shared_broadcast(broadcast, ["f32", "f32"]) is None, why


def test_a_large_weight_shares() -> None:
    found = shared_broadcast(Broadcast((1, 576, 7, 7), (None, (0, 1, 0, 0))), ["f32", "f32"])
    assert found == Broadcast((1, DYNAMIC_DIM, 7, 7), (None, (0, 1, 0, 0)))
    batch = shared_broadcast(Broadcast((2, 600, 7, 7), (None, (0, 1, 0, 0))), ["f32", "f32"])
    assert batch == Broadcast((DYNAMIC_DIM, 600, 7, 7), (None, (0, 1, 0, 0)))  # any batch


@pytest.mark.parametrize(("rank", "added", "groups"), [
    (4, {0, 2, 3}, [[0, 1, 2, 3]]),
    (4, {0, 3}, [[0, 1], [2, 3]]),
    (3, {1}, [[0], [1, 2]]),
    (2, {0, 1}, None),
])
def test_unit_broadcast_groups(rank: int, added: set[int], groups: list[list[int]] | None
                               ) -> None:
    assert unit_groups(rank, added) == groups


def test_a_unit_broadcast_is_a_view_on_the_host(tmp_path: Path) -> None:
    """A conv bias broadcast to 1xCx1x1 is a view: returned as it is, and read by an add
    (whose kernel reads the bias through its map); the file runs equal to numpy."""
    t = "tensor<1x8x1x1xf32>"
    source = tmp_path / "bias.mlir"
    source.write_text(
        f"func.func @main(%0: {t}, %1: tensor<8xf32>) -> ({t}, {t}) {{\n"
        f"  %e = tensor.empty() : {t}\n"
        f"  %2 = linalg.broadcast ins(%1 : tensor<8xf32>) outs(%e : {t}) dimensions = [0, 2, 3]\n"
        f"  %3 = linalg.add ins(%0, %2 : {t}, {t}) outs(%e : {t}) -> {t}\n"
        f"  func.return %2, %3 : {t}, {t}\n}}\n")
    done = _run("hswc-opt", str(source), "--lower-to-ascend")
    assert done.returncode == 0, done.stderr
    module = parse_text(done.stdout, "lowered.mlir")
    views = [op for op in module.walk() if isinstance(op, tensor.ExpandShapeOp)]
    assert len(views) == 1 and views[0].result.type.get_shape() == (1, 8, 1, 1)
    assert len([op for op in module.walk() if op.name == "hsg.launch"]) == 1  # the add's
    rng = np.random.default_rng(1)
    x, b = rng.standard_normal((1, 8, 1, 1)).astype(np.float32), \
        rng.standard_normal(8).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "b.npy", b)
    done = _run("hswc-run", str(source), "--level", "ascend", "--input", str(tmp_path / "x.npy"),
                "--input", str(tmp_path / "b.npy"), "--output", str(tmp_path / "o0.npy"),
                "--output", str(tmp_path / "o1.npy"))
    assert done.returncode == 0, done.stderr
    assert np.array_equal(np.load(tmp_path / "o0.npy"), b.reshape(1, 8, 1, 1))
    assert np.array_equal(np.load(tmp_path / "o1.npy"), x + b.reshape(1, 8, 1, 1))
