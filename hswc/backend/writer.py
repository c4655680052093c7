"""Indented C++ text: lines, `{ }` scopes, and calls wrapped at the column limit."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

INDENT = "    "
COLUMN_LIMIT = 100


class CppWriter:
    """Collects lines at the current depth; `descend` opens and closes one `{ }` scope."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str = "") -> None:
        self.lines.append(INDENT * self.depth + text if text else "")

    def label(self, text: str) -> None:
        """An access specifier (`public:`), one level out from the members it introduces."""
        self.lines.append(INDENT * (self.depth - 1) + text)

    def blank(self) -> None:
        """One empty line, never two in a row nor right after an opening brace."""
        if self.lines and self.lines[-1] and not self.lines[-1].endswith("{"):
            self.lines.append("")

    @contextmanager
    def descend(self, header: str | Sequence[str], brace_on_own_line: bool = False,
                close: str = "}") -> Iterator[None]:
        """`header {` ... `}`; a header given as rows (see `wrap`) spans several lines, and
        functions put `{` on a line of its own, as CANN code does."""
        rows = [header] if isinstance(header, str) else list(header)
        if brace_on_own_line:
            self._rows(rows)
            self.line("{")
        else:
            self._rows([*rows[:-1], f"{rows[-1]} {{"])
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            self.line(close)

    def wrap(self, callee: str, args: Sequence[str], end: str = "") -> list[str]:
        """`callee(args)end` as rows that fit the column limit at the current depth: the
        arguments fill continuation rows, which `_rows` indents one level more."""
        one_line = f"{callee}({', '.join(args)}){end}"
        if len(INDENT * self.depth + one_line) <= COLUMN_LIMIT or not args:
            return [one_line]
        rows = [f"{callee}("]
        for index, arg in enumerate(args):
            piece = arg + ("," if index + 1 < len(args) else f"){end}")
            first = len(rows) == 1 and rows[0].endswith("(")
            candidate = rows[-1] + piece if first else f"{rows[-1]} {piece}"
            width = len(INDENT * (self.depth + (len(rows) > 1)) + candidate)
            if width > COLUMN_LIMIT and not first:
                rows.append(piece)
            else:
                rows[-1] = candidate
        return rows

    def call(self, callee: str, args: Sequence[str], end: str = ";") -> None:
        """`callee(args);`, wrapped when too long."""
        self._rows(self.wrap(callee, args, end))

    def _rows(self, rows: Sequence[str]) -> None:
        self.line(rows[0])
        self.depth += 1
        for row in rows[1:]:
            self.line(row)
        self.depth -= 1

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def wrapped(callee: str, args: Sequence[str], end: str = "") -> str:
    """`callee(args)end` at depth 0, wrapped as CppWriter.call wraps it (no trailing newline)."""
    writer = CppWriter()
    writer.call(callee, args, end)
    return "\n".join(writer.lines)
