"""The mask/repeat (level-0) calls of the `ascend` dialect: binary arithmetic with repeat
parameters, WholeReduceSum / Max / Min and Brcb.

A level-0 call runs `repeat` repeats (0..255) of 256 / sizeof(T) lanes, 8 blocks of 32 bytes.
Lane k of repeat r of an operand with block stride B and repeat stride R (in 32-byte blocks) is
the element at byte (r * R + (k * sizeof(T) / 32) * B) * 32 + (k * sizeof(T)) % 32 of its
tensor (asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/SIMD计算说明/高维切分.md). A source
stride of 0 re-reads (block stride 0: the first 32 bytes for every block); dstBlkStride 0 is
undefined behaviour ("dstBlkStride不支持设置为0") and refused. The mask is continuous: the
first `mask` lanes of every repeat take part (掩码.md), `mask` in [1, 256 / sizeof(T)]; the
others are left as they are. mask and repeat are index operands (the interpreter checks their
run-time values: 0 is a NOP on Atlas A2/A3, refused on Ascend 950, which does not promise a
NOP); the strides are integer properties, checked here. The level-2 calls of the same names
(`ascend.add`, ...) are other ops: these carry no count, and the interpreter, printer and
cost model treat the repeat forms as one family (`RepeatOp`).

Overlap (通用说明和约束.md, 通用地址重叠约束): within a repeat dst and a source are the same
lanes at the same bytes or disjoint; no repeat may read what an earlier repeat wrote, except
the second source of Add, Sub, Mul, Max, Min (half, float) with src1RepStride or dstRepStride
0 (accumulating into dst). Repeats run in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import I64, FloatAttr, IndexType, IntegerAttr
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import LocalTensorType, element_size
from hswc.dialects.ascend_verify import (
    Elements,
    constant_index,
    local,
    require_element,
    require_same_element,
    soc_elements,
    soc_float_elements,
    verify_duplicate_mask,
)
from hswc.dialects.int_attrs import int_attr
from hswc.platform import MAX_REPEAT_TIMES, VECTOR_REPEAT_BYTES

UINT8_MAX = 0xFF
UINT16_MAX = 0xFFFF


def _stride(value: int) -> IntegerAttr:
    return int_attr(value, 64)


class RepeatOp(IRDLOperation):
    """A mask/repeat (level-0) vector call (abstract): `repeat` repeats of 256 bytes."""

    CALL: ClassVar[str]
    """The AscendC call, as the printer spells it."""
    STRIDES: ClassVar[dict[str, tuple[int, int]]] = {}
    """Each stride property and its documented range [low, high]."""
    repeat = operand_def(IndexType)
    irdl_options = (ParsePropInAttrDict(),)

    def stride(self, name: str) -> int:
        """The value of the stride property `name`."""
        attr = self.properties[name]
        assert isinstance(attr, IntegerAttr)
        return attr.value.data

    def lanes(self) -> int:
        """256 / sizeof(T): the lanes of one repeat (T: the dst's element type)."""
        return VECTOR_REPEAT_BYTES // element_size(local(self, "dst").element_type)

    def verify_strides(self) -> None:
        for name, (low, high) in self.STRIDES.items():
            value = self.stride(name)
            if not low <= value <= high:
                raise VerifyException(f"{self.name}: {name} {value} is outside [{low}, {high}]")

    def verify_repeat(self) -> None:
        repeat = constant_index(self.repeat)
        if repeat is not None and not 0 <= repeat <= MAX_REPEAT_TIMES:
            raise VerifyException(f"{self.name}: repeat {repeat} is outside [0, "
                                  f"{MAX_REPEAT_TIMES}] (repeatTime is a uint8_t)")


class MaskedRepeatOp(RepeatOp):
    """A level-0 call with a continuous mask (abstract): the first `mask` lanes of a repeat."""

    mask = operand_def(IndexType)

    def verify_mask(self) -> None:
        mask = constant_index(self.mask)
        if mask is not None and not 0 <= mask <= self.lanes():
            raise VerifyException(f"{self.name}: mask {mask} is outside [0, {self.lanes()}], "
                                  f"the lanes of a repeat")


# region binary arithmetic with repeat parameters


@dataclass(frozen=True)
class BinaryRepeatParams:
    """AscendC::BinaryRepeatParams (kernel_struct_binary.h): block and repeat strides in
    32-byte blocks, uint8_t each; the defaults are AscendC's (contiguous repeats)."""

    dst_blk_stride: int = 1
    src0_blk_stride: int = 1
    src1_blk_stride: int = 1
    dst_rep_stride: int = 8
    src0_rep_stride: int = 8
    src1_rep_stride: int = 8

    def properties(self) -> dict[str, IntegerAttr]:
        return {name: _stride(getattr(self, name)) for name in BINARY_STRIDES}


BINARY_STRIDES: tuple[str, ...] = ("dst_blk_stride", "src0_blk_stride", "src1_blk_stride",
                                   "dst_rep_stride", "src0_rep_stride", "src1_rep_stride")
"""BinaryRepeatParams' fields, in its constructor's order."""


class BinaryRepeatOp(MaskedRepeatOp):
    """dst = src0 <op> src1 on the masked lanes of each repeat (abstract): Add, Sub, Mul, Div,
    Max, Min(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)."""

    ELEMENTS: ClassVar[Elements]
    ACCUMULATES: ClassVar[bool] = True
    """Whether the docs let dst overlap a later repeat's src1 (src1RepStride or dstRepStride 0)."""
    STRIDES: ClassVar[dict[str, tuple[int, int]]] = {
        "dst_blk_stride": (1, UINT8_MAX), **{name: (0, UINT8_MAX) for name in BINARY_STRIDES[1:]}}
    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = operand_def(LocalTensorType)
    dst_blk_stride = prop_def(IntegerAttr[I64])
    src0_blk_stride = prop_def(IntegerAttr[I64])
    src1_blk_stride = prop_def(IntegerAttr[I64])
    dst_rep_stride = prop_def(IntegerAttr[I64])
    src0_rep_stride = prop_def(IntegerAttr[I64])
    src1_rep_stride = prop_def(IntegerAttr[I64])
    assembly_format = (
        "$dst `,` $src0 `,` $src1 `,` $mask `,` $repeat attr-dict "
        "`:` type($dst) `,` type($src0) `,` type($src1)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, src1: SSAValue, mask: SSAValue,
                 repeat: SSAValue, params: BinaryRepeatParams = BinaryRepeatParams()):
        super().__init__(operands=[dst, src0, src1, mask, repeat],
                         properties=params.properties())

    @property
    def params(self) -> BinaryRepeatParams:
        return BinaryRepeatParams(*(self.stride(name) for name in BINARY_STRIDES))

    def verify_(self) -> None:
        require_element(self, "dst", self.ELEMENTS)
        require_same_element(self, ("dst", "src0", "src1"))
        self.verify_strides()
        self.verify_mask()
        self.verify_repeat()


@irdl_op_definition
class AddRepeatOp(BinaryRepeatOp):
    """AscendC::Add(dst, src0, src1, mask, repeatTime, BinaryRepeatParams): the level-0 Add.

    Lane for lane as the level-2 Add (one rounding in T); the lanes and strides as the module
    says. dst may accumulate: src1 = dst with src1RepStride or dstRepStride 0.

    Example: `ascend.add_repeat %d, %a, %b, %mask, %rep {dst_blk_stride = 1 : i64, ...} : ...`
    """

    name = "ascend.add_repeat"
    CALL: ClassVar[str] = "Add"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Add")


@irdl_op_definition
class SubRepeatOp(BinaryRepeatOp):
    """AscendC::Sub(dst, src0, src1, mask, repeatTime, BinaryRepeatParams): the level-0 Sub.

    The row-broadcast use: x - max per row, src1 the Brcb of the row maxima with
    src1BlkStride 0 and src1RepStride 1, one repeat per row.

    Example: `ascend.sub_repeat %x, %x, %b, %mask, %rows {src1_blk_stride = 0 : i64, ...} : ...`
    """

    name = "ascend.sub_repeat"
    CALL: ClassVar[str] = "Sub"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Sub")


@irdl_op_definition
class MulRepeatOp(BinaryRepeatOp):
    """AscendC::Mul(dst, src0, src1, mask, repeatTime, BinaryRepeatParams): the level-0 Mul.

    Example: `ascend.mul_repeat %d, %a, %b, %mask, %rep {...} : ...`
    """

    name = "ascend.mul_repeat"
    CALL: ClassVar[str] = "Mul"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Mul")


@irdl_op_definition
class DivRepeatOp(BinaryRepeatOp):
    """AscendC::Div(dst, src0, src1, mask, repeatTime, BinaryRepeatParams): the level-0 Div.

    Correctly rounded in T (the level-2 Div's assumption). No accumulation into dst.

    Example: `ascend.div_repeat %d, %a, %b, %mask, %rep {...} : ...`
    """

    name = "ascend.div_repeat"
    CALL: ClassVar[str] = "Div"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Div")
    ACCUMULATES: ClassVar[bool] = False


@irdl_op_definition
class MaxRepeatOp(BinaryRepeatOp):
    """AscendC::Max(dst, src0, src1, mask, repeatTime, BinaryRepeatParams): the level-0 Max.

    IEEE 754-2019 maximum as the level-2 Max.

    Example: `ascend.max_repeat %d, %a, %b, %mask, %rep {...} : ...`
    """

    name = "ascend.max_repeat"
    CALL: ClassVar[str] = "Max"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Max")


@irdl_op_definition
class MinRepeatOp(BinaryRepeatOp):
    """AscendC::Min(dst, src0, src1, mask, repeatTime, BinaryRepeatParams): the level-0 Min.

    IEEE 754-2019 minimum as the level-2 Min.

    Example: `ascend.min_repeat %d, %a, %b, %mask, %rep {...} : ...`
    """

    name = "ascend.min_repeat"
    CALL: ClassVar[str] = "Min"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Min")


# endregion
# region WholeReduceSum / WholeReduceMax / WholeReduceMin


class WholeReduceOp(MaskedRepeatOp):
    """dst[r * dst_rep_stride] = the reduction of the first `mask` lanes of repeat r of src
    (abstract); dst_rep_stride in elements (ReduceRepeat.md 表3: one element of T for SUM and
    for MAX / MIN with ORDER_ONLY_VALUE), src strides in 32-byte blocks, each in [0, 65535]. dst
    need only be aligned to its element (表3); src to 32 bytes."""

    KIND: ClassVar[str] = ""
    ELEMENTS: ClassVar[Elements]
    STRIDES: ClassVar[dict[str, tuple[int, int]]] = {
        "dst_rep_stride": (0, UINT16_MAX), "src_blk_stride": (0, UINT16_MAX),
        "src_rep_stride": (0, UINT16_MAX)}
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    dst_rep_stride = prop_def(IntegerAttr[I64])
    src_blk_stride = prop_def(IntegerAttr[I64])
    src_rep_stride = prop_def(IntegerAttr[I64])
    assembly_format = (
        "$dst `,` $src `,` $mask `,` $repeat attr-dict `:` type($dst) `,` type($src)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, mask: SSAValue, repeat: SSAValue, *,
                 dst_rep_stride: int = 1, src_blk_stride: int = 1, src_rep_stride: int = 8):
        super().__init__(operands=[dst, src, mask, repeat], properties={
            "dst_rep_stride": _stride(dst_rep_stride), "src_blk_stride": _stride(src_blk_stride),
            "src_rep_stride": _stride(src_rep_stride)})

    def verify_(self) -> None:
        require_element(self, "src", self.ELEMENTS)
        require_same_element(self, ("src", "dst"))
        self.verify_strides()
        self.verify_mask()
        self.verify_repeat()


@irdl_op_definition
class WholeReduceSumOp(WholeReduceOp):
    """AscendC::WholeReduceSum(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride): each repeat's first `mask` lanes summed (ReduceRepeat<SUM> is its name now).

    Per repeat the neighbour tree of hswc.reduce_semantics (ReduceDataBlock.md, 关键特性说明),
    each step rounded once in T; half overflows to inf. dst_rep_stride 0 leaves the last
    repeat's sum (repeats run in order).

    Example: `ascend.whole_reduce_sum %d, %x, %mask, %rows {dst_rep_stride = 1 : i64, ...} : ...`
    """

    name = "ascend.whole_reduce_sum"
    CALL: ClassVar[str] = "WholeReduceSum"
    KIND: ClassVar[str] = "sum"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("WholeReduceSum")


@irdl_op_definition
class WholeReduceMaxOp(WholeReduceOp):
    """AscendC::WholeReduceMax(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride, ReduceOrder::ORDER_ONLY_VALUE): each repeat's maximum, the value only.

    IEEE 754-2019 maximum as Max (a NaN wins).

    Example: `ascend.whole_reduce_max %d, %x, %mask, %rows {...} : ...`
    """

    name = "ascend.whole_reduce_max"
    CALL: ClassVar[str] = "WholeReduceMax"
    KIND: ClassVar[str] = "max"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("WholeReduceMax")


@irdl_op_definition
class WholeReduceMinOp(WholeReduceOp):
    """AscendC::WholeReduceMin(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride, ReduceOrder::ORDER_ONLY_VALUE): each repeat's minimum, the value only.

    IEEE 754-2019 minimum as Min.

    Example: `ascend.whole_reduce_min %d, %x, %mask, %rows {...} : ...`
    """

    name = "ascend.whole_reduce_min"
    CALL: ClassVar[str] = "WholeReduceMin"
    KIND: ClassVar[str] = "min"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("WholeReduceMin")


# endregion
# region Brcb


@irdl_op_definition
class BrcbOp(RepeatOp):
    """AscendC::Brcb(dst, src, repeatTime, BrcbRepeatParams(dstBlkStride, dstRepStride)).

    Element 8 * r + j of src fills the 32-byte block j of repeat r of dst, at byte
    (r * dstRepStride + j * dstBlkStride) * 32 (数据填充/Brcb.md, its pseudo-code); src is read
    contiguously, 8 elements a repeat. Bit patterns are copied (any element type the SoC's Brcb
    takes). dstBlkStride in [1, 65535] (0 is undefined behaviour), dstRepStride in [0, 65535];
    src and dst may not overlap ("不支持源操作数与目的操作数使用同一块内存地址").

    Example: `ascend.brcb %b, %rowmax, %rep {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64} : ...`
    """

    name = "ascend.brcb"
    CALL: ClassVar[str] = "Brcb"
    ELEMENTS: ClassVar[Elements] = soc_elements("Brcb")
    STRIDES: ClassVar[dict[str, tuple[int, int]]] = {
        "dst_blk_stride": (1, UINT16_MAX), "dst_rep_stride": (0, UINT16_MAX)}
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    dst_blk_stride = prop_def(IntegerAttr[I64])
    dst_rep_stride = prop_def(IntegerAttr[I64])
    assembly_format = "$dst `,` $src `,` $repeat attr-dict `:` type($dst) `,` type($src)"

    def __init__(self, dst: SSAValue, src: SSAValue, repeat: SSAValue, *,
                 dst_blk_stride: int = 1, dst_rep_stride: int = 8):
        super().__init__(operands=[dst, src, repeat], properties={
            "dst_blk_stride": _stride(dst_blk_stride), "dst_rep_stride": _stride(dst_rep_stride)})

    def verify_(self) -> None:
        require_element(self, "dst", self.ELEMENTS)
        require_same_element(self, ("dst", "src"))
        self.verify_strides()
        self.verify_repeat()


# endregion
# region Duplicate's bitwise-mask form over repeats


@irdl_op_definition
class DuplicateLanesRepeatOp(RepeatOp):
    """AscendC::Duplicate(dst, scalar, mask, repeatTime, 1, dstRepStride) with the bitwise
    mask `uint64_t mask[2] = {bits [first, first + count), 0}` (asc-devkit
    docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md:72-77, the level-0
    prototype; .../SIMD计算说明/掩码.md:113-132, the mask bit by bit): in each of `repeat`
    repeats, `dst_rep_stride` 32-byte blocks apart, exactly lanes [first, first + count) take
    the scalar (a constant), every other element keeps its value. first and count are run-time
    index operands with first + count <= 64 (mask[0]'s lanes; the interpreter checks their
    values); dstRepStride in [0, 255]. The repeat form of ascend.duplicate_lanes: a row's tail
    set in every row of a chunk at once (hswc.vectorizer.row_emit's pad_tail).

    Example: `ascend.duplicate_lanes_repeat %t, %first, %n, %rows {scalar = 0.0 : f32, dst_rep_stride = 8 : i64} : !ascend.local_tensor<f32, vecin>`
    """

    name = "ascend.duplicate_lanes_repeat"
    CALL: ClassVar[str] = "Duplicate"
    STRIDES: ClassVar[dict[str, tuple[int, int]]] = {"dst_rep_stride": (0, UINT8_MAX)}
    dst = operand_def(LocalTensorType)
    first = operand_def(IndexType)
    count = operand_def(IndexType)
    scalar = prop_def(FloatAttr)
    dst_rep_stride = prop_def(IntegerAttr[I64])
    assembly_format = ("$dst `,` $first `,` $count `,` $repeat attr-dict `:` type($dst)")

    def __init__(self, dst: SSAValue, first: SSAValue, count: SSAValue, repeat: SSAValue,
                 scalar: FloatAttr, dst_rep_stride: int):
        super().__init__(operands=[dst, first, count, repeat], properties={
            "scalar": scalar, "dst_rep_stride": _stride(dst_rep_stride)})

    def verify_(self) -> None:
        verify_duplicate_mask(self, self.first, self.count)
        self.verify_strides()
        self.verify_repeat()


# endregion

BINARY_REPEAT_OPS: tuple[type[BinaryRepeatOp], ...] = (
    AddRepeatOp, SubRepeatOp, MulRepeatOp, DivRepeatOp, MaxRepeatOp, MinRepeatOp)
WHOLE_REDUCE_OPS: tuple[type[WholeReduceOp], ...] = (
    WholeReduceSumOp, WholeReduceMaxOp, WholeReduceMinOp)
REPEAT_OPS: tuple[type[RepeatOp], ...] = (*BINARY_REPEAT_OPS, *WHOLE_REDUCE_OPS, BrcbOp,
                                          DuplicateLanesRepeatOp)
"""Every mask/repeat call of the dialect."""
