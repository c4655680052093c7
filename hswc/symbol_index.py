"""Symbol lookups in constant time while nothing edits the IR (during verification).

xDSL's `SymbolTable.lookup_symbol` scans the symbol table's ops on every call, and the
verifiers of func.call and hsg.launch call it, so verifying a module of N functions that each
call or launch another costs N^2 (a 10 MB module: minutes). Within `indexed_symbols()`, the
lookup reads a name -> op table built once per symbol table instead, with the same answers:
the nearest enclosing symbol table, its first op of that name, nested references followed.
The tables are thrown away when the block ends, so IR edits outside it are always seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

_tables: dict[Operation, dict[str, Operation]] | None = None


@contextmanager
def indexed_symbols() -> Iterator[None]:
    """Within the block, SymbolTable.lookup_symbol uses per-table indexes (see the module
    docstring); the IR must not change meanwhile."""
    global _tables
    if _tables is not None:  # already inside one
        yield
        return
    original = SymbolTable.__dict__["lookup_symbol"]
    _tables = {}
    SymbolTable.lookup_symbol = staticmethod(_lookup)  # pyright: ignore[reportAttributeAccessIssue]
    try:
        yield
    finally:
        SymbolTable.lookup_symbol = original
        _tables = None


def _lookup(op: Operation, name: str | StringAttr | SymbolRefAttr) -> Operation | None:
    anchor: Operation | None = op
    while anchor is not None and not anchor.has_trait(SymbolTable):
        anchor = anchor.parent_op()
    if anchor is None:
        raise ValueError(f"Operation {op} has no SymbolTable ancestor")
    if isinstance(name, str | StringAttr):
        name = SymbolRefAttr(name)
    found = _table(anchor).get(name.root_reference.data)
    if found is None or not name.nested_references:
        return found
    nested_root, *nested = name.nested_references.data
    return _lookup(found, SymbolRefAttr(nested_root, nested))


def _table(anchor: Operation) -> dict[str, Operation]:
    assert _tables is not None
    table = _tables.get(anchor)
    if table is None:
        table = _tables[anchor] = {}
        for o in anchor.regions[0].block.ops:
            interface = o.get_trait(SymbolOpInterface)
            if interface is None:
                continue
            try:
                symbol = interface.get_sym_attr_name(o)
            except VerifyException:  # the op's own verifier reports it
                continue
            if symbol is not None:
                table.setdefault(symbol.data, o)
    return table
