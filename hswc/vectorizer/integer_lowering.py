"""arith.trunci and arith's integer divisions as operations AscendC has, exactly.

Input: the op's operands as nodes of a body's DAG (hswc.vectorizer.dag builds them through the
`Builder` below). Output: the node computing the op's result from nodes the instruction
selection maps to calls (hswc.vectorizer.instructions), or `Unlowered` saying why there is none.

- `trunci` iN -> iM keeps the low M bits (MLIR); AscendC's integer Casts saturate instead
  (precision_conversion.md: "溢出默认按照饱和模式处理"). The low bits, read as a signed M-bit
  value, are `shrsi(shli(x, N - M), N - M)` in iN (ShiftLeft on the unsigned lanes, ShiftRight
  on the signed ones: ShiftLeft.md, ShiftRight.md), a value within iM's range that a `narrow`
  Cast route converts exactly (hswc.vectorizer.cast_routes). A trunci of an extsi from a type no
  wider than iM is that value extended to iM (or the value itself).
- The divisions of 8- and 16-bit integers (divsi, divui, remsi, remui, floordivsi, ceildivsi,
  ceildivui) run in f32: a and b exactly (sitofp / uitofp), q = a / b rounded once (Div), then
  rounded to an integral f32 by the division's mode: toward zero (CAST_TRUNC, divsi / divui),
  toward -infinity (CAST_FLOOR) or +infinity (CAST_CEIL), and converted to the integer type
  (fptosi, exact on an integral value). That is the exact quotient: when a / b is not an
  integer it lies at least 1 / |b| from every integer, and one rounding moves it by at most
  |a / b| * 2^-23 (even 1 ulp, the error asc-devkit's precision table allows Ascend 950's f32
  Div), which is less for |a| < 2^23; an integral quotient is representable and stays. A
  remainder is a - trunc(q) * b, exact in f32 (every term an integer below 2^17). `INT_MIN / -1`
  (undefined in MLIR) gives the saturated maximum (the Cast back saturates), a divisor of zero
  at run time what the Casts make of an infinity or a NaN (undefined in MLIR as well).
- The signed divisions of 32-bit integers (divsi, remsi, floordivsi, ceildivsi) start from the
  same f32 estimate, which is no longer exact (f32 holds integers exactly only up to 2^24), and
  correct it with integer arithmetic (Add, Sub, Mul, Min, Compare, Select and Cast of int32_t,
  Add.md, Mul.md, Min.md, Compare.md, Select.md, Cast.md; hswc.vectorizer.instructions maps each
  node to the SoC's calls):
  1. q0 = fptosi(sitofp(a) / sitofp(b)): each of the three roundings is off by at most 2^-24
     relatively, so q0 is within |a| * 3 * 2^-24 / |b| + 1 of the quotient q, and
     r0 = a - q0 * b (wrapping muli / subi) is the exact remainder of q0: its true value
     (q - q0) * b + (a - q * b) is below 2|b| + 384 in magnitude, and below 2^31 (a quotient of
     1 or more is never estimated below 1: the roundings are monotonic).
  2. d = fptosi(sitofp(r0) / sitofp(b)), q1 = q0 + d, r1 = r0 - d * b: r0 / b is q - q0 plus
     a fraction below 1 in magnitude, at most 2 + 384 / |b| <= 386, so its estimate is off by
     less than 2^-13 and its truncation by at most one: q1 is q - 1, q or q + 1.
  3. The one of those whose remainder lies between 0 and b's magnitude with a's sign: r1 of the
     other sign than a (and not 0) steps q1 one toward zero, |r1| >= |b| one away from it
     (compared as -|r1| <= -|b|, minsi(x, 0 - x), which holds -2^31's magnitude); the remainder
     is a - q * b. floordivsi subtracts 1 from the quotient where the remainder is nonzero and
     of the other sign than b, ceildivsi adds 1 where it is nonzero and of b's sign.
  Checked against Python's integers on every pair of 48 edge values (0, +-1, 2^k and its
  neighbours, the extremes) and 3000 random pairs with remainders near 0 and near the divisor
  (test_integer_division). `INT_MIN / -1` (undefined in MLIR) gives INT_MIN (the wrapped
  quotient) and remsi 0; a divisor of zero at run time gives what the Casts make of an infinity
  or a NaN, corrected as above (undefined in MLIR as well: no trap, no particular value).
- The divisions of i16 and i32 values read as unsigned (divui, remui, ceildivui) use the signed
  division above on values that are non-negative as signed (Hacker's Delight, 2nd ed., 9-3,
  "Unsigned Short Division from Signed Division"): neither SoC converts uint32_t vectors to
  float (Cast.md: no uint32_t -> float row in either table). A divisor of the top half
  (negative read as signed, so at least 2^(N-1) unsigned) gives the quotient 1 where the
  dividend is not below it unsigned, else 0. Otherwise q = (shrui(a, 1) divsi b) * 2 (shrui
  and shli by one: ShiftRight / ShiftLeft on the unsigned lanes) is the quotient or one below
  it: r = a - q * b (wrapping) lies in [0, 2b), and q steps up by one where r >= b unsigned
  (cmpi uge: the signed compare of the values biased by the sign bit). remui is a - q * b,
  ceildivui q plus one where that remainder is not zero. Checked against Python's integers on
  every pair of edge values (0, 1, 2^k and its neighbours up to 2^N - 1) and random pairs
  (test_integer_division). A divisor of zero gives whatever the signed division gives for it
  (undefined in MLIR).
- Every 64-bit division is refused, per SoC: Atlas A2/A3 has no int64_t Add, Mul, Compare or
  Div (Add.md, Mul.md, Compare.md, Div.md list none), and on Ascend 950, whose Div takes
  int64_t in its count form (Div.md), hswc models no int64_t vector lanes (its interpreter and
  CPU model hold none). i8 read as unsigned is refused too (ShiftRight takes no int8_t: divide
  ui8 values instead).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

V = TypeVar("V")

SIGNED_DIVISIONS = {"arith.divsi": "trunc", "arith.floordivsi": "floor",
                    "arith.ceildivsi": "ceil", "arith.remsi": "rem"}
UNSIGNED_DIVISIONS = {"arith.divui": "trunc", "arith.ceildivui": "ceil", "arith.remui": "rem"}
"""Division op -> how its f32 quotient becomes the result (a rounding, or the remainder)."""
DIVIDED_IN_F32 = ("i8", "ui8", "i16")
"""The integer types whose divisions run in f32 (every value exact, |a| < 2^23)."""
CORRECTED = ("i32",)
"""The integer types whose signed divisions start from an f32 estimate and are corrected in
the integer type (module docstring)."""
SHIFTED = ("i16", "i32")
"""The types trunci shifts in (both SoCs' ShiftLeft and ShiftRight take them), and those whose
unsigned divisions go through the signed ones (module docstring)."""
NO_INT64 = ("divides i64 values, which no SoC hswc targets divides: on Atlas A2/A3 (ascend910b, "
            "ascend910_93) AscendC has no int64_t Add, Mul, Compare or Div (Add.md, Mul.md, "
            "Compare.md, Div.md); on Ascend 950 (ascend950) Div takes int64_t in its count form "
            "(Div.md) but hswc models no int64_t vector lanes (its interpreter and CPU model "
            "hold none). hswc divides i8, ui8, i16 and i32")


class Unlowered(ValueError):
    """No exact sequence of AscendC calls computes the op (the message says why)."""


class Builder(Protocol[V]):
    """Makes (and merges, folds) nodes of the body."""

    def dtype(self, a: V) -> str: ...

    def kind(self, a: V) -> str: ...

    def source_of(self, a: V) -> V | None:
        """The operand of a conversion node (extsi), None for another node."""
        ...

    def integer(self, value: int, dtype: str) -> V: ...

    def node(self, kind: str, dtype: str, *operands: V) -> V: ...

    def compare(self, predicate: str, a: V, b: V) -> V:
        """arith.cmpi's `predicate` (slt, sle, ne, ...) of a and b: an i1 node."""
        ...


def width(dtype: str) -> int:
    return int(dtype.removeprefix("ui").removeprefix("i"))


def truncation(b: Builder[V], x: V, dtype: str) -> V:
    """trunci of x to `dtype` (module docstring)."""
    wide = b.dtype(x)
    if dtype == "i1" or not dtype.startswith("i") or width(dtype) >= width(wide):
        raise Unlowered(f"truncates {wide} to {dtype}; hswc lowers trunci from i16 or i32 to "
                        "i8 or i16")
    inner = b.source_of(x) if b.kind(x) == "extsi" else None
    if inner is not None and width(b.dtype(inner)) <= width(dtype):
        return inner if b.dtype(inner) == dtype else b.node("extsi", dtype, inner)
    if wide not in SHIFTED:
        raise Unlowered(f"truncates {wide}, which AscendC's ShiftLeft and ShiftRight do not "
                        "take on Atlas A2/A3 or Ascend 950 (int16_t, int32_t); its Casts "
                        "saturate where trunci keeps the low bits")
    amount = b.integer(width(wide) - width(dtype), wide)
    up = b.node("shli", wide, x, amount)
    return b.node("narrow", dtype, b.node("shrsi", wide, up, amount))


def division(b: Builder[V], name: str, x: V, y: V) -> V:
    """An integer division op `name` of x by y (module docstring)."""
    dtype = b.dtype(x)
    signed = name in SIGNED_DIVISIONS
    how = SIGNED_DIVISIONS[name] if signed else UNSIGNED_DIVISIONS[name]
    if dtype == "i64":
        raise Unlowered(NO_INT64)
    if signed and dtype in CORRECTED:
        return _corrected_division(b, how, x, y)
    if not signed and dtype in SHIFTED:
        return _unsigned_division(b, how, x, y)
    if dtype not in DIVIDED_IN_F32:
        raise Unlowered(f"divides {dtype} values; hswc divides i8, ui8, i16 and i32")
    if signed == dtype.startswith("ui"):
        reads = "signed" if signed else "unsigned"
        raise Unlowered(f"reads {dtype} as {reads}; hswc divides i8, i16 and i32 as signed "
                        "(divsi, remsi, floordivsi, ceildivsi), i16, i32 and ui8 as unsigned "
                        "(divui, remui, ceildivui): AscendC's ShiftRight, which the unsigned "
                        "division of a signless type needs, takes no int8_t")
    to_float, to_int = ("sitofp", "fptosi") if signed else ("uitofp", "fptoui")
    a, d = b.node(to_float, "f32", x), b.node(to_float, "f32", y)
    quotient = b.node("divf", "f32", a, d)
    if how == "trunc":  # fptosi / fptoui round toward zero themselves
        return b.node(to_int, dtype, quotient)
    if how != "rem":
        return b.node(to_int, dtype, b.node(how, "f32", quotient))
    whole = b.node("trunc", "f32", quotient)
    remainder = b.node("subf", "f32", a, b.node("mulf", "f32", whole, d))
    return b.node(to_int, dtype, remainder)


def _unsigned_division(b: Builder[V], how: str, x: V, y: V) -> V:
    """divui / remui / ceildivui of i16 or i32 through the signed division (module
    docstring)."""
    dtype = b.dtype(x)
    zero, one = b.integer(0, dtype), b.integer(1, dtype)

    def one_if(condition: V) -> V:
        return b.node("select", dtype, condition, one, zero)

    halved = division(b, "arith.divsi", b.node("shrui", dtype, x, one), y)
    doubled = b.node("shli", dtype, halved, one)
    short = b.node("subi", dtype, x, b.node("muli", dtype, doubled, y))
    small = b.node("addi", dtype, doubled, one_if(b.compare("uge", short, y)))
    large = one_if(b.compare("uge", x, y))
    q = b.node("select", dtype, b.compare("slt", y, zero), large, small)
    if how == "trunc":
        return q
    r = b.node("subi", dtype, x, b.node("muli", dtype, q, y))
    if how == "rem":
        return r
    return b.node("addi", dtype, q, one_if(b.compare("ne", r, zero)))


def _corrected_division(b: Builder[V], how: str, x: V, y: V) -> V:
    """A signed 32-bit division: an f32 estimate corrected twice (module docstring)."""
    dtype = b.dtype(x)
    zero, one, minus_one = b.integer(0, dtype), b.integer(1, dtype), b.integer(-1, dtype)

    def estimate(n: V) -> V:
        return b.node("fptosi", dtype, b.node("divf", "f32", b.node("sitofp", "f32", n),
                                               b.node("sitofp", "f32", y)))

    def less_than_zero(n: V) -> V:
        return b.compare("slt", n, zero)

    def negative_magnitude(n: V) -> V:
        return b.node("minsi", dtype, n, b.node("subi", dtype, zero, n))

    q0 = estimate(x)
    r0 = b.node("subi", dtype, x, b.node("muli", dtype, q0, y))
    d = estimate(r0)
    q1 = b.node("addi", dtype, q0, d)
    r1 = b.node("subi", dtype, r0, b.node("muli", dtype, d, y))
    nonzero = b.compare("ne", r1, zero)
    wrong_sign = b.node("andi", "i1", nonzero, less_than_zero(b.node("xori", dtype, r1, x)))
    too_large = b.compare("sle", negative_magnitude(r1), negative_magnitude(y))
    away = b.node("select", dtype, less_than_zero(b.node("xori", dtype, x, y)), minus_one, one)
    toward = b.node("subi", dtype, zero, away)
    step = b.node("select", dtype, wrong_sign,
                  toward, b.node("select", dtype, too_large, away, zero))
    q = b.node("addi", dtype, q1, step)
    r = b.node("subi", dtype, x, b.node("muli", dtype, q, y))
    if how == "trunc":
        return q
    if how == "rem":
        return r
    inexact = b.compare("ne", r, zero)
    other_sign = less_than_zero(b.node("xori", dtype, r, y))
    if how == "floor":
        below = b.node("andi", "i1", inexact, other_sign)
        return b.node("addi", dtype, q, b.node("select", dtype, below, minus_one, zero))
    above = b.node("andi", "i1", inexact, b.node("not", "i1", other_sign))
    return b.node("addi", dtype, q, b.node("select", dtype, above, one, zero))
