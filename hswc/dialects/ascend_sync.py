"""SetFlag / WaitFlag: ordering one pipe of the vector core after another.

`SetFlag<HardEvent::A_B>(id)` on pipe A signals once A's earlier instructions are done;
`WaitFlag<HardEvent::A_B>(id)` holds pipe B until that signal (asc-devkit docs 同步控制/SetFlag
WaitFlag(ISASI).md). A kernel needs SetFlag / WaitFlag<V_S> before the scalar unit reads (with
LocalTensor::GetValue) what a vector instruction wrote: the scalar unit issues the vector
instruction and goes on without waiting for it. Each HardEvent has 8 event ids (QUE_MAX_EVENT);
an id whose flag is set must be waited for before it is set again. The interpreter checks
both, and refuses a GetValue of UB bytes a vector instruction (or a GM -> UB copy) wrote
without a V_S (MTE2_S) flag or a PipeBarrier<PIPE_ALL> between them.

    ascend.set_flag v_s, 0
    ascend.wait_flag v_s, 0
"""

from __future__ import annotations

from typing import Final

from xdsl.dialects.builtin import I32, IntegerAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import HardEvent, HardEventAttr

EVENT_IDS: Final = 8
"""Event ids per HardEvent: QUE_MAX_EVENT (asc-devkit impl/basic_api/kernel_tpipe_impl.h)."""


class FlagOp(IRDLOperation):
    """SetFlag or WaitFlag (abstract): `event` and the event id, 0..7."""

    event = prop_def(HardEventAttr)
    event_id = prop_def(IntegerAttr[I32])

    def __init__(self, event: HardEvent, event_id: int = 0):
        super().__init__(properties={"event": HardEventAttr(event),
                                     "event_id": IntegerAttr(event_id, 32)})

    @property
    def id(self) -> int:
        return self.event_id.value.data

    def verify_(self) -> None:
        if not 0 <= self.id < EVENT_IDS:
            raise VerifyException(f"{self.name}: event id {self.id} is outside 0..{EVENT_IDS - 1} "
                                  "(QUE_MAX_EVENT ids per HardEvent)")

    @classmethod
    def parse(cls, parser: Parser) -> FlagOp:
        event = HardEventAttr.parse_parameter(parser)
        parser.parse_punctuation(",")
        event_id = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        op = cls(event, event_id)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.event.data.value}, {self.id}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class SetFlagOp(FlagOp):
    """AscendC::SetFlag<HardEvent::A_B>(id): pipe A signals once its earlier work is done.

    Example: `ascend.set_flag v_s, 0`
    """

    name = "ascend.set_flag"


@irdl_op_definition
class WaitFlagOp(FlagOp):
    """AscendC::WaitFlag<HardEvent::A_B>(id): pipe B waits for that signal.

    Example: `ascend.wait_flag v_s, 0`
    """

    name = "ascend.wait_flag"


SYNC_OPS: tuple[type[FlagOp], ...] = (SetFlagOp, WaitFlagOp)
