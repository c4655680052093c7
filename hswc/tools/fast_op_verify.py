"""IRDL op definitions verified without xDSL's general variadic handling where they have none.

xDSL's `OpDef.verify` (every op's verifier calls it first) checks each group of operands,
results, regions and successors through helpers made for variadic groups and segment sizes:
the group counts recomputed per op, each group read through its accessor and tested against
the abstract `Sequence` (slow to test). For most ops none of that applies: one operand or
result per definition, no regions, no successors. A whole model's lowering verifies some
17,000 ops, and `OpDef.verify` was about a fifth of a kept-choices run of MobileNetV3-Small
under cProfile (bench/bench_partition.py).

`install()` gives OpDef a `verify` that, for a definition with no options, no variadic or
optional operand or result, no region and no successor, makes the checks xDSL makes in the
same order with the same constraint context (the counts, each operand's and result's
constraint on its one type, the properties and attributes, the traits), reading the operands
and results by position. Any other definition, and any op that fails a check, goes to xDSL's
own `OpDef.verify`, which verifies it again from the start and raises its own message. So an op
that verifies, verifies; one that does not fails with xDSL's message: nothing a program can
observe changes but the time (test/test_fast_op_verify.py).

It also gives IsolatedFromAbove a `verify` that leaves out the ops whose check the
verification under way made on what changed in them (hswc.verification_cache's
`isolation_checked`: a function verified again after a pass only because it encloses what the
pass changed), and walks every other as xDSL does.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.irdl.constraints import VerificationContext
from xdsl.irdl.operations import OpDef, OptAttributeDef, OptPropertyDef, VariadicDef
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

from hswc.verification_cache import isolation_checked

xdsl_verify = OpDef.verify
"""xDSL's own OpDef.verify."""

_simple: dict[int, tuple[OpDef, bool]] = {}


def simple(op_def: OpDef) -> bool:
    """Whether `op_def` has only single operands and results, no regions, no successors and no
    options (verified here; every other definition by xDSL)."""
    found = _simple.get(id(op_def))
    if found is None or found[0] is not op_def:
        plain = (not op_def.options and not op_def.regions and not op_def.successors
                 and not any(isinstance(d, VariadicDef)
                             for _, d in (*op_def.operands, *op_def.results)))
        found = _simple[id(op_def)] = (op_def, plain)
    return found[1]


def _verified(op_def: OpDef, op: Operation) -> bool:
    """xDSL's checks of a simple definition, in its order; False at the first that fails."""
    context = VerificationContext()
    operands, results = op.operands, op.results
    if len(operands) != len(op_def.operands) or len(results) != len(op_def.results) \
            or op.regions or op.successors:
        return False
    try:
        for (_, definition), value in zip(op_def.operands, operands, strict=True):
            definition.constr.verify((value.type,), context)
        for (_, definition), value in zip(op_def.results, results, strict=True):
            definition.constr.verify((value.type,), context)
        if not _entries_verified(op_def, op, context):
            return False
        for trait in op_def.traits:
            trait.verify(op)
    except VerifyException:
        return False
    return True


def _entries_verified(op_def: OpDef, op: Operation, context: VerificationContext) -> bool:
    """The properties and attributes, as xDSL checks them (VerifyException from a
    constraint); False where one is missing or a property is not defined."""
    if any(name not in op_def.properties for name in op.properties):
        return False
    for defs, given, optional in ((op_def.properties, op.properties, OptPropertyDef),
                                  (op_def.attributes, op.attributes, OptAttributeDef)):
        for name, entry_def in defs.items():
            if name in given:
                entry_def.constr.verify(given[name], context)
            elif not isinstance(entry_def, optional):
                return False
    return True


def fast_verify(self: OpDef, op: Operation) -> None:
    """OpDef.verify: a simple definition's checks made here, everything else by xDSL (the
    module docstring)."""
    if simple(self) and _verified(self, op):
        return
    xdsl_verify(self, op)


xdsl_isolated_verify = IsolatedFromAbove.verify
"""xDSL's own IsolatedFromAbove check."""


def isolated_verify(self: IsolatedFromAbove, op: Operation) -> None:
    """xDSL's IsolatedFromAbove check but for an op whose check the verification under way
    made on what changed in it (hswc.verification_cache.isolation_checked)."""
    if op not in isolation_checked:
        xdsl_isolated_verify(self, op)


def install() -> None:
    """fast_verify as OpDef's verify, and isolated_verify as IsolatedFromAbove's, for the
    rest of the process."""
    OpDef.verify = fast_verify  # type: ignore[method-assign]
    IsolatedFromAbove.verify = isolated_verify  # type: ignore[method-assign]
