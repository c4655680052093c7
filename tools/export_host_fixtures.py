"""Export whole PyTorch models as linalg-on-tensors and record what MLIR computes for them.

    pip install torch==2.14.1 torchvision==0.29.1 torch-mlir==20261001 ml_dtypes
    python tools/export_host_fixtures.py [OUT_DIR]   # default test/fixtures/host_models

Each model of tools/host_fixture_models.py (MobileNetV3-Small at width 0.1 on a 32x32 image
with random weights and batch-norm statistics, a Llama MLP, an attention block, softmax,
layer_norm, a conv -> BatchNorm -> hardswish -> conv training step's gradients, torch.max's
values and indices, an embedding, concat and pad, max and average pooling; f32, f16 and bf16
where listed) is exported by
`torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")` (the training step by
make_fx and `stateless_fx_import`) into `<name>.mlir`, exactly as printed, with `<name>.npz`:
its inputs `in0`, `in1`, ..., and `out0`, `out1`, ..., the results of MLIR's own CPU execution
of the file (torch-mlir's ExecutionEngine, by tools/mlir_oracle.py, the oracle of every
fixture set, after its conversion checks), each f16 / bf16 array as its raw bits, with
`types`: the element type of each input and result. test/test_host_fixtures.py compares
hswc-run with them. (tools/export_model_fixtures.py's larger set, from which this one is
independent, is compared by test/test_model_fixtures_host.py.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mlir_oracle  # a script beside this one (tools/ is not a package)

if TYPE_CHECKING:
    from host_fixture_models import Model

NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16), "f64": np.dtype(np.float64),
         "i64": np.dtype(np.int64), "i32": np.dtype(np.int32), "i1": np.dtype(np.bool_)}


def export(model: Model, dtype: str) -> tuple[str, list[np.ndarray]]:
    """The model's file as torch-mlir prints it, and its inputs."""
    import torch
    from torch_mlir import fx

    torch_dtype = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype]
    module, inputs = model.make(torch_dtype)
    inputs = [a.to(torch_dtype) if a.is_floating_point() else a for a in inputs]
    if isinstance(module, torch.fx.GraphModule):
        text = str(fx.stateless_fx_import(module, output_type="linalg-on-tensors"))
    else:
        text = str(fx.export_and_import(module, *inputs, output_type="linalg-on-tensors"))
    arrays = [a.float().numpy().astype(NUMPY[dtype]) if a.is_floating_point() else a.numpy()
              for a in inputs]
    return text, arrays


def _signature(text: str) -> list[tuple[tuple[int, ...], str]]:
    """The shape and element type of each result of @main."""
    from torch_mlir import ir

    with ir.Context():
        module = ir.Module.parse(text)
        main = next(op for op in module.body.operations if op.operation.name == "func.func")
        results = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).results
        return [(tuple(ir.RankedTensorType(t).shape), str(ir.RankedTensorType(t).element_type))
                for t in results]


def execute(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The file run by MLIR's ExecutionEngine on `inputs` (tools/mlir_oracle.py): every result
    of @main, in its own type."""
    signature = _signature(text)
    held = [np.dtype(np.uint16) if element in ("f16", "bf16") else NUMPY[element]
            for _, element in signature]
    results = mlir_oracle.execute(text, [_raw(a) for a in inputs],
                                  [(shape, dtype) for (shape, _), dtype in
                                   zip(signature, held, strict=True)])
    return [r.view(NUMPY[element]) if element in ("f16", "bf16") else r
            for r, (_, element) in zip(results, signature, strict=True)]


def _type_name(array: np.ndarray) -> str:
    return next(name for name, dtype in NUMPY.items() if dtype == array.dtype)


def _raw(a: np.ndarray) -> np.ndarray:
    """2-byte floats as their bits (numpy cannot read bf16 back from .npz)."""
    return a.view(np.uint16) if a.dtype in (NUMPY["f16"], NUMPY["bf16"]) else a


def main(argv: list[str]) -> int:
    import torch
    from host_fixture_models import MODELS

    out_dir = Path(argv[1]) if len(argv) > 1 else Path("test/fixtures/host_models")
    out_dir.mkdir(parents=True, exist_ok=True)
    mlir_oracle.check_conversions()
    for model in MODELS:
        for dtype in model.dtypes:
            torch.manual_seed(len(model.name) * 7 + len(dtype))
            name = f"{model.name}_{dtype}"
            text, inputs = export(model, dtype)
            outputs = execute(text, inputs)
            (out_dir / f"{name}.mlir").write_text(text)
            types = [_type_name(a) for a in inputs] + [_type_name(o) for o in outputs]
            np.savez_compressed(out_dir / f"{name}.npz",
                                **{f"in{i}": _raw(a) for i, a in enumerate(inputs)},
                                **{f"out{i}": _raw(o) for i, o in enumerate(outputs)},
                                types=np.array(types))
            print(name, [o.shape for o in outputs])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
