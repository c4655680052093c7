"""What hswc knows about a named operator besides its op class: its semantics and its names.

Each `OpDefinition` gives the op's decompositions, one per semantics, each the op's body written
once (hswc.ops.body); the tiling budget of the hand-written CANN kernel a semantics reproduces,
where the reference schedule must tile exactly as that kernel does; the op's aclnn name; and
what its ops-nn package says about it (hswc.ops.docs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.ir import SSAValue

from hswc.dialects.hsg import NamedOp
from hswc.ops.body import BodyBuilder
from hswc.ops.docs import OpDocs
from hswc.tiling import Budget

Decomposition = Callable[[BodyBuilder, Sequence[SSAValue], Mapping[str, SSAValue]], SSAValue]
"""Builds the body from the inputs' elements and the op's attributes (f32 scalars defined
outside the body: run-time values of the kernel); returns the result in the compute type (f32),
which the caller rounds to the element type."""


def camel(stem: str) -> str:
    """An operator's type name from its stem: `hard_swish_grad` -> `HardSwishGrad`."""
    return "".join(word[:1].upper() + word[1:] for word in stem.split("_"))


@dataclass(frozen=True)
class OpDefinition:
    op: type[NamedOp]
    semantics: Mapping[str, Decomposition]
    """Name -> decomposition; the first is the default."""
    aclnn: str
    """The aclnn entry point of the operator (ops-nn naming), e.g. aclnnHardswishBackward."""
    docs: OpDocs
    """What its ops-nn package says about it, and ops-nn's spelling of its names."""
    exact: bool = True
    """Whether the semantics equal PyTorch's bit for bit (the piecewise-linear family); the
    exponential activations (EXPONENTIAL.md) are compared with a tolerance instead."""
    budgets: Mapping[str, Callable[[str], Budget]] = field(default_factory=dict)
    """Semantics -> the UB budget (per element type) that the ops-nn tiling of that kernel
    divides by (its BYTES_PER_ELEMENT and reserve, or its buffer counts), used by the schedule
    preset reproducing that kernel instead of the buffers' own bytes; semantics without one
    are tiled from their buffers."""

    @property
    def name(self) -> str:
        """The op's stem, e.g. `hard_swish_grad` for `hsg.hard_swish_grad`."""
        return self.op.name.removeprefix("hsg.")

    @property
    def default_semantics(self) -> str:
        return next(iter(self.semantics))

    def single_op_text(self, element_type: str, shape: str = "?", attribute: float = 0.0,
                       function: str | None = None) -> str:
        """A module of one function applying this op to `tensor<shape x element_type>`
        operands; attributes without a default set to `attribute` (f32), the others left to
        their defaults. The function is `@<stem>` unless `function` names it."""
        t = f"tensor<{shape}x{element_type}>"
        args = ", ".join(f"%{name}: {t}" for name in self.op.INPUTS)
        operands = ", ".join(f"%{name}" for name in self.op.INPUTS)
        required = ", ".join(f"{spec.name} = {attribute!r} : f32"
                             for spec in self.op.ATTRIBUTES if spec.required)
        attrs = f" {{{required}}}" if required else ""
        return (f"func.func @{function or self.name}({args}) -> {t} {{\n"
                f"  %y = {self.op.name} {operands}{attrs} : {t}\n"
                f"  func.return %y : {t}\n}}\n")
