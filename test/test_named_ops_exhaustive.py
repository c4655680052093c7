"""The named ops over every f16 and bf16 bit pattern, NaN x included: hsg.hard_swish (torch)
and hsg.hard_swish_grad (cann and torch), decomposed by hsg-decompose, equal their golden models
(hswc.reference.OP_REFERENCES, which is independent of the decompositions) bit for bit.

Every one of the 65,536 patterns is an x; for the gradient, each x is paired once with a random
grad pattern and once with a special grad (NaN, +-inf, +-0, +-1, subnormals, the largest
finite). They run at the linalg level (the body once over whole arrays) and at the ascend
level on 5 cores with a UB that makes every core run many chunks, and as emitted C++ built
against the CPU model of AscendC: hard_swish with ASan and UBSan, hard_swish_grad's torch
kernel with -Wall -Wextra -Werror; f32 kernels there run on random bit patterns and on the
neighbours of the ops' thresholds. (test_family_stages.py runs every op at every level on one
platform for non-NaN x, test_cpu_build_family.py builds every op's default kernel with -Werror
and test_cpu_build.py HardSwishGrad's cann kernel with the sanitizers.)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import SANITIZE, Build, build, run_recorded
from elementwise_bodies import NUMPY_TYPES, UINT_TYPES
from test_cpu_build_family import module
from test_elementwise_properties import assert_bit_exact
from test_elementwise_properties import small_ub as chunked_ub

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.op_plans import default_ub_plan
from hswc.ops import definition_of
from hswc.reference import OP_REFERENCES

DTYPES = {dt: NUMPY_TYPES[dt] for dt in ("f16", "bf16", "f32")}
EXHAUSTIVE = ("f16", "bf16")
OPS = (("hard_swish", "torch"), ("hard_swish_grad", "cann"), ("hard_swish_grad", "torch"))
"""(named op, semantics) pairs, each with its golden model in OP_REFERENCES."""


def patterns(dtype: str) -> np.ndarray:
    """All 65,536 values of a 16-bit dtype (NaNs of every payload, both zeros, subnormals)."""
    return np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(DTYPES[dtype])


def special(dtype: str) -> np.ndarray:
    """NaN, +-inf, +-0, +-1, -7.5, the smallest subnormal, the largest finite, +-3, in dtype."""
    t = DTYPES[dtype]
    info = ml_dtypes.finfo(t)
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, -7.5, 3.0, -3.0],
                      np.float32).astype(t)
    extremes = np.array([info.smallest_subnormal, -info.smallest_subnormal, info.max,
                         -info.max], t)
    return np.concatenate([values, extremes])


def thresholds(dtype: str, n: int, seed: int) -> np.ndarray:
    """n values: random bit patterns, and the neighbours (up to 8 patterns away) of +-3, +-6
    and +-0, where the ops' branches meet."""
    rng = np.random.default_rng(seed)
    t, uint = DTYPES[dtype], UINT_TYPES[dtype]
    centres = np.array([3, -3, 6, -6, 0, -0.0], np.float32).astype(t).view(uint)
    near = (centres[rng.integers(0, len(centres), n)].astype(np.int64)
            + rng.integers(-8, 9, n)).astype(uint)
    random_bits = rng.integers(0, 2 ** (8 * t.itemsize), n, dtype=np.uint64).astype(uint)
    return np.where(rng.random(n) < 0.5, near, random_bits).view(t)


def operands(op: str, dtype: str) -> list[tuple[np.ndarray, ...]]:
    """The input sets of one op and dtype: every x (for the gradient, twice: with random and
    with special grads), or, for f32, random and near-threshold x."""
    x = patterns(dtype) if dtype in EXHAUSTIVE else thresholds(dtype, 2**16, 7)
    if definition_of(op).op.INPUTS == ("x",):
        return [(x,)]
    rng = np.random.default_rng(3)
    random_grad = rng.integers(0, 2 ** (8 * x.itemsize), x.size, dtype=np.uint64)
    random_grad = random_grad.astype(UINT_TYPES[dtype]).view(DTYPES[dtype]).reshape(x.shape)
    special_grad = np.resize(special(dtype), x.size).reshape(x.shape)
    return [(random_grad, x), (special_grad, x)]


def small_ub(op: str, dtype: str, semantics: str) -> int:
    """A UB whose ubFactor is twice the default kernel's alignment: many chunks on every core."""
    return chunked_ub(default_ub_plan(op, dtype, semantics=semantics), 2)


# region the interpreter


@cache
def compiled(op: str, semantics: str, level: str) -> runner.Kernel:
    """The op's module (a function @<op>_<dt> per dtype; test_cpu_build_family.module)."""
    return runner.compile_text(module(op), level=level, semantics=semantics,
                               function=f"{op}_f16")


def chunked(kernel: runner.Kernel, op: str, dtype: str, semantics: str) -> runner.Kernel:
    """The dtype's function on 5 cores, each running many chunks."""
    return runner.Kernel(kernel.module, kernel.source, f"{op}_{dtype}", kernel.platform,
                         kernel.level).with_platform(core_num=5,
                                                     ub_size=small_ub(op, dtype, semantics))


@pytest.mark.parametrize("level", ["linalg", "ascend"])
@pytest.mark.parametrize("dtype", EXHAUSTIVE)
@pytest.mark.parametrize("op,semantics", OPS)
def test_every_pattern_matches_the_reference(op: str, semantics: str, dtype: str,
                                             level: str) -> None:
    reference = OP_REFERENCES[(op, semantics)]
    kernel = chunked(compiled(op, semantics, level), op, dtype, semantics)
    for inputs in operands(op, dtype):
        where = f"hsg.{op} {semantics} {dtype}, {level} level, {kernel.platform.core_num} " \
                f"cores, UB {kernel.platform.ub_size}"
        assert_bit_exact(kernel(*inputs), reference(*inputs), dtype, inputs, where)


def test_unranked_operands_decompose_and_match() -> None:
    """An unranked tensor<*xbf16> is flattened for the generic and given its shape back."""
    inputs = operands("hard_swish_grad", "bf16")[1]
    t = "tensor<*xbf16>"
    kernel = runner.compile_text(
        f"func.func @f(%grad: {t}, %x: {t}) -> {t} {{\n"
        f"  %y = hsg.hard_swish_grad %grad, %x : {t}\n  func.return %y : {t}\n}}\n",
        semantics="torch")
    inputs = tuple(a.reshape(256, -1) for a in inputs)
    got = kernel(*inputs)
    assert got.shape == inputs[0].shape
    assert_bit_exact(got, OP_REFERENCES[("hard_swish_grad", "torch")](*inputs), "bf16", inputs,
                     "unranked hsg.hard_swish_grad torch bf16, ascend level")


def test_inputs_are_exhaustive_and_special() -> None:
    """What the module docstring promises about the inputs."""
    for dtype in EXHAUSTIVE:
        grad_sets = operands("hard_swish_grad", dtype)
        x = grad_sets[0][1]
        assert len(np.unique(x.view(np.uint16))) == 2**16
        special_grad = grad_sets[1][0]
        assert np.isnan(special_grad).any() and np.isinf(special_grad).any()
        assert (np.signbit(special_grad) & (special_grad == 0)).any()
    x = operands("hard_swish", "f32")[0][0]
    assert ((np.abs(x) > 2.999) & (np.abs(x) < 3.001)).sum() > 1000


# endregion
# region the CPU build


CPU_RUNS = (("hard_swish", "torch", True), ("hard_swish_grad", "torch", False))
"""(op, semantics, with ASan and UBSan): what the other CPU-build tests do not build."""


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Each kernel's translation unit (f16, f32, bf16), built with -Wall -Wextra -Werror (and
    the sanitizers where CPU_RUNS asks), in one g++ run."""
    directory = tmp_path_factory.mktemp("named_cpu")
    jobs, out = [], {}
    for op, semantics, sanitized in CPU_RUNS:
        source = directory / f"{op}_{semantics}.cpp"
        source.write_text(kernel_source(compiled(op, semantics, "ascend").module))
        flags = (f"-DHSWC_KERNEL_ENTRY={op}",
                 f"-DHSWC_GM_INPUTS={len(definition_of(op).op.INPUTS)}")
        jobs.append(Build(source, directory / op, (*flags, *(SANITIZE if sanitized else ()))))
        out[(op, semantics)] = jobs[-1].output
    build(jobs)
    return out


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op,semantics,sanitized", CPU_RUNS,
                         ids=[f"{o}-{s}{'-sanitized' if z else ''}" for o, s, z in CPU_RUNS])
def test_cpu_build_matches_the_reference(
    executables: dict[tuple[str, str], Path], tmp_path: Path, op: str, semantics: str,
    sanitized: bool, dtype: str,
) -> None:
    """The emitted kernel on the CPU model: every pattern (f16, bf16) or the f32 set, on 5
    cores with a small UB, equals the reference model."""
    reference = OP_REFERENCES[(op, semantics)]
    kernel = chunked(compiled(op, semantics, "ascend"), op, dtype, semantics)
    for n, inputs in enumerate(operands(op, dtype)):
        got = run_recorded(executables[(op, semantics)], kernel.tiling(inputs[0].shape, dtype),
                           inputs, kernel.platform.ub_size, tmp_path / str(n))
        where = f"CPU build of hsg.{op} {semantics} {dtype}{' (sanitized)' if sanitized else ''}" \
                f", {kernel.platform.core_num} cores, UB {kernel.platform.ub_size}"
        assert_bit_exact(got, reference(*inputs), dtype, inputs, where)


# endregion
