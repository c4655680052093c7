"""The emitted AscendC kernels, compiled with g++ against the CPU model of AscendC
(hswc/checker/ascendc_cpu), give bit for bit what the reference model and the interpreter give.

One translation unit with the f16, f32 and bf16 kernels (what `hswc-opt --lower-to-ascend
-t ascendc` prints for a module with the three) is built once per session with
-std=c++17 -Wall -Wextra -Werror, and again with -fsanitize=address,undefined; so is the fast
kernel variant, and each one-dtype translation unit is compiled for warnings. Each run launches
the kernel on every core the host tiling (hswc.tiling.compute_tiling) uses, on inputs that
include +-3 and their neighbours, NaN, +-inf, -0.0 and values whose f16 product overflows, and
compares bit patterns with hswc.reference and with hswc-run's interpreter (hswc.runner).
"""

from __future__ import annotations

import zlib
from functools import cache
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from cpu_build import (
    DEFAULT_PIPELINE,
    DTYPES,
    REPO,
    SANITIZE,
    Build,
    bits,
    build,
    lower,
    operator_module,
    run_kernel,
)

from hswc import runner
from hswc.backend.cpp_types import float_literal
from hswc.backend.source import kernel_source
from hswc.dialects.ascend import Ascend
from hswc.op_plans import op_ub_plan
from hswc.reference import hard_swish_grad_cann
from hswc.vectorizer.schedule import FAST

SHAPES = [(0,), (1,), (63,), (64,), (65,), (4031,), (4032,), (4033,), (100003,), (3, 5, 7),
          (4, 1031)]
PLATFORMS = [(48, 196608), (7, 196608), (1, 8192), (5, 8192)]
"""(AIV cores, UB bytes): 8192 bytes of UB give 128-element chunks, so many loops per core."""
SANITIZED_SHAPES = [(1,), (65,), (4033,), (3, 5, 7)]
FAST_PIPELINE = ("hsg-decompose,hsg-tile-on-cores{variant=fast},hsg-block-into-ub,"
                 "convert-hsg-to-ascend{variant=fast}")
FAST_PLATFORMS = [(48, 196608), (1, 16384), (5, 16384)]
"""The fast variant reserves Select's 8 KB: its smallest UB here is 16 KB (320-element chunks)."""


def emit(dtypes: tuple[str, ...], directory: Path, pipeline: str | None = None) -> Path:
    """The kernel source `hswc-opt -p <pipeline> -t ascendc` prints (--lower-to-ascend when no
    pipeline is given)."""
    suffix = "_fast" if pipeline else ""
    path = directory / f"kernel_{'_'.join(dtypes)}{suffix}.cpp"
    module = lower(operator_module(dtypes), pipeline or DEFAULT_PIPELINE)
    path.write_text(kernel_source(module))
    return path


@pytest.fixture(scope="session")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The three-dtype kernel built plainly, with sanitizers and as the fast variant; each
    one-dtype kernel is compiled (syntax and warnings) too."""
    directory = tmp_path_factory.mktemp("cpu_build")
    source = emit(tuple(DTYPES), directory)
    builds = {
        "plain": Build(source, directory / "run_kernel"),
        "sanitized": Build(source, directory / "run_kernel_sanitized", SANITIZE),
    }
    fast = emit(tuple(DTYPES), directory, FAST_PIPELINE)
    builds["fast"] = Build(fast, directory / "run_kernel_fast")
    singles = [Build(emit((dt,), directory), directory / "unused") for dt in DTYPES]
    build(list(builds.values()), syntax_only=singles)
    return {name: b.output for name, b in builds.items()}


def special_values(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """x: +-3, their neighbours, zeros, NaN, +-inf, extremes; grad: NaN, +-inf, zeros, extremes."""
    t = DTYPES[dtype]
    uint = np.uint32 if dtype == "f32" else np.uint16
    three = np.array([3, -3], dtype=t)
    neighbours = np.concatenate([(three.view(uint) + uint(1)).view(t),
                                 (three.view(uint) - uint(1)).view(t)])
    big = np.array(np.finfo(t).max if dtype != "bf16" else 3.3895314e38, dtype=t)
    x = np.concatenate([three, neighbours, np.array(
        [0.0, -0.0, np.nan, np.inf, -np.inf, 2.999, -2.999, 1e4, -1e4, 2.5], dtype=t), [big, -big]])
    grad = np.concatenate([np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -7.5], dtype=t),
                           [big, -big]])
    return x.astype(t), grad.astype(t)


def inputs(dtype: str, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Random values in range, with every (special x, special grad) pair at random places."""
    t = DTYPES[dtype]
    rng = np.random.default_rng(zlib.crc32(repr((dtype, shape)).encode()))
    n = int(np.prod(shape))
    x = rng.uniform(-6, 6, n).astype(np.float32).astype(t)
    grad = rng.uniform(-10, 10, n).astype(np.float32).astype(t)
    sx, sg = special_values(dtype)
    pairs = np.array(list(product(range(len(sx)), range(len(sg)))))
    pairs = pairs[rng.permutation(len(pairs))][: n]
    places = rng.permutation(n)[: len(pairs)]
    x[places], grad[places] = sx[pairs[:, 0]], sg[pairs[:, 1]]
    return grad.reshape(shape), x.reshape(shape)


@cache
def interpreter(dtype: str, rank: int, core_num: int, ub_size: int) -> runner.Kernel:
    """hswc-run's compiled kernel for this dtype, rank and platform."""
    return runner.compile_text(operator_module((dtype,), rank), core_num=core_num,
                               ub_size=ub_size)


@pytest.mark.parametrize("core_num,ub_size", PLATFORMS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_cpu_build_matches_reference_and_interpreter(
    executables: dict[str, Path], tmp_path: Path, dtype: str, shape: tuple[int, ...],
    core_num: int, ub_size: int,
) -> None:
    grad, x = inputs(dtype, shape)
    y = run_kernel(executables["plain"], grad, x, core_num, ub_size, tmp_path)
    expected = hard_swish_grad_cann(grad, x)
    np.testing.assert_array_equal(bits(y), bits(expected), err_msg="CPU build vs reference")
    interpreted = interpreter(dtype, len(shape), core_num, ub_size)(grad, x)
    np.testing.assert_array_equal(bits(y), bits(np.asarray(interpreted)),
                                  err_msg="CPU build vs hswc-run")


@pytest.mark.parametrize("core_num,ub_size", [(1, 8192), (7, 196608)])
@pytest.mark.parametrize("shape", SANITIZED_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_sanitized_cpu_build_is_clean_and_exact(
    executables: dict[str, Path], tmp_path: Path, dtype: str, shape: tuple[int, ...],
    core_num: int, ub_size: int,
) -> None:
    # run_kernel fails on any sanitizer report: it needs exit status 0 and an empty stderr.
    grad, x = inputs(dtype, shape)
    y = run_kernel(executables["sanitized"], grad, x, core_num, ub_size, tmp_path)
    np.testing.assert_array_equal(bits(y), bits(hard_swish_grad_cann(grad, x)))


@pytest.mark.parametrize("core_num,ub_size", FAST_PLATFORMS)
@pytest.mark.parametrize("shape", [(1,), (65,), (4033,), (100003,), (3, 5, 7)], ids=str)
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_fast_variant_cpu_build_is_exact(
    executables: dict[str, Path], tmp_path: Path, dtype: str, shape: tuple[int, ...],
    core_num: int, ub_size: int,
) -> None:
    """The fast kernel variant (double-buffered queues, CompareScalar, Select with scalars, in
    place, early frees, x first) prints with the same printer and keeps the reference's bits."""
    grad, x = inputs(dtype, shape)
    y = run_kernel(executables["fast"], grad, x, core_num, ub_size, tmp_path,
                   op_ub_plan("hard_swish_grad", dtype, FAST))
    np.testing.assert_array_equal(bits(y), bits(hard_swish_grad_cann(grad, x)))


def test_inputs_hold_the_corner_cases() -> None:
    """The inputs really contain what the module docstring promises."""
    grad, x = inputs("f16", (4033,))
    assert np.isnan(x).any() and np.isposinf(x).any() and np.isneginf(x).any()
    assert ((x == 3) & ~np.signbit(x)).any() and (x == -3).any()
    assert (np.signbit(x) & (x == 0)).any() and np.isnan(grad).any()
    assert np.isinf(hard_swish_grad_cann(grad, x)[np.isfinite(grad)]).any()  # f16 overflow


EVERY_OP = REPO / "test" / "lit" / "printer" / "every-op.mlir"


def test_every_ascend_op_is_in_every_op_mlir() -> None:
    """The module of every-op.mlir uses each op of the ascend dialect (so the printer lit test
    and the compile test below cover them all)."""
    module = lower(EVERY_OP.read_text(), pipeline="")  # already at the ascend level
    used = {type(op) for op in module.walk()}
    assert set(Ascend.operations) <= used


def test_every_ascend_op_prints_and_compiles(tmp_path: Path) -> None:
    """What the printer makes of every-op.mlir (every ascend op) compiles warning-free against
    the CPU model: kernels that combine the ops differently need no printer change."""
    source = tmp_path / "every_op.cpp"
    source.write_text(kernel_source(lower(EVERY_OP.read_text(), pipeline="")))
    build([], syntax_only=[Build(source, tmp_path / "unused")])


def test_float_literals_read_back_exactly() -> None:
    """Every finite float's literal reads back to its bits; short values stay short."""
    rng = np.random.default_rng(11)
    values = rng.integers(0, 1 << 32, 20000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    for value in values[np.isfinite(values)]:
        literal = float_literal(value)
        assert literal.endswith("f") and ("." in literal or "e" in literal), literal
        assert np.float32(float(literal[:-1])).view(np.uint32) == value.view(np.uint32), literal
    assert [float_literal(np.float32(v)) for v in (1 / 3, -3.0, 0.5, 1e-5, 16777215.0)] == [
        "0.333333343f", "-3.0f", "0.5f", "1e-05f", "16777215.0f"]
