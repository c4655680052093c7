"""The AscendC API table of each SoC family: which vector calls take which element types.

The table is written once, in `hswc/api_tables.def` (rows `ASCENDC_API(call, result, dav_c220
types, dav_3510 types)`, and for Cast `ASCENDC_CAST(src, dst, dav_c220 modes, dav_3510
modes)`, from asc-devkit's headers and API docs; the file says which). This
module reads it for the vectorizer (which calls a body may use in which dtype), the `ascend`
dialect's verifiers (what some SoC takes) and the interpreter (what the SoC it runs on takes);
the C++ CPU model includes the same file (hswc/checker/ascendc_cpu/ascendc_cpu_api.h), so the
printer's kernels, the interpreter and hswc-check-kernel agree on one table.

A call is *exact* on a dtype when the SoC takes it there and its result is specified bit for
bit: every call of f16 and f32 (one IEEE rounding to nearest even, as on A2/A3), and on bf16
the calls that never round (Max, Min, Maxs, Mins, Compare, CompareScalar, Select, Duplicate)
and the ASCENDC_ROUNDS_BF16_IN_FLOAT ones (Add, Sub, Mul, Adds: Ascend 950 documents their bf16
result as the float one rounded to bf16; Muls, which its implementation runs as Duplicate then
Mul). Ascend 950 also takes bf16 Div, ... without saying how they round: those are not exact.
(hsg-widen-bf16 computes a kernel's bf16 arithmetic in f32 on every SoC, so the compiler's
kernels call none of them on bf16.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Final

TABLE_FILE: Final = Path(__file__).with_name("api_tables.def")
FAMILIES: Final = ("dav_c220", "dav_3510")
"""The table's columns, in order: Atlas A2/A3, Ascend 950."""
FAMILY_NAMES: Final = {"dav_c220": "Atlas A2/A3", "dav_3510": "Ascend 950"}
CPP_DEFINES: Final = {"dav_c220": (), "dav_3510": ("ASCENDC_CPU_DAV_3510",)}
"""The -D flags that build the CPU model (hswc/checker/ascendc_cpu) for a family."""
IR_TYPES: Final = {"half": "f16", "bfloat16_t": "bf16", "float": "f32", "int8_t": "i8",
                   "uint8_t": "ui8", "int16_t": "i16", "uint16_t": "ui16", "int32_t": "i32",
                   "uint32_t": "ui32", "int64_t": "i64", "fp8_e4m3fn_t": "f8E4M3FN",
                   "fp8_e5m2_t": "f8E5M2"}
"""AscendC element type -> the IR's spelling."""
ALIASES: Final = {"Compares": "CompareScalar"}
EQ_ONLY_COMPARES: Final = {"dav_c220": ("i32",), "dav_3510": ()}
"""The element types whose Compare / CompareScalar take CMPMODE::EQ only, per family (asc-devkit
比较与选择/Compare.md and Compares.md, Atlas A2/A3: "int32_t (只支持CMPMODE::EQ)"; Ascend 950
lists every mode for int32_t). The CPU model checks the same (ascendc_cpu_vec_cmpsel.h,
CheckCompareMode)."""
"""Calls the table lists under another name (Compares is CompareScalar's current name)."""

_RESULTS = r"(ASCENDC_EXACT|ASCENDC_ROUNDS_BF16_IN_FLOAT|ASCENDC_ROUNDS)"
_ROW = re.compile(r"^ASCENDC_API\((\w+),\s*" + _RESULTS + r","
                  r"\s*\(([^)]*)\),\s*\(([^)]*)\)\)\s*$")
_CAST_ROW = re.compile(r"^ASCENDC_CAST\((\w+),\s*(\w+),\s*\(([^)]*)\),\s*\(([^)]*)\)\)\s*$")


@dataclass(frozen=True)
class ApiTable:
    """One SoC family's column of the table."""

    family: str
    takes_types: Mapping[str, tuple[str, ...]]
    """call -> the AscendC element types it takes, in the table's order."""
    rounding: frozenset[str]
    """The calls whose result is rounded in T with no documented bf16 rounding."""
    casts: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    """(src, dst) in the IR's spelling -> the RoundModes Cast takes (`cast_none`, `cast_rint`,
    ...: the ascend dialect's spelling), for the pairs the family converts (ASCENDC_CAST)."""

    @property
    def soc_words(self) -> str:
        return FAMILY_NAMES[self.family]

    def types(self, call: str) -> tuple[str, ...]:
        return self.takes_types.get(ALIASES.get(call, call), ())

    def takes(self, call: str, dtype: str) -> bool:
        """Whether `call` compiles for `dtype` (the IR's f16/bf16/f32/i16/... spelling)."""
        return dtype in {IR_TYPES[t] for t in self.types(call)}

    def exact(self, call: str, dtype: str) -> bool:
        """Whether `call` on `dtype` is taken and its result specified bit for bit."""
        rounds = ALIASES.get(call, call) in self.rounding
        return self.takes(call, dtype) and not (rounds and dtype == "bf16")

    def compare_modes(self, dtype: str) -> tuple[str, ...]:
        """The CMPMODEs (the ascend dialect's spelling) Compare takes on `dtype`."""
        if dtype in EQ_ONLY_COMPARES[self.family]:
            return ("eq",)
        return ("lt", "gt", "ge", "eq", "ne", "le")

    def cast_modes(self, src: str, dst: str) -> tuple[str, ...]:
        """The RoundModes Cast takes from `src` to `dst` (IR spelling); () when it has no such
        Cast."""
        return self.casts.get((src, dst), ())

    def words(self, call: str) -> str:
        """`half, float, int16_t` for messages."""
        return ", ".join(self.types(call)) or "no element type"


@cache
def tables() -> Mapping[str, ApiTable]:
    """Every family's table, read from TABLE_FILE."""
    columns: list[dict[str, tuple[str, ...]]] = [{} for _ in FAMILIES]
    casts: list[dict[tuple[str, str], tuple[str, ...]]] = [{} for _ in FAMILIES]
    rounding: set[str] = set()
    for number, line in enumerate(TABLE_FILE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith(("//", "ASCENDC_SOC_TYPES(")):
            continue  # ASCENDC_SOC_TYPES rows: the CPU model's run-time refusals only
        cast = _CAST_ROW.match(line)
        if cast is not None:
            src, dst, *modes = cast.groups()
            for column, text in zip(casts, modes, strict=True):
                if text.strip():
                    column[(IR_TYPES[src], IR_TYPES[dst])] = tuple(
                        m.strip().lower() for m in text.split(","))
            continue
        m = _ROW.match(line)
        if m is None:
            raise ValueError(f"{TABLE_FILE}:{number}: not an ASCENDC_API row: {line}")
        call, result, *lists = m.groups()
        for column, text in zip(columns, lists, strict=True):
            column[call] = tuple(t.strip() for t in text.split(","))
        if result == "ASCENDC_ROUNDS":
            rounding.add(call)
    return {family: ApiTable(family, column, frozenset(rounding), cast_column)
            for family, column, cast_column in zip(FAMILIES, columns, casts, strict=True)}


def table(family: str) -> ApiTable:
    """The table of a family (dav_c220, dav_3510)."""
    return tables()[family]


def default_table() -> ApiTable:
    """Atlas A2/A3's: what IR without a SoC is lowered for."""
    return table(FAMILIES[0])


def any_soc_cast_modes(src: str, dst: str) -> tuple[str, ...]:
    """The RoundModes some SoC's Cast takes from `src` to `dst` (what the dialect's verifier
    accepts), in the table's order."""
    seen: dict[str, None] = {}
    for t in tables().values():
        seen.update(dict.fromkeys(t.cast_modes(src, dst)))
    return tuple(seen)


def any_soc_types(call: str) -> tuple[str, ...]:
    """The IR element types some SoC's `call` takes (what the dialect's verifier accepts)."""
    seen: dict[str, None] = {}
    for t in tables().values():
        for name in t.types(call):
            seen[IR_TYPES[name]] = None
    return tuple(seen)
