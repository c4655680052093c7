"""Turning user arrays and numbers into a function's arguments, and reading .npy files safely.

A function argument of type `tensor<4x?xbf16>` takes an array of rank 2 whose first dimension
is 4 (dynamic dimensions take any size, an unranked tensor any shape), of dtype bf16: an
ml_dtypes.bfloat16 array, or the bit patterns numpy writes it as (`'<V2'`) or a uint16 array.
Arrays are made C-contiguous and native-endian (aclnn's Contiguous does the first).
A scalar argument (`%alpha: f32`, a float or integer type) takes one value: a Python number or
the text of one (rounded once to the type: `0.1`, `-1e-06`, `inf`, `nan`; an integer in its
type's range, `0x10` too), or a numpy scalar or rank-0 array of exactly its dtype; it is bound
as a numpy scalar of its dtype (a float) or a Python int, as the interpreter holds constants.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from numpy.lib import format as npy_format
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute

from hswc import arith_semantics as sem
from hswc.interpreter.dtypes import BF16, numpy_dtype
from hswc.interpreter.errors import InputError
from hswc.interpreter.limits import LimitReached, check_memory


def bind_inputs(types: Sequence[Attribute], arrays: Sequence[Any],
                names: Sequence[str] | None = None) -> list[Any]:
    """The arrays (and, for scalar arguments, numbers) as the function's arguments, checked
    against `types` in order."""
    if len(arrays) != len(types):
        missing = ", ".join(f"{_label(i, names)}: {t}" for i, t in enumerate(types)
                            if i >= len(arrays))
        raise InputError(f"the function takes {len(types)} input(s), {len(arrays)} given"
                         + (f" (missing: {missing})" if missing else ""))
    return [_bind(_label(i, names), t, array)
            for i, (t, array) in enumerate(zip(types, arrays, strict=True))]


def _label(i: int, names: Sequence[str] | None) -> str:
    return f"input {i + 1}" + (f" ({names[i]})" if names and i < len(names) and names[i] else "")


def is_scalar(t: Attribute) -> bool:
    """Whether an argument of type `t` takes one number (a float or integer type)."""
    return isinstance(t, AnyFloat | IntegerType | IndexType)


def _bind(label: str, t: Attribute, array: Any) -> Any:
    if is_scalar(t):
        return _bind_scalar(label, t, array)
    if not isinstance(t, TensorType | UnrankedTensorType):
        raise InputError(f"{label}: the argument has type {t}; only tensor arguments and "
                         "float or integer scalars can be bound")
    if isinstance(array, np.generic):
        array = np.asarray(array)  # a numpy scalar is a rank-0 array
    if not isinstance(array, np.ndarray):
        raise InputError(f"{label}: expected a numpy array, got {type(array).__name__}")
    try:
        want = numpy_dtype(t.get_element_type())
    except ValueError as error:
        raise InputError(f"{label}: {error}") from None
    value = _as_dtype(label, t, array, want)
    if isinstance(t, TensorType):
        shape = t.get_shape()
        fits = len(shape) == value.ndim and all(
            d == DYNAMIC_INDEX or d == s for d, s in zip(shape, value.shape, strict=True))
        if not fits:
            raise InputError(f"{label}: expected shape {_shape_text(shape)} ({t}), got an array "
                             f"of shape {value.shape}")
    # C order, as aclnn's Contiguous makes it (np.ascontiguousarray would make rank 0 rank 1).
    return value if value.flags.c_contiguous else value.copy(order="C")


def _bind_scalar(label: str, t: Attribute, value: Any) -> Any:
    """One number for a scalar argument of type `t` (module docstring)."""
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise InputError(f"{label}: the argument is a scalar of type {t}: expected one "
                             f"value (a number, or a rank-0 array), got an array of shape "
                             f"{value.shape}")
        value = value[()]
    if isinstance(value, np.generic) and not isinstance(value, np.bool_):
        want = np.dtype(np.int64) if isinstance(t, IndexType) else _scalar_dtype(label, t)
        if value.dtype != want and not (isinstance(t, IntegerType | IndexType)
                                        and value.dtype.kind in "iu"):
            raise InputError(f"{label}: expected a value of type {t} ({want}), got one of "
                             f"{_dtype_text(value.dtype)}")
        value = value.item() if isinstance(t, IntegerType | IndexType) else value
        if isinstance(t, AnyFloat):
            return value
    if isinstance(value, str):
        return _parse_scalar(label, t, value)
    if isinstance(t, AnyFloat) and isinstance(value, float | int) \
            and not isinstance(value, bool):
        return sem.constant(float(value), _scalar_dtype(label, t)).reshape(1)[0]
    if isinstance(t, IntegerType | IndexType) and isinstance(value, int) \
            and not isinstance(value, bool):
        return _in_range(label, t, value)
    raise InputError(f"{label}: the argument is a scalar of type {t}: expected a number, got "
                     f"{type(value).__name__}")


def _scalar_dtype(label: str, t: Attribute) -> np.dtype:
    try:
        return numpy_dtype(t)
    except ValueError as error:
        raise InputError(f"{label}: {error}") from None


def _parse_scalar(label: str, t: Attribute, text: str) -> Any:
    """A number's text (hswc-run's --input of a scalar argument) as the argument's value."""
    try:
        number = float(text) if isinstance(t, AnyFloat) else int(text.strip(), 0)
    except ValueError:
        kind = "a float such as 0.5, -1e-06, inf or nan" if isinstance(t, AnyFloat) else \
            "an integer such as 3, -1 or 0x10"
        raise InputError(f"{label}: '{text}' is not a value of the argument's type {t}: give "
                         f"{kind}, or a .npy file holding one (rank 0)") from None
    return _bind_scalar(label, t, number)


def _in_range(label: str, t: Attribute, value: int) -> int:
    """An integer argument's value, checked against its type's range (index: int64's)."""
    bits = t.width.data if isinstance(t, IntegerType) else 64
    unsigned = isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED
    low, high = (0, 2**bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    if bits == 1:
        low, high = 0, 1
    if not low <= value <= high:
        raise InputError(f"{label}: {value} does not fit the argument's type {t} "
                         f"([{low}, {high}])")
    return value


def _as_dtype(label: str, t: TensorType[Attribute] | UnrankedTensorType[Attribute],
              array: np.ndarray, want: np.dtype) -> np.ndarray:
    dtype = array.dtype
    if dtype == want:
        return array
    if want == BF16 and dtype.itemsize == 2 and (dtype.kind == "V" or dtype.kind == "u"):
        # np.save writes bfloat16 as 2-byte void; either that or uint16 carries the bit pattern.
        # Void carries the bytes as numpy wrote them (little-endian); uint16 may be either.
        bits = array.copy(order="C").view("<u2") if dtype.kind == "V" else array
        return bits.astype("=u2").view(BF16)
    if dtype.kind == "f" and dtype.byteorder in "<>" and dtype.newbyteorder("=") == want:
        return array.astype(want)
    raise InputError(f"{label}: expected element type {t.get_element_type()} ({want}) for {t}, "
                     f"got an array of {_dtype_text(dtype)}")


def _dtype_text(dtype: np.dtype) -> str:
    """How messages name an array's dtype: a 2-byte void is what np.save makes of bfloat16."""
    if dtype.kind == "V" and dtype.itemsize == 2 and dtype.names is None:
        return (f"2-byte raw values (dtype {dtype.str}: how np.save writes an ml_dtypes "
                "bfloat16 array, so a bf16 array)")
    return f"dtype {dtype}"


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) + ")"


_NPY_MAGIC = b"\x93NUMPY"


def load_npy(path: str | Path) -> np.ndarray:
    """An array from a .npy file; InputError for anything else (pickles are never loaded), for
    a header that promises more data than the file holds, and for an array larger than the
    memory available (both before anything is allocated)."""
    try:
        with open(path, "rb") as stream:
            magic = stream.read(len(_NPY_MAGIC))
            stream.seek(0)
            if magic != _NPY_MAGIC:
                kind = "an .npz archive" if magic.startswith(b"PK") else "not a .npy file"
                raise InputError(f"'{path}' is {kind}: a .npy file starts with \\x93NUMPY")
            _check_size(path, stream)
            value = np.load(stream, allow_pickle=False)
    except OSError as error:
        raise InputError(f"cannot read '{path}': {error.strerror or error}") from None
    except (ValueError, EOFError) as error:
        if isinstance(error, InputError):
            raise
        raise InputError(f"'{path}' is not a readable .npy file: {_first_line(error)}") from None
    if not isinstance(value, np.ndarray) or value.dtype.hasobject or value.dtype.names:
        raise InputError(f"'{path}' does not hold an array of plain numbers")
    return value


def _check_size(path: str | Path, stream: BinaryIO) -> None:
    """The header's shape and dtype against the bytes that follow it and the memory free."""
    version = npy_format.read_magic(stream)
    read_header = (npy_format.read_array_header_1_0 if version == (1, 0)
                   else npy_format.read_array_header_2_0)
    shape, _, dtype = read_header(stream)
    have = os.fstat(stream.fileno()).st_size - stream.tell()
    stream.seek(0)
    if dtype.hasobject:
        return  # np.load refuses it, allocating nothing (allow_pickle=False)
    need = math.prod(shape) * dtype.itemsize
    if need > have:
        raise InputError(f"'{path}' is damaged: its header declares a {dtype} array of shape "
                         f"{shape} ({need} bytes) but {have} bytes of data follow it")
    try:
        check_memory(need, f"loading '{path}' ({dtype}, shape {shape})")
    except LimitReached as error:
        raise InputError(str(error)) from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
