"""The schedule options that hsg-tile-on-cores and convert-hsg-to-ascend share.

Both passes take the same options, so one spelling picks the kernel's schedule and the UB plan
the tiling divides by (hswc.vectorizer.plan, the one place that derives it):

    hsg-tile-on-cores{variant=fast},hsg-block-into-ub,convert-hsg-to-ascend{variant=fast}
    ...{double-buffer=true scalar-compare=true in-place=true early-free=true x-first=true}

`variant` names a preset (hswc.vectorizer.schedule.PRESETS); a flag given next to it overrides
the preset. hsg-tile-on-cores records the UB plan it tiled by on the kernel function as
`hsg.ub_plan` when it is not the reference kernel's budget; convert-hsg-to-ascend refuses a
kernel whose recorded plan is not the plan of its own options, since its buffers would then not
be what the tiling made room for.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import PassFailedException

from hswc.tiling import UbPlan
from hswc.vectorizer.schedule import FLAGS, PRESETS, REFERENCE, Schedule

UB_PLAN_ATTR = "hsg.ub_plan"
"""On a kernel function: the UB plan its tiling divided by."""

_PLAN_FIELDS = tuple(field.name for field in fields(UbPlan))


@dataclass(frozen=True, kw_only=True)
class ScheduleOptions:
    """Pass options selecting the schedule; all unset is the reference structure.

    Keyword-only, so the passes' own options keep their positions."""

    variant: str | None = None
    """A preset: reference or fast (every flag on)."""
    double_buffer: bool | None = None
    """TQue depth 2 for the inputs and the output."""
    scalar_compare: bool | None = None
    """CompareScalar and Select(VSEL_TENSOR_SCALAR_MODE) instead of constant buffers."""
    in_place: bool | None = None
    """Let results take the buffers of any operand they replace."""
    early_free: bool | None = None
    """Free each input buffer right after its last use."""
    x_first: bool | None = None
    """Take each input only when first needed, so compute starts while others arrive."""

    def schedule(self, pass_name: str) -> Schedule:
        """The schedule these options select; an unknown preset is a pass failure."""
        base = REFERENCE
        if self.variant is not None:
            if self.variant not in PRESETS:
                known = ", ".join(PRESETS)
                raise PassFailedException(
                    f"{pass_name}: unknown variant '{self.variant}' (known: {known})"
                )
            base = PRESETS[self.variant]
        given = {name: getattr(self, name) for name in FLAGS}
        return replace(base, **{name: on for name, on in given.items() if on is not None})


def plan_attribute(plan: UbPlan) -> DictionaryAttr:
    """`{bytes_per_element = 21 : i64, ub_reserve = 8704 : i64, align_elements = 64 : i64}`."""
    return DictionaryAttr({name: IntegerAttr(getattr(plan, name), 64) for name in _PLAN_FIELDS})


def read_plan(op: Operation, name: str) -> UbPlan | None:
    """The UB plan stored under `name` on op; None when there is none; OSError-free: a
    malformed attribute is a ValueError."""
    attr: Attribute | None = op.attributes.get(name)
    if attr is None:
        return None
    if not isinstance(attr, DictionaryAttr):
        raise ValueError(f"{name} is not a dictionary of {', '.join(_PLAN_FIELDS)}")
    values: dict[str, int] = {}
    for field_name in _PLAN_FIELDS:
        entry = attr.data.get(field_name)
        if not isinstance(entry, IntegerAttr):
            raise ValueError(f"{name} has no integer {field_name}")
        values[field_name] = entry.value.data
    return UbPlan(**values)


def describe_plan(plan: UbPlan) -> str:
    return (f"{plan.bytes_per_element} bytes per element, {plan.ub_reserve} bytes reserved, "
            f"ubFactor a multiple of {plan.align_elements}")
