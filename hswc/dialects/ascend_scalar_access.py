"""The scalar unit's element accesses: GlobalTensor<T>::GetValue, LocalTensor<T>::GetValue and
LocalTensor<T>::SetValue.

A kernel reads a broadcast operand (hswc.broadcast) element by element with them: the scalar
unit loads the operand's element from GM and stores it into the VECIN tensor the vector calls
then read. Both are documented in asc-devkit's kernel_operator_tensor (GetValue / SetValue of
a GlobalTensor and of a LocalTensor); the order of the scalar unit's UB stores before vector
reads is kept by a PipeBarrier<PIPE_ALL> after them (assumed sufficient: the barrier waits for
every pipe, the scalar pipe's stores included). A per-row scale copied into UB once is read
per row run with LocalTensor::GetValue, after a PipeBarrier<PIPE_ALL> that follows the copy.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import GlobalTensorType, LocalTensorType


@irdl_op_definition
class GlobalGetValueOp(IRDLOperation):
    """GlobalTensor<T>::GetValue(offset): one element of GM, read by the scalar unit.

    Example: `%v = ascend.global_get_value %bias_gm[%i] : !ascend.global_tensor<f32> -> f32`
    """

    name = "ascend.global_get_value"
    tensor = operand_def(GlobalTensorType)
    offset = operand_def(IndexType)
    result = result_def(Attribute)
    assembly_format = "$tensor `[` $offset `]` attr-dict `:` type($tensor) `->` type($result)"

    def __init__(self, tensor: SSAValue, offset: SSAValue):
        assert isinstance(tensor.type, GlobalTensorType)
        super().__init__(operands=[tensor, offset], result_types=[tensor.type.element_type])

    def verify_(self) -> None:
        assert isinstance(self.tensor.type, GlobalTensorType)
        if self.result.type != self.tensor.type.element_type:
            raise VerifyException(f"{self.name}: reads a {self.tensor.type.element_type}, not "
                                  f"a {self.result.type}")


@irdl_op_definition
class SetValueOp(IRDLOperation):
    """LocalTensor<T>::SetValue(index, value): one element of UB, written by the scalar unit.

    Example: `ascend.set_value %bias_local[%j], %v : !ascend.local_tensor<f32, vecin>, f32`
    """

    name = "ascend.set_value"
    tensor = operand_def(LocalTensorType)
    index = operand_def(IndexType)
    value = operand_def(Attribute)
    assembly_format = "$tensor `[` $index `]` `,` $value attr-dict `:` type($tensor) `,` " \
        "type($value)"

    def __init__(self, tensor: SSAValue, index: SSAValue, value: SSAValue):
        super().__init__(operands=[tensor, index, value])

    def verify_(self) -> None:
        assert isinstance(self.tensor.type, LocalTensorType)
        if self.value.type != self.tensor.type.element_type:
            raise VerifyException(f"{self.name}: stores a {self.value.type} into "
                                  f"{self.tensor.type}")


@irdl_op_definition
class LocalGetValueOp(IRDLOperation):
    """LocalTensor<T>::GetValue(index): one element of UB, read by the scalar unit.

    Example: `%v = ascend.get_value %scale_resident[%i] : !ascend.local_tensor<f16, vecin> -> f16`
    """

    name = "ascend.get_value"
    tensor = operand_def(LocalTensorType)
    index = operand_def(IndexType)
    result = result_def(Attribute)
    assembly_format = "$tensor `[` $index `]` attr-dict `:` type($tensor) `->` type($result)"

    def __init__(self, tensor: SSAValue, index: SSAValue):
        assert isinstance(tensor.type, LocalTensorType)
        super().__init__(operands=[tensor, index], result_types=[tensor.type.element_type])

    def verify_(self) -> None:
        assert isinstance(self.tensor.type, LocalTensorType)
        if self.result.type != self.tensor.type.element_type:
            raise VerifyException(f"{self.name}: reads a {self.tensor.type.element_type}, not "
                                  f"a {self.result.type}")
