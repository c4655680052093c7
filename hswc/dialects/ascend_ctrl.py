"""SetCtrlSpr<startBit, endBit>(value): write bits of the core's CTRL register.

asc-devkit docs/zh/api/SIMD-API/基础API/特殊寄存器访问/SetCtrlSpr(ISASI).md: it sets the given
bits of the control register (Atlas A2/A3 and Ascend 950; a value wider than the bits does not
compile). hswc emits it for the saturation mode of Ascend 950's Casts to 8-bit floats
(hswc.float8_casts); the interpreter keeps the register per launch and its Cast reads it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.utils.exceptions import VerifyException

CTRL_BITS = 64
"""The CTRL register's width (bits 0 to 63)."""


@irdl_op_definition
class SetCtrlSprOp(IRDLOperation):
    """AscendC::SetCtrlSpr<start, end>(value): CTRL[end:start] = value.

    Example: `ascend.set_ctrl_spr <48, 48> (1)`
    """

    name = "ascend.set_ctrl_spr"
    start = prop_def(IntegerAttr)
    end = prop_def(IntegerAttr)
    value = prop_def(IntegerAttr)
    assembly_format = "`<` $start `,` $end `>` `(` $value `)` attr-dict"

    def __init__(self, start: int, end: int, value: int):
        super().__init__(properties={"start": IntegerAttr(start, i64),
                                     "end": IntegerAttr(end, i64),
                                     "value": IntegerAttr(value, i64)})

    @property
    def bits(self) -> tuple[int, int, int]:
        """(start, end, value) as Python ints."""
        return self.start.value.data, self.end.value.data, self.value.value.data

    def verify_(self) -> None:
        start, end, value = self.bits
        if not 0 <= start <= end < CTRL_BITS:
            raise VerifyException(f"{self.name}: bits {start} to {end} are not a range of the "
                                  f"{CTRL_BITS}-bit CTRL register")
        if not 0 <= value < 1 << (end - start + 1):
            raise VerifyException(f"{self.name}: {value} does not fit bits {start} to {end}")
