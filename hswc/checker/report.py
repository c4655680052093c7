"""The checker's report: per dtype and size what the kernel did, and the rules it broke.

One line per run (bit-exact, or how many elements differ, split into values, signs of zero and
NaN class as hswc.reference.compare_bitwise counts them, or the rule that stopped it), then the
first differing elements of the first failing runs with every input and both outputs in hex,
then every rule broken (each naming its AscendC call, with the runs that broke it), then the
verdict. `CheckReport.passed` is true only when every run is bit-exact and no rule broke.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from hswc.checker.dtypes import bits, hex_value
from hswc.checker.rules import Violation
from hswc.reference import Comparison, ToleranceComparison

if TYPE_CHECKING:  # the cost model is imported only by a --profile run
    from hswc.cost_model.recorded import RecordedTimes

MASK_DTYPE = "uint1"
"""The dtype of a mask output's comparison (hswc.checker.masks.compare): elements are bits."""
DETAILED_RUNS = 1
"""How many failing runs per dtype show their first differing elements."""


@dataclass(frozen=True)
class Difference:
    """One differing element: its flat index, every input, the kernel's and the reference's
    value."""

    index: int
    inputs: tuple[str, ...]
    actual: str
    expected: str


def first_differences(inputs: Sequence[np.ndarray], actual: np.ndarray, expected: np.ndarray,
                      comparison: Comparison, limit: int) -> list[Difference]:
    """Up to `limit` differing elements of each kind (values, signs of zero, NaN class), the
    first ones of each, in index order. A one-element input (an attribute's tensor) shows its
    one value in every row, an absent one (an optional input left out) `none`. Masks (one bool
    per element, hswc.checker.masks) and integers (GeluQuant's int8 y) differ in values only."""
    if actual.dtype == np.bool_ or actual.dtype.kind in "iu":
        differ = actual != expected
        kinds: tuple[np.ndarray, ...] = (differ,)
        assert int(differ.sum()) == comparison.mismatches
    else:
        kinds = _float_kinds(actual, expected, comparison)
    chosen = sorted(int(i) for kind in kinds for i in np.flatnonzero(kind)[:limit])
    return [Difference(i, tuple(hex_value(x[i if x.size > 1 else 0]) if x.size else "none"
                                for x in inputs),
                       hex_value(actual[i]),
                       hex_value(expected[i])) for i in chosen]


def _float_kinds(actual: np.ndarray, expected: np.ndarray, comparison: Comparison
                 ) -> tuple[np.ndarray, ...]:
    """Where values, signs of zero and NaN classes differ (compare_bitwise's kinds)."""
    a32, e32 = actual.astype(np.float32), expected.astype(np.float32)
    a_nan, e_nan = np.isnan(a32), np.isnan(e32)
    differ = (bits(actual) != bits(expected)) & ~(a_nan & e_nan)
    nans = differ & (a_nan != e_nan)
    zeros = differ & (a32 == 0) & (e32 == 0)
    kinds = (differ & ~nans & ~zeros, zeros, nans)
    assert sum(int(k.sum()) for k in kinds) == comparison.mismatches
    return kinds


@dataclass
class RunOutcome:
    """One run: a dtype, a size, its launch, and what came of it."""

    dtype: str
    size: int
    block_dim: int
    tiling: Mapping[str, int | float]
    template_args: str | None
    comparisons: list[Comparison] | None = None
    """Per output; None when the run produced no outputs."""
    differences: list[list[Difference]] = field(default_factory=list)
    violations: tuple[Violation, ...] = ()
    failure: str | None = None
    all_patterns: bool = False
    """The run fed the first input every bit pattern of the dtype (hswc.checker.inputs)."""
    ignored: int = 0
    """Elements left out of the comparison (NaN in an input of --ignore-nan-inputs)."""
    tolerance: str | None = None
    """With --tolerance torch or ulp:N: what was accepted (hswc.checker.tolerance)."""
    measured: list[tuple[bool, ToleranceComparison]] = field(default_factory=list)
    """Per output, with a tolerance: whether it held, and the largest error and where."""
    timed_out: bool = False
    """The run did not end within --timeout."""
    skipped: bool = False
    """Not run: its configuration timed out at another size (the failure says where)."""
    counted: str | None = None
    """A run given group_index: its counts and the rows compared (hswc.checker.counts)."""

    @property
    def passed(self) -> bool:
        if self.failure is not None or self.violations or self.comparisons is None:
            return False
        if self.tolerance is not None:
            return all(ok for ok, _ in self.measured)
        return all(c.equal for c in self.comparisons)

    def line(self, rule_number: Mapping[str, int]) -> str:
        head = f"  n={self.size:<9} blocks={self.block_dim:<4}"
        if self.counted is not None:
            head += f" {self.counted}:"
        if self.failure is not None:
            return f"{head} FAILED: {self.failure}"
        parts = []
        if self.comparisons is None:
            parts.append("stopped before writing its outputs")
        else:
            for k, c in enumerate(self.comparisons):
                name = "" if len(self.comparisons) == 1 else f"output {k}: "
                if self.tolerance is not None:
                    ok, within = self.measured[k]
                    verdict = f"within {self.tolerance}" if ok else f"OUTSIDE {self.tolerance}"
                    parts.append(f"{name}{verdict}, max {within.max_ulp:.3g} ulp"
                                 + (f" at {within.worst_index[0]}: {within.worst_actual:.9g} "
                                    f"vs {within.worst_expected:.9g}"
                                    if within.worst_index and within.max_ulp > 0 else "")
                                 + (f", {within.outside} outside rtol/atol"
                                    if within.outside else "")
                                 + (f", {within.specials_differ} inf/NaN misplaced"
                                    if within.specials_differ else ""))
                elif c.equal:
                    parts.append(f"{name}bit-exact")
                elif c.dtype == MASK_DTYPE:
                    parts.append(f"{name}MISMATCH {c.mismatches} of {c.size} mask bits")
                else:
                    parts.append(f"{name}MISMATCH {c.mismatches} of {c.size}: values "
                                 f"{c.values.count}, signs of zero {c.zero_signs.count}, "
                                 f"NaN class {c.nans.count}")
        for v in self.violations:
            parts.append(f"rule {rule_number[v.key]} ({v.category}, {v.api})")
        if self.ignored:
            parts.append(f"{self.ignored} NaN-input elements not compared")
        if self.all_patterns:
            parts.append("every bit pattern")
        return f"{head} " + "; ".join(parts)


def _detailed(runs: Sequence[RunOutcome]) -> list[RunOutcome]:
    """The failing runs whose differences a report shows: the first that has as many rows as
    any run of the dtype (the smallest size that shows the most), DETAILED_RUNS at most."""
    failing = [o for o in runs if any(o.differences)]
    if not failing:
        return []
    most = max(sum(len(d) for d in o.differences) for o in failing)
    return [o for o in failing if sum(len(d) for d in o.differences) == most][:DETAILED_RUNS]


@dataclass(frozen=True)
class BuildFailure:
    """A dtype whose build failed: g++'s first errors."""

    dtype: str
    errors: tuple[str, ...]


@dataclass
class CheckReport:
    """Everything a check found."""

    kernel: str
    entry: str
    reference: str
    platform: str
    arguments: str
    """How the kernel's GM arguments map onto the reference's inputs and results."""
    per_dtype: dict[str, str] = field(default_factory=dict)
    """dtype -> how it was built (DTYPE macros, template arguments)."""
    outcomes: list[RunOutcome] = field(default_factory=list)
    build_failures: list[BuildFailure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    input_names: tuple[str, ...] = ()
    tolerance: str | None = None
    """What the runs were compared within (None: bit for bit)."""
    profile: str | None = None
    """--profile: the cost model's line for the profiled run (after the verdict)."""
    modelled: RecordedTimes | None = None
    """--profile: the profiled run's times in the cost model, when it could be timed."""

    @property
    def passed(self) -> bool:
        return (bool(self.outcomes) and not self.build_failures
                and all(o.passed for o in self.outcomes))

    def rules_broken(self) -> list[tuple[Violation, list[RunOutcome]]]:
        """Each distinct rule (numbers aside), with the runs that broke it, in order found."""
        found: dict[str, tuple[Violation, list[RunOutcome]]] = {}
        for o in self.outcomes:
            for v in o.violations:
                found.setdefault(v.key, (v, []))[1].append(o)
        return list(found.values())

    def format(self) -> str:
        rules = self.rules_broken()
        numbers = {v.key: k + 1 for k, (v, _) in enumerate(rules)}
        out = [f"hswc-check-kernel: {self.entry} ({self.kernel})",
               f"  against {self.reference}", f"  on {self.platform}", f"  {self.arguments}"]
        for failure in self.build_failures:
            out += ["", f"{failure.dtype}: does not compile against hswc/checker/ascendc_cpu:"]
            out += [f"  {line}" for line in failure.errors]
        for dtype in dict.fromkeys(o.dtype for o in self.outcomes):
            runs = [o for o in self.outcomes if o.dtype == dtype]
            out += ["", f"{dtype} ({self.per_dtype.get(dtype, '')}):"]
            out += [o.line(numbers) for o in runs]
            for o in _detailed(runs):
                out += self._differences(o)
        if rules:
            out += ["", "rules broken:"]
            for k, (v, runs) in enumerate(rules):
                where = ", ".join(f"{o.dtype} n={o.size}" for o in runs[:4])
                more = f" and {len(runs) - 4} more" if len(runs) > 4 else ""
                out.append(f"  {k + 1}. {v.category}: {v}")
                out.append(f"     in {len(runs)} run{'s' if len(runs) != 1 else ''}: "
                           f"{where}{more}")
        if self.notes:
            out.append("")
            out += [f"note: {n}" for n in self.notes]
        out += ["", self.verdict()]
        if self.profile is not None:
            out.append(self.profile)
        return "\n".join(out)

    def _differences(self, o: RunOutcome) -> list[str]:
        lines = []
        for k, rows in enumerate(o.differences):
            if not rows:
                continue
            which = "" if len(o.differences) == 1 else f", output {k}"
            lines.append(f"  first differences of each kind, {o.dtype} n={o.size}{which}:")
            names = [*self.input_names, "kernel", "reference"]
            width = max(10, *(len(x) for r in rows for x in (*r.inputs, r.actual, r.expected)))
            lines.append(("    " + f"{'index':<10}"
                          + "".join(f"{n:<{width + 2}}" for n in names)).rstrip())
            for r in rows:
                cells = [*r.inputs, r.actual, r.expected]
                lines.append(("    " + f"{r.index:<10}"
                              + "".join(f"{c:<{width + 2}}" for c in cells)).rstrip())
        return lines

    def verdict(self) -> str:
        if self.passed:
            how = "bit-exact" if self.tolerance is None else f"within {self.tolerance}"
            worst = max((w.max_ulp for o in self.outcomes for _, w in o.measured), default=0.0)
            shown = f" (max {worst:.3g} ulp)" if self.tolerance is not None else ""
            return (f"PASS: all {len(self.outcomes)} runs are {how}{shown} and the kernel broke "
                    "no rule")
        differing = sum(1 for o in self.outcomes if o.comparisons is not None
                        and not o.passed and not o.violations and o.failure is None) \
            if self.tolerance is not None else \
            sum(1 for o in self.outcomes if o.comparisons is not None
                and not all(c.equal for c in o.comparisons))
        stopped = sum(1 for o in self.outcomes if o.comparisons is None and not o.skipped)
        skipped = sum(1 for o in self.outcomes if o.skipped)
        rules = len(self.rules_broken())
        parts = [f"{differing} of {len(self.outcomes)} runs differ from the reference"]
        if stopped:
            parts.append(f"{stopped} stopped before writing their outputs")
        if skipped:
            parts.append(f"{skipped} not run after their configuration timed out")
        parts.append(f"{rules} rule{'s' if rules != 1 else ''} broken")
        if self.build_failures:
            parts.append(f"{', '.join(f.dtype for f in self.build_failures)} did not compile")
        return "FAIL: " + ", ".join(parts)
