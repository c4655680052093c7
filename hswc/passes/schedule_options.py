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

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import PassFailedException

from hswc.dialects.int_attrs import int_attr
from hswc.soc_api import FAMILIES
from hswc.tiling import Budget, UbPlan
from hswc.vectorizer.schedule import OPTIONS, PRESETS, REFERENCE, Schedule

UB_PLAN_ATTR = "hsg.ub_plan"
"""On a kernel function: the UB plan its tiling divided by."""
API_ATTR = "hsg.api"
"""On a kernel function tiled for a SoC whose API table is not Atlas A2/A3's: that table's
family (`"dav_3510"`), which convert-hsg-to-ascend then chooses calls from."""

SCHEDULE_ATTR = "hsg.schedule"
"""On a kernel function whose schedule the cost model chose (hswc.passes.schedule_choice): the
schedule and what it was chosen for, e.g. `{options = "double-buffer=true scalar-compare=true
in-place=true early-free=true x-first=true", soc = "ascend910b", platform = "default (known at
run time)", elements = 1048576 : i64}`. convert-hsg-to-ascend without schedule options lowers
the kernel with it."""

_PLAN_FIELDS = tuple(field.name for field in fields(UbPlan))
_OPTIONAL_FIELDS = {"block_align": 1, "most": None, "bank_gaps": 0}
"""Left out of the attribute at their default."""


@dataclass(frozen=True, kw_only=True)
class ScheduleOptions:
    """Pass options selecting the schedule; all unset is the reference structure.

    Keyword-only, so the passes' own options keep their positions."""

    variant: str | None = None
    """A preset (hswc.vectorizer.schedule.PRESETS): reference, fast or arch35."""
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
    argument_order: bool | None = None
    """Copy in, take and free the inputs in argument order."""
    reuse_copies: bool | None = None
    """Cast each input to f32 when first read, into a dead f32 copy's buffer if there is one."""
    whole_repeat_casts: bool | None = None
    """Casts over compute_num lanes, like the other vector instructions."""
    cast_rint: bool | None = None
    """Narrowing Casts to f16 as CAST_RINT."""
    no_pipe_barriers: bool | None = None
    """No PipeBarrier<PIPE_V> between vector steps."""
    raw_queue_tensors: bool | None = None
    """Queue tensors used as they are, without ReinterpretCast views."""
    compares: bool | None = None
    """The scalar compare spelled Compares, not CompareScalar."""
    widened_bf16: bool | None = None
    """bf16 bodies computed in f32 as written, even where the SoC has exact bf16 calls."""
    l2_bypass: bool | None = None
    """Streamed inputs' GlobalTensors set to bypass L2 (SetL2CacheHint(CACHE_MODE_DISABLE))."""
    bank_offsets: bool | None = None
    """Buffers offset so each vector call's UB operands start in different bank groups."""
    api: str | None = None
    """The SoC family's API table to choose calls from (hswc.soc_api: dav_c220, dav_3510);
    default: hsg-tile-on-cores' `soc`'s, or the one recorded on the kernel (hsg.api)."""
    double_buffer_above: int | None = None
    """Choose depth-2 queues at run time when totalNum is above this (two kernels, two keys)."""

    def given(self) -> bool:
        """Whether any schedule option is set (none: the default, chosen per kernel); `api`
        does not count: an API table changes which calls a body may use, not its structure."""
        return any(getattr(self, name) is not None for name in ("variant", *OPTIONS)
                   if name != "api")

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
        if self.api is not None and self.api not in FAMILIES:
            raise PassFailedException(f"{pass_name}: unknown api '{self.api}' (known: "
                                      f"{', '.join(FAMILIES)})")
        given = {name: getattr(self, name) for name in OPTIONS}
        chosen = replace(base, **{name: on for name, on in given.items() if on is not None})
        above = chosen.double_buffer_above
        if above is not None and above < 0:
            raise PassFailedException(f"{pass_name}: double-buffer-above must be a count of "
                                      f"elements, at least 0, got {above}")
        return chosen


def schedule_attribute(schedule: Schedule, soc: str, platform_known: bool,
                       elements: int) -> DictionaryAttr:
    """The SCHEDULE_ATTR of a kernel chosen for `elements` on `soc`."""
    return DictionaryAttr({
        "options": StringAttr(schedule.describe()),
        "soc": StringAttr(soc),
        "platform": StringAttr("folded" if platform_known else "default (known at run time)"),
        "elements": IntegerAttr(elements, 64),
    })


def read_schedule(op: Operation) -> Schedule | None:
    """The schedule SCHEDULE_ATTR on op records; None without one; ValueError for a malformed
    one."""
    attr: Attribute | None = op.attributes.get(SCHEDULE_ATTR)
    if attr is None:
        return None
    options = attr.data.get("options") if isinstance(attr, DictionaryAttr) else None
    if not isinstance(options, StringAttr):
        raise ValueError(f"{SCHEDULE_ATTR} has no options string")
    return parse_schedule(options.data)


def parse_schedule(text: str) -> Schedule:
    """The schedule Schedule.describe() wrote: `reference`, or `flag=true ... api=NAME`."""
    if text == "reference":
        return REFERENCE
    values: dict[str, object] = {}
    for word in text.split():
        name, _, value = word.partition("=")
        field_name = name.replace("-", "_")
        if field_name not in OPTIONS or not value:
            raise ValueError(f"'{word}' is not a schedule option")
        if field_name == "double_buffer_above":
            if not value.isdigit():
                raise ValueError(f"'{word}' is not a count of elements")
            values[field_name] = int(value)
        elif field_name == "api":
            if value not in FAMILIES:
                raise ValueError(f"'{word}' names no API table ({', '.join(FAMILIES)})")
            values[field_name] = value
        elif value in ("true", "false"):
            values[field_name] = value == "true"
        else:
            raise ValueError(f"'{word}' is neither true nor false")
    return replace(REFERENCE, **values)  # type: ignore[arg-type]


def plan_attribute(plan: UbPlan) -> DictionaryAttr:
    """`{bytes_per_element = 21 : i64, ub_reserve = 8704 : i64, align_elements = 64 : i64}`,
    and `block_align` where it is not 1 (a kernel reading broadcast inputs in row runs), `most`
    where the plan bounds its chunks (a row kernel)."""
    return DictionaryAttr({name: int_attr(getattr(plan, name), 64) for name in _PLAN_FIELDS
                           if getattr(plan, name) != _OPTIONAL_FIELDS.get(name, -1)})


def read_plan(op: Operation, name: str) -> UbPlan | None:
    """The UB plan stored under `name` on op; None when there is none; OSError-free: a
    malformed attribute is a ValueError."""
    attr: Attribute | None = op.attributes.get(name)
    if attr is None:
        return None
    if not isinstance(attr, DictionaryAttr):
        raise ValueError(f"{name} is not a dictionary of {', '.join(_PLAN_FIELDS)}")
    return _plan_of(attr, name)


def _plan_of(attr: DictionaryAttr, name: str) -> UbPlan:
    values: dict[str, int] = {}
    for field_name in _PLAN_FIELDS:
        entry = attr.data.get(field_name)
        if entry is None and field_name in _OPTIONAL_FIELDS:
            continue
        if not isinstance(entry, IntegerAttr):
            raise ValueError(f"{name} has no integer {field_name}")
        values[field_name] = entry.value.data
    return UbPlan(**values)


def budget_attribute(budget: Budget) -> DictionaryAttr:
    """A reference-schedule budget of one depth as its plan (`{bytes_per_element = 48 : i64,
    ...}`); any other as `{schedule = "arch35", depth1 = {...}, depth2 = {...}}`."""
    if budget.schedule == "reference" and len(budget.depths) == 1:
        return plan_attribute(budget.depths[0][1])
    entries: dict[str, Attribute] = {"schedule": StringAttr(budget.schedule)}
    entries.update({f"depth{depth}": plan_attribute(plan) for depth, plan in budget.depths})
    return DictionaryAttr(entries)


def read_budget(op: Operation, name: str) -> Budget | None:
    """The budget stored under `name` on op (either form of budget_attribute); None when there
    is none; a ValueError for a malformed one."""
    attr: Attribute | None = op.attributes.get(name)
    if attr is None:
        return None
    if not isinstance(attr, DictionaryAttr):
        raise ValueError(f"{name} is not a dictionary")
    schedule = attr.data.get("schedule")
    if schedule is None:
        plan = read_plan(op, name)
        assert plan is not None
        return Budget("reference", ((1, plan),))
    if not isinstance(schedule, StringAttr) or schedule.data not in PRESETS:
        raise ValueError(f"{name} names no schedule preset (known: {', '.join(PRESETS)})")
    depths: list[tuple[int, UbPlan]] = []
    for key, entry in attr.data.items():
        if key == "schedule":
            continue
        if not key.startswith("depth") or not key[5:].isdigit() \
                or not isinstance(entry, DictionaryAttr):
            raise ValueError(f"{name} has an entry '{key}' that is not depth<n> = {{plan}}")
        depths.append((int(key[5:]), _plan_of(entry, f"{name}.{key}")))
    return Budget(schedule.data, tuple(depths))


def describe_plan(plan: UbPlan) -> str:
    blocks = f", blockFactor a multiple of {plan.block_align}" if plan.block_align != 1 else ""
    return (f"{plan.bytes_per_element} bytes per element, {plan.ub_reserve} bytes reserved, "
            f"ubFactor a multiple of {plan.align_elements}{blocks}")
