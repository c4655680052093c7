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
of the file (torch-mlir's ExecutionEngine, through tools/export_torch_fixtures.py's pipeline
and conversion checks), each f16 / bf16 array as its raw bits, with `types`: the element type
of each input and result. test/test_host_fixtures.py compares hswc-run with them.
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import export_torch_fixtures  # a script beside this one (tools/ is not a package)

if TYPE_CHECKING:
    from host_fixture_models import Model

PIPELINE: str = export_torch_fixtures.PIPELINE.replace(
    "convert-math-to-libm,", "func.func(math-expand-ops{ops=rsqrt}),convert-math-to-libm,")
"""The oracle's lowering (tools/export_torch_fixtures.py's), with math.rsqrt as 1 / sqrt(x)
(what MLIR's math-to-llvm makes of it; math-to-libm would call an `rsqrtf` libm lacks)."""

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


def _descriptor(array: np.ndarray) -> object:
    """A ranked memref descriptor over the array's bits (2-byte floats as uint16, i1 as
    bytes)."""
    from torch_mlir.runtime.np_to_memref import get_ranked_memref_descriptor

    if array.dtype.itemsize == 2 and array.dtype.kind in "fV":
        array = array.view(np.uint16)
    elif array.dtype == np.bool_:
        array = array.view(np.uint8)
    return ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(array)))


def _signature(text: str) -> list[tuple[tuple[int, ...], str]]:
    """The shape and element type of each result of @main."""
    from torch_mlir import ir

    with ir.Context():
        module = ir.Module.parse(text)
        main = next(op for op in module.body.operations if op.operation.name == "func.func")
        results = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).results
        return [(tuple(ir.RankedTensorType(t).shape), str(ir.RankedTensorType(t).element_type))
                for t in results]


class _Unranked(ctypes.Structure):
    _fields_ = (("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p))


def _strided(memref: _Unranked, size: int) -> tuple[int, list[int], list[int]]:
    """A ranked memref's first element's address, its sizes and its strides (in elements)."""
    rank = memref.rank
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(memref.descriptor)
    aligned, offset = words[1], words[2]
    return aligned + offset * size, list(words[3:3 + rank]), list(words[3 + rank:])


@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(_Unranked), ctypes.POINTER(_Unranked))
def _memref_copy(size: int, source: Any, target: Any) -> None:
    """MLIR's runtime memrefCopy (which the wheel does not ship): a strided copy, element by
    element (the oracle's tensors are small)."""
    src, shape, src_strides = _strided(source.contents, size)
    dst, _, dst_strides = _strided(target.contents, size)
    for index in np.ndindex(*shape):
        at_src = sum(i * s for i, s in zip(index, src_strides, strict=True))
        at_dst = sum(i * s for i, s in zip(index, dst_strides, strict=True))
        ctypes.memmove(dst + at_dst * size, src + at_src * size, size)


def _bf16_bits(x: float) -> int:
    """x rounded once to bf16 (to nearest even): to f32 by rounding to odd, then to bf16 by
    rounding to nearest even on the bits (exact: f32 keeps 8 + 2 bits more than bf16, Boldo
    and Melquiond)."""
    if x != x:
        return 0x7FC0
    with np.errstate(over="ignore"):
        nearest = np.float32(x)
    if np.isfinite(nearest) and float(nearest) != x and not int(nearest.view(np.uint32)) & 1:
        nearest = np.nextafter(nearest, np.float32(np.inf if x > nearest else -np.inf))
    bits = int(np.asarray(nearest).view(np.uint32))
    if not np.isfinite(nearest):
        return bits >> 16
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


@ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_double)
def _truncdfbf2(x: float) -> float:
    """compiler-rt's __truncdfbf2 (f64 -> bf16, which the wheel does not ship): the bf16
    travels in the low 16 bits of the float register the C ABI returns it in."""
    return float(np.uint32(_bf16_bits(x)).view(np.float32))


def execute(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The file run by MLIR's ExecutionEngine on `inputs`: every result of @main."""
    from torch_mlir import ir, passmanager
    from torch_mlir.execution_engine import ExecutionEngine

    outputs = [np.zeros(shape, NUMPY[element]) for shape, element in _signature(text)]
    with ir.Context():
        module = ir.Module.parse(text)
        for op in module.body.operations:
            if op.operation.name == "func.func":
                op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        passmanager.PassManager.parse(PIPELINE).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        engine.raw_register_runtime("memrefCopy", ctypes.cast(_memref_copy, ctypes.c_void_p))
        engine.raw_register_runtime("__truncdfbf2", ctypes.cast(_truncdfbf2, ctypes.c_void_p))
        engine.invoke("main", *[_descriptor(np.ascontiguousarray(a)) for a in inputs],
                      *[_descriptor(o) for o in outputs])
    return outputs


def _type_name(array: np.ndarray) -> str:
    return next(name for name, dtype in NUMPY.items() if dtype == array.dtype)


def _raw(a: np.ndarray) -> np.ndarray:
    """2-byte floats as their bits (numpy cannot read bf16 back from .npz)."""
    return a.view(np.uint16) if a.dtype in (NUMPY["f16"], NUMPY["bf16"]) else a


def check_truncdfbf2() -> None:
    """The oracle's f64 -> bf16 rounds once to nearest even, as an exact rational rounding
    does (ties, the bf16 subnormals, overflow), before anything is written."""
    from fractions import Fraction

    def exact(x: float) -> float:
        if abs(x) >= 2.0 ** 128 * (1 - 2.0 ** -9):
            return float(np.copysign(np.inf, x))
        scale = max(int(np.floor(np.log2(abs(x)))) if x else -126, -126) - 7
        q = Fraction(x) / Fraction(2) ** scale
        whole, rest = divmod(q, 1)
        if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
            whole += 1
        return float(whole * Fraction(2) ** scale)

    values = np.array([1 + 3 * 2.0 ** -8 - 2.0 ** -40, 1 + 3 * 2.0 ** -8, 1 + 2.0 ** -8,
                       -(1 + 2.0 ** -8 + 2.0 ** -60), 1e-40, -3e-39, 9.2e-41, 3.4e38, 3.5e38,
                       0.1, -0.0, 2.0 ** -133, 2.0 ** -134 * 3], np.float64)
    n = len(values)
    text = f"""
func.func @main(%a: tensor<{n}xf64>) -> tensor<{n}xbf16> {{
  %e = tensor.empty() : tensor<{n}xbf16>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%a : tensor<{n}xf64>) outs(%e : tensor<{n}xbf16>) {{
  ^bb0(%x: f64, %o: bf16):
    %t = arith.truncf %x : f64 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{n}xbf16>
  return %r : tensor<{n}xbf16>
}}"""
    (got,) = execute(text, [values])
    want = [exact(float(v)) for v in values]
    if [float(g) for g in got.astype(np.float64)] != want:
        raise SystemExit(f"the oracle's f64 -> bf16 rounding is not exact: {got} != {want}")


def main(argv: list[str]) -> int:
    import torch
    from host_fixture_models import MODELS

    out_dir = Path(argv[1]) if len(argv) > 1 else Path("test/fixtures/host_models")
    out_dir.mkdir(parents=True, exist_ok=True)
    export_torch_fixtures.check_conversions()
    check_truncdfbf2()
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
