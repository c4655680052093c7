"""Parse and lowering time against input size: linear, where locating ops made it quadratic.

The input is the lowered example module (host function, tiling function, kernel) repeated
with fresh symbol names until it reaches the size asked for: about 12 KB and 150 ops a copy,
so 10 MB is some 880 copies, 2640 functions and 134,000 ops. For each size the script times,
in CPU seconds of this process (other load on the machine does not count):

- parse: hswc's LocatingParser (every op stamped with its line and column);
- xdsl: xDSL's own Parser on the same text (no locations: the floor);
- lower: verify, the --lower-to-ascend passes with a verification after each, and printing,
  as `hswc-opt --lower-to-ascend` does after parsing (the module is lowered already, so the
  passes only walk it: this is the cost of the pipeline around them);

and prints each per MB and relative to the smallest size: a ratio near 1.0 is linear.
`--before` also times the parser as it located ops before (xDSL's Span.get_location, which
counts newlines from the start of the file each time); it is quadratic, so expect minutes.

    python bench/bench_parse.py [--sizes-mb 1,4,10] [--before]
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.lexer import Span

from hswc.diagnostics import LocatingParser
from hswc.pipeline import LOWER_TO_ASCEND, PASSES
from hswc.pipeline import context as _context
from hswc.runner import compile_file
from hswc.verification import verify_located

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


class CountingFromStart(LocatingParser):
    """The parser as it was: each op's location counted from the start of the file."""

    def _location(self, offset: int) -> FileLineColLoc:
        where = Span(offset, offset, self.lexer.input).get_location()
        return FileLineColLoc(StringAttr(where.file), IntAttr(where.line), IntAttr(where.col))


def lowered_copy() -> str:
    """The body of the lowered example module, its functions named @COPY_..."""
    kernel = compile_file(ROOT / "examples" / "hard_swish_grad.mlir")
    text = io.StringIO()
    Printer(stream=text).print_op(kernel.module)
    body = text.getvalue()
    return body[body.index("{") + 1: body.rindex("}")].replace("@hard_swish_grad", "@COPY_hsg")


def module_text(megabytes: float, copy: str) -> str:
    parts = ["builtin.module {\n"]
    size, i = 0, 0
    while size < megabytes * 2**20:
        parts.append(copy.replace("@COPY_", f"@m{i}_"))
        size += len(parts[-1])
        i += 1
    parts.append("}\n")
    return "".join(parts)


def cpu(work: Callable[..., T], *args: object) -> tuple[float, T]:
    """CPU seconds of this process that `work(*args)` took, and its result."""
    start = time.process_time()
    result = work(*args)
    return time.process_time() - start, result


def parse(parser: type[Parser], text: str) -> ModuleOp:
    return parser(_context(), text, "bench.mlir").parse_module()


def measure(text: str, before: bool) -> tuple[int, dict[str, float]]:
    """The module's op count, and the seconds of each column."""
    times: dict[str, float] = {}
    times["parse"], module = cpu(parse, LocatingParser, text)
    ops = sum(1 for _ in module.walk())
    times["xdsl"], _ = cpu(parse, Parser, text)
    times["lower"], _ = cpu(lower, module)
    if before:
        times["before"], _ = cpu(parse, CountingFromStart, text)
    return ops, times


def lower(module: ModuleOp) -> None:
    ctx = _context()
    verify_located(module)
    for name in LOWER_TO_ASCEND:
        PASSES[name]()().apply(ctx, module)
        verify_located(module)
    Printer(stream=io.StringIO()).print_op(module)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", default="1,4,10")
    parser.add_argument("--before", action="store_true",
                        help="also time locating ops by counting from the start (slow)")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes_mb.split(",")]
    copy = lowered_copy()
    columns = ["parse", "xdsl", "lower"] + (["before"] if args.before else [])
    print(f"{'MB':>6} {'ops':>8} " + " ".join(f"{c + ' s':>9} {'/MB':>6}" for c in columns)
          + "   parse s/MB vs first")
    first: float | None = None
    for mb in sizes:
        text = module_text(mb, copy)
        real_mb = len(text) / 2**20
        ops, times = measure(text, args.before)
        per_mb = times["parse"] / real_mb
        first = first or per_mb
        print(f"{real_mb:6.2f} {ops:8d} "
              + " ".join(f"{times[c]:9.2f} {times[c] / real_mb:6.2f}" for c in columns)
              + f"   {per_mb / first:5.2f}x")


if __name__ == "__main__":
    main()
