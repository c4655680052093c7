"""hsg.relu_mask: ReLU and the mask of the elements it keeps, two results of one op (ops-nn's
ReluV2 and ReluV3: y and a mask beside it).

hswc.dialects.hsg puts it in the dialect; hsg-decompose lowers it to two elementwise generics
(hswc.ops.relu_mask), which hsg-fuse-elementwise makes one kernel writing both.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

RELU_MASK_TYPES = ("f16", "bf16", "f32", "i8", "i16", "i32", "i64")
"""x's element types: the floats and the signed integers of ops-nn's ReluV2 (hsg.
KERNEL_INTEGER_TYPES but ui8, which has no sign to cut: ReluV2's uint8 y is x). An i64 x
compiles, but no SoC's Compare takes i64, so its generics stay on the host and its mask is
stored a byte per element."""

MASK_ELEMENT = IntegerType(1)


@irdl_op_definition
class ReluMaskOp(IRDLOperation):
    """ReLU(x) and its mask: y = x where x > 0, else 0 (PyTorch's torch.relu; -0 and x <= 0 give
    +0, NaN stays NaN), and mask = x > 0 (false for NaN), one i1 per element of x.

    The mask is an i1 tensor of x's shape. As a function result it is stored one byte per
    element (PyTorch's bool, the default) or packed, 8 elements a byte, least significant bit
    first (ops-nn's DT_UINT1, and ReluV3's uint8 mask of (d + 7) / 8 bytes), where the
    function's result says `{hsg.storage = "bits"}` (hswc.passes.packed_outputs).

    Example: `%y, %mask = hsg.relu_mask %x : tensor<4x64xf16> -> tensor<4x64xi1>`
    """

    name = "hsg.relu_mask"
    T: ClassVar = VarConstraint("T", base(TensorType))
    x = operand_def(T)
    y = result_def(T)
    mask = result_def(TensorType)
    assembly_format = "$x attr-dict `:` type($x) `->` type($mask)"

    def __init__(self, x: SSAValue):
        t = x.type
        assert isinstance(t, TensorType)
        super().__init__(operands=[x], result_types=[t, TensorType(MASK_ELEMENT, t.get_shape())])

    def verify_(self) -> None:
        x, mask = self.x.type, self.mask.type
        assert isinstance(x, TensorType) and isinstance(mask, TensorType)
        element = str(x.get_element_type())
        if element not in RELU_MASK_TYPES:
            raise VerifyException(f"{self.name}: x has element type {element}; it takes "
                                  f"{', '.join(RELU_MASK_TYPES)}")
        if mask.get_element_type() != MASK_ELEMENT:
            raise VerifyException(
                f"{self.name}: the mask has element type {mask.get_element_type()}; it must "
                "be i1 (stored a byte per element, or packed 8 a byte where the function's "
                'result says {hsg.storage = "bits"}, as ops-nn\'s DT_UINT1 and ReluV3\'s '
                "uint8 mask)")
        if mask.get_shape() != x.get_shape():
            raise VerifyException(f"{self.name}: the mask has type {mask}; it must have x's "
                                  f"shape ({x})")


def mask_type(x: Attribute) -> TensorType[Attribute]:
    """The mask's type for x's."""
    assert isinstance(x, TensorType)
    return TensorType(MASK_ELEMENT, x.get_shape())
