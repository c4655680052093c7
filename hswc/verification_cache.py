"""Which ops a pass pipeline's verification after a pass must verify again: those the pass
created or changed, and the ops whose verifiers read them.

xDSL's `Operation.verify` costs tens of microseconds an op, and a driver verifies the whole
module after every pass (mlir-opt and xdsl-opt both do), so a whole model's lowering spent
about 40% of its time re-verifying the same few thousand ops a dozen times. Here the input
verifies once in full, and after each pass one walk of the module compares each op with what
it was when it last verified, by identity where xDSL replaces rather than mutates (the
operand, result, successor and block-argument tuples: a new operand, a value of a new type
(`Rewriter.replace_value_with_new_type`) or a new argument is a new tuple), by equality for
the attribute and property dictionaries (mutated in place). An op not seen before is one the
pass created. What an op's verifier reads, and so what verifies again (`VerifiedOps.changed`):

- a new or changed op itself: its operands and their types, its results, attributes,
  properties, successors, its block and whether it is the block's last op, its regions' blocks,
  their arguments and last ops (an op appended after a terminator, a block emptied);
- the ops directly inside a new or changed op: a terminator checks itself against its parent
  (func.return against the function's type, scf.yield against scf.if's results), an op with
  a parent trait its parent's kind;
- the users of a changed op's results: some verifiers read an operand's defining op
  (ascend's `constant_index` reads the arith.constant a loop bound comes from);
- every op enclosing one of those: a verifier may read its nested ops (IsolatedFromAbove reads
  every operand inside it, a single-block region its terminator);
- always: symbol users (func.call, hsg.launch: their verifiers read the op their symbol names,
  anywhere in the module) and ops with successors (they read other blocks' arguments).

What a verifier could read beyond that (a value's type mutated in place, an attribute object
mutated in place: both immutable in xDSL) is assumed unchanged, not checked. Nothing a pass
does goes untracked but that, so a driver does not verify the whole module again after its
last pass; `hswc-opt --verify-each=full` does, after every pass, as mlir-opt. Since each op is
compared with what it was when it last verified, however many passes ago, one check after
several passes sees what all of them did: hswc-opt checks once, after the last pass.

An op verified again only because it encloses what changed reads all its nested ops through
one verifier: IsolatedFromAbove (every operand inside a function defined inside it), a walk of
the whole function (a model's host function, 2,000 ops, after every pass). For such an op the
check is made here on what can have changed (`isolation_checked`): the operands of the ops
verified again inside it, and of every op nested in a new or changed one (a block moved into
it brings ops of its own). An operand of an op not among those is the value it was, defined
where it was unless its definition moved, and a definition that moved is a changed op whose
users verify again. Where the tools install it (hswc.tools.fast_op_verify), xDSL's
IsolatedFromAbove check skips the ops `isolation_checked` holds; anywhere else it walks them
as always.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from xdsl.ir import Operation
from xdsl.traits import IsolatedFromAbove, SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException

_always: dict[type[Operation], bool] = {}
_isolated: dict[type[Operation], bool] = {}

isolation_checked: set[Operation] = set()
"""The ops whose IsolatedFromAbove check VerifiedOps.check_isolation made for the verification
under way (the module docstring); empty outside it."""

_Seen = tuple[tuple[Any, ...], dict[str, Any], dict[str, Any]]
"""An op as it last verified: its `_key`, attributes and properties."""


def _key(op: Operation) -> tuple[Any, ...]:
    """What of `op` and its regions a verifier can read, compared by identity but the
    attributes and properties (kept apart: `_Seen`). The private fields are the tuples xDSL
    replaces whole on every change (reading them through their properties builds a view)."""
    regions = op.regions
    return (
        op._operands,  # pyright: ignore[reportPrivateUsage]
        op.results,
        op._successors,  # pyright: ignore[reportPrivateUsage]
        op.parent,
        op._next_op is None,  # pyright: ignore[reportPrivateUsage]
        tuple((region, block, block._args, block._last_op)  # pyright: ignore[reportPrivateUsage]
              for region in regions for block in region.blocks) if regions else (),
    )


def _always_verifies(op: Operation) -> bool:
    """A symbol user or an op with successors: its verifier reads ops elsewhere."""
    always = _always.get(type(op))
    if always is None:
        always = _always[type(op)] = op.has_trait(SymbolUserOpInterface)
    return always or bool(op._successors)  # pyright: ignore[reportPrivateUsage]


class VerifiedOps:
    """Each op of a module as it was when it last verified, for a driver's checks after each
    pass (the module docstring). One per module: a driver makes one when it verifies its
    input."""

    def __init__(self) -> None:
        self._seen: dict[Operation, _Seen] = {}
        self._now: dict[Operation, _Seen] = {}
        self._fresh: set[Operation] = set()
        self._own: list[Operation] = []
        self._enclosing: set[Operation] = set()

    def changed(self, module: Operation) -> list[Operation]:
        """The ops of `module` to verify again (the module docstring), each once, an op's
        nested ops before it; all of them the first time. Raises ValueError where a block's or
        an op's parent pointer is wrong (as xDSL's verifier does)."""
        now: dict[Operation, _Seen] = {}
        marked: set[Operation] = set()
        ordered: list[Operation] = []
        self._fresh = set()
        own = self._own = self._walk(module, now)
        for op in own:
            current: Operation | None = op
            while current is not None and current not in marked and current in now:
                marked.add(current)  # and what encloses it
                ordered.append(current)
                current = current.parent_op()
        self._enclosing = marked.difference(own)
        self._now = now
        ordered.sort(key=_depth, reverse=True)  # nested ops first, as xDSL verifies
        return ordered

    def check_isolation(self) -> None:
        """The IsolatedFromAbove check of each op `changed` returned only because it
        encloses what changed, made on what can have changed (the module docstring), and
        those ops put in `isolation_checked`; VerifyException (xDSL's message) for an operand
        defined outside."""
        isolated = [op for op in self._enclosing if _is_isolated(op)]
        if not isolated:
            return
        inside: dict[Operation, list[Operation]] = {op: [] for op in isolated}
        fresh = self._fresh
        for op in self._own:
            owner = _isolated_parent(op)
            checks = None if owner is None else inside.get(owner)
            if checks is not None:
                checks.append(op)
                if op in fresh and op.regions and not _is_isolated(op):
                    checks.extend(_nested_to_isolation(op))
        for owner, ops in inside.items():
            for op in ops:
                for operand in op.operands:
                    if not owner.is_ancestor(operand.owner) or operand.owner is owner:
                        raise VerifyException("Operation using value defined out of its "
                                              f"IsolatedFromAbove parent: {op}")
        isolation_checked.update(isolated)

    def _walk(self, module: Operation, now: dict[Operation, _Seen]) -> list[Operation]:
        """Each op of `module` into `now` as it is; the ops that verify again but for what
        encloses them (the new and changed ones into `_fresh`)."""
        seen = self._seen
        changed: list[Operation] = []
        stack: list[Operation] = [module]
        while stack:
            op = stack.pop()
            key = _key(op)
            old = seen.get(op)
            same = (old is not None and old[0] == key and old[1] == op.attributes
                    and old[2] == op.properties)
            if same:
                now[op] = old  # pyright: ignore[reportArgumentType]
                if _always_verifies(op):
                    changed.append(op)
            else:
                now[op] = (key, dict(op.attributes), dict(op.properties))
                changed.append(op)
                self._fresh.add(op)
                if old is not None:  # an op the pass changed: its users may read it
                    changed.extend(use.operation for result in op.results
                                   for use in result.uses)
            for inner in _nested(op):
                stack.append(inner)
                if not same:
                    changed.append(inner)  # it may read its changed parent
        return changed

    def commit(self) -> None:
        """What `changed` saw is what verified: remembered for the next check."""
        self._seen = self._now
        self._now = {}


def _nested(op: Operation) -> Iterator[Operation]:
    """The ops directly in `op`'s regions, their parent pointers checked as xDSL does."""
    for region in op.regions:
        for block in region.blocks:
            if block.parent is not region:
                raise ValueError("Parent pointer of block does not refer to containing region")
            if block.first_op is None:
                block.verify()  # xDSL's message for an empty block that needs a terminator
            for inner in block.ops:
                if inner.parent is not block:
                    raise ValueError("Parent pointer of operation does not refer to "
                                     "containing region")
                yield inner


def _is_isolated(op: Operation) -> bool:
    isolated = _isolated.get(type(op))
    if isolated is None:
        isolated = _isolated[type(op)] = op.has_trait(IsolatedFromAbove)
    return isolated


def _isolated_parent(op: Operation) -> Operation | None:
    """The nearest op enclosing `op` that is IsolatedFromAbove."""
    current = op.parent_op()
    while current is not None and not _is_isolated(current):
        current = current.parent_op()
    return current


def _nested_to_isolation(op: Operation) -> Iterator[Operation]:
    """The ops nested in `op` at any depth, but not inside an IsolatedFromAbove op among them
    (that one checks its own)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield inner
                if inner.regions and not _is_isolated(inner):
                    yield from _nested_to_isolation(inner)


def _depth(op: Operation) -> int:
    depth = 0
    current = op.parent_op()
    while current is not None:
        depth += 1
        current = current.parent_op()
    return depth
