"""Tensor constants as arrays: `dense<...>` values, and `dense_resource<name>` blobs (the weights
an exporter stores after the module, `{-# dialect_resources: { builtin: { name: "0x..." } } #-}`).

A blob is MLIR's: a 4-byte little-endian alignment, then the elements in row-major order,
little-endian, each in its type's width (an i1 in a byte; a blob of one element is a splat).
A handle without a blob, or a blob whose size is not the tensor's, is an error at the op.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr, TensorType
from xdsl.ir import Operation

from hswc.diagnostics import OpError
from hswc.interpreter.dtypes import BOOL, numpy_dtype
from hswc.interpreter.float_scalars import float_constant


def _type(op: Operation, t: object) -> tuple[np.dtype, tuple[int, ...]]:
    if not isinstance(t, TensorType):
        raise OpError(op, f"has a constant the interpreter does not model: {t}")
    try:
        return numpy_dtype(t.get_element_type()), tuple(t.get_shape())
    except ValueError:
        raise OpError(op, f"has a constant the interpreter does not model: {t}") from None


def dense(op: Operation, value: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A `dense<...>` tensor constant as an array of its type."""
    dtype, shape = _type(op, value.type)
    element = value.type.get_element_type()
    values = [float_constant(v, element) if isinstance(v, float) else v
              for v in value.get_values()]
    flat = np.array(values).astype(dtype)
    if flat.size == 1:
        return np.broadcast_to(flat.reshape(()), shape).copy()
    return flat.reshape(shape)


def resource(op: Operation, value: DenseResourceAttr, blobs: Mapping[str, str]) -> np.ndarray:
    """A `dense_resource<name>` tensor constant: its blob in `blobs` as an array of its type."""
    dtype, shape = _type(op, value.type)
    name = value.resource_handle.data
    blob = blobs.get(name)
    if blob is None:
        raise OpError(op, f"reads dense_resource<{name}>, which the file's dialect_resources "
                      "section does not hold")
    try:
        data = bytes.fromhex(blob[2:])[4:]  # "0x", then the 4-byte alignment
    except ValueError:
        raise OpError(op, f"reads dense_resource<{name}>, whose blob is not hexadecimal "
                      "bytes") from None
    stored = np.dtype(np.uint8) if dtype == BOOL else dtype.newbyteorder("<")
    count = int(np.prod(shape, dtype=np.int64))
    if len(data) not in (count * stored.itemsize, stored.itemsize):
        raise OpError(op, f"reads dense_resource<{name}> of {len(data)} bytes as a "
                      f"{value.type}, which takes {count * stored.itemsize}")
    flat = np.frombuffer(data, dtype=stored).astype(dtype)
    if flat.size == 1:
        return np.broadcast_to(flat.reshape(()), shape).copy()
    return flat.reshape(shape)
