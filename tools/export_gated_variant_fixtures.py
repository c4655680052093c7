"""Writes test/fixtures/gated_variants/<case>_<dtype>.npz: ops-nn's gated variants
(hswc.dialects.hsg_gated_variants) computed by PyTorch from the formulas of their ops-nn
definitions (float64, rounded once to the dtype, as their kernels compute in f32 and round
once), so that test/test_gated_variants.py compares hswc with them without torch installed. Run
with the oracle's torch (2.14.1):

    /work/venv-oracle/bin/python tools/export_gated_variant_fixtures.py [OUT_DIR]

Each file holds `x`, `threshold` (fatrelu_mul's; else empty) and `y`, floats as their raw bits
(uint16 for f16 and bf16, uint32 for f32), and `torch` (the version). x is normal times 3 with
a few large values, and some elements exactly at the op's constants (the threshold, +-limit).
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
OUT = ROOT / "test" / "fixtures" / "gated_variants"
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
THRESHOLD = 0.25
Fn = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def _halves(dim: int, interleaved: bool = False
            ) -> Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]]:
    def split(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if interleaved:
            v = x.movedim(dim, -1)
            return v[..., 0::2].movedim(-1, dim), v[..., 1::2].movedim(-1, dim)
        a, b = x.chunk(2, dim)
        return a, b

    return split


def _situ(beta: float, linear_beta: float, left: bool) -> Fn:
    def fn(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        gate, up = (a, b) if left else (b, a)
        situ = beta * torch.tanh(gate / beta) * torch.sigmoid(gate)
        if linear_beta > 0:
            up = linear_beta * torch.tanh(up / linear_beta)
        return situ * up

    return fn


def _clipped(alpha: float, limit: float, bias: float, clamp_mode: int) -> Fn:
    def fn(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if clamp_mode == 1:
            return F.silu(a).clamp(max=limit) * b.clamp(-limit, limit)
        a = a.clamp(max=limit)
        return a * torch.sigmoid(alpha * a) * (b.clamp(-limit, limit) + bias)

    return fn


CASES: dict[str, tuple[tuple[int, ...], int, bool, Fn]] = {
    # name: (x's shape, split dim, interleaved, the formula on the halves)
    "gelu_mul_none": ((8, 128), -1, False, lambda a, b: F.gelu(a) * b),
    "gelu_mul_tanh": ((3, 5, 48), -1, False, lambda a, b: F.gelu(a, approximate="tanh") * b),
    "fatrelu_mul": ((8, 96), -1, False,
                    lambda a, b: torch.where(a > THRESHOLD, a, torch.zeros_like(a)) * b),
    "situ_glu_default": ((8, 128), -1, False, _situ(1.0, 0.0, True)),
    "situ_glu_dim0_right": ((10, 40), 0, False, _situ(2.5, 0.75, False)),
    "swiglu_clamp": ((8, 128), -1, False,
                     lambda a, b: F.silu(a).clamp(max=7.0) * b.clamp(-7.0, 7.0)),
    "swiglu_clamp_limit2": ((4, 6, 32), -1, False,
                            lambda a, b: F.silu(a).clamp(max=2.0) * b.clamp(-2.0, 2.0)),
    "clipped_swiglu_interleaved": ((8, 64), -1, True, _clipped(1.702, 7.0, 1.0, 0)),
    "clipped_swiglu_halves_dim1": ((4, 12, 16), 1, False, _clipped(1.0, 3.0, 0.5, 0)),
    "clipped_swiglu_after": ((8, 64), -1, False, _clipped(1.702, 2.0, 1.0, 1)),
}


def _bits(t: torch.Tensor) -> np.ndarray:
    if t.dtype == torch.float32:
        return t.detach().numpy().view(np.uint32)
    return t.detach().view(torch.int16).numpy().view(np.uint16)


def export(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, (shape, dim, interleaved, fn) in CASES.items():
        for dtype, torch_dtype in DTYPES.items():
            rng = np.random.default_rng(zlib.crc32(f"{name}_{dtype}".encode()))
            values = rng.standard_normal(shape) * 3
            values.reshape(-1)[:8] = [9.0, -9.0, 30.0, -30.0, THRESHOLD, 7.0, -7.0, 2.0]
            x = torch.tensor(values, dtype=torch.float32).to(torch_dtype)
            a, b = _halves(dim, interleaved)(x.double())
            y = fn(a, b).to(torch_dtype)
            threshold = (torch.tensor([THRESHOLD], dtype=torch_dtype) if name == "fatrelu_mul"
                         else torch.zeros(0, dtype=torch_dtype))
            np.savez(out_dir / f"{name}_{dtype}.npz", x=_bits(x), threshold=_bits(threshold),
                     y=_bits(y), torch=np.array(torch.__version__))
            print(f"{name}_{dtype}: x {tuple(x.shape)} -> y {tuple(y.shape)}")


if __name__ == "__main__":
    export(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
