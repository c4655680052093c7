"""numpy dtypes of the IR's element types (bf16 is ml_dtypes.bfloat16; masks ui8 as uint8; the
bitwise instructions' ui16 / i16 are uint16 / int16; f64, i1 (bool), the other integers and
index as exporters' IR holds them: a signless or signed iN as numpy's intN, an unsigned one as
uintN, index as int64; f8E4M3FN and f8E5M2, a quantization's outputs, as ml_dtypes'
float8_e4m3fn and float8_e5m2, whose conversions from wider floats round to nearest even and
overflow to NaN (E4M3FN, which has no inf) or inf (E5M2), as MLIR's APFloat does; f8E8M0FNU
(MX block scales: powers of 2, 0xff NaN) and f4E2M1FN as ml_dtypes' float8_e8m0fnu and
float4_e2m1fn (a body converts an exact power of 2 to E8M0: hswc.ops.group_quant))."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)
BF16 = np.dtype(ml_dtypes.bfloat16)
U8 = np.dtype(np.uint8)
U16 = np.dtype(np.uint16)
I16 = np.dtype(np.int16)
I64 = np.dtype(np.int64)
F8E4M3FN = np.dtype(ml_dtypes.float8_e4m3fn)
F8E5M2 = np.dtype(ml_dtypes.float8_e5m2)
FLOAT8 = (F8E4M3FN, F8E5M2)
F8E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
F4E2M1 = np.dtype(ml_dtypes.float4_e2m1fn)

NAMES = {F16: "f16", F32: "f32", BF16: "bf16", F8E4M3FN: "f8E4M3FN", F8E5M2: "f8E5M2"}


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype holding values of element type `t`; ValueError for others."""
    if isinstance(t, Float16Type):
        return F16
    if isinstance(t, Float32Type):
        return F32
    if isinstance(t, BFloat16Type):
        return BF16
    if isinstance(t, Float64Type):
        return F64
    if isinstance(t, Float8E4M3FNType):
        return F8E4M3FN
    if isinstance(t, Float8E5M2Type):
        return F8E5M2
    if isinstance(t, Float8E8M0FNUType):
        return F8E8M0
    if isinstance(t, Float4E2M1FNType):
        return F4E2M1
    if isinstance(t, IntegerType) and t.width.data == 1:
        return BOOL
    if isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64):
        kind = "u" if t.signedness.data == Signedness.UNSIGNED else "i"
        return np.dtype(f"{kind}{t.width.data // 8}")
    if isinstance(t, IndexType):
        return I64
    raise ValueError(f"the interpreter has no dtype for element type {t}")


def element_name(dtype: np.dtype) -> str | None:
    """The IR's spelling of a numpy dtype the vector unit holds (f16, bf16, f32, f8E4M3FN,
    f8E5M2, i8, ui8, i16, ui16, i32, ui32, i64; hswc.soc_api's IR_TYPES), None for others."""
    if dtype in NAMES:
        return NAMES[dtype]
    if dtype.kind in "iu" and dtype.itemsize in (1, 2, 4, 8):
        return f"{'ui' if dtype.kind == 'u' else 'i'}{dtype.itemsize * 8}"
    return None
