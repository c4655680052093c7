"""The `hsg` ops of row regions (hswc.rows): a reduction along each row inside a body, and one
core's rows, and one UB chunk of them, of a row kernel.

hswc.dialects.hsg puts them in the dialect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloatConstr,
    DictionaryAttr,
    IndexType,
    MemRefType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from hswc.rows import Rows

COMBINERS = ("addf", "maximumf", "minimumf")
"""How hsg.reduce combines a row's values: their sum, maximum (NaN wins) or minimum."""


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """A reduction along the row, inside a row region's body (hswc.rows): `value` combined over
    the row's elements by `combiner` (the sum, `arith.maximumf`'s or `minimumf`'s maximum or
    minimum; NaN wins both); what uses the result reads the row's one value. The order the sum
    combines in is the kernel's (hswc.reduction_order), at every level below linalg. `signed`
    (a sum only): its terms may have either sign, so the sum may cancel; a row kernel sums it
    in reduction_order's compensated order where a row is one a chunk (`compensated`).

    Example: `%s = hsg.reduce "addf" %e : f32`, `%s = hsg.reduce "addf" signed %g : f32`
    """

    name = "hsg.reduce"
    T: ClassVar = VarConstraint("T", AnyFloatConstr)
    combiner = prop_def(StringAttr)
    signed = opt_prop_def(UnitAttr)
    value = operand_def(T)
    result = result_def(T)
    assembly_format = "$combiner (`signed` $signed^)? $value attr-dict `:` type($value)"

    def __init__(self, combiner: str, value: SSAValue, signed: bool = False):
        super().__init__(operands=[value], result_types=[value.type],
                         properties={"combiner": StringAttr(combiner),
                                     **({"signed": UnitAttr()} if signed else {})})

    def verify_(self) -> None:
        if self.combiner.data not in COMBINERS:
            raise VerifyException(f"{self.name}: the combiner must be one of "
                                  f"{', '.join(COMBINERS)}, got {self.combiner.data}")
        if self.result.type != self.value.type:
            raise VerifyException(f"{self.name}: the result has the value's type")
        if self.signed is not None and self.combiner.data != "addf":
            raise VerifyException(f"{self.name}: only a sum (addf) is `signed`")


def compensated(op: Operation | None, rows: Rows | None) -> bool:
    """Whether a row kernel sums `op` (an hsg.reduce) in hswc.reduction_order's compensated
    order: a `signed` sum in a contiguous row one a chunk (hswc.rows `one_per_chunk`,
    segments included; a row of strided runs, a leading-axis reduction's, keeps the plain
    order: its buffers are planned without the compensated sum's)."""
    return isinstance(op, ReduceOp) and op.signed is not None and rows is not None \
        and rows.one_per_chunk and rows.runs == 1


def _verify_rows(op: RowSliceOp | RowChunkOp) -> None:
    """The buffers are flat GM memrefs, one class per input and output, and the body takes an
    element of each input and yields one of each output."""
    try:
        rows = Rows.from_attr(op.rows)
    except ValueError as error:
        raise VerifyException(f"{op.name}: {error}") from None
    if len(rows.inputs) != len(op.inputs) or len(rows.outputs) != len(op.outputs):
        raise VerifyException(f"{op.name}: hsg.rows names {len(rows.inputs)} input and "
                              f"{len(rows.outputs)} output classes for {len(op.inputs)} inputs "
                              f"and {len(op.outputs)} outputs")
    if not op.outputs:
        raise VerifyException(f"{op.name}: at least one output is needed")
    if rows.dynamic != (op.row_length is not None):
        raise VerifyException(f"{op.name}: a row_length operand goes with a dynamic row "
                              "length (hsg.rows `dynamic`), and only there")
    for value in (*op.inputs, *op.outputs):
        t = value.type
        if not isinstance(t, MemRefType) or t.get_num_dims() != 1:
            raise VerifyException(f"{op.name}: {t} is not a flat GM buffer memref<?xT>")
    block = op.body.block
    wanted = _elements(op.inputs)
    if tuple(a.type for a in block.args) != wanted:
        raise VerifyException(f"{op.name}: the body must take one element of each input "
                              f"({', '.join(str(t) for t in wanted)})")
    last = block.last_op
    yielded = tuple(v.type for v in last.operands) if last is not None else ()
    if last is None or last.name != "linalg.yield" or yielded != _elements(op.outputs):
        raise VerifyException(f"{op.name}: the body must end in linalg.yield of one element of "
                              f"each output ({', '.join(str(t) for t in _elements(op.outputs))})")


def _elements(values: Sequence[SSAValue]) -> tuple[Attribute, ...]:
    return tuple(v.type.get_element_type() for v in values)  # type: ignore[attr-defined]


@irdl_op_definition
class RowSliceOp(IRDLOperation):
    """One core's rows of a row region: rows [offset, offset + size) of every element and row
    operand (a column operand whole), the body applied to each (hswc.rows); `ub_factor` is
    the tiling's rows per UB pass, which `hsg-block-into-ub` blocks by.

    Example:
    `hsg.row_slice ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) [%off, %len] ub_factor %uf rows {length = 64 : i64, inputs = ["element"], outputs = ["element"]} { ... }`
    """

    name = "hsg.row_slice"
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    offset = operand_def(IndexType)
    size = operand_def(IndexType)
    ub_factor = operand_def(IndexType)
    row_length = opt_operand_def(IndexType)
    """The run-time row length, of a `dynamic` row description (hswc.rows) only."""
    rows = prop_def(DictionaryAttr)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)` "
        "`[` $offset `,` $size `]` `ub_factor` $ub_factor (`row_length` $row_length^)? "
        "`rows` $rows attr-dict-with-keyword $body"
    )

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue],
                 offset: SSAValue, size: SSAValue, ub_factor: SSAValue, rows: Rows,
                 body: Region, row_length: SSAValue | None = None):
        super().__init__(operands=[list(inputs), list(outputs), offset, size, ub_factor,
                                   [row_length] if row_length is not None else []],
                         properties={"rows": rows.to_attr()}, regions=[body])

    def verify_(self) -> None:
        _verify_rows(self)


@irdl_op_definition
class RowChunkOp(IRDLOperation):
    """One UB pass of a core's rows: rows [slice_offset + chunk_offset, + chunk_size), at
    most `ub_factor` of them, of a core's slice [slice_offset, + slice_size) (hswc.rows).

    Example: `hsg.row_chunk ins(%x : ...) outs(%y : ...) slice [%off, %len] chunk [%coff, %cur]
    ub_factor %uf rows {...} { ... }`
    """

    name = "hsg.row_chunk"
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    slice_offset = operand_def(IndexType)
    slice_size = operand_def(IndexType)
    chunk_offset = operand_def(IndexType)
    chunk_size = operand_def(IndexType)
    ub_factor = operand_def(IndexType)
    row_length = opt_operand_def(IndexType)
    """The run-time row length, of a `dynamic` row description (hswc.rows) only."""
    rows = prop_def(DictionaryAttr)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)` "
        "`slice` ` ` `[` $slice_offset `,` $slice_size `]` `chunk` ` ` `[` $chunk_offset `,` "
        "$chunk_size `]` `ub_factor` $ub_factor (`row_length` $row_length^)? `rows` $rows "
        "attr-dict-with-keyword $body"
    )

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue],
                 slice_offset: SSAValue, slice_size: SSAValue, chunk_offset: SSAValue,
                 chunk_size: SSAValue, ub_factor: SSAValue, rows: Attribute, body: Region,
                 row_length: SSAValue | None = None):
        super().__init__(
            operands=[list(inputs), list(outputs), slice_offset, slice_size, chunk_offset,
                      chunk_size, ub_factor, [row_length] if row_length is not None else []],
            properties={"rows": rows}, regions=[body],
        )

    def verify_(self) -> None:
        _verify_rows(self)


ROW_OPS = (ReduceOp, RowSliceOp, RowChunkOp)
