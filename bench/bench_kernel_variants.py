"""The reference kernel next to the best kernel variant, in the cost model (hswc.cost_model).

For f16, bf16 and f32 and 2^10 .. 2^26 elements on a platform (default ascend910b: 48 vector
cores, 196608-byte UB, the figures of hswc.platform.CostFigures): the modelled time of the
reference structure (SPEC.md section 5, --lower-to-ascend) and of the best kernel variant, their
ratio, each one's fraction of the HBM roofline, UB bytes per element (the UB plan the tiling
divides by), and vector instructions per element (issued instructions, PipeBarriers not
counted). The best variant is the `fast` preset (every flag on); with `--search` it is the
fastest of all 31 non-reference combinations of the flags at each size (about 3 minutes).
Prints a table and the issue-5 goal check, and saves a plot.

    python bench/bench_kernel_variants.py [--plot /tmp/bench_kernel_variants.png] [--search]
                                          [--log2-sizes 10-26] [--soc ascend910b]

The plot needs matplotlib (`pip install matplotlib`); without it only the table is printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from functools import partial
from itertools import product

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from hswc.cost_model import Report
from hswc.op_plans import op_ub_plan
from hswc.pipeline import DIALECTS
from hswc.platform import DEFAULT_SOC, PLATFORMS, get_platform
from hswc.profiling import lower, profile
from hswc.vectorizer.schedule import FAST, FLAGS, REFERENCE, Schedule

hsg_plan = partial(op_ub_plan, "hard_swish_grad")
"""The UB plan of HardSwishGrad's kernel for a dtype and a schedule."""

DTYPES = ("f16", "bf16", "f32")
GOAL_LOG2 = 20
GOAL_FRACTION = 0.9


def module(dtype: str) -> ModuleOp:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return Parser(ctx, (
        f"func.func @hsg(%grad: tensor<?x{dtype}>, %x: tensor<?x{dtype}>) -> tensor<?x{dtype}> {{\n"
        f"  %y = hsg.hard_swish_grad %grad, %x : tensor<?x{dtype}>\n"
        f"  func.return %y : tensor<?x{dtype}>\n}}\n")).parse_module()


@dataclass
class Row:
    dtype: str
    log2: int
    reference: Report
    best: Report
    best_variant: Schedule

    @property
    def speedup(self) -> float:
        return self.reference.total_time / self.best.total_time


def per_element(report: Report, what: str) -> float:
    return getattr(report, what) / report.total_num


def sizes(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def measure(soc: str, log2_sizes: list[int], search: bool) -> list[Row]:
    platform = get_platform(soc)
    candidates = [FAST] if not search else [
        Schedule(*flags) for flags in product((False, True), repeat=len(FLAGS))
    ][1:]
    rows = []
    for dtype in DTYPES:
        high = module(dtype)
        reference = lower(high, REFERENCE)
        variants = [(v, lower(high, v)) for v in candidates]
        for log2 in log2_sizes:
            n = 1 << log2
            ref = profile(reference, n, platform=platform, variant=REFERENCE)
            tried = [(profile(m, n, platform=platform, variant=v), v) for v, m in variants]
            best, variant = min(tried, key=lambda t: t[0].total_time)
            rows.append(Row(dtype, log2, ref, best, variant))
    return rows


def table(rows: list[Row]) -> str:
    head = (f"{'dtype':<5} {'n':>5} | {'ref us':>9} {'best us':>9} {'speedup':>7} | "
            f"{'ref roof':>8} {'best roof':>9} | {'UB B/el ref':>11} {'best':>4} | "
            f"{'vec ins/el ref':>14} {'best':>8} | best variant")
    lines = [head, "-" * len(head)]
    for r in rows:
        ref_plan = hsg_plan(r.dtype, REFERENCE).bytes_per_element
        best_plan = hsg_plan(r.dtype, r.best_variant).bytes_per_element
        name = "fast" if r.best_variant == FAST else r.best_variant.describe()
        lines.append(
            f"{r.dtype:<5} {'2^' + str(r.log2):>5} | {r.reference.total_time * 1e6:9.3f} "
            f"{r.best.total_time * 1e6:9.3f} {r.speedup:7.2f} | "
            f"{r.reference.roofline_fraction:8.1%} {r.best.roofline_fraction:9.1%} | "
            f"{ref_plan:11d} {best_plan:4d} | "
            f"{per_element(r.reference, 'vector_instructions'):14.5f} "
            f"{per_element(r.best, 'vector_instructions'):8.5f} | {name}")
    return "\n".join(lines)


def goal(rows: list[Row]) -> tuple[bool, str]:
    """Issue 5: within 10% of the roofline from 2^20, faster everywhere, leaner UB."""
    big = [r for r in rows if r.log2 >= GOAL_LOG2]
    worst = min((r.best.roofline_fraction for r in big), default=float("nan"))
    slowest = min(r.speedup for r in rows)
    leaner = all(hsg_plan(r.dtype, r.best_variant).bytes_per_element
                 < hsg_plan(r.dtype, REFERENCE).bytes_per_element for r in rows)
    ok = (not big or worst >= GOAL_FRACTION) and slowest > 1.0 and leaner
    worst_text = f"worst {worst:.1%}" if big else "no such size measured"
    text = (f"goal: best variant >= {GOAL_FRACTION:.0%} of the HBM roofline for n >= "
            f"2^{GOAL_LOG2}: {'yes' if not big or worst >= GOAL_FRACTION else 'NO'} "
            f"({worst_text}); faster than the reference at every size: "
            f"{'yes' if slowest > 1 else 'NO'} (smallest speedup {slowest:.2f}x); fewer UB "
            f"bytes per element: {'yes' if leaner else 'NO'}")
    return ok, text


def plot(rows: list[Row], path: str, soc: str) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no plot: matplotlib is not installed (pip install matplotlib)"
    fig, axes = plt.subplots(2, len(DTYPES), figsize=(15, 8), sharex=True)
    for column, dtype in enumerate(DTYPES):
        mine = [r for r in rows if r.dtype == dtype]
        n = [1 << r.log2 for r in mine]
        top, bottom = axes[0][column], axes[1][column]
        top.loglog(n, [r.reference.total_time * 1e6 for r in mine], "o-", label="reference")
        top.loglog(n, [r.best.total_time * 1e6 for r in mine], "s-", label="best variant")
        top.loglog(n, [r.best.roofline_time * 1e6 for r in mine], "k--", label="HBM roofline")
        top.set_title(f"{dtype} on {soc}")
        top.set_ylabel("modelled time (us)")
        top.legend()
        bottom.semilogx(n, [r.reference.roofline_fraction * 100 for r in mine], "o-",
                        label="reference")
        bottom.semilogx(n, [r.best.roofline_fraction * 100 for r in mine], "s-",
                        label="best variant")
        bottom.axhline(GOAL_FRACTION * 100, color="k", linestyle=":", label="goal (90%)")
        bottom.set_ylim(0, 105)
        bottom.set_xlabel("elements")
        bottom.set_ylabel("% of the HBM roofline")
        bottom.legend(loc="lower right")
        for ax in (top, bottom):
            ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("HardSwishGrad: reference kernel vs best variant (hswc cost model)")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as error:
        return f"no plot: cannot write '{path}': {error.strerror or error}"
    return f"plot written to {path}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", default="/tmp/bench_kernel_variants.png", metavar="PNG")
    parser.add_argument("--log2-sizes", default="10-26", metavar="LOW-HIGH")
    parser.add_argument("--soc", default=DEFAULT_SOC, choices=sorted(PLATFORMS))
    parser.add_argument("--search", action="store_true",
                        help="the best of every variant at each size, not the `fast` preset")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = measure(args.soc, sizes(args.log2_sizes), args.search)
    print(table(rows))
    ok, text = goal(rows)
    print(text)
    print(plot(rows, args.plot, args.soc))
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
