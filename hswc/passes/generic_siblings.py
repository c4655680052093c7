"""Sibling fusion for hsg-fuse-elementwise: elementwise generics that read a common tensor
become one generic with several outputs, so one kernel reads it once and writes them all.

Input: the generics producer-consumer fusion left (hsg_fuse_elementwise.fusable_generic: each
one elementwise output, or several from an earlier merge), in a block.
Output: for each two of them in one block that read one same value (at any map), whose results
have one shape (all dims static and equal, or the same type's dims) and together read at most
MAX_INPUTS distinct (value, map) pairs, one generic at the later one's place: the inputs of
both (pairs read by both merged), the outputs of the first then the second's, the first's body
ops then the second's, each in its own types, yielding both. Bits never change: each output is
computed by exactly its own ops. Two are merged only when no use of the earlier one's results
comes before the later one (else the later one would depend on it, or a use between them would
read a value not yet computed). Generics of named ops (`hsg.op_name`, a CANN kernel to
reproduce) are left as they are; siblings of different shapes stay apart with a remark, as the
kernels of one launch share one tiling of one element count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
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


def _uses_after(first: GenericOp, second: GenericOp) -> bool:
    """Whether every use of first's results is after `second` in their block."""
    block = second.parent_block()
    assert block is not None
    for result in first.res:
        for use in result.uses:
            at = _top(use.operation, block)
            if at is None or at is second or not second.is_before_in_block(at):
                return False
    return True


def _merged_pairs(first: GenericOp, second: GenericOp) -> Pairs:
    pairs = _input_pairs(first)
    return pairs + [p for p in _input_pairs(second) if p not in pairs]


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


def merge(first: GenericOp, second: GenericOp) -> GenericOp:
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
        args = [block.args[index[pair]] for pair in _input_pairs(op)]
        for new, old in zip(args, own, strict=False):
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
    olds = [*first.res, *second.res]
    for old, new in zip(olds, merged.res, strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    Rewriter.erase_op(first)
    Rewriter.erase_op(second)
    return merged


def _candidates(op: GenericOp, known: Callable[[Operation], bool]) -> list[GenericOp]:
    """The generics after `op` in its block that read one of its inputs, in block order."""
    block = op.parent_block()
    found: dict[Operation, None] = {}
    for value in op.inputs:
        for use in value.uses:
            user = use.operation
            if (user is not op and isinstance(user, GenericOp) and user.parent is block
                    and op.is_before_in_block(user) and known(user)):
                found[user] = None
    return sorted(found, key=_position)  # type: ignore[arg-type]


def _position(op: Operation) -> int:
    """op's index in its block (siblings are few: the linear walk is over their block only
    when two of them meet, which is bounded by the inputs' uses)."""
    count = 0
    while op.prev_op is not None:
        op = op.prev_op
        count += 1
    return count


def _refusal(first: GenericOp, second: GenericOp) -> str | None:
    """Why two siblings of different iteration spaces stay apart (for a remark), else None."""
    if _same_space(first, second):
        return None
    return (f"its shape {list(_shape(second) or ())} is not the shape "
            f"{list(_shape(first) or ())} of its sibling, so they cannot share one tiling: "
            "they stay two kernels")


def _mergeable(first: GenericOp, second: GenericOp) -> bool:
    """One space, at most MAX_INPUTS inputs together (as producer fusion), and no use of the
    first's results before the second."""
    return (_same_space(first, second) and len(_merged_pairs(first, second)) <= MAX_INPUTS
            and _uses_after(first, second))


def fuse_siblings(module: ModuleOp, known: Callable[[Operation], bool]) -> None:
    """Merge sibling generics (module docstring) among those `known` to be fusable."""
    for op in list(module.walk()):
        if op.parent is None or not isinstance(op, GenericOp) or not _own(op, known):
            continue
        current = op
        changed = True
        while changed:
            changed = False
            for other in _candidates(current, lambda u: _own(u, known)):
                why = _refusal(current, other)
                if why is not None:
                    remark(other, f"reads an input of the generic at "
                           f"{location_of(current) or 'its sibling'}, but {why}")
                if not _mergeable(current, other):
                    continue
                remark(current, "joins the generic at "
                       f"{location_of(other) or 'its sibling'}: one kernel, several outputs")
                current = merge(current, other)
                changed = True
                break


def _own(op: Operation, known: Callable[[Operation], bool]) -> bool:
    """A fusable generic that is no named op's (those keep their own kernel)."""
    return isinstance(op, GenericOp) and OP_NAME_ATTR not in op.attributes and known(op)
