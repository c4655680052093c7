"""The named operators: each one's semantics, written once as an elementwise body."""

from __future__ import annotations

from hswc.ops.definition import OpDefinition
from hswc.ops.exponential_defs import EXPONENTIAL
from hswc.ops.hard_sigmoid import HARD_SIGMOID, HARD_SIGMOID_GRAD
from hswc.ops.hard_swish import HARD_SWISH
from hswc.ops.hard_swish_grad import HARD_SWISH_GRAD
from hswc.ops.hardtanh import HARDTANH, HARDTANH_GRAD
from hswc.ops.leaky_relu import LEAKY_RELU, LEAKY_RELU_GRAD
from hswc.ops.shrink import HARD_SHRINK, HARD_SHRINK_GRAD, SOFTSHRINK, SOFTSHRINK_GRAD
from hswc.ops.threshold import THRESHOLD, THRESHOLD_GRAD
from hswc.tiling import UbPlan

OPS: dict[str, OpDefinition] = {d.name: d for d in (
    HARD_SWISH, HARD_SWISH_GRAD, HARD_SIGMOID, HARD_SIGMOID_GRAD, HARDTANH, HARDTANH_GRAD,
    LEAKY_RELU, LEAKY_RELU_GRAD, THRESHOLD, THRESHOLD_GRAD, HARD_SHRINK, HARD_SHRINK_GRAD,
    SOFTSHRINK, SOFTSHRINK_GRAD, *EXPONENTIAL,
)}
"""By stem: `hard_swish_grad` for hsg.hard_swish_grad."""


def budget_of(stem: str, dtype: str) -> UbPlan | None:
    """The one reference-schedule budget of operator `stem`'s `dtype` kernels, if it has
    exactly one: what a kernel without a recorded `hsg.ub_plan` was tiled by."""
    definition = OPS.get(stem)
    made = [budget(dtype) for budget in definition.budgets.values()] if definition else []
    plans = {b.plan(1) for b in made if b.schedule == "reference"}
    return plans.pop() if len(plans) == 1 else None


def definition_of(op_name: str) -> OpDefinition:
    """The definition of `hsg.<stem>` or `<stem>`; KeyError for an unknown op."""
    return OPS[op_name.removeprefix("hsg.")]
