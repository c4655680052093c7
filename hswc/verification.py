"""Verifying a module as every tool does: xDSL's verifiers, then SSA dominance, the first
failing op reported at its location.

Above hswc.diagnostics (its OpError and locations) and hswc.dominance, which both sit below it.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from hswc.diagnostics import OpError
from hswc.dominance import check_dominance
from hswc.symbol_index import indexed_symbols
from hswc.verification_cache import VerifiedOps, isolation_checked


def verify_located(module: ModuleOp, verified: VerifiedOps | None = None) -> None:
    """module.verify() and SSA dominance (hswc.dominance), which xDSL does not check; the
    first failing op is reported with its location. Linear in the module's size (symbol
    lookups are indexed meanwhile: hswc.symbol_index).

    With `verified` (a driver's check after each pass; one made when it verified its input),
    only the ops created or changed since they last verified and the ops whose verifiers read
    them verify again (hswc.verification_cache), and the linalg yields among them; a function
    verified again only because it encloses what changed has its IsolatedFromAbove check made
    on what changed in it (VerifiedOps.check_isolation); dominance is checked in full. Any
    failure is reported as the full verification reports it."""
    with indexed_symbols():
        try:
            if verified is None:
                module.verify()
                ops: Iterable[Operation] = module.walk()
            else:
                ops = verified.changed(module)
                try:
                    verified.check_isolation()
                    for op in ops:
                        op.verify(verify_nested_ops=False)
                finally:
                    isolation_checked.clear()
        except VerifyException as error:
            for op in module.walk():
                try:
                    op.verify(verify_nested_ops=False)
                except VerifyException as inner:
                    raise _located(op, _strip_op_name(op, str(inner))) from None
            raise OpError(module, str(error)) from None
        check_linalg_yields(ops)
        check_dominance(module)
    if verified is not None:
        verified.commit()


def _strip_op_name(op: Operation, message: str) -> str:
    """One line, without the op name that verifier messages start with (OpError prints it)."""
    one_line = " ".join(line.strip() for line in message.splitlines() if line.strip())
    return one_line.removeprefix(f"{op.name}: ")


def _located(op: Operation, message: str) -> OpError:
    """The error of `op` at the op the user wrote: an op of a body that a named op builds
    itself (linalg.matmul's hidden region, never written nor printed) is reported at that named
    op, saying it is its body."""
    owner = op.parent_op()
    while owner is not None and not _builds_its_body(owner):
        owner = owner.parent_op()
    if owner is None:
        return OpError(op, message)
    types = ", ".join(str(t) for t in (*owner.operand_types,))
    return OpError(owner, f"has a body, built by xDSL from its operand types ({types}), that "
                   f"does not verify: '{op.name}' {message}")


def _builds_its_body(op: Operation) -> bool:
    """A linalg named op (its region is the body xDSL builds, not text of the input)."""
    from xdsl.dialects.linalg.abstract_ops import NamedOperation

    return isinstance(op, NamedOperation)


def check_linalg_yields(ops: Iterable[Operation]) -> None:
    """What MLIR's linalg verifier checks and xDSL's does not, for the yields among `ops`
    (`module.walk()` for a module): each value a linalg op's body
    yields has the element type of the output it goes to (`linalg.add` of two f32 tensors into
    an f16 one yields an f32 in xDSL's body; MLIR refuses it). An OpError at the yield of a
    body the user wrote, at the named op for one xDSL builds."""
    from xdsl.dialects.builtin import MemRefType, TensorType
    from xdsl.dialects.linalg.ops import YieldOp

    for op in ops:
        if not isinstance(op, YieldOp):
            continue
        owner = op.parent_op()
        outputs = getattr(owner, "outputs", None)
        if owner is None or owner.dialect_name() != "linalg" or outputs is None:
            continue
        for k, (value, output) in enumerate(zip(op.operands, outputs, strict=False)):
            shaped = output.type
            element = (shaped.get_element_type() if isinstance(shaped, TensorType | MemRefType)
                       else shaped)
            if value.type != element:
                message = (f"type of yield operand {k + 1} ({value.type}) doesn't match the "
                           f"element type of the enclosing {owner.name} ({element})")
                if _builds_its_body(owner):
                    raise _located(op, message)
                raise OpError(op, message)
