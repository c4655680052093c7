"""Per-column reductions over a leading dim (a bias gradient `x.sum(0)` of [R, C]) as row
kernels of 64 lanes (hswc.rows: Lanes), in the cost model (hswc.cost_model), on Atlas A2 and
Ascend 950: what hswc-run lowers by default (the cost model's schedule, segments of runs and the
split in pieces of runs where it chooses them), each kernel's rows (`1`: the row of lanes whole
in a chunk, `seg S`: in segments of S elements, S / 64 runs), the modelled time of all its
launches (a second launch's own cost added, CostFigures.launch_cycles, as hsg-tile-on-cores
counts it when it chooses the split), and the fraction of the HBM roofline (x read once and the
C results written once, at the SoC's HBM bandwidth, over that time). Before branch lanes36
every one of these reductions ran on the host (no kernel; the softmax family over dim 0 was a
kernel up to about 190 runs on A2, and only over whole rows of 64 columns).

    python bench/bench_lane_sums.py [--shapes 1024x1024,4096x128,8192x1024,65536x64,4096x100]
                                    [--dtypes f16,f32] [--socs ascend910b,ascend950]

The model is deterministic: the figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import math
import sys

from xdsl.dialects import func

from hswc.dialects import hsg
from hswc.platform import DEFAULT_SOC, get_platform
from hswc.profiling.profile import profile_kernel
from hswc.rows import read_rows
from hswc.runner import compile_text
from hswc.tiling import ELEMENT_BYTES


def module(rows: int, columns: int, dtype: str) -> str:
    """x.sum(0) of [rows, columns] as torch-mlir writes it."""
    full, out = f"tensor<{rows}x{columns}x{dtype}>", f"tensor<{columns}x{dtype}>"
    return f"""
func.func @bias_grad(%x: {full}) -> {out} {{
  %zero = arith.constant 0.0 : {dtype}
  %e = tensor.empty() : {out}
  %init = linalg.fill ins(%zero : {dtype}) outs(%e : {out}) -> {out}
  %s = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d1)>],
      iterator_types = ["reduction", "parallel"]}} ins(%x : {full}) outs(%init : {out}) {{
  ^bb0(%in: {dtype}, %acc: {dtype}):
    %r = arith.addf %in, %acc : {dtype}
    linalg.yield %r : {dtype}
  }} -> {out}
  return %s : {out}
}}
"""


def row(rows: int, columns: int, dtype: str, soc: str) -> str:
    """One line of the table (module docstring)."""
    lowered = compile_text(module(rows, columns, dtype), level="ascend", soc=soc).module
    platform = get_platform(soc)
    kernels = {f.sym_name.data: f for f in lowered.walk() if isinstance(f, func.FuncOp)}
    launches = [op for op in lowered.walk() if isinstance(op, hsg.LaunchOp)]
    lead = f"| {soc} | {dtype} | {rows} x {columns} |"
    if not launches:
        return f"{lead} host | | | |"
    chunks, total = [], 0.0
    for launch in launches:
        kernel = kernels[launch.kernel.root_reference.data]
        described = read_rows(kernel)
        assert described is not None
        count = described.count_rows([math.prod(v.type.get_shape())  # type: ignore[attr-defined]
                                      for v in launch.inputs])
        report = profile_kernel(lowered, kernel, count, platform, platform.cost)
        total += report.total_time
        chunk = f"seg {described.segment}" if described.segment is not None else "1"
        chunks.append(f"{count} rows of {described.runs} runs, {chunk}")
    figures = platform.cost  # each launch after the first adds its own cost, as the split's
    total += (len(launches) - 1) * figures.seconds(figures.launch_cycles)  # choice counts it
    size = ELEMENT_BYTES[dtype]
    roofline = (rows * columns + columns) * size / platform.cost.hbm_bytes_per_s
    return (f"{lead} {len(launches)} | {'; '.join(chunks)} | {total * 1e6:.1f} us | "
            f"{roofline / total:.1%} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="1024x1024,4096x128,8192x1024,65536x64,4096x100")
    parser.add_argument("--dtypes", default="f16,f32")
    parser.add_argument("--socs", default=f"{DEFAULT_SOC},ascend950")
    args = parser.parse_args(argv)
    print("x.sum(0) of [R, C] (cost model; before branch lanes36: the host, no kernel)")
    print("| SoC | dtype | R x C | launches | kernels (rows, runs a row, chunk) | time | "
          "roofline |")
    print("|---|---|---|---|---|---|---|")
    for soc in args.socs.split(","):
        for dtype in args.dtypes.split(","):
            for shape in args.shapes.split(","):
                rows, columns = (int(n) for n in shape.split("x"))
                print(row(rows, columns, dtype, soc), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
