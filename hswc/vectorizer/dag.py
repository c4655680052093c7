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

from collections.abc import Callable, Iterable, Sequence
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
from hswc.dialects.ascend import constant_index
from hswc.dialects.hsg_rows import ReduceOp
from hswc.float_formats import float_bits, round_float
from hswc.math_decompositions import FPOWI, MATH_OPS, SUPPORTED_MATH, power
from hswc.vectorizer import integer_lowering

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
INTEGER_BINARY = {arith.AddiOp: "addi", arith.SubiOp: "subi", arith.MuliOp: "muli",
                  arith.MaxSIOp: "maxsi", arith.MinSIOp: "minsi", arith.MaxUIOp: "maxui",
                  arith.MinUIOp: "minui"}
"""arith's integer ops on integer values (iN: two's complement, + - * wrapping; the `u` ones
read the bits as unsigned)."""
SHIFTS = {arith.ShLIOp: "shli", arith.ShRSIOp: "shrsi", arith.ShRUIOp: "shrui"}
"""Shifts of integer values by a constant amount (0 to the width - 1: MLIR makes any other
amount poison)."""
DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.FloorDivSIOp,
             arith.CeilDivSIOp, arith.CeilDivUIOp)
"""arith's integer divisions: computed in f32 for 8- and 16-bit types
(hswc.vectorizer.integer_lowering), refused for wider ones and by a constant zero."""
CMPI_NAMES = tuple(arith.CMPI_COMPARISON_OPERATIONS)
"""arith.cmpi's predicates in the order of their integer encoding."""
CONVERSIONS = {arith.ExtSIOp: "extsi", arith.SIToFPOp: "sitofp", arith.FPToSIOp: "fptosi",
               arith.FPToUIOp: "fptoui", arith.UIToFPOp: "uitofp", arith.ExtUIOp: "extui"}
"""The conversions to and from integers (hswc.vectorizer.cast_routes maps them to Casts)."""
ROUNDEVEN = "math.roundeven"
ABSI = "math.absi"
INTEGER_DTYPES = {"i8": "int8", "ui8": "uint8", "i16": "int16", "i32": "int32", "i64": "int64"}
"""The integer element types a body may compute on (ui8: an unsigned byte tensor's element),
and the numpy dtype holding each."""
FLOAT8_DTYPES = {"f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2"}
"""The 8-bit floats a body may end in (a truncf to a kernel's output, nothing computed on
them), and the ml_dtypes type holding each."""
SUPPORTED_OPS = ("arith.extf", "arith.truncf", "arith.addf", "arith.subf", "arith.mulf",
                 "arith.divf", "arith.minimumf", "arith.maximumf", "arith.negf", "arith.cmpf",
                 "arith.select", "arith.andi", "arith.ori", "arith.xori", "arith.constant",
                 "arith.addi", "arith.subi", "arith.muli", "arith.maxsi", "arith.minsi",
                 "arith.extsi", "arith.extui", "arith.sitofp", "arith.uitofp", "arith.fptosi",
                 "arith.fptoui", "arith.maxui", "arith.minui", "arith.cmpi", "arith.shli",
                 "arith.shrsi", "arith.shrui", "arith.trunci", "arith.divsi", "arith.divui",
                 "arith.remsi", "arith.remui", "arith.floordivsi", "arith.ceildivsi",
                 "arith.ceildivui", ROUNDEVEN, ABSI)
ROW_OPS = ("hsg.reduce",)
"""What a row region's body holds besides SUPPORTED_OPS (hswc.row_regions builds it; no user
writes it, so refusals do not list it)."""
SUPPORTED_TEXT = (", ".join((*SUPPORTED_OPS, *SUPPORTED_MATH))
                  + " (by a constant exponent), ending in linalg.yield")
MATH_KINDS = ("exp", "ln", "sqrt", "rsqrt", "abs")
"""The node kinds of the vector unit's math instructions (hswc.math_semantics)."""


def dtype_of(t: Attribute) -> str | None:
    """'f16', 'bf16', 'f32', 'i1' or an integer type (INTEGER_DTYPES) for the scalar types a
    body may hold, else None."""
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "i1"
    if isinstance(t, IntegerType) and str(t) in INTEGER_DTYPES:
        return str(t)
    if str(t) in FLOAT8_DTYPES:
        return str(t)
    return None


def is_integer(dtype: str) -> bool:
    """Whether a node's dtype is an integer type (not i1, not a float)."""
    return dtype in INTEGER_DTYPES


@dataclass(eq=False)
class Node:
    """One value of the body: an input element, a constant, or an operation's result."""

    kind: str
    """input, const, scalar, extf, truncf, addf, subf, mulf, divf, maximumf, minimumf, negf,
    cmpf, select, andi, ori, xori, not; exp, ln, sqrt, rsqrt, abs (the math ops'
    decompositions, hswc.math_decompositions)."""
    dtype: str
    operands: tuple[Node, ...] = ()
    value: float | int | bool | None = None
    """A constant's value (as its type rounds it; an integer's as a Python int)."""
    predicate: str | None = None
    index: int | None = None
    """An input's position among the body's arguments; a scalar's among the captured values."""
    name: str | None = None
    """The IR's name for it (the kernel names buffers after these)."""
    source: Operation | None = None
    """The op it came from, for diagnostics."""
    users: list[Node] = field(default_factory=list)
    level: str = "element"
    """In a row region's body (hswc.rows): which part of the rows x length space the value
    spans: `element`, `row` (a reduction's result, or computed from row values) or `column`.
    An input's is its operand's class; an operation's follows from its operands'."""
    uniform: bool = field(init=False)
    """The same value for every element: a constant, a scalar, or computed from those. Set
    when the node is made, from its operands' (so no walk down a long body recurses)."""

    def __post_init__(self) -> None:
        self.uniform = self.kind in ("const", "scalar") or (
            self.kind not in ("input", "reduce") and all(o.uniform for o in self.operands))
        if self.kind == "reduce":
            self.level = "row"
        elif self.kind != "input":
            levels = {o.level for o in self.operands if not o.uniform}
            self.level = levels.pop() if len(levels) == 1 else "element"

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
            if is_integer(self.dtype):
                return ("const", self.dtype, int(self.value))
            return ("const", self.dtype, float_bits(self.value, self.dtype))
        return (self.kind, self.dtype, self.predicate, self.index, *map(id, self.operands))

@dataclass
class Dag:
    inputs: list[Node]
    """One per body argument, in order (unused ones included)."""
    nodes: list[Node]
    """Every constant and operation the results depend on, in body order."""
    results: list[Node]
    """What the body yields, in order (one value, but for a row region's several outputs)."""
    scalars: list[SSAValue] = field(default_factory=list)
    """The values from outside the body it uses, in order of first use (scalar nodes' index);
    of several `arith.constant`s of one name, type and value (each decomposed op's attribute is
    one: a fused chain of 200 leaky_relu has 200 `negative_slope`s) only the first: a kernel
    argument each made cloning its body quadratic, and the chain's kernel no different."""
    scalar_aliases: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """Each outside constant left out of `scalars` -> the equal one it reads instead."""

    @property
    def result(self) -> Node:
        return self.results[0]

    @property
    def rows(self) -> bool:
        """Whether it is a row region's body (it reduces, or reads rows or columns)."""
        return any(n.level != "element" for n in (*self.inputs, *self.nodes))

    def consumers(self, node: Node) -> list[Node]:
        return [n for n in self.nodes if node in n.operands]


class _Builder:
    def __init__(self, block: Block):
        self.block = block
        self.values: dict[SSAValue, Node] = {}
        self.merged: dict[tuple[object, ...], Node] = {}
        self.nodes: list[Node] = []
        self.scalars: list[SSAValue] = []
        self.aliases: dict[SSAValue, SSAValue] = {}
        self.constants: dict[tuple[str | None, Attribute, Attribute], SSAValue] = {}

    def operand(self, op: Operation, value: SSAValue) -> Node:
        node = self.values.get(value)
        if node is not None:
            return node
        if isinstance(value.owner, arith.ConstantOp) and value.owner.parent_block() is self.block:
            raise OpError(op, f"uses the {value.type} constant {value.owner.value}; an "
                          "elementwise body computes on f16, bf16 and f32 values and i1 "
                          "conditions")
        if self._inside(value):
            raise OpError(op, "uses a value of a nested region; an elementwise body may only use "
                          "its arguments, its own results, and float scalars from outside")
        dtype = dtype_of(value.type)
        if dtype is None or dtype == "i1":
            raise OpError(op, f"uses {value.type} from outside the body; an elementwise body "
                          "may only use float scalars (f16, bf16, f32) from outside")
        if isinstance(value.owner, arith.ConstantOp):  # equal constants of one name: one scalar
            key = (value.name_hint, value.type, value.owner.value)
            first = self.constants.setdefault(key, value)
            if first is not value:
                self.aliases[value] = first
                self.values[value] = self.values[first]
                return self.values[first]
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
        if node.kind in ("andi", "ori", "xori") and node.is_mask:
            return self.simplify_logic(node)
        if node.kind == "cmpi":
            return narrowed_compare(node)
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

        value = evaluate(node, [_constant_array(o) for o in node.operands])
        scalar = value.item()
        folded: float | int | bool = bool(scalar) if node.is_mask else \
            int(scalar) if is_integer(node.dtype) else float(scalar)
        return Node("const", node.dtype, value=folded, source=node.source)

    # endregion


def numpy_dtype_of(dtype: str) -> np.dtype:
    """The numpy dtype holding values of a node's dtype."""
    import numpy as np

    from hswc import arith_semantics as sem

    if is_integer(dtype):
        return np.dtype(INTEGER_DTYPES[dtype])
    if dtype in FLOAT8_DTYPES:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, FLOAT8_DTYPES[dtype]))
    return sem.DTYPES[dtype]


def _constant_array(node: Node) -> np.ndarray:
    import numpy as np

    from hswc import arith_semantics as sem

    if is_integer(node.dtype):
        return np.asarray(node.value, dtype=numpy_dtype_of(node.dtype))
    return sem.constant(node.value, sem.DTYPES[node.dtype])  # type: ignore[arg-type]


def evaluate(node: Node, operands: list[np.ndarray]) -> np.ndarray:
    """The node's operation on arrays of its operands (hswc.arith_semantics, and
    hswc.arith_integer_semantics for integers)."""
    import numpy as np

    from hswc import arith_integer_semantics as isem
    from hswc import arith_semantics as sem

    dtype = numpy_dtype_of(node.dtype)
    kind = node.kind
    if kind in (*INTEGER_BINARY.values(), *SHIFTS.values(), "cmpi", "absi", "narrow") or (
            kind in LOGIC.values() and is_integer(node.dtype)):
        return _evaluate_integer(node, operands)
    if kind in ("extsi", "extui"):
        return isem.extend(operands[0], dtype, kind == "extsi")
    if kind in ("sitofp", "uitofp"):
        return isem.to_float(operands[0], dtype, kind == "sitofp")
    if kind in ("fptosi", "fptoui"):
        return isem.to_integer(operands[0], dtype, kind == "fptosi")
    if kind in ROUNDINGS:
        return ROUNDINGS[kind](operands[0])
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


def _rounding(name: str) -> Callable[[np.ndarray], np.ndarray]:
    def run(a: np.ndarray) -> np.ndarray:
        import numpy as np

        return getattr(np, name)(a)
    return run


ROUNDINGS = {"roundeven": _rounding("rint"), "floor": _rounding("floor"),
             "ceil": _rounding("ceil"), "trunc": _rounding("trunc")}
"""A float to an integral value of its type (numpy's rint rounds ties to even)."""


def _evaluate_integer(node: Node, operands: list[np.ndarray]) -> np.ndarray:
    """An integer op's or cmpi's result (hswc.arith_integer_semantics)."""
    from hswc import arith_integer_semantics as isem

    if node.kind == "absi":
        return isem.absolute(operands[0])
    if node.kind == "narrow":
        return isem.truncate(operands[0], numpy_dtype_of(node.dtype))
    if node.kind == "cmpi":
        assert node.predicate is not None
        return isem.CMPI[CMPI_NAMES.index(node.predicate)](operands[0], operands[1])
    result = isem.BINARY[f"arith.{node.kind}"](operands[0], operands[1])
    return result.astype(numpy_dtype_of(node.dtype))


def _scalar_dtype(op: Operation, value: SSAValue) -> str:
    dtype = dtype_of(value.type)
    if dtype is None:
        raise OpError(op, f"works on {value.type}; an elementwise body works on f16, bf16 and "
                      "f32 scalars and i1 conditions")
    return dtype


def _constant_node(op: arith.ConstantOp, dtype: str) -> Node:
    if isinstance(op.value, FloatAttr):
        value: float | int | bool = float(op.value.value.data)
    elif isinstance(op.value, IntegerAttr) and dtype == "i1":
        value = bool(op.value.value.data & 1)
    elif isinstance(op.value, IntegerAttr) and is_integer(dtype):
        bits = int(dtype.removeprefix("ui").removeprefix("i"))
        raw = op.value.value.data & ((1 << bits) - 1)
        signed = not dtype.startswith("ui") and raw >= 1 << (bits - 1)
        return Node("const", dtype, value=raw - (1 << bits) if signed else raw, source=op)
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


def _integer_node(b: _Builder, op: Operation, dtype: str, operands: tuple[Node, ...]) -> Node:
    """An integer op, a conversion to or from an integer, or math.roundeven."""
    result = op.results[0]
    if type(op) in CONVERSIONS and operands[0].dtype == "i1":
        return _boolean_conversion(b, op, dtype, operands[0])
    if type(op) in INTEGER_BINARY:
        if not is_integer(dtype):
            raise OpError(op, f"works on {result.type}; {op.name} is supported on integer "
                          f"values ({', '.join(INTEGER_DTYPES)})")
        return Node(INTEGER_BINARY[type(op)], dtype, operands, source=op)  # type: ignore[index]
    if type(op) in CONVERSIONS:
        return Node(CONVERSIONS[type(op)], dtype, operands, source=op)  # type: ignore[index]
    if op.name == ABSI:
        if not is_integer(dtype):
            raise OpError(op, f"works on {result.type}; math.absi is supported on integer "
                          f"values ({', '.join(INTEGER_DTYPES)})")
        return Node("absi", dtype, operands, source=op)
    if dtype not in ("f16", "bf16", "f32") or op.attributes or \
            any(k != "fastmath" for k in op.properties):
        raise OpError(op, f"works on {result.type}; math.roundeven is supported on f16, "
                      "bf16 and f32 values without attributes")
    return Node("roundeven", dtype, operands, source=op)


def narrowed_compare(node: Node) -> Node:
    """cmpi of values extended from a narrower type (extsi, or extui) and constants that type
    holds, compared in the narrower type: extsi keeps both orders (signed and unsigned) of
    the values it extends, extui keeps the unsigned one and makes the signed one unsigned
    (torch-mlir compares an int32 tensor with 0 as `cmpi sgt, (extsi x to i64), 0 : i64`).
    The node as it is when its operands are not such."""
    assert node.predicate is not None
    extended = [o for o in node.operands if o.kind in ("extsi", "extui")]
    kinds = {o.kind for o in extended}
    narrow = {o.operands[0].dtype for o in extended}
    if len(kinds) != 1 or len(narrow) != 1:
        return node
    kind, dtype = kinds.pop(), narrow.pop()
    if not is_integer(dtype) or dtype.startswith("ui"):
        return node
    lo, hi = integer_range(dtype, signed=kind == "extsi")
    operands = []
    for o in node.operands:
        if o.kind == kind:
            operands.append(o.operands[0])
        elif o.is_const and isinstance(o.value, int) and lo <= o.value <= hi:
            value = o.value if o.value <= integer_range(dtype, True)[1] \
                else o.value - (hi + 1)  # extui's constant as the narrow type's bits
            operands.append(Node("const", dtype, value=value, source=o.source))
        else:
            return node
    predicate = node.predicate
    if kind == "extui" and predicate[0] == "s":
        predicate = "u" + predicate[1:]
    return Node("cmpi", "i1", tuple(operands), predicate=predicate, source=node.source)


def integer_range(dtype: str, signed: bool) -> tuple[int, int]:
    """The values an integer type holds read as signed (or as unsigned)."""
    bits = int(dtype.removeprefix("ui").removeprefix("i"))
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def _cmpi_node(op: arith.CmpiOp, operands: tuple[Node, ...]) -> Node:
    predicate = CMPI_NAMES[op.predicate.value.data]
    dtype = operands[0].dtype
    if not is_integer(dtype):
        raise OpError(op, f"compares {op.lhs.type} values; arith.cmpi is supported on integer "
                      f"values ({', '.join(INTEGER_DTYPES)})")
    return Node("cmpi", "i1", operands, predicate=predicate, source=op)


def _shift_node(op: Operation, dtype: str, operands: tuple[Node, ...]) -> Node:
    """shli / shrsi / shrui by a constant amount in [0, width): MLIR makes a larger or a
    negative amount poison, so such a constant is refused here; an amount that varies per
    element is refused by the instruction selection (AscendC's ShiftLeft / ShiftRight take a
    scalar amount)."""
    if not is_integer(dtype):
        raise OpError(op, f"works on {op.results[0].type}; {op.name} is supported on integer "
                      f"values ({', '.join(INTEGER_DTYPES)})")
    amount = operands[1]
    bits = int(dtype.removeprefix("ui").removeprefix("i"))
    if amount.is_const and isinstance(amount.value, int) and not 0 <= amount.value < bits:
        raise OpError(op, f"shifts a {dtype} value by {amount.value} bits: MLIR defines "
                      f"shifts by 0 to {bits - 1} bits only (any other amount is poison)")
    return Node(SHIFTS[type(op)], dtype, operands, source=op)  # type: ignore[index]


def _bitwise_node(op: Operation, dtype: str, operands: tuple[Node, ...]) -> Node:
    """cmpi, andi / ori / xori or a shift."""
    if type(op) in LOGIC:
        if dtype != "i1" and not is_integer(dtype):
            raise OpError(op, f"works on {op.results[0].type}; andi, ori and xori are "
                          "supported on i1 conditions and integer values")
        return Node(LOGIC[type(op)], dtype, operands, source=op)  # type: ignore[index]
    if isinstance(op, arith.CmpiOp):
        return _cmpi_node(op, operands)
    assert type(op) in SHIFTS
    return _shift_node(op, dtype, operands)


def _lowered_node(b: _Builder, op: Operation, dtype: str) -> Node:
    """trunci or an integer division as the nodes hswc.vectorizer.integer_lowering makes of it
    (every one located at the op); a division by the constant zero, or an op it has no exact
    sequence for, an error at the op."""
    operands = tuple(b.operand(op, v) for v in op.operands)
    if not all(is_integer(o.dtype) for o in operands):
        raise OpError(op, f"works on {op.operands[0].type}; {op.name} is supported on integer "
                      f"values ({', '.join(INTEGER_DTYPES)})")
    nodes = _NodeBuilder(b, op)
    try:
        if isinstance(op, arith.TruncIOp):
            return integer_lowering.truncation(nodes, operands[0], dtype)
        divisor = operands[1]
        if divisor.is_const and divisor.value == 0:
            raise OpError(op, "divides by the constant zero: undefined behaviour in MLIR, "
                          "and no kernel computes it")
        return integer_lowering.division(nodes, op.name, *operands)
    except integer_lowering.Unlowered as error:
        raise OpError(op, str(error)) from None


def _boolean_conversion(b: _Builder, op: Operation, dtype: str, condition: Node) -> Node:
    """extui / uitofp of an i1 (true is 1) and extsi / sitofp of one (true is -1, its one bit
    read as signed: MLIR's arith semantics) as a select between the two constants: a
    condition is a mask on the vector unit, never a Cast's operand. (fptosi / fptoui take
    floats: the verifier refuses an i1 operand before this.)"""
    true = -1 if CONVERSIONS[type(op)] in ("extsi", "sitofp") else 1  # type: ignore[index]
    if true < 0 and dtype.startswith("ui"):
        raise OpError(op, f"sign-extends i1 to {dtype}, whose values are unsigned: use extui")
    values = [b.intern(Node("const", dtype, value=v if is_integer(dtype) else float(v),
                            source=op)) for v in (true, 0)]
    return b.intern(Node("select", dtype, (condition, *values), source=op))


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
    if type(op) in INTEGER_BINARY or type(op) in CONVERSIONS or op.name in (ROUNDEVEN, ABSI):
        return _integer_node(b, op, dtype, ins())
    if isinstance(op, (*DIVISIONS, arith.TruncIOp)):
        return _lowered_node(b, op, dtype)
    if isinstance(op, arith.CmpiOp) or type(op) in SHIFTS or type(op) in LOGIC:
        return _bitwise_node(op, dtype, ins())
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


def _power_node(b: _Builder, op: Operation) -> Node:
    """math.fpowi by a constant exponent (hswc.math_decompositions.power) as nodes."""
    n = constant_index(op.operands[1])
    if n is None:
        raise OpError(op, "raises to an exponent that is not an arith.constant; the vectorizer "
                      "maps math.fpowi by a constant exponent only")
    if _scalar_dtype(op, op.results[0]) == "i1":
        raise OpError(op, f"works on {op.results[0].type}; math.fpowi is supported on f16, "
                      "bf16 and f32 values")
    return power(_NodeBuilder(b, op), b.operand(op, op.operands[0]), n)


def _math_node(b: _Builder, op: Operation) -> Node:
    """A math op's decomposition (hswc.math_decompositions) as nodes; its result's node."""
    if op.name == FPOWI:
        return _power_node(b, op)
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

    # hswc.vectorizer.integer_lowering's Builder

    @staticmethod
    def kind(a: Node) -> str:
        return a.kind

    @staticmethod
    def source_of(a: Node) -> Node | None:
        return a.operands[0] if len(a.operands) == 1 else None

    def integer(self, value: int, dtype: str) -> Node:
        return self.b.intern(Node("const", dtype, value=value, source=self.source))

    def node(self, kind: str, dtype: str, *operands: Node) -> Node:
        return self.b.intern(Node(kind, dtype, operands, source=self.source))

    def compare(self, predicate: str, a: Node, b: Node) -> Node:
        return self.b.intern(Node("cmpi", "i1", (a, b), predicate=predicate,
                                  source=self.source))


def unmapped_op(block: Block) -> Operation | None:
    """The first op of a body the vectorizer has no mapping for (by name; body_dag checks the
    types), None when every op has one."""
    for op in block.ops:
        if op.name not in SUPPORTED_OPS and op.name not in SUPPORTED_MATH \
                and op.name not in ROW_OPS and op.name != "linalg.yield":
            return op
    return None


def body_dag(block: Block, inputs: int | None = None,
             levels: Sequence[str] | None = None, several: bool = False) -> Dag:
    """The DAG of a body block whose first `inputs` arguments (default: all) are the inputs'
    elements; later arguments (a linalg.generic's output element) must be unused. A row
    region's body (hswc.rows) gives each input its class (`levels`) and may yield several
    values, as does a body of several outputs (`several`)."""
    count = len(block.args) if inputs is None else inputs
    b = _Builder(block)
    input_nodes = []
    for i, arg in enumerate(block.args[:count]):
        node = Node("input", _scalar_dtype(block.parent_op() or block.first_op,  # type: ignore[arg-type]
                                           arg), index=i, name=arg.name_hint,
                    level=levels[i] if levels is not None else "element")
        b.values[arg] = node
        input_nodes.append(node)
    terminator = block.last_op
    several = several or levels is not None
    if terminator is None or terminator.name != "linalg.yield" or not terminator.operands \
            or (len(terminator.operands) != 1 and not several):
        where = terminator or block.parent_op()
        assert where is not None
        raise OpError(where, "must end the body: an elementwise body ends in linalg.yield of "
                      "one value")
    for op in block.ops:
        if op is terminator:
            break
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) \
                and dtype_of(op.value.type) is None:
            continue  # an exponent of math.fpowi; any other use is refused at its user
        if len(op.results) != 1 or op.regions:
            raise OpError(op, f"is not an elementwise operation the vectorizer maps; "
                          f"supported: {SUPPORTED_TEXT}")
        made = _math_node(b, op) if op.name in SUPPORTED_MATH and op.name != ROUNDEVEN else \
            _reduce_node(b, op) if isinstance(op, ReduceOp) else _node_of(b, op)
        b.add(made, op.results[0])
    results = [b.operand(terminator, v) for v in terminator.operands]
    nodes = _live(b.nodes, *results)
    _check_quantization_scales(nodes, b.scalars)
    for node in nodes:
        for operand in node.operands:
            operand.users.append(node)
    return Dag(input_nodes, nodes, results, b.scalars, b.aliases)


QUANTIZED = ("fptosi", "fptoui")


def _check_quantization_scales(nodes: Sequence[Node], scalars: Sequence[SSAValue]) -> None:
    """A float quantized to an integer (fptosi / fptoui of what the body computes) must not
    have been scaled by a constant of zero or NaN (x * 0, x * NaN, x / 0, x / NaN): every
    element would become one integer, and no quantization means that. An OpError at the
    scaling op, naming the scale."""
    scaled: dict[int, tuple[Node, float]] = {}
    """id of a node -> (the bad scaling it depends on, its scale)."""
    for node in nodes:
        for operand in node.operands:
            if id(operand) in scaled:
                scaled.setdefault(id(node), scaled[id(operand)])
        bad = _bad_scale(node, scalars)
        if bad is not None:
            scaled[id(node)] = (node, bad)
        if node.kind in QUANTIZED and id(node) in scaled:
            scaling, scale = scaled[id(node)]
            assert scaling.source is not None
            raise OpError(scaling.source, f"scales by {scale} a value the body quantizes to "
                          f"{node.dtype}: a quantization scale of zero or NaN maps every "
                          "element to one value")


def _bad_scale(node: Node, scalars: Sequence[SSAValue]) -> float | None:
    """k of x * k, k * x or x / k when k is a constant zero or NaN (a constant of the body, or
    a scalar the body captures that an arith.constant defines), x not uniform."""
    if node.kind not in ("mulf", "divf"):
        return None
    a, b = node.operands
    candidates = [(b, a)] if node.kind == "divf" else [(b, a), (a, b)]
    for k, x in candidates:
        value = _known_value(k, scalars)
        if value is not None and not x.uniform and (value == 0 or value != value):
            return value
    return None


def _known_value(node: Node, scalars: Sequence[SSAValue]) -> float | None:
    if node.is_const and isinstance(node.value, float):
        return node.value
    if node.kind == "scalar" and node.index is not None:
        owner = scalars[node.index].owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr):
            return float(owner.value.value.data)
    return None


def _reduce_node(b: _Builder, op: ReduceOp) -> Node:
    """hsg.reduce: the row's values combined, in f32 (an f16 or bf16 value widened first, the
    result rounded once back: a sum in f16 accumulated more exactly than in f16 itself)."""
    value = b.operand(op, op.value)
    if value.uniform or value.level != "element":
        raise OpError(op, "reduces a value that is not one per element of the row; a row "
                      "region reduces what its elements compute")
    combiner = op.combiner.data
    if value.dtype == "f32":
        return Node("reduce", "f32", (value,), predicate=combiner, source=op)
    wide = b.intern(Node("extf", "f32", (value,), source=op))
    reduced = b.intern(Node("reduce", "f32", (wide,), predicate=combiner, source=op))
    return Node("truncf", value.dtype, (reduced,), source=op)


def _live(nodes: Iterable[Node], *results: Node) -> list[Node]:
    """The nodes `results` depend on, in their original order."""
    needed: set[int] = set()
    stack = list(results)
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(node.operands)
    return [n for n in nodes if id(n) in needed and n.kind != "input"]
