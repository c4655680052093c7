"""Fused against unfused chains of family ops, in the cost model (hswc.profiling.launches).

Chains of 2, 3 and 4 ops, each feeding the next (the first is HardSwishGrad, the second a user's
`mulf` with a third tensor, then LeakyReLU, then Hardtanh), are lowered twice with the reference
schedule: with hsg-fuse-elementwise (one kernel reading the chain's inputs once and writing one
result) and without it (one kernel per op, each intermediate result written to HBM and read
back). Printed for each chain, dtype and size: the launches, the modelled time of all launches
and their GM traffic, unfused and fused, and the ratios unfused / fused (above 1: fusion wins).
The fused kernel is also run by the interpreter once and checked bit for bit against the
unfused chain (on 2^16 elements).

    python bench/bench_fusion.py [--log2-sizes 20,24] [--dtypes f16,bf16,f32] [--soc ascend910b]

Kernel launch overhead is not modelled (a few microseconds per launch on a real NPU), so the
gain shown is the saved HBM traffic and per-launch pipeline fill only: a lower bound.
"""

from __future__ import annotations

import argparse
import sys

import ml_dtypes
import numpy as np

from hswc.platform import DEFAULT_SOC, PLATFORMS
from hswc.profiling.launches import Launches, profile_launches
from hswc.runner import Kernel, compile_text

DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
CHECK_ELEMENTS = 1 << 16


def _mul(dtype: str, t: str) -> list[str]:
    """`%1 = %0 * %s` as a user's generic (bf16 widened to f32: no bf16 vector math on A2)."""
    body = ([f"    %p = arith.mulf %a, %b : {dtype}"] if dtype != "bf16" else
            ["    %a32 = arith.extf %a : bf16 to f32", "    %b32 = arith.extf %b : bf16 to f32",
             "    %p32 = arith.mulf %a32, %b32 : f32", "    %p = arith.truncf %p32 : f32 to bf16"])
    return [
        "  %c0 = arith.constant 0 : index",
        f"  %n = tensor.dim %g, %c0 : {t}",
        f"  %e = tensor.empty(%n) : {t}",
        "  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, "
        "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} "
        f"ins(%0, %s : {t}, {t}) outs(%e : {t}) {{",
        f"  ^bb0(%a: {dtype}, %b: {dtype}, %o: {dtype}):",
        *body,
        f"    linalg.yield %p : {dtype}",
        f"  }} -> {t}",
    ]


def chain(length: int, dtype: str) -> str:
    """The first `length` ops of the chain as one function on tensor<?x<dtype>>."""
    t = f"tensor<?x{dtype}>"
    lines = [f"func.func @chain(%g: {t}, %x: {t}, %s: {t}) -> {t} {{",
             f"  %0 = hsg.hard_swish_grad %g, %x : {t}"]
    if length >= 2:
        lines += _mul(dtype, t)
    if length >= 3:
        lines.append(f"  %2 = hsg.leaky_relu %1 {{negative_slope = 0.01 : f32}} : {t}")
    if length >= 4:
        lines.append(f"  %3 = hsg.hardtanh %2 {{min_val = -1.0 : f32, max_val = 1.0 : f32}} : {t}")
    lines += [f"  func.return %{length - 1} : {t}", "}"]
    return "\n".join(lines)


def _checked(unfused: Kernel, fused: Kernel, dtype: str) -> bool:
    rng = np.random.default_rng(0)
    inputs = [(rng.standard_normal(CHECK_ELEMENTS) * 4).astype(DTYPES[dtype]) for _ in range(3)]
    a, b = np.asarray(unfused(*inputs)), np.asarray(fused(*inputs))
    return bool(np.array_equal(a.view(np.uint8), b.view(np.uint8)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--log2-sizes", default="20,24",
                        help="comma-separated log2 element counts (default 20,24)")
    parser.add_argument("--dtypes", default="f16,bf16,f32")
    parser.add_argument("--soc", default=DEFAULT_SOC, choices=sorted(PLATFORMS))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.log2_sizes.split(",")]
    dtypes = args.dtypes.split(",")
    if any(d not in DTYPES for d in dtypes):
        parser.error(f"--dtypes takes {', '.join(DTYPES)}")

    print(f"{'ops':>3} {'dtype':>5} {'elements':>9} | {'launches':>8} {'unfused us':>10} "
          f"{'fused us':>9} {'time x':>6} | {'unfused MB':>10} {'fused MB':>8} {'bytes x':>7} "
          "| bits")
    for length in (2, 3, 4):
        for dtype in dtypes:
            text = chain(length, dtype)
            unfused = compile_text(text, soc=args.soc, fuse=False)
            fused = compile_text(text, soc=args.soc)
            same = _checked(unfused, fused, dtype)
            for log2 in sizes:
                before: Launches = profile_launches(unfused.module, 1 << log2, platform=args.soc)
                after: Launches = profile_launches(fused.module, 1 << log2, platform=args.soc)
                print(f"{length:>3} {dtype:>5} {'2^' + str(log2):>9} | "
                      f"{len(before.reports):>3} -> {len(after.reports):<2} "
                      f"{before.total_time * 1e6:>10.2f} {after.total_time * 1e6:>9.2f} "
                      f"{before.total_time / after.total_time:>6.2f} | "
                      f"{before.gm_bytes / 1e6:>10.1f} {after.gm_bytes / 1e6:>8.1f} "
                      f"{before.gm_bytes / after.gm_bytes:>7.2f} | "
                      f"{'equal' if same else 'DIFFER'}")
            if not same:
                print(f"error: the fused {length}-op chain in {dtype} differs from the unfused "
                      "one", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
