"""hsg-fuse-elementwise: fuse producer generics into the elementwise generics that consume them.

Input: elementwise `linalg.generic` ops (hsg-decompose's, or a user's) in a block.
Output: wherever a generic's input is the result of another elementwise generic of the same
shape, one generic whose body computes the producer's body inline, then the consumer's, reading
the producer's inputs instead of its result: one kernel that reads the inputs of both and
writes one output, instead of two kernels and the HBM round trip between them.

A producer is fused when the consumer is its only user; with `recompute` (on by default) a
producer with several users is fused into each of them when all of them are elementwise
consumers it can join and its body has at most `max-recompute-ops` operations: each computes it
again and the producer's kernel goes away. (A producer that must stay for another user is not
recomputed: its fused consumer would read its inputs again, more HBM traffic than its result.)
Fusion never changes bits: the fused body is the two bodies' ops, each in its own type, in
order (the interpreter and the kernel compute each op exactly). It repeats until nothing fuses,
so chains become one generic. Inputs that fusion makes duplicates are merged, and the fused
generic keeps no `hsg.op_name`: it is a new operator (its kernel is named after its function,
or hsg-tile-on-cores' `kernel-name`). `tensor.dim` of an elementwise result is read from the
generic's first input instead, so that what sizes a consumer does not keep its producer.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import PassFailedException

from hswc.diagnostics import OpError, copy_location
from hswc.elementwise import MAX_INPUTS, elementwise

DROPPED_ATTRIBUTES = ("hsg.op_name", "hsg.semantics", "hsg.ub_budget")
"""What a named op's generic says about itself and no longer holds once fused."""


def _is_elementwise(op: Operation) -> bool:
    if not isinstance(op, GenericOp):
        return False
    try:
        elementwise(op)
    except OpError:
        return False  # not ours to fuse; hsg-tile-on-cores reports it
    return True


def _body_ops(generic: GenericOp) -> int:
    return sum(1 for _ in generic.body.block.ops) - 1  # without linalg.yield


def fuse(producer: GenericOp, consumer: GenericOp, position: int) -> GenericOp:
    """The generic computing `consumer` with its input `position` (producer's result) replaced by
    producer's body, inserted before consumer; consumer itself is left for the caller."""
    inputs: list[SSAValue] = []
    for index, value in enumerate(consumer.inputs):
        if index == position:
            inputs += [v for v in producer.inputs if v not in inputs]
        elif value not in inputs:
            inputs.append(value)
    body = Block(arg_types=[v.type.get_element_type() for v in inputs]  # type: ignore[attr-defined]
                 + [consumer.body.block.args[-1].type])
    arg_of = dict(zip(inputs, body.args, strict=False))
    for value, arg in arg_of.items():
        arg.name_hint = value.name_hint
    body.args[-1].name_hint = consumer.body.block.args[-1].name_hint

    def inline(generic: GenericOp, mapping: dict[SSAValue, SSAValue]) -> SSAValue:
        """Clone generic's body ops into `body` (`mapping`: its arguments' values, to which
        each clone adds its results); the value its yield yields."""
        block = generic.body.block
        for op in block.ops:
            if op is block.last_op:
                return mapping.get(op.operands[0], op.operands[0])
            body.add_op(op.clone(mapping))
        raise AssertionError("a body ends in linalg.yield")

    of_producer: dict[SSAValue, SSAValue] = {
        a: arg_of[v] for a, v in zip(producer.body.block.args, producer.inputs, strict=False)}
    produced = inline(producer, of_producer)
    of_consumer: dict[SSAValue, SSAValue] = {
        a: (produced if i == position else arg_of[v])
        for i, (a, v) in enumerate(zip(consumer.body.block.args, consumer.inputs, strict=False))}
    result = inline(consumer, of_consumer)
    terminator = consumer.body.block.last_op
    assert terminator is not None
    body.add_op(terminator.clone({terminator.operands[0]: result}))
    fused = GenericOp(inputs, list(consumer.outputs), Region(body),
                      [consumer.indexing_maps.data[0]] * (len(inputs) + 1),
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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_recompute_ops < 0:
            raise PassFailedException(f"{self.name}: max-recompute-ops must not be negative, "
                                      f"got {self.max_recompute_ops}")
        _size_from_inputs(op)
        while self._fuse_one(op):
            _size_from_inputs(op)

    def _fuse_one(self, module: ModuleOp) -> bool:
        """Fuse one producer into one consumer; whether anything fused."""
        for consumer in module.walk():
            if not _is_elementwise(consumer):
                continue
            assert isinstance(consumer, GenericOp)
            for position, value in enumerate(consumer.inputs):
                producer = value.owner
                if not isinstance(producer, GenericOp) or not self._fusable(producer, consumer):
                    continue
                fused = fuse(producer, consumer, position)
                Rewriter.insert_op(fused, InsertPoint.before(consumer))
                copy_location(consumer, [fused])
                consumer.res[0].replace_all_uses_with(fused.res[0])
                Rewriter.erase_op(consumer)
                if not producer.res[0].uses:
                    owners = [v.owner for v in producer.operands if isinstance(v.owner, Operation)]
                    Rewriter.erase_op(producer)
                    _erase_dead(owners)
                return True
        return False

    def _fusable(self, producer: GenericOp, consumer: GenericOp) -> bool:
        users = {use.operation for use in producer.res[0].uses}
        if users == {consumer}:
            return _joins(producer, consumer)
        # Recomputed only when every user takes it in: otherwise the producer's kernel stays
        # and the fused consumer reads its inputs again, more HBM traffic than reading its result.
        return (self.recompute and _body_ops(producer) <= self.max_recompute_ops
                and all(isinstance(u, GenericOp) and _is_elementwise(u) and _joins(producer, u)
                        for u in users))


def _size_from_inputs(module: ModuleOp) -> None:
    """`tensor.dim` of an elementwise generic's result reads its first input instead (all its
    tensors have one shape): what sizes a consumer's output (hsg-decompose's tensor.empty)
    then no longer keeps the producer alive."""
    for op in module.walk():
        if not isinstance(op, tensor.DimOp):
            continue
        while isinstance(op.source, OpResult) and _is_elementwise(op.source.op):
            generic = op.source.op
            assert isinstance(generic, GenericOp)
            op.operands[0] = generic.inputs[0]


def _joins(producer: GenericOp, consumer: GenericOp) -> bool:
    """Whether the two generics can be one kernel: the same block and result type (other shapes
    or element types make other kernels), at most MAX_INPUTS inputs together."""
    if producer.parent_block() is not consumer.parent_block():
        return False
    if not _is_elementwise(producer) or producer.res[0].type != consumer.res[0].type:
        return False
    inputs = {*consumer.inputs, *producer.inputs} - {producer.res[0]}
    return len(inputs) <= MAX_INPUTS


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
