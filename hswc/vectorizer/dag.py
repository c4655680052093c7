"""An elementwise body as a DAG of scalar operations: what the vectorizer maps to AscendC calls.

`body_dag(block)` reads the body of a linalg.generic (or of the hsg slice / chunk ops that carry
it): block arguments are the inputs' elements, `linalg.yield` names the result, and float
scalars defined outside the body (an op's attributes: run-time values of the kernel) are
`scalar` nodes. Each supported arith op becomes a `Node` in body order; on the way identical
operations are merged, operations whose operands are all constants are folded (with
hswc.arith_semantics, so bits do not change; it brings in numpy, which compiling needs for
nothing else: constants are rounded and compared with hswc.float_formats), i1 constants are
folded into the selects and logic that use them, and operations the result does not depend on
are dropped. A node computed from constants and scalars only is `uniform`: one value for every
element, which the kernel computes once. An op the vectorizer cannot map is an error at that op,
naming what is supported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from hswc.diagnostics import OpError
from hswc.float_formats import float_bits, round_float
from hswc.math_decompositions import MATH_OPS

if TYPE_CHECKING:
    import numpy as np

CMPF_NAMES = tuple(arith.CMPF_COMPARISON_OPERATIONS)
"""arith.cmpf's predicates in the order of their integer encoding."""
SUPPORTED_PREDICATES = ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "une")
"""The cmpf predicates the vectorizer maps to compares: the ordered ones, and une (Compare NE)."""
NEGATED_PREDICATES = {"ult": "oge", "ule": "ogt", "ugt": "ole", "uge": "olt", "ueq": "one",
                      "uno": "ord"}
"""The other unordered predicates as the negation of an ordered one (IEEE 754: a NaN operand
makes every ordered predicate false and every unordered one true, so `ult` is `not oge`)."""
CONSTANT_PREDICATES = {"true": True, "false": False}

FLOAT_BINARY = {
    arith.AddfOp: "addf", arith.SubfOp: "subf", arith.MulfOp: "mulf", arith.DivfOp: "divf",
    arith.MaximumfOp: "maximumf", arith.MinimumfOp: "minimumf",
}
LOGIC = {arith.AndIOp: "andi", arith.OrIOp: "ori", arith.XOrIOp: "xori"}
SUPPORTED_OPS = ("arith.extf", "arith.truncf", "arith.addf", "arith.subf", "arith.mulf",
                 "arith.divf", "arith.minimumf", "arith.maximumf", "arith.negf", "arith.cmpf",
                 "arith.select", "arith.andi", "arith.ori", "arith.xori", "arith.constant")
SUPPORTED_TEXT = ", ".join((*SUPPORTED_OPS, *MATH_OPS)) + ", ending in linalg.yield"
MATH_KINDS = ("exp", "ln", "sqrt", "rsqrt", "abs")
"""The node kinds of the vector unit's math instructions (hswc.math_semantics)."""


def dtype_of(t: Attribute) -> str | None:
    """'f16', 'bf16', 'f32' or 'i1' for the scalar types a body may hold, else None."""
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "i1"
    return None


@dataclass(eq=False)
class Node:
    """One value of the body: an input element, a constant, or an operation's result."""

    kind: str
    """input, const, scalar, extf, truncf, addf, subf, mulf, divf, maximumf, minimumf, negf,
    cmpf, select, andi, ori, xori, not; exp, ln, sqrt, rsqrt, abs (the math ops'
    decompositions, hswc.math_decompositions)."""
    dtype: str
    operands: tuple[Node, ...] = ()
    value: float | bool | None = None
    """A constant's value (as its type rounds it)."""
    predicate: str | None = None
    index: int | None = None
    """An input's position among the body's arguments; a scalar's among the captured values."""
    name: str | None = None
    """The IR's name for it (the kernel names buffers after these)."""
    source: Operation | None = None
    """The op it came from, for diagnostics."""
    users: list[Node] = field(default_factory=list)
    uniform: bool = field(init=False)
    """The same value for every element: a constant, a scalar, or computed from those. Set
    when the node is made, from its operands' (so no walk down a long body recurses)."""

    def __post_init__(self) -> None:
        self.uniform = self.kind in ("const", "scalar") or (
            self.kind != "input" and all(o.uniform for o in self.operands))

    @property
    def is_const(self) -> bool:
        return self.kind == "const"

    @property
    def is_mask(self) -> bool:
        return self.dtype == "i1"

    def key(self) -> tuple[object, ...]:
        """Equal keys compute equal values (used to merge duplicates)."""
        if self.is_const:
            assert self.value is not None
            if self.is_mask:
                return ("const", self.dtype, bool(self.value))
            return ("const", self.dtype, float_bits(self.value, self.dtype))
        return (self.kind, self.dtype, self.predicate, self.index, *map(id, self.operands))

@dataclass
class Dag:
    inputs: list[Node]
    """One per body argument, in order (unused ones included)."""
    nodes: list[Node]
    """Every constant and operation the result depends on, in body order."""
    result: Node
    scalars: list[SSAValue] = field(default_factory=list)
    """The values from outside the body it uses, in order of first use (scalar nodes' index)."""

    def consumers(self, node: Node) -> list[Node]:
        return [n for n in self.nodes if node in n.operands]


class _Builder:
    def __init__(self, block: Block):
        self.block = block
        self.values: dict[SSAValue, Node] = {}
        self.merged: dict[tuple[object, ...], Node] = {}
        self.nodes: list[Node] = []
        self.scalars: list[SSAValue] = []

    def operand(self, op: Operation, value: SSAValue) -> Node:
        node = self.values.get(value)
        if node is not None:
            return node
        if self._inside(value):
            raise OpError(op, "uses a value of a nested region; an elementwise body may only use "
                          "its arguments, its own results, and float scalars from outside")
        dtype = dtype_of(value.type)
        if dtype is None or dtype == "i1":
            raise OpError(op, f"uses {value.type} from outside the body; an elementwise body "
                          "may only use float scalars (f16, bf16, f32) from outside")
        node = Node("scalar", dtype, index=len(self.scalars), name=value.name_hint, source=op)
        self.scalars.append(value)
        self.values[value] = node
        return node

    def _inside(self, value: SSAValue) -> bool:
        """Whether the value is defined within the body (in a region nested in it)."""
        owner = value.owner
        op = owner if isinstance(owner, Operation) else owner.parent_op()
        while op is not None:
            if op.parent_block() is self.block:
                return True
            op = op.parent_op()
        return False

    def add(self, node: Node, result: SSAValue) -> None:
        found = self.intern(node)
        if found.kind != "input" and found.name is None:
            found.name = result.name_hint
        self.values[result] = found

    def intern(self, node: Node) -> Node:
        """The node simplified, merged with an identical one, and recorded in body order."""
        node = self.simplify(node)
        if node.kind in ("input", "scalar"):  # e.g. a select on a constant condition
            return node
        found = self.merged.get(node.key())
        if found is None:
            self.merged[node.key()] = node
            self.nodes.append(node)
            found = node
        return found

    # region folding

    def simplify(self, node: Node) -> Node:
        """Fold operations on constants, and i1 constants into what uses them."""
        if node.kind in ("input", "const", "scalar"):
            return node
        ops = node.operands
        if all(o.is_const for o in ops):
            return self.folded(node)
        if node.kind == "cmpf" and any(o.is_const and o.value != o.value for o in ops):
            # A NaN constant decides every predicate, whatever the other operand is.
            zero = Node("const", ops[0].dtype, value=0.0)
            return self.folded(Node("cmpf", "i1", tuple(o if o.is_const else zero for o in ops),
                                    predicate=node.predicate, source=node.source))
        if node.kind == "select" and ops[0].is_const:
            return ops[1] if ops[0].value else ops[2]
        if node.kind in ("andi", "ori", "xori"):
            return self.simplify_logic(node)
        return node

    def simplify_logic(self, node: Node) -> Node:
        a, b = node.operands
        if a.is_const:
            a, b = b, a
        if not b.is_const:
            return node
        identity = {"andi": True, "ori": False, "xori": False}[node.kind]
        if bool(b.value) == identity:
            return a
        if node.kind == "xori":
            return Node("not", "i1", (a,), source=node.source)
        return b  # andi with false, ori with true

    def folded(self, node: Node) -> Node:
        from hswc import arith_semantics as sem

        value = evaluate(node, [sem.constant(o.value, sem.DTYPES[o.dtype])  # type: ignore[arg-type]
                                for o in node.operands])
        scalar = value.item()
        return Node("const", node.dtype, value=bool(scalar) if node.is_mask else float(scalar),
                    source=node.source)

    # endregion


def evaluate(node: Node, operands: list[np.ndarray]) -> np.ndarray:
    """The node's operation on arrays of its operands (hswc.arith_semantics)."""
    import numpy as np

    from hswc import arith_semantics as sem

    dtype = sem.DTYPES[node.dtype]
    kind = node.kind
    if kind in ("extf", "truncf"):
        return sem.convert(operands[0], dtype)
    if kind == "negf":
        return sem.negf(operands[0])
    if kind == "not":
        return np.logical_not(operands[0])
    if kind == "cmpf":
        assert node.predicate is not None
        return sem.cmpf(node.predicate, operands[0], operands[1])
    if kind == "select":
        return sem.select(*operands)
    if kind in MATH_KINDS:
        from hswc.math_semantics import MODELS

        return MODELS[kind](operands[0])
    return sem.binary(f"arith.{kind}", operands[0], operands[1]).astype(dtype)


def _scalar_dtype(op: Operation, value: SSAValue) -> str:
    dtype = dtype_of(value.type)
    if dtype is None:
        raise OpError(op, f"works on {value.type}; an elementwise body works on f16, bf16 and "
                      "f32 scalars and i1 conditions")
    return dtype


def _constant_node(op: arith.ConstantOp, dtype: str) -> Node:
    if isinstance(op.value, FloatAttr):
        value: float | bool = float(op.value.value.data)
    elif isinstance(op.value, IntegerAttr) and dtype == "i1":
        value = bool(op.value.value.data & 1)
    else:
        raise OpError(op, f"is a constant of {op.value.type}; a body's constants are f16, "
                      "bf16 or f32 numbers or i1 booleans")
    rounded = bool(value) if dtype == "i1" else round_float(value, dtype)
    return Node("const", dtype, value=rounded, source=op)


def _cmpf_node(b: _Builder, op: arith.CmpfOp, operands: tuple[Node, ...]) -> Node:
    """cmpf: a compare the vector unit has, the negation of one, or a constant."""
    predicate = CMPF_NAMES[op.predicate.value.data]
    if predicate in CONSTANT_PREDICATES:
        return Node("const", "i1", value=CONSTANT_PREDICATES[predicate], source=op)
    if predicate in NEGATED_PREDICATES:
        ordered = b.intern(Node("cmpf", "i1", operands, predicate=NEGATED_PREDICATES[predicate],
                                source=op))
        return Node("not", "i1", (ordered,), source=op)
    return Node("cmpf", "i1", operands, predicate=predicate, source=op)


def _node_of(b: _Builder, op: Operation) -> Node:
    """The node for one supported op (operands already built), or a located error."""
    def ins() -> tuple[Node, ...]:
        return tuple(b.operand(op, v) for v in op.operands)

    result = op.results[0]
    dtype = _scalar_dtype(op, result)
    if isinstance(op, arith.ConstantOp):
        return _constant_node(op, dtype)
    if type(op) in FLOAT_BINARY:
        return Node(FLOAT_BINARY[type(op)], dtype, ins(), source=op)  # type: ignore[index]
    if type(op) in LOGIC:
        if dtype != "i1":
            raise OpError(op, f"works on {result.type}; andi, ori and xori are supported on "
                          "i1 conditions only")
        return Node(LOGIC[type(op)], dtype, ins(), source=op)  # type: ignore[index]
    if isinstance(op, arith.NegfOp):
        return Node("negf", dtype, ins(), source=op)
    if isinstance(op, arith.ExtFOp | arith.TruncFOp):
        kind = "extf" if isinstance(op, arith.ExtFOp) else "truncf"
        if op.attributes or "roundingmode" in op.properties:
            raise OpError(op, "carries a rounding mode or attributes; only the default "
                          "round-to-nearest-even conversion is supported")
        return Node(kind, dtype, ins(), source=op)
    if isinstance(op, arith.CmpfOp):
        return _cmpf_node(b, op, ins())
    if isinstance(op, arith.SelectOp):
        return Node("select", dtype, ins(), source=op)
    raise OpError(op, f"is not an elementwise operation the vectorizer maps; supported: "
                  f"{SUPPORTED_TEXT}")


def _math_node(b: _Builder, op: Operation) -> Node:
    """A math op's decomposition (hswc.math_decompositions) as nodes; its result's node."""
    if _scalar_dtype(op, op.results[0]) == "i1" or len(op.operands) != 1:
        raise OpError(op, f"works on {op.results[0].type}; math ops are supported on f16, "
                      "bf16 and f32 values")
    if op.attributes or any(k != "fastmath" for k in op.properties):
        raise OpError(op, "carries attributes; math ops are supported without them")
    return MATH_OPS[op.name](_NodeBuilder(b, op), b.operand(op, op.operands[0]))


class _NodeBuilder:
    """hswc.math_decompositions' Builder over DAG nodes: each operation a node of the body,
    located at the math op it comes from."""

    def __init__(self, builder: _Builder, op: Operation):
        self.b = builder
        self.source = op

    def dtype(self, a: Node) -> str:
        return a.dtype

    def const(self, value: float, dtype: str) -> Node:
        return self.b.intern(Node("const", dtype, value=round_float(value, dtype),
                                  source=self.source))

    def op(self, kind: str, *operands: Node) -> Node:
        dtype = operands[1].dtype if kind == "select" else operands[0].dtype
        return self.b.intern(Node(kind, dtype, operands, source=self.source))

    def cmpf(self, predicate: str, a: Node, b: Node) -> Node:
        return self.b.intern(Node("cmpf", "i1", (a, b), predicate=predicate, source=self.source))

    def convert(self, a: Node, dtype: str) -> Node:
        kind = "extf" if dtype == "f32" else "truncf"
        return self.b.intern(Node(kind, dtype, (a,), source=self.source))


def unmapped_op(block: Block) -> Operation | None:
    """The first op of a body the vectorizer has no mapping for (by name; body_dag checks the
    types), None when every op has one."""
    for op in block.ops:
        if op.name not in SUPPORTED_OPS and op.name not in MATH_OPS \
                and op.name != "linalg.yield":
            return op
    return None


def body_dag(block: Block, inputs: int | None = None) -> Dag:
    """The DAG of a body block whose first `inputs` arguments (default: all) are the inputs'
    elements; later arguments (a linalg.generic's output element) must be unused."""
    count = len(block.args) if inputs is None else inputs
    b = _Builder(block)
    input_nodes = []
    for i, arg in enumerate(block.args[:count]):
        node = Node("input", _scalar_dtype(block.parent_op() or block.first_op,  # type: ignore[arg-type]
                                           arg), index=i, name=arg.name_hint)
        b.values[arg] = node
        input_nodes.append(node)
    terminator = block.last_op
    if terminator is None or terminator.name != "linalg.yield" or len(terminator.operands) != 1:
        where = terminator or block.parent_op()
        assert where is not None
        raise OpError(where, "must end the body: an elementwise body ends in linalg.yield of "
                      "one value")
    for op in block.ops:
        if op is terminator:
            break
        if len(op.results) != 1 or op.regions:
            raise OpError(op, f"is not an elementwise operation the vectorizer maps; "
                          f"supported: {SUPPORTED_TEXT}")
        b.add(_math_node(b, op) if op.name in MATH_OPS else _node_of(b, op), op.results[0])
    result = b.operand(terminator, terminator.operands[0])
    nodes = _live(b.nodes, result)
    for node in nodes:
        for operand in node.operands:
            operand.users.append(node)
    return Dag(input_nodes, nodes, result, b.scalars)


def _live(nodes: Iterable[Node], result: Node) -> list[Node]:
    """The nodes `result` depends on, in their original order."""
    needed: set[int] = set()
    stack = [result]
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(node.operands)
    return [n for n in nodes if id(n) in needed and n.kind != "input"]
