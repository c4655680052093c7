"""The UB plan a named op's kernel is tiled by, for a dtype and a schedule, without lowering
a module by hand: what hsg-decompose and hsg-tile-on-cores would compute (the tests, the CPU
build and the benches ask for it). Above the passes and the pipeline, which it runs; hswc.ops,
the op definitions, sits below them."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp

from hswc.elementwise import elementwise
from hswc.passes.hsg_decompose import UB_BUDGET_ATTR, HsgDecomposePass
from hswc.passes.schedule_options import read_budget
from hswc.tiling import UbPlan
from hswc.vectorizer.plan import KernelPlan, budget_schedule, plan_kernel, tiling_plan
from hswc.vectorizer.schedule import REFERENCE, Schedule


def _op_module(op_name: str, dtype: str) -> ModuleOp:
    """`hsg.<op_name>` on tensor<?x<dtype>> (attributes without a default at 0.0)."""
    from hswc.ops import definition_of
    from hswc.pipeline import parse_text

    return parse_text(definition_of(op_name).single_op_text(dtype, function="f"), f"<{op_name}>")


def op_kernel_plan(op_name: str, dtype: str, schedule: Schedule = REFERENCE,
                   semantics: str | None = None, depth: int = 1) -> tuple[KernelPlan, UbPlan]:
    """The kernel plan of `hsg.<op_name>` on `dtype`, and the UB plan its tiling divides by
    (of a schedule chosen at run time, those of its variant with queues of `depth`)."""
    module = _op_module(op_name, dtype)
    HsgDecomposePass(semantics=semantics).apply(Context(), module)
    generic = next(op for op in module.walk() if isinstance(op, GenericOp))
    ew = elementwise(generic)
    fixed = schedule.with_depth(depth) if schedule.chosen_at_run_time else schedule
    budget = read_budget(generic, UB_BUDGET_ATTR)
    kernel = plan_kernel(ew.dag, budget_schedule(fixed, budget, schedule), dtype,
                         ew.output_name())
    return kernel, tiling_plan(kernel, budget, schedule)[0]


def default_ub_plan(op_name: str, dtype: str, semantics: str | None = None) -> UbPlan:
    """The UB plan the tiling of `hsg.<op_name>`'s default kernel divides by: the schedule the
    cost model chooses (hswc.passes.schedule_choice), or its CANN kernel's budget."""
    from hswc.passes.hsg_tile_on_cores import HsgTileOnCoresPass
    from hswc.passes.schedule_options import UB_PLAN_ATTR, read_plan

    module = _op_module(op_name, dtype)
    ctx = Context()
    HsgDecomposePass(semantics=semantics).apply(ctx, module)
    generic = next(op for op in module.walk() if isinstance(op, GenericOp))
    budget = read_budget(generic, UB_BUDGET_ATTR)
    HsgTileOnCoresPass().apply(ctx, module)
    kernel = next(op for op in module.body.block.ops if "hsg.kernel" in op.attributes)
    plan = read_plan(kernel, UB_PLAN_ATTR)
    if plan is None:
        assert budget is not None
        reference = budget.plan(1)
        assert reference is not None
        return reference
    return plan


def op_ub_plan(op_name: str, dtype: str, schedule: Schedule = REFERENCE,
               semantics: str | None = None, depth: int = 1) -> UbPlan:
    """The UB plan the tiling of `hsg.<op_name>`'s kernel divides by."""
    return op_kernel_plan(op_name, dtype, schedule, semantics, depth)[1]
