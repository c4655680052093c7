"""Printed text written without xDSL's line bookkeeping where the text has no line break.

xDSL's printer writes every token (an SSA name, a keyword, a comma, a type's parameters)
through `BasePrinter.print_string`, which encodes it, then counts its line breaks in
`print_content` to indent the lines after each; a token with none is written as it is and its
length added to the column. A whole model's lowered module is some 200,000 tokens (10,700 ops
in MobileNetV3-Small's), and the two calls per token were a fifth of its print
(bench/bench_partition.py).

`install()` gives BasePrinter a `print_string` that, for a printer writing text as it is
(xDSL's `identity` encoding: a text stream, stdout) and a token with no line break, does what
`print_content` does for it (the column moved on, the text written); any other token, and any
printer that encodes, goes to xDSL's own. So the text printed is the same, and so are the
printer's line and column (test/test_fast_print.py).
"""

from __future__ import annotations

from xdsl.utils.base_printer import BasePrinter
from xdsl.utils.identity import identity

xdsl_print_string = BasePrinter.print_string
"""xDSL's own BasePrinter.print_string."""


def fast_print_string(self: BasePrinter, text: str, *, indent: int | None = None) -> None:
    """BasePrinter.print_string: a token with no line break written here (the module
    docstring), every other by xDSL."""
    if self._encode is identity and "\n" not in text:  # pyright: ignore[reportPrivateUsage]
        self._current_column += len(text)  # pyright: ignore[reportPrivateUsage]
        self.stream.write(text)  # pyright: ignore[reportArgumentType]
        return
    xdsl_print_string(self, text, indent=indent)


def install() -> None:
    """fast_print_string as BasePrinter's print_string, for the rest of the process."""
    BasePrinter.print_string = fast_print_string  # type: ignore[method-assign]
