"""The integer semantics of arith's index and i1 ops, on Python ints or numpy int64 arrays.

One table per family, shared by the interpreter (hswc.interpreter.arith_functions, where a
per-core value is an array) and the cost model (hswc.cost_model.stream, plain ints). `index` is
a signed 64-bit integer; the unsigned ops see it modulo 2^64. Division by zero is the caller's
to reject (in MLIR it is undefined behaviour).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from xdsl.dialects import arith

Binary = Callable[[Any, Any], Any]
_U64 = 1 << 64


def _is_array(v: Any) -> bool:
    """A numpy array (numpy is imported only by a caller that has arrays: the cost model's
    plain ints never load it)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(v, np.ndarray)


def _unsigned(v: Any) -> Any:
    if _is_array(v):
        return v.astype(sys.modules["numpy"].uint64)
    return v % _U64


def _min(a: Any, b: Any) -> Any:
    return sys.modules["numpy"].minimum(a, b) if _is_array(a) or _is_array(b) else min(a, b)


def _max(a: Any, b: Any) -> Any:
    return sys.modules["numpy"].maximum(a, b) if _is_array(a) or _is_array(b) else max(a, b)


def _trunc_div(a: Any, b: Any) -> Any:
    """Signed division rounding toward zero (arith.divsi), not Python's floor."""
    q = abs(a) // abs(b)
    negative = (a < 0) ^ (b < 0)
    if _is_array(q):
        return sys.modules["numpy"].where(negative, -q, q)
    return -q if negative else q


def _trunc_rem(a: Any, b: Any) -> Any:
    return a - _trunc_div(a, b) * b


BINARY: dict[type[arith.SignlessIntegerBinaryOperation], Binary] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.MaxSIOp: _max,
    arith.MinSIOp: _min,
    arith.MaxUIOp: lambda a, b: _max(_unsigned(a), _unsigned(b)),
    arith.MinUIOp: lambda a, b: _min(_unsigned(a), _unsigned(b)),
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
    arith.XOrIOp: lambda a, b: a ^ b,
    arith.ShLIOp: lambda a, b: a << b,
    arith.ShRSIOp: lambda a, b: a >> b,
}

DIVISIONS: dict[type[arith.SignlessIntegerBinaryOperation], Binary] = {
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.CeilDivSIOp: lambda a, b: -(-a // b),
    arith.DivSIOp: _trunc_div,
    arith.RemSIOp: _trunc_rem,
    arith.DivUIOp: lambda a, b: _unsigned(a) // _unsigned(b),
    arith.RemUIOp: lambda a, b: _unsigned(a) % _unsigned(b),
    arith.CeilDivUIOp: lambda a, b: -(-_unsigned(a) // _unsigned(b)),
}

PREDICATES: tuple[Binary, ...] = (
    lambda a, b: a == b,
    lambda a, b: a != b,
    lambda a, b: a < b,
    lambda a, b: a <= b,
    lambda a, b: a > b,
    lambda a, b: a >= b,
    lambda a, b: _unsigned(a) < _unsigned(b),
    lambda a, b: _unsigned(a) <= _unsigned(b),
    lambda a, b: _unsigned(a) > _unsigned(b),
    lambda a, b: _unsigned(a) >= _unsigned(b),
)
"""arith.cmpi predicates by number: eq ne slt sle sgt sge ult ule ugt uge."""
