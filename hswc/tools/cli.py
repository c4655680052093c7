"""What the tools share on the command line: exit codes, how a diagnostic starts, --version.

Every failure exits with status 1, usage errors included (argparse's own status is 2), and
prints one diagnostic: `file:line:col: error: ...` where there is a place to name, else
`<tool>: error: ...`. `--version` prints `<tool> (hswc X, xDSL Y)`, both versions read from
the installed packages' metadata when it is asked for (importing importlib.metadata costs a
tool's start-up about 60 ms otherwise).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any


def exit_status(main: Callable[[], int]) -> int:
    """main()'s status, with argparse's usage errors (status 2) reported as status 1; --help
    and --version keep their 0. A reader of the output that went away (`tool ... | head`)
    ends the tool with status 1 and nothing more said (no traceback, and Python's flush of
    stdout at exit writes into /dev/null)."""
    try:
        return main()
    except BrokenPipeError:
        return reader_gone()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return 1 if done.code == 2 else done.code or 0
        print(done.code, file=sys.stderr)
        return 1


def reader_gone() -> int:
    """The exit status when the reader of the output went away (`tool ... | head`): nothing
    left to say; stdout now writes into /dev/null, so Python's flush at exit says nothing
    either."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout has no file descriptor (an embedding's stream): nothing to flush
    return 1


def diagnostic(tool: str, message: str) -> str:
    """`message` as one diagnostic: kept when its first line already says `error:`, else
    prefixed with `<tool>: error: `."""
    message = message.rstrip()
    if "error:" in message.split("\n", 1)[0]:
        return message
    return f"{tool}: error: {message}"


TOO_DEEP = ("the module is nested too deeply for hswc (Python ran out of stack on it; "
            "brackets are limited to hswc.source_text.MAX_NESTING, but this construct recursed "
            "without them)")
"""The diagnostic when a RecursionError escapes anyway (a sum of thousands of terms in an
affine map is a deep tree without brackets)."""


def report(tool: str, message: str) -> int:
    """Print the diagnostic on stderr; the exit status of a failure (1)."""
    print(diagnostic(tool, message), file=sys.stderr)
    return 1


def version_line(tool: str) -> str:
    """`<tool> (hswc X, xDSL Y)`, from the installed distributions' metadata."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "(not installed)"

    return f"{tool} (hswc {installed('hswc')}, xDSL {installed('xdsl')})"


class ToolVersionLine(str):
    """xDSL's --version text for a tool (xDSLOptMain.version_format): its `format()`, which
    xDSL's VersionAction calls only when --version is given, is the tool's version_line."""

    def format(self, *args: object, **kwargs: object) -> str:
        return version_line(str(self))


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0,
                         help="print the tool's, hswc's and xDSL's versions and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(version_line(parser.prog))
        parser.exit()


def add_version_option(parser: argparse.ArgumentParser) -> None:
    """--version on an argparse tool: prints version_line(parser.prog) and exits 0."""
    parser.add_argument("--version", action=_VersionAction)
