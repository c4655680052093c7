"""hswc-from-torch: a PyTorch function or nn.Module to hswc's kernel in one step.

    hswc-from-torch FILE.py:NAME (--input-shape SHAPE:DTYPE | --input X.npy)... -o OUT
                    [--dim NAME=SIZE]... [--check] [--emit [DIR]] [--name OpType]
                    [--soc SOC] [--seed N]

NAME is a function, an nn.Module instance or a subclass taking no arguments (or
package.module:NAME). Each input is a shape (`4x1000:f16`; an upper-case name is a dynamic dim,
`4xN:f16`, its example size from --dim N=SIZE, default 128) whose example is seeded random data,
or a .npy file. The function is exported by torch-mlir as linalg-on-tensors to OUT/NAME.mlir
(the example inputs beside it, OUT/NAME.in<i>.npy), lowered as hswc-opt --lower-to-ascend and
hswc-run lower it to OUT/NAME.ascend.mlir; --check runs it (hswc's interpreter) on the example
inputs and compares the results with eager PyTorch's within torch.testing.assert_close's
default tolerances (exit 1 outside them); --emit writes the ops-nn package with hswc-emit (to
DIR, default OUT/NAME). What hswc does not lower (today: anything not elementwise) is its
located message about OUT/NAME.mlir, which is kept. Without PyTorch and torch-mlir it says to
install the torch extra. Every error is one message and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from hswc.platform import DEFAULT_SOC, PLATFORMS
from hswc.tools.cli import add_version_option, exit_status, report

TOOL = "hswc-from-torch"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=TOOL, description="Export a PyTorch function or module with torch-mlir, lower it "
        "with hswc, and optionally check it against eager PyTorch and package it.")
    add_version_option(p)
    p.add_argument("source", metavar="FILE.py:NAME",
                   help="the function or nn.Module to export (or package.module:NAME)")
    p.add_argument("--input-shape", dest="inputs", action="append", default=[],
                   type=lambda v: ("shape", v), metavar="SHAPE:DTYPE",
                   help="an input by shape and dtype (f16, bf16, f32): 4x1000:f16; an upper-case "
                        "dim is dynamic (4xN:f16); seeded random data is its example")
    p.add_argument("--input", dest="inputs", action="append", type=lambda v: ("npy", v),
                   metavar="X.npy", help="an input by its example data")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=SIZE",
                   help="the example size of a dynamic dim (default 128)")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the folder for the exported and lowered files")
    p.add_argument("--check", action="store_true",
                   help="compare hswc's results with eager PyTorch's on the example inputs "
                        "(torch.testing.assert_close's default tolerances)")
    p.add_argument("--emit", nargs="?", const="", metavar="DIR",
                   help="write the ops-nn package with hswc-emit (default DIR: OUT/NAME)")
    p.add_argument("--name", metavar="OpType",
                   help="the package's op type (default: NAME in CamelCase)")
    p.add_argument("--soc", default=DEFAULT_SOC, choices=sorted(PLATFORMS),
                   help=f"the SoC to lower and check for (default {DEFAULT_SOC})")
    p.add_argument("--seed", type=int, default=0, help="the example data's seed (default 0)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-from-torch; returns the exit code."""
    return exit_status(lambda: _main(argv))


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    from hswc.from_torch.errors import CheckFailed, TorchStepError

    try:
        return _run(args)
    except CheckFailed:
        return 1  # its summary is printed already
    except TorchStepError as error:
        return report(TOOL, str(error))
    except Exception as error:  # the contract: one message, never a traceback
        return report(TOOL, f"internal error: {type(error).__name__}: {error}")


def _run(args: argparse.Namespace) -> int:
    from hswc.from_torch.compile import compile
    from hswc.from_torch.errors import InputSpecError
    from hswc.from_torch.export import function_name, load_source
    from hswc.from_torch.extra import require
    from hswc.from_torch.inputs import load_tensor, parse_dim_size, parse_spec

    if args.name is not None and args.emit is None:
        raise InputSpecError("--name is the package's op type: give --emit too")
    if not args.inputs:
        raise InputSpecError("give the function's inputs: --input-shape SHAPE:DTYPE (e.g. "
                             "4x1000:f16) or --input X.npy, one per argument, in order")
    examples = [parse_spec(value) if kind == "shape" else value for kind, value in args.inputs]
    dims = dict(parse_dim_size(d) for d in args.dim)
    require()
    fn = load_source(args.source)
    examples = [load_tensor(e) if isinstance(e, str) else e for e in examples]
    out = Path(args.output)
    emit = None if args.emit is None else Path(args.emit) if args.emit else \
        out / function_name(fn)
    compile(fn, examples, dims=dims, out=out, check=args.check, emit=emit, name=args.name,
            soc=args.soc, seed=args.seed, report=print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
