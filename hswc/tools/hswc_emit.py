"""hswc-emit: write the ops-nn operator package of HardSwishGrad from an MLIR module.

    hswc-emit in.mlir -o DIR [--force] [--soc ascend910b --soc ascend910_93]

The input may be the operator (`hsg.hard_swish_grad`), which is lowered first with the
--lower-to-ascend pipeline, or an already lowered module. `--soc` names the SoCs the op
definition registers (default: every SoC hswc knows). The package is written all at once (into
a temporary folder next to DIR, then moved into place), and only after every check passed:
DIR must be new or empty unless `--force` is given, and then only the files of the package
(and of an earlier one, listed in DIR/.hswc-package) change. Errors (unreadable file, invalid
IR, an op the printer has no rule for, a kernel whose UB plan overflows a target SoC, a folder
that cannot take the package) print one message and exit 1, and write nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from hswc.diagnostics import LocatingParser, verify_located
from hswc.dialects import hsg
from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES
from hswc.platform import PLATFORMS


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
    """Entry point of hswc-emit; returns the exit code."""
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
        text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text("utf-8")
        written = write_package(load(text, name), Path(args.output),
                                args.soc or tuple(PLATFORMS), force=args.force)
    except OutputRefused as error:
        print(f"hswc-emit: error: {error}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as error:
        print(f"hswc-emit: error: '{name}' is not UTF-8 text (byte {error.start})",
              file=sys.stderr)
        return 1
    except OSError as error:
        where = error.filename or name
        print(f"hswc-emit: error: cannot read or write '{where}': {error.strerror}",
              file=sys.stderr)
        return 1
    except (ParseError, DiagnosticException) as error:
        message = str(error).rstrip()
        if "error:" not in message.split("\n", 1)[0]:
            message = f"hswc-emit: error: {message}"
        print(message, file=sys.stderr)
        return 1
    except UnprintableType as error:  # met outside every op's rule (inside one, the op is named)
        print(f"hswc-emit: error: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
