"""Export PyTorch functions of several outputs as linalg-on-tensors, with MLIR's results.

    pip install torch==2.13.0 torch-mlir==20261001    # optional: only this script needs them
    python tools/export_multi_output_fixtures.py [OUT_DIR]   # default test/fixtures/multi_output

For every function of FIXTURES (`relu(x), x > 0` in f16 and f32: an f16/f32 output and an i1
one, which hswc makes one kernel of two outputs) it writes `<name>.mlir`, exactly as
`torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")` prints it, and
`<name>.npz`: the input `in0` (random values and the specials of export_torch_fixtures) and
`out0`, `out1`, ...: each result of MLIR's own CPU execution of the file (tools/mlir_oracle.py),
an i1 result as one byte per element. test/test_multi_output.py compares hswc-run with them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from export_torch_fixtures import Fixture, make_inputs
from mlir_oracle import check_conversions, execute, raw

DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16)}


def relu_and_mask(x: object) -> object:
    import torch

    return torch.relu(x), x > 0  # type: ignore[operator]


FIXTURES: dict[str, Callable[..., object]] = {"relu_and_mask": relu_and_mask}


def export(fn: Callable[..., object], dtype: str, shape: tuple[int, ...]) -> str:
    import torch
    from torch_mlir import fx

    class Module(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> object:
            return fn(x)

    torch_dtype = {"f32": torch.float32, "f16": torch.float16}[dtype]
    module = fx.export_and_import(Module(), torch.zeros(shape, dtype=torch_dtype),
                                  output_type="linalg-on-tensors")
    return str(module)


def main(argv: list[str]) -> int:
    out_dir = Path(argv[1]) if len(argv) > 1 else Path("test/fixtures/multi_output")
    out_dir.mkdir(parents=True, exist_ok=True)
    check_conversions()
    shape = (4, 64)
    for seed, (name, fn) in enumerate(FIXTURES.items()):
        for dtype, held in DTYPES.items():
            case = f"{name}_{dtype}"
            text = export(fn, dtype, shape)
            (x,) = make_inputs(Fixture(case, fn, 1, shape), seed)
            outs = execute(text, [x], [(shape, held), (shape, np.dtype(np.bool_))])
            (out_dir / f"{case}.mlir").write_text(text)
            np.savez_compressed(out_dir / f"{case}.npz", in0=raw(x),
                                **{f"out{i}": raw(o) for i, o in enumerate(outs)},
                                dtype=np.array(dtype))
            print(case)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
