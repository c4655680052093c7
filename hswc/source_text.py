"""MLIR source text as every tool reads it: strict UTF-8, a line index, a nesting limit.

- `decode` refuses bytes that are not UTF-8 with the line and column of the first bad byte
  (never replacement characters, never surrogate escapes echoed back).
- `LineIndex` turns an offset into a line and column by bisecting the offsets where lines
  start: O(log n) per lookup, where xDSL's `Span.get_location` counts newlines from the start
  of the file (quadratic over a file's ops).
- `too_deep` finds the first bracket nested deeper than `MAX_NESTING`. xDSL's parser, verifier,
  printer and rewriter recurse once (or more) per level of brackets, and every recursive
  construct of MLIR's syntax (regions, attribute and type parameters, lists, parentheses) is
  bracketed, so bounding bracket depth bounds their recursion.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from xdsl.utils.exceptions import DiagnosticException

MAX_NESTING = 64
"""Brackets ( [ { < open at once, at most. Real inputs stay far below: the lowered kernel in
generic form nests about 12 deep, a rank-8 dense literal 10. At this depth the most expensive
construct measured, nested builtin.module (about 9 Python frames a level to parse), takes 580
frames through any of the three tools (nested scf.if 527, parentheses and arrays 475, tuples
350), inside Python's default limit of 1000 with room for the caller's frames;
test/test_hostile_inputs.py runs each construct at this depth through every tool."""


class SourceError(DiagnosticException):
    """A file that is not MLIR text at all; the message is `file:line:col: error: ...`."""


def decode(data: bytes, name: str, line_offset: int = 0) -> str:
    """`data` as UTF-8 text; SourceError at the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8")
        line = before.count("\n") + 1 + line_offset
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise SourceError(f"{name}:{line}:{column}: error: the input is not UTF-8 text: byte "
                          f"0x{data[error.start]:02x} ({error.reason})") from None


class LineIndex:
    """1-based line and column of an offset into `text` (columns count characters)."""

    def __init__(self, text: str):
        self._starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def location(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


_NOT_CODE = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|//[^\n]*')
"""String literals and comments, whose brackets are not syntax (a literal's run of plain
characters matched at once: a weight blob of megabytes is one step, not one per character)."""

_NOT_BRACKET = re.compile(r"[<>](?==)|(?<=-)[<>]")
"""`->` and the `<=` / `>=` of affine constraints: angle characters that are not brackets."""
_BRACKET = re.compile(r"[(\[{<)\]}>]")
_STEP = {"(": 1, "[": 1, "{": 1, "<": 1, ")": -1, "]": -1, "}": -1, ">": -1}


def _depths(code: str) -> int:
    """The deepest nesting of brackets in `code` (strings and comments taken out)."""
    code = _NOT_BRACKET.sub(" ", code)
    return max(accumulate(map(_STEP.__getitem__, _BRACKET.findall(code))), default=0)


def too_deep(text: str, limit: int = MAX_NESTING) -> int | None:
    """The offset of the first bracket that opens level `limit + 1`, or None."""
    # The check, by C loops over the text with each string literal and comment one space (a
    # model's weight blobs are most of its text: _NOT_BRACKET's scan of their megabytes cost
    # 0.5 s of a 12.5 MB file's); the offsets, by the slow walk, only on the error path.
    if _depths(_NOT_CODE.sub(" ", text)) <= limit:
        return None
    code = _NOT_CODE.sub(lambda m: " " * len(m.group()), text)
    code = _NOT_BRACKET.sub(" ", code)
    depth = 0
    for bracket in _BRACKET.finditer(code):
        depth += _STEP[bracket.group()]
        if depth > limit:
            return bracket.start()
    return None  # not reached: the depth exceeds the limit somewhere
