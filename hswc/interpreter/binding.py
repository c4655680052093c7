"""Turning user arrays into a function's tensor arguments, and reading .npy files safely.

A function argument of type `tensor<4x?xbf16>` takes an array of rank 2 whose first dimension
is 4 (dynamic dimensions take any size, an unranked tensor any shape), of dtype bf16: an
ml_dtypes.bfloat16 array, or the bit patterns numpy writes it as (`'<V2'`) or a uint16 array.
Arrays are made C-contiguous and native-endian (aclnn's Contiguous does the first).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from numpy.lib import format as npy_format
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, UnrankedTensorType
from xdsl.ir import Attribute

from hswc.interpreter.dtypes import BF16, numpy_dtype
from hswc.interpreter.errors import InputError
from hswc.interpreter.limits import LimitReached, check_memory


def bind_inputs(types: Sequence[Attribute], arrays: Sequence[Any],
                names: Sequence[str] | None = None) -> list[np.ndarray]:
    """The arrays as the function's arguments, checked against `types` in order."""
    if len(arrays) != len(types):
        raise InputError(f"the function takes {len(types)} input(s), {len(arrays)} given")
    bound: list[np.ndarray] = []
    for i, (t, array) in enumerate(zip(types, arrays, strict=True)):
        label = f"input {i + 1}" + (f" ({names[i]})" if names and names[i] else "")
        bound.append(_bind(label, t, array))
    return bound


def _bind(label: str, t: Attribute, array: Any) -> np.ndarray:
    if not isinstance(t, TensorType | UnrankedTensorType):
        raise InputError(f"{label}: the argument has type {t}; only tensor arguments can be bound")
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
