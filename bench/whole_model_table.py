"""The whole-model table: each file of test/fixtures/host_models (torch-mlir exports, run by
MLIR's ExecutionEngine for the `.npz`: tools/export_host_fixtures.py) lowered to the ascend
level and run by hswc-run's machinery, against MLIR's results.

Columns: the launches the partition makes, the ops left on the host (hswc.remarks' summary),
how many generics fusion joined, and the results against MLIR's: `bit for bit`, or the largest
error in ulps of MLIR's value (hswc.reference.compare_tolerance) and whether it is within
PyTorch's default tolerance. Run: `python bench/whole_model_table.py [--markdown]` (about a
minute per MobileNet, seconds for the rest).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from datetime import date
from pathlib import Path

import ml_dtypes
import numpy as np

from hswc.reference import compare_bitwise, compare_tolerance
from hswc.remarks import collecting
from hswc.runner import compile_file

FIXTURES = Path(__file__).resolve().parents[1] / "test" / "fixtures" / "host_models"
NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16), "f64": np.dtype(np.float64),
         "i64": np.dtype(np.int64), "i32": np.dtype(np.int32), "i1": np.dtype(np.bool_)}


def load(path: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The file's inputs and MLIR's outputs from its `.npz` (halves stored as their bits)."""
    data = np.load(path.with_suffix(".npz"))
    types = [str(t) for t in data["types"]]
    count = sum(1 for k in data.files if k.startswith("in"))

    def array(key: str, kind: str) -> np.ndarray:
        a = data[key]
        return a.view(NUMPY[kind]) if kind in ("f16", "bf16") else a.astype(NUMPY[kind])

    return ([array(f"in{i}", types[i]) for i in range(count)],
            [array(f"out{i}", t) for i, t in enumerate(types[count:])])


def against_mlir(got: list[np.ndarray], want: list[np.ndarray]) -> str:
    """`bit for bit`, or the worst result's largest ulp error and the tolerance verdict."""
    if all(compare_bitwise(g, w).equal for g, w in zip(got, want, strict=True)):
        return "bit for bit"
    floats = [(g, w) for g, w in zip(got, want, strict=True) if w.dtype.kind == "f"
              or w.dtype == ml_dtypes.bfloat16]
    worst = max((compare_tolerance(g, w) for g, w in floats), key=lambda c: c.max_ulp)
    within = all(compare_tolerance(g, w).equal for g, w in floats)
    return f"{worst.max_ulp:.3g} ulp max, {'within' if within else 'OUTSIDE'} torch tolerance"


def row(path: Path) -> tuple[str, ...]:
    inputs, want = load(path)
    start = time.perf_counter()
    with collecting() as said:
        kernel = compile_file(path, level="ascend")
    compiled = time.perf_counter() - start
    launches = sum(1 for r in said if r.text.startswith("becomes a launch"))
    host = sum(1 for r in said if r.text.startswith("stays on the host"))
    joined = sum(1 for r in said if r.text.startswith(("joins", "is recomputed")))
    got = kernel.run(*inputs).outputs
    return (path.stem, str(launches), str(host), str(joined), against_mlir(got, want),
            f"{compiled:.1f}")


HEADER = ("file", "kernel launches", "ops on the host", "generics fused", "against MLIR",
          "compile s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("files", nargs="*", help="names (stems) to run; default all")
    args = parser.parse_args(argv)
    files = sorted(FIXTURES.glob("*.mlir"))
    if args.files:
        files = [f for f in files if f.stem in args.files]
    rows = []
    for f in files:
        rows.append(row(f))
        print(f"  {'  '.join(rows[-1])}", file=sys.stderr)
    print(f"{date.today()}, {platform.machine()}, {platform.python_version()}")
    if args.markdown:
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "---|" * len(HEADER))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        for r in (HEADER, *rows):
            print("  ".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
