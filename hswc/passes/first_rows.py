"""hsg.first_rows folded into the launch of the kernel computing its operand: the kernel reads
its row count from a tensor in GM at run time (ops-nn's group_index; hswc.counted_rows).

Input (hsg-tile-on-cores, after the launches are made): `%z = hsg.first_rows %y, %counts`
where `%y` is the one result of an hsg.launch, read by nothing else.
Output: the launch takes `counts(%counts : tensor<Gxi64>)` and a fourth tiling value, G (the
tiling struct's `groupNum`, hswc.counted_rows.GROUP_NUM_FIELD), and returns z; its kernel (a
copy, when another launch shares it) takes the counts' GM buffer after its inputs and groupNum
after ubFactor, is marked `hsg.first_rows = P` (the elements of its iteration per row: 1 for a
row kernel, whose totalNum counts rows) and begins, before it finds its core's slice, with

    totalNum = groupNum < 0 ? totalNum : min(max(sum of the groupNum counts, 0), totalNum / P) * P

(a negative groupNum: no counts given, every row; ops-nn's tiling sets isGroup = 0 then. hswc's
launches always pass G; a package's host tiling passes -1 when group_index is absent.)

the counts read one by one by the scalar unit (GlobalTensor::GetValue, as a broadcast operand
is read: hswc.dialects.ascend_scalar_access). Every later step is the kernel's as it was: the
host tiling splits all the rows over the cores, a core whose slice starts past the counted rows
gets no elements and one whose slice crosses the count a shorter one (hswc.tiling.block_slice;
ops-nn's kernels split the counted rows over the cores again instead: the same elements are
written). The rows past the count are not written.

A first_rows whose operand is not such a launch (a launch of several results, of a kernel
writing output windows, of a run-time choice of kernels, a row kernel of strided rows, counts
of a run-time length, rows whose elements are not static) stays on the host with a remark.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Block, Operation, Region
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from hswc.counted_rows import COUNTS_ATTR
from hswc.dialects import ascend, hsg
from hswc.index_arith import IRArith
from hswc.kernel_signature import kernel_arguments
from hswc.output_windows import OUTPUT_WINDOWS_ATTR
from hswc.remarks import remark
from hswc.rows import read_rows


def fold_first_rows(module: ModuleOp) -> None:
    """Every hsg.first_rows of a launch's result folded into that launch (module docstring)."""
    for op in [o for o in module.walk() if isinstance(o, hsg.FirstRowsOp)]:
        why = _fold(module, op)
        if why is not None:
            remark(op, f"stays on the host: {why}")


def _fold(module: ModuleOp, op: hsg.FirstRowsOp) -> str | None:
    """Fold `op` into its operand's launch; the reason it cannot, else None."""
    launch = op.y.owner
    if not isinstance(launch, hsg.LaunchOp) or len(launch.ys) != 1 \
            or op.y.uses.get_length() != 1 or launch.counts is not None:
        return "its operand is not the one result of a launch, read by it alone"
    counts = op.counts.type
    assert isinstance(counts, TensorType)
    if not counts.has_static_shape():
        return f"the counts ({counts}) have a run-time length"
    kernel = SymbolTable.lookup_symbol(launch, launch.kernel)
    if not isinstance(kernel, func.FuncOp) or not kernel.body.blocks \
            or OUTPUT_WINDOWS_ATTR in kernel.attributes:
        return f"{launch.kernel} writes output windows or is not a kernel function"
    per_row = _per_row(op, kernel)
    if per_row is None:
        return (f"the rows of {op.y.type} are not the rows {launch.kernel} computes in order "
                "(elements of a run-time count, or a row kernel of strided rows)")
    uses = [o for o in module.walk()
            if isinstance(o, hsg.LaunchOp) and o.kernel == launch.kernel]
    if len(uses) > 1:  # another launch keeps the kernel as it is
        kernel = _copy(module, kernel)
    _read_counts(kernel, len(launch.inputs), per_row)
    groups = arith.ConstantOp.from_int_and_width(counts.get_shape()[0], IndexType())
    groups.result.name_hint = "group_num"
    new = hsg.LaunchOp(kernel.sym_name.data, launch.block_dim, launch.inputs,
                       [*launch.tiling, groups.result], launch.scalars, [op.result.type],
                       counts=op.counts)
    Rewriter.insert_op(groups, InsertPoint.after(op))
    Rewriter.insert_op(new, InsertPoint.after(groups))
    new.ys[0].name_hint = op.result.name_hint or op.y.name_hint
    op.result.replace_all_uses_with(new.ys[0])
    Rewriter.erase_op(op)
    Rewriter.erase_op(launch)
    return None


def _per_row(op: hsg.FirstRowsOp, kernel: func.FuncOp) -> int | None:
    """The kernel's totalNum per row of `op`: the row's elements (static) for an elementwise
    kernel, 1 for a row kernel of contiguous rows that are op's; None otherwise."""
    y = op.y.type
    assert isinstance(y, TensorType)
    row = y.get_shape()[op.dims():]
    if any(d < 0 for d in row):
        return None
    elements = math.prod(row)
    try:
        rows = read_rows(kernel)
    except ValueError:
        return None
    if rows is None:
        return elements
    kind = rows.outputs[0] if len(rows.outputs) == 1 else None
    fits = (kind == "element" and elements == rows.length) or (kind == "row" and elements == 1)
    return 1 if fits and rows.runs == 1 else None


def _copy(module: ModuleOp, kernel: func.FuncOp) -> func.FuncOp:
    """A copy of `kernel` under a name of its own, after it in the module."""
    table = SymbolTable
    base = f"{kernel.sym_name.data}_first_rows"
    name, n = base, 1
    while table.lookup_symbol(module, name) is not None:
        name, n = f"{base}{n}", n + 1
    made = kernel.clone()
    made.sym_name = StringAttr(name)
    Rewriter.insert_op(made, InsertPoint.after(kernel))
    return made


def _read_counts(kernel: func.FuncOp, at: int, per_row: int) -> None:
    """The counts' GM buffer inserted as argument `at`, their number (groupNum) after the
    tiling values, and the kernel's totalNum cut to the rows they sum to before anything reads
    it (module docstring)."""
    block = kernel.body.block
    tiling = kernel_arguments(kernel).tiling
    total = tiling[0]
    counts = block.insert_arg(MemRefType(IntegerType(64), [DYNAMIC_INDEX]), at)
    counts.name_hint = "counts"
    groups = block.insert_arg(IndexType(), tiling[-1].index + 1)
    groups.name_hint = "group_num"
    kernel.function_type = FunctionType.from_lists(
        [a.type for a in block.args], list(kernel.function_type.outputs.data))
    kernel.attributes[COUNTS_ATTR] = IntegerAttr(per_row, i64)
    first = block.first_op
    assert first is not None
    a = IRArith(InsertPoint.before(first))
    zero = a.const(0)
    given = a.name(a.max(groups, zero), "groups_read")
    gm = a.builder.insert(ascend.SetGlobalBufferOp(counts, zero, given)).result
    gm.name_hint = "counts_gm"
    body = Block(arg_types=[IndexType(), IndexType()])
    index, partial = body.args
    read = ascend.GlobalGetValueOp(gm, index)
    count = arith.IndexCastOp(read.result, IndexType())
    added = arith.AddiOp(partial, count.result)
    body.add_ops([read, count, added, scf.YieldOp(added.result)])
    loop = a.builder.insert(scf.ForOp(zero, given, a.const(1), [zero], Region(body)))
    loop.results[0].name_hint = "counted"
    rows = a.floor_div(total, a.const(per_row))
    limited = a.mul(a.min(a.max(loop.results[0], zero), rows), a.const(per_row))
    limited = a.min(total, limited)
    read = a.name_bool(a.gt(groups, a.const(-1)), "group_given")
    limited = a.name(a.select(read, limited, total), "counted_num")
    inserted: set[Operation] = set()
    for made in block.ops:
        if made is first:
            break
        inserted.add(made)
    total.replace_uses_with_if(limited, lambda use: use.operation not in inserted)
