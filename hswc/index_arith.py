"""Index arithmetic as IR: the `TilingArith` of hswc.tiling that builds arith/cf ops.

With it the tiling formula and the kernel's slice arithmetic, written once in hswc.tiling,
become host and device IR. Constants are folded while building, so a static shape on a named
platform gives constants instead of arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.dialects.ascend import constant_index
from hswc.dialects.int_attrs import index_attr
from hswc.tiling import IntArith

_INT = IntArith()
_INDEX = IndexType()


class IRArith:
    """Builds index arithmetic at an insertion point; folds when every operand is constant."""

    def __init__(self, insertion_point: InsertPoint):
        self.builder = Builder(insertion_point)

    def _insert(self, op: Operation, name: str | None = None) -> SSAValue:
        self.builder.insert(op)
        result = op.results[0]
        if name is not None:
            result.name_hint = name
        return result

    def const(self, value: int, name: str | None = None) -> SSAValue:
        """An index constant; an unnamed one reuses the same constant built earlier in the block."""
        if name is None:
            name = f"c{value}" if value >= 0 else f"c_neg{-value}"
            existing = self._earlier_constant(value, name)
            if existing is not None:
                return existing
        return self._insert(arith.ConstantOp(index_attr(value)), name)

    def _earlier_constant(self, value: int, name: str) -> SSAValue | None:
        """An unnamed index constant `value` before the insertion point in its block (so it
        dominates what is built here); constants with a meaningful name are left alone."""
        point = self.builder.insertion_point
        op = point.insert_before.prev_op if point.insert_before else point.block.last_op
        while op is not None:  # the cheapest tests first: this walks the block
            if (isinstance(op, arith.ConstantOp) and op.result.name_hint == name
                    and op.result.type == _INDEX and constant_index(op.result) == value):
                return op.result
            op = op.prev_op
        return None

    def _binary(self, a: SSAValue, b: SSAValue, fold: Callable[[int, int], int],
                op: type[arith.SignlessIntegerBinaryOperation]) -> SSAValue:
        ca, cb = constant_index(a), constant_index(b)
        if ca is not None and cb is not None:
            try:
                return self.const(fold(ca, cb))
            except ZeroDivisionError:
                pass  # not foldable; guarded at run time (e.g. the empty tensor's ubFactor 0)
        return self._insert(op(a, b))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, lambda x, y: x + y, arith.AddiOp)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, _INT.sub, arith.SubiOp)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, _INT.mul, arith.MuliOp)

    def floor_div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, _INT.floor_div, arith.FloorDivSIOp)

    def ceil_div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, _INT.ceil_div, arith.CeilDivSIOp)

    def rem(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a mod b for a >= 0 and b > 0 (remsi, which equals Python's % there)."""
        return self._binary(a, b, lambda x, y: x % y, arith.RemSIOp)

    def max(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, _INT.max, arith.MaxSIOp)

    def min(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._binary(a, b, _INT.min, arith.MinSIOp)

    def _cmp(self, a: SSAValue, b: SSAValue, pred: str) -> SSAValue:
        return self._insert(arith.CmpiOp(a, b, pred))

    def eq(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._cmp(a, b, "eq")

    def gt(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._cmp(a, b, "sgt")

    def or_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._insert(arith.OrIOp(a, b))

    def and_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._insert(arith.AndIOp(a, b))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._insert(arith.SelectOp(cond, a, b))

    def check(self, ok: SSAValue, message: str) -> None:
        assert ok.type == IntegerType(1)
        self.builder.insert(cf.AssertOp(ok, message))

    def name(self, value: SSAValue, hint: str) -> SSAValue:
        """Give a value a name hint (printed as %hint, and used by the C++ printer)."""
        if constant_index(value) is None:
            value.name_hint = hint
        return value

    def name_bool(self, value: SSAValue, hint: str) -> SSAValue:
        value.name_hint = hint
        return value
