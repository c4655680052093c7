"""The builtin dialect as hswc loads it: xDSL's, with the resource blobs (a file's
`{-# dialect_resources: { builtin: { name: "0x..." } } #-}`, the weights an exporter writes as
`dense_resource<name>`) kept per context instead of per process.

xDSL 0.75 keeps the blobs in its one `Builtin` dialect object, shared by every context of the
process, and its parser renames a handle it has seen before (`name` becomes `name_0`): parsing
a second file that reuses a name, or the same file again, leaves the new module's
`dense_resource` handles pointing at no data. `builtin_dialect()` gives each context its own
store, so each parse sees only its own file's blobs.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin, DenseResourceAttr
from xdsl.ir import Dialect, Operation


def builtin_dialect() -> Dialect:
    """xDSL's builtin dialect with a resource store of its own (one per context)."""
    return Dialect("builtin", list(Builtin.operations), list(Builtin.attributes),
                   [OpAsmDialectInterface()])


def resource_handles(root: Operation) -> set[str]:
    """The `dense_resource` handles the attributes and properties of `root`'s ops name."""
    handles: set[str] = set()
    for op in root.walk():
        for value in (*op.properties.values(), *op.attributes.values()):
            if isinstance(value, DenseResourceAttr):
                handles.add(value.resource_handle.data)
    return handles


def resource_blobs(ctx: Context | None, handles: Iterable[str]) -> dict[str, str]:
    """The blobs (`0x` and hex digits) of `handles` in the context's builtin dialect, or, without
    a context, in xDSL's shared one (a module parsed by xDSL's own tools); handles without a
    blob are left out."""
    if ctx is not None and "builtin" in {d.name for d in ctx.loaded_dialects}:
        dialect = ctx.get_dialect("builtin")
    else:
        dialect = Builtin
    store = dialect.get_interface(OpAsmDialectInterface)
    if store is None:
        return {}
    blobs = {h: store.lookup(h) for h in handles}
    return {h: b for h, b in blobs.items() if b}
