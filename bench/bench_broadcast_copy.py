"""Broadcast copy-in in the cost model: the element loop against row runs
(hswc.vectorizer.broadcast_copy), for a bias add and a per-row scale.

For `x + b` with b a bias of `row` elements (`(d0, d1) -> (d1)`) and `x * s` with s one value
per row (`(d0, d1) -> (d0, 0)`), on x of 2^16 .. 2^22 elements (rows of `row`, default 128) in
f16 and f32, the modelled time of one launch and its HBM roofline fraction, for:
- `loop`: the element loop (one GetValue + SetValue per element, then PipeBarrier<PIPE_ALL>;
  CANN's blockFactor): what hswc built before row runs, rebuilt by making `row_runs` refuse
  every input;
- `gm runs`: row runs, a bias read from GM for every run (DataCopyPad; what a bias larger than
  RESIDENT_BYTES gets), rebuilt by setting RESIDENT_BYTES to 0; for a row scale the same as
  `runs`;
- `runs`: what --lower-to-ascend writes (a bias copied into UB once, a UB -> UB DataCopy per
  run; a row scale's GetValue + Duplicate per run).
Each is chosen its own default schedule by the cost model on the platform (default ascend910b:
48 cores, 196608-byte UB).

`ess` is the essential roofline fraction, the same bytes for every kernel: x read once, y
written once, the broadcast operand read once, over the time at full HBM bandwidth (the report's
own fraction counts the bytes a kernel moves: the element loop's GetValues move none the model
counts, GM runs re-read the bias for every row). `x` is the element loop's time over the runs'.

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


@contextmanager
def gm_runs() -> Iterator[None]:
    """No input is copied into UB once: every run is read from GM."""
    with mock.patch.object(broadcast_copy, "RESIDENT_BYTES", 0):
        yield


@contextmanager
def default() -> Iterator[None]:
    yield


KERNELS = {"loop": element_loop, "gm runs": gm_runs, "runs": default}


def lowered(m: ModuleOp, kernel: str) -> ModuleOp:
    schedule_choice._chosen.clear()  # each kernel its own default schedule
    with KERNELS[kernel]():
        return lower(m)


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
    cells = " | ".join(f"{name + ' us':>10} {'roof':>6} {'ess':>6} {'bound':>5}"
                       for name in KERNELS)
    head = f"{'kernel':<10} {'dtype':<5} {'n':>5} | {cells} | {'x':>6}"
    lines = [f"{args.soc}, rows of {args.row} elements", head, "-" * len(head)]
    for case in CASES:
        for dtype in args.dtypes.split(","):
            for log2 in (int(v) for v in args.log2_sizes.split(",")):
                rows = (1 << log2) // args.row
                m = module(case, rows, args.row, dtype)
                reports: dict[str, Report] = {}
                for kernel in KERNELS:
                    low = lowered(m, kernel)
                    assert ("row runs of" in str(low)) == (kernel != "loop"), kernel
                    reports[kernel] = profile(low, rows * args.row, platform=platform)
                row_cells = " | ".join(
                    f"{r.total_time * 1e6:10.2f} {r.roofline_fraction:6.1%} "
                    f"{essential(case, rows, args.row, dtype, r):6.1%} {r.binding:>5}"
                    for r in reports.values())
                ratio = reports["loop"].total_time / reports["runs"].total_time
                lines.append(f"{case:<10} {dtype:<5} {'2^' + str(log2):>5} | {row_cells} | "
                             f"{ratio:6.1f}")
    print("\n".join(lines))
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
