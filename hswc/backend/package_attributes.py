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
        if a.integer:
            continue  # served_checks
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


@dataclass(frozen=True)
class ServedCheck:
    """`condition` must hold, else the call fails with `message`, whose `%lld`s print
    `arguments` (int64 C++ expressions)."""

    condition: str
    message: str
    arguments: tuple[str, ...]


def normalised_dim(value: str, rank: str) -> str:
    """An integer attribute's value `value` counted from the front of `rank` dims, as
    torch's dims are (-1: the last), in C++."""
    return f"({value} < 0 ? {value} + {rank} : {value})"


def served_checks(d: Description, value: Callable[[Attribute], str],
                  name: Callable[[Attribute], str], rank: str) -> list[ServedCheck]:
    """The checks of every integer attribute (a dim, Attribute.serves), `rank` the input's rank
    in C++: within [-rank, rank), then, normalised, the one dim the kernel's rows are."""
    checks: list[ServedCheck] = []
    for a in d.attributes:
        if a.serves is None:
            continue
        v, n = value(a), name(a)
        checks += [
            ServedCheck(f"{v} >= -{rank} && {v} < {rank}",
                        f"{n} %lld is out of range for an input of rank %lld", (v, rank)),
            ServedCheck(f"{normalised_dim(v, rank)} == {a.serves}",
                        f"{n} %lld (dim %lld of an input of rank %lld) is not supported: the "
                        f"kernel was compiled for {n} {a.serves}, and a kernel of another "
                        "dim's rows cannot serve it", (v, normalised_dim(v, rank), rank))]
    return checks


def cpp_type(a: Attribute) -> str:
    """How the host code holds the attribute's value."""
    return "int64_t" if a.integer else "float"


def aclnn_parameter(a: Attribute) -> str:
    """The aclnn API's parameter of the attribute: an int64_t as ops-nn's aclnnSoftmax takes
    its dim, else a host `const aclScalar*`."""
    return f"int64_t {a.aclnn}" if a.integer else f"const aclScalar* {a.aclnn}"


def float_attributes(d: Description) -> tuple[Attribute, ...]:
    """The attributes attribute_checks checks (the floats)."""
    return tuple(a for a in d.attributes if not a.integer)


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
