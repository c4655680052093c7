"""MLIR's own CPU execution of a linalg-on-tensors file: the oracle of the torch-mlir fixtures.

Used by tools/export_torch_fixtures.py and tools/export_model_fixtures.py (they need torch-mlir,
whose wheel carries MLIR's Python bindings and ExecutionEngine; numpy is the only other need).

`execute(text, inputs, outputs)` bufferizes the file, lowers it to LLVM and runs `@main` on the
inputs, returning its results (several, of any element type: floats, integers, i1 as one byte).
f16 arrays are numpy's float16; bf16 arrays travel as their raw bits (uint16, numpy has no
bf16 without ml_dtypes), which is what the memref holds.

Two traps of these machines are avoided: math ops go to libm calls before LLVM's own lowering
(which would expand e.g. log1p inexactly), and bf16 arithmetic is computed in f32
(`arith-emulate-unsupported-floats`: one rounding back, exact by the 2p + 2 theorem, see
hswc.passes.hsg_widen_bf16) with its conversions expanded to integer code by
`arith-expand{include-bf16}` (round to nearest even, subnormals kept) instead of the
AVX512-BF16 instruction LLVM picks on a CPU that has it (which flushes subnormal results to
zero: it made leaky_relu of the bf16 subnormal 9.18e-41 zero). Every bf16 and f16 rounding the
oracle does is checked against numpy's f16 and an integer round-to-nearest-even of the f32 bits
(`bf16_bits`) by `check_conversions` (a truncf and a mulf) before anything is written.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import numpy as np

PIPELINE = (
    "builtin.module("
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion="
    "identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions=true},"
    "func.func(convert-linalg-to-loops),"
    "convert-math-to-libm,"
    "func.func(arith-emulate-unsupported-floats{source-types=bf16 target-type=f32}),"
    "arith-expand{include-bf16=true},"
    "convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine,"
    "finalize-memref-to-llvm,"
    "convert-math-to-llvm,"
    "convert-arith-to-llvm,"
    "convert-func-to-llvm,"
    "convert-cf-to-llvm,"
    "reconcile-unrealized-casts)"
)

_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def raw(array: np.ndarray) -> np.ndarray:
    """The array's bits as unsigned integers of its width (bool stays bool)."""
    if array.dtype == np.bool_:
        return array
    return array.view(_BITS[array.dtype.itemsize])


def bf16_bits(values: np.ndarray) -> np.ndarray:
    """f32 values rounded to bf16 (to nearest, ties to even; subnormals kept; a NaN stays a
    quiet NaN of its sign), as the uint16 bits of the results."""
    bits = np.ascontiguousarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(values)
    rounded[nan] = ((bits[nan] >> 16) | 0x40).astype(np.uint16)
    return rounded


def f32_of_bf16(bits: np.ndarray) -> np.ndarray:
    """bf16 bits (uint16) widened exactly to f32."""
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def _descriptor(array: np.ndarray) -> object:
    """A ranked memref descriptor over the array's bits."""
    from torch_mlir.runtime.np_to_memref import get_ranked_memref_descriptor

    return ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(raw(array))))


def execute(text: str, inputs: Sequence[np.ndarray],
            outputs: Sequence[tuple[tuple[int, ...], np.dtype]]) -> list[np.ndarray]:
    """`@main` of the file run by MLIR's ExecutionEngine on `inputs`; `outputs` gives each
    result's shape (its dynamic dims resolved) and the numpy dtype that holds its bits."""
    from torch_mlir import ir, passmanager
    from torch_mlir.execution_engine import ExecutionEngine

    with ir.Context():
        module = ir.Module.parse(text)
        for op in module.body.operations:
            if op.operation.name == "func.func":
                op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        passmanager.PassManager.parse(PIPELINE).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        args = [np.ascontiguousarray(a) for a in inputs]
        results = [np.zeros(shape, dtype) for shape, dtype in outputs]
        engine.invoke("main", *[_descriptor(a) for a in args],
                      *[_descriptor(r) for r in results])
        return results


def _unary_body(n: int, source: str, target: str, body: str) -> str:
    return f"""
func.func @main(%a: tensor<{n}x{source}>) -> tensor<{n}x{target}> {{
  %one = arith.constant 1.0 : {target}
  %e = tensor.empty() : tensor<{n}x{target}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%a : tensor<{n}x{source}>)
      outs(%e : tensor<{n}x{target}>) {{
  ^bb0(%x: {source}, %o: {target}):
    {body}
    linalg.yield %t : {target}
  }} -> tensor<{n}x{target}>
  return %r : tensor<{n}x{target}>
}}"""


def check_conversions() -> None:
    """The oracle's f32 -> bf16 / f16 rounding equals `bf16_bits`' / numpy's, subnormals and
    ties included (the AVX512-BF16 trap), and x * 1 is x for every bf16 and f16 x."""
    bits = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32)
    values = np.concatenate([bits.view(np.float32), np.float32([1e-40, -1e-40, 3e-39])])
    for name in ("bf16", "f16"):
        want = bf16_bits(values) if name == "bf16" else values.astype(np.float16).view(np.uint16)
        text = _unary_body(len(values), "f32", name, f"%t = arith.truncf %x : f32 to {name}")
        got = raw(execute(text, [values], [(values.shape, np.dtype(np.uint16))])[0])
        nan = np.isnan(values)
        same = np.isnan(_as_f32(got, name)) == nan
        same[~nan] = got[~nan] == want[~nan]
        if not same.all():
            raise SystemExit(f"the oracle rounds f32 to {name} unlike {_ROUNDING[name]} at "
                             f"{int((~same).sum())} values, e.g. {values[~same][:4]}")
        every = np.arange(1 << 16, dtype=np.uint16)
        text = _unary_body(len(every), name, name, f"%t = arith.mulf %x, %one : {name}")
        got = raw(execute(text, [every], [(every.shape, np.dtype(np.uint16))])[0])
        nan = np.isnan(_as_f32(every, name))
        if not (np.array_equal(np.isnan(_as_f32(got, name)), nan)
                and np.array_equal(got[~nan], every[~nan])):
            raise SystemExit(f"the oracle's {name} x * 1 is not x for every {name} x "
                             "(subnormals flushed?)")


_ROUNDING = {"bf16": "an integer round to nearest even", "f16": "numpy"}


def _as_f32(bits: np.ndarray, name: str) -> np.ndarray:
    return f32_of_bf16(bits) if name == "bf16" else bits.view(np.float16).astype(np.float32)
