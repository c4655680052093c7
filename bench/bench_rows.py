"""Row kernels (hsg-tile-on-cores{rows=true}, lowered by convert-hsg-to-ascend) in the cost model
(hswc.cost_model): softmax, log_softmax, their grads, rms_norm and layer_norm over rows of 64,
1024, 8192 and 60,000 elements at 2^24 elements, on Atlas A2 and Ascend 950, each row kernel's
modelled time, its fraction of the HBM roofline and the pipe that binds it, lowered with the
reference schedule (depth-1 queues) and with the fast options (double-buffer, early-free,
in-place, x-first), side by side with their ratio and the chunk (`rows`: several whole
rows, `1`: one row a chunk, `seg S`: a row longer than one row of its buffers holds, in
segments of S elements, one pass over the row per reduction: hswc.rows); a row the kernel
cannot take is printed as staying on the host.

With --accuracy, a second table: each op's kernel as hswc-run lowers it by default (the cost
model's schedule; the host where no kernel takes the row) run by the interpreter at the ascend
level on a few random rows of 1, 7, 64, 1024, 8192, 12,345 and 60,000 elements (f16, bf16 and
f32: --accuracy-dtypes), its largest error in ulp
from the float64 model rounded once (hswc.reference_norms) and whether it is within
torch.testing.assert_close's default tolerance of it.

    python bench/bench_rows.py [--log2-size 24] [--lengths 64,1024,8192,60000]
                               [--dtypes f16,f32] [--ops softmax,rms_norm]
                               [--socs ascend910b,ascend950] [--accuracy]
                               [--accuracy-lengths 1,7,64,1024,8192,12345,60000]
                               [--accuracy-dtypes f16,bf16,f32]

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

OPS = {  # op -> (operand classes: e element, c column; attributes)
    "softmax": ("e", "{dim = -1 : i64}"), "log_softmax": ("e", "{dim = -1 : i64}"),
    "softmax_grad": ("ee", "{dim = -1 : i64}"), "log_softmax_grad": ("ee", "{dim = -1 : i64}"),
    "rms_norm": ("ec", "{epsilon = 1.0e-06 : f32}"),
    "layer_norm": ("ecc", "{epsilon = 1.0e-05 : f32}"),
}


def module(op: str, rows: int, length: int, dtype: str) -> str:
    classes, attributes = OPS[op]
    full, column = f"tensor<{rows}x{length}x{dtype}>", f"tensor<{length}x{dtype}>"
    types = [full if c == "e" else column for c in classes]
    count = len(types)
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%a{i}" for i in range(count))
    listed = ", ".join(types) if classes != "ee" and count > 1 else full
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


def _chunk(module: ModuleOp) -> str:
    """`rows` for chunks of several rows, `1` for one row a chunk, `seg S` for a row in
    segments of S elements (hswc.rows)."""
    from hswc.rows import read_rows

    for fn in module.walk():
        rows = read_rows(fn) if isinstance(fn, func.FuncOp) else None
        if rows is not None:
            return (f"seg {rows.segment}" if rows.segment is not None
                    else "1" if rows.one_per_chunk else "rows")
    return "?"


def row(op: str, length: int, dtype: str, total: int, soc: str) -> str:
    rows = total // length
    text = module(op, rows, length, dtype)
    reference, said = lowered(text, REFERENCE, soc)
    slow = model(reference, rows, soc)
    lead = f"| {soc} | {op} | {dtype} | {length} |"
    if slow is None:
        why = next((t for t in said if "longer than" in t), "")
        longest = why.split("the longest row that fits: ")[-1].split(")")[0] \
            if "longest row" in why else "?"
        return (f"{lead} stays on the host (longest row that fits: {longest}) | | | | | | "
                "| | | |")
    fast_module = lowered(text, FAST, soc)[0]
    fast = model(fast_module, rows, soc)
    if fast is None:  # depth-2 queues: fewer whole rows fit
        return (f"{lead} {_chunk(reference)} | {_cell(slow)} | stays on the host | | | | | "
                f"{_traffic(slow, op, length, dtype, total)} |")
    return (f"{lead} {_chunk(reference)} | {_cell(slow)} | {_chunk(fast_module)} | "
            f"{_cell(fast)} | {fast.total_time / slow.total_time:.2f} | "
            f"{_traffic(fast, op, length, dtype, total)} |")


def _traffic(report: Report, op: str, length: int, dtype: str, total: int) -> str:
    """The kernel's GM bytes over the op's own (each element operand read once, the output
    written once, the columns read once): above 1 where a row in segments is read once per
    pass (the roofline fraction counts the kernel's bytes, so it hides that)."""
    size = 4 if dtype == "f32" else 2
    classes = OPS[op][0]
    own = (classes.count("e") + 1) * total * size + classes.count("c") * length * size
    return f"{report.gm_bytes / own:.2f}"


ACCURACY_ROWS = 2
"""Rows of each accuracy case (random normal data, as test_row_kernels draws it)."""


def accuracy(op: str, length: int, dtype: str, soc: str) -> str:
    """One line of the accuracy table (module docstring)."""
    import ml_dtypes
    import numpy as np

    from hswc.reference import compare_tolerance
    from hswc.reference_norms import run_reference
    from hswc.runner import compile_text

    numpy_type = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}[dtype]
    classes, _attributes = OPS[op]
    rng = np.random.default_rng(length)
    inputs = [rng.standard_normal((ACCURACY_ROWS, length) if c == "e" else (length,))
              .astype(numpy_type) for c in classes]
    kernel = compile_text(module(op, ACCURACY_ROWS, length, dtype), level="ascend", soc=soc)
    where = "kernel" if any(isinstance(f, func.FuncOp) and "hsg.rows" in f.attributes
                            for f in kernel.module.walk()) else "host"
    got = kernel.run(*inputs).outputs[0]
    attributes = ({"epsilon": 1e-6 if op == "rms_norm" else 1e-5}
                  if op.endswith("_norm") else {"dim": -1})
    within = compare_tolerance(got, run_reference(f"hsg.{op}", inputs, **attributes))
    verdict = "pass" if within.equal else f"FAIL ({within.outside} outside)"
    return (f"| {op} | {dtype} | {length} | {where} | {within.max_ulp:.3g} | {verdict} |")


def row_arguments(description: str) -> argparse.ArgumentParser:
    """A parser of the options the row benches share: size, lengths, dtypes, ops, SoCs."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--log2-size", type=int, default=24)
    parser.add_argument("--lengths", default="64,1024,8192,60000")
    parser.add_argument("--dtypes", default="f16,f32")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--socs", default=f"{DEFAULT_SOC},ascend950")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = row_arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--accuracy", action="store_true",
                        help="also the accuracy table (the interpreter: minutes)")
    parser.add_argument("--accuracy-lengths", default="1,7,64,1024,8192,12345,60000")
    parser.add_argument("--accuracy-dtypes", default="f16,bf16,f32")
    args = parser.parse_args(argv)
    total = 1 << args.log2_size
    ops, dtypes = args.ops.split(","), args.dtypes.split(",")
    print(f"row kernels at 2^{args.log2_size} elements (cost model)")
    print("| SoC | op | dtype | row | reference: chunk | time | roofline | binding | "
          "fast: chunk | time | roofline | binding | fast / reference | GM bytes / op's |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for soc in args.socs.split(","):
        for op in ops:
            for dtype in dtypes:
                for length in (int(n) for n in args.lengths.split(",")):
                    print(row(op, length, dtype, total, soc), flush=True)
    if args.accuracy:
        soc = args.socs.split(",")[0]
        print(f"\naccuracy on {soc} ({ACCURACY_ROWS} rows a case, the ascend level)")
        print("| op | dtype | row | where | max ulp from exact | torch tolerance |")
        print("|---|---|---|---|---|---|")
        for op in ops:
            for dtype in args.accuracy_dtypes.split(","):
                for length in (int(n) for n in args.accuracy_lengths.split(",")):
                    print(accuracy(op, length, dtype, soc), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
