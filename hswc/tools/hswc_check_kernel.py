"""hswc-check-kernel: run a hand-written AscendC kernel against hswc's semantics, bit for bit.

    hswc-check-kernel KERNEL (--op hsg.<op> [--attr NAME=VALUE ...] | --reference FILE.mlir)
        [--tiling-struct NAME] [--tiling [DTYPE:]NAME=VALUE,... | --tiling-function MOD:FUNC]
        [--template-args [DTYPE:]ARGS] [--soc SOC] [--entry NAME] [--dtypes f16,bf16,f32]
        [--sizes N,...] [--input NPY ...] ...

KERNEL is an op_kernel directory (or an ops-nn operator directory, or one .cpp). Its sources are
compiled unchanged against hswc/checker/ascendc_cpu (g++), once per dtype; every run launches the
entry on each core of the launch with the tiling values, on generated inputs (every f16/bf16 bit
pattern, f32 around the reference's thresholds, special values, sizes around each tail and core
boundary of the tiling) or on the --input files, and compares every output bit for bit with the
reference. The report gives, per dtype and size, the mismatches (values, signs of zero, NaN class)
with the first differing elements in hex, and every hardware rule the kernel broke, each naming its
AscendC call. Exit status 0 only when every run is bit-exact and no rule broke; 1 otherwise, and for
bad input (one message, no traceback).

Options that take `DTYPE:` before their value (`--tiling f16:ubFactor=4096`, `--template-args
bf16:bfloat16_t,1`, `-D f32:X=1`, `--tiling-key f16:3`) apply to that dtype only; `{T}` in
template arguments and -D values is the dtype's AscendC type (half, bfloat16_t, float).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hswc.tools.cli import add_version_option, exit_status, report

TOOL = "hswc-check-kernel"


def _parser() -> argparse.ArgumentParser:
    from hswc.checker.sizes import DEFAULT_LIMIT
    from hswc.checker.time_limits import DEFAULT_TIMEOUT, MAX_TIMEOUT
    from hswc.platform import DEFAULT_SOC, PLATFORMS

    p = argparse.ArgumentParser(
        prog=TOOL, description="Run a hand-written AscendC kernel on the CPU model of AscendC "
        "and compare it bit for bit with hswc's semantics.")
    add_version_option(p)
    p.add_argument("kernel", nargs="?",
                   help="op_kernel directory, ops-nn operator directory or .cpp file")
    p.add_argument("--sweep", metavar="OPS_NN_DIR",
                   help="check every op folder below OPS_NN_DIR against the hsg op or generic it "
                        "maps to, on each SoC its definition configures (or --soc if given), "
                        "report those hswc cannot express yet, and print one table")
    ref = p.add_argument_group("the reference")
    ref.add_argument("--op", metavar="hsg.OP", help="a named op of the family (FAMILY.md), or "
                     "gelu_quant (ops-nn's GeluQuant: hswc.checker.quantized; its static "
                     "mode with --attr quant_mode=static, per tensor with scales=tensor)")
    ref.add_argument("--attr", action="append", default=[], metavar="NAME=VALUE",
                     help="an attribute of --op; with --reference, of the op folder's "
                          "definition, for its tiling (repeat for each)")
    ref.add_argument("--reference", metavar="FILE.mlir",
                     help="a module holding the computation (hsg ops or linalg.generic), one "
                          "function per dtype")
    ref.add_argument("--function", metavar="NAME", help="the function of --reference to use")
    ref.add_argument("--semantics", help="the semantics of the named ops (default: each op's)")
    kernel = p.add_argument_group("the kernel")
    kernel.add_argument("--entry", help="the __global__ function (default: the only one)")
    kernel.add_argument("--kernel-inputs", metavar="NAME,...",
                        help="the reference inputs the kernel's GM inputs take, in the kernel's "
                             "order (default: the reference's order)")
    kernel.add_argument("--template-args", action="append", default=[], metavar="[DTYPE:]ARGS",
                        help="the entry's template arguments (default: {T} for a type, 0 for a "
                             "value)")
    kernel.add_argument("-D", "--define", action="append", default=[], metavar="[DTYPE:]NAME=V",
                        help="a macro for the build (DTYPE_* macros the sources use are defined "
                             "as the dtype already)")
    kernel.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                        help="another include directory")
    kernel.add_argument("--include", action="append", default=[], metavar="FILE",
                        help="a header to include before the kernel (g++ -include)")
    kernel.add_argument("--cxx", help="the C++ compiler (default $CXX, else g++)")
    tiling = p.add_argument_group("the tiling")
    tiling.add_argument("--tiling-struct", metavar="NAME",
                        help="the tiling struct (default: the one GET_TILING_DATA_WITH_STRUCT "
                             "names)")
    tiling.add_argument("--tiling", action="append", default=[], metavar="[DTYPE:]K=V,...",
                        help="fixed tiling field values")
    tiling.add_argument("--tiling-function", metavar="MODULE:FUNCTION",
                        help="a Python function(total, core_num, ub_size, dtype) returning the "
                             "tiling fields and block_dim (tiling_key, template_args optional)")
    tiling.add_argument("--block-dim", type=int, metavar="N", help="cores to launch")
    tiling.add_argument("--tiling-key", action="append", default=[], metavar="[DTYPE:]K",
                        help="what TILING_KEY_IS compares with (default 0)")
    runs = p.add_argument_group("the runs")
    runs.add_argument("--soc", default=DEFAULT_SOC,
                      help=f"{', '.join(sorted(PLATFORMS))} (default {DEFAULT_SOC})")
    runs.add_argument("--core-num", type=int, metavar="N", help="override the SoC's AIV cores")
    runs.add_argument("--ub-size", type=int, metavar="BYTES", help="override the SoC's UB bytes")
    runs.add_argument("--dtypes", metavar="LIST", help="f16,bf16,f32 (default: every dtype "
                      "the reference has)")
    runs.add_argument("--sizes", metavar="N,...", help="tensor sizes to run (default: around "
                      "the tiling's boundaries)")
    runs.add_argument("--max-size", type=int, default=DEFAULT_LIMIT, metavar="N",
                      help=f"the largest default size (default {DEFAULT_LIMIT})")
    runs.add_argument("--input", action="append", default=[], metavar="NPY",
                      help="run once on these arrays, one per reference input, in order")
    runs.add_argument("--ignore-nan-inputs", metavar="NAME,...",
                      help="leave out elements where one of these reference inputs is NaN "
                           "(outside the contract, as NaN x is for the family: FAMILY.md)")
    runs.add_argument("--tolerance", metavar="MODE",
                      help="bits, torch (torch.testing.assert_close's default tolerances) or "
                           "ulp:N (default: bits, and torch for the exponential activations)")
    runs.add_argument("--first", type=int, default=4, metavar="N",
                      help="differing elements of each kind shown (default 4)")
    runs.add_argument("--jobs", type=int, metavar="N", help="runs at once (default: CPUs)")
    runs.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="S",
                      help="seconds each step may take: a run of the kernel, a run of the op's "
                           "tiling or a call of the tiling function, a build unless "
                           "--build-timeout is given (default "
                           f"{DEFAULT_TIMEOUT:g}, at most {MAX_TIMEOUT:g})")
    runs.add_argument("--build-timeout", type=_seconds, metavar="S",
                      help="seconds each compiler command (a build, a preprocessing) may take "
                           "(default: --timeout)")
    runs.add_argument("--record-gm-reads", action="store_true",
                      help="report a GM read past a tensor's end as a broken rule and go on, so "
                           "that the run's values are still compared (default: it stops the "
                           "run)")
    runs.add_argument("--record-rules", action="store_true",
                      help="as --record-gm-reads, and also for every other broken rule the model "
                           "can go on after (a misaligned or short UB operand inside the UB, a "
                           "partial Compare repeat)")
    runs.add_argument("--auto-sync", choices=("on", "off"), default="on",
                      help="as BiSheng's --cce-auto-sync (default on, as the compiler's): off "
                           "takes the kernel as built without the compiler's automatic "
                           "synchronisation, so on Atlas A2/A3 two vector calls touching the "
                           "same UB bytes, one writing, need a PipeBarrier<PIPE_V> between them")
    runs.add_argument("--profile", action="store_true",
                      help="also time the largest run of the first dtype in the cost model, from "
                           "the call stream the CPU model records: after the verdict, 'modelled: "
                           "TOTAL us (MTE2 .. us, V .. us, MTE3 .. us, scalar .. us)'")
    runs.add_argument("--work-dir", metavar="DIR", help="keep the builds here (default: a "
                      "temporary directory, removed)")
    return p


def _seconds(text: str) -> float:
    """--timeout's type: argparse's one usage error for a value that is not a time limit."""
    from hswc.checker.time_limits import seconds

    try:
        return seconds(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _per_dtype(values: Sequence[str]) -> dict[str | None, list[str]]:
    from hswc.checker.dtypes import DTYPES

    out: dict[str | None, list[str]] = {}
    for v in values:
        head, sep, rest = v.partition(":")
        key = head if sep and head in DTYPES else None
        out.setdefault(key, []).append(rest if key else v)
    return out


def _options(args: argparse.Namespace) -> object:
    from hswc.checker.dtypes import parse_dtypes
    from hswc.checker.errors import CheckError
    from hswc.checker.options import CheckOptions

    attrs = {}
    for item in args.attr:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise CheckError(f"--attr {item}: expected NAME=VALUE")
        attrs[name.strip()] = value.strip()
    keys: dict[str | None, int] = {}
    for dtype, texts in _per_dtype(args.tiling_key).items():
        for text in texts:
            try:
                keys[dtype] = int(text, 0)
            except ValueError:
                raise CheckError(f"--tiling-key {text}: not an integer") from None
    try:
        dtypes = parse_dtypes(args.dtypes) if args.dtypes else None
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    except ValueError as error:
        raise CheckError(f"--dtypes/--sizes: {error}") from None
    if sizes is not None and any(n < 1 for n in sizes):
        raise CheckError("--sizes: every size must be at least 1")
    for name, value, least in (("--block-dim", args.block_dim, 1), ("--first", args.first, 0),
                               ("--jobs", args.jobs, 1), ("--max-size", args.max_size, 1)):
        if value is not None and value < least:
            raise CheckError(f"{name} must be at least {least}, got {value}")
    return CheckOptions(
        kernel=args.kernel, op=args.op, attrs=attrs, reference=args.reference,
        function=args.function, semantics=args.semantics, entry=args.entry,
        tiling_struct=args.tiling_struct, tiling=_per_dtype(args.tiling),
        tiling_function=args.tiling_function, block_dim=args.block_dim, tiling_key=keys,
        template_args=_per_dtype(args.template_args), defines=_per_dtype(args.define),
        include_dirs=args.include_dir, forced_includes=args.include,
        kernel_inputs=args.kernel_inputs.split(",") if args.kernel_inputs else None,
        ignore_nan_inputs=args.ignore_nan_inputs.split(",") if args.ignore_nan_inputs else (),
        tolerance=args.tolerance,
        soc=args.soc, core_num=args.core_num, ub_size=args.ub_size, dtypes=dtypes,
        sizes=sizes, max_size=args.max_size, input_files=args.input, first=args.first,
        jobs=args.jobs, timeout=args.timeout, build_timeout=args.build_timeout,
        record_gm_reads=args.record_gm_reads, record_rules=args.record_rules,
        auto_sync=args.auto_sync == "on", profile=args.profile, cxx=args.cxx,
        work_dir=args.work_dir)


def _sweep(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from pathlib import Path

    from hswc.checker.errors import CheckError
    from hswc.checker.sweep import SWEEP_LIMIT, sweep, table
    from hswc.progress import Progress

    if args.kernel is not None or args.op is not None:
        return report(TOOL, "--sweep checks every op folder it finds: give no KERNEL or --op")
    root = Path(args.sweep)
    if not root.is_dir():
        return report(TOOL, f"--sweep {root}: no such directory")
    args.kernel = str(root)
    if "--max-size" not in argv:
        args.max_size = SWEEP_LIMIT
    try:
        base = _options(args)
        socs = (args.soc,) if "--soc" in argv else None
        with Progress(0, f"{TOOL} --sweep") as progress:  # a line on a terminal, else quiet
            rows = sweep(root, base, socs, progress)  # type: ignore[arg-type]
    except CheckError as error:
        return report(TOOL, str(error))
    print(table(rows))
    return 0 if all(r.verdict.startswith("bit-exact") for r in rows) else 1


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    from hswc.checker.check import check
    from hswc.checker.errors import CheckError

    if args.sweep is not None:
        return _sweep(args, list(sys.argv[1:] if argv is None else argv))
    if args.kernel is None:
        return report(TOOL, "give the KERNEL (or --sweep OPS_NN_DIR)")
    try:
        result = check(_options(args))  # type: ignore[arg-type]
    except CheckError as error:
        return report(TOOL, str(error))
    print(result.format())
    return 0 if result.passed else 1


def run(argv: Sequence[str] | None = None) -> int:
    """The tool's exit status for `argv` (default: the command line)."""
    return exit_status(lambda: _main(argv))


def main() -> None:
    sys.exit(run())


if __name__ == "__main__":
    main()
