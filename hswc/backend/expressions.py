"""Scalar arith ops as C++ expressions: a table per family, precedence-aware parentheses.

Index arithmetic is int64_t. C++'s `/` truncates, so `arith.ceildivsi` / `floordivsi` and the
signed min / max are spelled as calls of small helpers (`CeilDiv`, `FloorDiv`, `Max`, `Min`)
that the printed file defines exactly as arith defines them, for every sign.

Float scalars (a kernel's run-time attributes and what it computes from them) are `float`,
`half` or `bfloat16_t`: `-a`, `a + b`, ... are IEEE operations, one rounding to nearest even;
extf / truncf are `static_cast`s (exact, and RNE); maximumf / minimumf, which propagate NaN and
order -0 below +0, are the helpers `FMaximum` / `FMinimum`. A half or bfloat16_t result is
spelled `static_cast<half>(...)`, so it has its type whether the operation is native (the
device) or computed in float (a CPU model), and a vector call taking it deduces its T.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue

from hswc.backend.cpp_types import element_cpp, scalar_cpp
from hswc.diagnostics import OpError


class ExpressionContext(Protocol):
    """What an expression rule reads of the printer's context (hswc.backend.context.CppContext):
    its operands' expressions, and the set of arith helpers the printed code calls."""

    helpers: set[str]

    def expr(self, value: SSAValue) -> Expr:
        ...

# C++ precedence, tighter binds higher.
PRIMARY = 17
POSTFIX = 16
UNARY = 15
MULTIPLICATIVE = 13
ADDITIVE = 12
RELATIONAL = 10
EQUALITY = 9
BITWISE = 7
LOGICAL_AND = 5
LOGICAL_OR = 4
CONDITIONAL = 2


@dataclass(frozen=True)
class Expr:
    """C++ expression text and the precedence of its outermost operator."""

    text: str
    precedence: int

    def at(self, precedence: int) -> str:
        """The text as an operand that needs at least `precedence`: parenthesised if looser."""
        return self.text if self.precedence >= precedence else f"({self.text})"


def _is_bool(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def constant(op: arith.ConstantOp) -> Expr:
    value = op.value
    if isinstance(value, FloatAttr):
        text = scalar_cpp(op, value)  # 0.5f, -3.0f or static_cast<half>(0.5f)
        return Expr(text, PRIMARY if text[0].isdigit() else UNARY if text[0] == "-" else POSTFIX)
    if not isinstance(value, IntegerAttr):
        raise OpError(op, f"has the value {value}, which has no C++ literal rule")
    number = value.value.data
    if _is_bool(value.type):
        return Expr("true" if number else "false", PRIMARY)
    return Expr(str(number), PRIMARY if number >= 0 else UNARY)


_ARITHMETIC: dict[type[Operation], tuple[str, int]] = {
    arith.AddiOp: ("+", ADDITIVE),
    arith.SubiOp: ("-", ADDITIVE),
    arith.MuliOp: ("*", MULTIPLICATIVE),
    arith.DivSIOp: ("/", MULTIPLICATIVE),
    arith.RemSIOp: ("%", MULTIPLICATIVE),
}
"""Integer ops whose C++ operator means exactly the same for int64_t."""

_BITWISE: dict[type[Operation], tuple[str, str]] = {
    arith.AndIOp: ("&&", "&"),
    arith.OrIOp: ("||", "|"),
    arith.XOrIOp: ("!=", "^"),
}
"""(on i1, on wider integers)."""

HELPERS: dict[type[Operation], str] = {
    arith.CeilDivSIOp: "CeilDiv",
    arith.FloorDivSIOp: "FloorDiv",
    arith.MaxSIOp: "Max",
    arith.MinSIOp: "Min",
}
"""Ops spelled as a call of a helper that `helper_definitions` prints."""

_PREDICATES = {
    "eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
    "ult": "<", "ule": "<=", "ugt": ">", "uge": ">=",
}
_PREDICATE_NAMES = list(_PREDICATES)  # arith.CmpiOp numbers its predicates in this order


def _arithmetic(ctx: ExpressionContext, op: Operation) -> Expr:
    symbol, precedence = _ARITHMETIC[type(op)]
    lhs, rhs = (ctx.expr(v) for v in op.operands)
    return Expr(f"{lhs.at(precedence)} {symbol} {rhs.at(precedence + 1)}", precedence)


def _bitwise(ctx: ExpressionContext, op: Operation) -> Expr:
    on_bool, on_int = _BITWISE[type(op)]
    lhs, rhs = (ctx.expr(v) for v in op.operands)
    if not _is_bool(op.results[0].type):
        # -Wparentheses asks for parentheses around any operand of a bitwise operator.
        return Expr(f"{lhs.at(UNARY)} {on_int} {rhs.at(UNARY)}", BITWISE)
    precedence, need = _BOOL_OPERANDS[on_bool]
    return Expr(f"{lhs.at(need)} {on_bool} {rhs.at(need + 1)}", precedence)


_BOOL_OPERANDS = {
    "&&": (LOGICAL_AND, LOGICAL_AND),
    # `a && b || c` draws -Wparentheses: && under || is parenthesised.
    "||": (LOGICAL_OR, LOGICAL_AND + 1),
    # as is a comparison under `!=`.
    "!=": (EQUALITY, ADDITIVE),
}
"""C++ operator on i1 -> (its precedence, the precedence its left operand needs)."""


def _helper(ctx: ExpressionContext, op: Operation) -> Expr:
    name = HELPERS[type(op)]
    ctx.helpers.add(name)
    args = ", ".join(ctx.expr(v).text for v in op.operands)
    return Expr(f"{name}({args})", POSTFIX)


def _cmpi(ctx: ExpressionContext, op: Operation) -> Expr:
    assert isinstance(op, arith.CmpiOp)
    predicate = _PREDICATE_NAMES[op.predicate.value.data]
    lhs, rhs = ctx.expr(op.lhs), ctx.expr(op.rhs)
    lhs_text, rhs_text = lhs.at(ADDITIVE), rhs.at(ADDITIVE)
    if predicate.startswith("u"):
        lhs_text = f"static_cast<uint64_t>({lhs.text})"
        rhs_text = f"static_cast<uint64_t>({rhs.text})"
    precedence = EQUALITY if predicate in ("eq", "ne") else RELATIONAL
    return Expr(f"{lhs_text} {_PREDICATES[predicate]} {rhs_text}", precedence)


def _select(ctx: ExpressionContext, op: Operation) -> Expr:
    assert isinstance(op, arith.SelectOp)
    cond, yes, no = ctx.expr(op.cond), ctx.expr(op.lhs), ctx.expr(op.rhs)
    text = f"{cond.at(LOGICAL_OR)} ? {yes.at(LOGICAL_OR)} : {no.at(LOGICAL_OR)}"
    return Expr(text, CONDITIONAL)


def _index_cast(ctx: ExpressionContext, op: Operation) -> Expr:
    assert isinstance(op, arith.IndexCastOp)
    return Expr(f"static_cast<{element_cpp(op.result.type)}>({ctx.expr(op.input).text})", POSTFIX)


def _constant(ctx: ExpressionContext, op: Operation) -> Expr:
    assert isinstance(op, arith.ConstantOp)
    return constant(op)


# region float scalars

_FLOAT_ARITHMETIC: dict[type[Operation], tuple[str, int]] = {
    arith.AddfOp: ("+", ADDITIVE),
    arith.SubfOp: ("-", ADDITIVE),
    arith.MulfOp: ("*", MULTIPLICATIVE),
    arith.DivfOp: ("/", MULTIPLICATIVE),
}
"""Float ops whose C++ operator is the IEEE operation."""

FLOAT_HELPERS: dict[type[Operation], str] = {
    arith.MaximumfOp: "FMaximum",
    arith.MinimumfOp: "FMinimum",
}


def _typed(op: Operation, expr: Expr) -> Expr:
    """expr as a value of op's result type: a half or bfloat16_t result is cast to it."""
    t = op.results[0].type
    if isinstance(t, Float32Type):
        return expr
    return Expr(f"static_cast<{element_cpp(t)}>({expr.text})", POSTFIX)


def _float_arithmetic(ctx: ExpressionContext, op: Operation) -> Expr:
    symbol, precedence = _FLOAT_ARITHMETIC[type(op)]
    lhs, rhs = (ctx.expr(v) for v in op.operands)
    return _typed(op, Expr(f"{lhs.at(precedence)} {symbol} {rhs.at(precedence + 1)}",
                           precedence))


def _negf(ctx: ExpressionContext, op: Operation) -> Expr:
    operand = ctx.expr(op.operands[0])
    return _typed(op, Expr(f"-{operand.at(UNARY + 1)}", UNARY))  # `-(-a)`, never `--a`


def _float_helper(ctx: ExpressionContext, op: Operation) -> Expr:
    name = FLOAT_HELPERS[type(op)]
    ctx.helpers.add(name)
    args = ", ".join(ctx.expr(v).text for v in op.operands)
    return _typed(op, Expr(f"{name}({args})", POSTFIX))


def _float_cast(ctx: ExpressionContext, op: Operation) -> Expr:
    """extf (exact) and truncf (to nearest even): a static_cast to the result type."""
    result = op.results[0].type
    return Expr(f"static_cast<{element_cpp(result)}>({ctx.expr(op.operands[0]).text})", POSTFIX)


# endregion


Rule = Callable[[ExpressionContext, Operation], Expr]
"""How one op is written as an expression, given the context naming its operands (a rule of
this module reads only what ExpressionContext names; the printer's rules: context.ExprRule)."""

EXPRESSIONS: dict[type[Operation], Rule] = {
    arith.ConstantOp: _constant,
    **dict.fromkeys(_ARITHMETIC, _arithmetic),
    **dict.fromkeys(_BITWISE, _bitwise),
    **dict.fromkeys(HELPERS, _helper),
    arith.CmpiOp: _cmpi,
    arith.SelectOp: _select,
    arith.IndexCastOp: _index_cast,
    **dict.fromkeys(_FLOAT_ARITHMETIC, _float_arithmetic),
    arith.NegfOp: _negf,
    **dict.fromkeys(FLOAT_HELPERS, _float_helper),
    arith.ExtFOp: _float_cast,
    arith.TruncFOp: _float_cast,
}
"""Every scalar op the printer writes as an expression."""

_HELPER_BODIES: dict[str, tuple[str, str, list[str]]] = {
    "CeilDiv": (
        "arith.ceildivsi: a / b rounded towards +infinity, for any signs", "int64_t",
        ["const int64_t q = a / b;", "return (q * b != a && (a < 0) == (b < 0)) ? q + 1 : q;"],
    ),
    "FloorDiv": (
        "arith.floordivsi: a / b rounded towards -infinity, for any signs", "int64_t",
        ["const int64_t q = a / b;", "return (q * b != a && (a < 0) != (b < 0)) ? q - 1 : q;"],
    ),
    "Max": ("arith.maxsi: the larger of a and b", "int64_t", ["return a > b ? a : b;"]),
    "Min": ("arith.minsi: the smaller of a and b", "int64_t", ["return a < b ? a : b;"]),
    # Of two equal zeros, a + b is +0 unless both are -0, and -(-a - b) is -0 unless both are
    # +0 (IEEE addition rounding to nearest): maximum and minimum without a sign-bit test.
    "FMaximum": (
        "arith.maximumf: the larger of a and b; NaN if either is NaN, and -0 below +0", "float",
        ["if (a != a || b != b) {", "    return a != a ? a : b;", "}",
         "if (a == b) {", "    return a == 0.0f ? a + b : a;", "}", "return a > b ? a : b;"],
    ),
    "FMinimum": (
        "arith.minimumf: the smaller of a and b; NaN if either is NaN, and -0 below +0", "float",
        ["if (a != a || b != b) {", "    return a != a ? a : b;", "}",
         "if (a == b) {", "    return a == 0.0f ? -(-a - b) : a;", "}", "return a < b ? a : b;"],
    ),
}


HELPER_NAMES = frozenset(_HELPER_BODIES)
"""The helper functions a kernel namespace may define."""


def helper_definitions(names: set[str], qualifiers: str) -> list[str]:
    """The helpers in `names`, in a fixed order, each `qualifiers T Name(T a, T b)`."""
    lines: list[str] = []
    for name, (doc, t, body) in _HELPER_BODIES.items():
        if name not in names:
            continue
        lines += [f"// {doc}.", f"{qualifiers} {t} {name}({t} a, {t} b)", "{"]
        lines += [f"    {line}" for line in body]
        lines += ["}", ""]
    return lines
