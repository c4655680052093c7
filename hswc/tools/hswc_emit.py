"""hswc-emit: write the ops-nn operator package of HardSwishGrad from an MLIR module.

    hswc-emit in.mlir -o DIR [--force] [--soc ascend910b --soc ascend910_93]

The input may be the operator (`hsg.hard_swish_grad`), which is lowered first with the
--lower-to-ascend pipeline, or an already lowered module. `--soc` names the SoCs the op
definition registers (default: every SoC hswc knows). The package is written all at once (into
a temporary folder next to DIR, then moved into place), and only after every check passed:
DIR must be new or empty unless `--force` is given, and then only the files of the package
(and of an earlier one, listed in DIR/.hswc-package) change. Errors (unreadable file, text that
is not UTF-8, invalid IR, an op the printer has no rule for, a kernel whose UB plan overflows a
target SoC, a folder that cannot take the package, a usage error) print one message and exit
1, and write nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from hswc.diagnostics import LocatingParser, format_parse_error, verify_located
from hswc.dialects import hsg
from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES
from hswc.platform import PLATFORMS
from hswc.source_text import SourceError, decode
from hswc.tools.cli import TOO_DEEP, exit_status, report


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="hswc-emit", description="Write the ops-nn operator package of HardSwishGrad.")
    parser.add_argument("input", help="MLIR file ('-' for stdin)")
    parser.add_argument("-o", "--output", required=True,
                        help="directory to write the package into (new or empty)")
    parser.add_argument("--force", action="store_true",
                        help="write into a folder that holds files: replace the package's "
                             "files there and remove those of an earlier package it no longer "
                             "writes (other files are kept)")
    parser.add_argument("--soc", action="append", choices=sorted(PLATFORMS),
                        help="SoC to register in the op definition (repeatable; default: all)")
    return parser.parse_args(argv)


def load(text: str, name: str) -> ModuleOp:
    """Parse and verify; lower to the ascend dialect when the operator is still there."""
    ctx = Context()
    for dialect, factory in DIALECTS.items():
        ctx.register_dialect(dialect, factory)
    module = LocatingParser(ctx, text, name).parse_module()
    verify_located(module)
    if any(isinstance(op, hsg.NamedOp) or op.name == "linalg.generic" for op in module.walk()):
        for pass_name in LOWER_TO_ASCEND:
            PASSES[pass_name]()().apply(ctx, module)
            verify_located(module)
    return module


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-emit; returns the exit code (1 for usage errors too)."""
    return exit_status(lambda: _main(argv))


def _read(path: str, name: str) -> str:
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    return decode(data, name)


def _main(argv: Sequence[str] | None) -> int:
    args = _arguments(argv)
    name = "<stdin>" if args.input == "-" else args.input
    from hswc.backend.cpp_types import UnprintableType
    from hswc.backend.package import write_package
    from hswc.backend.package_output import OutputRefused

    if not args.output.strip():
        print("hswc-emit: error: -o is empty: name the folder to write the package into",
              file=sys.stderr)
        return 1
    try:
        text = _read(args.input, name)
    except OSError as error:
        return report("hswc-emit", f"cannot read '{name}': {error.strerror}")
    except SourceError as error:
        return report("hswc-emit", str(error))
    try:
        written = write_package(load(text, name), Path(args.output),
                                args.soc or tuple(PLATFORMS), force=args.force)
    except OutputRefused as error:
        return report("hswc-emit", str(error))
    except OSError as error:
        return report("hswc-emit", f"cannot write '{error.filename or args.output}': "
                      f"{error.strerror}")
    except ParseError as error:
        return report("hswc-emit", format_parse_error(error))
    except DiagnosticException as error:
        return report("hswc-emit", str(error))
    except UnprintableType as error:  # met outside every op's rule (inside one, the op is named)
        return report("hswc-emit", str(error))
    except RecursionError:
        return report("hswc-emit", TOO_DEEP)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
