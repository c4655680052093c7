"""SSA dominance: every use of a value is dominated by its definition.

xDSL 0.75's verifier checks types, traits, op verifiers and IsolatedFromAbove, not dominance,
so `%y = hsg.hard_swish_grad %y, %x` (a value used by its own definition) or a use written
before its definition reaches the passes. MLIR's rule, as checked here: a value defined in
block B (a block argument of B, or the result of an op of B) may be used
- by the ops of B after its definition (any op of B for an argument),
- inside the regions of those ops, at any depth,
- in the blocks of B's region that B dominates in the control-flow graph, and inside them.

The check is linear in the module's size: a use of a value defined earlier in the user's block
or in a block enclosing it (nearly every use) is a set lookup; any other walks up from the user
through its enclosing ops until it reaches the defining block's region.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.irdl.dominance import DominanceInfo

from hswc.diagnostics import OpError, location_of


class _Positions:
    """Each op's index in its block, and each region's block dominance, computed when asked."""

    def __init__(self) -> None:
        self._index: dict[Block, dict[Operation, int]] = {}
        self._dominance: dict[Region, DominanceInfo] = {}

    def index(self, op: Operation) -> int:
        block = op.parent_block()
        assert block is not None
        table = self._index.get(block)
        if table is None:
            table = self._index[block] = {o: i for i, o in enumerate(block.ops)}
        return table[op]

    def dominates(self, a: Block, b: Block) -> bool:
        """Block a dominates block b, both in one region."""
        region = a.parent
        assert region is not None
        info = self._dominance.get(region)
        if info is None:
            info = self._dominance[region] = DominanceInfo(region)
        return info.dominates(a, b)


def _visible(value: SSAValue, user: Operation, positions: _Positions) -> bool:
    if isinstance(value, OpResult):
        home, after = value.op.parent_block(), value.op
    else:
        assert isinstance(value, BlockArgument)
        home, after = value.block, None
    if home is None:
        return False
    current: Operation | None = user
    while current is not None:
        block = current.parent_block()
        if block is None:
            return False
        if block is home:
            return after is None or positions.index(after) < positions.index(current)
        if block.parent is home.parent and positions.dominates(home, block):
            return True
        current = block.parent_op()
    return False


def check_dominance(root: Operation) -> None:
    """OpError at the first op (in walk order) with an operand whose definition does not
    dominate it."""
    positions = _Positions()
    for op, i, value in _unscoped_uses(root):
        if _visible(value, op, positions):  # defined in a block that dominates the user's
            continue
        name = f" (%{value.name_hint})" if value.name_hint else ""
        if isinstance(value, OpResult) and value.op is op:
            why = "it is a result of this op"
        elif isinstance(value, OpResult):
            where = location_of(value.op)
            why = f"it is defined by '{value.op.name}'" + (f" at {where}" if where else "")
        else:
            why = "it is an argument of a block that does not enclose this op"
        raise OpError(op, f"operand {i}{name} does not dominate this use: {why}")


def _unscoped_uses(root: Operation) -> Iterator[tuple[Operation, int, SSAValue]]:
    """(user, operand index, value), in walk order, for the uses that are not of a value
    defined earlier in the user's block or in a block enclosing it: a set of the values in
    scope, extended while a block is walked and cut back when it ends, settles nearly every
    use in constant time; what is left (a use in another block of the defining region, or a
    use that does not dominate) _visible decides."""
    scope: set[SSAValue] = set()

    def walk(op: Operation) -> Iterator[tuple[Operation, int, SSAValue]]:
        for i, value in enumerate(op.operands):
            if value not in scope:
                yield op, i, value
        for region in op.regions:
            for block in region.blocks:
                added: list[SSAValue] = list(block.args)
                scope.update(added)
                for inner in block.ops:
                    yield from walk(inner)
                    scope.update(inner.results)
                    added.extend(inner.results)
                scope.difference_update(added)

    yield from walk(root)
