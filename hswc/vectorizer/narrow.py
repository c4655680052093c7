"""Exact steps of a widened bf16 body moved back to bf16, where the SoC's calls are exact on it.

Input: a body's DAG (hswc.vectorizer.dag) and the SoC's API table (hswc.soc_api). Output: a
DAG computing the same bits in which every compare, select, maximum and minimum whose operands
are all bf16 values widened to f32 (an `extf` of a bf16 value, an f32 constant that bf16 holds
exactly, a negation of such a uniform value, or such a step itself) works on the bf16 values
directly, and a `truncf` back to bf16
of such a value is that value. The f32 copies nothing else reads then drop out.

Why the bits do not change: extf is exact, and none of these steps rounds: a compare of two
widened values is the compare of the values; a select, maximum or minimum of widened values is
one of them (or, for maximum / minimum of a NaN, that NaN made quiet, which is the same bf16 NaN
after truncf, since f32's quiet bit is the top mantissa bit bf16 keeps), so truncf gives back
the bf16 value exactly. Arithmetic (addf, mulf, ...) is left in f32: asc-devkit documents that
Ascend 950 takes bf16 Add or Muls, and documents their rounding, but the widened body's
f32 arithmetic is kept (hswc.soc_api). On Atlas A2/A3 the
table has no exact bf16 compare or select, so the DAG comes back as it was.
"""

from __future__ import annotations

from dataclasses import replace

from hswc.float_formats import round_float
from hswc.soc_api import ApiTable
from hswc.vectorizer.dag import Dag, Node, _live

CALLS = {"cmpf": "Compare", "select": "Select", "maximumf": "Max", "minimumf": "Min"}
"""The exact steps, by the call the vectorizer maps them to (their scalar forms, CompareScalar,
Maxs and Mins, take the same types in the table)."""
NARROW = "bf16"


class _Narrower:
    def __init__(self, table: ApiTable):
        self.table = table
        self.nodes: list[Node] = []
        self.copies: dict[int, Node] = {}
        self.narrowed: dict[int, Node | None] = {}

    def exact(self, kind: str) -> bool:
        return self.table.exact(CALLS[kind], NARROW)

    def add(self, node: Node) -> Node:
        if node.kind != "input":
            self.nodes.append(node)
        return node

    def copy(self, node: Node) -> Node:
        """The node in the new DAG: the same operation on the new operands (a truncf back to
        bf16, or a compare, of narrowable values on the bf16 values)."""
        done = self.copies.get(id(node))
        if done is not None:
            return done
        made: Node | None = None
        if node.kind == "truncf" and node.dtype == NARROW:
            made = self.bf16(node.operands[0])
        elif node.kind == "cmpf" and self.exact("cmpf"):
            a, b = (self.bf16(o) for o in node.operands)
            if a is not None and b is not None:
                made = self.add(replace(node, operands=(a, b), users=[]))
        if made is None:
            operands = tuple(self.copy(o) for o in node.operands)
            made = self.add(replace(node, operands=operands, users=[]))
        self.copies[id(node)] = made
        return made

    def bf16(self, node: Node) -> Node | None:
        """A bf16 node with the value of the f32 node `node` widened, or None."""
        if id(node) in self.narrowed:
            return self.narrowed[id(node)]
        made: Node | None = None
        if node.dtype == "f32":
            if node.kind == "extf" and node.operands[0].dtype == NARROW:
                made = self.copy(node.operands[0])
            elif node.is_const and isinstance(node.value, float) and node.value == node.value \
                    and round_float(node.value, NARROW) == node.value:
                made = self.add(replace(node, dtype=NARROW, users=[]))
            elif node.kind == "negf" and node.uniform:  # the kernel's scalar code: exact
                operand = self.bf16(node.operands[0])
                if operand is not None:
                    made = self.add(replace(node, dtype=NARROW, users=[], operands=(operand,)))
            elif node.kind in ("select", "maximumf", "minimumf") and self.exact(node.kind):
                values = node.operands[1:] if node.kind == "select" else node.operands
                narrow = [self.bf16(o) for o in values]
                if all(n is not None for n in narrow):
                    head = (self.copy(node.operands[0]),) if node.kind == "select" else ()
                    made = self.add(replace(node, dtype=NARROW, users=[],
                                            operands=(*head, *narrow)))  # type: ignore[arg-type]
        self.narrowed[id(node)] = made
        return made


def narrow_exact(dag: Dag, table: ApiTable, dtype: str) -> Dag:
    """`dag` with its exact steps on widened bf16 values done in bf16 (module docstring); the
    same DAG when the kernel has no bf16 operand (`dtype`: hswc.kernel_dtypes) or the table has
    no exact bf16 compare/select."""
    if NARROW not in dtype or not any(table.exact(call, NARROW) for call in CALLS.values()):
        return dag
    n = _Narrower(table)
    inputs = [n.copy(i) for i in dag.inputs]
    for node in dag.nodes:
        n.copy(node)
    results = [n.copy(r) for r in dag.results]
    nodes = _live(n.nodes, *results)
    for node in nodes:
        for operand in node.operands:
            operand.users.append(node)
    return Dag(inputs, nodes, results, list(dag.scalars), dict(dag.scalar_aliases))
