"""Verifying a module as every tool does: xDSL's verifiers, then SSA dominance, the first
failing op reported at its location.

Above hswc.diagnostics (its OpError and locations) and hswc.dominance, which both sit below it.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from hswc.diagnostics import OpError
from hswc.dominance import check_dominance
from hswc.symbol_index import indexed_symbols
from hswc.verification_cache import VerifiedOps, fingerprint, place, signature


def verify_located(module: ModuleOp, verified: VerifiedOps | None = None) -> None:
    """module.verify() and SSA dominance (hswc.dominance), which xDSL does not check; the
    first failing op is reported with its location. Linear in the module's size (symbol
    lookups are indexed meanwhile: hswc.symbol_index).

    With `verified` (a driver's checks between passes), the ops unchanged since they last
    verified are not verified again (hswc.verification_cache); any failure is then reported
    as the full verification reports it."""
    with indexed_symbols():
        try:
            if verified is None:
                module.verify()
            else:
                _verify_changed(module, verified)
        except VerifyException as error:
            for op in module.walk():
                try:
                    op.verify(verify_nested_ops=False)
                except VerifyException as inner:
                    raise _located(op, _strip_op_name(op, str(inner))) from None
            raise OpError(module, str(error)) from None
        check_linalg_yields(module)
        check_dominance(module)


def _verify_changed(op: Operation, verified: VerifiedOps, where: tuple[Any, ...] = ()) -> bool:
    """op.verify() for `op` and the ops nested in it, children first as xDSL does, skipping
    an op when `verified` saw it verify exactly as it is now and nothing nested in it verified
    again (the structure xDSL's Block.verify checks is checked for all); True when anything in
    `op` verified. `where`: the place of op's block (hswc.verification_cache.place)."""
    own = signature(op)
    nested = False
    for region in op.regions:
        for block in region.blocks:
            if block.parent is not region:
                raise ValueError("Parent pointer of block does not refer to containing region")
            if block.first_op is None:
                block.verify()  # xDSL's message for an empty block that needs a terminator
            inner_place = place(block, own)
            for inner in block.ops:
                if inner.parent is not block:
                    raise ValueError("Parent pointer of operation does not refer to "
                                     "containing region")
                nested |= _verify_changed(inner, verified, inner_place)
    key = fingerprint(op, own, where)
    if not nested and verified.unchanged(op, key):
        return False
    op.verify(verify_nested_ops=False)
    verified.remember(op, key)
    return True


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


def check_linalg_yields(module: ModuleOp) -> None:
    """What MLIR's linalg verifier checks and xDSL's does not: each value a linalg op's body
    yields has the element type of the output it goes to (`linalg.add` of two f32 tensors into
    an f16 one yields an f32 in xDSL's body; MLIR refuses it). An OpError at the yield of a
    body the user wrote, at the named op for one xDSL builds."""
    from xdsl.dialects.builtin import MemRefType, TensorType
    from xdsl.dialects.linalg.ops import YieldOp

    for op in module.walk():
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
