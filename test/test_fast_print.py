"""hswc.tools.fast_print prints exactly what xDSL's own printer prints: the same text, the
printer left at the same line and column, for a lowered module (nested regions, indented
lines) and for tokens with and without line breaks; a printer that encodes (a binary stream)
is left to xDSL."""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO, StringIO
from pathlib import Path

import pytest
from xdsl.printer import Printer
from xdsl.utils.base_printer import BasePrinter

from hswc.pipeline import parse_text
from hswc.tools import fast_print
from hswc.tools.hswc_opt import main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def xdsl_printing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """xDSL's own print_string for the test's body, whatever the tools installed."""
    monkeypatch.setattr(BasePrinter, "print_string", fast_print.xdsl_print_string)
    yield


def _printed(printer: Printer, steps: list[tuple[str, int | None]]) -> tuple[int, int]:
    for text, indent in steps:
        printer.print_string(text, indent=indent)
    return printer._current_line, printer._current_column  # pyright: ignore[reportPrivateUsage]


def test_a_lowered_module_prints_the_same(xdsl_printing: None, tmp_path: Path) -> None:
    lowered = tmp_path / "lowered.mlir"
    assert main([str(REPO / "examples" / "hard_swish_grad.mlir"), "--lower-to-ascend",
                 "-o", str(lowered)]) == 0
    module = parse_text(lowered.read_text(), str(lowered))
    texts = []
    for print_string in (fast_print.xdsl_print_string, fast_print.fast_print_string):
        BasePrinter.print_string = print_string  # type: ignore[method-assign]
        stream = StringIO()
        Printer(stream=stream).print_op(module)
        texts.append(stream.getvalue())
    assert texts[0] == texts[1]
    assert texts[0].count("\n") > 100 and "      " in texts[0]  # nested, indented lines


@pytest.mark.parametrize("steps", [
    [("func", None), (" ", None), ("@f", None)],
    [("a", None), ("\nb", None), ("cd", None)],  # a break: indented by xDSL, then a token
    [("x\n", 0), ("yz", None), ("\n\n", None), ("w", 3)],
])
def test_tokens_move_the_line_and_column_as_xdsl_does(
        xdsl_printing: None, steps: list[tuple[str, int | None]]) -> None:
    found = []
    for print_string in (fast_print.xdsl_print_string, fast_print.fast_print_string):
        BasePrinter.print_string = print_string  # type: ignore[method-assign]
        stream = StringIO()
        printer = Printer(stream=stream)
        printer._indent = 2  # pyright: ignore[reportPrivateUsage]
        found.append((_printed(printer, steps), stream.getvalue()))
    assert found[0] == found[1]


def test_an_encoding_printer_is_left_to_xdsl(xdsl_printing: None) -> None:
    BasePrinter.print_string = fast_print.fast_print_string  # type: ignore[method-assign]
    stream = BytesIO()
    printer = BasePrinter(stream=stream)  # a binary stream: str.encode
    printer.print_string("abc")
    printer.print_string("d")
    assert stream.getvalue() == b"abcd"  # encoded by xDSL's path (fast would write str)
    assert printer._current_column == 4  # pyright: ignore[reportPrivateUsage]
