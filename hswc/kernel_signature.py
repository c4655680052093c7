"""The arguments of a kernel function (`hsg.kernel`), as hsg.launch passes them and the tiling
struct holds them.

A kernel takes its GM buffers (inputs..., y: `memref<?xT>`), then the tiling's index values
(`totalNum`, `blockFactor`, `ubFactor`: hswc.tiling.TILING_FIELDS), then any number of f32
scalars: the operator's run-time attributes (LeakyRelu's negativeSlope, Softshrink's lambd).
The tiling struct `<Op>TilingData` has the int64 fields, then one float field per scalar, in
argument order, named by `scalar_fields`: the lowerCamel of the argument's name hint. The C++
kernel reads them from `tilingData-><field>`; the interpreter records them under those names
(hswc-run --tiling-json).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import BlockArgument, SSAValue

from hswc.counted_rows import COUNTS_ATTR, GROUP_NUM_FIELD
from hswc.cpp_identifiers import CPP_KEYWORDS, RESERVED, lower_camel
from hswc.rows import ROW_LENGTH_FIELD, read_rows
from hswc.tiling import TILING_FIELDS

SCALAR_FALLBACK = "scalar"
"""The field name of a scalar without a usable name hint: `scalar<position>`."""


@dataclass(frozen=True)
class KernelArguments:
    """A kernel function's block arguments, split by what they carry."""

    gm: tuple[BlockArgument, ...]
    """The leading memrefs: the inputs, then y."""
    tiling: tuple[BlockArgument, ...]
    """The index arguments after them."""
    scalars: tuple[BlockArgument, ...]
    """Everything after those (f32 scalars, in a well-formed kernel)."""


def kernel_arguments(fn: func.FuncOp) -> KernelArguments:
    """The arguments of `fn` as leading memrefs, then index values, then the rest; the caller
    checks their counts and types."""
    args = tuple(fn.body.block.args) if fn.body.blocks else ()
    gm = _prefix(args, MemRefType)
    tiling = _prefix(args[gm:], IndexType)
    return KernelArguments(args[:gm], args[gm:gm + tiling], args[gm + tiling:])


def tiling_fields(fn: func.FuncOp) -> tuple[str, ...]:
    """The int64 fields of the kernel's tiling struct, in argument order (int_fields)."""
    rows = read_rows(fn)
    return int_fields(rows is not None and rows.dynamic, COUNTS_ATTR in fn.attributes)


def int_fields(row_length: bool, counts: bool) -> tuple[str, ...]:
    """The int64 fields of a tiling struct, in the kernel's argument order: TILING_FIELDS,
    then, of a row kernel of a run-time row length, the length (hswc.rows.ROW_LENGTH_FIELD),
    then, of a kernel reading counts (hsg.first_rows), their number (hswc.counted_rows)."""
    return (*TILING_FIELDS, *((ROW_LENGTH_FIELD,) if row_length else ()),
            *((GROUP_NUM_FIELD,) if counts else ()))


def _prefix(args: Sequence[BlockArgument], kind: type) -> int:
    """How many of the first `args` have a type of `kind`."""
    count = 0
    while count < len(args) and isinstance(args[count].type, kind):
        count += 1
    return count


def scalar_fields(scalars: Sequence[SSAValue]) -> tuple[str, ...]:
    """The tiling struct's field name of each scalar: the lowerCamel of its name hint
    (`negative_slope` -> `negativeSlope`), or `scalar<i>` (i its position among the scalars)
    when it has no hint, or one that an int64 field, an earlier scalar, a C++ keyword or an
    AscendC identifier already owns."""
    taken = {*TILING_FIELDS, ROW_LENGTH_FIELD, GROUP_NUM_FIELD, *CPP_KEYWORDS, *RESERVED}
    names: list[str] = []
    for i, value in enumerate(scalars):
        candidates = [lower_camel(value.name_hint or ""), f"{SCALAR_FALLBACK}{i}"]
        name = next((c for c in candidates if c and c not in taken), "")
        suffix = 1
        while not name:
            name = f"{SCALAR_FALLBACK}{i}_{suffix}"
            name, suffix = ("" if name in taken else name), suffix + 1
        taken.add(name)
        names.append(name)
    return tuple(names)
