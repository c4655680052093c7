"""What the three tools share on the command line: exit codes and how a diagnostic starts.

Every failure exits with status 1, usage errors included (argparse's own status is 2), and
prints one diagnostic: `file:line:col: error: ...` where there is a place to name, else
`<tool>: error: ...`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable


def exit_status(main: Callable[[], int]) -> int:
    """main()'s status, with argparse's usage errors (status 2) reported as status 1; --help
    and --version keep their 0."""
    try:
        return main()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return 1 if done.code == 2 else done.code or 0
        print(done.code, file=sys.stderr)
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
