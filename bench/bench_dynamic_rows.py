"""Row kernels of a run-time row length (hswc.rows `dynamic`: `?x?` rows, the length a tiling
field) beside the static kernel of each length, in the cost model: softmax, log_softmax, their
grads, rms_norm and layer_norm at 2^24 elements in rows of 64, 1024, 8192 and 60,000, on Atlas
A2 and Ascend 950, each lowered as hswc-opt --lower-to-ascend lowers it (the cost model's
schedule; the dynamic kernel's chosen over issue 36's four lengths at once:
hswc.passes.row_schedule_choice.DYNAMIC_LENGTHS). The dynamic kernel is modelled at each
length by giving the cost model the row length it reads at run time
(hswc.profiling.profile.profile_kernel's `row_length`). Columns: each kernel's time, how its
chunk holds a row (`rows`: several whole rows, `1`: one row a chunk, `seg S`: one row in
segments of S elements, its last segment padded to S with the combiner's identity; of the
dynamic kernel, the branch its host tiling picks at the length: `whole W`, one row a chunk
padded to W, or `seg S`: hswc.passes.row_branches), and dynamic / static.

    python bench/bench_dynamic_rows.py [--log2-size 24] [--lengths 64,1024,8192,60000]
                                       [--dtypes f16,f32] [--ops softmax,rms_norm]
                                       [--socs ascend910b,ascend950]

The model is deterministic: the figures do not depend on the machine's load.
"""

from __future__ import annotations

import sys

from bench_rows import _chunk, lowered, module, row_arguments
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from hswc.cost_model import Report
from hswc.platform import get_platform
from hswc.profiling.profile import profile_kernel, row_branch
from hswc.rows import read_rows


def dynamic_module(op: str, dtype: str) -> str:
    """The op over `?x?` rows (its columns `?`): the row length known at run time only."""
    return module(op, 1, 1, dtype).replace("tensor<1x1x", "tensor<?x?x") \
        .replace(f"tensor<1x{dtype}>", f"tensor<?x{dtype}>")


def model(lowered_module: ModuleOp, rows: int, soc: str, length: int | None = None
          ) -> Report | None:
    """The row kernel's launch over `rows` rows (of `length` elements where the kernel takes
    its length at run time); None when the op stays on the host."""
    kernels = [f for f in lowered_module.walk() if isinstance(f, func.FuncOp)
               and "hsg.rows" in f.attributes]
    if not kernels:
        return None
    platform = get_platform(soc)
    kernel = kernels[0]
    if length is not None:  # the branch the host's tiling picks at this length
        kernel = row_branch(lowered_module, kernels, rows, length, platform,
                            platform.cost) or kernel
    return profile_kernel(lowered_module, kernel, rows, platform, platform.cost,
                          row_length=length)


def _branch_chunk(lowered_module: ModuleOp, rows: int, soc: str, length: int) -> str:
    """How the branch the tiling picks at `length` holds a row (`whole W`, `seg S`)."""
    kernels = [f for f in lowered_module.walk() if isinstance(f, func.FuncOp)
               and "hsg.rows" in f.attributes]
    platform = get_platform(soc)
    kernel = row_branch(lowered_module, kernels, rows, length, platform, platform.cost)
    described = read_rows(kernel if kernel is not None else kernels[0])
    assert described is not None
    if described.segment is None:
        return f"whole {described.length}"
    return f"seg {described.segment}"


def _cell(report: Report | None, chunk: str) -> str:
    if report is None:
        return "host | |"
    return f"{chunk} | {report.total_time * 1e6:.1f} us | {report.binding}"


def table(ops: list[str], dtypes: list[str], lengths: list[int], socs: list[str],
          total: int) -> list[str]:
    """The table's lines (module docstring)."""
    lines = ["| SoC | op | dtype | row | static: chunk | time | binding | dynamic: chunk | "
             "time | binding | dynamic / static |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    print(*lines, sep="\n", flush=True)
    for soc in socs:
        for op in ops:
            for dtype in dtypes:
                dynamic, _ = lowered(dynamic_module(op, dtype), "", soc)
                for length in lengths:
                    rows = total // length
                    static_module, _ = lowered(module(op, rows, length, dtype), "", soc)
                    static = model(static_module, rows, soc)
                    moving = model(dynamic, rows, soc, length)
                    ratio = f"{moving.total_time / static.total_time:.2f}" \
                        if static is not None and moving is not None else "-"
                    lines.append(f"| {soc} | {op} | {dtype} | {length} | "
                                 f"{_cell(static, _chunk(static_module))} | "
                                 f"{_cell(moving, _branch_chunk(dynamic, rows, soc, length))}"
                                 f" | {ratio} |")
                    print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    args = row_arguments(__doc__.split("\n\n")[0]).parse_args(argv)
    print(f"static and run-time row lengths at 2^{args.log2_size} elements (cost model)")
    table(args.ops.split(","), args.dtypes.split(","),
          [int(n) for n in args.lengths.split(",")], args.socs.split(","), 1 << args.log2_size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
