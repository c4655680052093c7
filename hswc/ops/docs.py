"""What a named operator's ops-nn package says about it, and how ops-nn spells its names.

One `OpDocs` per named op, next to its definition (hswc.ops.<op>): the op type and the aclnn
parameters as ops-nn's own operator and aclnn header spell them, a one-line summary, the
formula and the notes of each semantics (how it rounds, what a NaN x gives), a line for each
input, the output and each attribute, and the data of the package's example and kernel unit
test. The package writer (hswc.backend) takes all of it from here; its templates name no op.

Text may name the op's inputs, its output `y` and its attributes as `{name}`: the README
spells them as the kernel does (`grad`, `x`, `negative_slope`), the aclnn doc as aclnn does
(`gradOutput`, `self`, `negativeSlope`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TORCH_NOTES = (
    "Every step is one float32 operation rounded to nearest even, in the order of the formula; "
    "float16 and bfloat16 inputs are widened exactly and the result is rounded once to the "
    "input dtype: PyTorch 2.14's result, bit for bit, for every x that is not NaN."
)
"""How the torch semantics of every op computes (FAMILY.md)."""

Formula = tuple[tuple[str, str], ...]
"""y per element, piecewise: (condition, value) rows; a row with no condition is the whole
formula."""


@dataclass(frozen=True)
class Computation:
    """What one semantics of an op computes, as its docs state it."""

    formula: Formula
    notes: str
    """How the steps round, in a sentence or two (kernel names, no `{name}`)."""
    nan_x: str
    """What a NaN x gives, as the docs say it (`grad`, `+0`, `NaN`, `grad * negative_slope`):
    hswc's result, which torch parity does not cover (FAMILY.md)."""


@dataclass(frozen=True)
class AclnnFlag:
    """A bool parameter of the aclnn API (after the attributes) that leaves the result as it is,
    but is refused together with a negative `non_negative_with` attribute (PyTorch's rule)."""

    name: str
    description: str
    non_negative_with: str


@dataclass(frozen=True)
class OpDocs:
    op_type: str
    """ops-nn's type name of the operator (OpDef, l0op, kernel class): LeakyReluGrad."""
    summary: str
    """What the op computes, in one line (`{name}` for an input)."""
    computations: Mapping[str, Computation]
    """By semantics: one for each of the op's decompositions."""
    parameters: Mapping[str, str]
    """One line for each input, for `y` and for each attribute, by kernel name."""
    aclnn_inputs: tuple[str, ...]
    """aclnn's names of the inputs, in the op's order (`gradOutput`, `self`)."""
    example_inputs: Mapping[str, tuple[float, ...]]
    """The aclnn example's inputs, by input name: a few values, no NaN or infinity."""
    kernel_test_inputs: Mapping[str, tuple[float, ...]]
    """The kernel unit test's inputs: both sides of every threshold, and far outside them."""
    aclnn_output: str = "out"
    aclnn_attributes: Mapping[str, str] = field(default_factory=dict)
    """Attribute -> aclnn parameter, where aclnn does not take the lowerCamel of its name."""
    aclnn_omits: tuple[str, ...] = ()
    """Attributes ops-nn's aclnn API of the op does not take (aclnnHardsigmoid has no alpha
    and beta): the package's API keeps ops-nn's signature and launches them at their default
    (or at the attribute they follow), and a module setting them otherwise is not packaged."""
    aclnn_flags: tuple[AclnnFlag, ...] = ()
    ordered: tuple[tuple[str, str], ...] = ()
    """(a, b): attribute a must not exceed attribute b (the op's verifier says so too)."""
