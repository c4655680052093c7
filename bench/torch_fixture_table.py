"""The table of issue 19's closing note: each file of test/fixtures/torch_mlir x (lowers with
`--lower-to-ascend`, kernels launched, prints as AscendC C++, bit-exact with MLIR's execution at
every level hswc-run has).

    python bench/torch_fixture_table.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np

from hswc.runner import LEVELS, CompileError, compile_file

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "test" / "fixtures" / "torch_mlir"
DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
          "bf16": np.dtype(ml_dtypes.bfloat16)}


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    nan = np.isnan(want.astype(np.float32))
    bits = np.uint32 if want.dtype.itemsize == 4 else np.uint16
    return bool(got.shape == want.shape and np.array_equal(np.isnan(got.astype(np.float32)), nan)
                and np.array_equal(got.view(bits)[~nan], want.view(bits)[~nan]))


def _prints(path: Path) -> str:
    import contextlib
    import io

    from hswc.tools import hswc_opt
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = hswc_opt.main(["--lower-to-ascend", "-t", "ascendc", str(path)])
    return "yes" if code == 0 else "no"


def row(path: Path) -> str:
    data = np.load(path.with_suffix(".npz"))
    dtype = DTYPES[str(data["dtype"])]
    inputs = [data[f"in{i}"].view(dtype) for i in range(len(data.files) - 2)]
    want = data["out"].view(dtype)
    exact: list[str] = []
    kernels = "-"
    lowers = "yes"
    for level in LEVELS:
        try:
            kernel = compile_file(path, level=level)
        except CompileError as error:
            if level == "ascend":
                lowers = "no: " + str(error).split("error: ", 1)[-1][:70]
            exact.append(f"{level}: refused")
            continue
        if level == "ascend":
            kernels = str(sum(1 for op in kernel.module.walk() if op.name == "hsg.launch"))
        ok = _same(np.asarray(kernel(*inputs)), want)
        exact.append(level if ok else f"{level}: DIFFERS")
    bit_exact = "all levels" if exact == list(LEVELS) else ", ".join(exact)
    return f"| {path.stem} | {lowers} | {kernels} | {_prints(path)} | {bit_exact} |"


def main() -> int:
    print("| file | lowers | kernels | -t ascendc | bit-exact with MLIR's execution |")
    print("|---|---|---|---|---|")
    for path in sorted(FIXTURES.glob("*.mlir")):
        print(row(path), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
