"""Random elementwise bodies for the property tests: what they compute, their MLIR, their inputs.

A `Body` is a DAG of scalar arith ops in body order (the first entries are the inputs), over
one element type (f16, bf16 or f32) and one tensor shape (static or dynamic dims, rank 0 and
empty shapes included). `draw_body(chooser)` builds a random one from the supported ops
(extf, truncf, addf, subf, mulf, divf, minimumf, maximumf, negf, cmpf with the predicates
oeq ogt oge olt ole one ord une, select, andi / ori / xori on i1, constants), as the A2/A3
vector unit allows them: a bf16 body widens to f32 before computing and rounds back at the
end (it may round intermediate values to bf16 and widen them again); an f16 body computes in
f16, in f32, or mixes both; an f32 body may round a value to f16 and compute on it there.
Constants are drawn near interesting values (0, -0, +-1, +-3, 6, 0.5, 1/3 in f32, tiny, huge,
subnormal, +-inf, NaN), as bit patterns of their type, printed in hex or as an exact decimal.

`to_mlir(body)` prints a func.func holding one linalg.generic; `input_arrays(body, seed)`
draws inputs from all bit patterns, the special values (NaN, +-inf, +-0, subnormals, extremes)
and the values around every constant of the body. Choices come from a `Chooser`: hypothesis'
`draw` (`bodies()` and `cases()`, which shrink) or a seeded `random.Random` (`RandomChooser`,
for tests that need a fixed handful of bodies before any of them runs).

Nothing here imports hswc: the bodies and their expectations (elementwise_evaluator.py) are
the independent side of the property tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import ml_dtypes
import numpy as np
from hypothesis import strategies as st

T = TypeVar("T")

FLOAT_TYPES = ("f16", "bf16", "f32")
NUMPY_TYPES: dict[str, np.dtype] = {"f16": np.dtype(np.float16),
                                    "bf16": np.dtype(ml_dtypes.bfloat16),
                                    "f32": np.dtype(np.float32), "i1": np.dtype(np.bool_)}
UINT_TYPES: dict[str, type] = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32}
WIDTH = {"f16": 16, "bf16": 16, "f32": 32}
EXPONENT_MASK = {"f16": 0x7C00, "bf16": 0x7F80, "f32": 0x7F800000}
"""The exponent field: all ones for +-inf and NaN."""
BINARY = ("addf", "subf", "mulf", "divf", "minimumf", "maximumf")
LOGIC = ("andi", "ori", "xori")
PREDICATES = ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "une")
KINDS = frozenset({*BINARY, "negf", "select", "roundtrip", *(f"cmpf.{p}" for p in PREDICATES),
                   *LOGIC, "yield_input", "yield_const"})
"""What a body may be made of (`roundtrip`: truncf to f16 or bf16 and extf back; `yield_*`: a
body whose result is an input or a constant); draw_body takes a subset."""
COMPUTE_TYPES = {"bf16": ("f32",), "f16": ("f16", "f32"), "f32": ("f32", "f16")}
"""What a body of each element type computes in (the vector unit has no bf16 arithmetic)."""

ONE_THIRD_F32 = float(np.array(0x3EAAAAAB, np.uint32).view(np.float32))
"""0.333333343f, the f32 CANN's HardSwishGrad multiplies by."""
INTERESTING = (0.0, -0.0, 1.0, -1.0, 3.0, -3.0, 6.0, -6.0, 0.5, -0.5, ONE_THIRD_F32, 2.0,
               0.1, 1e-3, 1e4, 65504.0, float("inf"), float("-inf"))
"""Bases of the drawn constants, besides each type's extremes."""


class Chooser(Protocol):
    """Where a random body's choices come from."""

    def integer(self, lo: int, hi: int) -> int: ...

    def choice(self, options: Sequence[T]) -> T: ...


@dataclass
class RandomChooser:
    """Choices from a seeded random.Random: the same seed, the same body."""

    seed: int
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]


@dataclass
class DrawChooser:
    """Choices from hypothesis' `draw`, so that failing bodies shrink."""

    draw: Callable[[st.SearchStrategy[object]], object]

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))  # type: ignore[return-value]

    def choice(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))  # type: ignore[return-value]


def chance(c: Chooser, percent: int) -> bool:
    """True with about `percent` % probability (shrinks towards True)."""
    return c.integer(0, 99) < percent


# region the body


@dataclass(frozen=True)
class Op:
    """One value of a body: an input element, a constant, or a scalar op's result."""

    kind: str
    """input, const, or the arith op's name without `arith.` (extf, addf, cmpf, ...)."""
    type: str
    """f16, bf16, f32 or i1."""
    operands: tuple[int, ...] = ()
    """Positions of the operands in Body.ops."""
    predicate: str | None = None
    bits: int | None = None
    """A constant's bit pattern in its type (i1: 0 or 1)."""
    index: int | None = None
    """An input's position."""
    decimal: bool = False
    """Print a finite constant as its exact decimal instead of in hex."""

    def value(self) -> float | bool:
        """A constant's value."""
        assert self.kind == "const" and self.bits is not None
        if self.type == "i1":
            return bool(self.bits)
        return float(np.array(self.bits, UINT_TYPES[self.type]).view(NUMPY_TYPES[self.type]))


@dataclass(frozen=True)
class Body:
    dtype: str
    """The element type of every input and of the result."""
    shape: tuple[int, ...]
    dynamic: tuple[bool, ...]
    """Per dim: written `?` in the tensor type."""
    ops: tuple[Op, ...]
    result: int

    @property
    def inputs(self) -> int:
        return sum(1 for op in self.ops if op.kind == "input")

    def constants(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "const" and op.type != "i1"]

    def live(self) -> list[int]:
        """Positions of the ops the result depends on (inputs excluded), in order."""
        needed: set[int] = set()
        stack = [self.result]
        while stack:
            i = stack.pop()
            if i not in needed:
                needed.add(i)
                stack.extend(self.ops[i].operands)
        return [i for i in sorted(needed) if self.ops[i].kind != "input"]

    def kinds(self) -> set[str]:
        """The kinds of the live ops (cmpf with its predicate: `cmpf.ogt`)."""
        found = set()
        for i in self.live():
            op = self.ops[i]
            found.add(f"cmpf.{op.predicate}" if op.kind == "cmpf" else op.kind)
        return found


class _Builder:
    """Grows a body's op list; each `value()` returns an operand of the requested type."""

    def __init__(self, c: Chooser, dtype: str, inputs: int, compute: tuple[str, ...],
                 finite: bool, kinds: frozenset[str]):
        self.c = c
        self.kinds = kinds
        self.binary = [k for k in BINARY if k in kinds]
        self.predicates = [p for p in PREDICATES if f"cmpf.{p}" in kinds]
        self.logic_ops = [k for k in LOGIC if k in kinds]
        self.dtype = dtype
        self.compute = compute
        self.finite = finite
        self.ops: list[Op] = [Op("input", dtype, index=i) for i in range(inputs)]
        self.used: set[int] = set()
        self.folded: set[int] = set()
        """Constants, and ops on constants only (which the compiler folds)."""

    def add(self, op: Op) -> int:
        self.ops.append(op)
        self.used.update(op.operands)
        i = len(self.ops) - 1
        if op.kind == "const" or (op.operands and self.folded.issuperset(op.operands)):
            self.folded.add(i)
        return i

    def pick(self, pool: list[int]) -> int:
        """Recent values more often, so that the DAG grows deep as well as wide."""
        if chance(self.c, 50):
            return pool[-1]
        return self.c.choice(pool)

    def unused(self) -> list[int]:
        return [i for i, op in enumerate(self.ops) if op.kind != "const" and i not in self.used]

    def of_type(self, t: str) -> list[int]:
        return [i for i, op in enumerate(self.ops) if op.type == t and op.kind != "const"]

    def value(self, t: str, constant: bool = True) -> int:
        """An operand of arithmetic type t: an earlier value, a converted one, or (unless
        `constant` is false: then nothing folded) a constant."""
        if constant and chance(self.c, 20):
            return self.constant(t)

        def allowed(pool: list[int], converted: bool) -> list[int]:
            """Nothing folded where asked, nor (with `finite`) a folded value to convert: a
            truncf of a constant could overflow."""
            if constant and not (converted and self.finite):
                return pool
            return [i for i in pool if i not in self.folded]

        unused = allowed([i for i in self.unused() if self.ops[i].type in FLOAT_TYPES], True)
        if unused and chance(self.c, 45):  # keep most values live: use what nothing uses yet
            return self.convert(self.c.choice(unused), t)
        pool = allowed(self.of_type(t), False)
        if pool and chance(self.c, 75):
            return self.pick(pool)
        sources = allowed([i for i, op in enumerate(self.ops) if op.type in FLOAT_TYPES
                           and op.kind != "const"], True)
        return self.convert(self.pick(sources), t)

    def operand(self, t: str, *others: int) -> int:
        """An operand of type t for an op whose other operands are `others`: mostly not one of
        them (x op x is drawn, but not too often); with `finite`, never one that would make
        the op fold (an op on constants only could overflow)."""
        constant = not (self.finite and self.folded.issuperset(others))
        value = self.value(t, constant)
        for _ in range(3):
            if value not in others or chance(self.c, 10):
                break
            value = self.value(t, constant)
        return value

    def convert(self, i: int, t: str) -> int:
        """Value i in type t (f16 or f32): extf, truncf, or through f32."""
        s = self.ops[i].type
        if s == t:
            return i
        if t == "f32":
            return self.add(Op("extf", "f32", (i,)))
        if s == "bf16":
            i = self.add(Op("extf", "f32", (i,)))
        return self.add(Op("truncf", t, (i,)))

    def constant(self, t: str) -> int:
        existing = [i for i, op in enumerate(self.ops) if op.kind == "const" and op.type == t]
        if existing and chance(self.c, 25):
            return self.c.choice(existing)
        bits = draw_constant_bits(self.c, t, self.finite)
        finite = bool(np.isfinite(np.array(bits, UINT_TYPES[t]).view(NUMPY_TYPES[t])))
        return self.add(Op("const", t, bits=bits, decimal=finite and chance(self.c, 50)))

    def mask(self) -> int:
        """A condition: a recent one, or a new compare."""
        unused = [i for i in self.unused() if self.ops[i].type == "i1"]
        if unused and chance(self.c, 70):
            return self.c.choice(unused)
        masks = self.of_type("i1")
        if masks and chance(self.c, 50):
            return self.pick(masks)
        return self.compare()

    def same_operands(self, kinds: Sequence[str]) -> tuple[int, ...] | None:
        """Sometimes the operands of an earlier op of one of `kinds` (maybe swapped), so that
        ops differing only in kind, predicate or operand order meet (and must not merge)."""
        earlier = [op for op in self.ops if op.kind in kinds]
        if not earlier or not chance(self.c, 30):
            return None
        operands = self.c.choice(earlier).operands
        return operands[::-1] if chance(self.c, 30) else operands

    def compare(self) -> int:
        pair = self.same_operands(("cmpf",))
        if pair is None:
            t = self.c.choice(self.compute)
            a = self.value(t)
            pair = (a, self.operand(t, a) if not self.finite else self.value(t))
        return self.add(Op("cmpf", "i1", pair, predicate=self.c.choice(self.predicates)))

    def logic(self) -> int:
        a = self.mask()
        b = self.mask()
        if chance(self.c, 10):
            b = self.add(Op("const", "i1", bits=self.c.integer(0, 1)))
        elif b == a:
            b = self.mask()
        return self.add(Op(self.c.choice(self.logic_ops), "i1", (a, b)))

    def number(self) -> int:
        """A new float value, of one of the compute types: mostly binary arithmetic and
        selects, sometimes a negation or a round trip through a narrower type."""
        t = self.c.choice(self.compute)
        weights = {"binary": 55 if self.binary else 0, "negf": 10, "select": 25,
                   "roundtrip": 10}
        weights = {k: w for k, w in weights.items() if w and (k == "binary" or k in self.kinds)}
        if not self.predicates:
            weights.pop("select", None)
        roll = self.c.integer(0, sum(weights.values()) - 1)
        kind = next(k for k, w in _cumulative(weights) if roll < w)
        if kind == "binary":
            pair = self.same_operands(self.binary)
            if pair is None:
                a = self.value(t)
                pair = (a, self.operand(t, a))
            return self.add(Op(self.c.choice(self.binary), self.ops[pair[0]].type, pair))
        if kind == "negf":
            return self.add(Op("negf", t, (self.operand(t),)))
        if kind == "select":
            m = self.mask()
            a = self.value(t)
            return self.add(Op("select", t, (m, a, self.operand(t, m, a))))
        # Round to a narrower type and widen again (f32 only): Cast there and back.
        source = self.operand("f32")
        narrow = self.c.choice(("bf16", "f16"))
        rounded = self.add(Op("truncf", narrow, (source,)))
        return self.add(Op("extf", "f32", (rounded,)))

    def finish(self, result: int) -> int:
        """The result, in the body's element type; conditions nothing uses yet (up to two)
        select it first, so that the logic computed on the way is live."""
        t = self.ops[result].type
        for mask in [i for i in self.unused() if self.ops[i].type == "i1"][-2:]:
            result = self.add(Op("select", t, (mask, result, self.operand(t, mask, result))))
        s = self.ops[result].type
        if s == self.dtype:
            return result
        if s == "f16" and self.dtype == "bf16":
            result = self.add(Op("extf", "f32", (result,)))
            s = "f32"
        if self.dtype == "f32":
            return self.add(Op("extf", "f32", (result,)))
        return self.add(Op("truncf", self.dtype, (result,)))


def draw_constant_bits(c: Chooser, t: str, finite: bool = False) -> int:
    """A constant of type t near an interesting value (or, rarely, any bit pattern); with
    `finite`, never +-inf or NaN."""
    dtype, uint, width = NUMPY_TYPES[t], UINT_TYPES[t], WIDTH[t]
    exponent = EXPONENT_MASK[t]
    roll = c.integer(0, 99)
    if roll < 8:
        bits = c.integer(0, 2**width - 1)
        if not finite or bits & exponent != exponent:
            return bits
        return bits & ~exponent  # the same sign and significand, a subnormal
    if roll < 12 and not finite:
        return int(np.array(np.nan, dtype).view(uint))
    info = ml_dtypes.finfo(dtype)
    extremes = (float(info.smallest_subnormal), float(info.smallest_normal), float(info.max))
    bases = INTERESTING + extremes
    base = c.choice([v for v in bases if np.isfinite(v)] if finite else bases)
    if roll < 30:
        base = -base
    with np.errstate(over="ignore"):
        bits = int(np.array(base, np.float64).astype(dtype).view(uint))
    if chance(c, 30):  # a neighbour: 1 or 2 ulps away (towards or away from zero)
        moved = bits + c.choice((-2, -1, 1, 2))
        same_sign = 0 <= moved < 2**width and (moved >> (width - 1)) == (bits >> (width - 1))
        if same_sign and not (finite and moved & exponent == exponent):
            bits = moved
    return bits


def draw_shape(c: Chooser) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Rank 0 to 3 (rarely up to 8), a few elements to about a thousand, sometimes empty."""
    roll = c.integer(0, 99)
    rank = 0 if roll < 6 else 4 + c.integer(0, 4) if roll < 9 else c.integer(1, 3)
    dims = [c.integer(1, 3) if rank > 3 else c.integer(1, 5) for _ in range(rank - 1)]
    if rank:
        dims.append(c.choice((1, 2, 7, 64, 127, 128, 129, 300, 513, 1000)) + c.integer(0, 3))
    if dims and chance(c, 5):
        dims[c.integer(0, len(dims) - 1)] = 0
    dynamic = tuple(chance(c, 40) for _ in dims)
    return tuple(dims), dynamic


def _cumulative(weights: dict[str, int]) -> list[tuple[str, int]]:
    total, out = 0, []
    for key, weight in weights.items():
        total += weight
        out.append((key, total))
    return out


def draw_body(c: Chooser, dtype: str | None = None, inputs: int | None = None,
              max_ops: int = 12, finite: bool = False, kinds: frozenset[str] = KINDS) -> Body:
    """A random body (module docstring); `dtype` and `inputs` fix those choices; `finite`
    keeps every constant, folded ones included, finite; `kinds` (a subset of KINDS with at
    least one binary op) says what it may use."""
    dtype = dtype or c.choice(FLOAT_TYPES)
    inputs = inputs or c.integer(1, 4)
    compute = COMPUTE_TYPES[dtype]
    if dtype == "f16":  # sometimes f16 only, sometimes f32 only, sometimes both
        compute = c.choice((("f16",), ("f32",), ("f16", "f32")))
    elif dtype == "f32" and not chance(c, 20):
        compute = ("f32",)
    b = _Builder(c, dtype, inputs, compute, finite, kinds)
    shape, dynamic = draw_shape(c)
    roll = c.integer(0, 99)
    if roll < 2 and "yield_input" in kinds:
        return Body(dtype, shape, dynamic, tuple(b.ops), c.integer(0, inputs - 1))
    if roll == 2 and "yield_const" in kinds:
        result = b.constant(dtype)
        return Body(dtype, shape, dynamic, tuple(b.ops), result)
    target = c.integer(1, max_ops)
    last = None
    while len(b.ops) - inputs < target:
        if b.logic_ops and b.predicates and chance(b.c, 20):
            b.logic()
        else:
            last = b.number()
    if last is None:
        last = b.number()
    result = b.finish(last)
    return Body(dtype, shape, dynamic, tuple(b.ops), result)


# endregion
# region MLIR


def tensor_type(body: Body) -> str:
    dims = "".join(("?" if dyn else str(d)) + "x" for d, dyn in zip(body.shape, body.dynamic,
                                                                       strict=True))
    return f"tensor<{dims}{body.dtype}>"


def constant_text(op: Op) -> str:
    """`true`, `false`, or the value and its type: `0x3EAAAAAB : f32`, `-0.5 : f16`."""
    if op.type == "i1":
        return "true" if op.bits else "false"
    if op.decimal:
        return f"{op.value()!r} : {op.type}"  # exact: every f16, bf16 and f32 value is a double
    assert op.bits is not None
    return f"0x{op.bits:0{WIDTH[op.type] // 4}X} : {op.type}"


def _op_text(body: Body, i: int, names: list[str]) -> str:
    op = body.ops[i]
    args = [names[j] for j in op.operands]
    t = op.type
    if op.kind == "const":
        return f"arith.constant {constant_text(op)}"
    if op.kind in ("extf", "truncf"):
        return f"arith.{op.kind} {args[0]} : {body.ops[op.operands[0]].type} to {t}"
    if op.kind == "cmpf":
        return f"arith.cmpf {op.predicate}, {args[0]}, {args[1]} : " \
               f"{body.ops[op.operands[0]].type}"
    return f"arith.{op.kind} {', '.join(args)} : {t}"


INPUT_NAMES = ("a", "b", "c", "d")


def to_mlir(body: Body | Sequence[Body], name: str = "body",
            elements: Sequence[str] | None = None) -> str:
    """A func.func @name(inputs) -> results holding each body as one elementwise
    linalg.generic (bodies of one dtype, shape and input count; the dynamic dims of the init
    tensor read from the first input); `elements` names the bodies' arguments (default a_elem,
    b_elem, ...), which the kernels name their GM inputs by (the output is y: the generic's
    result has no name)."""
    bodies = [body] if isinstance(body, Body) else list(body)
    first = bodies[0]
    assert all((b.dtype, b.shape, b.dynamic, b.inputs) == (first.dtype, first.shape,
                                                            first.dynamic, first.inputs)
               for b in bodies)
    t = tensor_type(first)
    n = first.inputs
    results = ", ".join([t] * len(bodies))
    lines = [f"func.func @{name}({', '.join(f'%in{i}: {t}' for i in range(n))}) -> "
             f"{results if len(bodies) == 1 else f'({results})'} {{"]
    sizes = []
    for i, dyn in enumerate(first.dynamic):
        if dyn:
            lines.append(f"  %c{i} = arith.constant {i} : index")
            lines.append(f"  %dim{i} = tensor.dim %in0, %c{i} : {t}")
            sizes.append(f"%dim{i}")
    lines.append(f"  %init = tensor.empty({', '.join(sizes)}) : {t}")
    for k, b in enumerate(bodies):
        lines += _generic_lines(b, k, elements or [f"{INPUT_NAMES[i]}_elem" for i in range(n)])
    lines.append(f"  func.return {', '.join(f'%{k}' for k in range(len(bodies)))} : {results}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _generic_lines(body: Body, k: int, elements: Sequence[str]) -> list[str]:
    """`%k = linalg.generic ...` of the body, on %in0.. and %init (its values %v<k>_<i>)."""
    t = tensor_type(body)
    n = body.inputs
    dims = ", ".join(f"d{i}" for i in range(len(body.shape)))
    identity = f"affine_map<({dims}) -> ({dims})>"
    iterators = ", ".join('"parallel"' for _ in body.shape)
    ins = ", ".join(f"%in{i}" for i in range(n))
    lines = [f"  %{k} = linalg.generic {{indexing_maps = [{', '.join([identity] * (n + 1))}], "
             f"iterator_types = [{iterators}]}} ins({ins} : {', '.join([t] * n)}) "
             f"outs(%init : {t}) {{"]
    prefix = f"g{k}_" if k else ""
    names = [f"%{prefix}{e}" for e in elements]
    args = ", ".join(f"{names[i]}: {body.dtype}" for i in range(n))
    lines.append(f"  ^bb0({args}, %{prefix}out: {body.dtype}):")
    for i in range(n, len(body.ops)):
        names.append(f"%{prefix}v{i}")
        lines.append(f"    {names[i]} = {_op_text(body, i, names)}")
    lines.append(f"    linalg.yield {names[body.result]} : {body.dtype}")
    lines.append(f"  }} -> {t}")
    return lines


# endregion
# region inputs


def neighbours(values: Sequence[float], dtype: str, ulps: int = 2) -> np.ndarray:
    """Each value rounded to dtype, and its neighbours up to `ulps` bit patterns away."""
    t, uint = NUMPY_TYPES[dtype], UINT_TYPES[dtype]
    with np.errstate(over="ignore", invalid="ignore"):
        base = np.array(values, np.float64).astype(np.float32).astype(t).view(uint)
    width = WIDTH[dtype]
    found = []
    for step in range(-ulps, ulps + 1):
        moved = base.astype(np.int64) + step
        keep = (moved >= 0) & (moved < 2**width) & ((moved >> (width - 1)) == (base >> (width - 1)))
        found.append(moved[keep])
    return np.concatenate(found).astype(uint).view(t)


def special_values(dtype: str) -> np.ndarray:
    """NaN, +-inf, +-0, the smallest and largest subnormals, the smallest normal, the largest
    finite, +-1, +-3 and 6, in dtype."""
    t, uint = NUMPY_TYPES[dtype], UINT_TYPES[dtype]
    info = ml_dtypes.finfo(t)
    width = WIDTH[dtype]
    subnormal_max = int(np.array(info.smallest_normal, t).view(uint)) - 1
    bits = [0, 1 << (width - 1), 1, subnormal_max]
    values = np.array(bits, uint).view(t)
    named = np.array([np.nan, np.inf, -np.inf, info.smallest_normal, info.max, 1, -1, 3, -3, 6,
                      0.5], np.float64).astype(t)
    both = np.concatenate([values, named])
    return np.concatenate([both, -both])


INPUT_MIX = (("bits", 25), ("ordinary", 10), ("small", 10), ("special", 20), ("zero", 5),
             ("near", 30))
"""Percent of the elements drawn from: any bit pattern; a number in [-8, 8); a small integer
(whose sums and differences are often exactly 0); a special value; +0 or -0; a value near a
constant of the body, or its negation."""


def input_arrays(body: Body, seed: int) -> list[np.ndarray]:
    """One array per input of the body's shape, its elements drawn as INPUT_MIX says; in
    inputs after the first, a tenth of the elements equal an earlier input's (or its
    negation), so that compares see equal operands and sums see exact zeros."""
    rng = np.random.default_rng(seed)
    dtype = body.dtype
    t, uint = NUMPY_TYPES[dtype], UINT_TYPES[dtype]
    n = int(np.prod(body.shape, dtype=np.int64))
    consts = [op.value() for op in body.constants()]
    near = neighbours(consts, dtype) if consts else special_values(dtype)
    near = np.concatenate([near, -near])
    pools = {
        "bits": lambda: rng.integers(0, 2 ** WIDTH[dtype], n, dtype=np.uint64).astype(uint)
        .view(t),
        "ordinary": lambda: rng.uniform(-8, 8, n).astype(np.float32).astype(t),
        "small": lambda: rng.integers(-4, 5, n).astype(t),
        "special": lambda: rng.choice(special_values(dtype), n),
        "zero": lambda: np.where(rng.random(n) < 0.5, 0.0, -0.0).astype(t),
        "near": lambda: rng.choice(near, n),
    }
    names = [name for name, _ in INPUT_MIX]
    weights = np.array([w for _, w in INPUT_MIX], np.float64) / 100
    arrays = []
    for _ in range(body.inputs):
        category = rng.choice(len(names), n, p=weights)
        values = np.zeros(n, t)
        for k, name in enumerate(names):
            values = np.where(category == k, pools[name]().astype(t), values)
        arrays.append(values)
    for i in range(1, len(arrays)):
        same = rng.random(n) < 0.1
        source = arrays[rng.integers(0, i)]
        flip = rng.random(n) < 0.5
        arrays[i] = np.where(same, np.where(flip, -source, source), arrays[i]).astype(t)
    return [a.reshape(body.shape) for a in arrays]


# endregion
# region hypothesis strategies


@st.composite
def bodies(draw: Callable[[st.SearchStrategy[object]], object], dtype: str | None = None,
           inputs: int | None = None, max_ops: int = 12, finite: bool = False,
           kinds: frozenset[str] = KINDS) -> Body:
    """Random bodies (draw_body), shrinking towards fewer, simpler ops."""
    return draw_body(DrawChooser(draw), dtype, inputs, max_ops, finite, kinds)


@st.composite
def cases(draw: Callable[[st.SearchStrategy[object]], object], dtype: str | None = None,
          inputs: int | None = None) -> tuple[Body, list[np.ndarray]]:
    """A random body and inputs for it."""
    body = draw(bodies(dtype, inputs))
    seed = draw(st.integers(0, 2**32 - 1))
    return body, input_arrays(body, seed)  # type: ignore[arg-type]


# endregion
