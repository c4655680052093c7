"""Every named op, decomposed with each of its semantics, agrees at every IR level (hsg,
linalg, tiled, blocked, ascend) with its reference model (hswc.reference, written from
FAMILY.md), bit for bit for every non-NaN x: all 65,536 f16 and bf16 patterns of x, and in
f32 every edge of the op (its thresholds, its attributes, 0) and 64 ulps either side, specials
and a random spread.
Attributes: each op's defaults and a set away from them, and random ones (hypothesis)."""

from __future__ import annotations

from functools import cache

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hswc import runner
from hswc.dialects.hsg import NamedOp
from hswc.ops import OPS as ALL_OPS
from hswc.reference import OP_REFERENCES, compare_bitwise

OPS = {name: d for name, d in ALL_OPS.items() if d.exact}
"""The bit-exact ops (the exponential ones: test_exponential_ops.py)."""

DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
LEVELS = runner.LEVELS
"""hsg too: there the interpreter runs the op as its reference model, its attributes passed."""
OFF_DEFAULT: dict[str, dict[str, float]] = {
    "hardtanh": {"min_val": -0.7, "max_val": 2.5},
    "leaky_relu": {"negative_slope": 0.3},
    "threshold": {"threshold": 0.7, "value": -1.5},
    "hard_shrink": {"lambd": 0.7},
    "softshrink": {"lambd": 0.1, "bias": 0.3},
    "hard_sigmoid": {"alpha": -0.3, "beta": 0.6},
}
"""Attributes away from the defaults (by forward op; its gradient takes the same ones)."""
FIXED_EDGES = (0.0, 1.0, 3.0, 6.0, 2.0, 4.0 / 3.0)
"""Where the family's ops change behaviour besides their attributes (HardSwish's and
HardSigmoid's +-3, relu6's 6; 2 and -4/3, HardSigmoid's ends for alpha -0.3, beta 0.6)."""


def attributes_of(op: str, chosen: dict[str, float]) -> dict[str, float]:
    names = {a.name for a in OPS[op].op.ATTRIBUTES}
    return {k: v for k, v in chosen.items() if k in names}


def cases() -> list[tuple[str, str, dict[str, float]]]:
    """(op, semantics, attributes): every semantics of every op, with defaults and off them."""
    found = []
    for op, definition in OPS.items():
        forward = op.removesuffix("_grad")
        for semantics in definition.semantics:
            if not any(a.required for a in definition.op.ATTRIBUTES):
                found.append((op, semantics, {}))  # threshold has none: no default case
            if definition.op.ATTRIBUTES:
                found.append((op, semantics, attributes_of(op, OFF_DEFAULT[forward])))
    return found


def text(op: str, dtype: str, attributes: dict[str, float]) -> str:
    op_type: type[NamedOp] = OPS[op].op
    t = f"tensor<?x{dtype}>"
    attrs = ("{" + ", ".join(f"{k} = 0x{np.float32(v).view(np.uint32):08X} : f32"
                             for k, v in attributes.items()) + "} ") if attributes else ""
    args = ", ".join(f"%{n}: {t}" for n in op_type.INPUTS)
    operands = ", ".join(f"%{n}" for n in op_type.INPUTS)
    return (f"func.func @f({args}) -> {t} {{\n  %y = {op_type.name} {operands} {attrs}: {t}\n"
            f"  func.return %y : {t}\n}}\n")


def x_values(dtype: str, attributes: dict[str, float], spread: int = 50_000) -> np.ndarray:
    """Every pattern (f16, bf16); f32: the edges +- 64 ulps, specials and a random spread."""
    if dtype != "f32":
        return np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype])
    edges = np.array(sorted({s * float(np.float32(e)) for e in (*FIXED_EDGES,
                                                                 *attributes.values())
                             for s in (1.0, -1.0)}), dtype=np.float32)
    bits = edges.view(np.uint32).astype(np.int64)[:, None] + np.arange(-64, 65)
    near = bits.reshape(-1).astype(np.uint32).view(np.float32)
    specials = np.array([np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.2e-38, 3.4e38, -3.4e38],
                        np.float32)
    rng = np.random.default_rng(spread)
    return np.concatenate([near, specials, rng.uniform(-8, 8, spread).astype(np.float32),
                           rng.standard_normal(spread // 10).astype(np.float32) * 1e4])


def grad_values(x: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(x.size)
    grad = rng.uniform(-10, 10, x.size).astype(np.float32)
    grad[rng.integers(0, x.size, 256)] = rng.choice(
        np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 6e4, -6e4], np.float32), 256)
    return grad.astype(x.dtype)


@cache
def compiled(source: str, level: str, semantics: str) -> runner.Kernel:
    return runner.compile_text(source, level=level, semantics=semantics, core_num=7,
                               ub_size=196608)


def check(op: str, semantics: str, dtype: str, attributes: dict[str, float], level: str,
          x: np.ndarray) -> None:
    inputs = [grad_values(x), x] if len(OPS[op].op.INPUTS) == 2 else [x]
    got = compiled(text(op, dtype, attributes), level, semantics)(*inputs)
    defaults = {a.name: a.default for a in OPS[op].op.ATTRIBUTES}
    want = OP_REFERENCES[(op, semantics)](*inputs, **(defaults | attributes))
    known = ~np.isnan(x.astype(np.float32))
    result = compare_bitwise(got[known], want[known])
    assert result.equal, f"{op} ({semantics}) {dtype} {attributes} at {level}:\n" \
                         f"{result.summary()}"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize(("op", "semantics", "attributes"), cases(),
                         ids=[f"{o}-{s}-{'off' if a else 'default'}" for o, s, a in cases()])
def test_every_level_matches_the_reference(op: str, semantics: str, attributes: dict[str, float],
                                           dtype: str, level: str) -> None:
    check(op, semantics, dtype, attributes, level, x_values(dtype, attributes))


@st.composite
def op_and_attributes(draw: st.DrawFn) -> tuple[str, str, dict[str, float]]:
    """An op with attributes, random ones within its rules (min_val <= max_val, lambd >= 0,
    finite in the dtype where the op converts them to it), and a dtype."""
    op = draw(st.sampled_from([o for o, d in OPS.items() if d.op.ATTRIBUTES]))
    dtype = draw(st.sampled_from(list(DTYPES)))
    values = st.one_of(st.floats(-8, 8, width=32), st.sampled_from([0.0, -0.0, 1.0, 3.0, -3.0]),
                       st.floats(-6e4, 6e4, width=32))
    chosen = {}
    for a in OPS[op].op.ATTRIBUTES:
        v = draw(values)
        if a.nonzero and abs(v) < 2.0 ** -126:  # HardSigmoid divides by its alpha
            v = 1.0
        chosen[a.name] = abs(v) if a.non_negative else v
    if "min_val" in chosen and chosen["min_val"] > chosen["max_val"]:
        chosen["min_val"], chosen["max_val"] = chosen["max_val"], chosen["min_val"]
    return op, dtype, chosen


@settings(max_examples=25, deadline=None)
@given(op_and_attributes(), st.sampled_from(["linalg", "ascend"]))
def test_random_attributes_match_the_reference(case: tuple[str, str, dict[str, float]],
                                                level: str) -> None:
    op, dtype, attributes = case
    x = x_values(dtype, attributes, spread=2000)
    if dtype != "f32":  # a sample of the patterns, with the attributes' neighbours
        near = np.array(list(attributes.values()), dtype=np.float32).astype(DTYPES[dtype])
        steps = near.view(np.uint16).astype(np.int64)[:, None] + np.arange(-8, 9)
        pick = np.random.default_rng(len(x)).choice(x.size, 4000, replace=False)
        x = np.concatenate([x[pick], steps.reshape(-1).astype(np.uint16).view(DTYPES[dtype]),
                            (steps.reshape(-1) ^ 0x8000).astype(np.uint16).view(DTYPES[dtype])])
    check(op, OPS[op].default_semantics, dtype, attributes, level, x)
