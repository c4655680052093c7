"""Helpers for passes that edit a linalg.generic's operands: rebuild one with some inputs gone."""

from __future__ import annotations

from xdsl.dialects.linalg.ops import GenericOp
from xdsl.rewriter import Rewriter


def drop_inputs(op: GenericOp, dropped: set[int]) -> GenericOp:
    """`op` without the inputs at `dropped` (their body arguments must be unused): a new generic
    with op's body, maps and attributes in op's place; op is erased."""
    block = op.body.block
    for i in sorted(dropped, reverse=True):
        block.erase_arg(block.args[i])
    keep = [i for i in range(len(op.inputs)) if i not in dropped]
    maps = list(op.indexing_maps.data)
    region = op.detach_region(op.body)
    new = GenericOp([op.inputs[i] for i in keep], list(op.outputs), region,
                    [maps[i] for i in keep] + maps[len(op.inputs):],
                    list(op.iterator_types), [r.type for r in op.res])
    new.attributes.update(op.attributes)
    new.location = op.location
    Rewriter.replace_op(op, new)
    return new
