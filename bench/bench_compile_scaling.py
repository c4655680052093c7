"""Compile time of a torch-mlir-style module against its size: is it linear?

The module is what torch-mlir's linalg-on-tensors backend writes for a stack of elementwise
layers: one `func.func @forward` of `linalg.generic` ops on `tensor<?xf32>`, each with its own
`tensor.empty` output, here in chains of four (multiply two of 16 arguments, add a bias
constant, ReLU as `maximumf` with 0, a clamp at 6 as `minimumf`), every chain's result
returned. hsg-fuse-elementwise fuses each chain into one kernel, so the module is N / 4
kernels whose bodies repeat (as a model's layers do): the schedule choice is made once per
distinct body. Printed per size: CPU seconds of a whole `hswc-opt
--lower-to-ascend` process, seconds per op, and the per-op time relative to the smallest size
(near 1.0: linear).

    python bench/bench_compile_scaling.py [--ops 250,500,1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

T = "tensor<?xf32>"
MAP = "affine_map<(d0) -> (d0)>"
ARGS = 16


def generic(out: str, ins: list[str], body: list[str], result: str) -> list[str]:
    maps = ", ".join([MAP] * (len(ins) + 1))
    names = ", ".join(f"%in{i}: f32" for i in range(len(ins)))
    return [
        f"  {out}_e = tensor.empty(%n) : {T}",
        f"  {out} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [\"parallel\"]}} "
        f"ins({', '.join(ins)} : {', '.join([T] * len(ins))}) outs({out}_e : {T}) {{",
        f"  ^bb0({names}, %o: f32):",
        *[f"    {line}" for line in body],
        f"    linalg.yield {result} : f32",
        f"  }} -> {T}",
    ]


def module(ops: int) -> str:
    args = ", ".join(f"%a{i}: {T}" for i in range(ARGS))
    results = ", ".join([T] * (ops // 4))
    lines = [f"func.func @forward({args}) -> ({results}) {{",
             "  %c0 = arith.constant 0 : index",
             f"  %n = tensor.dim %a0, %c0 : {T}"]
    outs = []
    for chain in range(ops // 4):
        a, b = f"%a{chain % ARGS}", f"%a{(chain + 1) % ARGS}"
        k = f"%v{chain}"
        lines += generic(f"{k}_mul", [a, b], ["%p = arith.mulf %in0, %in1 : f32"], "%p")
        lines += generic(f"{k}_add", [f"{k}_mul"], ["%b = arith.constant 0.125 : f32",
                                                     "%s = arith.addf %in0, %b : f32"], "%s")
        lines += generic(f"{k}_relu", [f"{k}_add"], ["%z = arith.constant 0.0 : f32",
                                                      "%r = arith.maximumf %in0, %z : f32"], "%r")
        lines += generic(f"{k}_clamp", [f"{k}_relu"], ["%six = arith.constant 6.0 : f32",
                                                        "%c = arith.minimumf %in0, %six : f32"],
                         "%c")
        outs.append(f"{k}_clamp")
    lines += [f"  func.return {', '.join(outs)} : {results}", "}"]
    return "\n".join(lines) + "\n"


def cpu(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", default="250,500,1000")
    parser.add_argument("--runs", type=int, default=3, help="runs per size (best counts)")
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.ops.split(",")]
    with tempfile.TemporaryDirectory(prefix="hswc-bench-scaling-") as tmp:
        env = dict(os.environ, HSWC_CACHE_DIR=str(Path(tmp) / "cache"))
        files = {}
        for ops in sizes:
            files[ops] = Path(tmp) / f"forward_{ops}.mlir"
            files[ops].write_text(module(ops))
        best: dict[int, float] = {}
        for _ in range(args.runs):
            for ops in sizes:
                t = cpu(["hswc-opt", "--lower-to-ascend", str(files[ops])], env)
                best[ops] = min(best.get(ops, t), t)
    first = sizes[0]
    print(f"{'ops':>6} {'kernels':>8} {'CPU s':>8} {'ms per op':>10} {'per op / first':>15}")
    for ops in sizes:
        per = best[ops] / ops
        print(f"{ops:6d} {ops // 4:8d} {best[ops]:8.2f} {per * 1e3:10.2f} "
              f"{per / (best[first] / first):15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
