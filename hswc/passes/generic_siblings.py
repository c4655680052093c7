"""Sibling fusion for hsg-fuse-elementwise: elementwise generics that read a common tensor
become one generic with several outputs, so one kernel reads it once and writes them all.

Input: the generics producer-consumer fusion left (hsg_fuse_elementwise.fusable_generic: each
one elementwise output, or several from an earlier merge), in a block.
Output: for each two of them in one block that read one same value (at any map), or where the
later reads the earlier's result at its own index, whose results have one shape (all dims
static and equal, or both reading one tensor of that shape at its index) and that together
read at most MAX_INPUTS distinct (value, map) pairs and write at most MAX_OUTPUTS outputs, one
generic at the later one's place: the inputs of both (pairs read by both merged), the outputs
of the first then the second's, the first's body ops then the second's, each in its own types,
yielding both. Bits never change: each output is computed by exactly its own ops.

Two are merged only when no use of the earlier one's results comes before the later one (a
use between them would read a value not yet computed), but the later one's own reads of it: a
consumer that reads a producer's result at its own index, where the producer stayed for
another user (a result returned as well), takes the producer's body and keeps its result as
an output (`g = gelu(a); return g * b, g`: one kernel writing both). Generics of named ops
(`hsg.op_name`, a CANN kernel to reproduce) are left as they are; siblings of different
shapes stay apart with a remark, as the outputs of one kernel share one tiling of one element
count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.diagnostics import location_of
from hswc.dialects.hsg import OP_NAME_ATTR
from hswc.elementwise import MAX_INPUTS
from hswc.remarks import remark

Pairs = list[tuple[SSAValue, AffineMap]]


def _maps(op: GenericOp) -> list[AffineMap]:
    return [attr.data for attr in op.indexing_maps.data if isinstance(attr, AffineMapAttr)]


def _input_pairs(op: GenericOp) -> Pairs:
    return list(zip(op.inputs, _maps(op)[: len(op.inputs)], strict=True))


def _shape(op: GenericOp) -> tuple[int, ...] | None:
    t = op.res[0].type
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def _same_space(a: GenericOp, b: GenericOp) -> bool:
    """One iteration space: the same static shape, or, with dynamic dims, both reading one
    tensor of their results' type at the identity map (so both have its run-time shape)."""
    sa, sb = _shape(a), _shape(b)
    if sa is None or sb is None or sa != sb:
        return False
    t = a.res[0].type
    assert isinstance(t, TensorType)
    if t.has_static_shape():
        return True
    identity = AffineMap.identity(len(sa))
    shared = [v for v, m in _input_pairs(a) if m == identity and (v, m) in _input_pairs(b)]
    return any(isinstance(v.type, TensorType) and tuple(v.type.get_shape()) == sa
               for v in shared)


def _top(op: Operation, block: Block) -> Operation | None:
    """The ancestor of `op` (or itself) in `block`, None if it is not in it."""
    while op.parent is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


Order = dict[Operation, int]
"""Each op's position in the module's walk (a merged generic takes the later one's): within a
block, the block's order, so comparing two numbers costs nothing (xDSL's is_before_in_block
walks the block)."""


def _before(a: Operation, b: Operation, order: Order) -> bool:
    """Whether `a` is before `b` in their block."""
    if a in order and b in order:
        return order[a] < order[b]
    return a.is_before_in_block(b)


def _uses_after(first: GenericOp, second: GenericOp, order: Order) -> bool:
    """Whether every use of first's results is after `second` in their block, or is second's
    read of it at its own index (the merged body computes it)."""
    block = second.parent_block()
    assert block is not None
    identity = AffineMap.identity(len(second.iterator_types))
    for result in first.res:
        for use in result.uses:
            if use.operation is second:
                if use.index >= len(second.inputs) or _maps(second)[use.index] != identity:
                    return False
                continue
            at = _top(use.operation, block)
            if at is None or at is second or not _before(second, at, order):
                return False
    return True


def _merged_pairs(first: GenericOp, second: GenericOp) -> Pairs:
    """The merged generic's inputs: first's, then second's not already there, but for its
    reads of first's results (which the merged body computes)."""
    pairs = _input_pairs(first)
    return pairs + [p for p in _input_pairs(second)
                    if p not in pairs and p[0] not in first.res]


def _clone_body(op: GenericOp, block: Block, args: Sequence[SSAValue],
                outs: Sequence[SSAValue]) -> list[SSAValue]:
    """op's body ops (without its yield) cloned at the end of `block`, its input arguments
    reading `args` and its output arguments `outs`; the values it yields, mapped."""
    source = op.body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(source.args, [*args, *outs], strict=True))
    terminator = source.last_op
    assert isinstance(terminator, YieldOp)
    for inner in source.ops:
        if inner is terminator:
            break
        block.add_op(inner.clone(mapping))
    return [mapping.get(v, v) for v in terminator.operands]


def merge(first: GenericOp, second: GenericOp, order: Order | None = None) -> GenericOp:
    """The one generic of both (module docstring), inserted before `second`; both erased."""
    pairs = _merged_pairs(first, second)
    index = {pair: i for i, pair in enumerate(pairs)}
    out_types = [a.type for op in (first, second)
                 for a in op.body.block.args[len(op.inputs):]]
    block = Block(arg_types=[*(v.type.get_element_type() for v, _ in pairs),  # type: ignore[attr-defined]
                             *out_types])
    yielded: list[SSAValue] = []
    outs = list(block.args[len(pairs):])
    for op in (first, second):
        own = op.body.block.args
        # second's reads of first's results read what first's body yields
        computed: dict[SSAValue, SSAValue] = dict(zip(first.res, yielded, strict=False))
        args = [computed[v] if v in computed else block.args[index[(v, m)]]
                for v, m in _input_pairs(op)]
        for new, old in zip(args, own, strict=False):
            if isinstance(new, BlockArgument):
                new.name_hint = new.name_hint or old.name_hint
        count = len(op.outputs)
        yielded += _clone_body(op, block, args, outs[:count])
        for new, old in zip(outs[:count], own[len(op.inputs):], strict=True):
            new.name_hint = old.name_hint
        outs = outs[count:]
    block.add_op(YieldOp(*yielded))
    maps = [AffineMapAttr(m) for _, m in pairs] + [
        attr for op in (first, second) for attr in op.indexing_maps.data[len(op.inputs):]]
    merged = GenericOp([v for v, _ in pairs], [*first.outputs, *second.outputs], Region(block),
                       maps, list(second.iterator_types),
                       [r.type for op in (first, second) for r in op.res])
    merged.location = second.location
    Rewriter.insert_op(merged, InsertPoint.before(second))
    if order is not None and second in order:
        order[merged] = order[second]
    olds = [*first.res, *second.res]
    for old, new in zip(olds, merged.res, strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    Rewriter.erase_op(first)
    Rewriter.erase_op(second)
    return merged


def _refusal(first: GenericOp, second: GenericOp) -> str | None:
    """Why two siblings of different iteration spaces stay apart (for a remark), else None."""
    if _same_space(first, second):
        return None
    return (f"its shape {list(_shape(second) or ())} is not the shape "
            f"{list(_shape(first) or ())} of its sibling, so they cannot share one tiling: "
            "they stay two kernels")


def _mergeable(first: GenericOp, second: GenericOp, order: Order) -> bool:
    """One space, at most MAX_INPUTS inputs together (as producer fusion), and no use of the
    first's results before the second but its own reads at its index."""
    return (_same_space(first, second) and len(_merged_pairs(first, second)) <= MAX_INPUTS
            and _uses_after(first, second, order))


MAX_OUTPUTS = 4
"""The most outputs a merge makes (as MAX_INPUTS bounds the inputs: every output is a VECOUT
queue in UB)."""


def fuse_siblings(module: ModuleOp, known: Callable[[Operation], bool]) -> None:
    """Merge sibling generics (module docstring) among those `known` to be fusable, in walk
    order: each generic is merged with the latest generic before it that reads one of its
    inputs or computes it, if they can be one. Linear in the module: a value read by many
    generics is looked up once per reader, never scanned."""
    ops = list(module.walk())
    order: Order = {op: i for i, op in enumerate(ops)}
    latest: dict[SSAValue, GenericOp] = {}
    """Per value: the latest generic so far that reads or computes it."""
    for op in ops:
        if op.parent is None or not isinstance(op, GenericOp) or not _own(op, known):
            continue
        current = op
        for value in list(op.inputs):
            earlier = latest.get(value)
            if earlier is None or earlier.parent is None or earlier is current:
                continue
            why = _refusal(earlier, current)
            if why is not None:
                remark(current, f"reads an input of the generic at "
                       f"{location_of(earlier) or 'its sibling'}, but {why}")
            if len(earlier.outputs) + len(current.outputs) > MAX_OUTPUTS \
                    or not _mergeable(earlier, current, order):
                continue
            remark(earlier, "joins the generic at "
                   f"{location_of(current) or 'its sibling'}: one kernel, several outputs")
            current = merge(earlier, current, order)
        for value in (*current.inputs, *current.res):
            latest[value] = current


def _own(op: Operation, known: Callable[[Operation], bool]) -> bool:
    """A fusable generic that is no named op's (those keep their own kernel)."""
    return isinstance(op, GenericOp) and OP_NAME_ATTR not in op.attributes and known(op)
