"""Broadcast copy-in in the cost model: the element loop against row runs
(hswc.vectorizer.broadcast_copy), for a bias add and a per-row scale.

For `x + b` with b a bias of `row` elements (`(d0, d1) -> (d1)`) and `x * s` with s one value
per row (`(d0, d1) -> (d0, 0)`), on x of 2^16 .. 2^22 elements (rows of `row`, default 128) in
f16 and f32: the modelled time of one launch and its HBM roofline fraction, for the kernel
--lower-to-ascend writes (row runs: a DataCopyPad, or a GetValue + Duplicate, per row run) and
for the same kernel with the element loop (one GetValue + SetValue per element, then
PipeBarrier<PIPE_ALL>; CANN's blockFactor), built by making `row_runs` refuse every input, which
is what the compiler did before row runs. Both are chosen their default schedule by the cost
model on the platform (default ascend910b: 48 cores, 196608-byte UB).

Two roofline fractions: `roof` is the report's (the GM bytes the kernel moves over the time at
full HBM bandwidth; the element loop's GetValues move no bytes the model counts, the runs re-read
the bias for every row), `ess` the essential one, the same for both kernels: x read once, y
written once, the broadcast operand read once. `x` is the element loop's time over the runs'.

    python bench/bench_broadcast_copy.py [--log2-sizes 16,18,20,22] [--dtypes f16,f32]
                                         [--row 128] [--soc ascend910b]

The scalar figures (scalar_gm_read_cycles 100, scalar_ub_write_cycles 4, hswc.platform) are
assumptions; the model is deterministic.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

import hswc.passes.schedule_choice as schedule_choice
import hswc.vectorizer.broadcast_copy as broadcast_copy
from hswc.cost_model import Report
from hswc.diagnostics import LocatingParser
from hswc.pipeline import DIALECTS
from hswc.platform import DEFAULT_SOC, PLATFORMS, get_platform
from hswc.profiling import lower, profile
from hswc.tiling import ELEMENT_BYTES

CASES = {
    # name: (operand shape as a function of (rows, row), map, op)
    "bias add": (lambda rows, row: f"{row}", "d1", "addf"),
    "row scale": (lambda rows, row: f"{rows}x1", "d0, 0", "mulf"),
}


def module(case: str, rows: int, row: int, dtype: str) -> ModuleOp:
    shape, m, op = CASES[case]
    t_x = f"tensor<{rows}x{row}x{dtype}>"
    t_b = f"tensor<{shape(rows, row)}x{dtype}>"
    text = f"""
func.func @bench(%x: {t_x}, %b: {t_b}) -> {t_x} {{
  %e = tensor.empty() : {t_x}
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> ({m})>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}} ins(%x, %b : {t_x}, {t_b})
      outs(%e : {t_x}) {{
  ^bb0(%a: {dtype}, %c: {dtype}, %o: {dtype}):
    %r = arith.{op} %a, %c : {dtype}
    linalg.yield %r : {dtype}
  }} -> {t_x}
  func.return %y : {t_x}
}}
"""
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return LocatingParser(ctx, text, "<bench>").parse_module()


@contextmanager
def element_loop() -> Iterator[None]:
    """Every broadcast input keeps the element loop (and so CANN's blockFactor)."""
    with mock.patch.object(broadcast_copy, "row_runs",
                           lambda broadcast, i, dtype: "element loop: the bench's baseline"):
        yield


def copy_kind(low: ModuleOp) -> str:
    text = str(low)
    return "runs" if "row runs of" in text else "elements"


def essential(case: str, rows: int, row: int, dtype: str, report: Report) -> float:
    operand = row if case == "bias add" else rows
    nbytes = (2 * rows * row + operand) * ELEMENT_BYTES[dtype]
    return nbytes / report.figures.hbm_bytes_per_s / report.total_time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log2-sizes", default="16,18,20,22")
    parser.add_argument("--dtypes", default="f16,f32")
    parser.add_argument("--row", type=int, default=128)
    parser.add_argument("--soc", default=DEFAULT_SOC, choices=sorted(PLATFORMS))
    args = parser.parse_args(argv)
    start = time.perf_counter()
    platform = get_platform(args.soc)
    head = (f"{'kernel':<10} {'dtype':<5} {'n':>5} | {'loop us':>9} {'roof':>6} {'ess':>6} "
            f"{'binding':>7} | {'runs us':>8} {'roof':>6} {'ess':>6} {'binding':>7} | "
            f"{'x':>6}")
    lines = [f"{args.soc}, rows of {args.row} elements", head, "-" * len(head)]
    for case in CASES:
        for dtype in args.dtypes.split(","):
            for log2 in (int(v) for v in args.log2_sizes.split(",")):
                rows = (1 << log2) // args.row
                m = module(case, rows, args.row, dtype)
                schedule_choice._chosen.clear()  # each kernel's own default schedule
                runs_low = lower(m)
                schedule_choice._chosen.clear()
                with element_loop():
                    loop_low = lower(m)
                assert copy_kind(loop_low) == "elements"
                kind = copy_kind(runs_low)
                runs = profile(runs_low, rows * args.row, platform=platform)
                loop = profile(loop_low, rows * args.row, platform=platform)
                lines.append(
                    f"{case:<10} {dtype:<5} {'2^' + str(log2):>5} | "
                    f"{loop.total_time * 1e6:9.2f} {loop.roofline_fraction:6.1%} "
                    f"{essential(case, rows, args.row, dtype, loop):6.1%} {loop.binding:>7} | "
                    f"{runs.total_time * 1e6:8.2f} {runs.roofline_fraction:6.1%} "
                    f"{essential(case, rows, args.row, dtype, runs):6.1%} {runs.binding:>7} | "
                    f"{loop.total_time / runs.total_time:6.1f}"
                    + ("" if kind == "runs" else "  (no runs: the row is not whole blocks)"))
    print("\n".join(lines))
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
