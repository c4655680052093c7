"""Which i1 results a kernel stores packed, 8 elements a byte (hsg.BITS_STORAGE, ops-nn's
DT_UINT1), as the function's results say.

A user asks for it on a function result: `-> tensor<4x64xi1> {hsg.storage = "bits"}` ("bytes",
one byte per element, is the default). Before hsg-tile-on-cores tiles a module,
`mark_packed_outputs` finds the generic that yields each such result (after fusion: the
return's operand is that generic's result) and records the result's position on it
(hsg.PACKED_ATTR), which hswc.elementwise reads; after tiling, `check_packed_outputs` requires
each such result to come from a launch whose kernel stores it packed. A result that no
elementwise kernel writes (a host op's, a row kernel's, an input's) is refused at its return.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute
from xdsl.traits import SymbolTable

from hswc.diagnostics import OpError
from hswc.dialects import hsg

STORAGES = ("bits", "bytes")


def packed_results(fn: func.FuncOp) -> list[int]:
    """The positions of fn's results marked `hsg.storage = "bits"`; an error at fn for a
    storage other than STORAGES or on a result that is not an i1 tensor."""
    attrs = fn.res_attrs
    if not isinstance(attrs, ArrayAttr):
        return []
    found = []
    for j, (entry, t) in enumerate(zip(attrs.data, fn.function_type.outputs.data, strict=False)):
        value = entry.data.get(hsg.STORAGE_ATTR) if isinstance(entry, DictionaryAttr) else None
        if value is None:
            continue
        if not isinstance(value, StringAttr) or value.data not in STORAGES:
            raise OpError(fn, f"gives result {j + 1} {hsg.STORAGE_ATTR} = {value}; it must be "
                          '"bits" (8 elements a byte) or "bytes" (one a byte)')
        if value.data != "bits":
            continue
        if not isinstance(t, TensorType) or t.get_element_type() != IntegerType(1):
            raise OpError(fn, f'gives result {j + 1} ({t}) {hsg.STORAGE_ATTR} = "bits": only '
                          "an i1 tensor is stored packed, 8 elements a byte")
        found.append(j)
    return found


def _returned(fn: func.FuncOp) -> func.ReturnOp | None:
    block = fn.body.blocks.last
    last = block.last_op if block is not None else None
    return last if isinstance(last, func.ReturnOp) else None


def _refuse(ret: func.ReturnOp, j: int, what: str) -> OpError:
    return OpError(ret, f'returns result {j + 1}, marked {hsg.STORAGE_ATTR} = "bits", from '
                   f"{what}: only an elementwise kernel's i1 output is stored packed; return "
                   "the generic's result itself, or drop the attribute (one byte per element)")


def mark_packed_outputs(module: ModuleOp) -> None:
    """hsg.PACKED_ATTR on each generic whose result a function returns as "bits"."""
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp):
            continue
        ret = _returned(fn)
        for j in packed_results(fn):
            if ret is None:
                continue
            value = ret.operands[j]
            owner = value.owner
            if not isinstance(owner, GenericOp):
                raise _refuse(ret, j, getattr(owner, "name", "an argument"))
            k = [r for r in owner.res].index(value)  # type: ignore[arg-type]
            old = owner.attributes.get(hsg.PACKED_ATTR)
            positions = set(old.get_values()) if isinstance(old, DenseArrayBase) else set()
            positions.add(k)
            owner.attributes[hsg.PACKED_ATTR] = DenseArrayBase.from_list(i64, sorted(positions))


def check_packed_outputs(module: ModuleOp) -> None:
    """Each "bits" result of a function comes from a launch whose kernel stores it packed."""
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp):
            continue
        ret = _returned(fn)
        for j in packed_results(fn):
            if ret is None:
                continue
            value = ret.operands[j]
            owner = value.owner
            if not isinstance(owner, hsg.LaunchOp):
                raise _refuse(ret, j, getattr(owner, "name", "an argument"))
            kernel = SymbolTable.lookup_symbol(module, owner.kernel)
            k = len(owner.inputs) + [y for y in owner.ys].index(value)  # type: ignore[arg-type]
            stored: Attribute | None = kernel.function_type.inputs.data[k] \
                if isinstance(kernel, func.FuncOp) else None
            if not isinstance(stored, MemRefType) \
                    or stored.get_element_type() != hsg.BITS_STORAGE:
                raise _refuse(ret, j, f"a launch of {owner.kernel} that stores it a byte "
                              "per element")
