"""Row kernels (hsg-tile-on-cores{rows=true}, lowered by convert-hsg-to-ascend) in the cost model
(hswc.cost_model): softmax, log_softmax, rms_norm and layer_norm over rows of 64, 1024 and 8192
elements at 2^24 elements, each row kernel's modelled time, its fraction of the HBM roofline and
the pipe that binds it, lowered with the reference schedule (depth-1 queues) and with the fast
options (double-buffer, early-free, in-place, x-first), side by side with their ratio; a row
too long for a chunk of 8 whole rows of its buffers is printed as staying on the host, with the
longest row that fits.

    python bench/bench_rows.py [--log2-size 24] [--lengths 64,1024,8192] [--dtypes f16,f32]
                               [--ops softmax,rms_norm] [--soc ascend910b]

The model is deterministic: the figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import sys

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from hswc.cost_model import Report
from hswc.pipeline import PASSES, context, parse_text
from hswc.platform import DEFAULT_SOC, get_platform
from hswc.profiling.profile import profile_kernel
from hswc.remarks import collecting

OPS = {  # op -> (operands, attributes)
    "softmax": (1, "{dim = -1 : i64}"), "log_softmax": (1, "{dim = -1 : i64}"),
    "rms_norm": (2, "{epsilon = 1.0e-06 : f32}"), "layer_norm": (3, "{epsilon = 1.0e-05 : f32}"),
}


def module(op: str, rows: int, length: int, dtype: str) -> str:
    count, attributes = OPS[op]
    full, column = f"tensor<{rows}x{length}x{dtype}>", f"tensor<{length}x{dtype}>"
    types = [full, *[column] * (count - 1)]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%a{i}" for i in range(count))
    listed = ", ".join(types) if count > 1 else full
    return (f"func.func @{op}({args}) -> {full} {{\n"
            f"  %y = hsg.{op} {operands} {attributes} : {listed}\n"
            f"  return %y : {full}\n}}\n")


FAST = "double-buffer=true early-free=true in-place=true x-first=true"
REFERENCE = "variant=reference"
"""Named, so that hsg-tile-on-cores does not choose a schedule itself (it would without
options: hswc.passes.row_schedule_choice)."""


def lowered(text: str, options: str, soc: str) -> tuple[ModuleOp, list[str]]:
    """The module lowered with rows=true and the schedule options; the remarks said."""
    module = parse_text(text, "<bench>")
    platform = get_platform(soc)
    tile = f"soc={soc} rows=true {options}".strip()
    pipeline = (f"hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{{{tile}}},"
                f"hsg-block-into-ub,convert-hsg-to-ascend{{api={platform.api} {options}}}")
    with collecting() as said:
        PassPipeline.parse_spec(PASSES, pipeline).apply(context(), module)
    return module, [r.text for r in said]


def model(module: ModuleOp, rows: int, soc: str) -> Report | None:
    kernels = [f for f in module.walk() if isinstance(f, func.FuncOp)
               and "hsg.rows" in f.attributes]
    if not kernels:
        return None
    platform = get_platform(soc)
    return profile_kernel(module, kernels[0], rows, platform, platform.cost)


def _cell(report: Report) -> str:
    binding = report.binding + (" (serialised)" if report.serialised else "")
    return f"{report.total_time * 1e6:.1f} us | {report.roofline_fraction:.1%} | {binding}"


def row(op: str, length: int, dtype: str, total: int, soc: str) -> str:
    rows = total // length
    text = module(op, rows, length, dtype)
    reference, said = lowered(text, REFERENCE, soc)
    slow = model(reference, rows, soc)
    if slow is None:
        why = next((t for t in said if "longer than" in t), "")
        longest = why.split("the longest row that fits: ")[-1].split(")")[0] \
            if "longest row" in why else "?"
        return (f"| {op} | {dtype} | {length} | stays on the host (longest row that fits: "
                f"{longest}) | | | | | | |")
    fast = model(lowered(text, FAST, soc)[0], rows, soc)
    if fast is None:  # depth-2 queues: fewer whole rows fit
        return f"| {op} | {dtype} | {length} | {_cell(slow)} | stays on the host | | | |"
    return (f"| {op} | {dtype} | {length} | {_cell(slow)} | {_cell(fast)} | "
            f"{fast.total_time / slow.total_time:.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log2-size", type=int, default=24)
    parser.add_argument("--lengths", default="64,1024,8192")
    parser.add_argument("--dtypes", default="f16,f32")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--soc", default=DEFAULT_SOC)
    args = parser.parse_args(argv)
    total = 1 << args.log2_size
    print(f"row kernels at 2^{args.log2_size} elements on {args.soc} (cost model)")
    print("| op | dtype | row | reference: time | roofline | binding | fast: time | roofline | "
          "binding | fast / reference |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for op in args.ops.split(","):
        for dtype in args.dtypes.split(","):
            for length in (int(n) for n in args.lengths.split(",")):
                print(row(op, length, dtype, total, args.soc), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
