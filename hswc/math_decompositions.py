"""The math dialect's ops in an elementwise body, each written once in terms of the vector unit's
operations.

`MATH_OPS` maps each supported `math` op to its decomposition: a function that, given a
`Builder` and the operand, builds the result out of the primitive operations the vectorizer
maps to one AscendC call each: the arith ops, and `exp`, `ln`, `sqrt`, `rsqrt`, `abs`
(hswc.math_semantics models the first four). The interpreter runs a decomposition on numpy
arrays (hswc.interpreter.body) and the vectorizer builds it as DAG nodes (hswc.vectorizer.dag),
so every level computes the same operations in the same order.

- math.exp, math.log, math.sqrt, math.rsqrt, math.absf: one instruction (Exp, Ln, Sqrt, Rsqrt,
  Abs) in the op's type.
- math.log1p, math.expm1, math.tanh, math.erf: computed in f32 (an f16 or bf16 operand is
  widened first and the result rounded once back), by the formulas of their functions below;
  measured accuracy in bench/bench_math_accuracy.py.
- math.fpowi with a constant exponent: `power`, multiplications in f32 (exact as MLIR lowers
  it: the same products in the same order).

What has no entry is refused by name where it is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol, TypeVar

V = TypeVar("V")


class Builder(Protocol[V]):
    """Builds values of one body: each call one operation of the vector unit."""

    def dtype(self, a: V) -> str:
        """'f16', 'bf16' or 'f32'."""
        ...

    def const(self, value: float, dtype: str) -> V:
        ...

    def op(self, kind: str, *operands: V) -> V:
        """kind: addf, subf, mulf, divf, maximumf, minimumf, negf, select, andi, ori, exp, ln,
        sqrt, rsqrt, abs, or extf / truncf to f32 / the operand type (`convert`)."""
        ...

    def cmpf(self, predicate: str, a: V, b: V) -> V:
        ...

    def convert(self, a: V, dtype: str) -> V:
        ...


Decomposition = Callable[["Builder[V]", V], V]


def _primitive(kind: str) -> Decomposition:  # type: ignore[type-arg]
    def build(b: Builder[V], x: V) -> V:
        return b.op(kind, x)
    return build


def _in_f32(formula: Decomposition) -> Decomposition:  # type: ignore[type-arg]
    """The formula on f32 values: an f16 or bf16 x widened, the result rounded once back."""
    def build(b: Builder[V], x: V) -> V:
        dtype = b.dtype(x)
        if dtype == "f32":
            return formula(b, x)
        return b.convert(formula(b, b.convert(x, "f32")), dtype)
    return build


def log1p(b: Builder[V], x: V) -> V:
    """ln(1 + x) as ln(u) * (x / (u - 1)), u = 1 + x rounded (Goldberg 1991, theorem 4: a few
    ulps when ln is correctly rounded); x where u == 1, and +inf where u is."""
    one = b.const(1.0, "f32")
    u = b.op("addf", one, x)
    r = b.op("mulf", b.op("ln", u), b.op("divf", x, b.op("subf", u, one)))
    r = b.op("select", b.cmpf("ogt", u, b.const(F32_MAX, "f32")), u, r)
    return b.op("select", b.cmpf("oeq", u, one), x, r)


def expm1(b: Builder[V], x: V) -> V:
    """e^x - 1 as (u - 1) * (x / ln u), u = e^x rounded (Kahan); x where u == 1, -1 where
    u - 1 is, and +inf where u is."""
    one = b.const(1.0, "f32")
    u = b.op("exp", x)
    um1 = b.op("subf", u, one)
    r = b.op("mulf", um1, b.op("divf", x, b.op("ln", u)))
    r = b.op("select", b.cmpf("ogt", u, b.const(F32_MAX, "f32")), u, r)
    r = b.op("select", b.cmpf("oeq", um1, b.const(-1.0, "f32")), b.const(-1.0, "f32"), r)
    return b.op("select", b.cmpf("oeq", u, one), x, r)


F32_MAX: Final = float.fromhex("0x1.fffffep+127")
"""The largest finite f32: u > F32_MAX is u == +inf without an infinite constant."""
TANH_CAP: Final = 9.0
"""From here on tanh(x) rounds to 1 in f32 (1 - tanh 9 = 3e-8 < 2^-25): `tanh` takes min(x, 9),
so expm1(2x) stays finite."""


def tanh(b: Builder[V], x: V) -> V:
    """tanh x = e / (e + 2), e = expm1(2 min(x, 9)) (min(x, 9): e finite; NaN stays NaN): no
    overflow, and no cancellation on either side of 0 (e in (-1, 0) below 0, e + 2 in (1, 2));
    near 0 e is 2x, so e / (e + 2) is x / (1 + x), within 2^-24 of tanh x where expm1 returns
    its argument (|2x| < 2^-24); +-0 keep their sign; -1 at -inf."""
    capped = b.op("minimumf", x, b.const(TANH_CAP, "f32"))
    e = expm1(b, b.op("mulf", capped, b.const(2.0, "f32")))
    return b.op("divf", e, b.op("addf", e, b.const(2.0, "f32")))


ERF_TAYLOR: Final = (
    -1.2290555240213052e-09, 1.4807192805221803e-08, -1.6365844146548625e-07,
    1.6462114444948384e-06, -1.4925650248187594e-05, 0.00012055332626914605,
    -0.0008548327023163438, 0.005223977845162153, -0.02686617150902748, 0.11283791810274124,
    -0.37612637877464294, 1.128379225730896,
)
"""2/sqrt(pi) (-1)^n / (n! (2n + 1)) for n = 11 down to 0, rounded to f32: erf(a) = a * P(a^2)
for a < 1, the truncation error below 2^-33."""
ERFC_FIT: Final = (
    -0.08801403641700745, 0.40880805253982544, -0.7173557877540588, 0.518986701965332,
    -0.18330875039100647, 0.26824989914894104, 0.22545410692691803, 0.28532782196998596,
    0.2818068265914917, 1.1485537470434792e-05,
)
"""g(t), t = 1 / (1 + a/2): erfc(a) = exp(-a^2) g(t) for a >= 1 (tools/fit_erf_coefficients.py)."""


def _polynomial(b: Builder[V], coefficients: tuple[float, ...], z: V) -> V:
    p = b.const(coefficients[0], "f32")
    for c in coefficients[1:]:
        p = b.op("addf", b.op("mulf", p, z), b.const(c, "f32"))
    return p


def erf(b: Builder[V], x: V) -> V:
    """erf: x * P(x^2) for |x| < 1; 1 - exp(-x^2) g(1 / (1 + |x|/2)) above, the sign of x put
    back (ERF_TAYLOR, ERFC_FIT)."""
    a = b.op("abs", x)
    z = b.op("mulf", x, x)
    small = b.op("mulf", x, _polynomial(b, ERF_TAYLOR, z))
    one = b.const(1.0, "f32")
    t = b.op("divf", one, b.op("addf", b.op("mulf", a, b.const(0.5, "f32")), one))
    tail = b.op("mulf", b.op("exp", b.op("negf", z)), _polynomial(b, ERFC_FIT, t))
    large = b.op("subf", one, tail)
    large = b.op("select", b.cmpf("olt", x, b.const(0.0, "f32")), b.op("negf", large), large)
    return b.op("select", b.cmpf("olt", a, one), small, large)


def power(b: Builder[V], x: V, n: int) -> V:
    """x ** n for a constant integer n (`math.fpowi`), as LLVM expands a constant exponent and
    compiler-rt's __powisf2 computes any: square-and-multiply from the exponent's lowest bit
    (x^3 = x * (x * x)), 1 / r for n < 0, 1 for n = 0 (NaN included); an f16 or bf16 x in f32,
    the result rounded once back, as MLIR widens the math of those types."""
    dtype = b.dtype(x)
    if dtype != "f32":
        return b.convert(power(b, b.convert(x, "f32"), n), dtype)
    result: V | None = None
    square, m = x, abs(n)
    while m:
        if m & 1:
            result = square if result is None else b.op("mulf", result, square)
        m >>= 1
        if m:
            square = b.op("mulf", square, square)
    one = b.const(1.0, "f32")
    if result is None:
        return one
    return b.op("divf", one, result) if n < 0 else result


FPOWI: Final = "math.fpowi"
"""A float raised to an integer, built by `power` when the exponent is a constant."""

MATH_OPS: Final[dict[str, Decomposition]] = {  # type: ignore[type-arg]
    "math.exp": _primitive("exp"),
    "math.log": _primitive("ln"),
    "math.sqrt": _primitive("sqrt"),
    "math.rsqrt": _primitive("rsqrt"),
    "math.absf": _primitive("abs"),
    "math.log1p": _in_f32(log1p),
    "math.expm1": _in_f32(expm1),
    "math.tanh": _in_f32(tanh),
    "math.erf": _in_f32(erf),
}
"""math op name -> its decomposition (module docstring)."""

SUPPORTED_MATH: Final = (*MATH_OPS, FPOWI)
