"""Row regions of a function: a reduction along trailing dims and the elementwise work around it.

`row_regions(block)` finds, after elementwise fusion, each `linalg.generic` that reduces along
its trailing dims (parallel iterators, then reduction iterators; or, as a sum over N, H and W
keeping C, reduction iterators around one block of parallel ones: its rows are then strided,
hswc.rows' runs; or parallel, reduction and parallel iterators, a reduction over a middle dim,
its rows in groups: Space.outer; its inputs read whole; its
outputs the parallel dims; each output's body `combiner(value, out)` with combiner addf,
maximumf or minimumf, as torch-mlir writes sums, means, amax and the max of softmax), and grows a
region around it (hswc.rows): the elementwise generics that compute its inputs or read its
results over the same rows (element, row or column operands), further reductions of the same
rows (torch-mlir's `expand_shape` of a sum to keepdim is folded into its readers' maps by
hsg-fold-reshapes before). What the region computes becomes one row kernel
(hswc.passes.row_kernels, called by hsg-tile-on-cores); `row_body` writes it as one body in
which `hsg.reduce` stands for each reduction. A bf16 reduction as hsg-widen-bf16 writes it
(`truncf(combiner(extf(in), extf(out)))`) is combined in f32 and rounded once.

A generic joins only where nothing outside the region lies between: each outside value it reads
does not depend on the region; and the region's results used outside (several, of different
classes and element types: a row's scale and the quantized elements) are used after its last
member, where its kernel is launched; its last members are let go until they are.
A sum's init that is not its identity (-0.0 for addf, -inf / +inf for maximumf / minimumf) is
combined once, after the row's reduction. A reduction in f16 or bf16 is accumulated in f32 and
rounded once (more exactly than MLIR's sequential loop in that type; the issue allows it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, FloatAttr, TensorType, UnitAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.dialects.hsg_rows import ReduceOp
from hswc.reduction_order import IDENTITY
from hswc.rows import OperandClass, Rows
from hswc.vectorizer.dag import unmapped_op

COMBINERS = {arith.AddfOp: "addf", arith.MaximumfOp: "maximumf", arith.MinimumfOp: "minimumf"}


@dataclass(frozen=True)
class Space:
    """The rows x length elements a region iterates: the kept dims [lead, rank) are the rows',
    the dims before `lead` and from `rank` on the reduced ones (a reduction over leading dims
    when `lead` > 0: hswc.rows' runs). The row dims may be dynamic (negative: the row count is
    known at run time) where `lead` is 0; so may the reduced dims there (the row length known
    at run time: `dynamic`, hswc.rows)."""

    shape: tuple[int, ...]
    rank: int
    """Where the rows' dims end."""
    lead: int = 0
    """Where the rows' dims start (the leading reduced dims before)."""
    outer: int = 0
    """The row dims before the reduced ones (a reduction over a middle dim: softmax over dim
    1 of [A, R, C] keeps dims [0, outer) and [lead, rank), reduces [outer, lead)): the rows
    come in A groups (hswc.rows: a row index past one group's continues in the next)."""

    @property
    def rows(self) -> int | None:
        """The row count; None when a row dim is dynamic."""
        dims = self.kept
        return None if any(d < 0 for d in dims) else math.prod(dims)

    @property
    def dynamic(self) -> bool:
        """Whether the row length is known at run time only (a reduced dim dynamic)."""
        return any(d < 0 for d in self.shape[self.outer:self.lead] + self.shape[self.rank:])

    @property
    def length(self) -> int:
        """The row length; -1 where it is `dynamic`."""
        if self.dynamic:
            return -1
        return math.prod(self.shape[self.outer:self.lead]) * math.prod(self.shape[self.rank:])

    @property
    def runs(self) -> int:
        """How many contiguous runs of a row an element operand holds (hswc.rows)."""
        return math.prod(self.shape[self.outer:self.lead]) if self.rows else 1

    @property
    def stride(self) -> int:
        """The elements between the starts of two runs of a row."""
        return math.prod(self.shape[self.lead:])

    @property
    def kept(self) -> tuple[int, ...]:
        """The sizes of the rows' dims."""
        return self.shape[:self.outer] + self.shape[self.lead:self.rank]

    def _kept_dims(self) -> list[int]:
        return [*range(self.outer), *range(self.lead, self.rank)]

    def class_of(self, t: TensorType, m: AffineMap) -> OperandClass | None:
        """Which part of the space a tensor read through `m` spans, None for other reads."""
        full = len(self.shape)
        if m.num_dims != full:
            return None
        dims = [e.position if isinstance(e, AffineDimExpr) else None for e in m.results]
        zeros = [isinstance(e, AffineConstantExpr) and e.value == 0 for e in m.results]
        shape = tuple(t.get_shape())
        kept = [d for d in dims if d is not None]
        if any(d is None and not z for d, z in zip(dims, zeros, strict=True)):
            return None
        if any(shape[i] != 1 for i, d in enumerate(dims) if d is None):
            return None
        if any(shape[i] != self.shape[d] for i, d in enumerate(dims) if d is not None):
            return None
        reduced = [*range(self.outer, self.lead), *range(self.rank, full)]
        for span in (kept, [d for d in kept if self.shape[d] != 1]):
            # then with the dims of extent 1 left out: a row value of (4,) read over the rows
            # of a (4, 1) generic, as torch-mlir's keepdim leaves them (`amax / 127`)
            if span == self._span(range(full), span is kept):
                return "element"
            if span == self._span(self._kept_dims(), span is kept):
                return "row"
            if span == self._span(reduced, span is kept):
                return "column"
        return None

    def _span(self, dims: Iterable[int], every: bool) -> list[int]:
        return [d for d in dims if every or self.shape[d] != 1]


@dataclass(frozen=True)
class Reduction:
    """A generic that reduces along its trailing dims (module docstring)."""

    op: GenericOp
    space: Space
    combiners: tuple[str, ...]
    """Per output."""


def _maps(op: GenericOp) -> list[AffineMap]:
    return [attr.data for attr in op.indexing_maps if isinstance(attr, AffineMapAttr)]


def _ranked(t: object) -> TensorType | None:
    """A ranked tensor type (static or dynamic dims: class_of and the caller place them)."""
    return t if isinstance(t, TensorType) else None


def as_reduction(op: GenericOp) -> Reduction | None:
    """The generic as a row reduction, None when it is not one (module docstring)."""
    kinds = [str(it.data.value) for it in op.iterator_types]
    if "reduction" not in kinds or "parallel" not in kinds:
        return None
    outer = 0
    first = kinds.index("reduction")
    if first > 0 and "parallel" in kinds[first:]:  # a middle dim: P..P R..R P..P
        outer, kinds = first, kinds[first:]
    lead = kinds.index("parallel")
    rank = kinds.index("reduction", lead) if "reduction" in kinds[lead:] else len(kinds)
    if any(k != "parallel" for k in kinds[lead:rank]) \
            or any(k != "reduction" for k in kinds[:lead] + kinds[rank:]) \
            or (outer and rank != len(kinds)):
        return None
    lead, rank = lead + outer, rank + outer
    kinds = [str(it.data.value) for it in op.iterator_types]
    if len(op.outputs) != len(op.res):
        return None
    first = _ranked(op.inputs[0].type) if op.inputs else None
    if first is None or len(first.get_shape()) != len(kinds):
        return None
    shape = first.get_shape()
    if lead > 0 and any(d < 0 for d in shape):
        return None  # strided runs (hswc.rows) need every dim static
    space = Space(tuple(shape), rank, lead, outer)
    maps = _maps(op)
    for value, m in zip(op.inputs, maps, strict=False):
        t = _ranked(value.type)
        if t is None or space.class_of(t, m) not in ("element", "row", "column"):
            return None
    for value, m in zip(op.outputs, maps[len(op.inputs):], strict=True):
        t = _ranked(value.type)
        if t is None or space.class_of(t, m) != "row":
            return None
    combiners = _combiners(op)
    return None if combiners is None else Reduction(op, space, combiners)


def _combiners(op: GenericOp) -> tuple[str, ...] | None:
    """Each output's combiner, when the body yields combiner(value, out) with `value`
    independent of every out argument; None otherwise."""
    block = op.body.block
    outs = block.args[len(op.inputs):]
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.operands) != len(outs):
        return None
    found: list[str] = []
    for out, yielded in zip(outs, last.operands, strict=True):
        combine = _combine_op(yielded)
        kind = COMBINERS.get(type(combine)) if combine is not None else None
        if kind is None or combine is None or len(list(out.uses)) != 1:
            return None
        other = [v for v in combine.operands if _accumulator(v) is not out]
        if len(other) != 1 or len(other) == len(combine.operands) \
                or _depends_on(other[0], set(outs)):
            return None
        found.append(kind)
    if unmapped_op(block) is not None:
        return None
    return tuple(found)


def _combine_op(yielded: SSAValue) -> Operation | None:
    """The op combining a reduction's value with its accumulator: the yielded value's, or,
    as hsg-widen-bf16 writes a bf16 reduction (`truncf(maximumf(extf(in), extf(out)))`), the
    op its truncf rounds."""
    owner = yielded.owner
    if isinstance(owner, arith.TruncFOp):
        owner = owner.input.owner
    return owner if isinstance(owner, Operation) else None


def _accumulator(value: SSAValue) -> SSAValue:
    """The value itself, or what an arith.extf widens (the widened accumulator)."""
    owner = value.owner
    return owner.input if isinstance(owner, arith.ExtFOp) else value


def _depends_on(value: SSAValue, args: set[SSAValue]) -> bool:
    stack, seen = [value], set()
    while stack:
        v = stack.pop()
        if v in args:
            return True
        if v in seen or not isinstance(v.owner, Operation):
            continue
        seen.add(v)
        stack.extend(v.owner.operands)
    return False


def drop_unused_results(op: GenericOp) -> GenericOp:
    """The generic without the results nothing uses (torch-mlir's max with its unused index),
    their body computation dropped; `op` itself when every result is used."""
    keep = [i for i, r in enumerate(op.res) if r.uses]
    if len(keep) == len(op.res) or not keep:
        return op
    count = len(op.inputs)
    block = op.body.block
    maps = _maps(op)
    last = block.last_op
    assert isinstance(last, YieldOp)
    new_body = Block(arg_types=[*(a.type for a in block.args[:count]),
                                *(block.args[count + i].type for i in keep)])
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args[:count], new_body.args[:count],
                                                 strict=True))
    for j, i in enumerate(keep):
        mapping[block.args[count + i]] = new_body.args[count + j]
    needed = _needed(block, [last.operands[i] for i in keep])
    for inner in block.ops:
        if inner is last or inner not in needed:
            continue
        new_body.add_op(inner.clone(value_mapper=mapping))
    new_body.add_op(YieldOp(*(mapping[last.operands[i]] for i in keep)))
    generic = GenericOp(list(op.inputs), [op.outputs[i] for i in keep], Region(new_body),
                        [AffineMapAttr(m) for m in (*maps[:count], *(maps[count + i]
                                                                     for i in keep))],
                        list(op.iterator_types.data), [op.res[i].type for i in keep])
    generic.location = op.location
    generic.attributes.update(op.attributes)
    Rewriter.insert_op(generic, InsertPoint.before(op))
    for j, i in enumerate(keep):
        op.res[i].replace_all_uses_with(generic.res[j])
    Rewriter.erase_op(op)
    return generic


def _needed(block: Block, roots: list[SSAValue]) -> set[Operation]:
    found: set[Operation] = set()
    stack = list(roots)
    while stack:
        v = stack.pop()
        owner = v.owner
        if isinstance(owner, Operation) and owner.parent_block() is block and owner not in found:
            found.add(owner)
            stack.extend(owner.operands)
    return found


# region growing a region


@dataclass
class RowRegion:
    """The generics one row kernel computes, in block order."""

    space: Space
    members: list[GenericOp] = field(default_factory=list)
    reductions: dict[GenericOp, Reduction] = field(default_factory=dict)
    level: dict[SSAValue, OperandClass] = field(default_factory=dict)
    """The class of each value the region computes (element or row)."""

    def computes(self, value: SSAValue) -> bool:
        return value in self.level

    def inputs(self) -> list[tuple[SSAValue, OperandClass]]:
        """The outside values the members read, with their class, in order of first read."""
        found: dict[SSAValue, OperandClass] = {}
        for member in self.members:
            for value, kind in self._reads(member):
                if not self.computes(value) and value not in found:
                    found[value] = kind
        return list(found.items())

    def outputs(self) -> list[SSAValue]:
        """The values the region computes that something outside it uses."""
        inside: set[Operation] = set(self.members)
        return [v for v in self.level if any(u.operation not in inside and
                                             not _within(u.operation, inside) for u in v.uses)]

    def _reads(self, member: GenericOp) -> list[tuple[SSAValue, OperandClass]]:
        if member in self.reductions:  # an init that is not a constant is a row input
            inits = [(v, "row") for v in member.outputs if fill_constant(v) is None]
            return [*self._input_reads(member), *inits]  # type: ignore[list-item]
        return self._input_reads(member)

    def _input_reads(self, member: GenericOp) -> list[tuple[SSAValue, OperandClass]]:
        space = self.space if self._element_level(member) else _own_space(member)
        reads = []
        for value, m in zip(member.inputs, _maps(member), strict=False):
            t = value.type
            assert isinstance(t, TensorType)
            kind = space.class_of(t, m)
            assert kind is not None
            reads.append((value, _lift(kind, space, self.space)))
        return reads

    def _element_level(self, member: GenericOp) -> bool:
        t = member.res[0].type
        return member in self.reductions or (
            isinstance(t, TensorType) and tuple(t.get_shape()) == self.space.shape)


def _within(op: Operation, inside: set[Operation]) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent in inside:
            return True
        parent = parent.parent_op()
    return False


def _own_space(op: GenericOp) -> Space:
    """The space of a generic over a region's row values (its result's shape: the rows, with
    the size-1 dims a keepdim reduction leaves): every dim a row dim."""
    t = op.res[0].type
    assert isinstance(t, TensorType)
    return Space(tuple(t.get_shape()), t.get_num_dims())


def _lift(kind: OperandClass, space: Space, region: Space) -> OperandClass:
    """An operand's class in the region, from its class in the generic's own space."""
    if space is region or space.shape == region.shape:
        return kind
    return "row"  # the generic iterates the rows only: every operand is a row value


# endregion


def row_regions(block: Block) -> list[RowRegion]:
    """The row regions of a block (module docstring), each reduction in at most one; a
    generic's results nothing uses are dropped first (drop_unused_results)."""
    for op in list(block.ops):
        if isinstance(op, GenericOp) and len(op.res) > 1:
            drop_unused_results(op)
    regions: list[RowRegion] = []
    taken: set[Operation] = set()
    order = {op: i for i, op in enumerate(block.ops)}  # the block's ops stay while regions grow
    for op in order:
        if isinstance(op, GenericOp) and op not in taken:
            reduction = as_reduction(op)
            if reduction is not None:
                region = _grow(reduction, taken, order)
                regions.append(region)
                taken.update(region.members)
    return regions


def _grow(seed: Reduction, taken: set[Operation], order: dict[Operation, int]) -> RowRegion:
    """The region grown from a reduction (`order`: each op of the block by position)."""
    region = RowRegion(seed.space)
    _add(region, seed.op, seed)
    changed = True
    while changed:
        changed = False
        for candidate in _neighbours(region):
            if candidate in taken or candidate in region.members:
                continue
            if _try_add(region, candidate, order):
                changed = True
    region.members.sort(key=order.__getitem__)
    # The kernel takes the place of the last member, so every result used outside must be used
    # after it: otherwise the members are let go, last first, until they are (one result used
    # outside always is: the last member's). Checked once grown, not at each step: softmax's
    # sum makes two results (the exponentials and their sum) until the division that reads
    # both joins.
    while len(region.members) > 1 and not _used_after(region, order):
        _remove(region, region.members[-1])
    if not region.reductions:  # what was left reduces nothing: the seed alone, then
        region = RowRegion(seed.space)
        _add(region, seed.op, seed)
    return region


def _used_after(region: RowRegion, order: dict[Operation, int]) -> bool:
    """Whether every outside use of the region's results lies after its last member."""
    last = region.members[-1]
    block = last.parent_block()
    inside: set[Operation] = set(region.members)
    for value in region.outputs():
        for use in value.uses:
            user: Operation | None = use.operation
            if user in inside or _within(user, inside):
                continue
            while user is not None and user.parent_block() is not block:
                user = user.parent_op()
            if user is None or order[user] < order[last]:
                return False
    return True


def _remove(region: RowRegion, op: GenericOp) -> None:
    region.members.remove(op)
    region.reductions.pop(op, None)
    for result in op.results:
        region.level.pop(result, None)


def _neighbours(region: RowRegion) -> list[Operation]:
    found: list[Operation] = []
    for member in region.members:
        for value in member.operands:
            owner = value.owner
            if isinstance(owner, GenericOp):
                found.append(owner)
        for result in member.results:
            found += [u.operation for u in result.uses]
    return found


def _add(region: RowRegion, op: GenericOp, reduction: Reduction | None = None) -> None:
    region.members.append(op)
    if reduction is not None:
        region.reductions[reduction.op] = reduction
        for r in reduction.op.res:
            region.level[r] = "row"
        return
    t = op.res[0].type
    assert isinstance(t, TensorType)
    region.level[op.res[0]] = "element" if tuple(t.get_shape()) == region.space.shape else "row"


def _try_add(region: RowRegion, op: Operation, order: dict[Operation, int]) -> bool:
    """Add `op` if it computes over the region's rows and keeps the region one kernel."""
    if op.parent_block() is not region.members[0].parent_block() or not isinstance(op, GenericOp):
        return False
    reduction = as_reduction(op)
    if reduction is not None and reduction.space != region.space:
        reduction = None
    if reduction is None and not _joins(region, op):
        return False
    if any(_depends_on_region(region, v, order) for v in op.operands
           if not region.computes(v)):
        return False
    _add(region, op, reduction)
    return True


def _joins(region: RowRegion, op: GenericOp) -> bool:
    """An elementwise generic over the region's elements or its rows whose every input is
    an element, row or column operand there."""
    if len(op.res) != 1 or any(it.data.value != "parallel" for it in op.iterator_types):
        return False
    if unmapped_op(op.body.block) is not None or op.body.block.args[-1].uses:
        return False
    t = _ranked(op.res[0].type)
    if t is None:
        return False
    shape = tuple(t.get_shape())
    rows_only = [d for d in shape if d != 1] == [d for d in region.space.kept if d != 1]
    if shape == region.space.shape:
        space = region.space
    elif rows_only:
        space = _own_space(op)
    else:
        return False
    maps = _maps(op)
    if maps[-1] != AffineMap.identity(len(shape)):
        return False
    for value, m in zip(op.inputs, maps, strict=False):
        vt = _ranked(value.type)
        if vt is None:
            return False
        kind = space.class_of(vt, m)
        if kind is None:
            return False
        inside = region.level.get(value)
        if inside is not None and _lift(kind, space, region.space) != inside:
            return False
    reads = any(region.computes(v) for v in op.inputs)
    feeds = any(use.operation in region.members for use in op.res[0].uses)
    return reads or feeds


def _depends_on_region(region: RowRegion, value: SSAValue, order: dict[Operation, int]) -> bool:
    """Whether an outside value is computed from what the region computes (reading it would
    put the region on both sides of an outside op). An op of the block before the region's
    first member (`order`: the block's ops by position) reads only values that dominate it,
    none of them the region's: the search stops there, so it looks at the ops between the
    region and the value, not at everything the model computed before."""
    first = min(order[member] for member in region.members)
    stack, seen = [value], set()
    while stack:
        v = stack.pop()
        if region.computes(v):
            return True
        owner = v.owner
        if v in seen or not isinstance(owner, Operation) or order.get(owner, first) < first:
            continue
        seen.add(v)
        stack.extend(owner.operands)
        for region_ in owner.regions:
            for inner in region_.walk():
                stack.extend(o for o in inner.operands if not isinstance(o.owner, Block))
    return False


# region the body


def row_body(region: RowRegion) -> tuple[Block, list[SSAValue], Rows]:
    """The region as one body (module docstring), the outside values it reads (in the order of
    its arguments) and its rows description."""
    inputs = region.inputs()
    outputs = region.outputs()
    block = Block(arg_types=[v.type.get_element_type() for v, _ in inputs])  # type: ignore[attr-defined]
    values: dict[SSAValue, SSAValue] = {v: arg for (v, _), arg in zip(inputs, block.args,
                                                                       strict=True)}
    for member in region.members:
        _inline(member, region.reductions.get(member), values, block)
    block.add_op(YieldOp(*(values[v] for v in outputs)))
    space = region.space
    for op in block.ops:
        if isinstance(op, ReduceOp) and op.combiner.data == "addf" \
                and not nonnegative(op.value) \
                and (space.dynamic or not averaged(op.result, space.length)):
            op.properties["signed"] = UnitAttr()
    runs = space.runs
    stride = space.stride if runs > 1 else 0
    rows = Rows(space.length, tuple(kind for _, kind in inputs),
                tuple(region.level[v] for v in outputs), runs, stride,
                dynamic=space.dynamic)
    return block, [v for v, _ in inputs], rows


def _inline(op: GenericOp, reduction: Reduction | None, values: dict[SSAValue, SSAValue],
            block: Block) -> None:
    body = op.body.block
    count = len(op.inputs)
    mapping: dict[SSAValue, SSAValue] = {arg: values[v] for arg, v in zip(body.args, op.inputs,
                                                                           strict=False)}
    last = body.last_op
    assert isinstance(last, YieldOp)
    outs = body.args[count:]
    skipped: set[Operation] = set()
    if reduction is not None:  # the combining ops, their rounding and the widened accumulators
        for yielded in last.operands:
            combine = _combine_op(yielded)
            assert combine is not None
            skipped |= {o for o in (yielded.owner, combine, *(v.owner for v in combine.operands))
                        if isinstance(o, arith.TruncFOp | arith.ExtFOp) and o.operands[0]
                        in outs} | {combine}
            if isinstance(yielded.owner, arith.TruncFOp):
                skipped.add(yielded.owner)
    for inner in body.ops:
        if inner is last or inner in skipped:
            continue
        block.add_op(inner.clone(value_mapper=mapping))
    if reduction is None:
        values[op.res[0]] = mapping.get(last.operands[0], last.operands[0])
        return
    for j, (yielded, kind) in enumerate(zip(last.operands, reduction.combiners, strict=True)):
        combine = _combine_op(yielded)
        assert combine is not None
        element = next(v for v in combine.operands if _accumulator(v) is not outs[j])
        reduced = ReduceOp(kind, mapping.get(element, element))
        block.add_op(reduced)
        result: SSAValue = reduced.result
        init = _init_constant(op.outputs[j])
        identity = init is not None and init == IDENTITY[kind] and math.copysign(
            1, init) == math.copysign(1, IDENTITY[kind])
        if not identity:
            start = _init_value(op.outputs[j], values, block)
            if start.type != result.type:  # a bf16 init combined in f32, as the body does
                widened = arith.ExtFOp(start, result.type)
                block.add_op(widened)
                start = widened.result
            again = type(combine).create(operands=[start, result], result_types=[result.type],
                                         properties=dict(combine.properties))
            block.add_op(again)
            result = again.results[0]
        if result.type != yielded.type:  # rounded once to the accumulator's type
            rounded = arith.TruncFOp(result, yielded.type)
            block.add_op(rounded)
            result = rounded.result
        values[op.res[j]] = result


NONNEGATIVE_DEPTH = 32
"""How far back nonnegative looks (a body's chain is short; beyond: not shown)."""
_NONNEGATIVE_ALWAYS = ("math.exp", "math.absf", "math.sqrt")
_NONNEGATIVE_IF_ALL = ("arith.addf", "arith.mulf", "arith.divf", "arith.minimumf",
                       "arith.extf", "arith.truncf")


def nonnegative(value: SSAValue, depth: int = NONNEGATIVE_DEPTH) -> bool:
    """Whether every value `value` takes is >= 0, -0.0 or NaN (never a negative number), as
    its ops show: exp, absf, sqrt, a product of a value with itself, a constant >= 0, and
    sums, products, quotients, minima, conversions and selects of such values, or a maximum
    with one. A sum of such terms cannot cancel (hswc.reduction_order: Compensated); False
    where it cannot be shown."""
    owner = value.owner
    if depth == 0 or not isinstance(owner, Operation):
        return False
    name = owner.name
    if name in _NONNEGATIVE_ALWAYS:
        return True
    if isinstance(owner, arith.ConstantOp):
        attr = owner.value
        return isinstance(attr, FloatAttr) and (math.isnan(attr.value.data)
                                                or math.copysign(1, attr.value.data) > 0)
    operands = list(owner.operands)
    if name == "arith.mulf" and _same_value(operands[0], operands[1], depth):
        return True
    if name == "arith.select":
        operands = operands[1:]
    elif name == "arith.maximumf":
        return any(nonnegative(v, depth - 1) for v in operands)
    elif name not in _NONNEGATIVE_IF_ALL:
        return False
    return all(nonnegative(v, depth - 1) for v in operands)


def averaged(total: SSAValue, length: int) -> bool:
    """Whether every use of a row's sum divides it by the row length or more (a mean; through
    an init's + 0.0). A mean's error from the fold tree is at most about log2(length) eps
    times the mean magnitude of its terms, that of a rounding of a term, so it needs no
    compensation however the sum cancels (hswc.reduction_order: Compensated)."""
    uses = list(total.uses)
    for use in uses:
        op = use.operation
        other = [v for v in op.operands if v is not total]
        constant = other[0].owner if len(other) == 1 else None
        value = float(constant.value.value.data) \
            if isinstance(constant, arith.ConstantOp) and isinstance(constant.value, FloatAttr) \
            else None
        if value is None:
            return False
        if isinstance(op, arith.AddfOp) and value == 0.0:
            if not averaged(op.result, length):
                return False
        elif isinstance(op, arith.DivfOp) and use.index == 0 and value >= length:
            continue
        elif isinstance(op, arith.MulfOp) and 0 <= value <= 1 / length:
            continue
        else:
            return False
    return bool(uses)


def _same_value(a: SSAValue, b: SSAValue, depth: int) -> bool:
    """Whether a and b are one value, or the results of equal ops of equal operands (the
    decompositions write x - mean twice for (x - mean) * (x - mean))."""
    if a is b:
        return True
    x, y = a.owner, b.owner
    if depth == 0 or not isinstance(x, Operation) or not isinstance(y, Operation) \
            or x.name != y.name or x.regions or y.regions or len(x.results) != 1 \
            or x.properties != y.properties or x.attributes != y.attributes \
            or len(x.operands) != len(y.operands):
        return False
    return all(_same_value(p, q, depth - 1) for p, q in zip(x.operands, y.operands,
                                                             strict=True))


def fill_constant(init: SSAValue) -> arith.ConstantOp | None:
    """The constant a tensor is filled with: a linalg.fill of one, or the generic a fill
    becomes (no inputs, a body yielding a constant)."""
    owner = init.owner
    value: SSAValue | None = None
    if isinstance(owner, FillOp):
        value = cast(FillOp, owner).inputs[0]
    generic = owner if isinstance(owner, GenericOp) else None
    if generic is not None and not generic.inputs and len(generic.res) == 1:
        last = generic.body.block.last_op
        value = last.operands[0] if isinstance(last, YieldOp) and last.operands else None
    constant = value.owner if value is not None else None
    if isinstance(constant, arith.ConstantOp) and isinstance(constant.value, FloatAttr):
        return constant
    return None


def _init_constant(init: SSAValue) -> float | None:
    constant = fill_constant(init)
    return None if constant is None else float(constant.value.value.data)  # type: ignore[union-attr]


def _init_value(init: SSAValue, values: dict[SSAValue, SSAValue], block: Block) -> SSAValue:
    """The init of a reduction as a body value: its fill's constant, cloned into the body."""
    constant = fill_constant(init)
    if constant is not None:
        clone = constant.clone()
        block.add_op(clone)
        return clone.results[0]
    return values[init]


# endregion
