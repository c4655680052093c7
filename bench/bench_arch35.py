"""The two Ascend 950 (ops-nn arch35) HardSwishGrad kernels side by side, in the cost model.

The arch35 lowering (`hsg-decompose{semantics=cann-arch35}`, the `arch35` schedule preset) builds
a depth-1 and a depth-2 kernel per dtype; the host tiling launches the depth-2 one above 1024
elements. For f16, bf16 and f32 and each size (default 2^16, 2^20, 2^24) this prints the modelled
time of both kernels on the platform (default ascend950: 64 cores, 248 KB of UB, the figures of
hswc.platform.ASCEND950_COST_FIGURES, mostly the A2 core's), each one's fraction of the HBM
roofline and ubFactor, the depth-1 / depth-2 time ratio, and the kernel the tiling picks.

    python bench/bench_arch35.py [--log2-sizes 16,20,24] [--soc ascend950]
"""

from __future__ import annotations

import argparse

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from hswc.cost_model import Report
from hswc.dialects import hsg
from hswc.pipeline import DIALECTS
from hswc.profiling import profile
from hswc.runner import compile_module
from hswc.tiling import DOUBLE_BUFFER_ABOVE

DTYPES = ("f16", "bf16", "f32")


def module(dtype: str) -> ModuleOp:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    t = f"tensor<?x{dtype}>"
    return Parser(ctx, (f"func.func @hsg(%grad: {t}, %x: {t}) -> {t} {{\n"
                        f"  %y = hsg.hard_swish_grad %grad, %x : {t}\n"
                        f"  func.return %y : {t}\n}}\n")).parse_module()


def kernels(dtype: str, soc: str) -> dict[int, func.FuncOp]:
    """The lowered kernels by queue depth (hsg.queue_depth)."""
    lowered = compile_module(module(dtype), soc=soc, semantics="cann-arch35").module
    found: dict[int, func.FuncOp] = {}
    for op in lowered.body.block.ops:
        depth = op.attributes.get(hsg.QUEUE_DEPTH_ATTR) if isinstance(op, func.FuncOp) else None
        if isinstance(op, func.FuncOp) and depth is not None:
            found[int(str(depth).split(":")[0])] = op
    if sorted(found) != [1, 2]:
        raise SystemExit(f"bench_arch35: expected a depth-1 and a depth-2 {dtype} kernel on "
                         f"{soc}, got depths {sorted(found)}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--log2-sizes", default="16,20,24")
    parser.add_argument("--soc", default="ascend950")
    args = parser.parse_args()
    sizes = [int(s) for s in args.log2_sizes.split(",")]
    print(f"{'dtype':5} {'size':>5} | {'depth-1 us':>11} {'roof':>5} {'ubFactor':>8} | "
          f"{'depth-2 us':>11} {'roof':>5} {'ubFactor':>8} | {'d1/d2':>5} | picked")
    for dtype in DTYPES:
        by_depth = kernels(dtype, args.soc)
        for log2 in sizes:
            total = 1 << log2
            reports: dict[int, Report] = {d: profile(k, total, platform=args.soc)
                                          for d, k in by_depth.items()}
            one, two = reports[1], reports[2]
            picked = 2 if total > DOUBLE_BUFFER_ABOVE else 1
            print(f"{dtype:5} {'2^' + str(log2):>5} | {one.total_time * 1e6:11.2f} "
                  f"{one.roofline_fraction:5.0%} {one.tiling.ub_factor:8d} | "
                  f"{two.total_time * 1e6:11.2f} {two.roofline_fraction:5.0%} "
                  f"{two.tiling.ub_factor:8d} | {one.total_time / two.total_time:5.2f} | "
                  f"depth {picked}")


if __name__ == "__main__":
    main()
