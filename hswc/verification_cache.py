"""Which ops a pass pipeline's verification between passes can skip: those that, with every op
nested in them, are unchanged since they last verified.

xDSL's `Operation.verify` costs tens of microseconds an op, and a driver verifies the whole
module after every pass (mlir-opt and xdsl-opt both do), so a whole model's lowering spent
about 40% of its time re-verifying the same few thousand ops eleven times. An op's verifier
reads the op itself (its operands, their types, its result types, attributes and properties,
its place in its block), for terminators and ops with a parent trait its parent op, and for an
op with regions what those hold (block arguments, terminators, nested ops for
IsolatedFromAbove). So an op verifies again when its fingerprint of all of that differs from
the one it verified with, or when an op nested in it verified again (the walk is children
first, as xDSL's), and is skipped otherwise. Always verified again: ops with successors, and
symbol users (func.call, hsg.launch: their verifiers read the op their symbol names, anywhere
in the module). Assumed, not checked: no verifier reads an operand's defining op or a user
beyond what the fingerprint holds.

The cache is a speed-up of the checks between passes only: a driver verifies the module in
full after its last pass (hswc.verification.verify_located without a cache), so what it
prints or hands on has always passed every verifier.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from xdsl.ir import Block, Operation
from xdsl.traits import SymbolUserOpInterface


def signature(op: Operation) -> tuple[Any, ...]:
    """What a verifier of `op` or of an op in its bodies may read of `op` (its bodies aside)."""
    return (
        op.name,
        tuple(op.operands),
        tuple(value.type for value in op.operands),
        tuple(result.type for result in op.results),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
    )


def place(block: Block, parent_signature: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a verifier of an op of `block` may read of where it is (but whether it is last):
    the block, its arguments' types, its region's block count, its parent op's signature."""
    region = block.parent
    return (block, tuple(arg.type for arg in block.args),
            len(region.blocks) if region is not None else 0, parent_signature)


_always: dict[type[Operation], bool] = {}


def fingerprint(op: Operation, own: tuple[Any, ...],
                where: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """What `op`'s verifier can read but the ops nested in it (`own` its signature, `where`
    the place of its block), or None when that is more than the op, its parent and its bodies
    (an op with successors, a symbol user): such an op always verifies."""
    always = _always.get(type(op))
    if always is None:
        always = _always[type(op)] = op.has_trait(SymbolUserOpInterface)
    if always or op.successors:
        return None
    block = op.parent
    return (
        own,
        where,
        block is not None and block.last_op is op,
        tuple(tuple((body, tuple(arg.type for arg in body.args), body.last_op)
                    for body in region.blocks) for region in op.regions),
    )


class VerifiedOps:
    """The fingerprints of the ops that verified, for a driver's checks between passes."""

    def __init__(self) -> None:
        self._seen: WeakKeyDictionary[Operation, tuple[Any, ...]] = WeakKeyDictionary()

    def unchanged(self, op: Operation, key: tuple[Any, ...] | None) -> bool:
        """Whether `op` verified before with this fingerprint (hswc.verification_cache's
        `fingerprint`); the ops nested in it are the caller's to ask about."""
        return key is not None and self._seen.get(op) == key

    def remember(self, op: Operation, key: tuple[Any, ...] | None) -> None:
        if key is not None:
            self._seen[op] = key
