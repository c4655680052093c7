"""How IR types, enum properties and scalar attributes are spelled in AscendC C++."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.str_enum import StrEnum

from hswc.diagnostics import OpError
from hswc.dialects.ascend import (
    GlobalTensorType,
    LocalTensorType,
    TBufType,
    TPipeType,
    TQueType,
)
from hswc.float8_casts import FLOAT8_CPP
from hswc.float_formats import f32_bits, float_bits, round_float, shortest_f32

ELEMENT_TYPES: dict[type[Attribute], str] = {
    Float16Type: "half",
    BFloat16Type: "bfloat16_t",
    Float32Type: "float",
}
"""AscendC's names of the floating-point element types."""

_FORMAT_NAMES: dict[type[Attribute], str] = {
    Float16Type: "f16",
    BFloat16Type: "bf16",
    Float32Type: "f32",
}


class UnprintableType(ValueError):
    """A type the printer has no C++ spelling for."""

    def __init__(self, t: Attribute):
        self.type = t
        super().__init__(f"the type {t} has no C++ spelling")


@contextmanager
def spelling(op: Operation) -> Iterator[None]:
    """While `op` is printed: a type without C++ spelling is an error naming `op`."""
    try:
        yield
    except UnprintableType as error:
        raise OpError(op, f"uses the type {error.type}, which has no C++ spelling") from None


def element_cpp(t: Attribute) -> str:
    """half, bfloat16_t, float, uint8_t, int32_t, ..."""
    for kind, name in ELEMENT_TYPES.items():
        if isinstance(t, kind):
            return name
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return "bool"
        if width in (8, 16, 32, 64):
            unsigned = t.signedness.data == Signedness.UNSIGNED
            return f"{'u' if unsigned else ''}int{width}_t"
    if isinstance(t, IndexType):
        return "int64_t"
    if str(t) in FLOAT8_CPP:
        return FLOAT8_CPP[str(t)]
    raise UnprintableType(t)


def position_cpp(position: StrEnum) -> str:
    return f"AscendC::TPosition::{position.value.upper()}"


def enum_cpp(enum_name: str, value: StrEnum) -> str:
    """`AscendC::CMPMODE::GT`, `AscendC::RoundMode::CAST_RINT`, ..."""
    return f"AscendC::{enum_name}::{value.value.upper()}"


def cpp_type(t: Attribute) -> str:
    """The C++ type of a value of IR type `t`."""
    if isinstance(t, GlobalTensorType):
        return f"AscendC::GlobalTensor<{element_cpp(t.element_type)}>"
    if isinstance(t, LocalTensorType):
        return f"AscendC::LocalTensor<{element_cpp(t.element_type)}>"
    if isinstance(t, TPipeType):
        return "AscendC::TPipe"
    if isinstance(t, TQueType):
        return f"AscendC::TQue<{position_cpp(t.position.data)}, {t.depth.data}>"
    if isinstance(t, TBufType):
        return f"AscendC::TBuf<{position_cpp(t.position.data)}>"
    if isinstance(t, MemRefType):
        return "GM_ADDR"
    return element_cpp(t)


def scalar_cpp(op: Operation, scalar: FloatAttr | IntegerAttr) -> str:
    """The scalar operand of Muls / Adds / Duplicate / CompareScalar / Select, in its type.

    An integer attribute is its value cast to its C++ type (`static_cast<int8_t>(-5)`).

    A float attribute means its value rounded to its type (as MLIR's APFloat does); that value
    is written as a float literal that reads back to it (`float_literal`; an infinity or NaN
    through the compiler's builtins, `non_finite_float`), and converted to half or bfloat16_t
    exactly (every half and bfloat16_t value is a float).
    """
    if isinstance(scalar, IntegerAttr):
        return f"static_cast<{element_cpp(scalar.type)}>({scalar.value.data})"
    kind = type(scalar.type)
    format_name = _FORMAT_NAMES.get(kind)
    if format_name is None:
        raise OpError(op, f"has a scalar of type {scalar.type}, which has no C++ rule")
    value = round_float(scalar.value.data, format_name)  # an f16 or bf16 value is an f32 one
    literal = (float_literal(value) if math.isfinite(value)
               else non_finite_float(f32_bits(float_bits(scalar.value.data, format_name),
                                              format_name)))
    if kind is Float32Type:
        return literal
    return f"static_cast<{ELEMENT_TYPES[kind]}>({literal})"


def non_finite_float(bits: int) -> str:
    """An infinity or NaN as the float it is, through the compiler's builtins (C++ has no
    literal for them; g++, clang and the clang-based AscendC compiler all have these):
    `__builtin_inff()`, `-__builtin_inff()`, `__builtin_nanf("0x1")` (a quiet NaN, its payload
    the low 22 bits) or `__builtin_nansf(...)` (a signalling one), negated for a set sign bit;
    `bits` are the f32's."""
    sign = "-" if bits >> 31 else ""
    payload = bits & 0x3FFFFF
    if bits & 0x7FFFFF == 0:
        return f"{sign}__builtin_inff()"
    builtin = "__builtin_nanf" if bits & 0x400000 else "__builtin_nansf"
    return f'{sign}{builtin}("{payload:#x}")'


SHORT_DIGITS = 6
"""Significant digits up to which the shortest spelling of a float is used (MLIR's rule too)."""


def float_literal(value: float) -> str:
    """A C++ float literal that reads back to `value`: the shortest spelling when it has at most
    6 significant digits (`0.5f`, `-3.0f`, `1e-05f`), else all 9 digits of a float, as MLIR
    prints the same f32 and as ops-nn writes such constants (`0.333333343f`, not `0.33333334f`).
    """
    shortest = shortest_f32(float(value))  # with `.0` or an exponent
    mantissa = shortest.split("e")[0].lstrip("-").replace(".", "")
    if len(mantissa.strip("0")) <= SHORT_DIGITS:
        return f"{shortest}f"
    full = f"{float(value):.9g}"
    return f"{full}f" if "." in full or "e" in full else f"{full}.0f"
