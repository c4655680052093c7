"""hswc-run: execute a module, high-level or lowered, on a modelled Ascend SoC.

    hswc-run FILE.mlir --input grad.npy --input x.npy --output y.npy
             [--soc ascend910b] [--core-num N] [--ub-size BYTES]
             [--check cann|torch] [--tiling-json PATH] [--level hsg|tiled|blocked|ascend]
             [--function NAME] [--profile [TRACE.json]]

Inputs bind to the function's arguments in order; results are written in order to the
--output files (as many as given, at most one per result). hsg-level input is lowered first,
to `--level` (default ascend: the AscendC kernel on modelled vector cores); lowered input runs
as it is. --check compares every result bit for bit with the module as given, run at the hsg
level under the named golden model, prints a summary and exits 1 on any mismatch.
--tiling-json writes the tiling of the launch as {"totalNum", "blockFactor", "ubFactor",
"usedCoreNum", "tilingKey"}; a function that launches several kernels gets a list of those, in
launch order. Every error (unreadable file, an input that does not fit, malformed IR, a kernel
breaking a hardware rule) is one message on stderr and exit code 1.
--profile models the launch on the SoC (hswc.cost_model): time per pipe, achieved fraction of
the HBM roofline, the binding pipe and per-core imbalance; with a path it also writes a
Perfetto/Chrome trace there (open it at ui.perfetto.dev).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import numpy as np

from hswc.platform import DEFAULT_SOC, PLATFORMS


def _parser() -> argparse.ArgumentParser:
    from hswc.reference import OP_REFERENCES
    from hswc.runner import LEVELS

    semantics = sorted({s for _, s in OP_REFERENCES})

    p = argparse.ArgumentParser(
        prog="hswc-run", description="Run an hswc module on numpy inputs (.npy files).")
    p.add_argument("file", help="the MLIR module (hsg-level or lowered)")
    p.add_argument("--input", action="append", default=[], metavar="NPY",
                   help="an argument of the function, in order (repeat for each)")
    p.add_argument("--output", action="append", default=[], metavar="NPY",
                   help="where to write a result, in order (repeat for each)")
    p.add_argument("--soc", default=DEFAULT_SOC,
                   help=f"the SoC whose cores and UB the run models: {', '.join(sorted(PLATFORMS))}"
                        f" (default {DEFAULT_SOC})")
    p.add_argument("--core-num", type=int, metavar="N", help="override the SoC's AIV cores")
    p.add_argument("--ub-size", type=int, metavar="BYTES", help="override the SoC's UB bytes")
    p.add_argument("--semantics", choices=semantics,
                   help="what the named ops mean (hsg-decompose{semantics=...}; default: each "
                        "op's own, cann for hard_swish_grad)")
    p.add_argument("--check", nargs="?", const="", choices=["", *semantics], metavar="SEMANTICS",
                   help="compare the results bit for bit with the module run at its own level "
                        "under these semantics' golden models (default: --semantics)")
    p.add_argument("--tiling-json", metavar="PATH",
                   help="write the launch's tiling as JSON (a list, in launch order, when the "
                        "function launches several kernels)")
    p.add_argument("--level", choices=LEVELS, default="ascend",
                   help="lower hsg-level input this far before running (default ascend)")
    p.add_argument("--function", metavar="NAME",
                   help="the function to run (default: the module's only non-kernel function)")
    p.add_argument("--profile", nargs="?", const="", metavar="TRACE.json",
                   help="model the launch on the SoC (hswc.cost_model): print time per pipe, "
                   "roofline fraction and binding pipe; with a path, also write a "
                   "Perfetto/Chrome trace there")
    return p


def _write_outputs(paths: Sequence[str], outputs: Sequence[np.ndarray]) -> None:
    from hswc.runner import RunnerError

    if len(paths) > len(outputs):
        raise RunnerError(f"{len(paths)} --output files given but the function returns "
                          f"{len(outputs)} result(s)")
    for path, value in zip(paths, outputs, strict=False):
        try:
            np.save(path, value, allow_pickle=False)
        except OSError as error:
            raise RunnerError(f"cannot write '{path}': {error.strerror or error}") from None


def _write_tiling(path: str, tilings: list[dict[str, int] | None]) -> None:
    from hswc.runner import RunnerError

    if any(t is None for t in tilings):
        raise RunnerError("--tiling-json: the platform gives no valid tiling for this input")
    document = tilings[0] if len(tilings) == 1 else tilings
    try:
        with open(path, "w", encoding="utf-8") as stream:
            json.dump(document, stream, indent=2)
            stream.write("\n")
    except OSError as error:
        raise RunnerError(f"cannot write '{path}': {error.strerror or error}") from None


def _check(kernel: object, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray],
           model: str | None) -> bool:
    from hswc.reference import compare_bitwise
    from hswc.runner import Kernel

    assert isinstance(kernel, Kernel)
    expected = kernel.reference(*inputs, model=model)
    name = model or kernel.semantics or "(each op's default semantics)"
    ok = True
    for i, (actual, want) in enumerate(zip(outputs, expected, strict=True)):
        result = compare_bitwise(actual, want)
        label = f"result {i + 1}: " if len(outputs) > 1 else ""
        print(f"--check {name}: {label}{result.summary()}")
        ok = ok and result.equal
    return ok


def _profile(kernel: object, inputs: Sequence[np.ndarray], trace: str) -> None:
    from hswc.cost_model import CostModelError
    from hswc.cost_model.schedule import ScheduleError
    from hswc.runner import Kernel, RunnerError

    assert isinstance(kernel, Kernel)
    if not inputs:
        raise RunnerError("--profile: the function takes no input to take the shape from")
    try:  # run() has checked the inputs against the function: inputs[0] is grad
        report = kernel.profile(inputs[0].shape)
    except (CostModelError, ScheduleError, ValueError) as error:
        raise RunnerError(f"--profile: {error}") from None
    print(report.summary())
    if trace:
        try:
            report.write_trace(trace)
        except OSError as error:
            raise RunnerError(f"cannot write '{trace}': {error.strerror or error}") from None


def run(args: argparse.Namespace) -> int:
    from hswc.interpreter.binding import load_npy
    from hswc.runner import compile_file

    kernel = compile_file(args.file, soc=args.soc, core_num=args.core_num,
                          ub_size=args.ub_size, level=args.level, function=args.function,
                          semantics=args.semantics)
    inputs = [load_npy(path) for path in args.input]
    result = kernel.run(*inputs)
    _write_outputs(args.output, result.outputs)
    if args.tiling_json:
        _write_tiling(args.tiling_json, result.tilings)
    if args.profile is not None:
        _profile(kernel, inputs, args.profile)
    if args.check is not None and not _check(kernel, inputs, result.outputs, args.check or None):
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-run; returns the exit code."""
    args = _parser().parse_args(argv)
    from hswc.runner import RunnerError

    try:
        return run(args)
    except RunnerError as error:
        message = str(error)
        if "error:" not in message.split("\n", 1)[0]:
            message = f"hswc-run: error: {message}"
        print(message, file=sys.stderr)
        return 1
    except Exception as error:  # the contract: one line, never a traceback
        print(f"hswc-run: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
