"""The checks of an operator's attributes, as the aclnn layer and the host tiling make them.

Both refuse what the op's verifier and its reference model refuse (hswc.dialects.hsg,
hswc.reference): a value that is not a finite float, a negative one where the op wants none,
one that does not fit the input's dtype where the op converts it to that dtype, a lower bound
above its upper bound. aclnn checks them when it is called, TilingFunc when GE tiles the op
(graph mode does not go through aclnn).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from hswc.backend.cpp_types import float_literal
from hswc.backend.description import Attribute, Description
from hswc.backend.kernels import Kernel
from hswc.interpreter.dtypes import numpy_dtype


@dataclass(frozen=True)
class Check:
    """`condition` must hold, else the call fails with `message` (which names the value)."""

    condition: str
    message: str
    value: str
    """The C++ float the message prints."""


def attribute_checks(d: Description, value: Callable[[Attribute], str],
                     name: Callable[[Attribute], str], dtype: str) -> list[Check]:
    """The checks of every attribute, then of their order; `value(a)` spells a's value in C++,
    `name(a)` in messages, `dtype` the input's data type."""
    checks: list[Check] = []
    for a in d.attributes:
        v, n = value(a), name(a)
        checks.append(Check(f"std::isfinite({v})", f"{n} must be a finite float, got %f", v))
        if a.non_negative:
            checks.append(Check(f"{v} >= 0.0f", f"{n} must not be negative, got %f", v))
        if a.in_dtype:
            checks.append(Check(f"std::fabs({v}) <= LargestFinite({dtype})",
                                f"{n} is beyond the range of the input dtype, got %f", v))
    by_name = {a.name: a for a in d.attributes}
    for low, high in d.ordered:
        lo, hi = by_name[low], by_name[high]
        checks.append(Check(f"{value(lo)} <= {value(hi)}",
                            f"{name(lo)} (%f) is greater than {name(hi)}", value(lo)))
    return checks


def needs_largest(d: Description) -> bool:
    return any(a.in_dtype for a in d.attributes)


def largest_finite_lines(kernels: list[Kernel], spelling: Mapping[str, str],
                         dtype_type: str) -> list[str]:
    """`LargestFinite(dtype)`: the largest finite value of each dtype with a kernel here."""
    lines = ["// The largest finite value of each dtype with a kernel here: an attribute converted",
             "// to the input's dtype must fit it.",
             f"float LargestFinite({dtype_type} dataType)", "{", "    switch (dataType) {"]
    for kernel in kernels:
        largest = ml_dtypes.finfo(numpy_dtype(kernel.element_type)).max
        lines += [f"        case {spelling[kernel.dtype]}:",
                  f"            return {float_literal(float(np.float32(largest)))};"]
    return [*lines, "        default:", "            return 0.0f;", "    }", "}"]
