"""hsg-exact-f64: the f64 that exporters write inside elementwise bodies, rewritten exactly in
the types the vector unit has, or refused with the reason.

Input: `linalg.generic` bodies (after hsg-fold-constant-operands, f64 constants are inside them).
Output: the same bodies without f64:
- `truncf` / `extf` of a constant is the constant rounded once to the result type (a constant
  of f64 truncated once is one constant rounded once, as MLIR folds it);
- `cmpf p, (extf x : T to f64), (extf y : U to f64)` is `cmpf p` of x and y widened to f32
  (exact: every f16, bf16 and f32 value is an f32 value, and so is its comparison);
- `cmpf p, (extf x : T to f64), c` for an f64 constant c is a compare of x (widened to f32)
  with an f32 constant chosen so that no f32 x changes its answer: c itself when f32 holds it,
  else with lo < c < hi its f32 neighbours, `x < c` iff `x <= lo` iff `x < hi`, `x > c` iff
  `x >= hi`, `x == c` never (oeq is false, une true, one is `ord x, x`, ueq `uno x, x`); a NaN
  x gives what the predicate's ordered/unordered kind says, as before.
Any other f64 operation is left as it is, for hsg-demote-f64: f64 arithmetic has no exact f32
equivalent in general (a sum rounded to f64 differs from one rounded to f32), and the vector
unit has no f64.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from hswc.float_formats import next_f32, round_float
from hswc.passes import mark_unchanged
from hswc.vectorizer.dag import CMPF_NAMES, dtype_of

F32 = Float32Type()
F64 = Float64Type()
SWAPPED = {"oeq": "oeq", "one": "one", "ueq": "ueq", "une": "une", "ord": "ord", "uno": "uno",
           "true": "true", "false": "false", "olt": "ogt", "ogt": "olt", "ole": "oge",
           "oge": "ole", "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}
"""c <p> x is x <SWAPPED[p]> c."""
INEXACT: dict[str, tuple[str, str]] = {
    "olt": ("ole", "lo"), "ole": ("ole", "lo"), "ogt": ("oge", "hi"), "oge": ("oge", "hi"),
    "ult": ("ult", "hi"), "ule": ("ult", "hi"), "ugt": ("ugt", "lo"), "uge": ("ugt", "lo"),
    "one": ("ord", "self"), "ueq": ("uno", "self"), "ord": ("ord", "self"),
    "uno": ("uno", "self"),
}
"""x <p> c for an f64 c strictly between the f32 neighbours lo < c < hi: the f32 compare with
the same answer for every f32 x (`self`: x compared with itself)."""


def _is_f64(value: SSAValue) -> bool:
    return isinstance(value.type, Float64Type)


def _constant_of(value: SSAValue) -> float | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr):
        return float(owner.value.value.data)
    return None


def _rounded(value: float, t: object) -> float:
    name = dtype_of(t)  # type: ignore[arg-type]
    return value if name is None else round_float(value, name)


def _fold_conversion(op: arith.ExtFOp | arith.TruncFOp) -> bool:
    value = _constant_of(op.input)
    if value is None:
        return False
    t = op.result.type
    constant = arith.ConstantOp(FloatAttr(_rounded(value, t), t))  # type: ignore[arg-type]
    constant.results[0].name_hint = op.result.name_hint
    Rewriter.replace_op(op, constant)
    return True


def _widened(builder: InsertPoint, value: SSAValue) -> SSAValue:
    """The f32 value of `extf`'s source (itself when f32, else extf'ed: exact)."""
    if isinstance(value.type, Float32Type):
        return value
    ext = arith.ExtFOp(value, F32)
    Rewriter.insert_op(ext, builder)
    return ext.result


def _neighbours(c: float) -> tuple[float, float]:
    """The f32 values either side of a double c that f32 does not hold (lo < c < hi)."""
    c32 = round_float(c, "f32")
    if c32 > c:
        return next_f32(c32, up=False), c32
    return c32, next_f32(c32, up=True)


def _rewrite_cmpf(op: arith.CmpfOp) -> None:
    predicate = CMPF_NAMES[op.predicate.value.data]
    lhs, rhs = op.lhs, op.rhs
    if _constant_of(lhs) is not None and isinstance(rhs.owner, arith.ExtFOp):
        lhs, rhs, predicate = rhs, lhs, SWAPPED[predicate]
    if not isinstance(lhs.owner, arith.ExtFOp):
        return  # of computed f64 values: no exact f32 form (hsg-demote-f64)
    where = InsertPoint.before(op)
    x = _widened(where, lhs.owner.input)
    if isinstance(rhs.owner, arith.ExtFOp):
        replacement: Operation = arith.CmpfOp(x, _widened(where, rhs.owner.input), predicate)
        Rewriter.replace_op(op, replacement)
        return
    c = _constant_of(rhs)
    if c is None:
        return  # with a computed f64 value: no exact f32 form (hsg-demote-f64)
    exact = c != c or round_float(c, "f32") == c
    if predicate in ("true", "false") or exact:
        new_c, new_p = (c, predicate)
    elif predicate in ("oeq", "une"):
        result = arith.ConstantOp(IntegerAttr(int(predicate == "une"), IntegerType(1)))
        Rewriter.replace_op(op, result)
        return
    else:
        new_p, which = INEXACT[predicate]
        lo, hi = _neighbours(c)
        new_c = lo if which == "lo" else hi
        if which == "self":
            Rewriter.replace_op(op, arith.CmpfOp(x, x, new_p))
            return
    constant = arith.ConstantOp(FloatAttr(new_c, F32))
    Rewriter.insert_op(constant, where)
    Rewriter.replace_op(op, arith.CmpfOp(x, constant.result, new_p))


WIDTHS = {"bf16": 16, "f16": 16, "f32": 32}


def _fold_round_trip(op: arith.TruncFOp) -> bool:
    """truncf (f64 -> U) of extf (T -> f64): x converted from T to U directly (extf is exact, so
    this rounds the same value once)."""
    source = op.input.owner
    if not isinstance(source, arith.ExtFOp) or not _is_f64(op.input):
        return False
    x = source.input
    t, u = dtype_of(x.type), dtype_of(op.result.type)
    if t is None or u is None:
        return False
    if t == u:
        Rewriter.replace_op(op, [], [x])
        return True
    if WIDTHS[t] == WIDTHS[u]:  # f16 <-> bf16: through f32, exact then rounded once
        x = _widened(InsertPoint.before(op), x)
        t = "f32"
    new: Operation = (arith.ExtFOp(x, op.result.type) if WIDTHS[u] > WIDTHS[t]
                      else arith.TruncFOp(x, op.result.type))
    Rewriter.replace_op(op, new)
    return True


def _rewrite_body(block: Block) -> None:
    for op in list(block.ops):
        if op.parent is None:
            continue
        if isinstance(op, arith.ExtFOp | arith.TruncFOp) and _fold_conversion(op):
            continue
        if isinstance(op, arith.TruncFOp) and _fold_round_trip(op):
            continue
        if isinstance(op, arith.CmpfOp) and _is_f64(op.lhs):
            _rewrite_cmpf(op)
    for op in reversed(list(block.ops)):  # what the rewrites left unused
        if is_trivially_dead(op):
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class HsgExactF64Pass(ModulePass):
    """f64 in elementwise bodies rewritten exactly, or refused (see the module docstring)."""

    name = "hsg-exact-f64"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = False
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            block = generic.body.block
            if any(_is_f64(v) for o in block.ops for v in (*o.operands, *o.results)):
                _rewrite_body(block)
                changed = True
        if not changed:
            mark_unchanged(op)
