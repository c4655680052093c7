"""Kernel outputs inserted into one tensor become one GM output the kernel writes at windows
(hswc.output_windows), part of hsg-tile-on-cores.

Input: an hsg.launch whose results are each read only by a `tensor.insert_slice` into a chain
of inserts starting at a `tensor.empty` (a gradient's halves into dx, as hswc.ops.gated_ops
writes them), the inserts writing the empty tensor whole and once:

    %da, %db = hsg.launch @k ... -> tensor<4x64xf32>, tensor<4x64xf32>
    %0 = tensor.empty() : tensor<4x128xf32>
    %1 = tensor.insert_slice %da into %0[0, 0] [4, 64] [1, 1] : ...
    %dx = tensor.insert_slice %db into %1[0, 64] [4, 64] [1, 1] : ...

Output: the launch returns the joint tensor, its kernel takes one GM buffer for it, which its
hsg.elementwise_slice names once per output written into it, and the kernel and the slice carry
hsg.output_windows:

    %dx = hsg.launch @k ... -> tensor<4x128xf32>
    func.func @k(..., %dx: memref<?xf32>, ...) attributes {hsg.output_windows = [array<i64:
        4, 64>, array<i64: 128, 1, 0, 512>, array<i64: 128, 1, 64, 512>], ...}
      hsg.elementwise_slice ins(...) outs(%dx, %dx : ...) ...

A launch is left as it is (the inserts stay on the host) when its kernel is not of static
shapes, is launched by a run-time choice of kernels (an scf.if) or elsewhere, or when a window
is not one the copy-out writes in whole aligned 32-byte row runs for the kernel's tiling
(hswc.vectorizer.window_copy_out.window_refusal): the result is the same either way, the
joint kernel saves the host's copies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from hswc.broadcast import Broadcast, read_broadcast
from hswc.dialects import hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.output_windows import (
    OUTPUT_WINDOWS_ATTR,
    Box,
    describe,
    insert_box,
    joint_refusal,
    to_attr,
)
from hswc.passes.schedule_options import UB_PLAN_ATTR
from hswc.rows import read_rows
from hswc.vectorizer.window_copy_out import window_refusal


@dataclass(eq=False)
class _Joint:
    """One joint tensor: the ops that build it (erased, last first), each written value with
    the box it fills (or why it is not a box), and the joint tensor."""

    ops: list[Operation]
    parts: dict[SSAValue, Box | str]
    result: SSAValue


def _chain(y: SSAValue) -> _Joint | None:
    """The joint tensor `y` (a launch result) is written into: a chain of inserts into an
    empty tensor, or a tensor.concat; None for neither."""
    if len(list(y.uses)) != 1:
        return None
    first = next(iter(y.uses))
    if isinstance(first.operation, tensor.ConcatOp):
        return _concat(first.operation)
    if not isinstance(first.operation, tensor.InsertSliceOp) or first.index != 0:
        return None
    insert = first.operation
    while isinstance(insert.dest.owner, tensor.InsertSliceOp):  # back to the chain's start
        insert = insert.dest.owner
        if len(list(insert.result.uses)) != 1:
            return None
    empty = insert.dest.owner
    if not isinstance(empty, tensor.EmptyOp) or len(list(insert.dest.uses)) != 1:
        return None
    chain = [insert]
    while len(list(chain[-1].result.uses)) == 1:
        user = next(iter(chain[-1].result.uses))
        if not isinstance(user.operation, tensor.InsertSliceOp) or user.index != 1:
            break
        chain.append(user.operation)
    return _Joint([empty, *chain], {i.source: insert_box(i) for i in chain}, chain[-1].result)


def _concat(op: tensor.ConcatOp) -> _Joint | None:
    """A concatenation of distinct values of one use each, as the boxes it fills."""
    t = op.result.type
    values = list(op.inputs)
    if not isinstance(t, TensorType) or not t.has_static_shape() or len(set(values)) != \
            len(values) or any(len(list(v.uses)) != 1 for v in values):
        return None
    shape = tuple(t.get_shape())
    dim = op.dim.value.data
    parts: dict[SSAValue, Box | str] = {}
    at = 0
    for v in values:
        vt = v.type
        assert isinstance(vt, TensorType)
        sizes = tuple(vt.get_shape())
        offsets = tuple(at if k == dim else 0 for k in range(len(shape)))
        parts[v] = Box(offsets, sizes, tuple(range(len(shape))), shape)
        at += sizes[dim]
    return _Joint([op], parts, op.result)


def _block_align(kernel: func.FuncOp) -> int | None:
    plan = kernel.attributes.get(UB_PLAN_ATTR)
    if not isinstance(plan, DictionaryAttr):
        return None
    align = plan.data.get("block_align")
    return align.value.data if isinstance(align, IntegerAttr) else None


def join_outputs(module: ModuleOp) -> None:
    """Every launch whose results are inserted into one tensor written whole, rewritten to
    write it (module docstring)."""
    launches = [o for o in module.walk() if isinstance(o, hsg.LaunchOp)]
    counts = Counter(launch.kernel.string_value() for launch in launches)
    for launch in launches:
        if counts[launch.kernel.string_value()] == 1:  # a kernel launched once, here
            _join(launch)


def _join(launch: hsg.LaunchOp) -> None:
    found = _kernel(launch)
    owner = _owners(launch) if found is not None else None
    if found is None or owner is None:
        return
    kernel, sliced = found
    boxes = _boxes(launch, owner)
    shape = tuple(launch.ys[0].type.get_shape())  # type: ignore[attr-defined]
    broadcast = read_broadcast(kernel)
    if boxes is None or (broadcast is not None and not broadcast.is_static) or -1 in shape:
        return
    try:
        windows = describe(shape, boxes)
    except ValueError:
        return
    align = _block_align(kernel)
    dtypes = [element_type_name(y.type.get_element_type())  # type: ignore[attr-defined]
              for y in launch.ys]
    if align is None or any(b is not None and window_refusal(windows, k, dtypes[k], align)
                            for k, b in enumerate(boxes)):
        return
    _rewrite(launch, kernel, sliced, owner, windows)


def _kernel(launch: hsg.LaunchOp) -> tuple[func.FuncOp, hsg.ElementwiseSliceOp] | None:
    """The launched elementwise kernel and its one slice op; None for another kernel."""
    kernel = SymbolTable.lookup_symbol(launch, launch.kernel)
    if not isinstance(kernel, func.FuncOp) or read_rows(kernel) is not None \
            or OUTPUT_WINDOWS_ATTR in kernel.attributes or not kernel.body.blocks:
        return None
    slices = [o for o in kernel.walk() if isinstance(o, hsg.ElementwiseSliceOp)]
    return (kernel, slices[0]) if len(slices) == 1 else None


def _owners(launch: hsg.LaunchOp) -> list[_Joint | None] | None:
    """Per result, the chain it is inserted into (None: a result of its own); None when no
    result is, or a chain also inserts what the launch does not write."""
    joints: dict[SSAValue, _Joint] = {}
    owner: list[_Joint | None] = []
    for y in launch.ys:
        joint = _chain(y)
        if joint is not None:
            joint = joints.setdefault(joint.result, joint)
        owner.append(joint)
    for joint in joints.values():
        if set(joint.parts) != {y for y, j in zip(launch.ys, owner, strict=True) if j is joint}:
            return None  # the joint also holds what the launch does not write
    return owner if joints else None


def _boxes(launch: hsg.LaunchOp, owner: list[_Joint | None]) -> list[Box | None] | None:
    """Per result, the box its insert writes (None: a result of its own); None when an insert
    is not a box or a chain's boxes do not write its tensor whole and once."""
    boxes: list[Box | None] = []
    for y, joint in zip(launch.ys, owner, strict=True):
        if joint is None:
            boxes.append(None)
            continue
        box = joint.parts[y]
        if not isinstance(box, Box):
            return None
        boxes.append(box)
    for joint in dict.fromkeys(j for j in owner if j is not None):
        if joint_refusal([b for b, j in zip(boxes, owner, strict=True)
                          if j is joint and b is not None]):
            return None
    return boxes


def _rewrite(launch: hsg.LaunchOp, kernel: func.FuncOp, sliced: hsg.ElementwiseSliceOp,
             owner: list[_Joint | None], windows: Broadcast) -> None:
    block = kernel.body.block
    first = len(launch.inputs)
    old_args = list(block.args[first:first + len(launch.ys)])
    results: list[SSAValue] = []  # per new launch result: the value it replaces
    buffers: list[SSAValue] = []  # per old output: the new GM argument it writes
    made: dict[int, SSAValue] = {}
    at = first
    for y, joint, old in zip(launch.ys, owner, old_args, strict=True):
        key = id(joint) if joint is not None else id(y)
        if key not in made:
            value = joint.result if joint is not None else y
            element = value.type.get_element_type()  # type: ignore[attr-defined]
            arg = block.insert_arg(MemRefType(hsg.gm_element(element), [DYNAMIC_INDEX]), at)
            arg.name_hint = (value.name_hint or "out") if joint is not None else old.name_hint
            made[key] = arg
            results.append(value)
            at += 1
        buffers.append(made[key])
    for old, new in zip(old_args, buffers, strict=True):
        old.replace_all_uses_with(new)
        block.erase_arg(old)
    kernel.function_type = FunctionType.from_lists(
        [a.type for a in block.args], list(kernel.function_type.outputs.data))
    attr = to_attr(windows)
    kernel.attributes[OUTPUT_WINDOWS_ATTR] = sliced.attributes[OUTPUT_WINDOWS_ATTR] = attr
    if len(results) > 1:
        kernel.attributes[hsg.OUTPUTS_ATTR] = IntegerAttr(len(results), 64)
    else:
        kernel.attributes.pop(hsg.OUTPUTS_ATTR, None)
    new = hsg.LaunchOp(launch.kernel, launch.block_dim, launch.inputs, launch.tiling,
                       launch.scalars, [v.type for v in results])
    Rewriter.insert_op(new, InsertPoint.after(launch))  # the joint's users follow its inserts
    for value, made_result in zip(results, new.ys, strict=True):
        made_result.name_hint = value.name_hint
        value.replace_all_uses_with(made_result)
    for joint in dict.fromkeys(j for j in owner if j is not None):
        for made_op in reversed(joint.ops):
            Rewriter.erase_op(made_op)
    Rewriter.erase_op(launch)

