"""Every named op of the family, printed as AscendC (`--lower-to-ascend -t ascendc`) and compiled
with g++ -Wall -Wextra -Werror against the CPU model of AscendC (hswc/checker/ascendc_cpu), gives
bit for bit what the interpreter gives and, for every non-NaN x, what the reference model
(hswc.reference, from FAMILY.md) gives: every f16 and bf16 bit pattern of x, and f32 samples
around the op's thresholds and attribute values, with the attributes passed at run time
through the tiling struct."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from sampling import sampled, selected

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.ops import OPS as ALL_OPS
from hswc.reference import OP_REFERENCES

OPS = {name: d for name, d in ALL_OPS.items() if d.exact}
"""The bit-exact ops (the exponential ones: test_exponential_ops.py)."""
DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
ATTRIBUTES: dict[str, dict[str, float]] = {
    "hardtanh": {"min_val": -0.7, "max_val": 2.5},
    "hardtanh_grad": {"min_val": -0.7, "max_val": 2.5},
    "leaky_relu": {"negative_slope": 0.3},
    "leaky_relu_grad": {"negative_slope": 0.3},
    "threshold": {"threshold": 0.7, "value": -1.5},
    "threshold_grad": {"threshold": 0.7},
    "hard_shrink": {"lambd": 0.7},
    "hard_shrink_grad": {"lambd": 0.7},
    "softshrink": {"lambd": 0.7},
    "softshrink_grad": {"lambd": 0.7},
}
"""Attributes away from their defaults (none of them exact in f16 or bf16)."""
CORES, UB = 7, 196608
EDGES = (0.0, 3.0, 6.0, 0.7, 2.5, 1.5)


def module(op: str) -> str:
    """One function per dtype computing the op with ATTRIBUTES[op]."""
    definition = OPS[op]
    attrs = ATTRIBUTES.get(op, {})
    attr_text = ("{" + ", ".join(f"{k} = {v} : f32" for k, v in attrs.items()) + "} "
                 if attrs else "")
    functions = []
    for dt in DTYPES:
        t = f"tensor<?x{dt}>"
        args = ", ".join(f"%{n}: {t}" for n in definition.op.INPUTS)
        operands = ", ".join(f"%{n}" for n in definition.op.INPUTS)
        functions.append(f"func.func @{op}_{dt}({args}) -> {t} {{\n"
                         f"  %y = {definition.op.name} {operands} {attr_text}: {t}\n"
                         f"  func.return %y : {t}\n}}\n")
    return "".join(functions)


BUILD_SAMPLE = ("hard_swish", "hardtanh_grad", "leaky_relu_grad", "softshrink", "threshold_grad")
"""The ops whose C++ the default suite builds (a product, a compare-select on grad, an attribute
slope, two-sided thresholds, a strict threshold); `pytest -m sweep` builds the rest."""


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[str, Path]:
    """Each op's three-dtype translation unit the session's tests run, built at once."""
    directory = tmp_path_factory.mktemp("family_cpu_build")
    builds = {}
    for op in selected(request, "op"):
        definition = OPS[op]
        source = directory / f"{op}.cpp"
        lowered = runner.compile_text(module(op), function=f"{op}_f16").module
        source.write_text(kernel_source(lowered))
        builds[op] = Build(source, directory / op,
                           (f"-DHSWC_KERNEL_ENTRY={op}",
                            f"-DHSWC_GM_INPUTS={len(definition.op.INPUTS)}"))
    build(list(builds.values()))
    return {op: b.output for op, b in builds.items()}


def x_values(dtype: str) -> np.ndarray:
    """Every bit pattern (f16, bf16); f32: each edge +-, its neighbours 4 ulps either side,
    specials and a random spread."""
    t = DTYPES[dtype]
    if dtype != "f32":
        return np.arange(1 << 16, dtype=np.uint16).view(t)
    edges = np.array([e * s for e in EDGES for s in (1, -1)], dtype=np.float32)
    near = (edges.view(np.uint32)[:, None].astype(np.int64) + np.arange(-4, 5)).reshape(-1)
    specials = np.array([np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4e38, -3.4e38], np.float32)
    spread = np.random.default_rng(0).uniform(-8, 8, 20000).astype(np.float32)
    return np.concatenate([near.astype(np.uint32).view(np.float32), specials, spread])


def grad_values(x: np.ndarray) -> np.ndarray:
    """Random grads with the specials among them."""
    rng = np.random.default_rng(len(x))
    grad = rng.uniform(-10, 10, x.size).astype(np.float32)
    grad[rng.integers(0, x.size, 64)] = rng.choice(
        np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40], np.float32), 64)
    return grad.astype(x.dtype)


@cache
def kernel(op: str, dtype: str) -> runner.Kernel:
    return runner.compile_text(module(op), function=f"{op}_{dtype}", core_num=CORES,
                               ub_size=UB)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint32 if a.dtype.itemsize == 4 else np.uint16)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit, except that any NaN matches any NaN: no AscendC document specifies the
    payload a vector instruction gives a NaN (the CPU model keeps it through a Cast to bf16,
    the interpreter's ml_dtypes makes it the canonical one)."""
    nan = np.isnan(a.astype(np.float32))
    return bool(np.array_equal(nan, np.isnan(b.astype(np.float32)))
                and np.array_equal(_bits(a)[~nan], _bits(b)[~nan]))


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", sampled(OPS, BUILD_SAMPLE, ids=list(OPS)))
def test_cpu_build_matches_interpreter_and_reference(
        op: str, dtype: str, executables: dict[str, Path], tmp_path: Path) -> None:
    definition = OPS[op]
    x = x_values(dtype)
    inputs = [grad_values(x), x] if len(definition.op.INPUTS) == 2 else [x]
    compiled = kernel(op, dtype)
    result = compiled.run(*inputs)
    (record,) = result.tilings
    assert record is not None
    assert {k for k, v in record.items() if isinstance(v, float)} == \
        {"".join(w.capitalize() if i else w for i, w in enumerate(n.split("_")))
         for n in (a.name for a in definition.op.ATTRIBUTES)}  # each one a float tiling field
    interpreted = result.outputs[0]
    on_cpu = run_recorded(executables[op], record, inputs, UB, tmp_path)
    assert _same(on_cpu, interpreted), f"{op} {dtype}: C++ != interpreter"
    reference = OP_REFERENCES[(op, definition.default_semantics)](*inputs,
                                                                   **ATTRIBUTES.get(op, {}))
    known = ~np.isnan(x.astype(np.float32))
    mismatched = np.flatnonzero(_bits(on_cpu)[known] != _bits(reference)[known])
    assert mismatched.size == 0, (
        f"{op} {dtype}: {mismatched.size} mismatches, first x = {x[known][mismatched[0]]!r}")
