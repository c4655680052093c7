"""hsg-fuse-elementwise never changes bits: random chains of family ops (and of a user's
`mulf` / `addf` with another tensor), fused, equal the unfused chain at every level, and both
equal the reference models composed op by op (hswc.reference, written from FAMILY.md)."""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hswc.dialects.hsg import NamedOp
from hswc.ops import OPS as ALL_OPS
from hswc.reference import OP_REFERENCES
from hswc.runner import LEVELS, compile_text

OPS = {name: d for name, d in ALL_OPS.items() if d.exact}
"""The bit-exact ops, whose chains are compared bit for bit."""

DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
USER_OPS = {"mulf": np.multiply, "addf": np.add}
"""A user's binary generic after a family op: numpy computes it in the dtype, rounded once
(f16 and bf16 through f32, which has enough bits for that to be exact)."""
ATTRIBUTE_VALUES = (0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 6.0, -0.5, -1.0, -3.0, 0.01, 1.5)
SPECIALS = (0.0, -0.0, np.inf, -np.inf, 3.0, -3.0, 6.0, -6.0, 1e-7, -1e-7, 0.5, -0.5)
SIZE = 96


@dataclass(frozen=True)
class Step:
    """One op of a chain: a named op or a user's binary op; `operands` index the function's
    inputs (>= 0) or earlier steps' results (-1 - step)."""

    op: str
    operands: tuple[int, ...]
    attributes: tuple[tuple[str, float], ...] = ()


def _operand(index: int) -> str:
    return f"%in{index}" if index >= 0 else f"%s{-1 - index}"


def _f32_literal(value: float) -> str:
    return f"0x{np.float32(value).view(np.uint32):08X} : f32"


def _user_body(op: str, dtype: str) -> list[str]:
    """The user's op in the dtype: bf16 widened to f32 and rounded back (no bf16 vector math on
    Atlas A2/A3; the same bits, the f32 result having enough bits to round once)."""
    if dtype != "bf16":
        return [f"    %r = arith.{op} %a, %b : {dtype}", f"    linalg.yield %r : {dtype}"]
    return ["    %a32 = arith.extf %a : bf16 to f32", "    %b32 = arith.extf %b : bf16 to f32",
            f"    %r32 = arith.{op} %a32, %b32 : f32", "    %r = arith.truncf %r32 : f32 to bf16",
            "    linalg.yield %r : bf16"]


def chain_text(steps: list[Step], inputs: int, dtype: str) -> str:
    """The chain as one MLIR function on tensor<?x<dtype>>."""
    t = f"tensor<?x{dtype}>"
    args = ", ".join(f"%in{i}: {t}" for i in range(inputs))
    lines = [f"func.func @chain({args}) -> {t} {{"]
    for k, step in enumerate(steps):
        operands = ", ".join(_operand(i) for i in step.operands)
        if step.op in USER_OPS:
            lines += [
                f"  %c{k} = arith.constant 0 : index",
                f"  %d{k} = tensor.dim %in0, %c{k} : {t}",
                f"  %e{k} = tensor.empty(%d{k}) : {t}",
                f"  %s{k} = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, "
                "affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = "
                f"[\"parallel\"]}} ins({operands} : {t}, {t}) outs(%e{k} : {t}) {{",
                f"  ^bb0(%a: {dtype}, %b: {dtype}, %o: {dtype}):",
                *_user_body(step.op, dtype),
                f"  }} -> {t}",
            ]
            continue
        attrs = ", ".join(f"{n} = {_f32_literal(v)}" for n, v in step.attributes)
        lines.append(f"  %s{k} = hsg.{step.op} {operands}" + (f" {{{attrs}}}" if attrs else "")
                     + f" : {t}")
    lines += [f"  func.return %s{len(steps) - 1} : {t}", "}"]
    return "\n".join(lines)


def reference(steps: list[Step], inputs: list[np.ndarray]) -> tuple[np.ndarray, bool]:
    """The chain composed from the reference models, and whether every named op's x was
    free of NaN (FAMILY.md's results hold for non-NaN x)."""
    values: list[np.ndarray] = []
    clean = True
    for step in steps:
        operands = [inputs[i] if i >= 0 else values[-1 - i] for i in step.operands]
        if step.op in USER_OPS:
            with np.errstate(all="ignore"):
                values.append(USER_OPS[step.op](operands[0], operands[1]))
            continue
        definition = OPS[step.op]
        clean = clean and not np.isnan(operands[-1].astype(np.float32)).any()
        model = OP_REFERENCES[(step.op, definition.default_semantics)]
        attributes = {n: np.float32(v) for n, v in step.attributes}
        values.append(model(*operands, **attributes))
    return values[-1], clean


@st.composite
def attributes(draw: st.DrawFn, op: type[NamedOp]) -> tuple[tuple[str, float], ...]:
    chosen = {a.name: draw(st.sampled_from(ATTRIBUTE_VALUES)) for a in op.ATTRIBUTES}
    for a in op.ATTRIBUTES:
        if a.non_negative:
            chosen[a.name] = abs(chosen[a.name])
        if a.nonzero and chosen[a.name] == 0:  # a divisor (HardSigmoid's alpha, CELU's)
            chosen[a.name] = draw(st.sampled_from([v for v in ATTRIBUTE_VALUES if v]))
    if "min_val" in chosen and chosen["min_val"] > chosen["max_val"]:
        chosen["min_val"], chosen["max_val"] = chosen["max_val"], chosen["min_val"]
    return tuple(chosen.items())


@st.composite
def chains(draw: st.DrawFn) -> tuple[list[Step], int, str]:
    """2 to 4 steps, each taking the previous result (as x, or as grad for a gradient) and
    inputs old or new; at most four function inputs."""
    dtype = draw(st.sampled_from(sorted(DTYPES)))
    inputs = 1
    steps: list[Step] = []
    for k in range(draw(st.integers(2, 4))):
        name = draw(st.sampled_from([*OPS, *USER_OPS]))
        arity = 2 if name in USER_OPS else len(OPS[name].op.INPUTS)
        operands = [-k] if k else [0]  # -k: the previous step's result (-1 - (k - 1))
        while len(operands) < arity:
            fresh = inputs < 4 and draw(st.booleans())
            if fresh:
                inputs += 1
            operands.insert(draw(st.integers(0, len(operands))),
                            inputs - 1 if fresh else draw(st.integers(0, inputs - 1)))
        attrs = () if name in USER_OPS else draw(attributes(OPS[name].op))
        steps.append(Step(name, tuple(operands), attrs))
    return steps, inputs, dtype


def _inputs(rng: np.random.Generator, count: int, dtype: np.dtype) -> list[np.ndarray]:
    arrays = []
    for _ in range(count):
        a = (rng.standard_normal(SIZE) * 4).astype(np.float32)
        a[rng.integers(0, SIZE, 16)] = rng.choice(SPECIALS, 16)
        arrays.append(a.astype(dtype))
    return arrays


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint32 if a.dtype.itemsize == 4 else np.uint16)


def _same_or_both_nan(a: np.ndarray, b: np.ndarray) -> bool:
    nan = np.isnan(a.astype(np.float32))
    return bool(np.array_equal(nan, np.isnan(b.astype(np.float32)))
                and np.array_equal(_bits(a)[~nan], _bits(b)[~nan]))


CHAINS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("examples", [pytest.param(10, id="sample"),
                                      pytest.param(30, id="more", marks=pytest.mark.sweep)])
def test_random_chains_fuse_to_the_same_bits(examples: int) -> None:
    """10 random chains by default, 30 in the sweep."""

    @settings(CHAINS, max_examples=examples)
    @given(chains(), st.integers(0, 2**32 - 1))
    def check(chain: tuple[list[Step], int, str], seed: int) -> None:
        _fuse_to_the_same_bits(chain, seed)

    check()


def _fuse_to_the_same_bits(chain: tuple[list[Step], int, str], seed: int) -> None:
    """The chain unfused (and, without NaN-producing steps, the reference), then fused at every
    level: the same bits."""
    steps, count, dtype = chain
    text = chain_text(steps, count, dtype)
    inputs = _inputs(np.random.default_rng(seed), count, DTYPES[dtype])
    unfused = compile_text(text, level="linalg", fuse=False)(*inputs)
    want, clean = reference(steps, inputs)
    if clean:
        assert _same_or_both_nan(unfused, want), text
    for level in LEVELS[1:]:
        fused = compile_text(text, level=level)
        if level == "linalg":
            assert sum(op.name == "linalg.generic" for op in fused.module.walk()) <= len(steps)
        got = fused(*inputs)
        assert np.array_equal(_bits(got), _bits(unfused)), (level, text)


def test_a_chain_of_family_ops_becomes_one_kernel() -> None:
    steps = [Step("hard_swish_grad", (0, 1)), Step("mulf", (-1, 2)),
             Step("leaky_relu", (-2,), (("negative_slope", 0.5),)),
             Step("hardtanh", (-3,), (("min_val", -1.0), ("max_val", 1.0)))]
    text = chain_text(steps, 3, "f16")
    kernel = compile_text(text, level="tiled")
    launches = [op for op in kernel.module.walk() if op.name == "hsg.launch"]
    assert len(launches) == 1
    assert len(launches[0].operands) >= 3
    inputs = _inputs(np.random.default_rng(7), 3, DTYPES["f16"])
    want, _ = reference(steps, inputs)
    assert _same_or_both_nan(kernel(*inputs), want)


@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_chain_text_round_trips_through_the_reference(dtype: str) -> None:
    """The chain builder and composition agree with a hand-computed chain: hard_sigmoid(2) =
    5/6, times 3 = 2.5 (rounded in the dtype)."""
    steps = [Step("hard_sigmoid", (0,)), Step("mulf", (-1, 1))]
    x = np.array([2.0, -4.0], dtype=DTYPES[dtype])
    s = np.array([3.0, 3.0], dtype=DTYPES[dtype])
    want, clean = reference(steps, [x, s])
    expected = (np.array([5 / 6, 0.0]).astype(DTYPES[dtype]) * s).astype(DTYPES[dtype])
    assert clean and np.array_equal(_bits(want), _bits(expected))
    got = compile_text(chain_text(steps, 2, dtype), level="linalg")(x, s)
    assert np.array_equal(_bits(got), _bits(expected))


def test_a_long_chain_fuses_into_one_generic_without_recursion() -> None:
    """Issue 20: fusion used to recurse per fused op ("nested too deeply" at 90 ops) and to
    walk the module again after each fusion. 300 ops (3x the old limit) fuse into one generic
    with a recursion limit far below the chain's length."""
    import sys

    from xdsl.context import Context
    from xdsl.parser import Parser

    from hswc.passes.hsg_decompose import HsgDecomposePass
    from hswc.passes.hsg_fuse_elementwise import HsgFuseElementwisePass
    from hswc.pipeline import DIALECTS

    ops = ("hsg.hardtanh {}", "hsg.hard_swish_grad %g, {}", "hsg.leaky_relu {}")
    lines = ["func.func @chain(%g: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {"]
    previous = "%x"
    for k in range(300):
        lines.append(f"  %s{k} = " + ops[k % 3].format(previous) + " : tensor<?xf16>")
        previous = f"%s{k}"
    lines += [f"  func.return {previous} : tensor<?xf16>", "}"]
    ctx = Context()
    for name, load in DIALECTS.items():
        ctx.register_dialect(name, load)
    module = Parser(ctx, "\n".join(lines)).parse_module()
    HsgDecomposePass().apply(ctx, module)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        HsgFuseElementwisePass().apply(ctx, module)
    finally:
        sys.setrecursionlimit(limit)
    generics = [op for op in module.walk() if op.name == "linalg.generic"]
    assert len(generics) == 1
    assert len(generics[0].inputs) == 2  # %g and %x, each read once
    module.verify()


def test_a_long_fused_chain_fills_its_constants_near_their_uses() -> None:
    """Issue 20: each op of a fused chain brings its own vector constants; kept in buffers
    filled once in Init (RESIDENT_CONSTANTS), they grew the bytes per element with the chain
    until no schedule fit the UB. A 40-op chain with 40 different clamp bounds fills them by
    Duplicate in the chunk loop instead: the kernel's buffers are those of a short chain, and
    its bits are the unfused chain's and the reference models'."""
    from hswc.vectorizer.instructions import RESIDENT_CONSTANTS

    steps = [Step("hard_swish_grad", (0, 1))]
    for k in range(1, 40):
        bound = 0.5 + k / 16
        steps.append(Step("hardtanh", (-k,), (("min_val", -bound), ("max_val", bound)))
                     if k % 2 else Step("hard_swish_grad", (0, -k)))
    text = chain_text(steps, 2, "f16")
    kernel = compile_text(text, core_num=3, ub_size=16384)
    module = str(kernel.module)
    assert module.count("hsg.launch") == 1
    init, loop = module.split("scf.for", 1)
    assert init.count("ascend.duplicate") <= RESIDENT_CONSTANTS
    assert loop.count("ascend.duplicate") >= 20  # the bounds, filled where they are used
    rng = np.random.default_rng(11)
    inputs = [(rng.standard_normal(4000) * 4).astype(np.float16) for _ in range(2)]
    got = kernel(*inputs)
    assert np.array_equal(_bits(got), _bits(compile_text(text, level="linalg",
                                                         fuse=False)(*inputs)))
    want, _ = reference(steps, inputs)
    assert _same_or_both_nan(got, want)
