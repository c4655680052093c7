"""The six row ops' error against the exact value (issue 36's numerics), for docs/accuracy.md:
softmax, log_softmax, softmax_grad, log_softmax_grad, rms_norm and layer_norm, in f16, bf16
and f32, over 2 random normal rows (bench_rows' accuracy data) of 1, 64, 1024, 8192, 12,345
and 60,000 elements, each lowered as hswc-run lowers it by default (the cost model's schedule)
and run by the interpreter at the ascend level (every level gives the same bits:
test_row_kernels). Printed per case: where it ran (the row kernel, or the host), the largest
error in ulp of the exact value (the float64 model hswc.reference_norms, rounded once), the
largest error as a fraction of torch.testing.assert_close's default tolerance of it
(|got - exact| / (atol + rtol |exact|): within the tolerance below 1), and the verdict.

    python bench/bench_row_accuracy.py [--lengths 1,64,1024,8192,12345,60000]
                                       [--dtypes f16,bf16,f32] [--ops softmax,rms_norm]
                                       [--soc ascend910b]

Minutes (the interpreter); the figures do not depend on the machine.
"""

from __future__ import annotations

import argparse
import sys

from bench_rows import ACCURACY_ROWS, OPS, module
from xdsl.dialects import func

from hswc.platform import DEFAULT_SOC


def case(op: str, length: int, dtype: str, soc: str) -> str:
    """One line of the table (module docstring)."""
    import ml_dtypes
    import numpy as np

    from hswc.reference import compare_tolerance
    from hswc.reference_norms import run_reference
    from hswc.runner import compile_text

    numpy_type = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}[dtype]
    rng = np.random.default_rng(length)
    inputs = [rng.standard_normal((ACCURACY_ROWS, length) if c == "e" else (length,))
              .astype(numpy_type) for c in OPS[op][0]]
    kernel = compile_text(module(op, ACCURACY_ROWS, length, dtype), level="ascend", soc=soc)
    where = "kernel" if any(isinstance(f, func.FuncOp) and "hsg.rows" in f.attributes
                            for f in kernel.module.walk()) else "host"
    got = np.asarray(kernel.run(*inputs).outputs[0])
    attributes = ({"epsilon": 1e-6 if op == "rms_norm" else 1e-5}
                  if op.endswith("_norm") else {"dim": -1})
    exact = np.asarray(run_reference(f"hsg.{op}", inputs, **attributes))
    within = compare_tolerance(got, exact)
    verdict = "pass" if within.equal else f"FAIL ({within.outside} outside)"
    return (f"| {op} | {dtype} | {length} | {where} | {within.max_ulp:.3g} | "
            f"{within.tolerance_used:.3g} | {verdict} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", default="1,64,1024,8192,12345,60000")
    parser.add_argument("--dtypes", default="f16,bf16,f32")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--soc", default=DEFAULT_SOC)
    args = parser.parse_args(argv)
    print(f"row ops against the exact value on {args.soc} ({ACCURACY_ROWS} rows a case, the "
          "ascend level)")
    print("| op | dtype | row | where | max ulp from exact | max error / tolerance | "
          "torch tolerance |")
    print("|---|---|---|---|---|---|---|")
    for op in args.ops.split(","):
        for dtype in args.dtypes.split(","):
            for length in (int(n) for n in args.lengths.split(",")):
                print(case(op, length, dtype, args.soc), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
