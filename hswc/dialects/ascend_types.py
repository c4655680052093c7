"""Types and enums of the `ascend` dialect: AscendC's objects and the API's mode enums.

TPipe, TQue<position, depth>, TBuf<position>, GlobalTensor<T> and LocalTensor<T> (with the
TPosition of the buffer it lives in; compare masks are LocalTensor<uint8_t>, combined bitwise
as LocalTensor<uint16_t>), and CMPMODE, SELMODE, RoundMode, TPosition, pipe_t and HardEvent as
enum attributes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntAttr,
    IntegerType,
    Signedness,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from hswc.tiling import ELEMENT_BYTES

# region enums


class TPosition(StrEnum):
    """AscendC::TPosition: where a buffer lives."""

    GM = "gm"
    VECIN = "vecin"
    VECOUT = "vecout"
    VECCALC = "veccalc"


class CmpMode(StrEnum):
    """AscendC::CMPMODE: src0 <op> src1."""

    LT = "lt"
    GT = "gt"
    GE = "ge"
    EQ = "eq"
    NE = "ne"
    LE = "le"


class SelMode(StrEnum):
    """AscendC::SELMODE: how Select reads its mask and second source."""

    VSEL_CMPMASK_SPR = "vsel_cmpmask_spr"
    VSEL_TENSOR_SCALAR_MODE = "vsel_tensor_scalar_mode"
    VSEL_TENSOR_TENSOR_MODE = "vsel_tensor_tensor_mode"


class RoundMode(StrEnum):
    """AscendC::RoundMode of Cast."""

    CAST_NONE = "cast_none"
    CAST_RINT = "cast_rint"
    CAST_FLOOR = "cast_floor"
    CAST_CEIL = "cast_ceil"
    CAST_ROUND = "cast_round"
    CAST_TRUNC = "cast_trunc"
    CAST_ODD = "cast_odd"


class Pipe(StrEnum):
    """AscendC pipe_t: the pipeline a PipeBarrier waits on."""

    PIPE_S = "pipe_s"
    PIPE_V = "pipe_v"
    PIPE_MTE2 = "pipe_mte2"
    PIPE_MTE3 = "pipe_mte3"
    PIPE_ALL = "pipe_all"


class HardEvent(StrEnum):
    """AscendC::HardEvent: the pipe pair a SetFlag / WaitFlag orders, producer first (the
    vector core's pipes: MTE2 copies in, V computes, MTE3 copies out, S is the scalar unit)."""

    MTE2_V = "mte2_v"
    V_MTE2 = "v_mte2"
    MTE3_V = "mte3_v"
    V_MTE3 = "v_mte3"
    MTE2_MTE3 = "mte2_mte3"
    MTE3_MTE2 = "mte3_mte2"
    V_V = "v_v"
    S_V = "s_v"
    V_S = "v_s"
    S_MTE2 = "s_mte2"
    MTE2_S = "mte2_s"
    S_MTE3 = "s_mte3"
    MTE3_S = "mte3_s"

    @property
    def pipes(self) -> tuple[str, str]:
        """(the signalling pipe, the waiting pipe): V_S -> ("V", "S")."""
        first, second = self.value.upper().split("_")
        return first, second


@irdl_attr_definition
class TPositionAttr(EnumAttribute[TPosition], SpacedOpaqueSyntaxAttribute):
    name = "ascend.tposition"


@irdl_attr_definition
class CmpModeAttr(EnumAttribute[CmpMode], SpacedOpaqueSyntaxAttribute):
    name = "ascend.cmpmode"


@irdl_attr_definition
class SelModeAttr(EnumAttribute[SelMode], SpacedOpaqueSyntaxAttribute):
    name = "ascend.selmode"


@irdl_attr_definition
class RoundModeAttr(EnumAttribute[RoundMode], SpacedOpaqueSyntaxAttribute):
    name = "ascend.round_mode"


@irdl_attr_definition
class PipeAttr(EnumAttribute[Pipe], SpacedOpaqueSyntaxAttribute):
    name = "ascend.pipe"


@irdl_attr_definition
class HardEventAttr(EnumAttribute[HardEvent], SpacedOpaqueSyntaxAttribute):
    name = "ascend.hard_event"


UB_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)
QUEUE_POSITIONS = (TPosition.VECIN, TPosition.VECOUT)

# endregion
# region types


def _parse_position(parser: AttrParser, allowed: Sequence[TPosition]) -> TPositionAttr:
    word = parser.parse_keyword_in([p.value for p in allowed], " as a TPosition")
    return TPositionAttr(TPosition(word))


@irdl_attr_definition
class TPipeType(ParametrizedAttribute, TypeAttribute):
    """AscendC::TPipe: owns the UB and hands out buffers with InitBuffer."""

    name = "ascend.tpipe"


@irdl_attr_definition
class TQueType(ParametrizedAttribute, TypeAttribute):
    """AscendC::TQue<TPosition, depth>: a queue of UB buffers between pipeline stages.

    `!ascend.tque<vecin, 1>`
    """

    name = "ascend.tque"
    position: TPositionAttr
    depth: IntAttr

    def __init__(self, position: TPosition, depth: int):
        super().__init__(TPositionAttr(position), IntAttr(depth))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[TPositionAttr, IntAttr]:
        with parser.in_angle_brackets():
            position = _parse_position(parser, QUEUE_POSITIONS)
            parser.parse_punctuation(",")
            depth = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return position, IntAttr(depth)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.position.data.value}, {self.depth.data}>")

    def verify(self) -> None:
        if self.depth.data < 1:
            raise VerifyException(f"TQue depth must be at least 1, got {self.depth.data}")


@irdl_attr_definition
class TBufType(ParametrizedAttribute, TypeAttribute):
    """AscendC::TBuf<TPosition>: a UB buffer outside any queue (scratch, constants, masks).

    `!ascend.tbuf<veccalc>`
    """

    name = "ascend.tbuf"
    position: TPositionAttr

    def __init__(self, position: TPosition = TPosition.VECCALC):
        super().__init__(TPositionAttr(position))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[TPositionAttr]:
        with parser.in_angle_brackets():
            position = _parse_position(parser, UB_POSITIONS)
        return (position,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.position.data.value}>")


@irdl_attr_definition
class GlobalTensorType(ParametrizedAttribute, TypeAttribute):
    """AscendC::GlobalTensor<T>: a typed window on global memory.

    `!ascend.global_tensor<f16>`
    """

    name = "ascend.global_tensor"
    element_type: Attribute

    def __init__(self, element_type: Attribute):
        super().__init__(element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
        return (element_type,)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)


@irdl_attr_definition
class LocalTensorType(ParametrizedAttribute, TypeAttribute):
    """AscendC::LocalTensor<T> in a buffer of the given TPosition; masks are LocalTensor<ui8>.

    `!ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.local_tensor"
    element_type: Attribute
    position: TPositionAttr

    def __init__(self, element_type: Attribute, position: TPosition):
        super().__init__(element_type, TPositionAttr(position))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, TPositionAttr]:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
            parser.parse_punctuation(",")
            position = _parse_position(parser, UB_POSITIONS)
        return element_type, position

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            printer.print_string(f", {self.position.data.value}")

    @property
    def pos(self) -> TPosition:
        return self.position.data


MASK_ELEMENT_TYPE = IntegerType(8, Signedness.UNSIGNED)
"""Compare writes, and Select reads, masks as LocalTensor<uint8_t>."""

HALF_FLOAT = (Float16Type, Float32Type)

BITWISE_ELEMENT_TYPES = (IntegerType(16, Signedness.UNSIGNED), IntegerType(16))
"""And, Or and Not work on LocalTensor<uint16_t> (ui16) and LocalTensor<int16_t> (i16)."""


def element_type_name(t: Attribute) -> str:
    """f16, bf16 or f32: the spelling used in function names, tables and messages."""
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    return str(t)


def element_size(t: Attribute) -> int:
    """sizeof(T) in bytes for the element types the kernel uses."""
    if isinstance(t, IntegerType):
        return max(1, t.width.data // 8)
    try:
        return ELEMENT_BYTES[element_type_name(t)]
    except KeyError:
        raise ValueError(f"no element size for {t}") from None
