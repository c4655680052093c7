"""How hswc-check-kernel compares a kernel's outputs: bit for bit, or within a tolerance.

`--tolerance bits` (the default for the bit-exact family) compares every bit; `torch` accepts
what torch.testing.assert_close's default tolerances accept (the default for the exponential
activations, whose models are the exact functions: hswc.reference); `ulp:N` accepts at most N
ulps of the expected value. The last two also require infinities and NaNs at the same places,
and report the largest error in ulps and the input where it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hswc.checker.errors import CheckError
from hswc.reference import ToleranceComparison, compare_tolerance

MODES = ("bits", "torch", "ulp:N")


@dataclass(frozen=True)
class Tolerance:
    mode: str
    """bits, torch or ulp."""
    ulps: float = 0.0

    @property
    def exact(self) -> bool:
        return self.mode == "bits"

    def compare(self, actual: np.ndarray, expected: np.ndarray) -> tuple[bool, ToleranceComparison]:
        """Whether actual is within the tolerance of expected, and the measurement."""
        within = compare_tolerance(actual, expected)
        if self.mode == "torch":
            return within.equal, within
        return within.specials_differ == 0 and within.max_ulp <= self.ulps, within

    def describe(self) -> str:
        return "PyTorch's tolerance" if self.mode == "torch" else f"{self.ulps:g} ulp"


def parse_tolerance(text: str | None, default_exact: bool) -> Tolerance:
    """--tolerance's value (None: bits for a bit-exact reference, torch otherwise)."""
    if text is None:
        return Tolerance("bits" if default_exact else "torch")
    if text in ("bits", "torch"):
        return Tolerance(text)
    if text.startswith("ulp:"):
        try:
            ulps = float(text[4:])
        except ValueError:
            ulps = -1.0
        if ulps >= 0 and np.isfinite(ulps):
            return Tolerance("ulp", ulps)
    raise CheckError(f"--tolerance {text}: expected one of {', '.join(MODES)} (N a number of "
                     "ulps, at least 0)")
