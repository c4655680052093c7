"""hsg-fuse-elementwise: fuse producer generics into the elementwise generics that consume them.

Input: elementwise `linalg.generic` ops (hsg-decompose's, a user's, or an exporter's: parallel
iterators, an identity output map, inputs indexed by projected permutations, any element types,
i1 masks included) in a block.
Output: wherever a generic's input is the result of another such generic, one generic whose
body computes the producer's body inline, then the consumer's, reading the producer's inputs
(through the producer's maps composed with the consumer's) instead of its result: one kernel
that reads the inputs of both and writes one output, instead of two kernels and the HBM round
trip between them. Conversion generics, mask generics and selects of masks fuse like any other,
so a whole elementwise graph becomes one generic and its intermediate (widened, i1) tensors
never exist; what then does not make a kernel (element types still mixed at its boundary, a
body op with no mapping) is reported by hsg-tile-on-cores.

A producer is fused when the consumer is its only user; with `recompute` (on by default) a
producer with several users is fused into each of them when all of them are elementwise
consumers it can join and its body has at most `max-recompute-ops` operations: each computes it
again and the producer's kernel goes away. (A producer that must stay for another user is not
recomputed: its fused consumer would read its inputs again, more HBM traffic than its result.)
Fusion never changes bits: the fused body is the two bodies' ops, each in its own type, in
order (the interpreter and the kernel compute each op exactly). Inputs that fusion makes
duplicates are merged, and the fused generic keeps no `hsg.op_name`: it is a new operator (its
kernel is named after its function, or hsg-tile-on-cores' `kernel-name`). `tensor.dim` of an
elementwise result is read from the generic's input of the same shape instead, so that what
sizes a consumer does not keep its producer.

Then, with `siblings` (on by default), generics that read a common tensor are merged into one
generic of several outputs (hswc.passes.generic_siblings): `relu(x), x > 0` as torch-mlir
exports it, two generics reading x, becomes one kernel writing both.

Order: the earliest consumer (in walk order) with a fusable producer is fused first, its first
such input first, and so on until nothing fuses: fusion decides which producers fit under the
4-input limit, so the order is part of the result. A worklist ordered by each op's walk
position replays exactly that order without walking the module again after each fusion: a
fusion can only change what fuses into the users of the values the fused ops read or produced,
so those are queued again. Fused bodies are built by moving the smaller body's ops into the
larger body's block (a recomputed producer is cloned): a chain of n ops fuses in O(n log n)
op moves, with no recursion.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import PassFailedException

from hswc.broadcast import is_window
from hswc.diagnostics import location_of
from hswc.elementwise import MAX_INPUTS
from hswc.passes.generic_siblings import fuse_siblings
from hswc.remarks import remark
from hswc.vectorizer.dag import unmapped_op

DROPPED_ATTRIBUTES = ("hsg.op_name", "hsg.semantics", "hsg.ub_budget")
"""What a named op's generic says about itself and no longer holds once fused."""


def _map(op: GenericOp, index: int) -> AffineMap:
    attr = op.indexing_maps.data[index]
    assert isinstance(attr, AffineMapAttr)
    return attr.data


def fusable_generic(op: Operation) -> bool:
    """Whether `op` is a generic fusion can take apart and join: one output indexed by the
    identity, every iterator parallel, inputs indexed by projected permutations (constant 0
    allowed) at constant offsets (hswc.broadcast.is_window), a body that does not read the
    output and holds only ops the vectorizer maps (so fusion never drags a kernel's work into
    a generic that must stay on the host)."""
    if not isinstance(op, GenericOp) or len(op.outputs) != 1 or len(op.res) != 1:
        return False
    if len(op.indexing_maps) != len(op.inputs) + 1:
        return False
    rank = len(op.iterator_types)
    if any(it.data.value != "parallel" for it in op.iterator_types):
        return False
    if _map(op, len(op.inputs)) != AffineMap.identity(rank):
        return False
    for i in range(len(op.inputs)):
        m = _map(op, i)
        if m.num_dims != rank or not is_window(m):
            return False
    if not all(isinstance(v.type, TensorType) for v in (*op.inputs, *op.outputs, op.res[0])):
        return False
    block = op.body.block
    if len(block.args) != len(op.inputs) + 1 or block.args[-1].uses:
        return False
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.operands) != 1:
        return False
    return unmapped_op(block) is None


def _iteration_shape(op: GenericOp) -> tuple[int, ...]:
    t = op.res[0].type
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def _reads_shape(consumer: GenericOp, m: AffineMap) -> tuple[int, ...] | None:
    """The shape of the tensor `consumer` reads through map `m` (dims of its iteration space;
    a constant 0 reads a dim of size 1); None where it reads at an offset (a window of a larger
    tensor: its producer is not fused, it stays a kernel of its own)."""
    space = _iteration_shape(consumer)
    shape = []
    for e in m.results:
        if isinstance(e, AffineDimExpr):
            shape.append(space[e.position])
        elif isinstance(e, AffineConstantExpr) and e.value == 0:
            shape.append(1)
        else:
            return None
    return tuple(shape)


@dataclass
class _Fuser:
    """One run of the pass over a module: the worklist and what it knows of each generic."""

    recompute: bool
    max_recompute_ops: int
    order: dict[Operation, int] = field(default_factory=dict)
    """Each generic's walk position (a fused generic takes its consumer's)."""
    sizes: dict[Operation, int] = field(default_factory=dict)
    """Each known-fusable generic's body size, in operations without the yield."""
    queue: list[tuple[int, int, GenericOp]] = field(default_factory=list)
    queued: set[Operation] = field(default_factory=set)
    counter: int = 0

    def known(self, op: Operation) -> bool:
        """Whether `op` is a fusable generic (checked once; fused generics are by construction)."""
        if op in self.sizes:
            return True
        if op not in self.order or not fusable_generic(op):
            return False
        assert isinstance(op, GenericOp)
        self.sizes[op] = sum(1 for _ in op.body.block.ops) - 1
        return True

    def push(self, op: Operation) -> None:
        if op in self.queued or op not in self.order or op.parent is None:
            return
        assert isinstance(op, GenericOp)
        self.queued.add(op)
        self.counter += 1
        heapq.heappush(self.queue, (self.order[op], self.counter, op))

    def run(self, module: ModuleOp) -> None:
        for position, op in enumerate(module.walk()):
            if isinstance(op, GenericOp):
                self.order[op] = position
                self.push(op)
        while self.queue:
            _, _, consumer = heapq.heappop(self.queue)
            self.queued.discard(consumer)
            if consumer.parent is None or not self.known(consumer):
                continue
            for value in consumer.inputs:
                producer = value.owner
                if isinstance(producer, GenericOp) and self.fusable(producer, consumer):
                    self.fuse_into(producer, consumer)
                    break

    def fusable(self, producer: GenericOp, consumer: GenericOp) -> bool:
        users = {use.operation for use in producer.res[0].uses}
        if users == {consumer}:
            return self.joins(producer, consumer)
        # Recomputed only when every user takes it in: otherwise the producer's kernel stays
        # and the fused consumer reads its inputs again, more HBM traffic than reading its result.
        return (self.recompute and self.known(producer)
                and self.sizes[producer] <= self.max_recompute_ops
                and all(isinstance(u, GenericOp) and self.known(u) and self.joins(producer, u)
                        for u in users))

    def joins(self, producer: GenericOp, consumer: GenericOp) -> bool:
        """Whether the two generics can be one: the same block, the producer's result read in
        its own shape, at most MAX_INPUTS inputs together."""
        if producer.parent_block() is not consumer.parent_block() or not self.known(producer):
            return False
        result = producer.res[0]
        t = result.type
        assert isinstance(t, TensorType)
        reads: set[AffineMap] = set()
        for value, attr in zip(consumer.inputs, consumer.indexing_maps.data, strict=False):
            if value is result:
                assert isinstance(attr, AffineMapAttr)
                if _reads_shape(consumer, attr.data) != tuple(t.get_shape()):
                    return False
                reads.add(attr.data)
        if len(reads) > 1:
            return False  # fuse() reads the producer's body once, through one map
        return len(_fused_inputs(producer, consumer)) <= MAX_INPUTS

    def fuse_into(self, producer: GenericOp, consumer: GenericOp) -> None:
        moved = {u.operation for u in producer.res[0].uses} == {consumer}
        where = location_of(consumer)
        remark(producer, ("joins" if moved else "is recomputed in") + " the generic at "
               f"{where or 'its consumer'}")
        size = self.sizes[producer] + self.sizes[consumer]
        fused = fuse(producer, consumer, move=moved,
                     into_producer=moved and self.sizes[producer] > self.sizes[consumer])
        Rewriter.insert_op(fused, InsertPoint.before(consumer))
        fused.location = consumer.location  # its body's ops keep their own
        self.order[fused] = self.order[consumer]
        self.sizes[fused] = size
        touched = [*consumer.inputs, *producer.inputs]
        consumer.res[0].replace_all_uses_with(fused.res[0])
        Rewriter.erase_op(consumer)
        if not producer.res[0].uses:
            owners = [v.owner for v in producer.operands if isinstance(v.owner, Operation)]
            Rewriter.erase_op(producer)
            _erase_dead(owners)
        else:
            touched.append(producer.res[0])
        self.push(fused)
        for value in touched:
            if isinstance(value, OpResult) and value.op.parent is not None:
                for use in value.uses:
                    self.push(use.operation)


def _fused_inputs(producer: GenericOp, consumer: GenericOp) -> list[tuple[SSAValue, AffineMap]]:
    """The fused generic's inputs with their maps: the consumer's, each read of the producer's
    result replaced, at its first position, by the producer's inputs through the composed maps;
    a (value, map) pair already there is not repeated."""
    result = producer.res[0]
    inputs: list[tuple[SSAValue, AffineMap]] = []
    for index, value in enumerate(consumer.inputs):
        m = _map(consumer, index)
        if value is result:
            pairs = [(v, _map(producer, i).compose(m)) for i, v in enumerate(producer.inputs)]
        else:
            pairs = [(value, m)]
        inputs += [p for p in pairs if p not in inputs]
    return inputs


def _replace_uses(old: SSAValue, new: SSAValue) -> None:
    """Every use of `old` reads `new` (names stay as they are)."""
    for use in list(old.uses):
        use.operation.operands[use.index] = new


def _arrange_args(block: Block, wanted: list[tuple[Attribute, BlockArgument | None]]
                  ) -> list[BlockArgument]:
    """Make `block`'s first arguments be `wanted`, in order: an argument of the block named
    there is kept when it already is in place (none of its uses is touched), else a new one
    takes over its uses; None is a new argument of the type. The block's other arguments stay
    after them, for the caller to erase once unused."""
    args: list[BlockArgument] = []
    for index, (t, old) in enumerate(wanted):
        if old is not None and old.index == index:
            args.append(old)
            continue
        new = block.insert_arg(t, index)
        if old is not None:
            _replace_uses(old, new)
        args.append(new)
    return args


def _append_consumer(p_yield: Operation, c_block: Block, target: Block,
                     args: list[BlockArgument | None]) -> None:
    """The consumer's ops moved to the end of the producer's block in place of its yield; the
    consumer's arguments read `args` (None: the producer's result, its yielded value)."""
    produced = p_yield.operands[0]
    Rewriter.erase_op(p_yield)
    for arg, new in zip(c_block.args, args, strict=False):
        _replace_uses(arg, produced if new is None else new)
    for op in list(c_block.ops):
        op.detach()
        target.add_op(op)


def _prepend_producer(p_block: Block, target: Block, args: list[BlockArgument],
                      move: bool) -> SSAValue:
    """The producer's body ops (without its yield) at the start of the consumer's block, moved
    or (`move` false: it has other users) cloned, its arguments reading `args`; the value it
    yields."""
    first = target.first_op
    p_yield = p_block.last_op
    assert first is not None and p_yield is not None
    mapping: dict[SSAValue, SSAValue] = dict(zip(p_block.args, args, strict=False))
    if move:
        for arg, new in mapping.items():
            _replace_uses(arg, new)
    for op in list(p_block.ops):
        if op is p_yield:
            break
        if move:
            op.detach()
            target.insert_op_before(op, first)
        else:
            target.insert_op_before(op.clone(mapping), first)
    value = p_yield.operands[0]
    return value if move else mapping.get(value, value)


def fuse(producer: GenericOp, consumer: GenericOp, *, move: bool = False,
         into_producer: bool = False) -> GenericOp:
    """The generic computing `consumer` with its reads of producer's result replaced by
    producer's body, not yet inserted; consumer itself is left for the caller (its body is
    taken). `move`: the producer has no other user, so its body's ops move rather than being
    cloned (the caller erases it); `into_producer` (with `move`): the consumer's ops move into
    the producer's block instead (the cheaper when the producer's body is the larger)."""
    result = producer.res[0]
    inputs = _fused_inputs(producer, consumer)
    index_of = {pair: i for i, pair in enumerate(inputs)}
    c_block, p_block = consumer.body.block, producer.body.block
    reads = [i for i, v in enumerate(consumer.inputs) if v is result]
    p_pairs = [(v, _map(producer, i).compose(_map(consumer, reads[0])))
               for i, v in enumerate(producer.inputs)]
    c_pairs = [(v, _map(consumer, i)) for i, v in enumerate(consumer.inputs)]
    out_name = c_block.args[-1].name_hint
    own_block, own_pairs = (p_block, p_pairs) if into_producer else (c_block, c_pairs)
    serving: list[BlockArgument | None] = [None] * len(inputs)
    duplicates: list[tuple[BlockArgument, int]] = []
    for arg, pair in zip(own_block.args, own_pairs, strict=False):
        j = index_of.get(pair)
        if j is None:
            continue  # the consumer's reads of the producer's result
        if serving[j] is None:
            serving[j] = arg
        else:
            duplicates.append((arg, j))
    types = [v.type.get_element_type() for v, _ in inputs]  # type: ignore[attr-defined]
    out = (c_block.args[-1].type, None if into_producer else c_block.args[-1])
    c_args = list(c_block.args)
    args = _arrange_args(own_block, [*zip(types, serving, strict=True), out])
    for arg, j in duplicates:
        _replace_uses(arg, args[j])
    p_yield = p_block.last_op
    assert isinstance(p_yield, YieldOp)
    if into_producer:
        _append_consumer(p_yield, c_block, own_block,
                         [args[index_of[pair]] if pair in index_of else None
                          for pair in c_pairs])
    else:
        produced = _prepend_producer(p_block, own_block, [args[index_of[p]] for p in p_pairs],
                                     move)
        for i in reads:
            _replace_uses(c_args[i], produced)
    for arg in own_block.args[len(args):][::-1]:
        own_block.erase_arg(arg)
    for arg, (value, _) in zip(args, inputs, strict=False):
        arg.name_hint = value.name_hint
    args[-1].name_hint = out_name
    region = (producer if into_producer else consumer).body
    (producer if into_producer else consumer).detach_region(region)
    fused = GenericOp([v for v, _ in inputs], list(consumer.outputs), region,
                      [AffineMapAttr(m) for _, m in inputs] + [consumer.indexing_maps.data[-1]],
                      list(consumer.iterator_types), [r.type for r in consumer.res])
    fused.attributes.update({k: v for k, v in consumer.attributes.items()
                             if k not in DROPPED_ATTRIBUTES})
    return fused


@dataclass(frozen=True)
class HsgFuseElementwisePass(ModulePass):
    """Producer generics fused into their elementwise consumers (see the module docstring)."""

    name = "hsg-fuse-elementwise"

    recompute: bool = True
    """Fuse a producer that has other users too, computing it again in each consumer."""
    max_recompute_ops: int = 16
    """The largest producer body (in operations) that is computed again rather than kept."""
    siblings: bool = True
    """Then merge generics that read a common tensor into one of several outputs
    (hswc.passes.generic_siblings): one kernel reads it once and writes them all."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_recompute_ops < 0:
            raise PassFailedException(f"{self.name}: max-recompute-ops must not be negative, "
                                      f"got {self.max_recompute_ops}")
        _size_from_inputs(op)
        _Fuser(self.recompute, self.max_recompute_ops).run(op)
        if self.siblings:
            fuse_siblings(op, fusable_generic)


def _size_from_inputs(module: ModuleOp) -> None:
    """`tensor.dim` of an elementwise generic's result reads its input of the same shape (read
    by the identity) instead: what sizes a consumer's output (hsg-decompose's tensor.empty)
    then no longer keeps the producer alive. Each value's source of size is found once (a
    chain's dims share their walk back), so the pass is linear in the module."""
    sized: dict[SSAValue, SSAValue] = {}
    for op in module.walk():
        if isinstance(op, tensor.DimOp):
            op.operands[0] = _size_source(op.source, sized)


def _size_source(value: SSAValue, sized: dict[SSAValue, SSAValue]) -> SSAValue:
    """The value with `value`'s shape that no elementwise generic computes, through each
    generic's identity-read input of its result's shape (memoised in `sized`)."""
    path: list[SSAValue] = []
    while value not in sized:
        if not (isinstance(value, OpResult) and fusable_generic(value.op)):
            sized[value] = value
            break
        generic = value.op
        assert isinstance(generic, GenericOp)
        identity = AffineMap.identity(len(generic.iterator_types))
        same = [v for i, v in enumerate(generic.inputs)
                if _map(generic, i) == identity and isinstance(v.type, TensorType)
                and v.type.get_shape() == generic.res[0].type.get_shape()]  # type: ignore[attr-defined]
        if not same:
            sized[value] = value
            break
        path.append(value)
        value = same[0]
    found = sized[value]
    for step in path:
        sized[step] = found
    return found


def _erase_dead(ops: list[Operation]) -> None:
    """Erase those of `ops` left without users and without effects (the producer's tensor.empty
    and what sized it), then what only they used."""
    while ops:
        op = ops.pop()
        if op.parent is None or not is_trivially_dead(op):
            continue
        operands = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(op)
        ops += operands
