"""Export PyTorch functions as linalg-on-tensors and record what MLIR computes for them.

    pip install torch==2.13.0 torch-mlir==20261001    # optional: only this script needs them
    python tools/export_torch_fixtures.py [OUT_DIR]   # default test/fixtures/torch_mlir

For every function of FIXTURES (each family op forward and backward, in f32, f16 and bf16;
compositions; a dynamic dim; ranks 0 to 3; broadcast operands: a bias add in each dtype, a
per-row scale, a rank-0 argument, rank-2 and rank-3 broadcasts) it writes `<name>.mlir`, exactly as
`torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")` prints it, and
`<name>.npz`: the inputs (`in0`, `in1`, ...: random values and every special a threshold
needs, as raw bits) and `out`, the result of MLIR's own CPU execution of that file (torch-mlir's
ExecutionEngine), the oracle test/test_torch_fixtures.py compares hswc-run with at every level.

The oracle is MLIR's semantics of the file, not eager PyTorch's (the two differ: torch-mlir's
softshrink and relu6 signs of zero, f16 leaky_relu's slope rounded to f16); tools/mlir_oracle.py
runs it and says which traps of these machines it avoids (libm, bf16 conversions) and how its
roundings are checked before anything is written.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from mlir_oracle import bf16_bits, check_conversions, execute, f32_of_bf16, raw

DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": np.dtype(np.uint16)}
"""How each dtype's values are held: bf16 as its bits (numpy has no bf16 of its own)."""
SPECIALS = (0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 3.0, -3.0, 6.0, -6.0, 1.0, -1.0,
            2.0, -2.0, 0.01, 1e-40, -1e-40, 6e-8, -6e-8, 1e-5, -1e-5, 65504.0, -65504.0)
"""Thresholds of the family (and their neighbours, added below), zeros, infinities, NaN and
subnormals of each dtype."""


@dataclass(frozen=True)
class Fixture:
    name: str
    fn: Callable[..., object]
    inputs: int
    shape: tuple[int, ...] = (4, 64)
    dynamic: bool = False
    """Export dim 0 as torch.export.Dim (tensor.dim / tensor.empty(%d) in the IR)."""
    bias: bool = False
    """The second input has the shape's last dim only (a bias, broadcast over the rows)."""
    operands: tuple[tuple[int, ...], ...] = ()
    """Each input's own shape, where they are not all `shape` (torch broadcasts them to it)."""

    def input_shape(self, i: int) -> tuple[int, ...]:
        if self.operands:
            return self.operands[i]
        return self.shape[-1:] if self.bias and i == 1 else self.shape


def _fixtures() -> list[Fixture]:
    import torch
    import torch.nn.functional as F

    aten = torch.ops.aten
    ops: dict[str, tuple[Callable[..., object], int]] = {
        "hardswish": (F.hardswish, 1),
        "hardsigmoid": (F.hardsigmoid, 1),
        "hardtanh": (lambda x: F.hardtanh(x, -2.0, 2.0), 1),
        "relu6": (F.relu6, 1),
        "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), 1),
        "threshold": (lambda x: F.threshold(x, 0.5, 2.0), 1),
        "hardshrink": (lambda x: F.hardshrink(x, 0.5), 1),
        "softshrink": (lambda x: F.softshrink(x, 0.5), 1),
        "hardswish_backward": (lambda g, x: aten.hardswish_backward(g, x), 2),
        "hardsigmoid_backward": (lambda g, x: aten.hardsigmoid_backward(g, x), 2),
        "hardtanh_backward": (lambda g, x: aten.hardtanh_backward(g, x, -2.0, 2.0), 2),
        "leaky_relu_backward": (lambda g, x: aten.leaky_relu_backward(g, x, 0.2, False), 2),
        "threshold_backward": (lambda g, x: aten.threshold_backward(g, x, 0.5), 2),
        "hardshrink_backward_where": (  # torch-mlir 20261001 does not lower
            lambda g, x: torch.where((x >= -0.5) & (x <= 0.5), torch.zeros_like(g), g), 2),
        "softshrink_backward_where": (  # aten.hardshrink_ / softshrink_backward
            lambda g, x: torch.where(x.abs() <= 0.5, torch.zeros_like(g), g), 2),
        "hardswish_times": (lambda x, y: F.hardswish(x) * y, 2),
        "hardtanh_of_leaky_relu": (lambda x: F.hardtanh(F.leaky_relu(x, 0.1), -1.0, 1.0), 1),
    }
    fixtures = [Fixture(f"{name}_{dt}", fn, n)
                for name, (fn, n) in ops.items() for dt in DTYPES]
    fixtures += [
        Fixture(f"hardswish_rank{r}_f32", F.hardswish, 1, shape)
        for r, shape in ((0, ()), (1, (100,)), (3, (2, 3, 17)))
    ]
    fixtures += [
        Fixture("hardtanh_dynamic_f16", lambda x: F.hardtanh(x), 1,
                dynamic=True),
    ]
    fixtures += [Fixture(f"bias_add_{dt}", lambda x, b: x + b, 2, bias=True) for dt in DTYPES]
    fixtures += [  # broadcast operands: a per-row scale, a rank-0 argument, ranks 2 and 3
        Fixture("row_scale_f32", lambda x, s: x * s, 2, operands=((4, 64), (4, 1))),
        Fixture("row_scale_bf16", lambda x, s: x * s, 2, operands=((4, 64), (4, 1))),
        Fixture("rank0_scale_f32", lambda x, s: x * s, 2, operands=((4, 64), ())),
        Fixture("rank0_scale_f16", lambda x, s: F.hardtanh(x * s), 2, operands=((4, 64), ())),
        Fixture("broadcast_rank2_f16", lambda x, y: torch.maximum(x, y), 2,
                operands=((4, 64), (1, 64))),
        Fixture("broadcast_rank3_bf16", lambda x, y: x - y, 2, (2, 3, 17),
                operands=((2, 3, 17), (3, 1))),
        Fixture("broadcast_rank3_bias_f32", lambda x, b: F.relu6(x + b), 2, (2, 3, 17),
                operands=((2, 3, 17), (17,))),
    ]
    return fixtures


def dtype_name(name: str) -> str:
    return name.rsplit("_", 1)[1]


def _cast(values: np.ndarray, dtype: str) -> np.ndarray:
    """Values rounded to the dtype (bf16 by way of f32, as ml_dtypes converts an f64), held
    as DTYPES says."""
    if dtype == "bf16":
        return bf16_bits(values.astype(np.float32))
    return values.astype(DTYPES[dtype])


def _widened(held: np.ndarray, dtype: str) -> np.ndarray:
    return f32_of_bf16(held) if dtype == "bf16" else held.astype(np.float32)


def make_inputs(fixture: Fixture, seed: int) -> list[np.ndarray]:
    """Random values (scaled to cross every threshold) with the specials and their
    neighbours in the dtype, deterministic per fixture."""
    dtype = dtype_name(fixture.name)
    rng = np.random.default_rng(seed)
    arrays = []
    for i in range(fixture.inputs):
        shape = fixture.input_shape(i)
        size = int(np.prod(shape))
        a = _cast((rng.standard_normal(size) * 4).astype(np.float32), dtype)
        specials = _cast(np.array(SPECIALS, np.float64), dtype)
        wide = _widened(specials, dtype)
        near = np.concatenate([specials, _cast(np.nextafter(wide, np.inf), dtype),
                               _cast(np.nextafter(wide, -np.inf), dtype)])
        count = min(size, len(near))
        a[rng.permutation(size)[:count]] = rng.permutation(near)[:count]
        arrays.append(a.reshape(shape))
    return arrays


def export(fixture: Fixture) -> str:
    import torch
    from torch_mlir import fx

    torch_dtype = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[
        fixture.name.rsplit("_", 1)[1]]

    class Module(torch.nn.Module):
        def forward(self, *args: torch.Tensor) -> object:
            return fixture.fn(*args)

    shapes = [fixture.input_shape(i) for i in range(fixture.inputs)]
    args = [torch.zeros(s, dtype=torch_dtype) for s in shapes]
    kwargs = {}
    if fixture.dynamic:
        batch = torch.export.Dim("batch", min=2)
        kwargs["dynamic_shapes"] = (tuple({0: batch} for _ in args),)  # forward(*args)
    module = fx.export_and_import(Module(), *args, output_type="linalg-on-tensors", **kwargs)
    return str(module)


def main(argv: list[str]) -> int:
    out_dir = Path(argv[1]) if len(argv) > 1 else Path("test/fixtures/torch_mlir")
    out_dir.mkdir(parents=True, exist_ok=True)
    check_conversions()
    for seed, fixture in enumerate(_fixtures()):
        try:
            text = export(fixture)
        except Exception as error:  # torch-mlir lowers not every aten op to linalg
            print(f"{fixture.name}: not exported: {str(error).strip().splitlines()[0]}")
            continue
        inputs = make_inputs(fixture, seed)
        dtype = dtype_name(fixture.name)
        out = execute(text, inputs, [(fixture.shape, DTYPES[dtype])])[0]
        (out_dir / f"{fixture.name}.mlir").write_text(text)
        bits = {f"in{i}": a for i, a in enumerate(inputs)}
        np.savez_compressed(out_dir / f"{fixture.name}.npz",
                            **{k: raw(v) for k, v in bits.items()}, out=raw(out),
                            dtype=np.array(dtype))
        print(fixture.name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
