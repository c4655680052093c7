"""hsg-widen-bf16: bf16 arithmetic as written, computed in f32 with the same bits.

Input: `linalg.generic` bodies with bf16 operations (`arith.mulf ... : bf16`, cmpf / select /
maximumf / negf / math.absf on bf16), as exporters write them.
Output: each such op on its operands widened to f32 (`extf`, exact), and for a bf16 result
narrowed back (`truncf`, round to nearest even). The Atlas A2/A3 vector unit has no bf16
arithmetic, compare or select (hswc.vectorizer.instructions), so this is how a kernel computes
them; it is exact:
- one `+ - * /` rounded to f32 and then to bf16 equals the bf16 operation rounded once, because
  f32's 24 significand bits are at least 2p + 2 for bf16's p = 8: double rounding is innocuous
  for the basic operations when the intermediate precision is at least 2p + 2 (S. A. Figueroa,
  "When is double rounding innocuous?", ACM SIGNUM Newsletter 30(3), 1995; also Boldo and
  Melquiond, "When double rounding is odd", 2005);
- maximumf, minimumf, negf, absf and select return one of their operands (or its sign flipped),
  and cmpf compares values, none of which rounding to f32 and back changes.
The math functions on bf16 (`math.exp`, `log`, `sqrt`, `rsqrt`, `log1p`, `expm1`, `tanh`,
`erf`) are computed in f32 and rounded once back too: not the correctly rounded bf16 function in
every case, but what MLIR's own lowering computes (its `math-extend-to-supported-types` pass
widens bf16 and f16 math to f32 the same way, as does LLVM's lowering of the f16 intrinsics for
a CPU: the oracle hswc's exports are checked against, tools/export_torch_fixtures.py).
Other bf16 ops are left as they are for the vectorizer to report.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import BFloat16Type, Float32Type, ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.passes import mark_unchanged

F32 = Float32Type()
WIDENED = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp,
           arith.MinimumfOp, arith.NegfOp, arith.CmpfOp, arith.SelectOp, math.AbsFOp,
           math.ExpOp, math.LogOp, math.SqrtOp, math.RsqrtOp, math.Log1pOp, math.ExpM1Op,
           math.TanhOp, math.ErfOp)
"""The ops computed in f32 for bf16 operands (see the module docstring for why, and how
exactly)."""


def _is_bf16(value: SSAValue) -> bool:
    return isinstance(value.type, BFloat16Type)


def _widen(op: Operation) -> None:
    where = InsertPoint.before(op)
    operands: list[SSAValue] = []
    for value in op.operands:
        if _is_bf16(value):
            ext = arith.ExtFOp(value, F32)
            Rewriter.insert_op(ext, where)
            value = ext.result
        operands.append(value)
    result = op.results[0]
    types = [F32 if _is_bf16(result) else result.type]
    wide = op.create(operands=operands, result_types=types, properties=dict(op.properties),
                     attributes=dict(op.attributes))
    wide.location = op.location
    Rewriter.insert_op(wide, where)
    if _is_bf16(result):
        narrow = arith.TruncFOp(wide.results[0], result.type)
        narrow.results[0].name_hint = result.name_hint
        Rewriter.insert_op(narrow, where)
        Rewriter.replace_op(op, [], [narrow.results[0]])
    else:
        wide.results[0].name_hint = result.name_hint
        Rewriter.replace_op(op, [], [wide.results[0]])


@dataclass(frozen=True)
class HsgWidenBf16Pass(ModulePass):
    """bf16 operations in elementwise bodies computed in f32, exactly (module docstring)."""

    name = "hsg-widen-bf16"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = False
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            for inner in list(generic.body.block.ops):
                if isinstance(inner, WIDENED) and any(
                        _is_bf16(v) for v in (*inner.operands, *inner.results)):
                    _widen(inner)
                    changed = True
        if not changed:
            mark_unchanged(op)
