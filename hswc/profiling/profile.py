"""hswc.profiling.profile: model one launch of a lowered elementwise kernel.

    report = profile(module, shape=(4, 1 << 20), dtype="f16", platform="ascend910b")
    print(report.summary()); report.write_trace("/tmp/hsg.json")

The module may be high level (named ops or linalg.generic; it is lowered here with the given
schedule) or lowered (`--lower-to-ascend`, any schedule options). The tiling comes from the
module's host tiling function run on (elements, cores, UB bytes), so it is whatever that IR
computes; a kernel function handed in alone is tiled with hswc.tiling and its recorded UB plan.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from math import prod

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, MemRefType, ModuleOp, StringAttr

from hswc.cost_model.report import Report
from hswc.cost_model.schedule import CoreClass, simulate
from hswc.cost_model.stream import (
    CoreProgram,
    CostModelError,
    core_program,
    evaluate_function,
)
from hswc.dialects import ascend, hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.ops import budget_of
from hswc.ops.definition import camel
from hswc.passes.hsg_decompose import UB_BUDGET_ATTR
from hswc.passes.schedule_options import SCHEDULE_ATTR, UB_PLAN_ATTR, read_plan
from hswc.platform import DEFAULT_SOC, CostFigures, Platform, get_platform
from hswc.tiling import Tiling, compute_tiling, core_slice
from hswc.vectorizer.schedule import FLAGS, PRESETS, Schedule

DTYPE_NAMES = {"float16": "f16", "half": "f16", "float32": "f32", "float": "f32",
               "bfloat16": "bf16", "f16": "f16", "f32": "f32", "bf16": "bf16"}


def dtype_name(dtype: object) -> str:
    name = getattr(dtype, "name", None) or str(dtype)
    if name not in DTYPE_NAMES:
        raise ValueError(f"unsupported dtype {dtype!r} (f16, bf16, f32)")
    return DTYPE_NAMES[name]


def named_schedule(variant: Schedule | str | None) -> Schedule | None:
    if isinstance(variant, str):
        if variant not in PRESETS:
            raise ValueError(f"unknown variant '{variant}' (known: {', '.join(PRESETS)})")
        return PRESETS[variant]
    return variant


def lower(module: ModuleOp, variant: Schedule | None = None, soc: str | None = None
          ) -> ModuleOp:
    """A lowered clone of a high-level module: --lower-to-ascend with the schedule's options
    (None: none, so every kernel gets its default schedule, hswc.passes.schedule_choice) for
    `soc`'s API table and cost figures (None: the passes' default, A2/A3's), as hswc-emit lowers
    for an SoC: the platform stays unfolded."""
    from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES

    flags: dict[str, object] = {} if variant is None else {
        name: getattr(variant, name) for name in FLAGS}
    if soc is not None:
        flags["api"] = get_platform(soc).api
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    result = module.clone()
    for name in LOWER_TO_ASCEND:
        pass_type = PASSES[name]()
        takes = {f.name for f in dataclasses.fields(pass_type)}  # type: ignore[arg-type]
        pass_type(**{k: v for k, v in flags.items() if k in takes}).apply(ctx, result)
    return result


def kernel_dtype(kernel: func.FuncOp) -> str:
    first = kernel.function_type.inputs.data[0]
    assert isinstance(first, MemRefType)
    return element_type_name(first.get_element_type())


def _find_kernel(module: ModuleOp, dtype: str | None, branch: tuple[int, int, Platform,
                 CostFigures] | None = None) -> func.FuncOp:
    """The module's one kernel (of `dtype`), or of the branches of a kernel of a run-time row
    length, the one its tiling picks at `branch` = (rows, row length, platform, figures)."""
    kernels = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)
               and hsg.is_kernel(op)]
    if dtype is not None:
        kernels = [k for k in kernels if kernel_dtype(k) == dtype]
    if len(kernels) > 1 and branch is not None:
        picked = row_branch(module, kernels, *branch)
        kernels = kernels if picked is None else [picked]
    if len(kernels) != 1:
        what = f"{dtype} " if dtype else ""
        found = "no" if not kernels else f"{len(kernels)}"
        raise ValueError(f"the module has {found} {what}kernel functions; the cost model needs "
                         "exactly one (name the dtype)")
    return kernels[0]


def row_branch(module: ModuleOp, kernels: Sequence[func.FuncOp], total: int, row_length: int,
               platform: Platform, figures: CostFigures) -> func.FuncOp | None:
    """Of `kernels`, the branch of a kernel of a run-time row length (hswc.passes.row_branches)
    the host's tiling picks for `total` rows of `row_length` elements: the kernel whose
    hsg.tiling_key a tiling function taking the row length returns; None where none does."""
    keyed = {k.attributes[hsg.TILING_KEY_ATTR]: k for k in kernels
             if hsg.TILING_KEY_ATTR in k.attributes}
    for fn in module.body.block.ops:
        if isinstance(fn, func.FuncOp) and hsg.TILING_ATTR in fn.attributes \
                and len(fn.function_type.inputs) == 4:
            values = evaluate_function(fn, [total, platform.core_num, platform.ub_size,
                                            row_length], figures)
            for attr, kernel in keyed.items():
                if isinstance(attr, IntegerAttr) and attr.value.data == values[-1]:
                    return kernel
    return None


def _describe(kernel: func.FuncOp) -> str:
    """What the IR says about the kernel's structure (when no variant was named)."""
    depth = {op.result.type.depth.data for op in kernel.walk() if isinstance(op, ascend.TQueOp)
             and isinstance(op.result.type, ascend.TQueType)}
    compares = {"Compares" if isinstance(op, ascend.ComparesOp) else "CompareScalar"
                for op in kernel.walk() if isinstance(op, ascend.ScalarCompareOp)}
    tbufs = sum(isinstance(op, ascend.TBufOp) for op in kernel.walk())
    depths = "/".join(str(d) for d in sorted(depth)) or "?"
    structure = (f"TQue depth {depths}, {'/'.join(sorted(compares)) or 'Compare'}, "
                 f"{tbufs} TBufs")
    chosen = kernel.attributes.get(SCHEDULE_ATTR)
    if not isinstance(chosen, DictionaryAttr):
        return structure
    options, soc, platform, elements = (chosen.data.get(k) for k in
                                        ("options", "soc", "platform", "elements"))
    if not (isinstance(options, StringAttr) and isinstance(soc, StringAttr)
            and isinstance(platform, StringAttr) and isinstance(elements, IntegerAttr)):
        return structure
    where = soc.data if platform.data == "folded" else \
        f"{soc.data} (the default SoC: the platform is known only at run time)"
    return (f"{structure}; schedule chosen by the cost model for {where} at "
            f"{elements.value.data} elements: {options.data}")


def _tiling(module: ModuleOp | None, kernel: func.FuncOp, dtype: str, total: int,
            platform: Platform, figures: CostFigures) -> Tiling[int]:
    """The launch's tiling: the module's host tiling function run on the platform, or for a
    kernel alone, or one variant of a run-time choice (hsg.tiling_key, which its tiling may not
    pick at this size), hswc.tiling on the plan the kernel records."""
    stem, _, suffix = kernel.sym_name.data.rpartition("_kernel_")
    name = f"{stem}_tiling_{suffix}"
    tiling_fn = None
    if module is not None and hsg.TILING_KEY_ATTR not in kernel.attributes:
        tiling_fn = next((op for op in module.body.block.ops if isinstance(op, func.FuncOp)
                          and op.sym_name.data == name), None)
    if tiling_fn is None:
        try:
            plan = read_plan(kernel, UB_PLAN_ATTR) or read_plan(kernel, UB_BUDGET_ATTR)
        except ValueError as error:
            raise CostModelError(kernel, f"has a malformed {UB_PLAN_ATTR}: {error}") from None
        if plan is None:  # tiled by its named op's reference budget
            plan = budget_of(stem, dtype)
        if plan is None:
            raise CostModelError(kernel, f"has no {UB_PLAN_ATTR} to tile it by without its "
                                 "host tiling function")
        return compute_tiling(total, platform.core_num, platform.ub_size, dtype, plan)
    values = evaluate_function(tiling_fn, [total, platform.core_num, platform.ub_size], figures)
    if len(values) != 5:
        raise CostModelError(tiling_fn, "must return the 5 tiling values")
    return Tiling(*values)


def _core_classes(kernel: func.FuncOp, tiling: Tiling[int], figures: CostFigures,
                  family: str = "dav_c220", row_length: int | None = None) -> list[CoreClass]:
    """Cores grouped by the length of their slice; each group's stream is read from the IR for
    its first core and checked equal for its last (`row_length`: a run-time row length's
    kernel argument, after the tiling's three)."""
    groups: dict[int, list[int]] = {}
    for b in range(tiling.used_core_num):
        groups.setdefault(core_slice(tiling, b).length, []).append(b)
    values: tuple[int, ...] = (tiling.total_num, tiling.block_factor, tiling.ub_factor)
    if row_length is not None:
        values = (*values, row_length)
    classes = []
    for cores in groups.values():
        program: CoreProgram = core_program(kernel, cores[0], tiling.used_core_num, values,
                                            figures, family)
        if len(cores) > 1:
            last = core_program(kernel, cores[-1], tiling.used_core_num, values, figures, family)
            if last.signature() != program.signature():
                # Not expected for these kernels; model every core on its own then.
                classes += [CoreClass(core_program(kernel, b, tiling.used_core_num, values,
                                                   figures, family), [b]) for b in cores]
                continue
        classes.append(CoreClass(program, cores))
    return classes


def profile(module_or_kernel: ModuleOp | func.FuncOp, shape: int | Sequence[int],
            dtype: object = None, platform: str | Platform = DEFAULT_SOC, *,
            variant: Schedule | str | None = None,
            figures: CostFigures | None = None, row_length: int | None = None) -> Report:
    """Model one launch of the kernel on `shape` (an element count or a tensor shape; of a
    row kernel, its rows), each row `row_length` elements long where the kernel takes its row
    length at run time (hswc.rows `dynamic`; profile_kernel).

    `platform` is a SoC name or a Platform (its core count and UB size feed the tiling);
    `figures` overrides the platform's cost figures; `variant` chooses the kernel structure
    when the module is still high level (otherwise it must be what the IR was lowered with,
    and only labels the report).
    """
    plat = get_platform(platform) if isinstance(platform, str) else platform
    figs = figures if figures is not None else plat.cost
    total = element_count(shape)
    dt = None if dtype is None else dtype_name(dtype)
    kernel_variant = named_schedule(variant)

    module: ModuleOp | None
    if isinstance(module_or_kernel, ModuleOp):
        module = lowered(module_or_kernel, kernel_variant)
        kernel = _find_kernel(module, dt, None if row_length is None
                              else (total, row_length, plat, figs))
    else:
        module, kernel = None, module_or_kernel
        if not hsg.is_kernel(kernel):
            raise ValueError(f"@{kernel.sym_name.data} is not a kernel function (hsg.kernel)")
    return profile_kernel(module, kernel, total, plat, figs, kernel_variant, row_length)


def element_count(shape: int | Sequence[int]) -> int:
    """The elements of a launch on `shape` (an element count or a tensor shape)."""
    total = shape if isinstance(shape, int) else prod(shape)
    if total < 0:
        raise ValueError(f"a shape has no negative element count, got {shape!r}")
    return total


def _check_row_length(kernel: func.FuncOp, row_length: int | None) -> None:
    """ValueError where `row_length` is missing for a kernel of a run-time row length, given
    for any other, or negative."""
    from hswc.rows import read_rows

    rows = read_rows(kernel)
    dynamic = rows is not None and rows.dynamic
    name = kernel.sym_name.data
    if dynamic and row_length is None:
        raise ValueError(f"@{name} takes its row length at run time: give the row length "
                         "to model it at (row_length)")
    if not dynamic and row_length is not None:
        raise ValueError(f"@{name} has no run-time row length to give {row_length} to")
    if row_length is not None and row_length < 0:
        raise ValueError(f"a row length is not negative, got {row_length}")


def lowered(module: ModuleOp, variant: Schedule | None) -> ModuleOp:
    """The module, or a lowered clone when it is still high level (named ops, generics)."""
    if any(isinstance(op, hsg.NamedOp) or op.name == "linalg.generic" for op in module.walk()):
        return lower(module, variant)
    return module


def profile_kernel(module: ModuleOp | None, kernel: func.FuncOp, total: int, platform: Platform,
                   figures: CostFigures, variant: Schedule | None = None,
                   row_length: int | None = None) -> Report:
    """One launch of `kernel` (of the lowered `module`, whose host tiling function tiles it;
    None: tiled by hswc.tiling) on `total` elements (of a row kernel: rows). A kernel of a
    run-time row length (hswc.rows `dynamic`) needs `row_length`, the elements of each row,
    which it takes after the tiling values; any other kernel refuses one."""
    dt = kernel_dtype(kernel)
    _check_row_length(kernel, row_length)
    label = variant.describe() if variant is not None else _describe(kernel)
    tiling = _tiling(module, kernel, dt, total, platform, figures)
    classes = _core_classes(kernel, tiling, figures, platform.api, row_length) \
        if total > 0 else []
    schedules = simulate(classes, figures)
    stem = kernel.sym_name.data.rpartition("_kernel_")[0] or kernel.sym_name.data
    return Report(dt, total, platform, figures, tiling, label, schedules, camel(stem))
