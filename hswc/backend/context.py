"""The printer's state for one C++ function or class: names, inlined ops, output.

Nothing here is shared between printers: every kernel class and every host function gets its
own context, so two printers never see each other's names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType
from xdsl.ir import Attribute, Operation, SSAValue

from hswc.backend.cpp_types import cpp_type
from hswc.backend.expressions import EXPRESSIONS, PRIMARY, Expr, helper_definitions
from hswc.backend.names import Scope
from hswc.backend.writer import CppWriter
from hswc.diagnostics import OpError
from hswc.dialects.ascend import GlobalTensorType, LocalTensorType, TBufType, TPipeType, TQueType

_FALLBACK_NAMES: tuple[tuple[type[Attribute], str], ...] = (
    (LocalTensorType, "tensor"),
    (GlobalTensorType, "gm"),
    (TQueType, "que"),
    (TBufType, "buf"),
    (TPipeType, "pipe"),
    (MemRefType, "addr"),
    (IndexType, "value"),
)


def fallback_name(value: SSAValue) -> str:
    """The base name of a value the IR gave no name hint."""
    t = value.type
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "cond"
    for kind, name in _FALLBACK_NAMES:
        if isinstance(t, kind):
            return name
    return "value"


def inlined_ops(
    ops: Iterable[Operation],
    expressions: Mapping[type[Operation], ExprRule] = EXPRESSIONS,
    views: tuple[type[Operation], ...] = (),
) -> frozenset[Operation]:
    """Ops printed where they are used rather than as variables.

    Constants always; other expressions when their one result has a single use and no name
    hint, so every value the IR names keeps its name in C++; `views` (addressing like
    `xGm[offset]`) at their single use even when named. A float product is always a statement
    of its own: within one expression a compiler may contract `a * b + c` into a fused
    multiply-add (clang's default -ffp-contract=on), which rounds once instead of twice.
    """
    chosen: set[Operation] = set()
    for op in ops:
        if type(op) not in expressions or isinstance(op, arith.MulfOp):
            continue
        result = op.results[0]
        if isinstance(op, arith.ConstantOp) or (
            result.has_one_use() and (not result.name_hint or isinstance(op, views))
        ):
            chosen.add(op)
    return frozenset(chosen)


ExprRule = Callable[["CppContext", Operation], Expr]
"""How one op is written as an expression, given the printer's context naming its operands
(the arith rules, hswc.backend.expressions.EXPRESSIONS, are such rules)."""


@dataclass
class CppContext:
    """Where one function or class is being printed, and how its values are named."""

    scope: Scope
    inlined: frozenset[Operation]
    members: frozenset[SSAValue] = frozenset()
    writer: CppWriter = field(default_factory=CppWriter)
    helpers: set[str] = field(default_factory=set)
    expressions: Mapping[type[Operation], ExprRule] = field(default_factory=lambda: EXPRESSIONS)

    def expr(self, value: SSAValue) -> Expr:
        """The value as an expression: its C++ name, or its defining op written out."""
        name = self.scope.lookup(value)
        if name is not None:
            return Expr(name, PRIMARY)
        owner = value.owner
        if isinstance(owner, Operation) and owner in self.inlined:
            return self.expressions[type(owner)](self, owner)
        culprit = owner if isinstance(owner, Operation) else owner.parent_op()
        assert culprit is not None
        raise OpError(culprit, "defines a value the AscendC printer used before naming it")

    def text(self, value: SSAValue) -> str:
        return self.expr(value).text

    def define(self, value: SSAValue, init: str) -> None:
        """`T name = init;` (or `member = init;`); a bare `init;` when nothing reads it."""
        if value in self.members:
            self.writer.line(f"{self.text(value)} = {init};")
        elif not value.uses:
            self.writer.line(f"{init};")
        else:
            name = self.scope.declare(value, fallback_name(value))
            self.writer.line(f"{cpp_type(value.type)} {name} = {init};")

    @contextmanager
    def inner_scope(self) -> Iterator[None]:
        """A C++ scope for names: what is declared inside is invisible after it."""
        outer = self.scope
        self.scope = outer.child()
        try:
            yield
        finally:
            self.scope = outer

    @contextmanager
    def descend(self, header: str | Sequence[str], brace_on_own_line: bool = False
                ) -> Iterator[None]:
        """A `{ }` scope: indented one more level, its names invisible after it closes."""
        with self.inner_scope(), self.writer.descend(header, brace_on_own_line):
            yield


class Printer(Protocol):
    """A printer of one function or class: its context, and its lines (printed on demand)."""

    ctx: CppContext

    def lines(self) -> list[str]: ...


def namespace_lines(namespace: str, qualifiers: str, printers: Iterable[Printer],
                    head: Sequence[str] = ()) -> list[str]:
    """`namespace <name> { ... }`: the arith helpers the printers call, defined once, then
    `head`, then what each printer prints, a blank line before each."""
    bodies: list[str] = []
    helpers: set[str] = set()
    for printer in printers:
        bodies += ["", *printer.lines()]
        helpers |= printer.ctx.helpers  # known only once the printer has run
    content = [*head, *bodies] if head else bodies[1:]
    return [f"namespace {namespace} {{", "", *helper_definitions(helpers, qualifiers), *content,
            "", f"}}  // namespace {namespace}"]
