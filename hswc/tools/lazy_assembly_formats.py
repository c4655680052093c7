"""Op assembly formats parsed when an op of their kind is first parsed or printed.

xDSL parses an op's `assembly_format` into a FormatProgram when the op's class is defined, so
loading a dialect parses the format of every op in it: arith's 47, math's 30, hswc's ascend
ops, and so on, about 150 in `hswc-opt --lower-to-ascend -t ascendc`, of which a run uses a
dozen. That was the largest single cost of importing xDSL's dialects.

`install()` makes FormatProgram.from_str, which op definition calls, return a LazyFormatProgram:
it keeps the text and the op definition and parses them, once, the first time the op's parse or
print (or anything else of the program) is asked for. The program is the one xDSL would have
built at definition; a format that does not parse raises PyRDLOpDefinitionError then, as
definition would have. (`test/test_startup.py` holds every format of every dialect hswc
registers to the eagerly parsed program.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

if TYPE_CHECKING:
    from xdsl.irdl import IRDLOperation, OpDef
    from xdsl.parser import Parser
    from xdsl.printer import Printer

parse_eagerly = FormatProgram.from_str
"""xDSL's own from_str."""


class LazyFormatProgram:
    """FormatProgram.parse/print of one op's assembly format, parsed on first use."""

    __slots__ = ("_op_def", "_program", "_text")

    def __init__(self, text: str, op_def: OpDef):
        self._text = text
        self._op_def = op_def
        self._program: FormatProgram | None = None

    def program(self) -> FormatProgram:
        if self._program is None:
            try:
                self._program = parse_eagerly(self._text, self._op_def)
            except ParseError as error:
                raise PyRDLOpDefinitionError(
                    f"Error during the parsing of the assembly format of {self._op_def.name}: ",
                    error.args) from error
        return self._program

    def parse(self, parser: Parser, op_type: type[IRDLOperation]) -> IRDLOperation:
        return self.program().parse(parser, op_type)

    def print(self, printer: Printer, op: IRDLOperation) -> None:
        self.program().print(printer, op)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.program(), name)


def _lazily(text: str, op_def: OpDef) -> FormatProgram:
    return LazyFormatProgram(text, op_def)  # type: ignore[return-value]  # parse/print alike


def install() -> None:
    """Route op definition's FormatProgram.from_str to LazyFormatProgram (idempotent)."""
    FormatProgram.from_str = staticmethod(_lazily)  # type: ignore[method-assign]
