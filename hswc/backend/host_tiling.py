"""The host tiling functions (`hsg.tiling`) as plain C++: the body of ops-nn's TilingFunc.

Each `@<op>_tiling_<dt>(totalNum, coreNum, ubSize)` becomes
`bool Compute<Op>Tiling<Dt>(totalNum, coreNum, ubSize, tilingData, blockDim, tilingKey, error)`:
its arith ops become int64_t expressions, each `cf.assert` an early `return false` with
the assert's message (TilingFunc turns that into OP_LOGE and ge::GRAPH_FAILED), and its results
fill the tiling struct, the block dim and the tiling key. No CANN header is needed, so the same
code the package ships compiles on any host and can be checked against `hswc.tiling`.
"""

from __future__ import annotations

import json

from xdsl.dialects import cf, func
from xdsl.ir import Operation

from hswc.backend.context import CppContext, fallback_name, inlined_ops, namespace_lines
from hswc.backend.cpp_types import spelling
from hswc.backend.expressions import EXPRESSIONS, UNARY
from hswc.backend.kernels import Kernel
from hswc.backend.names import Scope
from hswc.backend.operator import Operator
from hswc.diagnostics import OpError
from hswc.tiling import TILING_FIELDS

OUTPUTS = ("tilingData", "blockDim", "tilingKey", "error")
QUALIFIERS = "inline"


def tiling_parameters(operator: Operator, scalars: list[str]) -> list[str]:
    """(totalNum, coreNum, ubSize) in, then where the results go."""
    return [*(f"int64_t {p}" for p in scalars), f"{operator.tiling_struct}* tilingData",
            "int64_t* blockDim", "int64_t* tilingKey", "const char** error"]


class TilingPrinter:
    """Prints one host tiling function."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        fn = kernel.tiling
        self.ctx = CppContext(Scope(reserved=OUTPUTS), inlined_ops(fn.body.walk()))

    def lines(self) -> list[str]:
        fn, ctx = self.kernel.tiling, self.ctx
        params = [ctx.scope.declare(arg, fallback_name(arg)) for arg in fn.body.block.args]
        if len(params) != 3 + self.kernel.operator.row_branches:
            raise OpError(fn, "is a host tiling function without the arguments "
                          "(totalNum, coreNum, ubSize" +
                          (", rowLength)" if self.kernel.operator.row_branches else ")"))
        ctx.writer.line(f"// @{fn.sym_name.data}: the tiling of the {self.kernel.dtype} kernel.")
        operator = self.kernel.operator
        name = operator.tiling_function(self.kernel.dtype)
        signature = ctx.writer.wrap(f"{QUALIFIERS} bool {name}",
                                    tiling_parameters(operator, params))
        with ctx.descend(signature, brace_on_own_line=True):
            if not any(isinstance(op, cf.AssertOp) for op in fn.body.walk()):
                ctx.writer.line("(void)error;  // this tiling cannot fail")
            for op in fn.body.block.ops:
                self.op(op)
        return ctx.writer.lines

    def op(self, op: Operation) -> None:
        """Print one op; an op without a rule, or of a type without C++ spelling, is an error
        naming it."""
        with spelling(op):
            self._print(op)

    def _print(self, op: Operation) -> None:
        ctx = self.ctx
        expression = EXPRESSIONS.get(type(op))
        if expression is not None:
            if op not in ctx.inlined and op.results[0].uses:
                ctx.define(op.results[0], expression(ctx, op).text)
        elif isinstance(op, cf.AssertOp):
            with ctx.descend(f"if (!{ctx.expr(op.arg).at(UNARY)})"):
                ctx.writer.line(f"*error = {json.dumps(op.msg.data)};")
                ctx.writer.line("return false;")
        elif isinstance(op, func.ReturnOp):
            self._return(op)
        else:
            raise OpError(op, "has no host tiling printing rule")

    def _return(self, op: func.ReturnOp) -> None:
        ctx = self.ctx
        values = [ctx.text(v) for v in op.arguments]
        expected = len(TILING_FIELDS) + 2
        if len(values) != expected:
            raise OpError(op, f"returns {len(values)} values; a host tiling returns {expected}")
        for field, value in zip(TILING_FIELDS, values, strict=False):
            ctx.writer.line(f"tilingData->{field} = {value};")
        ctx.writer.line(f"*blockDim = {values[-2]};")
        ctx.writer.line(f"*tilingKey = {values[-1]};")
        ctx.writer.line("return true;")


def tiling_compute_lines(kernels: list[Kernel]) -> list[str]:
    """The generated tiling functions of one operator's kernels, with the arith helpers they
    call, in one namespace: one per tiling function (the kernels of a run-time choice share
    theirs)."""
    firsts = [k for i, k in enumerate(kernels)
              if all(k.tiling is not other.tiling for other in kernels[:i])]
    return namespace_lines(kernels[0].operator.tiling_namespace, QUALIFIERS,
                           map(TilingPrinter, firsts))
