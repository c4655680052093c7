"""The named ops over every f16 and bf16 bit pattern: hsg.hard_swish (torch) and
hsg.hard_swish_grad (cann and torch), decomposed by hsg-decompose, equal their golden models
(hswc.reference.OP_REFERENCES, which is independent of the decompositions) bit for bit.

Every one of the 65,536 patterns is an x; for the gradient, each x is paired once with a random
grad pattern and once with a special grad (NaN, +-inf, +-0, +-1, subnormals, the largest
finite). They run at the linalg level (the body once over whole arrays) and at the ascend
level (the AscendC calls on 48 modelled cores with the A2's UB, and on 5 cores with a UB that
makes every core run many chunks), and as emitted C++ built against the CPU model of AscendC
with -Wall -Wextra -Werror and again with ASan and UBSan; f32 kernels there run on random bit
patterns and on the neighbours of the ops' thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import SANITIZE, Build, build, lower
from elementwise_bodies import NUMPY_TYPES, UINT_TYPES
from test_elementwise_properties import assert_bit_exact, run_on_cpu
from test_elementwise_properties import small_ub as chunked_ub

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.ops import definition_of
from hswc.ops.plans import op_ub_plan
from hswc.reference import OP_REFERENCES

DTYPES = {dt: NUMPY_TYPES[dt] for dt in ("f16", "bf16", "f32")}
EXHAUSTIVE = ("f16", "bf16")
OPS = (("hard_swish", "torch"), ("hard_swish_grad", "cann"), ("hard_swish_grad", "torch"))
"""(named op, semantics) pairs, each with its golden model in OP_REFERENCES."""
ROWS = 256
"""Every pattern as a ?x256 tensor: 256 rows of 256."""


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
    if dtype in EXHAUSTIVE:
        x = patterns(dtype)
    else:
        x = thresholds(dtype, 2**16, 7)
    x = x.reshape(-1, ROWS)
    if definition_of(op).op.INPUTS == ("x",):
        return [(x,)]
    rng = np.random.default_rng(3)
    random_grad = rng.integers(0, 2 ** (8 * x.itemsize), x.size, dtype=np.uint64)
    random_grad = random_grad.astype(UINT_TYPES[dtype]).view(DTYPES[dtype]).reshape(x.shape)
    special_grad = np.resize(special(dtype), x.size).reshape(x.shape)
    return [(random_grad, x), (special_grad, x)]


def module_text(op: str, dtypes: tuple[str, ...], tensor: str = f"?x{ROWS}") -> str:
    """One function per dtype applying the named op to tensors of shape `tensor`."""
    inputs = definition_of(op).op.INPUTS
    functions = []
    for dt in dtypes:
        t = f"tensor<{tensor}x{dt}>"
        args = ", ".join(f"%{name}: {t}" for name in inputs)
        functions.append(f"func.func @{op}_{dt}({args}) -> {t} {{\n"
                         f"  %y = hsg.{op} {', '.join(f'%{n}' for n in inputs)} : {t}\n"
                         f"  func.return %y : {t}\n}}\n")
    return "".join(functions)


def small_ub(op: str, dtype: str, semantics: str) -> int:
    """A UB whose ubFactor is twice the kernel's alignment: many chunks on every core."""
    return chunked_ub(op_ub_plan(op, dtype, semantics=semantics), 2)


# region the interpreter


@cache
def compiled(op: str, semantics: str, dtype: str, level: str) -> runner.Kernel:
    return runner.compile_text(module_text(op, (dtype,)), level=level, semantics=semantics)


@pytest.mark.parametrize("level", ["linalg", "ascend"])
@pytest.mark.parametrize("dtype", EXHAUSTIVE)
@pytest.mark.parametrize("op,semantics", OPS)
def test_every_pattern_matches_the_reference(op: str, semantics: str, dtype: str,
                                             level: str) -> None:
    reference = OP_REFERENCES[(op, semantics)]
    kernel = compiled(op, semantics, dtype, level)
    platforms = [kernel] if level == "linalg" else [
        kernel, kernel.with_platform(core_num=5, ub_size=small_ub(op, dtype, semantics))]
    for inputs in operands(op, dtype):
        expected = reference(*inputs)
        for k in platforms:
            where = f"hsg.{op} {semantics} {dtype}, {level} level, {k.platform.core_num} " \
                    f"cores, UB {k.platform.ub_size}"
            assert_bit_exact(k(*inputs), expected, dtype, inputs, where)


def test_unranked_operands_decompose_and_match() -> None:
    """An unranked tensor<*xbf16> is flattened for the generic and given its shape back."""
    inputs = operands("hard_swish_grad", "bf16")[1]
    kernel = runner.compile_text(module_text("hard_swish_grad", ("bf16",), "*"),
                                 semantics="torch")
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


@dataclass(frozen=True)
class CpuKernel:
    op: str
    semantics: str
    sanitize: bool

    @property
    def pipeline(self) -> str:
        return (f"hsg-decompose{{semantics={self.semantics}}},hsg-tile-on-cores,"
                "hsg-block-into-ub,convert-hsg-to-ascend")

    def flags(self) -> tuple[str, ...]:
        inputs = len(definition_of(self.op).op.INPUTS)
        return (f"-DHSWC_KERNEL_ENTRY={self.op}", f"-DHSWC_GM_INPUTS={inputs}")


CPU_KERNELS = (CpuKernel("hard_swish", "torch", True), CpuKernel("hard_swish_grad", "torch", False),
               CpuKernel("hard_swish_grad", "cann", False))
"""(test_cpu_build.py builds HardSwishGrad's cann kernel with the sanitizers.)"""
CPU_RUNS = [(k, sanitized) for k in CPU_KERNELS for sanitized in (False, True)[: 1 + k.sanitize]]
"""Each build: (kernel, whether with ASan and UBSan)."""


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[CpuKernel, bool], Path]:
    """Each kernel's translation unit (f16, f32, bf16), built with -Wall -Wextra -Werror, and
    with ASan and UBSan where asked, in one g++ run."""
    directory = tmp_path_factory.mktemp("named_cpu")
    jobs, out = [], {}
    for k, sanitized in CPU_RUNS:
        source = directory / f"{k.op}_{k.semantics}.cpp"
        if not source.exists():
            source.write_text(kernel_source(lower(module_text(k.op, tuple(DTYPES)), k.pipeline)))
        path = directory / f"{source.stem}{'_sanitized' if sanitized else ''}"
        jobs.append(Build(source, path, (*k.flags(), *(SANITIZE if sanitized else ()))))
        out[(k, sanitized)] = path
    build(jobs)
    return out


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("kernel,sanitized", CPU_RUNS, ids=[
    f"{k.op}-{k.semantics}{'-sanitized' if s else ''}" for k, s in CPU_RUNS])
def test_cpu_build_matches_the_reference(
    executables: dict[tuple[CpuKernel, bool], Path], tmp_path: Path, kernel: CpuKernel,
    dtype: str, sanitized: bool,
) -> None:
    """The emitted kernel on the CPU model: every pattern (f16, bf16) or the f32 set, on 48
    cores with the A2's UB and on 5 cores with a small one (the sanitized build on the
    small one only)."""
    reference = OP_REFERENCES[(kernel.op, kernel.semantics)]
    interpreted = compiled(kernel.op, kernel.semantics, dtype, "ascend")
    small = interpreted.with_platform(core_num=5,
                                      ub_size=small_ub(kernel.op, dtype, kernel.semantics))
    for n, inputs in enumerate(operands(kernel.op, dtype)):
        expected = reference(*inputs)
        for k in [small] if sanitized else [interpreted, small]:
            platform = k.platform
            tiling = k.tiling(inputs[0].shape, dtype)
            got = run_on_cpu(executables[(kernel, sanitized)], inputs, tiling, platform.ub_size,
                             tmp_path / f"{n}_{platform.core_num}")
            where = f"CPU build of hsg.{kernel.op} {kernel.semantics} {dtype}, " \
                    f"{platform.core_num} cores, UB {platform.ub_size}"
            assert_bit_exact(got, expected, dtype, inputs, where)


# endregion
