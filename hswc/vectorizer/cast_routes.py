"""The AscendC Casts that carry out one conversion to or from an integer type on one SoC.

Input: a conversion node of a body (hswc.vectorizer.dag: extsi, extui, sitofp, uitofp, fptosi,
fptoui, roundeven) and the SoC's Cast table (hswc.soc_api: the ASCENDC_CAST rows of
hswc/api_tables.def). Output: the Casts, each (src, dst, RoundMode), whose composition computes
the conversion exactly, or a reason why the SoC has none.

A Cast from an integer saturates, and every rounding of a float to an integer rounds by the Cast's
mode and then saturates (asc-devkit's precision_conversion.md). A route is one of:
- *direct*: one Cast taking the conversion's mode (an exact conversion takes any mode);
- *through a wider type*: an exact Cast into a type `m` that holds every value of the source
  (i8 in f16, f16 in f32, i16 in f32, ...), then the conversion from `m`: the value is the same,
  so is the result (int8_t -> half -> int32_t is extsi i8 to i32; bfloat16_t -> float ->
  int32_t with CAST_TRUNC is fptosi; i8 -> f16 -> f32 is sitofp);
- *to an integral value first* (float to an 8-bit integer, which A2/A3 casts only from half):
  the float rounded to an integral float by the mode (float -> float), then CAST_TRUNC to half,
  then CAST_TRUNC to the integer. Every integral value of the 8-bit range is exact in half, and a
  value beyond it stays beyond it with its sign (half reaches 65504), so it saturates alike;
- *roundeven*, *floor*, *ceil*, *trunc* (to an integral value in the same float type):
  float -> float CAST_RINT, CAST_FLOOR, CAST_CEIL or CAST_TRUNC, with half and bfloat16_t
  widened to float first and the integral result narrowed back exactly (an integral value of
  magnitude below 2^p is exact in the narrow type; a larger one was integral to begin with);
- *narrow* (an integer already within the narrower type's range, as arith.trunci's low bits
  are once hswc.vectorizer.integer_lowering has sign-extended them in the wide type): Casts
  through types that hold the narrow type's every value, each exact on such values whatever its
  mode (int32_t -> int16_t -> half -> int8_t on A2/A3, which has no int32_t -> int8_t Cast).
`arith.trunci` itself has no route: MLIR keeps the low bits, AscendC's integer Casts saturate
(precision_conversion.md: "溢出默认按照饱和模式处理").
"""

from __future__ import annotations

from dataclasses import dataclass

from hswc.soc_api import ApiTable

FLOATS = ("f16", "bf16", "f32")
INTEGER_RANGES = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-(2**15), 2**15 - 1),
                  "ui16": (0, 2**16 - 1), "i32": (-(2**31), 2**31 - 1), "ui32": (0, 2**32 - 1),
                  "i64": (-(2**63), 2**63 - 1)}
PRECISION = {"f16": 11, "bf16": 8, "f32": 24}
"""Significand bits: a float holds every integer of magnitude up to 2^p exactly."""
WIDER = ("f16", "f32", "i16", "i32")
"""The types a route may pass through."""
INTEGRAL = ("roundeven", "floor", "ceil", "trunc")
"""The conversions of a float to an integral value of its own type."""
MODES = {"extsi": "cast_rint", "extui": "cast_rint", "sitofp": "cast_rint",
         "uitofp": "cast_rint", "fptosi": "cast_trunc", "fptoui": "cast_trunc",
         "roundeven": "cast_rint", "floor": "cast_floor", "ceil": "cast_ceil",
         "trunc": "cast_trunc", "narrow": "cast_none"}
"""The rounding each conversion asks for (MLIR: sitofp rounds to nearest even, fptosi toward
zero; an exact conversion's mode does not matter)."""


@dataclass(frozen=True)
class Step:
    """One Cast: src -> dst with a RoundMode (the ascend dialect's spelling)."""

    src: str
    dst: str
    mode: str


class NoRoute(ValueError):
    """The SoC has no Casts that compute the conversion exactly (the message says why)."""


def holds(wide: str, narrow: str) -> bool:
    """Whether every value of `narrow` is a value of `wide`."""
    if wide == narrow:
        return True
    if narrow in INTEGER_RANGES:
        lo, hi = INTEGER_RANGES[narrow]
        if wide in INTEGER_RANGES:
            wlo, whi = INTEGER_RANGES[wide]
            return wlo <= lo and hi <= whi
        return max(-lo, hi) <= 2 ** PRECISION[wide]
    return narrow in ("f16", "bf16") and wide == "f32"


class _Router:
    def __init__(self, table: ApiTable):
        self.table = table

    def step(self, src: str, dst: str, mode: str | None) -> Step | None:
        """The Cast src -> dst with `mode`, or with any mode (None: an exact conversion,
        CAST_NONE preferred); None if the SoC has no such Cast."""
        modes = self.table.cast_modes(src, dst)
        if mode is None:
            for m in ("cast_none", "cast_rint", *modes):
                if m in modes:
                    return Step(src, dst, m)
            return None
        return Step(src, dst, mode) if mode in modes else None

    def exact(self, src: str, dst: str) -> list[Step] | None:
        """An exact conversion: one Cast, or two through a type holding every value of src."""
        direct = self.step(src, dst, None)
        if direct is not None:
            return [direct]
        for m in WIDER:
            if m not in (src, dst) and holds(m, src):  # src's values pass through m unchanged
                first, second = self.step(src, m, None), self.step(m, dst, None)
                if first is not None and second is not None:
                    return [first, second]
        return None

    def rounding(self, src: str, dst: str, mode: str) -> list[Step] | None:
        """A conversion that rounds by `mode` once: directly, or after an exact widening."""
        direct = self.step(src, dst, mode)
        if direct is not None:
            return [direct]
        for m in WIDER:
            if m not in (src, dst) and holds(m, src):
                widen, last = self.exact(src, m), self.step(m, dst, mode)
                if widen is not None and last is not None:
                    return [*widen, last]
        return None

    def integral_first(self, src: str, dst: str, mode: str) -> list[Step] | None:
        """Float to an 8-bit integer: integral in float, then CAST_TRUNC through half."""
        if dst not in ("i8", "ui8"):
            return None
        wide = self.exact(src, "f32") if src != "f32" else []
        steps = [self.step("f32", "f32", mode), self.step("f32", "f16", "cast_trunc"),
                 self.step("f16", dst, "cast_trunc")]
        if wide is None or any(s is None for s in steps):
            return None
        return [*wide, *steps]  # type: ignore[list-item]

    def integral(self, dtype: str, mode: str) -> list[Step] | None:
        """A float rounded by `mode` to an integral value of its own type."""
        if dtype == "f32":
            found = self.step("f32", "f32", mode)
            return None if found is None else [found]
        widen, back = self.exact(dtype, "f32"), self.step("f32", dtype, "cast_rint")
        rounded = self.step("f32", "f32", mode)
        if widen is None or back is None or rounded is None:
            return None
        return [*widen, rounded, back]

    def narrow(self, src: str, dst: str) -> list[Step] | None:
        """An integral value within dst's range, from src: the shortest chain of Casts through
        types holding dst's every value (each exact on it, whatever its mode)."""
        through = [t for t in (*WIDER, *INTEGER_RANGES) if t not in (src, dst) and holds(t, dst)]
        paths: list[list[Step]] = [[]]
        for _ in range(3):
            longer: list[list[Step]] = []
            for path in paths:
                at = path[-1].dst if path else src
                last = self.step(at, dst, None)
                if last is not None:
                    return [*path, last]
                seen = {src, *(s.dst for s in path)}
                longer += [[*path, step] for t in through if t not in seen
                           for step in [self.step(at, t, None)] if step is not None]
            paths = longer
        return None


def cast_route(table: ApiTable, kind: str, src: str, dst: str) -> list[Step]:
    """The Casts computing conversion `kind` from src to dst on the table's SoC (module
    docstring); NoRoute saying why there are none."""
    r = _Router(table)
    mode = MODES.get(kind)
    unsigned_side = src if kind in ("extui", "uitofp") else dst
    if kind in ("extui", "uitofp", "fptoui") and not unsigned_side.startswith("ui"):
        raise NoRoute(f"{kind} reads or writes {unsigned_side} as unsigned, and AscendC's Cast "
                      f"reads and writes {unsigned_side} as signed: use an unsigned type (ui8)")
    if mode is None:
        raise NoRoute(f"{kind} has no Cast route; AscendC's Cast saturates where arith.trunci "
                      "keeps the low bits")
    if kind in INTEGRAL:
        route = r.integral(src, mode)
    elif kind == "narrow":
        route = r.narrow(src, dst)
    elif kind in ("extsi", "extui") or (kind in ("sitofp", "uitofp") and holds(dst, src)):
        route = r.exact(src, dst)
    elif kind in ("sitofp", "uitofp"):
        route = r.rounding(src, dst, mode)
    else:
        route = r.rounding(src, dst, mode) or r.integral_first(src, dst, mode)
    if route is None:
        raise NoRoute(f"{table.soc_words} has no Cast, nor exact chain of Casts, from {src} to "
                      f"{dst} with {mode}")
    return route
