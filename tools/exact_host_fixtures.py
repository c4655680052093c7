"""The exact results (float64) of the whole-model fixtures whose reductions hswc runs in row
kernels: test/fixtures/host_models/exact/<name>.npz, `exact<i>` per result, for the inputs of
<name>.npz.

Each is the same function torch-mlir exported (the training step traced by make_fx with the
core ATen decompositions, tools/host_fixture_models.py), traced again in float64 and run
eagerly by PyTorch on the file's inputs widened exactly to float64: the value MLIR's execution
(rounding every step to the file's type, summing in it) and hswc's (summing in f32) both
approximate. test/test_host_fixtures.py holds hswc's error against it to MLIR's own.

Needs PyTorch (torch==2.14.1), which CI does not:
    /work/venv-oracle/bin/python tools/exact_host_fixtures.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

FILES = ("conv_bn_hardswish_backward_f32", "conv_bn_hardswish_backward_f16",
         "conv_bn_hardswish_backward_bf16")
"""The files, each traced from its model (host_fixture_models.MODELS) by name."""


def _widened(a: np.ndarray, kind: str) -> np.ndarray:
    """A stored input as float64 (f16 and bf16 are stored as their bits; a bf16's bits are the
    top half of the f32 of the same value)."""
    if kind == "f16":
        return a.view(np.float16).astype(np.float64)
    if kind == "bf16":
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def exact(name: str, fixtures: Path) -> list[np.ndarray]:
    """The file's results in float64 on its own inputs."""
    import torch
    from host_fixture_models import MODELS

    model = next(m for m in MODELS if name.rsplit("_", 1)[0] == m.name)
    graph, _ = model.make(torch.float64)
    data = np.load(fixtures / f"{name}.npz")
    types = [str(t) for t in data["types"]]
    count = sum(1 for k in data.files if k.startswith("in"))
    inputs = [torch.from_numpy(_widened(data[f"in{i}"], types[i])) for i in range(count)]
    with torch.no_grad():
        results = graph(*inputs)
    return [r.detach().numpy().astype(np.float64) for r in results]


def main(argv: list[str]) -> int:
    fixtures = Path(__file__).parent.parent / "test" / "fixtures" / "host_models"
    out_dir = Path(argv[1]) if len(argv) > 1 else fixtures / "exact"
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        results = exact(name, fixtures)
        np.savez_compressed(out_dir / f"{name}.npz",
                            **{f"exact{i}": r for i, r in enumerate(results)})
        print(name, [r.shape for r in results])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
