"""hswc-run: execute a module, high-level or lowered, on a modelled Ascend SoC.

    hswc-run FILE.mlir --input grad.npy --input x.npy --output y.npy
             [--soc ascend910b] [--core-num N] [--ub-size BYTES]
             [--check cann|torch] [--tiling-json PATH] [--level hsg|tiled|blocked|ascend]
             [--function NAME] [--profile [TRACE.json]] [--max-steps N]

Inputs bind to the function's arguments in order (a scalar argument, `%alpha: f32`, takes a
number, `--input 0.5`, rounded once to its type, or a .npy file of one value); results are
written in order to the
--output files (none, or exactly one per result), each exactly at the path given, as .npy, in
its own element type (f64, integers, i1 as bool included). hsg-level input is lowered first, to
`--level` (default ascend: the AscendC kernel on modelled vector cores); lowered input runs as
it is. Ops no kernel takes (matmul, convolutions, reshapes, reductions, ...) run on the host
with their MLIR semantics at every level; weights stored in the file as dense_resource blobs
are read from it. --check compares every result with the module as given, run entirely on the
host at the hsg level (named ops by the golden models of the semantics named, every other op by
its MLIR semantics): bit for bit, or, where the module holds an exponential activation (whose
golden model is the exact function) or a reduction (the softmax family and the norms, whose
golden models sum in float64; a linalg.generic or linalg.reduce that sums along a reduction
iterator, whose additions the kernel orders as its vector reductions do; a max or min stays
bit-exact), within PyTorch's default tolerance, with a first line
saying so and why; it prints a summary per result and exits 1 on any mismatch (the --output
files are still written, to look at). At the hsg level the module is its own reference: --check
checks a lowering.
--tiling-json writes the tiling of the launch as {"totalNum", "blockFactor", "ubFactor",
"usedCoreNum", "tilingKey"}; a function that launches several kernels gets a list of those, in
launch order.
--profile models the launches on the SoC (hswc.cost_model): time per pipe, achieved fraction of
the HBM roofline, the binding pipe and per-core imbalance; with a path it also writes a
Perfetto/Chrome trace there (open it at ui.perfetto.dev).
With none of --output, --check, --tiling-json and --profile, the run prints one line per result
(its dtype and shape) and says that nothing was written.
--max-steps bounds the loop iterations of the run (default: 4 per UB chunk of each launch's own
tiling, plus 1000; a real kernel takes one per UB chunk per batch of cores): a runaway loop ends
within about a second with a message naming it and saying how to raise the limit.

Files are written only after the whole run has succeeded, each atomically (hswc.output_files),
except that with --check the results are written on a mismatch too. Every error (unreadable
file, an input that does not fit, malformed IR, a kernel breaking a hardware rule, an
unwritable output, a usage error) is one message on stderr and exit code 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from hswc.interpreter.limits import BASE_STEPS, DEFAULT_MAX_STEPS, STEPS_PER_CHUNK
from hswc.output_files import Content, OutputError, write_files
from hswc.platform import DEFAULT_SOC, PLATFORMS
from hswc.tools.cli import TOO_DEEP, add_version_option, exit_status, report
from hswc.tools.startup import importing, parsing

if TYPE_CHECKING:
    from hswc.runner import Kernel, RunResult


def _parser() -> argparse.ArgumentParser:
    from hswc.reference import OP_REFERENCES
    from hswc.runner import LEVELS

    semantics = sorted({s for _, s in OP_REFERENCES})

    p = argparse.ArgumentParser(
        prog="hswc-run", description="Run an hswc module on numpy inputs (.npy files).")
    add_version_option(p)
    p.add_argument("file", help="the MLIR module (hsg-level or lowered)")
    p.add_argument("--input", action="append", default=[], metavar="NPY",
                   help="an argument of the function, in order (repeat for each): a .npy "
                        "file, or for a scalar argument (f32, i32, ...) a number such as 0.5")
    p.add_argument("--output", action="append", default=[], metavar="NPY",
                   help="where to write a result, in order: once per result (or not at all); "
                        "the file is written at exactly this path, as .npy")
    p.add_argument("--soc", default=DEFAULT_SOC,
                   help=f"the SoC whose cores and UB the run models: {', '.join(sorted(PLATFORMS))}"
                        f" (default {DEFAULT_SOC})")
    p.add_argument("--core-num", type=int, metavar="N", help="override the SoC's AIV cores")
    p.add_argument("--ub-size", type=int, metavar="BYTES", help="override the SoC's UB bytes")
    p.add_argument("--semantics", choices=semantics,
                   help="what the named ops mean (hsg-decompose{semantics=...}; default: each "
                        "op's own, cann for hard_swish_grad)")
    p.add_argument("--strict-f64", action="store_true",
                   help="refuse f64 arithmetic instead of computing it in f32 (hsg-demote-f64)")
    p.add_argument("--no-fuse", action="store_true",
                   help="lower without hsg-fuse-elementwise: one kernel per op (with --profile, "
                        "what fusion saves)")
    p.add_argument("--check", nargs="?", const="", choices=["", *semantics], metavar="SEMANTICS",
                   help="compare every result with the module as given, run on the host at "
                        "the hsg level (named ops by these semantics' golden models, default "
                        "--semantics; every other op by its MLIR semantics): bit for bit, or "
                        "within PyTorch's tolerance (and saying so) where an exponential "
                        "activation is modelled by its exact function or the module reduces (the "
                        "softmax family, the norms, a generic summing along a reduction iterator)")
    p.add_argument("--tiling-json", metavar="PATH",
                   help="write the launch's tiling as JSON (a list, in launch order, when the "
                        "function launches several kernels)")
    p.add_argument("--level", choices=LEVELS, default="ascend",
                   help="lower hsg-level input this far before running (default ascend)")
    p.add_argument("--function", metavar="NAME",
                   help="the function to run (default: the module's only non-kernel function)")
    p.add_argument("--profile", nargs="?", const="", metavar="TRACE.json",
                   help="model the run's launches on the SoC (hswc.cost_model): print time per "
                   "pipe, roofline fraction and binding pipe (one line per launch and the "
                   "total when there are several); with a path, also write a Perfetto/Chrome "
                   "trace there")
    p.add_argument("--max-steps", type=_steps, default=DEFAULT_MAX_STEPS, metavar="N",
                   help="stop a run that takes more than N loop iterations, naming the loop "
                        f"(default: {STEPS_PER_CHUNK} per UB chunk of each launch's own tiling, "
                        f"plus {BASE_STEPS}; a kernel takes one per UB chunk per batch of "
                        "cores)")
    p.epilog = ("Without --output, --check, --tiling-json or --profile the results are "
                "described, not written. Files are written only once the run has succeeded, "
                "except that with --check they are written on a mismatch too (to look at; "
                "the exit status is still 1).")
    return p


def _steps(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def _npy(value: np.ndarray) -> Callable[[BinaryIO], None]:
    """Writes `value` as .npy to an open file: np.save given a path would add `.npy` to it. An
    8-bit float as its bytes (`|V1`, as numpy saves float8_e4m3fn): numpy writes float8_e5m2's
    descr as `<f1`, which np.load refuses."""
    if value.dtype.itemsize == 1 and value.dtype.kind not in "iub":
        value = value.view(np.dtype("V1"))
    return lambda stream: np.save(stream, value, allow_pickle=False)


def _tiling_text(tilings: list[dict[str, int] | None]) -> str:
    from hswc.runner import RunnerError

    if any(t is None for t in tilings):
        raise RunnerError("--tiling-json: the platform gives no valid tiling for this input")
    return json.dumps(tilings[0] if len(tilings) == 1 else tilings, indent=2) + "\n"


def _packed(value: np.ndarray) -> np.ndarray:
    """A result stored packed (`hsg.storage = "bits"`) as its bytes: element i bit i % 8 of
    byte i // 8, the least significant first, the last byte's padding bits 0 (ops-nn's
    DT_UINT1 tensor of ceil(n / 8) bytes)."""
    return np.packbits(np.asarray(value, dtype=bool).reshape(-1), bitorder="little")


def _check(kernel: Kernel, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray],
           model: str | None) -> tuple[list[str], bool]:
    """The summary lines of --check, and whether every result matched: bit for bit, or, where
    the module holds an op whose result is not expected bit for bit (Kernel.inexact_reason: an
    exponential activation, a reduction), within PyTorch's tolerance, with a line saying so
    and, per result, the largest error in ulps and where it is."""
    from hswc.reference import compare_bitwise, compare_tolerance

    expected = kernel.reference_outputs(*inputs, model=model)
    name = model or kernel.semantics or "(each op's default semantics)"
    why = kernel.inexact_reason()
    lines = [] if why is None else [
        f"--check {name}: compared within torch.testing.assert_close's default tolerance, not "
        f"bit for bit: {why}"]
    ok = True
    for i, (actual, want) in enumerate(zip(outputs, expected, strict=True)):
        label = f"result {i + 1}: " if len(outputs) > 1 else ""
        if why is not None:
            within = compare_tolerance(actual, want)
            alike = tuple(a for a in inputs if np.shape(a) == actual.shape)  # at the worst
            lines.append(f"--check {name}: {label}{within.summary(alike)}")
            ok = ok and within.equal
            continue
        result = compare_bitwise(actual, want)
        lines.append(f"--check {name}: {label}{result.summary()}")
        ok = ok and result.equal
    return lines, ok


def _profile(kernel: Kernel, inputs: Sequence[np.ndarray], result: RunResult) -> Any:
    from hswc.cost_model import CostModelError
    from hswc.cost_model.schedule import ScheduleError
    from hswc.runner import RunnerError

    tensors = [a for a in inputs if isinstance(a, np.ndarray)]  # a scalar has no shape
    if not tensors:
        raise RunnerError("--profile: the function takes no tensor input to take the shape from")
    try:  # run() has checked the inputs against the function
        launches = kernel.profile_launches(tensors[0].shape, result)
        return launches.reports[0] if len(launches.reports) == 1 else launches
    except (CostModelError, ScheduleError, ValueError) as error:
        raise RunnerError(f"--profile: {error}") from None


def _inputs(kernel: Kernel, given: Sequence[str], load: Callable[[str], np.ndarray]
            ) -> list[Any]:
    """Each --input as the run takes it: a .npy file's array, or, for a scalar argument, the
    number written (hswc.interpreter.binding checks and rounds it) unless a .npy file is
    named."""
    from hswc.interpreter.binding import is_scalar

    types = list(kernel.input_types)
    return [text if k < len(types) and is_scalar(types[k]) and not text.endswith(".npy")
            else load(text) for k, text in enumerate(given)]


def run(args: argparse.Namespace) -> int:
    """Compute everything the options ask for, then write the files, then print."""
    from hswc.interpreter.binding import load_npy
    from hswc.runner import RunnerError, compile_file

    with parsing():  # the module and its lowering live to the end: no full collection walks them
        kernel = compile_file(args.file, soc=args.soc, core_num=args.core_num,
                              ub_size=args.ub_size, level=args.level, function=args.function,
                              semantics=args.semantics, fuse=not args.no_fuse,
                              strict_f64=args.strict_f64)
    results = len(kernel.result_types)
    if args.output and len(args.output) != results:
        raise RunnerError(f"{len(args.output)} --output file(s) given for the "
                          f"{results} result(s) of @{kernel.function}: give --output once per "
                          "result, in order")
    inputs = _inputs(kernel, args.input, load_npy)
    result = kernel.run(*inputs, max_steps=args.max_steps)
    files: dict[str | Path, Content] = {
        path: _npy(_packed(value) if k in kernel.packed_results else value)
        for k, (path, value) in enumerate(zip(args.output, result.outputs, strict=False))}
    if args.tiling_json:
        files[args.tiling_json] = _tiling_text(result.tilings)
    report = _profile(kernel, inputs, result) if args.profile is not None else None
    if report is not None and args.profile:
        files[args.profile] = report.trace_json()
    lines, ok = (_check(kernel, inputs, result.outputs, args.check or None)
                 if args.check is not None else ([], True))
    write_files(files)
    if report is not None:
        lines.insert(0, report.summary())
    if not (files or lines):
        lines = [f"hswc-run: result {i + 1} of @{kernel.function}: {v.dtype} array of shape "
                 f"{v.shape}" for i, v in enumerate(result.outputs)]
        lines.append("hswc-run: nothing written (give --output FILE.npy to keep a result)")
    if lines:
        print("\n".join(lines))
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-run; returns the exit code."""
    return exit_status(lambda: _main(argv))


def _main(argv: Sequence[str] | None) -> int:
    with importing():  # the runner: xDSL, the dialects, the passes, the interpreter
        import hswc.runner  # noqa: F401
    args = _parser().parse_args(argv)
    from hswc.runner import RunnerError

    try:
        return run(args)
    except (RunnerError, OutputError) as error:
        return report("hswc-run", str(error))
    except MemoryError as error:
        return report("hswc-run", f"out of memory: {error}")
    except RecursionError:
        return report("hswc-run", TOO_DEEP)
    except Exception as error:  # the contract: one line, never a traceback
        return report("hswc-run", f"internal error: {type(error).__name__}: {error}")


if __name__ == "__main__":
    sys.exit(main())
