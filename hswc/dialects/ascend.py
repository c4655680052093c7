"""The `ascend` dialect: AscendC, one op per API call an elementwise kernel makes.

Types model AscendC's objects: TPipe, TQue<position, depth>, TBuf<position>,
GlobalTensor<T> and LocalTensor<T> (with the TPosition of the buffer it lives in); compare
masks are LocalTensor<uint8_t>. Verifiers enforce the API's static rules (dtype pairs, round
modes, mask types, queue positions); the interpreter enforces the run-time ones (alignment,
capacity, queue state, bounds).

This module holds the kernel structure (block index, GM views, TPipe / TQue / TBuf) and the
copies, and is the dialect's public face: the types (ascend_types), the vector instructions
(ascend_vector) and the verifier helpers (ascend_verify) are re-exported from here.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    I64,
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
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
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

from hswc.dialects.ascend_cache import SetL2CacheHintOp
from hswc.dialects.ascend_ctrl import SetCtrlSprOp
from hswc.dialects.ascend_reduce import (
    REDUCE_OPS,
    ReduceCountOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceSumOp,
)
from hswc.dialects.ascend_repeat import (
    BINARY_REPEAT_OPS,
    REPEAT_OPS,
    WHOLE_REDUCE_OPS,
    AddRepeatOp,
    BinaryRepeatOp,
    BinaryRepeatParams,
    BrcbOp,
    DivRepeatOp,
    DuplicateLanesRepeatOp,
    MaskedRepeatOp,
    MaxRepeatOp,
    MinRepeatOp,
    MulRepeatOp,
    RepeatOp,
    SubRepeatOp,
    WholeReduceMaxOp,
    WholeReduceMinOp,
    WholeReduceOp,
    WholeReduceSumOp,
)
from hswc.dialects.ascend_scalar_access import GlobalGetValueOp, LocalGetValueOp, SetValueOp
from hswc.dialects.ascend_sync import SYNC_OPS, FlagOp, SetFlagOp, WaitFlagOp
from hswc.dialects.ascend_types import (
    BITWISE_ELEMENT_TYPES,
    HALF_FLOAT,
    MASK_ELEMENT_TYPE,
    CmpMode,
    CmpModeAttr,
    GlobalTensorType,
    HardEvent,
    HardEventAttr,
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
from hswc.dialects.ascend_vector import (
    VECTOR_OPS,
    AbsOp,
    AddOp,
    AddsOp,
    AndOp,
    CastOp,
    CompareOp,
    CompareScalarOp,
    ComparesOp,
    DivOp,
    DuplicateLanesOp,
    DuplicateOp,
    ExpOp,
    LnOp,
    MaxOp,
    MaxsOp,
    MinOp,
    MinsOp,
    MulOp,
    MulsOp,
    NotOp,
    OrOp,
    ReluOp,
    RsqrtOp,
    ScalarCompareOp,
    ScalarSourceOp,
    SelectOp,
    ShiftLeftOp,
    ShiftRightOp,
    SqrtOp,
    SubOp,
    VectorOp,
    cast_rules,
)
from hswc.dialects.ascend_verify import (
    MASK_WORD_LANES,
    api_name,
    constant_index,
    local,
    require_same_element,
    require_scalar,
)
from hswc.dialects.int_attrs import int_attr
from hswc.dialects.query import IndexQueryOp
from hswc.platform import DATA_COPY_PAD_MAX_BLOCKS

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
        props = {} if num is None else {"num": int_attr(num, 32)}
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
        if local(self, "src").position != local(self, "result").position:
            raise VerifyException(f"{self.name}: ReinterpretCast keeps the tensor's position")


@irdl_op_definition
class LocalAtOp(IRDLOperation):
    """LocalTensor<T>::operator[](offset): the LocalTensor starting `offset` elements in.

    The same buffer from byte offset * sizeof(T) on; a vector call or copy that writes it
    needs that address 32-byte aligned (the interpreter checks it where it is used). A
    broadcast operand's row runs are copied or duplicated to such views
    (hswc.vectorizer.broadcast_copy).

    Example: `%r = ascend.local_at %t[%off] : !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.local_at"
    T: ClassVar = VarConstraint("T", base(LocalTensorType))
    tensor = operand_def(T)
    offset = operand_def(IndexType)
    result = result_def(T)
    assembly_format = "$tensor `[` $offset `]` attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue, offset: SSAValue):
        super().__init__(operands=[tensor, offset], result_types=[tensor.type])


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


def _copy_direction(op: IRDLOperation, dst: Attribute, src: Attribute,
                    ub_to_ub: bool = False) -> str:
    """'in' (GM -> UB, into VECIN), 'out' (UB -> GM, from VECOUT) or, where the call has it,
    'ub' (UB -> UB, any positions); anything else is refused."""
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
    if ub_to_ub and isinstance(dst, LocalTensorType) and isinstance(src, LocalTensorType):
        require_same_element(op, ("dst", "src"))
        return "ub"
    if ub_to_ub:
        raise VerifyException(
            f"{op.name}: copies GM -> UB, UB -> GM or UB -> UB: at least one side must be a "
            f"LocalTensor, got {dst} <- {src}"
        )
    raise VerifyException(
        f"{op.name}: copies GM -> UB or UB -> GM: one side must be a GlobalTensor and the other "
        f"a LocalTensor, got {dst} <- {src}"
    )


@irdl_op_definition
class DataCopyOp(IRDLOperation):
    """AscendC::DataCopy(dst, src, count): GM -> UB, UB -> GM or UB -> UB copy of count elements.

    count * sizeof(T) must be a multiple of 32 bytes (checked by the interpreter). GM -> UB lands
    in a VECIN tensor, UB -> GM leaves a VECOUT one; UB -> UB copies between LocalTensors of one
    dtype at any UB positions (the overload with a LocalTensor on both sides; it runs on the
    vector pipe).

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
        _copy_direction(self, self.dst.type, self.src.type, ub_to_ub=True)


@irdl_op_definition
class DataCopyPadOp(IRDLOperation):
    """AscendC::DataCopyPad(dst, src, {blockCount, blockLen, srcStride, dstStride}[, {isPad,
    0, 0, padValue}]).

    `block_count` blocks (1 when not given) of `block_len` bytes (a multiple of sizeof(T)).
    GM -> UB pads each block's UB tail up to 32 bytes: with `pad_value` given (isPad = true)
    with that value, otherwise with the block's first element (isPad = false); block b is read
    from GM b * (blockLen + srcStride) bytes on and lands in UB b * (roundup32(blockLen) +
    dstStride * 32) bytes on. UB -> GM writes exactly `block_len` bytes per block, block b read
    from UB b * (roundup32(blockLen) + srcStride * 32) bytes on and written to GM b * (blockLen +
    dstStride) bytes on. asc-devkit's DataCopyPad pages (GM -> UB and UB -> GM, under
    基础API/Memory矢量计算/数据搬运/), DataCopyExtParams: blockCount in [0, 4095], the GM stride
    in bytes, the UB stride in 32-byte blocks.
    The UB stride may be a run-time value instead (`ub_gap`: dstStride GM -> UB, srcStride UB ->
    GM; DataCopyExtParams' strides are plain fields the kernel sets at run time, as ops-nn's
    kernels set them from tiling data): several rows of a run-time length n landed a
    compile-time pitch apart (hswc.vectorizer.row_emit).

    Example: `ascend.data_copy_pad %t, %g, %bytes blocks %rows {dst_stride = 1 : i64} : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>`
    """

    name = "ascend.data_copy_pad"
    dst = operand_def(LocalTensorType | GlobalTensorType)
    src = operand_def(LocalTensorType | GlobalTensorType)
    block_len = operand_def(IndexType)
    block_count = opt_operand_def(IndexType)
    pad_value = opt_prop_def(FloatAttr)
    src_stride = opt_prop_def(IntegerAttr[I64])
    dst_stride = opt_prop_def(IntegerAttr[I64])
    ub_gap = opt_operand_def(IndexType)
    """A run-time UB stride in 32-byte blocks (the class docstring); its property then 0."""
    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))
    assembly_format = (
        "$dst `,` $src `,` $block_len (`blocks` $block_count^)? (`ub_gap` $ub_gap^)? "
        "(`pad` $pad_value^)? attr-dict "
        "`:` type($dst) `,` type($src)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, block_len: SSAValue,
                 block_count: SSAValue | None = None, src_stride: int = 0,
                 dst_stride: int = 0, ub_gap: SSAValue | None = None):
        properties: dict[str, Attribute] = {}
        if src_stride:
            properties["src_stride"] = IntegerAttr(src_stride, 64)
        if dst_stride:
            properties["dst_stride"] = IntegerAttr(dst_stride, 64)
        super().__init__(operands=[dst, src, block_len, block_count, ub_gap],
                         properties=properties)

    def stride(self, name: str) -> int:
        """`src_stride` or `dst_stride` (0 when not given)."""
        attr = self.properties.get(name)
        return attr.value.data if isinstance(attr, IntegerAttr) else 0

    def verify_(self) -> None:
        direction = _copy_direction(self, self.dst.type, self.src.type)
        if self.pad_value is not None:
            if direction != "in":
                raise VerifyException(f"{self.name}: only a GM -> UB copy pads")
            require_scalar(self, self.pad_value, "dst")
        for name in ("src_stride", "dst_stride"):
            if self.stride(name) < 0:
                raise VerifyException(f"{self.name}: {name} {self.stride(name)} is negative")
        ub_side = "dst_stride" if direction == "in" else "src_stride"
        if self.ub_gap is not None and self.stride(ub_side):
            raise VerifyException(f"{self.name}: a run-time ub_gap with a {ub_side} of "
                                  f"{self.stride(ub_side)} as well")
        count = None if self.block_count is None else constant_index(self.block_count)
        if count is not None and not 0 <= count <= DATA_COPY_PAD_MAX_BLOCKS:
            raise VerifyException(f"{self.name}: block count {count} is outside [0, "
                                  f"{DATA_COPY_PAD_MAX_BLOCKS}] (DataCopyExtParams.blockCount)")


# endregion
Ascend = Dialect(
    "ascend",
    [
        GetBlockIdxOp,
        GetBlockNumOp,
        SetGlobalBufferOp,
        SetL2CacheHintOp,
        SetCtrlSprOp,
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
        LocalAtOp,
        PipeBarrierOp,
        DataCopyOp,
        DataCopyPadOp,
        GlobalGetValueOp,
        LocalGetValueOp,
        SetValueOp,
        *VECTOR_OPS,
        *REDUCE_OPS,
        *REPEAT_OPS,
        *SYNC_OPS,
    ],
    [
        TPositionAttr,
        CmpModeAttr,
        SelModeAttr,
        RoundModeAttr,
        PipeAttr,
        HardEventAttr,
        TPipeType,
        TQueType,
        TBufType,
        GlobalTensorType,
        LocalTensorType,
    ],
)


__all__ = [
    "BINARY_REPEAT_OPS",
    "BITWISE_ELEMENT_TYPES",
    "HALF_FLOAT",
    "MASK_ELEMENT_TYPE",
    "MASK_WORD_LANES",
    "REDUCE_OPS",
    "REPEAT_OPS",
    "SYNC_OPS",
    "VECTOR_OPS",
    "WHOLE_REDUCE_OPS",
    "AbsOp",
    "AddOp",
    "AddRepeatOp",
    "AddsOp",
    "AllocTensorOp",
    "AndOp",
    "Ascend",
    "BinaryRepeatOp",
    "BinaryRepeatParams",
    "BrcbOp",
    "CastOp",
    "CmpMode",
    "CmpModeAttr",
    "CompareOp",
    "CompareScalarOp",
    "ComparesOp",
    "DataCopyOp",
    "DataCopyPadOp",
    "DeQueOp",
    "DivOp",
    "DivRepeatOp",
    "DuplicateLanesOp",
    "DuplicateLanesRepeatOp",
    "DuplicateOp",
    "EnQueOp",
    "ExpOp",
    "FlagOp",
    "FreeTensorOp",
    "GetBlockIdxOp",
    "GetBlockNumOp",
    "GlobalAtOp",
    "GlobalGetValueOp",
    "GlobalTensorType",
    "HardEvent",
    "HardEventAttr",
    "InitBufferOp",
    "LnOp",
    "LocalAtOp",
    "LocalGetValueOp",
    "LocalTensorType",
    "MaskedRepeatOp",
    "MaxOp",
    "MaxRepeatOp",
    "MaxsOp",
    "MinOp",
    "MinRepeatOp",
    "MinsOp",
    "MulOp",
    "MulRepeatOp",
    "MulsOp",
    "NotOp",
    "OrOp",
    "Pipe",
    "PipeAttr",
    "PipeBarrierOp",
    "ReduceCountOp",
    "ReduceMaxOp",
    "ReduceMinOp",
    "ReduceSumOp",
    "ReinterpretCastOp",
    "ReluOp",
    "RepeatOp",
    "RoundMode",
    "RoundModeAttr",
    "RsqrtOp",
    "ScalarCompareOp",
    "ScalarSourceOp",
    "SelMode",
    "SelModeAttr",
    "SelectOp",
    "SetCtrlSprOp",
    "SetFlagOp",
    "SetGlobalBufferOp",
    "SetL2CacheHintOp",
    "SetValueOp",
    "ShiftLeftOp",
    "ShiftRightOp",
    "SqrtOp",
    "SubOp",
    "SubRepeatOp",
    "TBufGetOp",
    "TBufOp",
    "TBufType",
    "TPipeOp",
    "TPipeType",
    "TPosition",
    "TPositionAttr",
    "TQueOp",
    "TQueType",
    "VectorOp",
    "WaitFlagOp",
    "WholeReduceMaxOp",
    "WholeReduceMinOp",
    "WholeReduceOp",
    "WholeReduceSumOp",
    "api_name",
    "cast_rules",
    "constant_index",
    "element_size",
    "element_type_name",
]
