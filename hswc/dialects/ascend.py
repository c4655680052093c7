"""The `ascend` dialect: AscendC, one op per API call the HardSwishGrad kernel makes.

Types model AscendC's objects: TPipe, TQue<position, depth>, TBuf<position>,
GlobalTensor<T> and LocalTensor<T> (with the TPosition of the buffer it lives in); compare
masks are LocalTensor<uint8_t>. Verifiers enforce the API's static rules (dtype pairs, round
modes, mask types, queue positions); the interpreter enforces the run-time ones (alignment,
capacity, queue state, bounds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I32,
    BFloat16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    i32,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import (
    HALF_FLOAT,
    MASK_ELEMENT_TYPE,
    CmpMode,
    CmpModeAttr,
    GlobalTensorType,
    LocalTensorType,
    Pipe,
    PipeAttr,
    RoundMode,
    RoundModeAttr,
    SelMode,
    SelModeAttr,
    TBufType,
    TPipeType,
    TPosition,
    TPositionAttr,
    TQueType,
    element_size,
    element_type_name,
)
from hswc.dialects.query import IndexQueryOp
from hswc.platform import VECTOR_REPEAT_BYTES

# region ops helpers

def _local(op: IRDLOperation, name: str) -> LocalTensorType:
    t = getattr(op, name).type
    assert isinstance(t, LocalTensorType)
    return t


def _require_element(op: IRDLOperation, name: str, allowed: tuple[type[Attribute], ...],
                     what: str) -> Attribute:
    elem = _local(op, name).element_type
    if not isinstance(elem, allowed):
        raise VerifyException(f"{op.name}: {name} has element type {elem}; {what}")
    return elem


def _require_same_element(op: IRDLOperation, names: Sequence[str]) -> None:
    first = _local(op, names[0]).element_type
    for name in names[1:]:
        elem = _local(op, name).element_type
        if elem != first:
            raise VerifyException(
                f"{op.name}: {name} has element type {elem} but {names[0]} has {first}"
            )


def _require_scalar(op: IRDLOperation, scalar: FloatAttr, tensor: str) -> None:
    elem = _local(op, tensor).element_type
    if scalar.type != elem:
        raise VerifyException(
            f"{op.name}: the scalar has type {scalar.type} but {tensor} holds {elem}; "
            "the scalar must have the tensor's dtype"
        )


def constant_index(value: SSAValue) -> int | None:
    """The value of an index given by arith.constant, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


# endregion
# region kernel structure


@irdl_op_definition
class GetBlockIdxOp(IndexQueryOp):
    """AscendC::GetBlockIdx(): this core's index in the launch, in [0, blockDim).

    Example: `%b = ascend.get_block_idx`
    """

    name = "ascend.get_block_idx"


@irdl_op_definition
class GetBlockNumOp(IndexQueryOp):
    """AscendC::GetBlockNum(): the launch's blockDim.

    Example: `%n = ascend.get_block_num`
    """

    name = "ascend.get_block_num"


@irdl_op_definition
class SetGlobalBufferOp(IRDLOperation):
    """GlobalTensor<T>::SetGlobalBuffer((__gm__ T*)gm + offset, length).

    The GlobalTensor covers `length` elements from element `offset` of the kernel argument.

    Example: `%gx = ascend.set_global_buffer %x[%off], %len : memref<?xf16> -> !ascend.global_tensor<f16>`
    """

    name = "ascend.set_global_buffer"
    gm = operand_def(MemRefType)
    offset = operand_def(IndexType)
    length = operand_def(IndexType)
    result = result_def(GlobalTensorType)
    assembly_format = "$gm `[` $offset `]` `,` $length attr-dict `:` type($gm) `->` type($result)"

    def __init__(self, gm: SSAValue, offset: SSAValue, length: SSAValue):
        assert isinstance(gm.type, MemRefType)
        super().__init__(
            operands=[gm, offset, length],
            result_types=[GlobalTensorType(gm.type.get_element_type())],
        )

    def verify_(self) -> None:
        assert isinstance(self.gm.type, MemRefType)
        assert isinstance(self.result.type, GlobalTensorType)
        if self.gm.type.get_element_type() != self.result.type.element_type:
            raise VerifyException(
                f"{self.name}: {self.result.type} cannot view {self.gm.type}: element types differ"
            )


@irdl_op_definition
class GlobalAtOp(IRDLOperation):
    """GlobalTensor<T>::operator[](offset): the GlobalTensor starting `offset` elements in.

    Example: `%g = ascend.global_at %gx[%off] : !ascend.global_tensor<f16>`
    """

    name = "ascend.global_at"
    T: ClassVar = VarConstraint("T", base(GlobalTensorType))
    tensor = operand_def(T)
    offset = operand_def(IndexType)
    result = result_def(T)
    assembly_format = "$tensor `[` $offset `]` attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue, offset: SSAValue):
        super().__init__(operands=[tensor, offset], result_types=[tensor.type])


@irdl_op_definition
class TPipeOp(IRDLOperation):
    """AscendC::TPipe pipe;: the kernel's UB manager.

    Example: `%pipe = ascend.tpipe`
    """

    name = "ascend.tpipe"
    result = result_def(TPipeType)
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[TPipeType()])


@irdl_op_definition
class TQueOp(IRDLOperation):
    """AscendC::TQue<TPosition, depth> que;: declares a queue (no UB until InitBuffer).

    Example: `%q = ascend.tque : !ascend.tque<vecin, 1>`
    """

    name = "ascend.tque"
    result = result_def(TQueType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, position: TPosition, depth: int):
        super().__init__(result_types=[TQueType(position, depth)])


@irdl_op_definition
class TBufOp(IRDLOperation):
    """AscendC::TBuf<TPosition> buf;: declares a scratch buffer (no UB until InitBuffer).

    Example: `%b = ascend.tbuf : !ascend.tbuf<veccalc>`
    """

    name = "ascend.tbuf"
    result = result_def(TBufType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, position: TPosition = TPosition.VECCALC):
        super().__init__(result_types=[TBufType(position)])


@irdl_op_definition
class InitBufferOp(IRDLOperation):
    """TPipe::InitBuffer(que, num, len) / TPipe::InitBuffer(buf, len): give a buffer UB.

    A queue gets `num` buffers of `length` bytes (rounded up to 32); `num` must equal the
    queue's depth. A TBuf gets one buffer of `length` bytes and takes no `num`.

    Example: `ascend.init_buffer %pipe, %q, num 1, %bytes : !ascend.tque<vecin, 1>`
    (`num` is an i32; the typed spelling `num 1 : i32` is read too).
    """

    name = "ascend.init_buffer"
    pipe = operand_def(TPipeType)
    buffer = operand_def(TQueType | TBufType)
    num = opt_prop_def(IntegerAttr[I32])
    length = operand_def(IndexType)

    def __init__(self, pipe: SSAValue, buffer: SSAValue, length: SSAValue, num: int | None = None):
        props = {} if num is None else {"num": IntegerAttr(num, 32)}
        super().__init__(operands=[pipe, buffer, length], properties=props)

    def verify_(self) -> None:
        t = self.buffer.type
        if isinstance(t, TQueType):
            if self.num is None:
                raise VerifyException(f"{self.name}: a TQue needs `num` (its buffer count)")
            num = self.num.value.data
            if num != t.depth.data:
                raise VerifyException(
                    f"{self.name}: num {num} differs from the depth of {t}; "
                    "InitBuffer must give a queue as many buffers as its depth"
                )
        elif self.num is not None:
            raise VerifyException(f"{self.name}: a TBuf takes no `num`, only a length")

    @classmethod
    def parse(cls, parser: Parser) -> InitBufferOp:
        pipe = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        buffer = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        num: int | None = None
        if parser.parse_optional_keyword("num") is not None:
            num = parser.parse_integer(allow_boolean=False)
            if parser.parse_optional_punctuation(":") is not None:
                type_pos = parser.pos
                if parser.parse_type() != i32:
                    parser.raise_error("`num` is an i32", type_pos, parser.pos)
            parser.parse_punctuation(",")
        length = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        buffer_type = parser.parse_type()
        pipe_v, buffer_v, length_v = parser.resolve_operands(
            [pipe, buffer, length], [TPipeType(), buffer_type, IndexType()], parser.pos
        )
        op = cls(pipe_v, buffer_v, length_v, num)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.pipe, self.buffer), printer.print_operand)
        printer.print_string(", ")
        if self.num is not None:
            printer.print_string(f"num {self.num.value.data}, ")
        printer.print_operand(self.length)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buffer.type)


class _QueueTakeOp(IRDLOperation):
    """A LocalTensor taken from a queue (AllocTensor, DeQue): it has the queue's position."""

    que = operand_def(TQueType)
    result = result_def(LocalTensorType)
    assembly_format = "$que attr-dict `:` type($que) `->` type($result)"

    def __init__(self, que: SSAValue, element_type: Attribute):
        assert isinstance(que.type, TQueType)
        super().__init__(
            operands=[que], result_types=[LocalTensorType(element_type, que.type.position.data)]
        )

    def verify_(self) -> None:
        _verify_queue_tensor(self.name, self.que.type, self.result.type)


class _QueueGiveOp(IRDLOperation):
    """A LocalTensor handed to a queue (EnQue, FreeTensor): it has the queue's position."""

    que = operand_def(TQueType)
    tensor = operand_def(LocalTensorType)
    assembly_format = "$que `,` $tensor attr-dict `:` type($que) `,` type($tensor)"

    def __init__(self, que: SSAValue, tensor: SSAValue):
        super().__init__(operands=[que, tensor])

    def verify_(self) -> None:
        _verify_queue_tensor(self.name, self.que.type, self.tensor.type)


@irdl_op_definition
class AllocTensorOp(_QueueTakeOp):
    """TQue::AllocTensor<T>(): take a free buffer of the queue as a LocalTensor.

    Example: `%t = ascend.alloc_tensor %q : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.alloc_tensor"


@irdl_op_definition
class EnQueOp(_QueueGiveOp):
    """TQue::EnQue(tensor): hand a filled tensor to the next pipeline stage.

    Example: `ascend.enque %q, %t : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.enque"


@irdl_op_definition
class DeQueOp(_QueueTakeOp):
    """TQue::DeQue<T>(): wait for and take the oldest tensor in the queue.

    Example: `%t = ascend.deque %q : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.deque"


@irdl_op_definition
class FreeTensorOp(_QueueGiveOp):
    """TQue::FreeTensor(tensor): give the buffer back to the queue.

    Example: `ascend.free_tensor %q, %t : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.free_tensor"


def _verify_queue_tensor(name: str, que: Attribute, tensor: Attribute) -> None:
    assert isinstance(que, TQueType) and isinstance(tensor, LocalTensorType)
    if que.position != tensor.position:
        raise VerifyException(
            f"{name}: {tensor} does not fit {que}: a queue's tensors have the queue's position"
        )


@irdl_op_definition
class TBufGetOp(IRDLOperation):
    """TBuf::Get<T>(): the whole buffer as a LocalTensor<T>.

    Example: `%t = ascend.tbuf_get %b : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.tbuf_get"
    buf = operand_def(TBufType)
    result = result_def(LocalTensorType)
    assembly_format = "$buf attr-dict `:` type($buf) `->` type($result)"

    def __init__(self, buf: SSAValue, element_type: Attribute):
        assert isinstance(buf.type, TBufType)
        super().__init__(
            operands=[buf], result_types=[LocalTensorType(element_type, buf.type.position.data)]
        )

    def verify_(self) -> None:
        assert isinstance(self.buf.type, TBufType)
        assert isinstance(self.result.type, LocalTensorType)
        if self.buf.type.position != self.result.type.position:
            raise VerifyException(f"{self.name}: {self.result.type} does not fit {self.buf.type}")


@irdl_op_definition
class ReinterpretCastOp(IRDLOperation):
    """LocalTensor<T>::ReinterpretCast<U>(): the same UB bytes seen as another element type.

    Example: `%f = ascend.reinterpret_cast %t : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>`
    """

    name = "ascend.reinterpret_cast"
    src = operand_def(LocalTensorType)
    result = result_def(LocalTensorType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, element_type: Attribute):
        assert isinstance(src.type, LocalTensorType)
        super().__init__(
            operands=[src], result_types=[LocalTensorType(element_type, src.type.pos)]
        )

    def verify_(self) -> None:
        if _local(self, "src").position != _local(self, "result").position:
            raise VerifyException(f"{self.name}: ReinterpretCast keeps the tensor's position")


@irdl_op_definition
class PipeBarrierOp(IRDLOperation):
    """AscendC::PipeBarrier<pipe>(): wait until the pipe's earlier instructions finish.

    Example: `ascend.pipe_barrier pipe_v`
    """

    name = "ascend.pipe_barrier"
    pipe = prop_def(PipeAttr)
    assembly_format = "$pipe attr-dict"

    def __init__(self, pipe: Pipe = Pipe.PIPE_V):
        super().__init__(properties={"pipe": PipeAttr(pipe)})


# endregion
# region copies


def _copy_direction(op: IRDLOperation, dst: Attribute, src: Attribute) -> str:
    """'in' (GM -> UB, into VECIN) or 'out' (UB -> GM, from VECOUT); anything else is refused."""
    if isinstance(dst, LocalTensorType) and isinstance(src, GlobalTensorType):
        if dst.pos != TPosition.VECIN:
            raise VerifyException(
                f"{op.name}: a copy from GM must land in a VECIN tensor, got {dst}"
            )
        if dst.element_type != src.element_type:
            raise VerifyException(f"{op.name}: {src} and {dst} hold different element types")
        return "in"
    if isinstance(dst, GlobalTensorType) and isinstance(src, LocalTensorType):
        if src.pos != TPosition.VECOUT:
            raise VerifyException(
                f"{op.name}: a copy to GM must come from a VECOUT tensor, got {src}"
            )
        if dst.element_type != src.element_type:
            raise VerifyException(f"{op.name}: {src} and {dst} hold different element types")
        return "out"
    raise VerifyException(
        f"{op.name}: copies GM -> UB or UB -> GM: one side must be a GlobalTensor and the other "
        f"a LocalTensor, got {dst} <- {src}"
    )


@irdl_op_definition
class DataCopyOp(IRDLOperation):
    """AscendC::DataCopy(dst, src, count): GM <-> UB copy of count elements.

    count * sizeof(T) must be a multiple of 32 bytes (checked by the interpreter).

    Example: `ascend.data_copy %t, %g, %n : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>`
    """

    name = "ascend.data_copy"
    dst = operand_def(LocalTensorType | GlobalTensorType)
    src = operand_def(LocalTensorType | GlobalTensorType)
    count = operand_def(IndexType)
    assembly_format = "$dst `,` $src `,` $count attr-dict `:` type($dst) `,` type($src)"

    def __init__(self, dst: SSAValue, src: SSAValue, count: SSAValue):
        super().__init__(operands=[dst, src, count])

    def verify_(self) -> None:
        _copy_direction(self, self.dst.type, self.src.type)


@irdl_op_definition
class DataCopyPadOp(IRDLOperation):
    """AscendC::DataCopyPad(dst, src, {1, blockLen, 0, 0}[, {isPad, 0, 0, padValue}]).

    One block of `block_len` bytes (a multiple of sizeof(T)). GM -> UB pads the UB tail up to
    32 bytes: with `pad_value` given (isPad = true) with that value, otherwise with the block's
    first element (isPad = false). UB -> GM writes exactly `block_len` bytes.

    Example: `ascend.data_copy_pad %t, %g, %bytes : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>`
    """

    name = "ascend.data_copy_pad"
    dst = operand_def(LocalTensorType | GlobalTensorType)
    src = operand_def(LocalTensorType | GlobalTensorType)
    block_len = operand_def(IndexType)
    pad_value = opt_prop_def(FloatAttr)
    assembly_format = (
        "$dst `,` $src `,` $block_len (`pad` $pad_value^)? attr-dict `:` type($dst) `,` type($src)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, block_len: SSAValue):
        super().__init__(operands=[dst, src, block_len])

    def verify_(self) -> None:
        direction = _copy_direction(self, self.dst.type, self.src.type)
        if self.pad_value is not None:
            if direction != "in":
                raise VerifyException(f"{self.name}: only a GM -> UB copy pads")
            _require_scalar(self, self.pad_value, "dst")


# endregion
# region vector instructions


class VectorOp(IRDLOperation):
    """A vector instruction over `count` elements of UB tensors (abstract)."""

    count = operand_def(IndexType)


class _UnaryScalarOp(VectorOp):
    """dst[i] = src[i] <op> scalar, in the tensors' dtype (Muls, Adds)."""

    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    scalar = prop_def(FloatAttr)
    assembly_format = "$dst `,` $src `,` $scalar `,` $count attr-dict `:` type($dst) `,` type($src)"

    def __init__(self, dst: SSAValue, src: SSAValue, scalar: FloatAttr, count: SSAValue):
        super().__init__(operands=[dst, src, count], properties={"scalar": scalar})

    def verify_(self) -> None:
        _require_element(self, "dst", HALF_FLOAT, "this instruction takes half or float")
        _require_same_element(self, ("dst", "src"))
        _require_scalar(self, self.scalar, "dst")


@irdl_op_definition
class MulsOp(_UnaryScalarOp):
    """AscendC::Muls(dst, src, scalar, count): dst = src * scalar, rounded in T.

    Example: `ascend.muls %s, %x, 0.333333343 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.muls"


@irdl_op_definition
class AddsOp(_UnaryScalarOp):
    """AscendC::Adds(dst, src, scalar, count): dst = src + scalar, rounded in T.

    Example: `ascend.adds %s, %s, 5.000000e-01 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.adds"


@irdl_op_definition
class MulOp(VectorOp):
    """AscendC::Mul(dst, src0, src1, count): dst = src0 * src1, rounded in T.

    Example: `ascend.mul %y, %g, %s, %n : !ascend.local_tensor<f32, vecout>, ...`
    """

    name = "ascend.mul"
    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = operand_def(LocalTensorType)
    assembly_format = (
        "$dst `,` $src0 `,` $src1 `,` $count attr-dict "
        "`:` type($dst) `,` type($src0) `,` type($src1)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, src1: SSAValue, count: SSAValue):
        super().__init__(operands=[dst, src0, src1, count])

    def verify_(self) -> None:
        _require_element(self, "dst", HALF_FLOAT, "Mul takes half or float")
        _require_same_element(self, ("dst", "src0", "src1"))


@irdl_op_definition
class DuplicateOp(VectorOp):
    """AscendC::Duplicate(dst, scalar, count): fill count elements with the scalar.

    Example: `ascend.duplicate %t, -3.000000e+00 : f32, %n : !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.duplicate"
    dst = operand_def(LocalTensorType)
    scalar = prop_def(FloatAttr)
    assembly_format = "$dst `,` $scalar `,` $count attr-dict `:` type($dst)"

    def __init__(self, dst: SSAValue, scalar: FloatAttr, count: SSAValue):
        super().__init__(operands=[dst, count], properties={"scalar": scalar})

    def verify_(self) -> None:
        _require_element(self, "dst", (*HALF_FLOAT, BFloat16Type),
                         "Duplicate takes half, bfloat16_t or float")
        _require_scalar(self, self.scalar, "dst")


def _verify_compare_count(op: VectorOp, src: str) -> None:
    """Compare computes whole 256-byte blocks: count * sizeof(T) % 256 == 0 when it is static."""
    count = constant_index(op.count)
    size = element_size(_local(op, src).element_type)
    if count is not None and (count * size) % VECTOR_REPEAT_BYTES:
        raise VerifyException(
            f"{op.name}: count {count} of {size}-byte elements is not a whole number of "
            f"{VECTOR_REPEAT_BYTES}-byte blocks"
        )


def _verify_mask(op: IRDLOperation, name: str) -> None:
    if _local(op, name).element_type != MASK_ELEMENT_TYPE:
        raise VerifyException(
            f"{op.name}: {name} must be a LocalTensor<uint8_t> mask (ui8), got "
            f"{_local(op, name).element_type}"
        )


@irdl_op_definition
class CompareOp(VectorOp):
    """AscendC::Compare(dst, src0, src1, CMPMODE, count): bit mask of src0 <mode> src1.

    Bit i%8 of byte i/8 of dst is 1 where the comparison holds (NaN compares false). Only whole
    256-byte blocks are computed: count * sizeof(T) must be a multiple of 256.

    Example: `ascend.compare %m, %x, %lo, gt, %n : !ascend.local_tensor<ui8, veccalc>, ...`
    """

    name = "ascend.compare"
    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = operand_def(LocalTensorType)
    mode = prop_def(CmpModeAttr)
    assembly_format = (
        "$dst `,` $src0 `,` $src1 `,` $mode `,` $count attr-dict "
        "`:` type($dst) `,` type($src0) `,` type($src1)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, src1: SSAValue, mode: CmpMode,
                 count: SSAValue):
        super().__init__(operands=[dst, src0, src1, count], properties={"mode": CmpModeAttr(mode)})

    def verify_(self) -> None:
        _verify_mask(self, "dst")
        _require_element(self, "src0", HALF_FLOAT, "Compare takes half or float")
        _require_same_element(self, ("src0", "src1"))
        _verify_compare_count(self, "src0")


@irdl_op_definition
class CompareScalarOp(VectorOp):
    """AscendC::CompareScalar(dst, src0, scalar, CMPMODE, count): bit mask of src0 <mode> scalar.

    Example: `ascend.compare_scalar %m, %x, -3.000000e+00 : f32, gt, %n : ...`
    """

    name = "ascend.compare_scalar"
    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    scalar = prop_def(FloatAttr)
    mode = prop_def(CmpModeAttr)
    assembly_format = (
        "$dst `,` $src0 `,` $scalar `,` $mode `,` $count attr-dict `:` type($dst) `,` type($src0)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, scalar: FloatAttr, mode: CmpMode,
                 count: SSAValue):
        super().__init__(
            operands=[dst, src0, count],
            properties={"scalar": scalar, "mode": CmpModeAttr(mode)},
        )

    def verify_(self) -> None:
        _verify_mask(self, "dst")
        _require_element(self, "src0", HALF_FLOAT, "CompareScalar takes half or float")
        _require_scalar(self, self.scalar, "src0")
        _verify_compare_count(self, "src0")


@irdl_op_definition
class SelectOp(VectorOp):
    """AscendC::Select(dst, mask, src0, src1|scalar, SELMODE, count): mask bit 1 -> src0.

    VSEL_TENSOR_TENSOR_MODE and VSEL_CMPMASK_SPR take a tensor src1; VSEL_TENSOR_SCALAR_MODE
    takes a scalar of the tensors' dtype instead. dst may be src0.

    Example: `ascend.select %s, %m, %s, %zero, vsel_tensor_tensor_mode, %n : ...`
    """

    name = "ascend.select"
    dst = operand_def(LocalTensorType)
    mask = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = opt_operand_def(LocalTensorType)
    scalar = opt_prop_def(FloatAttr)
    mode = prop_def(SelModeAttr)
    assembly_format = (
        "$dst `,` $mask `,` $src0 `,` ($src1^)? ($scalar^)? `,` $mode `,` $count attr-dict "
        "`:` type($dst) `,` type($mask) `,` type($src0) (`,` type($src1)^)?"
    )

    irdl_options = ()

    def __init__(self, dst: SSAValue, mask: SSAValue, src0: SSAValue,
                 src1: SSAValue | FloatAttr, mode: SelMode, count: SSAValue):
        props: dict[str, Attribute] = {"mode": SelModeAttr(mode)}
        if isinstance(src1, FloatAttr):
            props["scalar"] = src1
            super().__init__(operands=[dst, mask, src0, [], count], properties=props)
        else:
            super().__init__(operands=[dst, mask, src0, [src1], count], properties=props)

    def verify_(self) -> None:
        _verify_mask(self, "mask")
        _require_element(self, "dst", HALF_FLOAT, "Select takes half or float")
        scalar_mode = self.mode.data == SelMode.VSEL_TENSOR_SCALAR_MODE
        if scalar_mode:
            if self.scalar is None or self.src1 is not None:
                raise VerifyException(
                    f"{self.name}: {self.mode.data.value} takes a scalar as its second source"
                )
            _require_scalar(self, self.scalar, "dst")
            _require_same_element(self, ("dst", "src0"))
        else:
            if self.src1 is None or self.scalar is not None:
                raise VerifyException(
                    f"{self.name}: {self.mode.data.value} takes a tensor as its second source"
                )
            _require_same_element(self, ("dst", "src0", "src1"))


CAST_RULES: dict[tuple[str, str], tuple[RoundMode, ...]] = {
    ("f16", "f32"): (RoundMode.CAST_NONE,),
    ("bf16", "f32"): (RoundMode.CAST_NONE,),
    ("f32", "f16"): (
        RoundMode.CAST_NONE, RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
        RoundMode.CAST_ROUND, RoundMode.CAST_TRUNC, RoundMode.CAST_ODD,
    ),
    # The 910B implementation asserts on CAST_NONE for f32 -> bf16.
    ("f32", "bf16"): (
        RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL, RoundMode.CAST_ROUND,
        RoundMode.CAST_TRUNC,
    ),
}
"""(src, dst) -> the round modes AscendC::Cast accepts for that pair on Atlas A2/A3."""


@irdl_op_definition
class CastOp(VectorOp):
    """AscendC::Cast(dst, src, RoundMode, count): convert count elements between dtypes.

    Pairs and modes as CAST_RULES lists; f32 -> bf16 with CAST_NONE is refused, as on the 910B.

    Example: `ascend.cast %f, %h, cast_none, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.cast"
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    round_mode = prop_def(RoundModeAttr)
    assembly_format = (
        "$dst `,` $src `,` $round_mode `,` $count attr-dict `:` type($dst) `,` type($src)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, round_mode: RoundMode, count: SSAValue):
        super().__init__(
            operands=[dst, src, count], properties={"round_mode": RoundModeAttr(round_mode)}
        )

    def verify_(self) -> None:
        pair = (element_type_name(_local(self, "src").element_type),
                element_type_name(_local(self, "dst").element_type))
        modes = CAST_RULES.get(pair)
        if modes is None:
            raise VerifyException(f"{self.name}: no Cast from {pair[0]} to {pair[1]}")
        mode = self.round_mode.data
        if mode not in modes:
            allowed = ", ".join(m.value for m in modes)
            raise VerifyException(
                f"{self.name}: Cast from {pair[0]} to {pair[1]} does not support {mode.value} "
                f"(supported: {allowed})"
            )


# endregion

VECTOR_OPS: tuple[type[VectorOp], ...] = (
    MulsOp, AddsOp, MulOp, DuplicateOp, CompareOp, CompareScalarOp, SelectOp, CastOp,
)

Ascend = Dialect(
    "ascend",
    [
        GetBlockIdxOp,
        GetBlockNumOp,
        SetGlobalBufferOp,
        GlobalAtOp,
        TPipeOp,
        TQueOp,
        TBufOp,
        InitBufferOp,
        AllocTensorOp,
        EnQueOp,
        DeQueOp,
        FreeTensorOp,
        TBufGetOp,
        ReinterpretCastOp,
        PipeBarrierOp,
        DataCopyOp,
        DataCopyPadOp,
        *VECTOR_OPS,
    ],
    [
        TPositionAttr,
        CmpModeAttr,
        SelModeAttr,
        RoundModeAttr,
        PipeAttr,
        TPipeType,
        TQueType,
        TBufType,
        GlobalTensorType,
        LocalTensorType,
    ],
)

