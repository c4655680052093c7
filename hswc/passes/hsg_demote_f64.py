"""hsg-demote-f64: the f64 tensor arithmetic exporters write computed in f32, with a remark.

Input: functions after hsg-exact-f64, which rewrote every f64 it could exactly; what is left is
f64 arithmetic (torch-mlir computes LayerNorm's mean and variance, and `x.var()`, in f64 in every
dtype: an `extf` to f64, sums, a division, a subtraction, `truncf` back).
Output: every f64 value inside a function (tensor or scalar, results and generic body
arguments) retyped to f32: f64 constants rounded once to f32, an `extf` of f32 to f64 and a
`truncf` of f64 to f32 dropped (the value itself), other conversions now from or to f32. Each
generic so changed gets a remark naming it (`hswc-opt --remarks`). This is not exact: a sum of
f32 values rounded to f32 differs from one rounded to f64; the difference against MLIR's own f64
execution is measured on the exported LayerNorm and variance fixtures (test_demote_f64.py,
docs: the accuracy tables). With `strict`, the first such op is an error instead, as before
this pass existed.

A function whose own arguments or results are f64 is left as it is (its callers' f64 is theirs);
its f64 generics then stay on the host.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from hswc.diagnostics import OpError
from hswc.float_formats import round_float
from hswc.passes import mark_unchanged
from hswc.remarks import remark

F32 = Float32Type()


def _f64(t: Attribute) -> bool:
    if isinstance(t, TensorType):
        return isinstance(t.get_element_type(), Float64Type)
    return isinstance(t, Float64Type)


def _demoted(t: Attribute) -> Attribute:
    if isinstance(t, TensorType):
        return TensorType(F32, t.get_shape(), t.encoding)
    return F32


def _computing(op: Operation) -> bool:
    """An op that computes in f64 (not a constant, a conversion or a container of others)."""
    return not isinstance(op, arith.ConstantOp | arith.ExtFOp | arith.TruncFOp | YieldOp) \
        and not op.regions and any(_f64(v.type) for v in (*op.operands, *op.results))


def _retype_constant(op: arith.ConstantOp) -> None:
    value = op.value
    if isinstance(value, FloatAttr):
        op.properties["value"] = FloatAttr(round_float(float(value.value.data), "f32"), F32)
    elif isinstance(value, DenseIntOrFPElementsAttr):
        floats = [round_float(float(v), "f32") for v in value.get_values()]  # type: ignore[arg-type]
        op.properties["value"] = DenseIntOrFPElementsAttr.from_list(
            _demoted(value.type), floats)  # type: ignore[arg-type]


def _retype(op: Operation) -> None:
    for value in op.results:
        if _f64(value.type):
            Rewriter.replace_value_with_new_type(value, _demoted(value.type))
    for region in op.regions:
        for block in region.blocks:
            for arg in block.args:
                if _f64(arg.type):
                    Rewriter.replace_value_with_new_type(arg, _demoted(arg.type))
    if isinstance(op, arith.ConstantOp) and _f64(op.value.type):  # type: ignore[union-attr]
        _retype_constant(op)


def _drop_identity(op: Operation) -> None:
    """An extf / truncf that now converts f32 to f32: the value itself."""
    if isinstance(op, arith.ExtFOp | arith.TruncFOp) and op.input.type == op.result.type:
        op.result.replace_all_uses_with(op.input)
        Rewriter.erase_op(op)


def _demotable(fn: func.FuncOp) -> bool:
    return not any(_f64(t) for t in (*fn.function_type.inputs, *fn.function_type.outputs))


@dataclass(frozen=True)
class HsgDemoteF64Pass(ModulePass):
    """f64 computed in f32, each changed generic remarked; or refused (`strict`)."""

    name = "hsg-demote-f64"

    strict: bool = False
    """Refuse f64 arithmetic (an error at the first op computing in f64) instead."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = False
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp)]:
            ops = [o for o in fn.walk() if o is not fn]
            if not any(_f64(v.type) for o in ops for v in o.results):
                continue
            if self.strict:
                self._refuse(ops)
            if not _demotable(fn):
                continue
            generics = [o for o in ops if isinstance(o, GenericOp) and (
                any(_f64(v.type) for v in (*o.operands, *o.results, *o.body.block.args))
                or any(_computing(inner) for inner in o.body.block.ops))]
            for o in ops:
                _retype(o)
            for o in ops:
                _drop_identity(o)
            for generic in generics:
                remark(generic, "computes in f32 what it wrote in f64 (hswc's rule for f64: "
                       "--strict-f64 refuses it instead)")
            changed = True
        if not changed:
            mark_unchanged(op)

    @staticmethod
    def _refuse(ops: list[Operation]) -> None:
        """The error at the first body op computing in f64, else at the first f64 op."""
        inside = [o for o in ops if _computing(o) and isinstance(o.parent_op(), GenericOp)]
        for o in inside or [o for o in ops if _computing(o)]:
            raise OpError(o, "computes in f64, which hswc cannot lower exactly: the vector "
                          "unit has no f64, and an f64 result rounded again differs from one "
                          "computed in f32 (without --strict-f64, hswc computes it in f32 and "
                          "says so)")
