"""Writes test/fixtures/gated_ops/<case>_<dtype>.npz: PyTorch eager CPU's results of the gated
linear units (F.glu, F.silu(a) * b, F.gelu(a) * b and a * F.gelu(b), `a, b = x.chunk(2, dim)`)
and of their gradients (torch.autograd.grad of the result with a random gradient), so that
test/test_gated_ops.py compares hsg.glu, hsg.swi_glu, hsg.ge_glu and their _grad ops with
PyTorch without torch installed. Run with the oracle's torch (2.14.1):

    /work/venv-oracle/bin/python tools/export_gated_fixtures.py [OUT_DIR]

Each file holds `x`, `grad`, `y` (the forward result), `dx` (x's gradient), floats as their raw
bits (uint16 for f16 and bf16, uint32 for f32), and `torch` (the version). The cases (CASES) are
what the test's table names: the op, its attributes, x's shape and the split dim. x is normal
times 3 with a few large values; the gradient normal.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "test" / "fixtures" / "gated_ops"
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def _halves(fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], dim: int
            ) -> Callable[[torch.Tensor], torch.Tensor]:
    def gated(x: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, dim)
        return fn(a, b)

    return gated


CASES: dict[str, tuple[tuple[int, ...], int, Callable[[torch.Tensor], torch.Tensor]]] = {
    # name: (x's shape, dim, the function)
    "glu_last": ((8, 128), -1, lambda x: F.glu(x, -1)),
    "glu_dim0": ((6, 40), 0, lambda x: F.glu(x, 0)),
    "swi_glu_last": ((8, 128), -1, _halves(lambda a, b: F.silu(a) * b, -1)),
    "swi_glu_odd_half": ((5, 42), -1, _halves(lambda a, b: F.silu(a) * b, -1)),
    "ge_glu_erf_left": ((8, 128), -1, _halves(lambda a, b: F.gelu(a) * b, -1)),
    "ge_glu_tanh_right_dim1": ((4, 6, 32), 1, _halves(
        lambda a, b: a * F.gelu(b, approximate="tanh"), 1)),
}


def _bits(t: torch.Tensor) -> np.ndarray:
    if t.dtype == torch.float32:
        return t.detach().numpy().view(np.uint32)
    return t.detach().view(torch.int16).numpy().view(np.uint16)


def export(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, (shape, _, fn) in CASES.items():
        for dtype, torch_dtype in DTYPES.items():
            rng = np.random.default_rng(zlib.crc32(f"{name}_{dtype}".encode()))
            values = rng.standard_normal(shape) * 3
            values.reshape(-1)[:4] = [9.0, -9.0, 30.0, -30.0]
            x = torch.tensor(values, dtype=torch.float32).to(torch_dtype).requires_grad_(True)
            y = fn(x)
            grad = torch.tensor(rng.standard_normal(tuple(y.shape)),
                                dtype=torch.float32).to(torch_dtype)
            (dx,) = torch.autograd.grad(y, x, grad)
            np.savez(out_dir / f"{name}_{dtype}.npz", x=_bits(x), grad=_bits(grad), y=_bits(y),
                     dx=_bits(dx), torch=np.array(torch.__version__))
            print(f"{name}_{dtype}: x {tuple(x.shape)} -> y {tuple(y.shape)}")


if __name__ == "__main__":
    export(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
