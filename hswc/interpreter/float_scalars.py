"""arith on float scalars in a kernel's scalar code: the run-time attributes and what a kernel
computes from them once (`-lambd`, `static_cast<half>(lambd)`).

A float scalar is a numpy scalar of its IR type (np.float32, np.float16, ml_dtypes.bfloat16),
so each op rounds as the type says; the ops compute exactly as hswc.arith_semantics defines them
for elementwise bodies (one rounding to nearest even; maximumf / minimumf NaN-propagating with
-0 below +0; truncf RNE, extf exact). A value that differs between the cores of a batch (a
`Varying`, say from an arith.select on the block index) is computed per core.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np
from xdsl.dialects import arith
from xdsl.ir import Operation

from hswc import arith_semantics as sem
from hswc.diagnostics import OpError
from hswc.interpreter.dtypes import numpy_dtype
from hswc.interpreter.values import Varying

Compute = Callable[[Operation, list[np.ndarray], np.dtype], np.ndarray]


def _binary(op: Operation, args: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    return sem.binary(op.name, args[0], args[1]).astype(dtype)


def _convert(op: Operation, args: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    return sem.convert(args[0], dtype)


def _negate(op: Operation, args: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    return sem.negf(args[0])


FLOAT_OPS: Final[dict[type[Operation], Compute]] = {
    arith.NegfOp: _negate,
    arith.ExtFOp: _convert,
    arith.TruncFOp: _convert,
    **dict.fromkeys((arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp,
                     arith.MinimumfOp), _binary),
}
"""The float scalar ops a kernel's scalar code may hold, each computed in its result's type."""


def _dtype(op: Operation, value: Any) -> np.dtype:
    try:
        return numpy_dtype(value.type)
    except ValueError:
        raise OpError(op, f"works on {value.type}; kernel scalars are f16, bf16 or f32") from None


def float_constant(value: float, t: Any) -> np.generic:
    """An arith.constant of a float type: the attribute's value rounded once to the type."""
    return sem.constant(value, numpy_dtype(t)).reshape(1)[0]


def run_float(op: Operation, args: tuple[Any, ...]) -> Any:
    """The result of one float scalar op: a numpy scalar, or a Varying when an operand is one."""
    dtypes = [_dtype(op, operand) for operand in op.operands]
    dtype = _dtype(op, op.results[0])
    varying = [a for a in args if isinstance(a, Varying)]
    if not varying:
        arrays = [sem.convert(a, d) for a, d in zip(args, dtypes, strict=True)]
        return FLOAT_OPS[type(op)](op, arrays, dtype)[()]
    rows = varying[0].values.shape[0]
    arrays = [sem.convert(a.values if isinstance(a, Varying) else np.full(rows, a), d)
              for a, d in zip(args, dtypes, strict=True)]
    return Varying(FLOAT_OPS[type(op)](op, arrays, dtype))
