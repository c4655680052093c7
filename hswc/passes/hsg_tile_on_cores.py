"""hsg-tile-on-cores: split each elementwise linalg.generic over the vector cores, as CANN's
tiling does.

Input: elementwise `linalg.generic` ops on tensors (hswc.elementwise: what hsg-decompose makes
of the named ops, or a user's own), anywhere inside a `func.func`.
Output, per generic: host code in its place (`hsg.num_elements`, the platform queries, a call of
the host tiling function, `hsg.launch`), and, in the enclosing module, per operator and element
type two functions:
- `@<op>_tiling_<dt>(totalNum, coreNum, ubSize)` -> (totalNum, blockFactor, ubFactor,
  usedCoreNum, tilingKey), marked `hsg.tiling`: the formula of hswc.tiling, checks as cf.assert;
- `@<op>_kernel_<dt>(inputs..., y: memref<?xT>, totalNum, blockFactor, ubFactor)`, marked
  `hsg.kernel`: the core's slice from GetBlockIdx(), one `hsg.elementwise_slice` with the body;
  where inputs are broadcast (hswc.broadcast: a bias, a per-row scale, a rank-0 tensor) or read
  through a window (a slice folded into the map; launched on the tensor a static reshape views,
  the same GM data), the kernel and the slice carry `hsg.broadcast`, the count the tiling
  divides is the output's, and
  where some input is read in row runs the tiling aligns blockFactor to a 32-byte block
  (hswc.vectorizer.broadcast_copy.block_align); of dynamic shapes, host code before the
  tiling call compares the run-time dims the inputs must agree on (`tensor.dim`, a
  `cf.assert` naming the input: hswc.elementwise.DimCheck).
`<op>` is the generic's `hsg.op_name`, else the `name` option, else its function's name (made a
name C++ can declare: `@main` gives `main_op`, hswc.cpp_identifiers); a name
taken by a different function gets a number. With a static shape and a named platform (`soc`,
or `core-num` and `ub-size`), the tiling is computed here and the launch gets constants; a
tiling the reference would refuse is an error.

Without schedule options, a generic that has no CANN kernel to reproduce (no `hsg.ub_budget`)
gets the schedule the cost model predicts fastest (hswc.passes.schedule_choice), recorded on its
kernel as `hsg.schedule`. The UB plan the tiling divides by is the body's own
(hswc.vectorizer.plan, for the schedule the options select or the choice: the same as
convert-hsg-to-ascend's), or, for the reference schedule of a named
op whose CANN kernel tiles by a fixed budget (`hsg.ub_budget`, e.g. HardSwishGrad's 48 bytes per
element), that budget; a plan that is not a budget is recorded on both functions as
`hsg.ub_plan`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from io import StringIO

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float32Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from hswc.broadcast import write_broadcast
from hswc.cpp_identifiers import operator_stem, unusable
from hswc.diagnostics import OpError, copy_location, location_of, ops_between
from hswc.dialects import ascend, hsg
from hswc.dialects.ascend import constant_index
from hswc.elementwise import Elementwise, elementwise, generic_kind, host_kind
from hswc.index_arith import IRArith
from hswc.kernel_dtypes import output_dtype
from hswc.ops.definition import camel
from hswc.passes.first_rows import fold_first_rows
from hswc.passes.hsg_decompose import UB_BUDGET_ATTR
from hswc.passes.joint_outputs import join_outputs
from hswc.passes.kernel_functions import (
    INT64_MAX,
    KernelFunctions,
    build_tiling_function,
    display_name,
    enclosing,
    erase_if_dead,
    host_scalars,
    kernel_function_name,
    module_functions,
    scalar_names,
    static_num_elements,
    tiling_function_name,
)
from hswc.passes.packed_outputs import check_packed_outputs, mark_packed_outputs
from hswc.passes.row_branches import keyed_launch
from hswc.passes.row_kernels import AT_ZERO_ATTR, RowTiler
from hswc.passes.schedule_choice import Choice, choose_schedule
from hswc.passes.schedule_options import (
    API_ATTR,
    SCHEDULE_ATTR,
    UB_PLAN_ATTR,
    ScheduleOptions,
    plan_attribute,
    read_budget,
    schedule_attribute,
)
from hswc.passes.shape_sharing import SizeGroups, with_shared_shape
from hswc.platform import MAX_CORE_NUM, MAX_UB_SIZE, get_platform, soc_of_api
from hswc.progress import Progress
from hswc.remarks import remark, warn
from hswc.tiling import (
    RESULT_NAMES,
    TILING_FIELDS,
    TILING_KEYS,
    Plans,
    TilingError,
    Variant,
    block_slice,
    compute_tiling,
    template_tiling_key,
)
from hswc.vectorizer.broadcast_copy import broadcast_plan
from hswc.vectorizer.plan import budget_schedule, plan_kernel, tiling_plan
from hswc.vectorizer.schedule import DEFAULT_API, Schedule

OP_NAME = hsg.OP_NAME_ATTR
F32 = Float32Type()


def _slice_body(ew: Elementwise, scalars: dict[SSAValue, SSAValue]) -> Region:
    """The generic's body without the outputs' arguments (which it does not read), its
    arguments named as the kernel's inputs (the kernel's buffers are named after them), and
    the scalars it captures replaced by the kernel's (`scalars`: host value -> kernel value)."""
    region = Region()
    (ew.stored or ew.op.body).clone_into(region, value_mapper=dict(scalars))
    block = region.block
    for arg in block.args[len(ew.inputs):][::-1]:
        block.erase_arg(arg)
    for arg, name in zip(block.args, ew.input_names(), strict=True):
        arg.name_hint = name
    return region


def _build_kernel_function(name: str, ew: Elementwise) -> func.FuncOp:
    """The device kernel: find this core's slice, hand it to hsg.elementwise_slice. The scalars
    the body captures (an op's attributes) are f32 arguments after the tiling's, narrowed to
    their own type here (exact: the host widened them)."""
    gm = [MemRefType(t, [DYNAMIC_INDEX]) for t in (*ew.input_types, *ew.gm_outputs())]
    index = IndexType()
    count = len(ew.inputs)
    buffer_count = count + len(ew.outputs)
    scalars = ew.dag.scalars
    block = Block(arg_types=[*gm, *[index] * len(TILING_FIELDS), *[F32] * len(scalars)])
    names = (*ew.input_names(), *ew.output_names(), "total_num", "block_factor", "ub_factor",
             *scalar_names(ew.dag.scalars))
    for arg, arg_name in zip(block.args, names, strict=True):
        arg.name_hint = arg_name
    buffers = block.args[:buffer_count]
    total_num, block_factor, ub_factor = \
        block.args[buffer_count: buffer_count + len(TILING_FIELDS)]
    builder = Builder(InsertPoint.at_end(block))
    kernel_scalars: dict[SSAValue, SSAValue] = {}
    for host, arg in zip(scalars, block.args[buffer_count + len(TILING_FIELDS):], strict=True):
        value: SSAValue = arg
        if host.type != F32:
            value = builder.insert(arith.TruncFOp(arg, host.type)).result
            value.name_hint = arg.name_hint
        kernel_scalars[host] = value
    for alias, first in ew.dag.scalar_aliases.items():
        kernel_scalars[alias] = kernel_scalars[first]
    block_idx = builder.insert(ascend.GetBlockIdxOp()).result
    block_idx.name_hint = "block_idx"
    a = IRArith(InsertPoint.at_end(block))
    offset, length = block_slice(a, total_num, block_factor, block_idx)
    offset.name_hint, length.name_hint = "block_offset", "block_length"
    sliced = a.builder.insert(hsg.ElementwiseSliceOp(buffers[:count], buffers[count:], offset,
                                                     length, ub_factor,
                                                     _slice_body(ew, kernel_scalars)))
    a.builder.insert(func.ReturnOp())
    fn = func.FuncOp(name, (tuple(block.arg_types), ()), Region(block))
    fn.attributes[hsg.KERNEL_ATTR] = UnitAttr()
    if len(ew.outputs) > 1:  # how many GM buffers are outputs (the printer's, the emitter's)
        fn.attributes[hsg.OUTPUTS_ATTR] = IntegerAttr(len(ew.outputs), 64)
    if ew.broadcast is not None:  # how its broadcast inputs are read (hswc.broadcast)
        write_broadcast(ew.broadcast, fn, sliced)
    return fn


@dataclass(frozen=True)
class _Kernel:
    """One kernel function to build for a generic."""

    variant: Variant
    depth: int
    own: bool
    """Tiled by its own buffers' plan (recorded as hsg.ub_plan), not by its op's budget."""

    def suffix(self, count: int) -> str:
        """`_depth<d>` after `@<op>_kernel_<dt>` for a variant of a run-time choice."""
        return f"_depth{self.depth}" if count > 1 else ""

    def mark(self, fn: func.FuncOp, count: int) -> None:
        """The attributes saying what the kernel was tiled for: its UB plan unless that is the
        reference kernel's budget; a variant's tiling key and queue depth."""
        if count == 1:
            if self.own:
                fn.attributes[UB_PLAN_ATTR] = plan_attribute(self.variant.plan)
            return
        attr = UB_PLAN_ATTR if self.own else UB_BUDGET_ATTR
        fn.attributes[attr] = plan_attribute(self.variant.plan)
        fn.attributes[hsg.TILING_KEY_ATTR] = IntegerAttr(self.variant.key, IndexType())
        fn.attributes[hsg.QUEUE_DEPTH_ATTR] = IntegerAttr(self.depth, IndexType())


def _flat_source(ew: Elementwise, i: int) -> SSAValue:
    """What the launch passes for input i: for an input read through a window (a slice folded
    into its map: hswc.broadcast) that is a static reshape of another tensor (hsg-fold-slices'
    view), that tensor, whose row-major data, and so GM buffer, is the same; else the input."""
    value = ew.inputs[i]
    reshape = value.owner
    if (ew.broadcast is None or ew.broadcast.window(i) is None
            or not isinstance(reshape, tensor.ExpandShapeOp | tensor.CollapseShapeOp)):
        return value
    source = reshape.operands[0]
    t = source.type
    if not isinstance(t, TensorType) or not t.has_static_shape():
        return value
    return source


def _erase_generic(op: GenericOp) -> None:
    """The launched generic erased, with its inits and the views (_flat_source) only it read."""
    inits = [out.owner for out in op.outputs]
    views = [v.owner for v in op.inputs
             if isinstance(v.owner, tensor.ExpandShapeOp | tensor.CollapseShapeOp)]
    Rewriter.erase_op(op)
    for init in dict.fromkeys(inits):
        erase_if_dead(init)
    for view in dict.fromkeys(views):
        if not view.results[0].uses:
            Rewriter.erase_op(view)


def _launch(builder: Builder, kernels: list[tuple[int, str]], values: list[SSAValue],
            ew: Elementwise, scalars: list[SSAValue]) -> list[SSAValue]:
    """hsg.launch of the kernel (its results: one per output); of several, the one whose key
    the tiling returned (hswc.passes.row_branches.keyed_launch: the first kernel runs when no
    other key matches)."""
    inputs = [_flat_source(ew, i) for i in range(len(ew.inputs))]

    def one(inner: Builder, name: str) -> list[SSAValue]:
        launch = inner.insert(hsg.LaunchOp(name, values[3], inputs, values[: len(TILING_FIELDS)],
                                           scalars, [r.type for r in ew.results]))
        for value, result in zip(launch.ys, ew.results, strict=True):
            value.name_hint = result.name_hint
        return list(launch.ys)

    made = keyed_launch(builder, kernels[::-1], values[4], one, [r.type for r in ew.results])
    for value, result in zip(made, ew.results, strict=True):
        value.name_hint = result.name_hint
    return made


def _replace_results(ew: Elementwise, results: list[SSAValue]) -> None:
    """Every use of each of the generic's results reads the launch's."""
    for old, new in zip(ew.results, results, strict=True):
        old.replace_all_uses_with(new)


def _body_key(ew: Elementwise, named: bool = True) -> tuple[object, ...]:
    """What the kernel built from a generic depends on, as a value: two generics with equal
    keys get the same kernel function (so it is built and compared once, not per generic).
    Without `named`, the names its arguments and buffers take from the generic's values are
    left out: what the schedule choice depends on (names time alike), so a module of many
    generics of one body under different names chooses once."""
    block = ew.op.body.block
    numbers: dict[SSAValue, int] = {arg: i for i, arg in enumerate(block.args)}
    outside: dict[SSAValue, int] = {}
    ops: list[tuple[object, ...]] = []
    for body_op in block.ops:
        if body_op.regions:  # not elementwise (refused elsewhere): compare the text instead
            stream = StringIO()
            Printer(stream=stream).print_region(ew.op.body)
            ops = [(stream.getvalue(),)]
            break
        operands = tuple(numbers[v] if v in numbers else ~outside.setdefault(v, len(outside))
                         for v in body_op.operands)
        ops.append((body_op.name, operands, tuple(r.type for r in body_op.results),
                    tuple(sorted(body_op.properties.items())),
                    tuple(sorted(body_op.attributes.items()))))
        for result in body_op.results:
            numbers[result] = len(numbers)
    names = (tuple(ew.input_names()), *ew.output_names(), tuple(scalar_names(ew.dag.scalars))) \
        if named else ()
    return (ew.element_type, ew.input_types, tuple(block.arg_types), *names,
            tuple(v.type for v in ew.dag.scalars), tuple(ops), ew.broadcast)


@dataclass(frozen=True)
class HsgTileOnCoresPass(ScheduleOptions, ModulePass):
    """Host tiling + per-core kernel for every elementwise generic (module docstring)."""

    name = "hsg-tile-on-cores"

    soc: str | None = None
    """Fold the platform queries to this SoC's figures (hswc.platform)."""
    core_num: int | None = None
    """Fold GetCoreNumAiv() to this (overrides the SoC's)."""
    ub_size: int | None = None
    """Fold the UB size query to this many bytes (overrides the SoC's)."""
    kernel_name: str | None = None
    """The operator name of generics that carry no hsg.op_name (default: their function's)."""
    rows: bool = True
    """Make each row region (a reduction along trailing dims, or over leading dims keeping the
    dims between, and the elementwise work around it, hswc.row_regions) one row kernel
    (hswc.passes.row_kernels); false: its generics are tiled one by one, the reductions left on
    the host."""
    split: bool = True
    """Cut a reduction over leading dims whose rows (the kept channels) are fewer than the
    cores into a kernel of partials and a kernel combining them (hswc.passes.row_split); false:
    one kernel, a row a core (hswc-emit lowers so: a package is one kernel)."""
    share_shapes: bool = True
    """Give a broadcast kernel its outermost dim at run time where that costs nothing
    (hswc.passes.shape_sharing): one kernel for every size of it; false: every kernel of its
    static shapes (hswc-emit lowers so: a package's example runs its kernel's own shapes)."""

    def platform(self) -> tuple[int | None, int | None]:
        """(core count, UB bytes) to fold, each None where the pass options name none."""
        core_num = self.core_num
        ub_size = self.ub_size
        if self.soc is not None:
            try:
                base = get_platform(self.soc)
            except ValueError as error:
                raise PassFailedException(f"{self.name}: {error}") from None
            core_num = base.core_num if core_num is None else core_num
            ub_size = base.ub_size if ub_size is None else ub_size
        for option, value, most in (("core-num", core_num, MAX_CORE_NUM),
                                    ("ub-size", ub_size, MAX_UB_SIZE)):
            if value is not None and not 1 <= value <= most:
                raise PassFailedException(
                    f"{self.name}: {option} must be a positive integer of at most {most} "
                    f"(hswc.platform's bound for an Ascend SoC), got {value}"
                )
        return core_num, ub_size

    def figures_soc(self, schedule: Schedule) -> str:
        """The SoC whose figures (cost, UB, cores where none is folded) the schedule choices
        use: the named one, else the one the schedule's API column is written for (hswc-run and
        hswc-emit name the 950's API table without folding its platform)."""
        return self.soc if self.soc is not None else soc_of_api(schedule.api)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        platform = self.platform()
        schedule = self.schedule(self.name)  # an unknown preset fails before any rewrite
        if self.api is None and self.soc is not None:
            schedule = replace(schedule, api=get_platform(self.soc).api)
        if self.kernel_name is not None and not self.kernel_name.isidentifier():
            raise PassFailedException(f"{self.name}: kernel-name must be a C identifier, got "
                                      f"'{self.kernel_name}'")
        why = None if self.kernel_name is None else unusable(self.kernel_name)
        if why is not None:
            raise PassFailedException(f"{self.name}: kernel-name={self.kernel_name} cannot name a "
                                      f"kernel entry: {why}; choose another name")
        _refuse_named(op)
        mark_packed_outputs(op)
        functions: dict[Operation, KernelFunctions] = {}
        if self.rows:
            soc = self.figures_soc(schedule)
            chooser = None if self.given() else replace(
                get_platform(soc).with_overrides(*platform), api=schedule.api)
            cores = 0 if not self.split else \
                platform[0] if platform[0] is not None else get_platform(soc).core_num
            RowTiler(*platform, schedule, self.kernel_name, get_platform(soc).ub_size, chooser,
                     soc, cores).tile_module(op, functions)
        found_ops = list(op.walk())
        generics = sum(1 for o in found_ops if isinstance(o, GenericOp))
        sizes = self._size_groups(found_ops)
        # A whole model's partition takes a while: on a terminal, one line of how far it is.
        host: list[tuple[Operation, str]] = []
        with Progress(generics, self.name) as progress:
            for found in found_ops:
                if found.parent is None or AT_ZERO_ATTR in found.attributes:
                    continue  # erased with the generic it was in; a row region's copy
                if not isinstance(found, GenericOp):
                    if (kind := host_kind(found)) is not None:
                        host.append((found, kind))
                    continue
                progress.working_on(location_of(found) or found.name)
                self._partition(found, schedule, platform, functions, sizes)
                progress.advance()
        join_outputs(op)  # results inserted into one tensor: one output (joint_outputs)
        fold_first_rows(op)  # a row count read from a tensor (hsg.first_rows)
        check_packed_outputs(op)
        for found, kind in host:  # a view a launch reads through is gone (_flat_source)
            if found.parent is not None:
                remark(found, f"stays on the host ({kind})")

    def _size_groups(self, found_ops: list[Operation]) -> SizeGroups | None:
        """With `share_shapes`, the run-time sizes each shared description takes in the
        module (hswc.passes.shape_sharing.SizeGroups), of every generic to be tiled."""
        if not self.share_shapes:
            return None
        sizes = SizeGroups()
        for found in found_ops:
            if isinstance(found, GenericOp) and (OP_NAME in found.attributes
                                                 or generic_kind(found) is None):
                try:
                    sizes.add(elementwise(found))
                except (OpError, ValueError):
                    continue  # stays on the host, or fails in _tile with its message
        return sizes

    def _partition(self, found: GenericOp, schedule: Schedule,
                   platform: tuple[int | None, int | None],
                   functions: dict[Operation, KernelFunctions],
                   sizes: SizeGroups | None = None) -> None:
        """A generic made a kernel, or left on the host with a remark or a warning."""
        if OP_NAME not in found.attributes and (kind := generic_kind(found)) is not None:
            remark(found, f"stays on the host ({kind})")
            return
        try:
            self._tile(found, schedule, platform, functions, sizes)
        except OpError as error:
            _stay_on_host(found, error)

    def _tile(self, op: GenericOp, schedule: Schedule,
              platform: tuple[int | None, int | None],
              functions: dict[Operation, KernelFunctions],
              sizes: SizeGroups | None = None) -> None:
        fn = enclosing(op, func.FuncOp)
        module = enclosing(op, ModuleOp)
        if fn is None or module is None:
            raise OpError(op, "must be inside a func.func to be tiled: the launch is host code",
                          display_name(op))
        ew = self._elementwise(op, sizes)
        dtype = ew.dtype
        assert isinstance(fn, func.FuncOp) and isinstance(module, ModuleOp)
        op_name = ew.op_name or self.kernel_name or operator_stem(fn.sym_name.data)
        table = module_functions(functions, module)
        body = _body_key(ew)
        plan_key = (body, dtype, tuple(sorted(op.attributes.items())))
        planned = table.plans.get(plan_key)
        if planned is None:
            planned = table.plans[plan_key] = self._planned(ew, dtype, platform, schedule)
        choice, kernels = planned
        if choice is not None:
            schedule = choice.schedule
        plans: Plans = kernels[0].variant.plan if len(kernels) == 1 \
            else tuple(k.variant for k in kernels)
        own_plan = len(kernels) == 1 and kernels[0].own
        self._check_static_tiling(ew, dtype, plans, platform, camel(op_name))

        def tiling() -> func.FuncOp:
            fn = build_tiling_function(tiling_function_name(op_name, dtype), dtype, plans)
            if own_plan:
                fn.attributes[UB_PLAN_ATTR] = plan_attribute(kernels[0].variant.plan)
            return fn

        tiling_name = table.ensure_built(("tiling", op_name, dtype, plans, own_plan), tiling, op)
        launched: list[tuple[int, str]] = []
        for k in kernels:
            def kernel(k: _Kernel = k) -> func.FuncOp:
                fn = _build_kernel_function(
                    kernel_function_name(op_name, dtype) + k.suffix(len(kernels)), ew)
                k.mark(fn, len(kernels))
                _mark_choice(fn, choice)
                if schedule.api != DEFAULT_API:
                    fn.attributes[API_ATTR] = StringAttr(schedule.api)
                return fn

            key = ("kernel", op_name, dtype, k, len(kernels), body, schedule)
            launched.append((k.variant.key, table.ensure_built(key, kernel, op)))

        before = op.prev_op
        _check_broadcast_dims(op, ew, camel(op_name))
        values = self._host_tiling(op, ew, dtype, plans, platform, tiling_name)
        builder = Builder(InsertPoint.before(op))
        scalars = host_scalars(builder, ew.dag.scalars)
        folded = constant_index(values[4])
        if folded is not None:  # the tiling is known: launch the kernel of its key
            launched = [(key, name) for key, name in launched if key == folded]
        results = _launch(builder, launched, values, ew, scalars)
        copy_location(op, ops_between(before, op))
        _replace_results(ew, results)
        names = ", ".join(f"@{name}" for _, name in launched)
        remark(op, f"becomes a launch of {names}", display_name(op))
        _erase_generic(op)

    def _elementwise(self, op: GenericOp, sizes: SizeGroups | None = None) -> Elementwise:
        """The checked generic; with `share_shapes`, of its shared broadcast where that is
        free (one kernel for every channel count, bounded by the largest of `sizes`' group:
        hswc.passes.shape_sharing)."""
        try:
            ew = elementwise(op)
        except OpError as error:
            if error.op is op:
                error.name = display_name(op)
            raise
        if not self.share_shapes:
            return ew
        return with_shared_shape(ew) if sizes is None else sizes.shared(ew)

    def _check_static_tiling(self, ew: Elementwise, dtype: str, plans: Plans,
                             platform: tuple[int | None, int | None], title: str) -> None:
        """Refuse, before anything is built, a count a 64-bit tiling cannot hold, and a
        static shape that the tiling refuses on the named platform."""
        op = ew.op
        total = static_num_elements(_counted(ew).type)
        if total is not None and total > INT64_MAX:
            raise OpError(op, f"has {total} elements, more than a 64-bit count can hold",
                          display_name(op))
        core_num, ub_size = platform
        if total is None or core_num is None or ub_size is None:
            return
        try:
            compute_tiling(total, core_num, ub_size, dtype, plans)
        except TilingError as error:
            raise OpError(op, f"cannot be tiled for core-num={core_num} ub-size={ub_size}: "
                          f"{title} {error}", display_name(op)) from None

    def _planned(self, ew: Elementwise, dtype: str, platform: tuple[int | None, int | None],
                 schedule: Schedule) -> tuple[Choice | None, list[_Kernel]]:
        """The schedule chosen for the generic (None: the options') and its kernels."""
        choice = self._choose(ew, dtype, platform, schedule)
        return choice, self._plan(ew, schedule if choice is None else choice.schedule, dtype)

    def _choose(self, ew: Elementwise, dtype: str,
                platform: tuple[int | None, int | None], schedule: Schedule) -> Choice | None:
        """The schedule the cost model picks for this generic (hswc.passes.schedule_choice),
        when no schedule option is given and it has no CANN kernel's budget to reproduce; None
        otherwise (the options' schedule)."""
        try:
            if self.given() or read_budget(ew.op, UB_BUDGET_ATTR) is not None:
                return None
            core_num, ub_size = platform
            target = get_platform(self.figures_soc(schedule)).with_overrides(core_num, ub_size)
            target = replace(target, api=schedule.api)
            name = kernel_function_name("choice", dtype)  # one name: the same body, one choice
            choice = choose_schedule(_body_key(ew, named=False),
                                     lambda: _build_kernel_function(name, ew), ew.dag,
                                     dtype, ew.output_names(), target,
                                     core_num is not None and ub_size is not None,
                                     static_num_elements(_counted(ew).type),
                                     broadcast=ew.broadcast)
        except ValueError as error:
            raise OpError(ew.op, f"cannot be tiled: {error}", display_name(ew.op)) from None
        return replace(choice, schedule=replace(choice.schedule, api=schedule.api))

    def _plan(self, ew: Elementwise, schedule: Schedule, dtype: str) -> list[_Kernel]:
        """The kernels to build: one, or one per variant of a run-time choice, each with the UB
        plan it is tiled by and whether that is its own (not a named op's budget)."""
        try:
            budget = read_budget(ew.op, UB_BUDGET_ATTR)
            kernels = []
            variants = schedule.variants()
            for index, (fixed, above) in enumerate(variants):
                fixed = budget_schedule(fixed, budget, schedule)
                kernel = plan_kernel(ew.dag, fixed, dtype, ew.output_names())
                plan, own = tiling_plan(kernel, budget, schedule)
                plan = broadcast_plan(plan, ew.broadcast, kernel.input_dtypes)
                key = template_tiling_key(output_dtype(dtype), index) if len(variants) > 1 \
                    else TILING_KEYS[output_dtype(dtype)]
                kernels.append(_Kernel(Variant(plan, key, above), fixed.queue_depth, own))
            return kernels
        except ValueError as error:
            raise OpError(ew.op, f"cannot be tiled: {error}", display_name(ew.op)) from None

    def _host_tiling(self, op: GenericOp, ew: Elementwise, dtype: str, plans: Plans,
                     platform: tuple[int | None, int | None],
                     tiling_name: str) -> list[SSAValue]:
        """The launch's tiling values: folded constants, or a call of the tiling function."""
        core_num, ub_size = platform
        builder = Builder(InsertPoint.before(op))
        a = IRArith(InsertPoint.before(op))
        first = _counted(ew)
        total = static_num_elements(first.type)
        if total is not None and core_num is not None and ub_size is not None:
            tiling = compute_tiling(total, core_num, ub_size, dtype, plans)  # checked before
            return [a.const(v, name) for v, name in zip(tiling.as_tuple(), RESULT_NAMES,
                                                         strict=True)]
        # Named constants: never an earlier constant that the name hints below would rename.
        n = (a.const(total, "total_num") if total is not None
             else builder.insert(hsg.NumElementsOp(first)).result)
        cores = (a.const(core_num, "core_num") if core_num is not None
                 else builder.insert(hsg.GetCoreNumAivOp()).result)
        ub = (a.const(ub_size, "ub_size") if ub_size is not None
              else builder.insert(hsg.GetUbSizeOp()).result)
        n.name_hint, cores.name_hint, ub.name_hint = "total_num", "core_num", "ub_size"
        call = builder.insert(func.CallOp(tiling_name, [n, cores, ub], [IndexType()] * 5))
        values: list[SSAValue] = list(call.results)
        for value, name in zip(values, RESULT_NAMES, strict=True):
            value.name_hint = name
        return values


def _counted(ew: Elementwise) -> SSAValue:
    """The tensor whose element count the tiling divides: the first input's, or with
    broadcast inputs the output's (an input may be a smaller weight)."""
    return ew.inputs[0] if ew.broadcast is None else ew.op.outputs[0]


def _check_broadcast_dims(op: GenericOp, ew: Elementwise, title: str) -> None:
    """Host code before the launch of a broadcast of dynamic shapes: each run-time dim that
    must agree for the inputs to broadcast (hswc.elementwise.DimCheck), compared and asserted
    with a message naming the input, so a weight of the wrong length stops the host, never
    reads past its buffer."""
    if not ew.dim_checks:
        return
    a = IRArith(InsertPoint.before(op))
    names = ew.input_names()
    source = next(i for i, s in enumerate(ew.broadcast.strides) if s is None) \
        if ew.broadcast is not None else 0

    def dim(i: int, d: int) -> SSAValue:
        found = a.builder.insert(tensor.DimOp(ew.inputs[i], a.const(d))).result
        found.name_hint = f"{names[i]}_dim{d}"
        return found

    for check in ew.dim_checks:
        actual = dim(check.input, check.dim)
        if check.size is not None:
            expected, what = a.const(check.size), f"{check.size}"
        else:
            expected = dim(source, check.output_dim)
            what = f"dim {check.output_dim} of {names[source]}"
        role = "broadcast" if ew.broadcast is not None \
            and ew.broadcast.strides[check.input] is not None else "read at the output's index"
        a.check(a.eq(actual, expected),
                f"{title}: input {names[check.input]} ({role}) does not broadcast: its dim "
                f"{check.dim} must be {what} at run time")


def _refuse_named(module: ModuleOp) -> None:
    for named in module.walk():
        if isinstance(named, hsg.NamedOp):
            raise OpError(named, "must be decomposed before hsg-tile-on-cores: run "
                          "hsg-decompose first (--lower-to-ascend does)")


def _stay_on_host(op: GenericOp, error: OpError) -> None:
    """A generic that cannot be made a kernel stays on the host, with a warning saying why;
    unless it is a named op's decomposition (`hsg.op_name`), which must be: then the error."""
    if hsg.OP_NAME_ATTR in op.attributes or op.parent is None:
        raise error
    why = error.message
    if error.op is not op:
        where = location_of(error.op)
        why = f"its '{error.name}'{f' at {where}' if where else ''} {error.message}"
    warn(op, f"stays on the host: {why}", display_name(op))


def _mark_choice(fn: func.FuncOp, choice: Choice | None) -> None:
    """Record on the kernel the schedule the cost model chose for it, if it did."""
    if choice is not None:
        fn.attributes[SCHEDULE_ATTR] = schedule_attribute(
            choice.schedule, choice.soc, choice.platform_known, choice.elements)


