"""Diagnostics with source locations: every error names the op and where it was written.

xDSL keeps no source positions on parsed ops; `LocatingParser` records one on each op as a
`loc("file":line:col)`, passes copy it onto the ops they create, and `OpError` prints it as
`file:line:col: error: message`, the way mlir-opt does.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span

_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")


class LocatingParser(Parser):
    """The MLIR parser that also stamps each op with where its text starts."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._line_offset = line_offset

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = super().parse_operation()
        except ParseError as error:
            raise self._at_op_name(error, span) from None
        except VerifyException as error:
            # A type or attribute whose own verifier fails while the op is being read.
            raise ParseError(span, str(error)) from None
        if isinstance(op.location, UnknownLoc):
            where = span.get_location()
            op.location = FileLineColLoc(
                StringAttr(where.file), IntAttr(where.line + self._line_offset), IntAttr(where.col)
            )
        return op


    @staticmethod
    def _at_op_name(error: ParseError, op_start: Span[str]) -> ParseError:
        """An unknown op is reported at its name, not at the token after it."""
        match = _UNREGISTERED.search(error.msg)
        text = op_start.input.content
        if match is None or not isinstance(text, str):
            return error
        at = text.find(match.group(1), op_start.start)
        if at < 0 or at > error.span.start:
            return error
        return ParseError(Span(at, at + len(match.group(1)), op_start.input), error.msg)


def format_parse_error(error: ParseError, line_offset: int = 0) -> str:
    """`file:line:col: error: message`, then the source line with carets under the span."""
    span = dataclasses.replace(error.span, line_offset=line_offset)
    context = span.print_with_context().rstrip("\n").splitlines()[1:]
    return "\n".join([f"{span.get_location()}: error: {error.msg}", *context])


def location_of(op: Operation) -> str | None:
    """`file:line:col` of the op, or of its nearest ancestor that has one."""
    current: Operation | None = op
    while current is not None:
        loc = current.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        current = current.parent_op()
    return None


class OpError(DiagnosticException):
    """An error about one op: verifier failures, ops a pass cannot lower, hardware rules."""

    def __init__(self, op: Operation, message: str, name: str | None = None):
        self.op = op
        self.message = message
        self.name = name or op.name
        """The op as the message names it (a generic may be named after the op it came from)."""
        super().__init__(message)

    def __str__(self) -> str:
        where = location_of(self.op)
        prefix = f"{where}: " if where else ""
        return f"{prefix}error: '{self.name}' {self.message}"


def verify_located(module: ModuleOp) -> None:
    """module.verify(), but the first failing op is reported with its location."""
    try:
        module.verify()
    except VerifyException as error:
        for op in module.walk():
            try:
                op.verify(verify_nested_ops=False)
            except VerifyException as inner:
                raise OpError(op, _strip_op_name(op, str(inner))) from None
        raise OpError(module, str(error)) from None


def _strip_op_name(op: Operation, message: str) -> str:
    """One line, without the op name that verifier messages start with (OpError prints it)."""
    one_line = " ".join(line.strip() for line in message.splitlines() if line.strip())
    return one_line.removeprefix(f"{op.name}: ")


def copy_location(source: Operation, ops: Iterable[Operation]) -> None:
    """Give ops built to replace `source` its location, so later errors still point at it."""
    for op in ops:
        for nested in op.walk():
            if isinstance(nested.location, UnknownLoc):
                nested.location = source.location


def ops_between(before: Operation | None, op: Operation) -> list[Operation]:
    """The ops of op's block after `before` (None: from the block's start) and before `op`."""
    block = op.parent_block()
    assert block is not None
    cursor = block.first_op if before is None else before.next_op
    found: list[Operation] = []
    while cursor is not None and cursor is not op:
        found.append(cursor)
        cursor = cursor.next_op
    return found
