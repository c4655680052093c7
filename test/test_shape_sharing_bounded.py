"""Kernels whose per-channel weight stays in UB share one kernel bounded by the largest channel
count of their group (hswc.passes.shape_sharing, "Bounded"; hsg.broadcast_bound): the rule,
the cost model, hswc-run against numpy, the refusal of a shape above the bound (interpreter and
package host tiling), and hswc-emit of a lowered module holding such a kernel."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from cpu_build import compiler
from test_emit_broadcast import run_kernel_unit_tests
from test_shape_sharing import _add, _fastest, _one
from xdsl.dialects import func

from hswc.broadcast import DYNAMIC_DIM, Broadcast, read_broadcast
from hswc.checker import host_tiling
from hswc.checker.op_folder import folder
from hswc.dialects import hsg
from hswc.passes.shape_sharing import shared_broadcast
from hswc.pipeline import parse_text
from hswc.vectorizer.broadcast_copy import RowRuns, row_runs

SHAPES = ((96, 14, 14), (240, 14, 14), (16, 14, 14), (600, 7, 7), (700, 7, 7), (8, 7, 7))
"""At 14 x 14: three channel counts whose weights fit UB (one kernel bounded by 240); at 7 x 7
two that do not (one kernel, no bound) and one that fits alone (its own static kernel)."""

FILL = ("  %fe = tensor.empty() : tensor<4xf32>\n"
        "  %fill = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = "
        "[\"parallel\"]} outs(%fe : tensor<4xf32>) {\n  ^bb0(%o: f32):\n"
        "    %one = arith.constant 1.0 : f32\n    linalg.yield %one : f32\n"
        "  } -> tensor<4xf32>\n")
"""A fill: it stays on the host, so a lowered module holding it is lowered again (and packaged
as a whole model) by hswc-emit."""


def _module_text(shapes: tuple[tuple[int, int, int], ...], fill: bool = False) -> str:
    args = ", ".join(f"%{2 * n}: tensor<1x{c}x{h}x{w}xf32>, %{2 * n + 1}: tensor<{c}xf32>"
                     for n, (c, h, w) in enumerate(shapes))
    types = [f"tensor<1x{c}x{h}x{w}xf32>" for c, h, w in shapes]
    values = [f"%{100 + n}" for n in range(len(shapes))]
    if fill:
        types.append("tensor<4xf32>")
        values.append("%fill")
    body = "".join(_add(n, *shape).replace(f"%{10 + n} =", f"%{100 + n} =")
                   for n, shape in enumerate(shapes)) + (FILL if fill else "")
    return (f"func.func @main({args}) -> ({', '.join(types)}) {{\n{body}"
            f"  func.return {', '.join(values)} : {', '.join(types)}\n}}\n")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    tool = args[0].replace("-", "_")
    return subprocess.run([sys.executable, "-c", f"import sys; from hswc.tools.{tool} import "
                           "main; sys.exit(main())", *args[1:]],
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bounded")
    (root / "share.mlir").write_text(_module_text(SHAPES))
    done = _run("hswc-opt", str(root / "share.mlir"), "--lower-to-ascend", "-o",
                str(root / "share.ascend.mlir"))
    assert done.returncode == 0, done.stderr
    return root


def test_weights_in_ub_share_one_kernel_bounded_by_the_largest(lowered: Path) -> None:
    module = parse_text((lowered / "share.ascend.mlir").read_text(), "lowered.mlir")
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp)
                and op.sym_name.data == "main")
    names = [op.kernel.root_reference.data for op in main.walk()
             if isinstance(op, hsg.LaunchOp)]
    assert len(names) == 6
    assert names[0] == names[1] == names[2] != names[3] == names[4] != names[5]
    kernels = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
               and "hsg.kernel" in op.attributes}
    assert len(kernels) == 3
    bounded = read_broadcast(kernels[names[0]])
    assert bounded == Broadcast((1, DYNAMIC_DIM, 14, 14), (None, (0, 1, 0, 0)),
                                bounds=(1, 240, 14, 14))
    free = read_broadcast(kernels[names[3]])
    assert free == Broadcast((1, DYNAMIC_DIM, 7, 7), (None, (0, 1, 0, 0)))
    own = read_broadcast(kernels[names[5]])
    assert own is not None and own.shape == (1, 8, 7, 7)  # no other count at 7 x 7 fits UB
    # the bounded kernel reserves UB for 240 f32 (960 bytes), as the static 240 one does
    assert "ub_reserve = 960" in str(kernels[names[0]].attributes["hsg.ub_plan"])


def test_the_bounded_kernel_runs_equal_to_numpy(lowered: Path) -> None:
    rng = np.random.default_rng(35)
    args: list[str] = []
    for n, (c, h, w) in enumerate(SHAPES):
        for k, shape in enumerate(((1, c, h, w), (c,))):
            np.save(lowered / f"in{n}_{k}.npy", rng.standard_normal(shape).astype(np.float32))
            args += ["--input", str(lowered / f"in{n}_{k}.npy")]
    for n in range(len(SHAPES)):
        args += ["--output", str(lowered / f"out{n}.npy")]
    done = _run("hswc-run", str(lowered / "share.ascend.mlir"), *args)
    assert done.returncode == 0, done.stderr
    for n in range(len(SHAPES)):
        x, wt = np.load(lowered / f"in{n}_0.npy"), np.load(lowered / f"in{n}_1.npy")
        assert np.array_equal(np.load(lowered / f"out{n}.npy"), x + wt.reshape(1, -1, 1, 1))


def test_a_launch_above_the_bound_is_refused(lowered: Path) -> None:
    """The lowered host code launching the bounded kernel on 241 channels: hswc-run refuses
    it, naming the bound, before any core reads past the weight's UB."""
    text = (lowered / "share.ascend.mlir").read_text()
    assert text.count("240x14x14") and text.count("tensor<240xf32>")
    wider = text.replace("240x14x14", "241x14x14").replace("tensor<240xf32>",
                                                           "tensor<241xf32>")
    (lowered / "wider.mlir").write_text(wider)
    rng = np.random.default_rng(1)
    args: list[str] = []
    for n, (c, h, w) in enumerate(SHAPES):
        c = 241 if c == 240 else c
        for k, shape in enumerate(((1, c, h, w), (c,))):
            np.save(lowered / f"w{n}_{k}.npy", rng.standard_normal(shape).astype(np.float32))
            args += ["--input", str(lowered / f"w{n}_{k}.npy")]
    done = _run("hswc-run", str(lowered / "wider.mlir"), *args)
    assert done.returncode == 1
    assert "has 241 in dim 1, above the kernel's bound of 240" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_the_rule_with_a_bound() -> None:
    small = Broadcast((1, 96, 14, 14), (None, (0, 1, 0, 0)))
    assert shared_broadcast(small, ["f32", "f32"]) is None  # unbounded: read from GM
    found = shared_broadcast(small, ["f32", "f32"], 240)
    assert found is not None and found.bounds == (1, 240, 14, 14)
    runs = row_runs(found, 1, "f32")
    assert isinstance(runs, RowRuns) and runs.resident
    assert shared_broadcast(small, ["f32", "f32"], 600) is None  # 2400 bytes: not in UB
    assert shared_broadcast(small, ["f32", "f32"], 95) is None  # below its own count
    assert shared_broadcast(small, ["f16", "f16"], 1024) is not None  # 2048 bytes of f16
    with pytest.raises(ValueError, match="above the kernel's bound of 240"):
        found.resolve((1, 241, 14, 14))
    assert found.resolve((1, 7, 14, 14)).operand_size(1) == 7


def test_the_cost_model_times_the_bounded_kernel_as_the_static_one_or_less() -> None:
    """The same copies and vector instructions on every chunk: only Init's copy of the
    weight differs (the core's part of it, never more than the static kernel's whole), so
    the bounded kernel is modelled no slower; read from GM instead (no bound) it is slower."""
    for c, bound in ((96, 240), (240, 240)):
        ew = _one(c, 14, 14)
        bounded = shared_broadcast(ew.broadcast, ["f32", "f32"], bound)
        assert bounded is not None
        static = _fastest(ew, c * 196)
        shared = _fastest(replace(ew, broadcast=bounded), c * 196)
        assert 0.85 * static <= shared <= static, (c, shared, static)
        free = replace(bounded, bounds=())
        assert _fastest(replace(ew, broadcast=free), c * 196) > static * 1.01


def test_hswc_emit_packages_a_lowered_module_holding_a_bounded_kernel(
        tmp_path: Path) -> None:
    """A lowered module with a generic left on the host is packaged as a whole model: the
    bounded kernel gets its package (no "no package" warning), whose host tiling, unchanged on
    the CPU model of the tiling context, tiles 240 channels and refuses 241 naming the bound,
    and whose kernel unit test passes on the CPU model."""
    source = tmp_path / "fill.mlir"
    source.write_text(_module_text(SHAPES[:2], fill=True))
    lowered = tmp_path / "fill.ascend.mlir"
    done = _run("hswc-opt", str(source), "--lower-to-ascend", "-o", str(lowered))
    assert done.returncode == 0, done.stderr
    assert "hsg.broadcast_bound" in lowered.read_text()
    out = tmp_path / "out"
    done = _run("hswc-emit", str(lowered), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "no package" not in done.stderr
    assert "1 package, one per kernel, for 2 regions" in done.stderr, done.stderr
    package = out / "main_r0"
    op = host_tiling.OpDefinition("MainR0", [("a", (1,)), ("b", (1,))], [("y", (1,))])
    built = host_tiling.build(folder(package, "ascend910b"), op, {}, "MainR0TilingData", [],
                              None, None, compiler(), tmp_path)

    def tile(c: int) -> subprocess.CompletedProcess[str]:
        shapes = [f"0:1x{c}x14x14", f"0:{c}", f"0:1x{c}x14x14"]
        return subprocess.run([str(built.executable), "--op", "MainR0", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608", "--input", shapes[0],
                               "--input", shapes[1], "--output", shapes[2]],
                              capture_output=True, text=True, timeout=60, check=False)

    for c in (2, 96, 240):
        done = tile(c)
        assert done.returncode == 0 and "status ok" in done.stdout, (c, done.stderr)
    done = tile(241)
    assert done.returncode != 0 and "status failed" in done.stdout
    assert "MainR0: dim 1 of a must be at most 240" in done.stderr, done.stderr
    run_kernel_unit_tests({"bounded": package / "tests/ut/op_kernel/test_main_r0.cpp"},
                          "none", tmp_path)
