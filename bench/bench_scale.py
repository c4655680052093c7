"""Compile time and memory at scale: hswc-opt's lowering next to xdsl-opt, 1,000 to 100,000 ops.

Three shapes of input, each at every size (`--ops`):
- fused: one function holding a chain of named ops, each on the previous one's result
  (bench_scaling.py's chain: leaky_relu, hardtanh, hard_swish, softshrink, and every fifth a
  hard_swish_grad whose x is an argument); hsg-fuse-elementwise makes it one kernel whose body
  has as many ops as the chain.
- unfused: functions of ten independent named ops each, every op on the function's two
  arguments and every result returned: nothing feeds anything, so every op is its own launch
  (equal ops share one kernel and one tiling).
- mixed: one function on `tensor<16x16xf32>` alternating an elementwise `linalg.generic` (a
  multiply-add) and a `linalg.transpose`: the partition makes each generic a kernel and leaves
  each transpose on the host.

Each file is run as whole processes, one after the other: `hswc-opt --lower-to-ascend FILE`
(to the ascend level; HSWC_CACHE_DIR a fresh folder for each run, so every schedule is chosen
anew) and stock `xdsl-opt FILE` (parse, verify and print of the same file through hswc's
dialects, registered by its `xdsl.universe` entry point: the floor of any xDSL tool). Printed
per input: CPU seconds (user + sys of the process, os.wait4) and peak resident memory of each,
hswc's KB of peak memory per op, the ratio hswc / xdsl-opt, and each tool's ratio of time to
the previous size's (per 10x). Goal lines (issue 40, item 4): at most 11x per 10x from the
first size to the last, fused and unfused; memory per op bounded. A process that runs longer
than `--timeout` seconds is stopped and the larger inputs of its shape skipped; a refusal (an
input too large for the machine's memory, hswc.memory_budget) is printed as hswc-opt's message.

    python bench/bench_scale.py [--ops 1000,10000,100000] [--shapes fused,unfused,mixed]
                                [--timeout 3600] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench_scaling import chain_text

UNARY = ("hsg.leaky_relu %g {{negative_slope = {slope} : f32}}", "hsg.hardtanh %g",
         "hsg.hard_swish %g", "hsg.softshrink %g", "hsg.hard_swish_grad %g, %x")
"""The named ops of the unfused input, in turn (every op reads the function's arguments)."""

PER_FUNCTION = 10
MIXED = "tensor<16x16xf32>"
MAP = "affine_map<(d0, d1) -> (d0, d1)>"


def fused_text(ops: int) -> str:
    """One chain of `ops` named ops: one fused kernel."""
    return chain_text(ops)


def unfused_text(ops: int) -> str:
    """`ops` independent named ops, ten to a function: one launch each."""
    t = "tensor<?xf16>"
    lines = []
    for f in range(0, ops, PER_FUNCTION):
        count = min(PER_FUNCTION, ops - f)
        lines.append(f"func.func @f{f}(%g: {t}, %x: {t}) -> ({', '.join([t] * count)}) {{")
        for i in range(count):
            op = UNARY[(f + i) % len(UNARY)].format(slope=f"{0.01 * (i + 1):e}")
            lines.append(f"  %y{i} = {op} : {t}")
        lines.append(f"  func.return {', '.join(f'%y{i}' for i in range(count))} : "
                     f"{', '.join([t] * count)}")
        lines.append("}")
    return "\n".join(lines) + "\n"


def mixed_text(ops: int) -> str:
    """`ops` ops alternating an elementwise generic (a kernel) and a transpose (the host)."""
    t = MIXED
    lines = [f"func.func @mixed(%v0: {t}) -> {t} {{",
             "  %c = arith.constant 5.000000e-01 : f32",
             f"  %e = tensor.empty() : {t}"]
    for i in range(ops):
        a, b = f"%v{i}", f"%v{i + 1}"
        if i % 2:
            lines.append(f"  {b} = linalg.transpose ins({a} : {t}) outs(%e : {t}) "
                         "permutation = [1, 0]")
            continue
        lines += [
            f"  {b} = linalg.generic {{indexing_maps = [{MAP}, {MAP}], iterator_types = "
            f"[\"parallel\", \"parallel\"]}} ins({a} : {t}) outs(%e : {t}) {{",
            "  ^bb0(%in: f32, %out: f32):",
            "    %m = arith.mulf %in, %c : f32",
            "    %s = arith.addf %m, %in : f32",
            "    linalg.yield %s : f32",
            f"  }} -> {t}"]
    lines += [f"  func.return %v{ops} : {t}", "}"]
    return "\n".join(lines) + "\n"


SHAPES = {"fused": fused_text, "unfused": unfused_text, "mixed": mixed_text}


@dataclass(frozen=True)
class Run:
    """One process: CPU seconds, peak resident MB, and why it has no figures (or '')."""

    cpu: float
    peak_mb: float
    failed: str = ""


def run(command: list[str], env: dict[str, str], timeout: float) -> Run:
    """`command` run to its end (stdout discarded): its CPU time and peak memory (os.wait4)."""
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - started > timeout:
            process.kill()
            _, status, usage = os.wait4(process.pid, 0)
            return Run(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                       f"stopped after {timeout:.0f} s")
        time.sleep(0.05)
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
    failed = ""
    if process.returncode:
        failed = (error.strip().splitlines() or [f"exit {process.returncode}"])[-1][:160]
    return Run(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, failed)


def per_step(now: float, before: float | None) -> str:
    return f"{now / before:7.2f}" if before else f"{'':>7}"


def shape_table(shape: str, sizes: list[int], timeout: float, folder: Path
                ) -> list[tuple[int, Run, Run]]:
    """The runs of every size of `shape` (stopping at the first that fails)."""
    print(f"\n{shape} (CPU s; peak MB; hswc's KB of peak memory per op)")
    print(f"{'ops':>7} {'MB':>6} {'hswc':>8} {'xdsl-opt':>8} {'hswc/x':>7} {'hswc x10':>8} "
          f"{'xdsl x10':>8} {'hswc MB':>8} {'xdsl MB':>8} {'KB/op':>7}")
    rows: list[tuple[int, Run, Run]] = []
    for ops in sizes:
        path = folder / f"{shape}{ops}.mlir"
        path.write_text(SHAPES[shape](ops))
        megabytes = path.stat().st_size / 2**20
        cache = folder / f"cache-{shape}{ops}"
        env = dict(os.environ, HSWC_CACHE_DIR=str(cache))
        hswc = run(["hswc-opt", "--lower-to-ascend", str(path)], env, timeout)
        xdsl = run(["xdsl-opt", str(path)], env, timeout)
        head = f"{ops:7d} {megabytes:6.2f} "
        if hswc.failed or xdsl.failed:
            print(head + "; ".join(f"{name}: {r.failed or 'ok'} ({r.cpu:.2f} CPU s, peak "
                                   f"{r.peak_mb:.0f} MB)" for name, r in
                                   (("hswc-opt", hswc), ("xdsl-opt", xdsl)))
                  + "; larger inputs skipped", flush=True)
            break
        before = rows[-1] if rows else None
        print(head + f"{hswc.cpu:8.2f} {xdsl.cpu:8.2f} {hswc.cpu / xdsl.cpu:7.2f} "
              f"{per_step(hswc.cpu, before[1].cpu if before else None):>8} "
              f"{per_step(xdsl.cpu, before[2].cpu if before else None):>8} "
              f"{hswc.peak_mb:8.0f} {xdsl.peak_mb:8.0f} {hswc.peak_mb * 1024 / ops:7.1f}",
              flush=True)
        rows.append((ops, hswc, xdsl))
    return rows


def goal(shape: str, rows: list[tuple[int, Run, Run]]) -> None:
    if len(rows) < 2:
        print(f"goal ({shape}): fewer than two sizes measured")
        return
    (first, a, _), (last, b, _) = rows[0], rows[-1]
    steps = len(str(last)) - len(str(first))  # powers of ten between them
    per_10x = (b.cpu / a.cpu) ** (1 / steps) if steps else b.cpu / a.cpu
    print(f"goal ({shape}): {first} -> {last} ops, {per_10x:.2f}x per 10x (<= 11x: "
          f"{'met' if per_10x <= 11 else 'NOT met'}); KB per op {a.peak_mb * 1024 / first:.1f}"
          f" -> {b.peak_mb * 1024 / last:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default="1000,10000,100000")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--timeout", type=float, default=3600.0,
                        help="wall seconds a process may run before it is stopped (on a loaded "
                        "machine give it room: the figures are CPU seconds)")
    parser.add_argument("--keep", help="write the inputs into this folder and keep them")
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.ops.split(",") if v]
    shapes = [s for s in args.shapes.split(",") if s]
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        parser.error(f"unknown shape '{unknown[0]}' (shapes: {', '.join(SHAPES)})")
    print(f"load average {os.getloadavg()[0]:.2f} at the start, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="hswc-bench-scale-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        results = {shape: shape_table(shape, sizes, args.timeout, folder) for shape in shapes}
    print()
    for shape, rows in results.items():
        goal(shape, rows)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
