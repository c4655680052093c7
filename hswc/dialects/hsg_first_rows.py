"""hsg.first_rows: a tensor of which only the leading rows a counts tensor sums to are
computed (ops-nn's group_index, hswc.counted_rows).

hswc.dialects.hsg puts it in the dialect. hsg-tile-on-cores folds it into the launch of the
kernel computing its operand (hswc.passes.first_rows): the kernel reads the counts from GM and
computes that many rows; elsewhere it runs on the host.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class FirstRowsOp(IRDLOperation):
    """y on its first n rows, n = the int64 sum of `counts` clamped to [0, rows]; rows are the
    product of y's first `row_dims` dims (default: all but the last). The other rows are not
    computed: they hold what the output buffer held (hswc's interpreter: its fresh-buffer
    byte pattern, hswc.counted_rows). `counts` is a rank-1 tensor of i64, as ops-nn's
    group_index.

    Example: `%z = hsg.first_rows %y, %group_index : tensor<8x64xf16>, tensor<4xi64>`
    """

    name = "hsg.first_rows"
    T: ClassVar = VarConstraint("T", base(TensorType))
    y = operand_def(T)
    counts = operand_def(Attribute)
    row_dims = opt_prop_def(IntegerAttr)
    result = result_def(T)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$y `,` $counts attr-dict `:` type($y) `,` type($counts)"

    def __init__(self, y: SSAValue, counts: SSAValue, row_dims: int | None = None):
        props = {} if row_dims is None else {"row_dims": IntegerAttr(row_dims, i64)}
        super().__init__(operands=[y, counts], result_types=[y.type], properties=props)

    def dims(self) -> int:
        """How many leading dims of y count rows."""
        assert isinstance(self.y.type, TensorType)
        rank = self.y.type.get_num_dims()
        return max(rank - 1, 0) if self.row_dims is None else self.row_dims.value.data

    def verify_(self) -> None:
        y, counts = self.y.type, self.counts.type
        assert isinstance(y, TensorType)
        if not (isinstance(counts, TensorType) and counts.get_num_dims() == 1
                and counts.get_element_type() == IntegerType(64)):
            raise VerifyException(f"{self.name}: counts has type {counts}; it must be a rank-1 "
                                  "tensor of i64 (ops-nn's group_index: one count per group)")
        if not 0 <= self.dims() <= y.get_num_dims():
            raise VerifyException(f"{self.name}: row_dims is {self.dims()}; y has rank "
                                  f"{y.get_num_dims()}")
