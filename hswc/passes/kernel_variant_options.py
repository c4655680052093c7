"""The kernel-variant options that hsg-tile-on-cores and convert-hsg-to-ascend share.

Both passes take the same options, so one spelling picks the kernel structure and the UB plan
the tiling divides by (`hswc.tiling.ub_plan`, the one place that derives it):

    hsg-tile-on-cores{variant=fast},hsg-block-into-ub,convert-hsg-to-ascend{variant=fast}
    ...{double-buffer=true scalar-compare=true in-place=true early-free=true x-first=true}

`variant` names a preset (hswc.tiling.VARIANTS); a flag given next to it overrides the preset.
hsg-tile-on-cores records a non-reference plan on the kernel function as `hsg.ub_plan`;
convert-hsg-to-ascend refuses a kernel whose recorded plan is not the plan of its own options,
since its buffers would then not be what the tiling made room for.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr
from xdsl.ir import Attribute
from xdsl.utils.exceptions import PassFailedException

from hswc.tiling import (
    REFERENCE_PLAN,
    REFERENCE_VARIANT,
    VARIANT_FLAGS,
    VARIANTS,
    KernelVariant,
    UbPlan,
)

UB_PLAN_ATTR = "hsg.ub_plan"
"""On a kernel function: the UB plan its tiling used, when it is not the reference's."""

_PLAN_FIELDS = tuple(field.name for field in fields(UbPlan))


@dataclass(frozen=True, kw_only=True)
class KernelVariantOptions:
    """Pass options selecting the kernel variant; all unset is the reference structure.

    Keyword-only, so the passes' own options keep their positions."""

    variant: str | None = None
    """A preset: reference or fast (every flag on)."""
    double_buffer: bool | None = None
    """TQue depth 2 for x, grad and y."""
    scalar_compare: bool | None = None
    """CompareScalar and Select(VSEL_TENSOR_SCALAR_MODE) instead of four constant buffers."""
    in_place: bool | None = None
    """Compute the slope and the product in buffers the kernel already has."""
    early_free: bool | None = None
    """Free each input buffer right after its last read."""
    x_first: bool | None = None
    """Copy x first and compute the slope while grad is still being copied."""

    def kernel_variant(self, pass_name: str) -> KernelVariant:
        """The variant these options select; an unknown preset is a pass failure."""
        base = REFERENCE_VARIANT
        if self.variant is not None:
            if self.variant not in VARIANTS:
                known = ", ".join(VARIANTS)
                raise PassFailedException(
                    f"{pass_name}: unknown variant '{self.variant}' (known: {known})"
                )
            base = VARIANTS[self.variant]
        given = {name: getattr(self, name) for name in VARIANT_FLAGS}
        return replace(base, **{name: on for name, on in given.items() if on is not None})


def plan_attribute(plan: UbPlan) -> DictionaryAttr:
    """`{bytes_per_element = 21 : i64, ub_reserve = 8704 : i64, align_elements = 64 : i64}`."""
    return DictionaryAttr({name: IntegerAttr(getattr(plan, name), 64) for name in _PLAN_FIELDS})


def recorded_plan(kernel: func.FuncOp) -> UbPlan | None:
    """The UB plan hsg-tile-on-cores recorded on `kernel`: the reference's when there is none;
    None when the attribute is malformed."""
    attr: Attribute | None = kernel.attributes.get(UB_PLAN_ATTR)
    if attr is None:
        return REFERENCE_PLAN
    if not isinstance(attr, DictionaryAttr):
        return None
    values: dict[str, int] = {}
    for name in _PLAN_FIELDS:
        entry = attr.data.get(name)
        if not isinstance(entry, IntegerAttr):
            return None
        values[name] = entry.value.data
    return UbPlan(**values)


def describe_plan(plan: UbPlan) -> str:
    return (f"{plan.bytes_per_element} bytes per element, {plan.ub_reserve} bytes reserved, "
            f"ubFactor a multiple of {plan.align_elements}")
