"""Writing an operator's semantics as the body of an elementwise linalg.generic.

`BodyBuilder` appends scalar arith ops to a block and names each value, so that what a
decomposition says step by step (hswc.ops.<op>) is what the generic's body holds, in that order,
with those names (the kernel's buffers are named after them: `slope`, `x_fp32`, `lower`, ...).
"""

from __future__ import annotations

import struct

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import AnyFloat, Float32Type, FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

F32 = Float32Type()


def f32_from_bits(bits: int) -> float:
    """The f32 with this bit pattern, as the Python float the IR's FloatAttr holds."""
    return struct.unpack("<f", struct.pack("<I", bits))[0]


MATH = {"exp": math_dialect.ExpOp, "log": math_dialect.LogOp, "log1p": math_dialect.Log1pOp,
        "expm1": math_dialect.ExpM1Op, "tanh": math_dialect.TanhOp, "erf": math_dialect.ErfOp,
        "sqrt": math_dialect.SqrtOp, "rsqrt": math_dialect.RsqrtOp, "absf": math_dialect.AbsFOp}
"""The math ops a decomposition may use (hswc.math_decompositions maps each)."""


class BodyBuilder:
    """Appends named scalar ops to a body block; `compute_type` is what f16/bf16 widen to."""

    def __init__(self, block: Block, compute_type: Attribute = F32,
                 options: dict[str, str | bool] | None = None):
        self.builder = Builder(InsertPoint.at_end(block))
        self.compute_type = compute_type
        self.options: dict[str, str | bool] = options or {}
        """The op's string and bool attributes (hswc.dialects.hsg.OpOption), by name."""

    def _add(self, op: Operation, name: str | None) -> SSAValue:
        self.builder.insert(op)
        result = op.results[0]
        if name is not None:
            result.name_hint = name
        return result

    # region conversions

    def widen(self, value: SSAValue, name: str | None = None) -> SSAValue:
        """The value in the compute type: an exact arith.extf, or the value itself."""
        if value.type == self.compute_type:
            return value
        return self._add(arith.ExtFOp(value, self.compute_type), name)

    def narrow(self, value: SSAValue, element_type: Attribute,
               name: str | None = None) -> SSAValue:
        """The value rounded (RNE) to the element type: arith.truncf, or the value itself."""
        if value.type == element_type:
            return value
        return self._add(arith.TruncFOp(value, element_type), name)

    # endregion
    # region values

    def const(self, value: float, name: str | None = None,
              element_type: Attribute | None = None) -> SSAValue:
        t = element_type or self.compute_type
        assert isinstance(t, AnyFloat)
        return self._add(arith.ConstantOp(FloatAttr(value, t)), name)

    def true(self, name: str | None = None) -> SSAValue:
        return self._add(arith.ConstantOp(IntegerAttr(1, IntegerType(1))), name)

    def addf(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.AddfOp(a, b), name)

    def subf(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.SubfOp(a, b), name)

    def mulf(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.MulfOp(a, b), name)

    def divf(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.DivfOp(a, b), name)

    def maximumf(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.MaximumfOp(a, b), name)

    def minimumf(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.MinimumfOp(a, b), name)

    def negf(self, a: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.NegfOp(a), name)

    def cmpf(self, predicate: str, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.CmpfOp(a, b, predicate), name)

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue,
               name: str | None = None) -> SSAValue:
        return self._add(arith.SelectOp(cond, a, b), name)

    def math(self, name: str, a: SSAValue, result: str | None = None) -> SSAValue:
        """math.<name> (exp, log, log1p, expm1, tanh, erf, sqrt, rsqrt, absf) of a."""
        return self._add(MATH[name](a), result)

    def andi(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.AndIOp(a, b), name)

    def ori(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._add(arith.OrIOp(a, b), name)

    # endregion
