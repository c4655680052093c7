"""Compare every torch-semantics model of hswc.reference with PyTorch itself.

A developer check, not a test: torch is not a dependency of hswc. Run it with an interpreter that
has torch, numpy and ml_dtypes, from anywhere (it imports hswc.reference from this checkout):

    python -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch==2.14.1 numpy ml_dtypes
    /tmp/torchvenv/bin/python tools/check_family_against_torch.py [--seed N] [--examples K]

Inputs, for every op with a ("<op>", "torch") entry in OP_REFERENCES:
- f16 and bf16: all 65,536 bit patterns of x; for a gradient, once with random grad bit patterns,
  once with random normal grads, and once with each special grad (+-0, +-inf, NaN, +-largest
  finite, +-smallest subnormal).
- f32: for every threshold of the op (+-3, 0, min_val, max_val, threshold, +-lambd) its 4,096
  neighbours on each side, one ulp apart, and values within 2^-8 of it; random values and bit
  patterns; the specials. Random normal grads with the specials mixed in.
- attributes: fixed sets (torch's defaults, 0.7, 0, values not representable in f16/bf16,
  values beyond f16's range) and random Python floats.
Each input set goes through torch twice: contiguous, a multiple of 256 elements (its vectorised
loop only), and with a stride of 2 (its scalar loop). The table counts the results compared per
loop where x is not NaN (NaN in x is outside torch parity, FAMILY.md) and the mismatches in
each loop; "+-0" counts those of the mismatches that are +0 against -0, "non-repr" those whose
attributes are not exactly representable in the dtype; "NaN x" shows how often torch's answer
for NaN x differs from the model's (vectorised / scalar loop), for information. Attribute sets
that torch refuses must be refused by the model too, and the other way round. Exit status 1 on
any mismatch where x is not NaN (but torch's own loop disagreement a Case declares), or any
attribute set only one side refused.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hswc.reference import OP_REFERENCES, compare_bitwise

try:
    import torch
except ImportError:  # pragma: no cover - the whole point of the script
    sys.exit("check_family_against_torch: torch is not installed in this interpreter; see the "
             "module docstring for a venv that has it")

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
UINT = {2: np.uint16, 4: np.uint32}
aten = torch.ops.aten

Attrs = dict[str, float]


@dataclass(frozen=True)
class Case:
    """One op: how torch computes it, and which x values and attributes are worth trying."""

    torch_fn: Callable[..., torch.Tensor]
    is_grad: bool
    fixed: list[Attrs] = field(default_factory=lambda: [{}])
    random: Callable[[np.random.Generator], Attrs] | None = None
    thresholds: Callable[[Attrs], list[float]] = lambda a: [-3.0, 3.0, 0.0]
    scalar_loop_signed_zero: bool = False
    """torch's scalar loop returns -0.0 where its vectorised loop and the model return +0
    (softshrink inside its band): such +-0 mismatches in the scalar loop are expected."""


def _tanh_bounds(r: np.random.Generator) -> Attrs:
    lo = float(r.uniform(-8, 8))
    return {"min_val": lo, "max_val": lo + float(r.uniform(0, 8))}


def _lambd(r: np.random.Generator) -> Attrs:
    return {"lambd": float(r.uniform(0, 4))}


def _shrink_thresholds(a: Attrs) -> list[float]:
    return [-a["lambd"], a["lambd"], 0.0]


TANH_FIXED: list[Attrs] = [
    {"min_val": -1.0, "max_val": 1.0}, {"min_val": 0.0, "max_val": 6.0},
    {"min_val": -0.7, "max_val": 0.7}, {"min_val": 0.3, "max_val": 0.3},
    {"min_val": -2.5, "max_val": 1e-3}, {"min_val": -70000.0, "max_val": 70000.0},
]
SHRINK_FIXED: list[Attrs] = [{"lambd": 0.5}, {"lambd": 0.7}, {"lambd": 0.0}, {"lambd": 3.3},
                             {"lambd": 1e-3}, {"lambd": 70000.0}]
SLOPE_FIXED: list[Attrs] = [{"negative_slope": s} for s in (0.01, 0.2, 0.0, -0.7, 1.5)]
THRESHOLD_FIXED: list[Attrs] = [
    {"threshold": 0.0, "value": 0.0}, {"threshold": 0.7, "value": -0.3},
    {"threshold": -1.1, "value": 5.5}, {"threshold": 1.0, "value": 70000.0},
]

CASES: dict[str, Case] = {
    "hard_swish": Case(lambda x: aten.hardswish(x), False),
    "hard_swish_grad": Case(lambda g, x: aten.hardswish_backward(g, x), True),
    "hard_sigmoid": Case(lambda x: aten.hardsigmoid(x), False),
    "hard_sigmoid_grad": Case(lambda g, x: aten.hardsigmoid_backward(g, x), True),
    "hardtanh": Case(lambda x, min_val, max_val: aten.hardtanh(x, min_val, max_val), False,
                     TANH_FIXED, _tanh_bounds, lambda a: [a["min_val"], a["max_val"], 0.0]),
    "hardtanh_grad": Case(
        lambda g, x, min_val, max_val: aten.hardtanh_backward(g, x, min_val, max_val), True,
        TANH_FIXED, _tanh_bounds, lambda a: [a["min_val"], a["max_val"], 0.0]),
    "leaky_relu": Case(lambda x, negative_slope: aten.leaky_relu(x, negative_slope), False,
                       SLOPE_FIXED, lambda r: {"negative_slope": float(r.uniform(-2, 2))},
                       lambda a: [0.0]),
    "leaky_relu_grad": Case(
        lambda g, x, negative_slope: aten.leaky_relu_backward(g, x, negative_slope, False), True,
        SLOPE_FIXED, lambda r: {"negative_slope": float(r.uniform(-2, 2))}, lambda a: [0.0]),
    "threshold": Case(
        lambda x, threshold, value: aten.threshold(x, threshold, value), False, THRESHOLD_FIXED,
        lambda r: {"threshold": float(r.uniform(-6, 6)), "value": float(r.normal(0, 4))},
        lambda a: [a["threshold"], 0.0]),
    "threshold_grad": Case(
        lambda g, x, threshold: aten.threshold_backward(g, x, threshold), True,
        [{"threshold": t} for t in (0.0, 0.7, -1.1, 3.3)],
        lambda r: {"threshold": float(r.uniform(-6, 6))}, lambda a: [a["threshold"], 0.0]),
    "hard_shrink": Case(lambda x, lambd: aten.hardshrink(x, lambd), False, SHRINK_FIXED, _lambd,
                        _shrink_thresholds),
    "hard_shrink_grad": Case(lambda g, x, lambd: aten.hardshrink_backward(g, x, lambd), True,
                             SHRINK_FIXED, _lambd, _shrink_thresholds),
    "softshrink": Case(lambda x, lambd: aten.softshrink(x, lambd), False, SHRINK_FIXED, _lambd,
                       _shrink_thresholds, scalar_loop_signed_zero=True),
    "softshrink_grad": Case(lambda g, x, lambd: aten.softshrink_backward(g, x, lambd), True,
                            SHRINK_FIXED, _lambd, _shrink_thresholds),
}

# region inputs


def _bits(dtype: np.dtype, values: list[int]) -> np.ndarray:
    return np.array(values, UINT[dtype.itemsize]).view(dtype)


def specials(dtype: np.dtype) -> np.ndarray:
    """+-0, +-inf, NaN, +-largest finite, +-smallest subnormal."""
    table = {
        F16: [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7BFF, 0xFBFF, 0x0001, 0x8001],
        BF16: [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7F7F, 0xFF7F, 0x0001, 0x8001],
        F32: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F7FFFFF, 0xFF7FFFFF, 1,
              0x80000001],
    }
    return _bits(dtype, table[dtype])


def _from_ordered(o: np.ndarray) -> np.ndarray:
    """Ordered integers (value order, 0 for both zeros) -> f32 bit patterns."""
    return np.where(o >= 0, o, (-o) | (1 << 31)).astype(np.uint32).view(np.float32)


def _neighbours(t: float, k: int = 4096) -> np.ndarray:
    """The k f32 values on each side of fl32(t), one ulp apart, and fl32(t) itself."""
    b = int(np.float32(t).view(np.uint32))
    o = -(b & 0x7FFFFFFF) if b >> 31 else b
    return _from_ordered(np.arange(o - k, o + k + 1, dtype=np.int64))


def f32_xs(r: np.random.Generator, thresholds: list[float]) -> np.ndarray:
    parts = [specials(F32)]
    for t in sorted(set(thresholds)):
        parts.append(_neighbours(t))
        scale = max(abs(t), 2.0**-20)
        parts.append((t + scale * r.uniform(-2.0**-8, 2.0**-8, 16384)).astype(np.float32))
    parts.append(r.uniform(-8, 8, 65536).astype(np.float32))
    parts.append(r.integers(0, 2**32, 32768, dtype=np.uint64).astype(np.uint32).view(np.float32))
    xs = np.concatenate(parts)
    # A multiple of 256 elements: torch's contiguous run then has no scalar tail.
    return np.concatenate([xs, xs[: -xs.size % 256]])


def grads_for(r: np.random.Generator, dtype: np.dtype, n: int) -> Iterator[np.ndarray]:
    """The grads one x sweep is paired with (see the module docstring)."""
    if dtype == F32:
        g = r.normal(0, 4, n).astype(np.float32)
        spots = r.integers(0, n, n // 10)
        g[spots] = specials(F32)[r.integers(0, 9, spots.size)]
        yield g
        return
    uint = UINT[dtype.itemsize]
    yield r.integers(0, 2**16, n, dtype=np.uint32).astype(uint).view(dtype)
    yield r.normal(0, 4, n).astype(np.float32).astype(dtype)
    for s in specials(dtype):
        yield np.full(n, s, dtype)


def attribute_sets(case: Case, r: np.random.Generator, n_random: int) -> list[Attrs]:
    """The fixed sets and n_random drawn ones; an op without attributes gets 1 + n_random
    sweeps instead, each with new random grads (and f32 x values)."""
    if case.random is None:
        return [{} for _ in range(1 + n_random)]
    return case.fixed + [case.random(r) for _ in range(n_random)]


def representable(attrs: Attrs, dtype: np.dtype) -> bool:
    with np.errstate(over="ignore"):
        return all(float(np.float32(v).astype(dtype)) == float(np.float32(v))
                   for v in attrs.values())


# endregion
# region running torch


def to_torch(a: np.ndarray, strided: bool) -> torch.Tensor:
    """`a` as a torch tensor; strided: a view with stride 2, which takes torch's scalar loop."""
    if strided:
        buf = np.zeros(2 * a.size, a.dtype)
        buf[::2] = a
        return to_torch(buf, False)[::2]
    if a.dtype == BF16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def from_torch(t: torch.Tensor, dtype: np.dtype) -> np.ndarray:
    t = t.contiguous()
    if dtype == BF16:
        return t.view(torch.int16).numpy().view(BF16)
    return t.numpy()


@dataclass
class Tally:
    compared: int = 0
    mismatches: list[int] = field(default_factory=lambda: [0, 0])
    """Where x is not NaN, in torch's vectorised loop and in its scalar loop."""
    zero_sign: int = 0
    """Mismatches that are +0 against -0."""
    expected: int = 0
    """Mismatches the op's Case declares (scalar_loop_signed_zero)."""
    non_repr: int = 0
    nan_x: list[int] = field(default_factory=lambda: [0, 0])
    refusals: set[str] = field(default_factory=set)
    """Attribute sets that one side refused and the other computed: a disagreement."""
    both_refused: set[str] = field(default_factory=set)
    examples: list[str] = field(default_factory=list)


def check_one(name: str, case: Case, dtype: np.dtype, g: np.ndarray | None, x: np.ndarray,
              attrs: Attrs, tally: Tally, max_examples: int) -> None:
    model = OP_REFERENCES[(name, "torch")]
    operands = (g, x) if g is not None else (x,)
    try:
        expected = model(*operands, **attrs)
    except ValueError as e:
        refused_by_model: str | None = str(e)
    else:
        refused_by_model = None
    nan_x = np.isnan(x.astype(np.float32))
    for path, strided in enumerate((False, True)):
        try:
            got = case.torch_fn(*(to_torch(a, strided) for a in operands), **attrs)
        except RuntimeError as e:
            refused_by_torch: str | None = str(e).splitlines()[0]
        else:
            refused_by_torch = None
        if refused_by_model or refused_by_torch:
            if not (refused_by_model and refused_by_torch):
                tally.refusals.add(f"{attrs}: only {'the model' if refused_by_model else 'torch'}"
                                   f" refused: {refused_by_model or refused_by_torch}")
            else:
                tally.both_refused.add(f"{attrs}: torch: {refused_by_torch}; model: "
                                       f"{refused_by_model}")
            return
        actual = from_torch(got, dtype)
        cmp = compare_bitwise(actual[~nan_x], expected[~nan_x])
        if path == 0:
            tally.compared += int(np.count_nonzero(~nan_x))
        tally.mismatches[path] += cmp.mismatches
        a32, e32 = actual.astype(np.float32), expected.astype(np.float32)
        zeros = _differs(actual, expected) & ~nan_x & (a32 == 0) & (e32 == 0)
        tally.zero_sign += int(np.count_nonzero(zeros))
        if strided and case.scalar_loop_signed_zero:
            tally.expected += int(np.count_nonzero(zeros & np.signbit(a32)))
        if not representable(attrs, dtype):
            tally.non_repr += cmp.mismatches
        tally.nan_x[path] += compare_bitwise(actual[nan_x], expected[nan_x]).mismatches
        if cmp.mismatches and len(tally.examples) < max_examples:
            differ = np.flatnonzero(~nan_x)[
                np.flatnonzero(_differs(actual[~nan_x], expected[~nan_x]))[0]]
            gv = "" if g is None else f"grad={g[differ]!r} "
            tally.examples.append(
                f"{name} {dtype} {'scalar' if strided else 'vector'} {attrs}: {gv}"
                f"x={x[differ]!r}: torch {actual[differ]!r}, model {expected[differ]!r}")


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    uint = UINT[a.dtype.itemsize]
    return (a.view(uint) != b.view(uint)) & ~(np.isnan(a) & np.isnan(b))


def check_op(name: str, dtype: np.dtype, r: np.random.Generator, n_random: int,
             max_examples: int) -> Tally:
    case = CASES[name]
    tally = Tally()
    for attrs in attribute_sets(case, r, n_random):
        if dtype == F32:
            xs = f32_xs(r, [*case.thresholds(attrs), -3.0, 3.0])
        else:
            xs = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(dtype)
        grads = grads_for(r, dtype, xs.size) if case.is_grad else iter([None])
        for g in grads:
            check_one(name, case, dtype, g, xs, attrs, tally, max_examples)
    return tally


# endregion


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--random-attributes", type=int, default=6, metavar="N",
                   help="random attribute sets per op, besides the fixed ones (default 6)")
    p.add_argument("--examples", type=int, default=3, metavar="K",
                   help="mismatching elements to print per op and dtype (default 3)")
    args = p.parse_args(argv)
    r = np.random.default_rng(args.seed)
    names = sorted(op for op, semantics in OP_REFERENCES if semantics == "torch")
    if set(names) != set(CASES):
        sys.exit(f"check_family_against_torch: no torch call for {set(names) ^ set(CASES)}")
    print(f"torch {torch.__version__}, numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}")
    header = f"{'op':18} {'dtype':9} {'compared':>9} {'mismatches vec/scalar':>22} " \
             f"{'+-0':>7} {'non-repr':>8} {'NaN x vec/scalar':>17}"
    print(header)
    print("-" * len(header))
    failed = False
    notes: list[str] = []
    for name in names:
        for dtype in (F16, BF16, F32):
            with np.errstate(invalid="ignore"):  # np.isnan of bf16 signalling NaNs
                t = check_op(name, dtype, r, args.random_attributes, args.examples)
            failed |= sum(t.mismatches) > t.expected or bool(t.refusals)
            if t.expected:
                notes.append(f"{name} {dtype}: {t.expected} expected mismatches: -0.0 from torch's"
                             " scalar loop where its vectorised loop gives +0, as the model")
            bad = f"{t.mismatches[0]}/{t.mismatches[1]}"
            nan = f"{t.nan_x[0]}/{t.nan_x[1]}"
            print(f"{name:18} {dtype!s:9} {t.compared:>9} {bad:>22} {t.zero_sign:>7} "
                  f"{t.non_repr:>8} {nan:>17}")
            notes += t.examples
            notes += [f"{name} {dtype}: {why}" for why in sorted(t.refusals)]
            notes += [f"{name} {dtype}: both refused {why}" for why in sorted(t.both_refused)]
    for note in notes:
        print(note)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
