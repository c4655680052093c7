"""The row kernels hsg-tile-on-cores builds: one per row region (hswc.row_regions) of a function.

Input: a block after hsg-fuse-elementwise, holding generics that reduce along their trailing
dims and the elementwise generics around them (the row length static; the rows' dims static or
dynamic: then the host code before the tiling call counts the rows, `hsg.num_elements` of the
first input that is not a column over the row length, and asserts every other row or element
input holds as many, so the count is known at run time only; or the row length dynamic: then
the host reads it from the first element input's reduced dims and passes it to the kernel
after its tiling values, `row_length`, and the kernel works every row in segments of a
compile-time length, the last one padded: hswc.rows `dynamic`).
Output, per region whose kernel can be built: host code in place of its generics (the tiling,
folded to constants when the platform is named, else a call of the tiling function, then
`hsg.launch`), and in the module
- `@<op>_tiling_<dt>(totalNum, coreNum, ubSize)`: hswc.tiling's formula over the region's rows
  (hswc.tiling.row_tiling), divided by the UB plan of chunks of whole rows
  (hswc.vectorizer.plan: KernelPlan.ub_plan of a row kernel);
  A reduction over leading dims (sum over N, H, W keeping C) is a row kernel whose rows (the
  kept dims, C) are strided runs (hswc.rows): each core owns a set of channels and reduces all
  of their data; with fewer channels than cores, two kernels (hswc.passes.row_split);
  one whose runs would be single elements (softmax over dim 0, or over a middle dim) a row
  kernel of lanes: rows of LANES adjacent columns, each lane reduced apart (hswc.rows: Lanes;
  its columns whole rows of LANES, its operands element or row ones: a row operand a value
  per column, LANES values a row of lanes, as a bias gradient `x.sum(0)` writes; its runs one
  chunk);
- `@<op>_kernel_<dt>(inputs..., outputs..., totalNum, blockFactor, ubFactor, scalars...)`
  (the float scalars its body reads from outside, f32 as an elementwise kernel takes them:
  values the host computes, and a named op's attribute its decomposition marks
  hsg.OP_ATTRIBUTE_ATTR; other constants are folded into the body), marked
  `hsg.kernel` (and `hsg.outputs` when it writes several: a row's scale and the elements) and
  carrying `hsg.rows` and `hsg.ub_plan`: the core's rows from GetBlockIdx(), one
  `hsg.row_slice` with the region's one body (hswc.row_regions.row_body). Without schedule
  options, the schedule the cost model picks (hswc.passes.row_schedule_choice), recorded as
  `hsg.schedule` for convert-hsg-to-ascend.
A row longer than one row of the kernel's buffers fits in UB is worked on in segments
(hswc.rows: `segment`, a multiple of SEGMENT_ALIGN elements a chunk holds, the one the cost
model predicts fastest among the longest and a few shorter ones:
hswc.passes.row_segment_choice): one
pass over the row in GM per reduction, then one for the outputs (hswc.vectorizer.row_emit);
softmax's max and sum in one pass where summing online is chosen (hswc.rows `online`).
A region that cannot be a kernel (a value captured from outside other than a float, a step
convert-hsg-to-ascend cannot lower: hswc.vectorizer.row_emit.refusal, a UB too small for a
segment) keeps its generics, with a remark or, for a UB too small, a warning naming the length
and the longest row that fits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from io import StringIO

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    UnitAttr,
    f32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.cpp_identifiers import operator_stem
from hswc.diagnostics import OpError, copy_location, location_of, ops_between
from hswc.dialects import ascend, hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.index_arith import IRArith
from hswc.kernel_dtypes import kernel_dtype
from hswc.passes.kernel_functions import (
    KernelFunctions,
    build_tiling_function,
    erase_if_dead,
    host_scalars,
    kernel_function_name,
    module_functions,
    scalar_names,
    tiling_function_name,
)
from hswc.passes.row_branches import Branch, branches, keyed_launch, variants, whole_lengths
from hswc.passes.row_schedule_choice import (
    RowCandidate,
    RowChoice,
    candidate_schedules,
    choose_row_schedule,
    modelled_row_launch,
    served_lengths,
)
from hswc.passes.row_segment_choice import choose_segment
from hswc.passes.row_split import PARTIAL_ATTR, Split, across_runs, split_body, split_parts
from hswc.passes.schedule_choice import CHOICE_ELEMENTS, TIE
from hswc.passes.schedule_options import (
    SCHEDULE_ATTR,
    UB_PLAN_ATTR,
    plan_attribute,
    schedule_attribute,
)
from hswc.platform import DEFAULT_SOC, Platform, get_platform
from hswc.reduction_order import LANES_F32
from hswc.remarks import remark, warn
from hswc.row_regions import RowRegion, row_body, row_regions
from hswc.rows import ROWS_ATTR, Rows
from hswc.tiling import (
    ELEMENT_BYTES,
    RESULT_NAMES,
    TILING_FIELDS,
    TilingError,
    UbPlan,
    Variant,
    block_slice,
    compute_tiling,
)
from hswc.vectorizer.dag import body_dag
from hswc.vectorizer.plan import KernelPlan, chunk_rows_needed, longest_row, plan_kernel
from hswc.vectorizer.row_emit import (
    online_sums,
    overlong_runs,
    refusal,
    runs_refusal,
    with_padded_runs,
)
from hswc.vectorizer.schedule import Schedule


class NotARowKernel(Exception):
    """Why a row region keeps its generics (a remark, not an error)."""


def _element(value: SSAValue) -> str:
    return element_type_name(value.type.get_element_type())  # type: ignore[attr-defined]


FLOAT_SCALARS = (Float16Type(), BFloat16Type(), Float32Type())


def _captured_constants(body: Block) -> None:
    """The constants the body reads from outside cloned into it, but an op's attribute
    (OP_ATTRIBUTE_ATTR: the kernel takes it at run time, as it takes any float scalar from
    outside: kernel_scalars); NotARowKernel for a value from outside that is no float scalar."""
    inside: set[SSAValue] = set(body.args)
    for op in body.ops:
        for operand in op.operands:
            if operand in inside:
                continue
            owner = operand.owner
            if not isinstance(owner, arith.ConstantOp) or hsg.OP_ATTRIBUTE_ATTR in \
                    owner.attributes:
                if operand.type not in FLOAT_SCALARS:
                    raise NotARowKernel(f"its body reads {operand.name_hint or 'a value'} of "
                                        f"type {operand.type} from outside, which a row kernel "
                                        "cannot take (it takes f16, bf16 and f32 scalars)")
                continue
            clone = owner.clone()
            body.insert_op_before(clone, body.first_op)  # type: ignore[arg-type]
            op.operands[[*op.operands].index(operand)] = clone.result
            inside.add(clone.result)
        inside.update(op.results)


def kernel_scalars(body: Block) -> list[SSAValue]:
    """The values from outside a body reads (after _captured_constants: the float scalars the
    kernel takes after its tiling arguments), in order of first use."""
    inside: set[SSAValue] = set(body.args)
    found: list[SSAValue] = []
    for op in body.ops:
        for operand in op.operands:
            if operand not in inside and operand not in found:
                found.append(operand)
        inside.update(op.results)
    return found


def row_kernel_plan(body: Block, rows: Rows, schedule: Schedule, dtype: str,
                    names: list[str]) -> KernelPlan:
    """The plan of the row kernel computing `body` (hswc.vectorizer.plan)."""
    dag = body_dag(body, levels=rows.inputs)
    return plan_kernel(dag, schedule.variants()[0][0], dtype, names, rows)


def fitted_row_plan(body: Block, rows: Rows, schedule: Schedule, dtype: str,
                    names: list[str], ub_size: int, online: bool = True) -> KernelPlan:
    """The row kernel's plan with chunks of several whole rows where its lowering takes that
    and a chunk of MIN_CHUNK_ROWS rows fits `ub_size` bytes of UB; else with one row per
    chunk (Rows.one_per_chunk: a row longer than MIN_CHUNK_ROWS of them hold, or than a level-0
    repeat stride between rows reaches), which the caller checks as it checks the other; a
    row too long for one chunk in segments (segmented_plan, summing online where `online`)."""
    if rows.dynamic:
        return dynamic_plan(body, rows, schedule, dtype, names, ub_size, online)
    if rows.lanes == 1 and not rows.grouped:  # rows of lanes, grouped rows: one a chunk
        plan = row_kernel_plan(body, replace(rows, one_per_chunk=False), schedule, dtype,
                               names)
        if refusal(plan) is None and _fits(plan, dtype, ub_size):
            return plan
    one = row_kernel_plan(body, replace(rows, one_per_chunk=True), schedule, dtype, names)
    if _fits(one, dtype, ub_size):
        return one
    return segmented_plan(body, rows, schedule, dtype, names, ub_size, online) or one


SEGMENT_ALIGN = LANES_F32
"""A row in segments is cut in segments of whole f32 vector repeats (64 values): every full
segment's fold tree has whole groups, and a segment starts 256 bytes of f32 after the last."""


def segmented_plan(body: Block, rows: Rows, schedule: Schedule, dtype: str,
                   names: list[str], ub_size: int, online: bool = True) -> KernelPlan | None:
    """The plan of a row too long for one chunk: one row a chunk in segments (hswc.rows) of
    the most elements a chunk holds, a multiple of SEGMENT_ALIGN (the longest: the cost model
    may take a shorter one, hswc.passes.row_segment_choice), summing online where
    `online` and the body has a sum of exp(b - max) (hswc.vectorizer.row_emit.online_sums: it
    reads the row once less, at more vector work a segment; the cost model chooses between
    the two: hswc.passes.row_schedule_choice); None when not even one such segment fits, or
    the rows are strided runs. A row of lanes (hswc.rows: Lanes) is cut in segments of whole
    runs (SEGMENT_ALIGN is LANES: a segment of k * 64 elements is k runs), never online."""
    if rows.runs > 1 and rows.lanes == 1:
        return None  # strided runs are read whole (hswc.rows: a row in segments is contiguous)
    probe, segment = _longest_segment(body, replace(rows, one_per_chunk=True,
                                                    segment=rows.length),
                                      schedule, dtype, names, ub_size,
                                      online and rows.lanes == 1)
    if segment == 0 or segment >= rows.length:
        return None
    assert probe.rows is not None
    return replace(probe, rows=replace(probe.rows, segment=segment))


DYNAMIC_SEGMENT = 4096
"""The longest segment a row of a run-time length is worked on in (assumed, not a choice:
every row pays for one padded segment, so the segment trades short rows' padding against long
rows' passes; the schedule is the cost model's, over rows of several lengths:
hswc.passes.row_schedule_choice.DYNAMIC_LENGTHS)."""


def dynamic_plan(body: Block, rows: Rows, schedule: Schedule, dtype: str, names: list[str],
                 ub_size: int, online: bool = True) -> KernelPlan:
    """The plan of a row of a run-time length (hswc.rows `dynamic`): one row a chunk, in
    segments of the most elements a chunk holds, a multiple of SEGMENT_ALIGN and at most
    DYNAMIC_SEGMENT, summing online where `online` and the body has a sum of exp(b - max);
    NotARowKernel where not even one such segment fits."""
    probe, longest = _longest_segment(body, replace(rows, length=SEGMENT_ALIGN,
                                                    one_per_chunk=True, segment=SEGMENT_ALIGN),
                                      schedule, dtype, names, ub_size, online)
    segment = min(longest, DYNAMIC_SEGMENT)
    if segment == 0:
        raise NotARowKernel(f"not even a segment of {SEGMENT_ALIGN} elements of its rows fits "
                            f"{ub_size} bytes of UB")
    assert probe.rows is not None
    return row_kernel_plan(body, replace(probe.rows, length=segment, segment=segment),
                           schedule, dtype, names)


def _longest_segment(body: Block, probe_rows: Rows, schedule: Schedule, dtype: str,
                     names: list[str], ub_size: int, online: bool) -> tuple[KernelPlan, int]:
    """The plan of rows in segments `probe_rows`, summing online where `online` and the body
    has a sum of exp(b - max), and the most elements of a segment one chunk of it holds in
    `ub_size` bytes, a multiple of SEGMENT_ALIGN (0: not even one)."""
    probe = row_kernel_plan(body, probe_rows, schedule, dtype, names)
    if online and online_sums(probe):
        probe = row_kernel_plan(body, replace(probe_rows, online=True), schedule, dtype, names)
    return probe, longest_row(probe, ub_size) // SEGMENT_ALIGN * SEGMENT_ALIGN


def _fits(plan: KernelPlan, dtype: str, ub_size: int) -> bool:
    """Whether a chunk of chunk_rows_needed rows of the plan fits `ub_size` bytes."""
    assert plan.rows is not None
    try:
        tiling = compute_tiling(1 << 20, 1, ub_size, dtype, plan.ub_plan())
    except TilingError:
        return False
    return tiling.ub_factor >= chunk_rows_needed(plan.rows)


def _tiling_function(name: str, dtype: str, plan: UbPlan) -> func.FuncOp:
    fn = build_tiling_function(name, dtype, plan)
    fn.attributes[UB_PLAN_ATTR] = plan_attribute(plan)
    return fn


def _branch_tiling(name: str, dtype: str, plans: UbPlan | tuple[Variant, ...]) -> func.FuncOp:
    """The tiling of a run-time row length's kernel: of one kernel, as _tiling_function's; of
    branches, taking the row length to pick one by (hswc.passes.row_branches)."""
    if isinstance(plans, UbPlan):
        return _tiling_function(name, dtype, plans)
    return build_tiling_function(name, dtype, plans, by_length=True)


def _body_text(body: Block) -> str:
    stream = StringIO()
    Printer(stream=stream).print_block(body)
    return stream.getvalue()


def output_names(outputs: list[SSAValue]) -> list[str]:
    """Each output's name: its own (else `y`, or `y<i>` of several), each distinct."""
    names: list[str] = []
    for i, value in enumerate(outputs):
        name = value.name_hint or ("y" if len(outputs) == 1 else f"y{i}")
        names.append(name if name not in names else f"{name}_{i}")
    return names


def _kernel_function(name: str, body: Block, inputs: list[SSAValue], outputs: list[SSAValue],
                     rows: Rows, plan: UbPlan) -> func.FuncOp:
    """The device kernel: this core's rows, handed to hsg.row_slice."""
    index = IndexType()
    gm = [MemRefType(v.type.get_element_type(), [DYNAMIC_INDEX])  # type: ignore[attr-defined]
          for v in (*inputs, *outputs)]
    scalars = kernel_scalars(body)
    fields = len(TILING_FIELDS) + rows.dynamic  # a run-time row length after the tiling
    block = Block(arg_types=[*gm, *[index] * fields, *[f32] * len(scalars)])
    names = [*(a.name_hint or f"in{i}" for i, a in enumerate(body.args)),
             *output_names(outputs), "total_num", "block_factor", "ub_factor",
             *(["row_length"] if rows.dynamic else []), *scalar_names(scalars)]
    for arg, arg_name in zip(block.args, names, strict=True):
        arg.name_hint = arg_name
    count = len(inputs)
    written = len(outputs)
    tiling_end = count + written + fields
    total_num, block_factor, ub_factor = block.args[count + written:count + written
                                                    + len(TILING_FIELDS)]
    row_length = block.args[tiling_end - 1] if rows.dynamic else None
    builder = Builder(InsertPoint.at_end(block))
    for host, arg in zip(scalars, block.args[tiling_end:], strict=True):
        value: SSAValue = arg  # the host widened it to f32 (host_scalars): narrowed exactly
        if host.type != f32:
            value = builder.insert(arith.TruncFOp(arg, host.type)).result
            value.name_hint = arg.name_hint
        for use in [u for u in host.uses if u.operation.parent_block() is body]:
            use.operation.operands[use.index] = value
    block_idx = builder.insert(ascend.GetBlockIdxOp()).result
    block_idx.name_hint = "block_idx"
    a = IRArith(InsertPoint.at_end(block))
    offset, length = block_slice(a, total_num, block_factor, block_idx)
    offset.name_hint, length.name_hint = "block_offset", "block_length"
    region = Region(body)
    a.builder.insert(hsg.RowSliceOp(block.args[:count], block.args[count:count + written],
                                    offset, length, ub_factor, rows, region, row_length))
    a.builder.insert(func.ReturnOp())
    fn = func.FuncOp(name, (tuple(block.arg_types), ()), Region(block))
    fn.attributes[hsg.KERNEL_ATTR] = UnitAttr()
    if written > 1:
        fn.attributes[hsg.OUTPUTS_ATTR] = IntegerAttr(written, 64)
    fn.attributes[ROWS_ATTR] = rows.to_attr()
    fn.attributes[UB_PLAN_ATTR] = plan_attribute(plan)
    return fn


def _mark_dim(region: RowRegion, launched: SSAValue) -> None:
    """The launch computing a named op's generics carries the dim it reduces
    (hsg.OP_DIM_ATTR), where they carry one."""
    dims = {d for d in map(hsg.read_op_dim, region.members) if d is not None}
    owner = launched.owner
    if len(dims) == 1 and isinstance(owner, Operation):
        dim = IntegerAttr(dims.pop(), 64)
        for launch in owner.walk():  # the launch, or each branch's (an scf.if)
            if isinstance(launch, hsg.LaunchOp):
                launch.attributes[hsg.OP_DIM_ATTR] = dim


def _callee(launched: SSAValue) -> str:
    """The kernel an hsg.launch's result comes from (of the scf.if picking a branch:
    hswc.passes.row_branches, each kernel it launches)."""
    owner = launched.owner
    assert isinstance(owner, Operation)
    names = [op.kernel.root_reference.data for op in owner.walk() if isinstance(op, hsg.LaunchOp)]
    assert names
    return ", @".join(names)


def _copy_of(body: Block) -> Block:
    """A copy of a detached block (its ops and arguments)."""
    region = Region(body)
    copy = region.clone()
    region.detach_block(body)
    return copy.detach_block(0)


def _name_args(body: Block, inputs: list[SSAValue]) -> None:
    taken: set[str] = set()
    for i, (arg, value) in enumerate(zip(body.args, inputs, strict=True)):
        name = value.name_hint or f"in{i}"
        while name in taken:
            name = f"{name}_{i}"
        taken.add(name)
        arg.name_hint = name


AT_ZERO_ATTR = "hsg.at_zero_length"
"""Marks the copies _host_copy makes: hsg-tile-on-cores leaves them on the host unremarked
(the region they copy became a kernel, and has its remark)."""

AtZero = Callable[[Builder], list[SSAValue]]
"""Builds the outputs of a region of a run-time row length at a length of 0 (_host_copy)."""


def _host_copy(builder: Builder, members: list[Operation], outputs: list[SSAValue]
               ) -> list[SSAValue]:
    """The region's generics copied in order at `builder` (they stay on the host: MLIR's own
    semantics), and its outputs' copies."""
    mapping: dict[SSAValue, SSAValue] = {}
    for member in members:
        copy = builder.insert(member.clone(mapping))
        copy.attributes[AT_ZERO_ATTR] = UnitAttr()
        mapping.update(zip(member.results, copy.results, strict=True))
    return [mapping[v] for v in outputs]


def _erase_members(region: RowRegion) -> None:
    """The region's generics erased, last first, with the inits (and fills) only they used."""
    for member in reversed(region.members):
        inits = [v.owner for v in member.outputs]
        Rewriter.erase_op(member)
        for init in inits:
            if isinstance(init, Operation) and init.parent is not None \
                    and not any(r.uses for r in init.results):
                _erase_dead(init)


def _erase_dead(op: Operation) -> None:
    """An op nothing reads any more (a tensor.empty, a fill, the generic a fill became), and
    what only it read."""
    if op.regions and op.name in ("linalg.fill", "linalg.generic"):
        captured = [v for inner in op.walk() for v in inner.operands]  # a fill's constant
        operands = [v.owner for v in (*op.operands, *captured)]
        Rewriter.erase_op(op)
        for owner in operands:
            if isinstance(owner, Operation) and not any(r.uses for r in owner.results):
                _erase_dead(owner)
        return
    erase_if_dead(op)


def _erase_unused_fills(block: Block) -> None:
    """The fills and tensor.empty of a function nothing reads once its row kernels are
    launched, and the constants only they read (a reduction's init; the init of the index
    torch-mlir's max also computes, whose result hswc.row_regions dropped)."""
    for op in reversed(list(block.ops)):
        if op.parent is None or any(r.uses for r in op.results) or not op.results:
            continue
        fill = op.name == "linalg.fill" or (op.name == "linalg.generic" and not any(
            isinstance(v.type, TensorType) for v in op.operands[:len(op.operands) - 1]))
        if fill or op.name == "tensor.empty":
            _erase_dead(op)


def _run_time_length(op: Operation, rows: Rows, inputs: list[SSAValue],
                     reduced: tuple[int, ...]) -> SSAValue:
    """Host code before `op` computing a dynamic row length (hswc.rows `dynamic`): the product
    of the first element input's `reduced` dims (tensor.dim)."""
    a = IRArith(InsertPoint.before(op))
    rank = max(reduced) + 1
    first = next(v for v, kind in zip(inputs, rows.inputs, strict=True) if kind == "element"
                 and len(v.type.get_shape()) == rank)  # type: ignore[attr-defined]
    length: SSAValue | None = None
    for d in reduced:
        dim = a.builder.insert(tensor.DimOp(first, a.const(d))).result
        length = dim if length is None else a.mul(length, dim)
    assert length is not None
    return a.name(length, "row_length")


def _run_time_rows(op: Operation, rows: Rows, inputs: list[SSAValue], kernel: str,
                   length: SSAValue | None = None) -> SSAValue:
    """Host code before `op` computing a region's run-time row count (its row dims dynamic):
    the elements of its first input that is not a column, over the row length if it is an
    element operand (whose static dims hold the row, so the division is exact; a run-time
    `length`, hswc.rows `dynamic`, of 0 counts no rows); then each other such input checked
    to hold as many rows (a cf.assert naming it), so no core reads past a buffer (at a run-time
    length of 0, which reads no row and whose row count x's elements cannot tell, nothing is
    checked)."""
    a = IRArith(InsertPoint.before(op))
    made: list[SSAValue] = []

    def row() -> SSAValue:  # made at its first use, after the first hsg.num_elements
        if not made:
            made.append(a.const(rows.length) if length is None else a.builder.insert(
                arith.MaxUIOp(length, a.const(1))).result)  # no rows of length 0
        return made[0]
    spans = [(v, kind) for v, kind in zip(inputs, rows.inputs, strict=True) if kind != "column"]
    names = [v.name_hint or f"input {i + 1}" for i, v in enumerate(inputs)]

    def count(value: SSAValue, kind: str) -> SSAValue:
        n = a.builder.insert(hsg.NumElementsOp(value)).result
        return n if kind == "row" else a.floor_div(n, row())

    first, first_kind = spans[0]
    total = count(first, first_kind)
    for value, kind in spans[1:]:
        size = a.builder.insert(hsg.NumElementsOp(value)).result
        wanted = total if kind == "row" else a.mul(total, row())
        name = names[inputs.index(value)]
        what = "(a row operand) must hold one value for each row" if kind == "row" else \
            f"(an element operand) must hold as many rows of {rows.length} as there are rows"
        ok = a.eq(size, wanted)
        if length is not None:  # a length of 0 reads no row: the rows' count is not known
            ok = a.or_(ok, a.eq(length, a.const(0)))
        a.check(ok, f"@{kernel}: input {name} {what} of "
                f"{names[inputs.index(first)]} at run time")
    return total


LANES = LANES_F32
"""The adjacent columns one row of a reduction over a dim that is not the innermost holds
(hswc.rows: Lanes): an f32 vector repeat, so its folds are whole repeats and a row value is read
as one repeat for every run."""


def _in_lanes(rows: Rows, count: int | None, strided: str) -> tuple[Rows, int]:
    """Rows whose runs are single elements (a softmax over dim 0) as rows of LANES columns
    (Rows.in_lanes) and their count; NotARowKernel (saying why, after `strided`, the reason
    the runs cannot be copied as they are) where that cannot be."""
    if rows.run != 1 or count is None:
        raise NotARowKernel(f"its row kernel {strided}")
    why = None
    if "column" in (*rows.inputs, *rows.outputs):
        why = (f"; as rows of {LANES} adjacent columns, it reads a value per position along "
               "the reduced dims (a column operand), which such a kernel does not take yet")
    if why is not None:
        raise NotARowKernel(f"its row kernel {strided}{why}")
    lanes = rows.in_lanes(LANES)  # each group's last row narrower where LANES does not
    return lanes, count // rows.stride * lanes.group  # divide its columns (hswc.rows)


@dataclass(frozen=True)
class RowTiler:
    """What hsg-tile-on-cores' options say of row kernels: the platform to fold, the schedule,
    the operator name of kernels whose function gives none."""

    core_num: int | None
    ub_size: int | None
    schedule: Schedule
    kernel_name: str | None
    target_ub: int
    """The UB bytes a row must fit when `ub_size` is not folded (the SoC's)."""
    choose_on: Platform | None = None
    """The platform the cost model chooses each kernel's schedule for (no schedule option
    given: hswc.passes.row_schedule_choice); None: the options' schedule."""
    soc: str = DEFAULT_SOC
    target_cores: int = 0
    """The cores a reduction over leading dims should give a row each (hswc.passes.row_split:
    `core_num` when folded, else the SoC's); 0: never split."""

    def tile_module(self, module: ModuleOp, functions: dict[Operation, KernelFunctions]) -> None:
        """Every row region of every function made a row kernel where it can be."""
        for fn in [o for o in module.walk() if isinstance(o, func.FuncOp)]:
            if hsg.is_kernel(fn) or not fn.body.blocks:
                continue
            made = False
            for region in row_regions(fn.body.block):
                table = module_functions(functions, module)
                try:
                    self._tile(fn, region, table)
                    made = True
                except NotARowKernel as why:
                    remark(region.members[0], f"stays on the host: {why}")
            if made:
                _erase_unused_fills(fn.body.block)

    def _tile(self, fn: func.FuncOp, region: RowRegion, table: KernelFunctions) -> None:
        if region.space.length == 0 or region.space.rows == 0:
            raise NotARowKernel("its rows are empty (the host gives the empty or initial "
                                "result)")
        outputs = region.outputs()
        body, inputs, rows = row_body(region)
        if not inputs:
            raise NotARowKernel("its row region reads no tensor (its values are constants: "
                                "the host computes them)")
        sizes = [ELEMENT_BYTES[_element(v)] for v, kind in zip(
            (*inputs, *outputs), (*rows.inputs, *rows.outputs), strict=True)
            if kind == "element"]
        at_zero = None
        if rows.dynamic and "row" in rows.outputs:  # a length of 0: no row for a kernel
            at_zero = partial(_host_copy, members=list(region.members), outputs=outputs)
        reduced = tuple(range(region.space.rank, len(region.space.shape)))
        count = region.space.rows
        strided = runs_refusal(rows, sizes, (*rows.inputs, *rows.outputs))
        if strided is not None:
            rows, count = _in_lanes(rows, count, strided)
        rows = with_padded_runs(rows, sizes)
        _captured_constants(body)
        _name_args(body, inputs)
        first, last = region.members[0], region.members[-1]
        op_name = self.kernel_name or operator_stem(fn.sym_name.data)
        before = first.prev_op
        parts = 1 if count is None or rows.dynamic else \
            split_parts(rows, count, sizes, self.target_cores)
        split = split_body(body, rows, parts, count, sizes) if parts > 1 and count is not None \
            else None
        if isinstance(split, Split) and self.choose_on is not None:
            assert count is not None  # a split needs a static row count (parts above)
            split = self._split_if_faster(split, body, inputs, outputs, rows, count, parts,
                                          sizes)
        overlong = overlong_runs(rows, sizes)
        if not isinstance(split, Split) and overlong is not None:
            raise NotARowKernel(f"its row kernel {overlong}")
        if not isinstance(split, Split):
            results = self._launch(body, inputs, outputs, rows, count, op_name, first, last,
                                   table, reduced=reduced, at_zero=at_zero)
            how = ""
            if split is not None:
                remark(last, f"gives {count} of the {self.target_cores} cores a row: not split "
                       f"in two kernels as a reduction over leading dims with few rows is, "
                       f"since {split}")
        else:
            assert count is not None  # a split needs a static row count (parts above)
            workspace = tensor.EmptyOp([], TensorType(f32, [split.partial_rows.operand_size(
                "row", count * parts)])).tensor
            workspace.name_hint = "partials"
            (partials,) = self._launch(split.partial,
                                       [inputs[i] for i in split.partial_inputs], [workspace],
                                       split.partial_rows, count * parts,
                                       f"{op_name}_partial", first, last, table, partial=True)
            results = self._launch(split.combine,
                                   [partials, *(inputs[i] for i in split.combine_inputs)],
                                   outputs, split.combine_rows, split.combine_count, op_name,
                                   first, last, table)
            cut = f"each run of the {count} rows" if not across_runs(rows) else \
                f"the {rows.runs} runs of each of the {count} rows" + (
                    f" of {rows.lanes} lanes" if rows.lanes > 1 else "")
            remark(last, f"becomes a launch of the row kernel @{_callee(partials)} (the first "
                   f"of two: {count * parts} rows of partial results, {cut} cut in {parts} "
                   f"pieces for the {self.target_cores} cores)")
            how = f"; its {parts} partials a row combined"
        copy_location(last, ops_between(before, last))
        _mark_dim(region, results[0])
        for output, result in zip(outputs, results, strict=True):
            output.replace_all_uses_with(result)
        others = [location_of(m) or m.name for m in region.members if m is not last]
        joined = f"; with the generics at {', '.join(others)}" if others else ""
        reductions = len(region.reductions)
        lanes = f", its {rows.lanes} lanes reduced apart" if rows.lanes > 1 else \
            f", each padded to {rows.padded_run} in UB" if rows.padded_run is not None else ""
        runs = f" ({rows.runs} runs of {rows.run}, {rows.stride} apart{lanes}{how})" \
            if rows.runs > 1 else ""
        remark(last, f"becomes a launch of the row kernel @{_callee(results[0])} ({reductions} "
               f"reduction{'s' if reductions != 1 else ''} along rows of "
               f"{'a run-time length' if rows.dynamic else rows.length}{runs}"
               f"{joined})")
        _erase_members(region)

    def _split_if_faster(self, split: Split, body: Block, inputs: list[SSAValue],
                         outputs: list[SSAValue], rows: Rows, count: int, parts: int,
                         sizes: list[int]) -> Split | str:
        """The split where the cost model times its two launches (the partials, then their
        combination, and what the second launch itself adds) faster than one kernel giving each
        of `count` cores a row; else why not (hswc.passes.row_split: a second launch and a
        workspace in GM against idle cores). Where the model cannot time one side (or one
        kernel cannot copy the runs: `sizes`, the element operands' bytes), the split (the rule
        without a model)."""
        workspace = tensor.EmptyOp([], TensorType(f32, [split.partial_rows.operand_size(
            "row", count * parts)])).tensor
        one = None if overlong_runs(rows, sizes) is not None else \
            self._modelled_launch(body, inputs, outputs, rows, count)
        first = self._modelled_launch(split.partial, [inputs[i] for i in split.partial_inputs],
                                      [workspace], split.partial_rows, count * parts)
        second = self._modelled_launch(split.combine,
                                       [workspace, *(inputs[i] for i in split.combine_inputs)],
                                       outputs, split.combine_rows, split.combine_count)
        assert self.choose_on is not None  # asked only where the cost model chooses
        if one is None or first is None or second is None:
            return split
        figures = self.choose_on.cost  # the second launch's own cost (CostFigures.launch_cycles)
        two = first + second + figures.seconds(figures.launch_cycles)
        if two < one * (1 - TIE):
            return split
        return (f"the cost model times one kernel at {one * 1e6:.2f} us and the two launches "
                f"of {parts} pieces {'of its runs' if across_runs(rows) else 'a run'} at "
                f"{two * 1e6:.2f} us (the second launch's "
                f"{figures.seconds(figures.launch_cycles) * 1e6:.2f} us included)")

    def _modelled_launch(self, body: Block, inputs: list[SSAValue], outputs: list[SSAValue],
                         rows: Rows, count: int) -> float | None:
        """The modelled seconds of the row kernel _launch would build for `body` over `count`
        rows, with the schedule the cost model chooses for it; None where it builds none."""
        assert self.choose_on is not None
        dtype = kernel_dtype([_element(v) for v in inputs], [_element(v) for v in outputs])
        names = output_names(outputs)
        ub_size = self.ub
        try:
            reference = fitted_row_plan(body, rows, self.schedule, dtype, names, ub_size)
            choice = self._choose(body, _body_text(body), inputs, outputs, rows, count, dtype,
                                  reference)
            if choice is None:
                return None
            plan = fitted_row_plan(body, rows, choice.schedule, dtype, names, ub_size,
                                   choice.online)
            return modelled_row_launch(
                lambda: _kernel_function("choice", _copy_of(body), inputs, outputs, rows,
                                         reference.ub_plan()), plan, self.choose_on, count)
        except (OpError, TilingError, ValueError):
            return None

    def _launch(self, body: Block, inputs: list[SSAValue], outputs: list[SSAValue],
                rows: Rows, count: int | None, op_name: str, first: Operation,
                last: Operation, table: KernelFunctions, partial: bool = False,
                reduced: tuple[int, ...] = (), at_zero: AtZero | None = None
                ) -> list[SSAValue]:
        """The row kernel computing `body` over `count` rows (None: counted at run time; built
        once per module), and its launch before `last`: its results, one per output
        (`partial`: the first of a split's two kernels, marked so; `reduced`: the dims of a
        run-time row length, hswc.rows `dynamic`; `at_zero`: the outputs the host computes
        where that length is 0, _launch_branches)."""
        dtype = kernel_dtype([_element(v) for v in inputs], [_element(v) for v in outputs])
        names = output_names(outputs)
        ub_size = self.ub
        try:
            kernel = fitted_row_plan(body, rows, self.schedule, dtype, names, ub_size)
        except OpError as error:
            raise NotARowKernel(f"its row body {error.message}") from None
        text = _body_text(body)
        scalars = kernel_scalars(body)  # before the kernel takes the body in
        choice = self._choose(body, text, inputs, outputs, rows, count, dtype, kernel)
        schedule = self.schedule if choice is None else choice.schedule
        if choice is not None:
            kernel = fitted_row_plan(body, rows, schedule, dtype, names, ub_size, choice.online)
        assert kernel.rows is not None
        if kernel.rows.segment is not None and not rows.dynamic:
            longest = kernel
            kernel = choose_segment(
                longest, lambda: _kernel_function("choice", _copy_of(body), inputs, outputs,
                                                  rows, longest.ub_plan()),
                self.model_platform(), count, self._body_key(text, inputs, outputs, names))
        assert kernel.rows is not None
        rows = kernel.rows
        unlowered = refusal(kernel)
        if unlowered is not None:
            instr, why = unlowered
            where = location_of(instr.source) if instr.source is not None else None
            raise NotARowKernel(f"its row body's {instr.source.name if instr.source else 'step'}"
                                f"{f' at {where}' if where else ''} {why}, which a row "
                                "kernel's lowering to AscendC does not take yet")
        plan = kernel.ub_plan()
        self._check_fits(first, rows, kernel, dtype)
        if rows.dynamic:
            return self._launch_branches(body, inputs, outputs, kernel, schedule, choice,
                                         op_name, dtype, first, last, table, reduced,
                                         at_zero)
        tiling_name = table.ensure_built(
            ("row tiling", op_name, dtype, plan),
            lambda: _tiling_function(tiling_function_name(op_name, dtype), dtype, plan), first)
        def build() -> func.FuncOp:
            built = _kernel_function(kernel_function_name(op_name, dtype), body, inputs,
                                     outputs, rows, plan)
            if partial:
                built.attributes[PARTIAL_ATTR] = UnitAttr()
            if choice is not None:
                built.attributes[SCHEDULE_ATTR] = schedule_attribute(
                    schedule, self.soc, self.core_num is not None and self.ub_size is not None,
                    CHOICE_ELEMENTS if rows.dynamic else choice.rows * rows.length)
            return built

        kernel_name = table.ensure_built(
            ("row kernel", op_name, dtype, rows, plan, schedule.describe(), text),
            build, first)
        length = _run_time_length(last, rows, inputs, reduced) if rows.dynamic else None
        values = self._host_tiling(last, rows, count if count is not None and length is None
                                   else _run_time_rows(last, rows, inputs, kernel_name, length),
                                   dtype, plan, tiling_name)
        builder = Builder(InsertPoint.before(last))
        launch = builder.insert(hsg.LaunchOp(kernel_name, values[3], inputs,
                                             [*values[:len(TILING_FIELDS)],
                                              *([length] if length is not None else [])],
                                             host_scalars(builder, scalars),
                                             [v.type for v in outputs]))
        for output, result in zip(outputs, launch.ys, strict=True):
            result.name_hint = output.name_hint
        return list(launch.ys)

    def _launch_branches(self, body: Block, inputs: list[SSAValue], outputs: list[SSAValue],
                         segmented: KernelPlan, schedule: Schedule, choice: RowChoice | None,
                         op_name: str, dtype: str, first: Operation, last: Operation,
                         table: KernelFunctions, reduced: tuple[int, ...],
                         at_zero: AtZero | None = None) -> list[SSAValue]:
        """The kernels of a run-time row length, one per branch (hswc.passes.row_branches),
        the tiling picking one from the length, and their launch before `last` (an scf.if on
        the tiling key where there are several). With `at_zero` (the region writes a value per
        row), an scf.if on the length being 0 first: then no element is read and the kernel
        has no row to write (its row count is the elements over the length at least 1, so 0),
        so the host computes the outputs as MLIR does (`at_zero`: the region's generics run
        on the host, each row value its init combined with nothing, as a torch-mlir export's
        `x.amax(-1)` of no columns gives -inf); else the launch."""
        text = _body_text(body)
        scalars = kernel_scalars(body)
        assert segmented.rows is not None
        made, chosen = self._chosen_branches(body, inputs, outputs, segmented, schedule,
                                             choice, dtype, text)
        if len(made) == 1:
            plans: UbPlan | tuple[Variant, ...] = made[0].plan.ub_plan()
            keyed: tuple[Variant, ...] = ()
        else:
            keyed = variants(made, dtype)
            plans = keyed
        tiling_name = table.ensure_built(
            ("row tiling", op_name, dtype, plans),
            lambda: _branch_tiling(tiling_function_name(op_name, dtype), dtype, plans), first)
        launched: list[tuple[int, str]] = []
        for i, branch in enumerate(made):
            rows = branch.plan.rows
            assert rows is not None
            plan = branch.plan.ub_plan()

            def build(i: int = i, branch: Branch = branch, rows: Rows = rows,
                      plan: UbPlan = plan) -> func.FuncOp:
                name = kernel_function_name(op_name, dtype) + (branch.suffix if keyed else "")
                built = _kernel_function(name, _copy_of(body) if keyed else body, inputs,
                                         outputs, rows, plan)
                if keyed:
                    built.attributes[hsg.TILING_KEY_ATTR] = IntegerAttr(keyed[i].key,
                                                                        IndexType())
                if choice is not None:
                    built.attributes[SCHEDULE_ATTR] = schedule_attribute(
                        chosen[i], self.soc,
                        self.core_num is not None and self.ub_size is not None,
                        CHOICE_ELEMENTS)
                return built

            launched.append((keyed[i].key if keyed else 0, table.ensure_built(
                ("row kernel", op_name, dtype, rows, plan, chosen[i].describe(), text,
                 bool(keyed)), build,
                first)))
        segmented = made[-1].plan
        assert segmented.rows is not None
        length = _run_time_length(last, segmented.rows, inputs, reduced)
        kernel_name = launched[-1][1]
        values = self._host_tiling(last, segmented.rows,
                                   _run_time_rows(last, segmented.rows, inputs, kernel_name,
                                                  length),
                                   dtype, plans, tiling_name, length if keyed else None)
        builder = Builder(InsertPoint.before(last))
        widened = host_scalars(builder, scalars)

        def launch(inner: Builder, name: str) -> list[SSAValue]:
            made_launch = inner.insert(hsg.LaunchOp(
                name, values[3], inputs, [*values[:len(TILING_FIELDS)], length], widened,
                [v.type for v in outputs]))
            for output, result in zip(outputs, made_launch.ys, strict=True):
                result.name_hint = output.name_hint
            return list(made_launch.ys)

        types = [v.type for v in outputs]
        results: list[SSAValue]
        if at_zero is None:
            results = keyed_launch(builder, launched, values[4], launch, types)
        else:
            empty, full = Block(), Block()
            for block, made_values in (
                    (empty, at_zero), (full, lambda inner: keyed_launch(
                        inner, launched, values[4], launch, types))):
                inner = Builder(InsertPoint.at_end(block))
                inner.insert(scf.YieldOp(*made_values(inner)))
            a = IRArith(builder.insertion_point)
            if_empty = builder.insert(scf.IfOp(
                a.name_bool(a.eq(length, a.const(0)), "no_columns"), types, Region(empty),
                Region(full)))
            results = list(if_empty.results)
        for output, result in zip(outputs, results, strict=True):
            result.name_hint = output.name_hint
        return results

    def _chosen_branches(self, body: Block, inputs: list[SSAValue], outputs: list[SSAValue],
                         segmented: KernelPlan, schedule: Schedule, choice: RowChoice | None,
                         dtype: str, text: str) -> tuple[list[Branch], list[Schedule]]:
        """The branches of a kernel of a run-time row length (hswc.passes.row_branches) and
        each one's schedule: `schedule` (the options', or the cost model's for the kernel as a
        whole), or where the cost model chooses, each branch's own (`_choose_branch`); the
        ladder of whole lengths then reaches the longest whole row a chunk holds with any
        schedule the choice may take, and each whole branch is planned with the first that
        holds it before its own choice."""
        names = output_names(outputs)
        assert segmented.rows is not None
        whole_rows = replace(segmented.rows, segment=None, online=False)

        def whole_with(chosen: Schedule, length: int) -> KernelPlan | None:
            for one in (False, True):  # several rows a chunk where they fit, else one
                plan = row_kernel_plan(body, replace(whole_rows, length=length,
                                                     one_per_chunk=one), chosen, dtype, names)
                if refusal(plan) is None and _fits(plan, dtype, self.ub):
                    return plan
            return None

        schedules = [schedule] if choice is None else \
            [schedule, *(s for s in candidate_schedules(self.model_platform()) if s != schedule)]
        probe = replace(whole_rows, length=SEGMENT_ALIGN)
        longest = max(longest_row(row_kernel_plan(body, probe, s, dtype, names), self.ub)
                      for s in schedules)

        planned_with: dict[int, Schedule] = {}  # each whole branch's W: the schedule it holds

        def whole(length: int) -> KernelPlan | None:
            for s in schedules:
                plan = whole_with(s, length)
                if plan is not None:
                    planned_with[length] = s
                    return plan
            return None

        made = branches(segmented, whole, whole_lengths(longest, SEGMENT_ALIGN))
        chosen = [schedule if b.plan is segmented or b.plan.rows is None
                  else planned_with[b.plan.rows.length] for b in made]
        if choice is not None and len(made) > 1:
            for i, branch in enumerate(made):
                mine = self._choose_branch(body, inputs, outputs, branch, dtype, text,
                                           whole_with, segmented)
                if mine is not None:
                    made[i], chosen[i] = mine
        return made, chosen

    def _choose_branch(self, body: Block, inputs: list[SSAValue], outputs: list[SSAValue],
                       branch: Branch, dtype: str, text: str,
                       whole_with: Callable[[Schedule, int], KernelPlan | None],
                       segmented: KernelPlan) -> tuple[Branch, Schedule] | None:
        """The cost model's schedule for one branch of a kernel of a run-time row length
        (hswc.passes.row_schedule_choice: chosen for the lengths of DYNAMIC_LENGTHS it serves,
        the L2 hint tried), and the branch planned with it; None where no candidate builds.
        A whole branch keeps its W (`whole_with` plans it with a schedule); the segmented one
        (the last) its segment's rule (dynamic_plan)."""
        assert self.choose_on is not None and branch.plan.rows is not None
        rows = branch.plan.rows
        names = output_names(outputs)
        ub_size = self.ub
        longest = None if rows.segment is not None else rows.length

        def plan_of(c: RowCandidate) -> KernelPlan:
            if longest is None:
                assert segmented.rows is not None
                return dynamic_plan(body, replace(segmented.rows, online=False), c.schedule,
                                    dtype, names, ub_size, c.online)
            plan = whole_with(c.schedule, longest)
            if plan is None:
                raise ValueError(f"no chunk of rows of {longest} fits")
            return plan

        choice = choose_row_schedule(
            lambda: _kernel_function("choice", _copy_of(body), inputs, outputs, rows,
                                     branch.plan.ub_plan()),
            plan_of, rows, None, dtype, self.choose_on,
            self._body_key(text, inputs, outputs, names),
            served_lengths(branch.above, longest))
        if choice is None:
            return None
        plan = plan_of(RowCandidate(choice.schedule, choice.online))
        return replace(branch, plan=plan), choice.schedule

    def _choose(self, body: Block, text: str, inputs: list[SSAValue], outputs: list[SSAValue],
                rows: Rows, count: int | None, dtype: str, reference: KernelPlan
                ) -> RowChoice | None:
        """The cost model's schedule for this row kernel when no option names one (`text`:
        the body as printed; `count` rows, None: a run-time count)."""
        if self.choose_on is None:
            return None
        ub_size = self.ub
        names = output_names(outputs)
        return choose_row_schedule(
            lambda: _kernel_function("choice", _copy_of(body), inputs, outputs, rows,
                                     reference.ub_plan()),
            lambda c: fitted_row_plan(body, rows, c.schedule, dtype, names, ub_size, c.online),
            rows, count, dtype, self.choose_on, self._body_key(text, inputs, outputs, names))

    @property
    def ub(self) -> int:
        """The UB bytes the row plans are fitted to: the folded size, else the target SoC's."""
        return self.target_ub if self.ub_size is None else self.ub_size

    def _body_key(self, text: str, inputs: list[SSAValue], outputs: list[SSAValue],
                  names: list[str]) -> tuple[object, ...]:
        """What a row kernel's modelled choices depend on but the rows, dtype and platform:
        the body as printed, its operands' element types, its output names, the UB."""
        ub_size = self.ub
        return (text, tuple(_element(v) for v in inputs), tuple(_element(v) for v in outputs),
                tuple(names), ub_size)

    def model_platform(self) -> Platform:
        """The platform the cost model chooses on: the schedule choice's, else the SoC named
        (with the core count and UB given) and the schedule's API table."""
        if self.choose_on is not None:
            return self.choose_on
        return replace(get_platform(self.soc).with_overrides(self.core_num, self.ub_size),
                       api=self.schedule.api)

    def _check_fits(self, op: Operation, rows: Rows, kernel: KernelPlan, dtype: str) -> None:
        """A row too long for one chunk of whole rows on the named UB: a warning naming the
        length and the longest row that fits, and NotARowKernel."""
        ub_size = self.ub
        try:
            compute_tiling(1, 1, ub_size, dtype, kernel.ub_plan())
            return
        except TilingError:
            longest = longest_row(kernel, ub_size)
        if rows.lanes > 1:
            warn(op, f"reduces each column over {rows.runs} runs, {rows.lanes} columns a row of "
                 f"lanes ({rows.length} elements), more than a chunk of one such row of its row "
                 f"kernel holds in {ub_size} bytes of UB (the most runs that fit: "
                 f"{longest // rows.lanes}); it stays on the host")
            raise NotARowKernel(f"rows of {rows.length} elements do not fit the UB")
        warn(op, f"reduces rows of {rows.length} elements, longer than a chunk of one row "
             f"of its row kernel holds in {ub_size} bytes of UB (the longest row that fits: "
             f"{longest} elements), and not even a segment of {SEGMENT_ALIGN} elements of "
             "a longer row fits; it stays on the host")
        raise NotARowKernel(f"rows of {rows.length} elements do not fit the UB")

    def _host_tiling(self, op: Operation, rows: Rows, count: int | SSAValue, dtype: str,
                     plan: UbPlan | tuple[Variant, ...], tiling_name: str,
                     row_length: SSAValue | None = None) -> list[SSAValue]:
        """The launch's tiling values: folded constants (a static row count on a named
        platform), else a call of the tiling function on the row count (`count`: a number, or
        the host's value of a run-time count) and, where it picks a branch by the run-time
        row length, `row_length`."""
        a = IRArith(InsertPoint.before(op))
        if isinstance(count, int) and self.core_num is not None and self.ub_size is not None:
            tiling = compute_tiling(count, self.core_num, self.ub_size, dtype, plan)
            return [a.const(v, name) for v, name in zip(tiling.as_tuple(), RESULT_NAMES,
                                                         strict=True)]
        builder = Builder(InsertPoint.before(op))
        n = a.const(count, "total_num") if isinstance(count, int) else count
        n.name_hint = "total_num"
        cores = (a.const(self.core_num, "core_num") if self.core_num is not None
                 else builder.insert(hsg.GetCoreNumAivOp()).result)
        ub = (a.const(self.ub_size, "ub_size") if self.ub_size is not None
              else builder.insert(hsg.GetUbSizeOp()).result)
        cores.name_hint, ub.name_hint = "core_num", "ub_size"
        lengths = [] if row_length is None else [row_length]
        call = builder.insert(func.CallOp(tiling_name, [n, cores, ub, *lengths],
                                          [IndexType()] * 5))
        for value, name in zip(call.results, RESULT_NAMES, strict=True):
            value.name_hint = name
        return list(call.results)
