"""Compile time against input size: parse + lower of long chains, linear or not.

The input is one function holding a chain of named ops, each using the previous result: the
four unary ops hsg.leaky_relu (with its attribute), hsg.hardtanh, hsg.hard_swish and
hsg.softshrink in turn, and every fifth op an hsg.hard_swish_grad whose x is the function's
second argument (so one value has a fifth of the chain as its users). About 55 bytes an op:
1 MB is some 19,000 ops.

Each input runs in a fresh process (`--child`), which reports the CPU seconds of each stage
(other load on the machine does not count): parse (hswc's LocatingParser), verify (with
dominance), the --lower-to-ascend passes each followed by a verification unless it marked the
module unchanged, and the module frozen out of the garbage collector's walks, as hswc-opt runs
them, and printing the result. `--no-fuse` leaves out hsg-fuse-elementwise (one kernel per op;
the kernels of equal ops are shared); the default runs both ways. A run that takes longer than
`--timeout` seconds is stopped and reported as such; a larger input of the same kind is then
skipped. Printed per input: ops, MB, each stage, the total, the total per 1000 ops, and the
ratio of the total to the previous input's (goal, issue 20: at most 11x per 10x).

    python bench/bench_scaling.py [--chains 1000,10000,100000] [--sizes-mb 1,10,100]
                                  [--fuse both|yes|no] [--timeout 900]
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPE = "tensor<?xf16>"
UNARY = ("hsg.leaky_relu %v{i} {{negative_slope = 2.000000e-01 : f32}}", "hsg.hardtanh %v{i}",
         "hsg.hard_swish %v{i}", "hsg.softshrink %v{i}")


def chain_text(ops: int) -> str:
    """`@chain(%v0, %x)`: `ops` named ops, each on the previous one's result."""
    lines = [f"func.func @chain(%v0: {TYPE}, %x: {TYPE}) -> {TYPE} {{"]
    for i in range(ops):
        op = (f"hsg.hard_swish_grad %v{i}, %x" if i % 5 == 4
              else UNARY[i % 5].format(i=i))
        lines.append(f"  %v{i + 1} = {op} : {TYPE}")
    lines += [f"  func.return %v{ops} : {TYPE}", "}", ""]
    return "\n".join(lines)


def ops_for_megabytes(megabytes: float) -> int:
    """The chain length whose text is `megabytes` MB."""
    per_op = len(chain_text(1000)) / 1000
    return max(1, round(megabytes * 2**20 / per_op))


def child(path: str, fuse: bool) -> None:
    """Compile `path` as hswc-opt --lower-to-ascend does; print each stage's CPU seconds."""
    from xdsl.printer import Printer

    from hswc.diagnostics import LocatingParser
    from hswc.passes import take_unchanged
    from hswc.pipeline import LOWER_TO_ASCEND, PASSES
    from hswc.pipeline import context as _context
    from hswc.tools import startup
    from hswc.verification import verify_located

    with startup.importing():
        pass
    times: dict[str, float] = {}
    text = Path(path).read_text()
    start = time.process_time()

    def lap(name: str) -> None:
        nonlocal start
        now = time.process_time()
        times[name] = times.get(name, 0.0) + now - start
        start = now

    ctx = _context()
    module = LocatingParser(ctx, text, path).parse_module()
    lap("parse")
    verify_located(module)
    lap("verify")
    startup.between_passes()
    for name in LOWER_TO_ASCEND:
        if name == "hsg-fuse-elementwise" and not fuse:
            continue
        PASSES[name]()().apply(ctx, module)
        lap(name)
        if not take_unchanged(module):  # as hswc-opt: a pass that changed nothing is not
            verify_located(module)  # verified again
        startup.between_passes()
        lap("verify")
    Printer(stream=io.StringIO()).print_op(module)
    lap("print")
    times["peak MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(times))


STAGES = ("parse", "verify", "hsg-generalize-named", "hsg-decompose",
          "hsg-fold-constant-operands", "hsg-exact-f64", "hsg-widen-bf16", "hsg-fuse-elementwise",
          "hsg-tile-on-cores", "hsg-block-into-ub", "convert-hsg-to-ascend", "print")
SHORT = {"hsg-generalize-named": "general", "hsg-decompose": "decomp",
         "hsg-fold-constant-operands": "fold", "hsg-exact-f64": "f64", "hsg-widen-bf16": "bf16",
         "hsg-fuse-elementwise": "fuse",
         "hsg-tile-on-cores": "tile", "hsg-block-into-ub": "block",
         "convert-hsg-to-ascend": "convert"}


def measure(ops: int, fuse: bool, timeout: float, folder: Path) -> dict[str, float] | str:
    """The child's stage times for a chain of `ops`, or why there are none."""
    path = folder / f"chain{ops}.mlir"
    path.write_text(chain_text(ops))
    command = [sys.executable, __file__, "--child", str(path)] + ([] if fuse else ["--no-fuse"])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return f"stopped after {timeout:.0f} s"
    finally:
        path.unlink()
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return f"failed: {last[:100]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(title: str, lengths: list[tuple[str, int]], fuse: bool, timeout: float) -> None:
    print(f"\n{title}, {'with' if fuse else 'without'} hsg-fuse-elementwise (CPU s)")
    stages = [s for s in STAGES if fuse or s != "hsg-fuse-elementwise"]
    print(f"{'input':>9} {'ops':>8} {'MB':>6} " + " ".join(f"{SHORT.get(s, s):>7}" for s in stages)
          + f" {'total':>8} {'s/1k ops':>8} {'x prev':>7} {'peak MB':>8}")
    previous: float | None = None
    with tempfile.TemporaryDirectory() as folder:
        for label, ops in lengths:
            megabytes = len(chain_text(ops)) / 2**20
            result = measure(ops, fuse, timeout, Path(folder))
            head = f"{label:>9} {ops:8d} {megabytes:6.2f} "
            if isinstance(result, str):
                print(head + result + "; larger inputs skipped")
                return
            total = sum(result.get(s, 0.0) for s in stages)
            ratio = f"{total / previous:7.2f}" if previous else f"{'':>7}"
            print(head + " ".join(f"{result.get(s, 0.0):7.2f}" for s in stages)
                  + f" {total:8.2f} {total / ops * 1000:8.3f} {ratio} {result['peak MB']:8.0f}")
            previous = total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chains", default="1000,10000,100000")
    parser.add_argument("--sizes-mb", default="1,10,100")
    parser.add_argument("--fuse", choices=("both", "yes", "no"), default="both")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--no-fuse", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, not args.no_fuse)
        return
    chains = [(f"{int(n)} ops", int(n)) for n in args.chains.split(",") if n]
    sizes = [(f"{mb} MB", ops_for_megabytes(float(mb))) for mb in args.sizes_mb.split(",") if mb]
    for fuse in {"both": (False, True), "yes": (True,), "no": (False,)}[args.fuse]:
        if chains:
            table("chains", chains, fuse, args.timeout)
        if sizes:
            table("inputs by size", sizes, fuse, args.timeout)


if __name__ == "__main__":
    main()
