"""MLIR's own CPU execution of a linalg-on-tensors file: the oracle of the torch-mlir fixtures.

Used by tools/export_torch_fixtures.py and tools/export_model_fixtures.py (they need torch-mlir,
whose wheel carries MLIR's Python bindings and ExecutionEngine; numpy is the only other need).

`execute(text, inputs, outputs)` bufferizes the file, lowers it to LLVM and runs `@main` on the
inputs, returning its results (several, of any element type: floats, integers, i1 as one byte).
f16 arrays are numpy's float16; bf16 arrays travel as their raw bits (uint16, numpy has no
bf16 without ml_dtypes), which is what the memref holds.

Traps of these machines are avoided:

- A math op on f16 or bf16 is computed in f32 and rounded once to its type (`widen_half_math`:
  what convert-math-to-libm does for the ops it takes, and LLVM when it promotes a
  half-precision call). MLIR's `math-extend-to-supported-types` would do the same but marks
  its conversions `fastmath<contract>`, which lets the folder drop the rounding of a math
  result to bf16 before the next op (that changed 42 of 128 bf16 GeGLU results).
- Math ops go to libm calls before LLVM's own lowering (which would expand e.g. log1p
  inexactly), except two that libm lacks or LLVM's lowering cannot take: `math.rsqrt` is
  `1 / sqrt(x)` (`math-expand-ops`: what convert-math-to-llvm makes of it; libm has no
  `rsqrtf`), and `math.fpowi` / `math.ipowi` are MLIR's own outlined exponentiation by squaring
  (`convert-math-to-funcs`: the loop of compiler-rt's `__powisf2`, which LLVM's `powi` calls;
  LLVM's lowering takes no i64 exponent, and torch-mlir writes one).
- `arith.truncf` from f64 to bf16 is one rounding: LLVM calls `__truncdfbf2`, which this
  machine's libgcc lacks, so `round_f64_to_bf16_once` rounds to f32 first with the result's
  last bit set when inexact (rounding to odd), then to nearest even to bf16, which is exact
  because f32 keeps more than bf16's 8 + 2 bits.
- bf16 arithmetic is computed in f32 (`arith-emulate-unsupported-floats`: one rounding back,
  exact by the 2p + 2 theorem, see hswc.passes.hsg_widen_bf16) with its conversions expanded
  to integer code by `arith-expand{include-bf16}` (round to nearest even, subnormals kept)
  instead of the AVX512-BF16 instruction LLVM picks on a CPU that has it (which flushes
  subnormal results to zero: it made leaky_relu of the bf16 subnormal 9.18e-41 zero).
- A memref.copy between strided memrefs (a padded convolution input's interior) calls MLIR's
  runtime `memrefCopy`, which torch-mlir's wheel does not ship: `_memref_copy` is it.
- `math.absi` (torch-mlir's `torch.abs` of an integer tensor) is refused by this MLIR's
  convert-math-to-libm ("failed to legalize operation 'math.absi' that was explicitly marked
  illegal"), so `expand_absi` rewrites it before the pipeline as arith ops with its own
  definition: `x < 0 ? 0 - x : x`, the subtraction wrapping (|INT_MIN| is INT_MIN, as
  math.absi and torch.abs give). The oracle of such a file runs that equivalent module.

Every bf16 and f16 rounding the oracle does is checked before anything is written
(`check_conversions`: truncf from f32 against numpy's f16 and an integer round-to-nearest-even
of the f32 bits, `bf16_bits`; truncf from f64 to bf16 against the nearest of the neighbouring
bf16 values, `bf16_bits_of_f64`; x * 1 for every f16 and bf16 x).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

PIPELINE = (
    "builtin.module("
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion="
    "identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions=true},"
    "func.func(convert-linalg-to-loops),"
    "func.func(math-expand-ops{ops=rsqrt}),"
    "convert-math-to-funcs,"
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


def bf16_bits_of_f64(values: np.ndarray) -> np.ndarray:
    """f64 values rounded once to bf16 (to nearest, ties to even), as uint16 bits: each value
    between its two neighbours among every finite bf16, compared with their midpoint, which f64
    holds exactly (a reference independent of `bf16_bits` and of the oracle)."""
    grid_bits = np.arange(0x7F80, dtype=np.uint16)  # +0 ... the largest finite bf16
    grid = f32_of_bf16(grid_bits).astype(np.float64)
    grid = np.append(grid, 2.0 ** 128)  # one step past the largest finite: rounds to inf
    x = np.abs(np.asarray(values, np.float64))
    lo = np.clip(np.searchsorted(grid, x, side="right") - 1, 0, len(grid) - 2)
    mid = (grid[lo] + grid[lo + 1]) / 2
    up = (x > mid) | ((x == mid) & (lo % 2 == 1))
    magnitude = np.where(up, lo + 1, lo).astype(np.uint16)  # 0x7F80 is inf
    magnitude[x == np.inf] = 0x7F80
    bits = magnitude | np.where(np.signbit(values), 0x8000, 0).astype(np.uint16)
    bits[np.isnan(values)] = 0x7FC0
    return bits


def _ops(module: object, wanted: Callable[[Any], bool]) -> list[Any]:
    from torch_mlir import ir

    found: list[Any] = []

    def visit(op: Any) -> object:
        if wanted(op):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)  # type: ignore[attr-defined]
    return found


def widen_half_math(module: object) -> None:
    """Each math op on f16 or bf16 values rewritten as the same op on f32, its half operands
    widened (exactly) and its result rounded once back (no fastmath flags)."""
    from torch_mlir import ir
    from torch_mlir.dialects import arith

    def half(value: Any) -> bool:
        return str(value.type) in ("f16", "bf16")

    for op in _ops(module, lambda op: op.name.startswith("math.")
                   and len(op.results) == 1 and half(op.results[0])):
        with ir.InsertionPoint(op), op.location:
            f32 = ir.F32Type.get()
            operands = [arith.extf(f32, v) if half(v) else v for v in op.operands]
            wide = ir.Operation.create(op.name, results=[f32], operands=operands,
                                       attributes={n: op.attributes[n] for n in op.attributes})
            narrow = arith.truncf(op.results[0].type, wide.results[0])
            op.results[0].replace_all_uses_with(narrow)
            op.erase()


def expand_absi(module: object) -> None:
    """Each math.absi rewritten as `select(x < 0, 0 - x, x)` in arith (module docstring)."""
    from torch_mlir import ir
    from torch_mlir.dialects import arith

    for op in _ops(module, lambda op: op.name == "math.absi"):
        with ir.InsertionPoint(op), op.location:
            x = op.operands[0]
            zero = arith.constant(x.type, 0)
            negative = arith.cmpi(arith.CmpIPredicate.slt, x, zero)
            result = arith.select(negative, arith.subi(zero, x), x)
            op.results[0].replace_all_uses_with(result)
            op.erase()


def round_f64_to_bf16_once(module: object) -> None:
    """Each `arith.truncf` f64 -> bf16 of the module rewritten as a truncf to f32 rounded to
    odd (the nearest f32, stepped toward zero when it rounded away, its last bit set when
    inexact), then a truncf f32 -> bf16: the same single rounding, in ops this machine runs."""
    from torch_mlir import ir
    from torch_mlir.dialects import arith, math

    truncs = _ops(module, lambda op: op.name == "arith.truncf"
                  and str(op.operands[0].type) == "f64" and str(op.results[0].type) == "bf16")
    f32, f64, i32 = ir.F32Type.get(), ir.F64Type.get(), ir.IntegerType.get_signless(32)
    for op in truncs:
        with ir.InsertionPoint(op), op.location:
            x = op.operands[0]
            nearest = arith.truncf(f32, x)
            back = arith.extf(f64, nearest)
            inexact = arith.cmpf(arith.CmpFPredicate.UNE, back, x)
            away = arith.cmpf(arith.CmpFPredicate.OGT, math.absf(back), math.absf(x))
            bits = arith.bitcast(i32, nearest)
            one = arith.constant(i32, 1)
            toward = arith.select(away, arith.subi(bits, one), bits)
            odd = arith.select(inexact, arith.ori(toward, one), toward)
            result = arith.truncf(ir.BF16Type.get(), arith.bitcast(f32, odd))
            op.results[0].replace_all_uses_with(result)
            op.erase()


class _UnrankedMemRef(ctypes.Structure):
    _fields_ = (("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p))


def _strided(element_bytes: int, memref: _UnrankedMemRef) -> np.ndarray:
    """The elements a ranked memref descriptor (allocated, aligned, offset, sizes, strides)
    spans, as a strided numpy view of raw bytes."""
    rank = memref.rank
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(memref.descriptor)
    aligned, offset = words[1], words[2]
    sizes, strides = list(words[3:3 + rank]), list(words[3 + rank:3 + 2 * rank])
    element = np.dtype(f"V{element_bytes}")
    if 0 in sizes:
        return np.empty(sizes, element)
    span = 1 + sum((n - 1) * stride for n, stride in zip(sizes, strides, strict=True))
    buffer = (ctypes.c_char * (span * element_bytes)).from_address(
        aligned + offset * element_bytes)
    return np.lib.stride_tricks.as_strided(
        np.frombuffer(buffer, element), sizes, [s * element_bytes for s in strides])


@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(_UnrankedMemRef),
                  ctypes.POINTER(_UnrankedMemRef))
def _memref_copy(element_bytes: int, source: object, target: object) -> None:
    """MLIR's C runner utility `memrefCopy`, which finalize-memref-to-llvm calls for a
    memref.copy between non-contiguous memrefs (a padded convolution input's interior): an
    element by element copy, as CRunnerUtils' is. torch-mlir's wheel has no
    libmlir_c_runner_utils to load."""
    target_view = _strided(element_bytes, target.contents)  # type: ignore[attr-defined]
    target_view[...] = _strided(element_bytes, source.contents)  # type: ignore[attr-defined]


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
        widen_half_math(module)
        round_f64_to_bf16_once(module)
        expand_absi(module)
        for op in module.body.operations:
            if op.operation.name == "func.func":
                op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        passmanager.PassManager.parse(PIPELINE).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        engine.raw_register_runtime("memrefCopy", ctypes.cast(_memref_copy, ctypes.c_void_p))
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
        with np.errstate(over="ignore"):
            want = (bf16_bits(values) if name == "bf16"
                    else values.astype(np.float16).view(np.uint16))
        text = _unary_body(len(values), "f32", name, f"%t = arith.truncf %x : f32 to {name}")
        got = raw(execute(text, [values], [(values.shape, np.dtype(np.uint16))])[0])
        nan = np.isnan(values)
        same = np.isnan(_as_f32(got, name)) == nan
        same[~nan] = got[~nan] == want[~nan]
        if not same.all():
            raise SystemExit(f"the oracle rounds f32 to {name} unlike {_ROUNDING[name]} at "
                             f"{int((~same).sum())} values, e.g. {values[~same][:4]}")
        if name == "bf16":
            _check_f64_to_bf16()
        every = np.arange(1 << 16, dtype=np.uint16)
        text = _unary_body(len(every), name, name, f"%t = arith.mulf %x, %one : {name}")
        got = raw(execute(text, [every], [(every.shape, np.dtype(np.uint16))])[0])
        nan = np.isnan(_as_f32(every, name))
        if not (np.array_equal(np.isnan(_as_f32(got, name)), nan)
                and np.array_equal(got[~nan], every[~nan])):
            raise SystemExit(f"the oracle's {name} x * 1 is not x for every {name} x "
                             "(subnormals flushed?)")


def _check_f64_to_bf16() -> None:
    """truncf f64 -> bf16 rounds once: on values a hair off the midpoints between bf16
    neighbours (where rounding to f32 first would land on the midpoint), ties, subnormals,
    overflow, and f64 values spread over every exponent."""
    rng = np.random.default_rng(0)
    pairs = np.arange(0, 0x7F80, 7, dtype=np.uint16)
    mids = (f32_of_bf16(pairs).astype(np.float64) + f32_of_bf16(pairs + 1)) / 2
    spread = rng.integers(0, 1 << 63, 4000, dtype=np.uint64).view(np.float64)
    values = np.concatenate([mids, mids * (1 + 2.0 ** -40), mids * (1 - 2.0 ** -40),
                             spread, [0.0, 1e-300, 3.4e38, 3.3961e38, 1e300, np.inf, np.nan]])
    values = np.concatenate([values, -values])
    values = values[np.isfinite(values) | np.isinf(values) | np.isnan(values)]
    text = _unary_body(len(values), "f64", "bf16", "%t = arith.truncf %x : f64 to bf16")
    got = raw(execute(text, [values], [(values.shape, np.dtype(np.uint16))])[0])
    want = bf16_bits_of_f64(values)
    nan = np.isnan(values)
    same = np.isnan(f32_of_bf16(got)) == nan
    same[~nan] = got[~nan] == want[~nan]
    if not same.all():
        raise SystemExit(f"the oracle rounds f64 to bf16 other than once to nearest even at "
                         f"{int((~same).sum())} values, e.g. {values[~same][:4]}")


_ROUNDING = {"bf16": "an integer round to nearest even", "f16": "numpy"}


def _as_f32(bits: np.ndarray, name: str) -> np.ndarray:
    return f32_of_bf16(bits) if name == "bf16" else bits.view(np.float16).astype(np.float32)
