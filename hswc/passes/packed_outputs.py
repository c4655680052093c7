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

from collections.abc import Iterator

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
from xdsl.ir import Attribute, Operation, SSAValue
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


def _packed_returns(module: ModuleOp, producer: type[Operation]
                    ) -> Iterator[tuple[Operation, int, SSAValue]]:
    """(its producer, the result's position among the producer's results, the value) of each
    "bits" result of every function; an error at the return when `producer` is not what makes
    it (an argument, another op)."""
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp) or fn.body.blocks.last is None:
            continue
        ret = fn.body.blocks.last.last_op
        if not isinstance(ret, func.ReturnOp):
            continue
        for j in packed_results(fn):
            value = ret.operands[j]
            owner = value.owner
            if not isinstance(owner, producer):
                raise OpError(ret, f'returns result {j + 1}, marked {hsg.STORAGE_ATTR} = "bits", '
                              f"from {getattr(owner, 'name', 'an argument')}: only an "
                              "elementwise kernel's i1 output is stored packed; return the "
                              "generic's result itself, or drop the attribute (one byte per "
                              "element)")
            yield owner, [r for r in owner.results].index(value), value  # type: ignore[arg-type]


def mark_packed_outputs(module: ModuleOp) -> None:
    """hsg.PACKED_ATTR on each generic whose result a function returns as "bits"."""
    for owner, k, _ in _packed_returns(module, GenericOp):
        old = owner.attributes.get(hsg.PACKED_ATTR)
        positions = set(old.get_values()) if isinstance(old, DenseArrayBase) else set()
        positions.add(k)
        owner.attributes[hsg.PACKED_ATTR] = DenseArrayBase.from_list(i64, sorted(positions))


def check_packed_outputs(module: ModuleOp) -> None:
    """Each "bits" result of a function comes from a launch whose kernel stores it packed."""
    for owner, k, value in _packed_returns(module, hsg.LaunchOp):
        assert isinstance(owner, hsg.LaunchOp)
        kernel = SymbolTable.lookup_symbol(module, owner.kernel)
        stored: Attribute | None = kernel.function_type.inputs.data[len(owner.inputs) + k] \
            if isinstance(kernel, func.FuncOp) else None
        if not isinstance(stored, MemRefType) or stored.get_element_type() != hsg.BITS_STORAGE:
            raise OpError(owner, f"returns {value.name_hint or 'a result'} as packed bits "
                          f'({hsg.STORAGE_ATTR} = "bits"), but its kernel {owner.kernel} stores '
                          "it a byte per element: only an elementwise kernel's i1 output is "
                          "stored packed")
