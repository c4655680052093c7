"""The element types a kernel is checked in: names, numpy dtypes, C++ spellings, bit views."""

from __future__ import annotations

from collections.abc import Mapping

import ml_dtypes
import numpy as np
from xdsl.ir import Attribute

from hswc.dialects.ascend_types import element_type_name

DTYPES: tuple[str, ...] = ("f16", "bf16", "f32")

NUMPY: Mapping[str, np.dtype] = {
    "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32)}

BITS: Mapping[str, np.dtype] = {
    "f16": np.dtype(np.uint16), "bf16": np.dtype(np.uint16), "f32": np.dtype(np.uint32)}

CPP: Mapping[str, str] = {"f16": "half", "bf16": "bfloat16_t", "f32": "float"}
"""The AscendC spelling of each element type (what DTYPE_X is defined to, and `{T}`)."""
GE_NAMES: Mapping[str, str] = {"f16": "DT_FLOAT16", "bf16": "DT_BF16", "f32": "DT_FLOAT"}
"""The ge::DataType name of each element type (what ORIG_DTYPE_X is defined to, as CANN's
kernel build does; the CPU model defines the names as kernel_type.h numbers them)."""

TENSOR_TYPES: Mapping[str, tuple[str, str]] = {
    "float32": ("float", "DT_FLOAT"), "int8": ("int8_t", "DT_INT8"),
    "float8_e5m2": ("fp8_e5m2_t", "DT_FLOAT8_E5M2"),
    "float8_e4m3fn": ("fp8_e4m3fn_t", "DT_FLOAT8_E4M3FN"),
    "float8_e8m0fnu": ("fp8_e8m0_t", "DT_FLOAT8_E8M0")}
"""A tensor of another dtype than the run's, by its numpy dtype name: its AscendC type and
ge::DataType name (what its DTYPE_<NAME> and ORIG_DTYPE_<NAME> are defined to)."""


def dtype_of_element(t: Attribute) -> str | None:
    """'f16', 'bf16' or 'f32' for those element types, else None."""
    name = element_type_name(t)
    return name if name in DTYPES else None


UINTS: Mapping[int, type[np.unsignedinteger]] = {1: np.uint8, 2: np.uint16, 4: np.uint32}
"""The unsigned integer of each float's size (an 8-bit float's bits are a uint8)."""


def bits(array: np.ndarray) -> np.ndarray:
    """The bit patterns of a float array: uint8 (the 8-bit floats), uint16 or uint32."""
    return np.ascontiguousarray(array).view(UINTS[array.itemsize])


def hex_value(value: np.generic | np.ndarray) -> str:
    """One element as `0x3c00 (1)`: its bits, then its value; a mask's bit (a bool) as 1 or
    0."""
    a = np.asarray(value).reshape(1)
    if a.dtype == np.bool_:
        return str(int(a[0]))
    if a.dtype.kind in "iu":  # an integer output (GeluQuant's int8 y): its value
        return str(int(a[0]))
    width = 2 * a.itemsize
    return f"0x{int(bits(a)[0]):0{width}x} ({float(a[0].astype(np.float32)):.8g})"


def parse_dtypes(text: str) -> tuple[str, ...]:
    """`f16,f32` -> ("f16", "f32"), in the order given, without repeats; ValueError otherwise."""
    chosen: list[str] = []
    for name in (part.strip() for part in text.split(",")):
        if name not in DTYPES:
            raise ValueError(f"unknown dtype '{name}' (known: {', '.join(DTYPES)})")
        if name not in chosen:
            chosen.append(name)
    return tuple(chosen)
