"""--check of the step from PyTorch: hswc's results against eager PyTorch's on the example inputs.

The verdict is torch.testing.assert_close's, with its default tolerances (and NaN where
PyTorch has NaN: equal_nan). The summary counts the elements that are equal, and those outside
the default tolerances as assert_close's documentation tables them (DEFAULT_TOLERANCES), with
the largest difference and the first element outside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_TOLERANCES: Mapping[str, tuple[float, float]] = {
    "torch.float16": (1e-3, 1e-5),
    "torch.bfloat16": (1.6e-2, 1e-5),
    "torch.float32": (1.3e-6, 1e-5),
}
"""(rtol, atol) of torch.testing.assert_close by dtype, from its documentation."""


@dataclass(frozen=True)
class Comparison:
    """One result of hswc against eager PyTorch's."""

    label: str
    within: bool
    """assert_close's verdict."""
    elements: int
    equal: int
    outside: int
    largest: float
    """The largest absolute difference where both are numbers."""
    first: str
    """The first element outside the tolerances, or assert_close's message ('' if within)."""
    dtype: str

    def summary(self) -> str:
        rtol, atol = DEFAULT_TOLERANCES.get(self.dtype, (0.0, 0.0))
        name = self.dtype.removeprefix("torch.")
        tolerances = f"assert_close's tolerances ({name}: rtol {rtol:g}, atol {atol:g})"
        counts = (f"{self.elements} elements, {self.equal} equal, largest difference "
                  f"{self.largest:.3g}")
        if self.within:
            return f"--check against eager PyTorch: {self.label}within {tolerances}: {counts}"
        return (f"--check against eager PyTorch: {self.label}OUTSIDE {tolerances}: "
                f"{self.outside} of {counts}; {self.first}")


def compare(actual: Sequence[Any], expected: Sequence[Any]) -> list[Comparison]:
    """hswc's results (tensors) against eager PyTorch's, result by result."""
    import torch  # pyright: ignore[reportMissingImports]

    found = []
    for i, (mine, theirs) in enumerate(zip(actual, expected, strict=True)):
        label = f"result {i + 1}: " if len(actual) > 1 else ""
        try:
            torch.testing.assert_close(mine, theirs, equal_nan=True)
            within, message = True, ""
        except AssertionError as error:
            within, message = False, " ".join(str(error).split())
        if mine.shape != theirs.shape or mine.dtype != theirs.dtype:
            found.append(Comparison(label, within, theirs.numel(), 0, theirs.numel(), 0.0,
                                    message, str(theirs.dtype)))
            continue
        found.append(_counted(label, within, mine, theirs, message))
    return found


def _counted(label: str, within: bool, mine: Any, theirs: Any, message: str) -> Comparison:
    import torch  # pyright: ignore[reportMissingImports]

    a, b = mine.double(), theirs.double()
    both_nan = a.isnan() & b.isnan()
    equal = (a == b) | both_nan
    rtol, atol = DEFAULT_TOLERANCES.get(str(theirs.dtype), (0.0, 0.0))
    close = torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    numbers = a.isfinite() & b.isfinite()
    largest = float((a - b).abs()[numbers].max()) if bool(numbers.any()) else 0.0
    first = message
    if not bool(close.all()):
        index = tuple(int(k) for k in (~close).nonzero()[0])
        first = (f"the first at index {index}: hswc {float(a[index]):.6g}, PyTorch "
                 f"{float(b[index]):.6g}")
    return Comparison(label, within, b.numel(), int(equal.sum()), int((~close).sum()), largest,
                      first, str(theirs.dtype))
