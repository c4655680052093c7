"""Writes test/data/exponential_torch.npz: PyTorch eager CPU's results of the 19 exponential
activations on a few hundred inputs per dtype, so that test_exponential_torch.py can compare
hswc with PyTorch without torch installed. Run with torch installed (pip install torch):

    python tools/make_torch_expected.py

The inputs: 256 values per dtype spread over each function's regimes (no infinities: PyTorch
2.13's gelu gives NaN there, 2.14's source does not), grads in [-4, 4]; sigmoid_grad and
tanh_grad take a sigmoid / tanh result as y. bf16 arrays are stored as their uint16 bits.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_exponential_accuracy import DTYPES, torch_result  # noqa: E402

from hswc.ops import OPS  # noqa: E402

OUT = ROOT / "test" / "data" / "exponential_torch.npz"


def inputs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2026)
    x = np.concatenate([rng.standard_normal(160) * 4, rng.uniform(-30, 30, 64),
                        [0.0, -0.0, 1.0, -1.0, 20.0, -20.0, 1e-3, -1e-3], rng.uniform(-90, 90, 24)])
    grad = rng.uniform(-4, 4, x.size)
    return x.astype(DTYPES[dtype]), grad.astype(DTYPES[dtype])


def bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint16) if a.dtype == DTYPES["bf16"] else a


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    for dtype in DTYPES:
        x, grad = inputs(dtype)
        arrays[f"x_{dtype}"], arrays[f"grad_{dtype}"] = bits(x), bits(grad)
        for op, definition in OPS.items():
            if definition.exact:
                continue
            args = [x] if len(definition.op.INPUTS) == 1 else [grad, x]
            if len(args) == 2 and definition.op.INPUTS[1] == "result":
                forward = torch_result(op.removesuffix("_grad"), [x])
                assert forward is not None
                args = [grad, forward]
                arrays[f"{op}_y_{dtype}"] = bits(forward)
            out = torch_result(op, args)
            if out is None:
                raise SystemExit("torch is not installed: pip install torch")
            arrays[f"{op}_{dtype}"] = bits(out)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(arrays)} arrays)")


if __name__ == "__main__":
    assert ml_dtypes is not None
    main()
