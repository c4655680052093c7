"""Verifying a module as every tool does: xDSL's verifiers, then SSA dominance, the first
failing op reported at its location.

Above hswc.diagnostics (its OpError and locations) and hswc.dominance, which both sit below it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from hswc.diagnostics import OpError
from hswc.dominance import check_dominance
from hswc.symbol_index import indexed_symbols


def verify_located(module: ModuleOp) -> None:
    """module.verify() and SSA dominance (hswc.dominance), which xDSL does not check; the
    first failing op is reported with its location. Linear in the module's size (symbol
    lookups are indexed meanwhile: hswc.symbol_index)."""
    with indexed_symbols():
        try:
            module.verify()
        except VerifyException as error:
            for op in module.walk():
                try:
                    op.verify(verify_nested_ops=False)
                except VerifyException as inner:
                    raise OpError(op, _strip_op_name(op, str(inner))) from None
            raise OpError(module, str(error)) from None
        check_dominance(module)


def _strip_op_name(op: Operation, message: str) -> str:
    """One line, without the op name that verifier messages start with (OpError prints it)."""
    one_line = " ".join(line.strip() for line in message.splitlines() if line.strip())
    return one_line.removeprefix(f"{op.name}: ")
