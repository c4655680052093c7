"""Diagnostics with source locations: every error names the op and where it was written.

xDSL keeps no source positions on parsed ops; `LocatingParser` records one on each op as a
`loc("file":line:col)`, passes copy it onto the ops they create, and `OpError` prints it as
`file:line:col: error: message`, the way mlir-opt does.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind

from hswc.mlir_parser import Parser  # xDSL's, reading hexadecimal dense floats as MLIR does
from hswc.source_text import MAX_NESTING, LineIndex, too_deep

_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")


class LocatingParser(Parser):
    """The MLIR parser that also stamps each op with where its text starts.

    It also reads an input of only blanks and comments as an empty module (as mlir-opt does),
    refuses nesting deeper than `source_text.MAX_NESTING` before it starts (and, should some
    construct still recurse too deeply, at the token it reached), and says what it expected
    where xDSL's message only gives the context.
    """

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._line_offset = line_offset
        self._lines = LineIndex(text)
        self._starts: dict[Operation, int] = {}
        """Where each op's text starts (for errors found after the op was read)."""

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        deep = too_deep(self.lexer.input.content)
        if deep is not None:
            raise ParseError(Span(deep, deep + 1, self.lexer.input), _TOO_DEEP)
        try:
            module = (ModuleOp([]) if self._current_token.kind == MLIRTokenKind.EOF
                      else super().parse_module(allow_implicit_module))
        except RecursionError:
            raise ParseError(self._current_token.span, _TOO_DEEP) from None
        except ParseError as error:
            raise _exponent_without_dot(self._at_first_undefined_use(error)) from None
        if isinstance(module.location, UnknownLoc):  # the implicit module: the file's start
            module.location = self._location(0)
        return module

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = super().parse_operation()
        except ParseError as error:
            raise self._at_op_name(error, span) from None
        except VerifyException as error:
            # A type or attribute whose own verifier fails while the op is being read.
            raise ParseError(span, str(error)) from None
        except (AssertionError, TypeError, ValueError, KeyError, IndexError,
                AttributeError) as error:
            # xDSL failed while building the op from what it read (an assertion of a named
            # op's body builder): said at the op as written, not as an internal error.
            raise self._not_built(error, span) from None
        if isinstance(op.location, UnknownLoc):
            op.location = self._location(span.start)
        self._starts[op] = span.start
        return op

    def _not_built(self, error: Exception, span: Span[str]) -> ParseError:
        """The failure of xDSL's code building an op, at the op's name."""
        text = span.input.content
        written = _OP_NAME.match(text, span.start) if isinstance(text, str) else None
        name = written.group(1) if written is not None else "the operation"
        at = text.find(name, span.start) if isinstance(text, str) and written else -1
        where = Span(at, at + len(name), span.input) if at >= 0 else span
        detail = str(error).strip().splitlines()[0] if str(error).strip() else "an assertion"
        return _AtOpName(where, f"'{name}' cannot be built as written: xDSL's construction of it "
                         f"failed ({type(error).__name__}: {detail}); check its operand and "
                         "result types")

    def _at_first_undefined_use(self, error: ParseError) -> ParseError:
        """xDSL reports values never defined at the end of the input: point at the first op
        that uses one instead."""
        if not self.forward_ssa_references or not error.msg.startswith("values used but"):
            return error
        name, values = next(iter(self.forward_ssa_references.items()))
        users = [use.operation for value in values.values() for use in value.uses]
        starts = [self._starts[op] for op in users if op in self._starts]
        if not starts:
            return error
        at = min(starts)
        return ParseError(Span(at, at + 1, self.lexer.input),
                          f"%{name} is used here but not defined where this op can see it (a "
                          "value defined in a region is visible only inside that region)")

    def _location(self, offset: int) -> FileLineColLoc:
        line, column = self._lines.location(offset)
        return FileLineColLoc(StringAttr(self.lexer.input.name),
                              IntAttr(line + self._line_offset), IntAttr(column))

    def _parse_token(self, expected_kind: MLIRTokenKind, error_msg: str) -> MLIRToken:
        if error_msg.startswith(" "):  # only a context (" in block definition"): say more
            found = self._current_token
            what = ("the end of the input" if found.kind == MLIRTokenKind.EOF
                    else f"'{found.text}'")
            expected = _EXPECTED.get(expected_kind, f"'{expected_kind.value}'")
            error_msg = f"expected {expected}, found {what}"
        return super()._parse_token(expected_kind, error_msg)

    def _at_op_name(self, error: ParseError, op_start: Span[str]) -> ParseError:
        """An unknown op is reported at its name, not at the token after it, with the ops of
        its dialect it may have meant. Read with --allow-unregistered-dialect, an unknown op in
        the custom form fails on its first operand (xDSL reads it as `builtin.unregistered`,
        which has no custom form): that is reported at the name too."""
        text = op_start.input.content
        if not isinstance(text, str) or isinstance(error, _AtOpName):
            return error
        match = _UNREGISTERED.search(error.msg)
        if match is not None:
            name = match.group(1)
            why = error.msg
        elif _CUSTOM_UNREGISTERED in error.msg:
            written = _OP_NAME.match(text, op_start.start)
            if written is None:
                return error
            name = written.group(1)
            why = (f"Operation {name} is not registered; an op of a dialect hswc does not know "
                   "(--allow-unregistered-dialect) must be written in the generic form "
                   f'"{name}"(...) : (...) -> ...')
        else:
            return error
        at = text.find(name, op_start.start)
        if at < 0 or at > error.span.start:
            return error
        return _AtOpName(Span(at, at + len(name), op_start.input), why + self._near(name))

    def _near(self, name: str) -> str:
        """`; did you mean ...?` naming the registered ops of name's dialect closest to it."""
        dialect = name.partition(".")[0]
        try:
            ops = [op.name for op in self.ctx.get_dialect(dialect).operations]
        except Exception:  # no such dialect (or it does not load): nothing to suggest
            return ""
        close = difflib.get_close_matches(name, ops, n=3, cutoff=0.75)
        listed = " or ".join(close) if len(close) < 3 else f"{close[0]}, {close[1]} or {close[2]}"
        return f"; did you mean {listed}?" if close else \
            f" (the {dialect} dialect has no op of that name)"


class _AtOpName(ParseError):
    """An unknown op's error, already reported at its name (an enclosing op's parse passes it
    on as it is)."""


_CUSTOM_UNREGISTERED = "builtin.unregistered does not have a custom format"
_OP_NAME = re.compile(r"(?:%[^=]*=\s*)?([A-Za-z_][\w$.]*)")
"""An op's name where its text starts: after its results, if any."""
_EXPONENT = re.compile(r"[eE][+-]?\d+")


def _exponent_without_dot(error: ParseError) -> ParseError:
    """MLIR reads `1e39` as the integer 1 followed by the name `e39` (a float literal needs a
    '.', as in 1.0e39): say so where xDSL only says what it expected after the 1."""
    source = error.span.input
    text = source.content
    if not isinstance(text, str):
        return error
    at = error.span.start
    exponent = _EXPONENT.match(text, at)
    digits = at
    while digits > 0 and text[digits - 1].isdigit():
        digits -= 1
    if exponent is None or digits == at or (digits > 0 and text[digits - 1] in "._"):
        return error
    number = text[digits: exponent.end()]
    mantissa, _, power = number.partition(text[at])
    return ParseError(Span(digits, exponent.end(), source),  # pyright: ignore[reportArgumentType]
                      f"'{number}' is not a number in MLIR: a float literal needs a '.' before "
                      f"its exponent (write {mantissa}.0{text[at]}{power})")


_TOO_DEEP = (f"nested too deeply: more than {MAX_NESTING} brackets ( [ {{ < are open here "
             "(hswc's limit, far above what real modules need)")

_EXPECTED = {
    # xDSL asks for a block label where a region's block could go on, with only a context.
    MLIRTokenKind.CARET_IDENT: "an operation, a block label (^name:) or the '}' ending the "
                               "region",
}
"""What a token kind stands for, where xDSL's message gives only the context."""


def format_parse_error(error: ParseError, line_offset: int = 0) -> str:
    """`file:line:col: error: message`, then the source line with carets under the span.
    Characters that do not print (a byte order mark, NUL) are named as U+XXXX in the message
    and shown as '?' in the source line."""
    span = dataclasses.replace(error.span, line_offset=line_offset)
    context = span.print_with_context().rstrip("\n").splitlines()[1:]
    shown = _window([_printable(line, lambda _: "?") for line in context])
    message = _printable(error.msg, _code_point)
    return "\n".join([f"{span.get_location()}: error: {message}", *shown])


_WIDE = 160
"""Source lines longer than this are shown as the part around the carets."""


def _window(context: list[str]) -> list[str]:
    """Each (source line, caret line) pair cut to the part around its first caret."""
    shown: list[str] = []
    for source, carets in zip(context[::2], context[1::2], strict=False):
        start = max(0, carets.find("^") - _WIDE // 2)
        if len(source) > _WIDE:
            cut = "..." if start else ""
            more = "..." if start + _WIDE < len(source) else ""
            source = cut + source[start: start + _WIDE] + more
            carets = " " * len(cut) + carets[start: start + _WIDE]
        shown += [source, carets]
    return shown + context[len(shown):]


def _printable(text: str, show: Callable[[str], str]) -> str:
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\t" else show(c) for c in text)


def _code_point(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


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


def check_compilable(module: ModuleOp) -> None:
    """What every tool that lowers, runs or prints C++ refuses the same way, at the op: a
    module nested in the input's (hswc works on the functions at the input's top level), and
    an op of a dialect hswc does not know (which only --allow-unregistered-dialect reads)."""
    from xdsl.dialects.builtin import UnregisteredOp

    for op in module.walk():
        if isinstance(op, ModuleOp) and op is not module:
            raise OpError(op, "is nested in the input's module: hswc lowers, runs and prints the "
                          "functions at the top level of its input only (move them out of the "
                          "inner module)")
        if isinstance(op, UnregisteredOp):
            raise OpError(op, "is an op of a dialect hswc does not know (read only because of "
                          "--allow-unregistered-dialect): hswc cannot lower, run or print it",
                          op.op_name.data)


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


LISTED_SYMBOLS = 8
"""How many names a message lists before it says how many more there are."""


def symbol_list(names: Sequence[str]) -> str:
    """`@a, @b, @c`; for a long list its first LISTED_SYMBOLS names and how many more."""
    if not names:
        return "none"
    shown = ", ".join(f"@{n}" for n in names[:LISTED_SYMBOLS])
    rest = len(names) - LISTED_SYMBOLS
    return shown if rest <= 0 else f"{shown} and {rest} more ({len(names)} in all)"
