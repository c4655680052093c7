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
- 32- and 64-bit divisions are refused: f32 holds integers exactly only up to 2^24, A2/A3's Div
  takes half and float only (Div.md), and Ascend 950's Div, which lists int32_t, documents no
  rounding for it (its precision table gives "1ulp").
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
SHIFTED = ("i16", "i32")
"""The types trunci shifts in (both SoCs' ShiftLeft and ShiftRight take them)."""


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
    if dtype not in DIVIDED_IN_F32:
        raise Unlowered(f"divides {dtype} values: A2/A3's Div takes half and float only, "
                        "Ascend 950's Div documents no rounding for integers, and f32 holds "
                        "integers exactly only up to 2^24; hswc divides i8, ui8 and i16 "
                        "(through f32)")
    if signed == dtype.startswith("ui"):
        reads = "signed" if signed else "unsigned"
        raise Unlowered(f"reads {dtype} as {reads}; hswc divides i8 and i16 as signed "
                        "(divsi, remsi, floordivsi, ceildivsi) and ui8 as unsigned (divui, "
                        "remui, ceildivui)")
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
