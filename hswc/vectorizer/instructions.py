"""Instruction selection: each node of a body's DAG becomes its AscendC call(s), in body order.

The table `RULES` has one small function per operation kind. Operands are `Val`s, vectors the
kernel holds in UB (an input, an input's f32 copy, a temporary, a constant buffer, a mask, the
output); a constant operand becomes the scalar of an instruction's scalar form where AscendC has
one (Adds, Muls, Maxs, Mins; CompareScalar and Select VSEL_TENSOR_SCALAR_MODE when the schedule
asks for scalar compares), and otherwise a buffer that Init fills with Duplicate.

Mapping (t: a vector, k: a constant):
  extf/truncf            Cast (CAST_NONE; CAST_RINT to bf16), over the chunk's `cur` elements
                         (with `whole-repeat-casts`, compute_num; with `cast-rint`, CAST_RINT
                         to f16 too)
  addf t,t | t,k         Add | Adds            subf t,t | t,k | k,t   Sub | Adds(-k) | Sub(k)
  mulf t,t | t,k         Mul | Muls            divf t,t | t,k | k,t   Div (constants in buffers)
  maximumf / minimumf    Max, Maxs / Min, Mins negf                   Muls -1
  exp ln sqrt rsqrt abs  Exp Ln Sqrt Rsqrt Abs (the math ops' decompositions, in their type)
  cmpf oeq ogt oge olt ole une   Compare (or CompareScalar / Compares) EQ GT GE LT LE NE
  cmpf one / ord         LT | GT, EQ(a,a) & EQ(b,b) (And/Or on the masks as uint16)
  cmpf ult ule ugt uge ueq uno   Not of oge ogt ole olt one ord (hswc.vectorizer.dag)
  select m, t, t|k       Select TENSOR_TENSOR (or TENSOR_SCALAR with a scalar k)
  andi / ori / xori      And / Or / Not on the masks (xori of two masks: (a | b) & ~(a & b))
Integer values (i8, i16, i32; which call takes which type per SoC: hswc.soc_api):
  addi subi muli maxsi minsi   Add Sub/Adds Mul Max Min (maxsi / minsi of i8 in half; addi, subi,
                         muli of i8 in int16, its low 8 bits kept as trunci keeps them)
  maxui / minui          maxsi / minsi of the values biased by the sign bit (+ 2^(N-1)
                         wraps: the unsigned order becomes the signed one), unbiased after
  cmpi eq ne slt sle sgt sge   Compare EQ NE LT LE GT GE on the type where the SoC compares
                         it so; i32 on A2/A3 (EQ only): Max, then EQ against an operand (a >= b
                         is max(a, b) == a), Not for the strict ones and ne; i8 in half and i16
                         in float (exact Casts) where the SoC has no integer compare
  cmpi ult ule ugt uge   the signed ones on the operands biased by the sign bit
  select m, t, t|k       Select on the type; where the SoC's Select takes no integer type
                         (A2/A3), on the same lanes seen as half / float (ReinterpretCast: Select
                         moves bit patterns), a constant in a buffer Duplicate fills; int8 /
                         uint8 (no SoC's Select takes them) in half between exact Casts
  andi / ori / xori      And / Or (xori: (a | b) & ~(a & b)) on the type where the SoC takes
                         it, else a 32-bit value as two int16_t lanes over twice the count
  shli / shrsi / shrui   ShiftLeft on the unsigned lanes (a logical shift, as MLIR's; AscendC
                         shifts a signed type arithmetically), ShiftRight on the signed /
                         unsigned lanes, by a constant amount
  extsi extui sitofp uitofp fptosi fptoui roundeven   Casts (hswc.vectorizer.cast_routes)
  floor ceil trunc narrow   Casts too: a float to an integral float; an in-range integer
                         narrowed (trunci and the divisions: hswc.vectorizer.integer_lowering)
A uniform operand (a scalar of the kernel, or computed from scalars and constants: see
hswc.vectorizer.dag) takes a constant's place: the scalar of a scalar form, or a buffer Init
fills with Duplicate; the kernel computes its value once, before the chunk loop. A body that
needs more than RESIDENT_CONSTANTS such buffers (a long fused chain: their number grows with the
body, the bytes per element with it, and ubFactor shrinks until nothing fits) instead fills a
temporary with Duplicate in the chunk loop just before a use, and uses it again only within
CONSTANT_REUSE_WINDOW instructions, so at most a window's constants are alive at once. A result that
is an input or a uniform value is copied (DataCopy) or filled (Duplicate) into the output.
Every other instruction counts `compute_num` (the chunk rounded up to whole 256-byte
repeats); masks are combined as 16-bit words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.ir import Operation, SSAValue

from hswc import soc_api
from hswc.diagnostics import OpError
from hswc.kernel_dtypes import output_dtype
from hswc.vectorizer.cast_routes import INTEGER_RANGES, NoRoute, cast_route, holds
from hswc.vectorizer.dag import FLOAT8_DTYPES, Dag, Node
from hswc.vectorizer.schedule import Schedule

Role = Literal["input", "copy", "temp", "const", "mask", "output"]
Count = Literal["cur", "compute", "words", "double"]
"""How many elements a call covers: the chunk's (`cur`), whole repeats of it (`compute`), the
16-bit words of a mask over `compute` elements, or twice `compute` (32-bit values seen as two
16-bit lanes each)."""

FLOAT_DTYPES = ("f16", "bf16", "f32")

SWAPPED = {"oeq": "oeq", "ogt": "olt", "oge": "ole", "olt": "ogt", "ole": "oge", "one": "one",
           "ord": "ord", "une": "une"}
"""k <p> t is t <SWAPPED[p]> k."""
COMPARE_MODES = {"oeq": "eq", "ogt": "gt", "oge": "ge", "olt": "lt", "ole": "le", "une": "ne"}
"""cmpf predicate -> AscendC CMPMODE (NaN compares false, NE true, as the predicates say)."""


RESIDENT_CONSTANTS = 8
"""The most constant buffers a kernel fills once in Init; a body needing more fills them near
their uses in every chunk (module docstring). No single named op needs more than 5."""

CONSTANT_REUSE_WINDOW = 8
"""Instructions after its Duplicate within which a constant filled near its uses is used again
rather than filled anew."""


@dataclass(eq=False)
class Val:
    """A vector value of the kernel, as it lives in one UB buffer."""

    role: Role
    dtype: str
    """Element type: f16, bf16, f32, or mask (one bit per element)."""
    name: str | None = None
    input: int | None = None
    """For an input or its copy: the input's position."""
    value: float | int | None = None
    """For a constant buffer: the value Init fills it with."""
    uniform: Node | None = None
    """For a buffer of a uniform value that is not a constant: the node giving it."""
    level: str = "element"
    """In a row kernel (hswc.rows): whether it holds a chunk's elements (rows x pitch), one
    value per row, or a row's columns (hswc.vectorizer.dag.Node.level)."""


Scalar = float | int | Node
"""An instruction's scalar: a constant, or a uniform node the kernel computes once."""


@dataclass(eq=False)
class Instr:
    """One AscendC call: `api(dst, srcs..., scalar, mode, count)`."""

    api: str
    dst: Val
    srcs: tuple[Val, ...] = ()
    scalar: Scalar | None = None
    mode: str | None = None
    """CMPMODE, SELMODE or RoundMode, in the ascend dialect's spelling."""
    count: Count = "compute"
    source: Operation | None = None
    in_place: tuple[int, ...] = ()
    """Positions of the sources whose buffer dst may share (AscendC allows dst == that src)."""
    conversion: bool = False
    """The Cast of an input to its f32 copy, placed where the input arrives."""
    lanes: str | None = None
    """The element type the call sees its non-mask operands as, when it is not theirs (a
    ReinterpretCast of the same bytes: an i32 Select on float lanes, a shli on ui32 lanes)."""

    def reads(self) -> tuple[Val, ...]:
        return self.srcs


@dataclass
class Selection:
    """The calls of one body, and the values they work on."""

    dtype: str
    """The kernel's dtype (hswc.kernel_dtypes): the element type of its inputs and output, or
    of a dtype boundary's each."""
    inputs: list[Val]
    """One per body argument (None-named unused inputs included)."""
    outputs: list[Val]
    """One per value the body yields (one, but for a row kernel's several outputs)."""
    conversions: list[Instr]
    """The Casts of inputs to their f32 copies."""
    instrs: list[Instr]
    """Everything else, in body order."""
    consts: dict[tuple[object, ...], Val] = field(default_factory=dict)
    scalars: list[SSAValue] = field(default_factory=list)
    """The values the body's scalar nodes stand for (the kernel's scalar arguments)."""

    @property
    def output(self) -> Val:
        return self.outputs[0]


class _Selector:
    def __init__(self, dag: Dag, schedule: Schedule, dtype: str,
                 output_names: Sequence[str], constants_near_uses: bool = False):
        self.constants_near_uses = constants_near_uses
        self.filled: dict[tuple[object, ...], tuple[Val, int]] = {}
        """With constants_near_uses: key -> (its latest temporary, where it was filled)."""
        self.dag = dag
        self.schedule = schedule
        self.table = soc_api.table(schedule.api)
        """The SoC's API table: which calls are exact on which dtypes."""
        self.dtype = dtype
        self.inputs = [Val("input", n.dtype, n.name or f"in{n.index}", input=n.index,
                           level=n.level) for n in dag.inputs]
        own = dag.rows or len(dag.results) > 1  # several outputs: each of its own type
        self.outputs = [Val("output", "mask" if node.is_mask  # an i1 stored packed
                            else node.dtype if own else output_dtype(dtype), name,
                            level=node.level)
                        for node, name in zip(dag.results, output_names, strict=True)]
        self.vals: dict[int, Val] = {id(n): v for n, v in zip(dag.inputs, self.inputs,
                                                                 strict=True)}
        self.consts: dict[tuple[object, ...], Val] = {}
        self.conversions: list[Instr] = []
        self.instrs: list[Instr] = []
        self.half_twins: dict[int, Val] = {}
        """id of an integer node computed in half (_in_half) -> its half vector."""
        self.int16_twins: dict[int, Node] = {}
        """id of an int8 node -> an int16 node with its low 8 bits (_wrapping_in_int16)."""

    # region values

    def val(self, node: Node) -> Val:
        """The vector holding a node: its own, or a buffer filled with a uniform value."""
        if node.uniform:
            if node.is_mask:
                raise OpError(node.source, "is a condition on scalars alone, which has no "  # type: ignore[arg-type]
                              "vector form: compare a tensor value")
            key = node.key()
            if self.constants_near_uses:
                return self.filled_near_use(node, key)
            found = self.consts.get(key)
            if found is None:
                value = node.value if node.is_const else None
                assert value is None or isinstance(value, float | int)
                found = Val("const", node.dtype, node.name or "const", value=value,
                            uniform=None if node.is_const else node)
                self.consts[key] = found
            return found
        return self.vals[id(node)]

    def filled_near_use(self, node: Node, key: tuple[object, ...]) -> Val:
        """A temporary holding the uniform node's value, filled by a Duplicate before the
        instruction being selected (or the one filled within the window)."""
        found = self.filled.get(key)
        if found is not None and len(self.instrs) - found[1] <= CONSTANT_REUSE_WINDOW:
            return found[0]
        val = Val("temp", node.dtype, node.name or "const")
        self.emit(Instr("Duplicate", val, scalar=self.scalar(node), source=node.source))
        self.filled[key] = (val, len(self.instrs))
        return val

    @staticmethod
    def scalar(node: Node) -> Scalar:
        """A uniform node as an instruction's scalar: its value if it is a constant."""
        if node.is_const:
            assert isinstance(node.value, float | int)
            return node.value
        return node

    def result(self, node: Node) -> Val:
        """A new vector for the node's value (an output when the body yields it)."""
        if node in self.dag.results:
            val = self.outputs[self.dag.results.index(node)]
        elif node.is_mask:
            val = Val("mask", "mask", node.name or "mask", level=node.level)
        elif node.kind == "extf" and node.operands[0].kind == "input":
            val = Val("copy", node.dtype,
                      node.name or f"{self.inputs[node.operands[0].index or 0].name}_fp32",
                      input=node.operands[0].index, level=node.level)
        else:
            val = Val("temp", node.dtype, node.name or "tmp", level=node.level)
        self.vals[id(node)] = val
        return val

    def scratch_mask(self, node: Node) -> Val:
        return Val("mask", "mask", f"{node.name or 'mask'}_part", level=node.level)

    def element_val(self, node: Node) -> Val:
        """The vector of a node as one value per element: a row's or a column's value spread
        over the chunk's elements first (Broadcast), where an instruction has no form that
        reads it as it is (Compare, Select)."""
        val = self.val(node)
        if node.uniform or val.level == "element":
            return val
        spread = Val("temp", val.dtype, f"{val.name or 'tmp'}_spread")
        self.emit(Instr("Broadcast", spread, (val,), source=node.source))
        return spread

    # endregion

    def emit(self, instr: Instr) -> None:
        (self.conversions if instr.conversion else self.instrs).append(instr)

    def require_arithmetic(self, node: Node, what: str, dtype: str | None = None) -> None:
        """The node's values (or `dtype`) are something the vector unit computes on."""
        dtype = dtype or node.dtype
        assert node.source is not None
        if dtype == "i1":
            raise OpError(node.source, f"works on i1 values, which {what} has no form for: "
                          "select between numbers, combine conditions with andi/ori/xori")
        if dtype in INTEGER_RANGES and not self.table.takes(what, dtype):
            raise OpError(node.source, f"computes on {dtype}, but {what} on "
                          f"{self.table.soc_words} takes {self.table.words(what)}: extend the "
                          "operands with arith.extsi to a type it takes first")
        if not self.table.exact(what, dtype):
            soc = self.table.soc_words
            if self.table.takes(what, dtype):
                raise OpError(node.source, f"computes on {dtype}, but {soc} documents no "
                              f"rounding of {what} on {dtype}: widen the operands with "
                              "arith.extf to f32 first")
            takes = " or ".join(t for t in FLOAT_DTYPES if self.table.exact(what, t))
            raise OpError(node.source, f"computes on {dtype}, but {what} on {soc} takes "
                          f"{takes}: widen the operands with arith.extf to f32 first")

    def run(self) -> Selection:
        for node in self.dag.nodes:
            if node.uniform:
                continue  # computed once by the kernel, used as a scalar or a filled buffer
            RULES[node.kind](self, node)
        for k, (output, result) in enumerate(zip(self.outputs, self.dag.results, strict=True)):
            if result.kind == "input" or result.uniform:
                self.copy_to_output(output, result)
            elif self.dag.results.index(result) != k:  # yielded again: a copy of the first
                self.copy_to_output(output, result)
        return Selection(self.dtype, self.inputs, self.outputs, self.conversions, self.instrs,
                         self.consts, list(self.dag.scalars))

    def copy_to_output(self, output: Val, node: Node) -> None:
        if node.uniform:
            self.emit(Instr("Duplicate", output, scalar=self.scalar(node), source=node.source))
        else:
            self.emit(Instr("DataCopy", output, (self.vals[id(node)],)))


Rule = Callable[[_Selector, Node], None]


def _cast(s: _Selector, node: Node) -> None:
    (src,) = node.operands
    pair = (src.dtype, node.dtype)
    if node.dtype in FLOAT8_DTYPES:
        _to_float8(s, node, src)
        return
    if pair not in (("f16", "f32"), ("bf16", "f32"), ("f32", "f16"), ("f32", "bf16")):
        raise OpError(node.source, f"converts {pair[0]} to {pair[1]}; AscendC's Cast "  # type: ignore[arg-type]
                      "converts between f32 and f16 or bf16")
    rint = node.dtype == "bf16" or (node.dtype == "f16" and s.schedule.cast_rint)
    dst = s.result(node)
    s.emit(Instr("Cast", dst, (s.val(src),), mode="cast_rint" if rint else "cast_none",
                 count="compute" if s.schedule.whole_repeat_casts else "cur",
                 source=node.source, conversion=dst.role == "copy"))


def _to_float8(s: _Selector, node: Node, src: Node) -> None:
    """truncf to an 8-bit float: Cast from float with CAST_RINT (the one mode the SoC's table
    lists), after an exact Cast to float from half or bfloat16_t. The kernel runs it without
    saturation (hswc.float8_casts), so it gives what truncf gives."""
    if not s.table.cast_modes("f32", node.dtype):
        raise OpError(node.source, f"converts {src.dtype} to {node.dtype}, which "  # type: ignore[arg-type]
                      f"{s.table.soc_words}'s Cast does not (asc-devkit Cast.md: its table "
                      f"has no Cast to an 8-bit float); Ascend 950's has")
    wide = s.val(src)
    if src.dtype != "f32":
        wide = Val("temp", "f32", f"{src.name or 'value'}_fp32")
        s.emit(Instr("Cast", wide, (s.val(src),), mode=_exact_mode(s, src.dtype, "f32"),
                     count="cur", source=node.source))
    s.emit(Instr("Cast", s.result(node), (wide,), mode="cast_rint", count="cur",
                 source=node.source))


def _binary(tensor_api: str, scalar_api: str | None) -> Rule:
    """Add/Mul/Max/Min: t,t -> tensor form; one constant -> the scalar form (commutative)."""
    def rule(s: _Selector, node: Node) -> None:
        s.require_arithmetic(node, tensor_api)
        a, b = node.operands
        if scalar_api is not None and (a.uniform or b.uniform):
            t, k = (b, a) if a.uniform else (a, b)
            s.emit(Instr(scalar_api, s.result(node), (s.val(t),), scalar=s.scalar(k),
                         source=node.source, in_place=(0,)))
            return
        s.emit(Instr(tensor_api, s.result(node), (s.val(a), s.val(b)), source=node.source,
                     in_place=(0, 1)))
    return rule


def _subf(s: _Selector, node: Node) -> None:
    s.require_arithmetic(node, "Sub")
    a, b = node.operands
    if b.uniform:  # t - k == t + (-k), to the bit
        negated: Scalar = _negated(b.value, b.dtype) if b.is_const \
            else Node("negf", b.dtype, (b,), name=f"minus_{b.name or 'scalar'}", source=b.source)
        s.emit(Instr("Adds", s.result(node), (s.val(a),), scalar=negated, source=node.source,
                     in_place=(0,)))
        return
    s.emit(Instr("Sub", s.result(node), (s.val(a), s.val(b)), source=node.source,
                 in_place=(0, 1)))


def _negated(value: float | int | bool | None, dtype: str) -> float | int:
    """-value in the dtype: an integer's wrapping (-(-128) is -128 in i8: t - k == t + (-k)
    modulo 2^N as well)."""
    assert isinstance(value, float | int)
    if isinstance(value, float):
        return -value
    return _wrapped(-value, dtype)


def _wrapped(value: int, dtype: str) -> int:
    """value modulo 2^N, in the integer type's range."""
    lo, hi = INTEGER_RANGES[dtype]
    return (value - lo) % (hi - lo + 1) + lo


def _divf(s: _Selector, node: Node) -> None:
    s.require_arithmetic(node, "Div")
    a, b = node.operands
    s.emit(Instr("Div", s.result(node), (s.val(a), s.val(b)), source=node.source,
                 in_place=(0, 1)))


def _negf(s: _Selector, node: Node) -> None:
    s.require_arithmetic(node, "Muls")
    s.emit(Instr("Muls", s.result(node), (s.val(node.operands[0]),), scalar=-1.0,
                 source=node.source, in_place=(0,)))


def _unary(api: str) -> Rule:
    """Exp, Ln, Sqrt, Rsqrt, Abs: dst = api(t), in the node's type."""
    def rule(s: _Selector, node: Node) -> None:
        s.require_arithmetic(node, api)
        s.emit(Instr(api, s.result(node), (s.val(node.operands[0]),), source=node.source,
                     in_place=(0,)))
    return rule


def _compare(s: _Selector, dst: Val, a: Node, b: Node, predicate: str, source: Node) -> None:
    """dst = a <predicate> b for a predicate with a CMPMODE; a constant b may be a scalar."""
    mode = COMPARE_MODES[predicate]
    if b.uniform and s.schedule.scalar_compare:
        s.emit(Instr("Compares" if s.schedule.compares else "CompareScalar", dst,
                     (s.element_val(a) if dst.level == "element" else s.val(a),),
                     scalar=s.scalar(b), mode=mode, source=source.source))
    else:
        pair = (s.element_val(a), s.element_val(b)) if dst.level == "element" \
            else (s.val(a), s.val(b))
        s.emit(Instr("Compare", dst, pair, mode=mode, source=source.source))


def _cmpf(s: _Selector, node: Node) -> None:
    a, b = node.operands
    s.require_arithmetic(node, "Compare", a.dtype)
    predicate = node.predicate
    assert predicate is not None
    if a.uniform:
        a, b, predicate = b, a, SWAPPED[predicate]
    dst = s.result(node)
    if predicate in COMPARE_MODES:
        _compare(s, dst, a, b, predicate, node)
        return
    part = s.scratch_mask(node)
    if predicate == "one":  # ordered and unequal: below or above
        _compare(s, dst, a, b, "olt", node)
        _compare(s, part, a, b, "ogt", node)
        s.emit(Instr("Or", dst, (dst, part), count="words", source=node.source, in_place=(0,)))
        return
    # ord: neither is NaN (x == x fails only for NaN); a constant other than NaN always is.
    _compare(s, dst, a, a, "oeq", node)
    if not b.is_const:  # a scalar may be NaN
        _compare(s, part, b, b, "oeq", node)
        s.emit(Instr("And", dst, (dst, part), count="words", source=node.source, in_place=(0,)))


def _select(s: _Selector, node: Node) -> None:
    s.require_arithmetic(node, "Select")
    mask, a, b = node.operands
    dst = s.result(node)
    value = s.element_val if dst.level == "element" else s.val
    mask_val = value(mask)
    if b.uniform and s.schedule.scalar_compare:
        s.emit(Instr("Select", dst, (mask_val, value(a)), scalar=s.scalar(b),
                     mode="vsel_tensor_scalar_mode", source=node.source, in_place=(1,)))
        return
    s.emit(Instr("Select", dst, (mask_val, value(a), value(b)),
                 mode="vsel_tensor_tensor_mode", source=node.source, in_place=(1,)))


def _logic(api: str) -> Rule:
    def rule(s: _Selector, node: Node) -> None:
        a, b = node.operands
        s.emit(Instr(api, s.result(node), (s.val(a), s.val(b)), count="words",
                     source=node.source, in_place=(0, 1)))
    return rule


def _not(s: _Selector, node: Node) -> None:
    s.emit(Instr("Not", s.result(node), (s.val(node.operands[0]),), count="words",
                 source=node.source, in_place=(0,)))


def _xori(s: _Selector, node: Node) -> None:
    """a ^ b == (a | b) & ~(a & b)."""
    a, b = (s.val(n) for n in node.operands)
    both = s.scratch_mask(node)
    dst = s.result(node)
    for instr in (Instr("And", both, (a, b), count="words", in_place=(0, 1)),
                  Instr("Not", both, (both,), count="words", in_place=(0,)),
                  Instr("Or", dst, (a, b), count="words", in_place=(0, 1)),
                  Instr("And", dst, (dst, both), count="words", in_place=(0, 1))):
        instr.source = node.source
        s.emit(instr)


def _reduce(s: _Selector, node: Node) -> None:
    """hsg.reduce: each row's elements combined into its one value (hswc.reduction_order)."""
    (src,) = node.operands
    s.emit(Instr("Reduce", s.result(node), (s.val(src),), mode=node.predicate,
                 source=node.source))


def _route(s: _Selector, node: Node) -> None:
    """A conversion to or from an integer, or roundeven: the Casts of its route on the SoC
    (hswc.vectorizer.cast_routes), through temporaries of the route's types."""
    _cast_chain(s, node, node.kind, node.operands[0])


def _cast_chain(s: _Selector, node: Node, kind: str, src: Node) -> None:
    """The node's value as conversion `kind` of `src`: the Casts of its route."""
    try:
        steps = cast_route(s.table, kind, src.dtype, node.dtype)
    except NoRoute as error:
        raise OpError(node.source, f"converts {src.dtype} to {node.dtype}: {error}") from None  # type: ignore[arg-type]
    value = s.val(src)
    for i, step in enumerate(steps):
        dst = s.result(node) if i == len(steps) - 1 else \
            Val("temp", step.dst, f"{node.name or 'cast'}_{step.dst}")
        s.emit(Instr("Cast", dst, (value,), mode=step.mode,
                     count="compute" if s.schedule.whole_repeat_casts else "cur",
                     source=node.source))
        value = dst


def _integer_binary(tensor_api: str, scalar_api: str | None) -> Rule:
    """addi, muli, maxsi, minsi: the call on the integer type where the SoC takes it; maxsi and
    minsi on a type the SoC lacks (i8 on A2/A3) in half, which holds every 8-bit value: the
    operands Cast to half exactly, the larger or smaller picked, Cast back exactly."""
    same = _binary(tensor_api, scalar_api)

    def rule(s: _Selector, node: Node) -> None:
        if s.table.takes(tensor_api, node.dtype):
            same(s, node)
            return
        if _half_api(s, node) is not None:
            _in_half(s, node, tensor_api, scalar_api)
            return
        raise OpError(node.source, f"computes on {node.dtype}, but {tensor_api} on "  # type: ignore[arg-type]
                      f"{s.table.soc_words} takes {s.table.words(tensor_api)}: extend the "
                      "operands with arith.extsi to a type it takes first")
    return rule


def _half_api(s: _Selector, node: Node) -> str | None:
    """Max or Min when the integer node is a maxsi / minsi computed in half (_integer_binary)."""
    api = {"maxsi": "Max", "minsi": "Min"}.get(node.kind)
    if api is None or s.table.takes(api, node.dtype) or not holds("f16", node.dtype) \
            or not s.table.takes(api, "f16"):
        return None
    return api


def _in_half(s: _Selector, node: Node, tensor_api: str, scalar_api: str | None) -> None:
    """The node in half; an operand computed in half already is used as it is, and the result
    is Cast back to the integer type only where the body yields it or uses it otherwise."""
    def widened(operand: Node) -> Val:
        twin = s.half_twins.get(id(operand))
        if twin is not None:
            return twin
        wide = Val("temp", "f16", f"{operand.name or 'value'}_fp16")
        s.emit(Instr("Cast", wide, (s.val(operand),), mode=_exact_mode(s, operand.dtype, "f16"),
                     count="cur", source=node.source))
        return wide

    a, b = node.operands
    out = Val("temp", "f16", f"{node.name or 'tmp'}_fp16")
    if scalar_api is not None and (a.uniform or b.uniform):
        t, k = (b, a) if a.uniform else (a, b)
        assert k.is_const, "a uniform integer operand is a constant"
        s.emit(Instr(scalar_api, out, (widened(t),), scalar=float(k.value),  # type: ignore[arg-type]
                     source=node.source, in_place=(0,)))
    else:
        s.emit(Instr(tensor_api, out, (widened(a), widened(b)), source=node.source,
                     in_place=(0, 1)))
    s.half_twins[id(node)] = out
    if node in s.dag.results or any(_half_api(s, u) is None for u in node.users):
        s.emit(Instr("Cast", s.result(node), (out,), mode=_exact_mode(s, "f16", node.dtype),
                     count="cur", source=node.source))


def _exact_mode(s: _Selector, src: str, dst: str) -> str:
    """The mode of an exact Cast (CAST_NONE where the SoC takes it, else CAST_RINT)."""
    modes = s.table.cast_modes(src, dst)
    return "cast_none" if "cast_none" in modes else "cast_rint"


INTEGER_COMPARES = {"eq": "oeq", "ne": "une", "slt": "olt", "sle": "ole", "sgt": "ogt",
                    "sge": "oge"}
"""cmpi's signed predicates as the cmpf ones of the same CMPMODE (_compare's spelling)."""
SWAPPED_CMPI = {"eq": "eq", "ne": "ne", "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
                "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}
"""k <p> t is t <SWAPPED_CMPI[p]> k."""
LANES = {2: "f16", 4: "f32"}
"""The float of each width, whose Select moves an integer's bit patterns."""
UNSIGNED = {"i16": "ui16", "i32": "ui32", "ui16": "ui16", "ui32": "ui32"}
"""The unsigned type of each width (ShiftLeft and ShiftRight shift it logically)."""


def _width(dtype: str) -> int:
    return int(dtype.removeprefix("ui").removeprefix("i"))


def _derived(s: _Selector, like: Node, kind: str, dtype: str, *operands: Node) -> Node:
    """A value the rule of `like` computes on the way: a node of its own (not in the DAG),
    selected now by its kind's rule, located at `like`'s op."""
    node = Node(kind, dtype, operands, name=f"{like.name or 'tmp'}_{kind}", source=like.source)
    RULES[kind](s, node)
    return node


def _biased(s: _Selector, like: Node, value: Node) -> Node:
    """value + 2^(N-1), wrapping (the sign bit flipped): unsigned order becomes signed."""
    lo, _ = INTEGER_RANGES[value.dtype]
    if value.is_const:
        assert isinstance(value.value, int)
        return Node("const", value.dtype, value=_wrapped(value.value + lo, value.dtype),
                    source=value.source)
    bias = Node("const", value.dtype, value=lo, source=like.source)
    return _derived(s, like, "addi", value.dtype, value, bias)


def _cmpi(s: _Selector, node: Node) -> None:
    a, b = node.operands
    predicate = node.predicate
    assert predicate is not None
    if a.uniform:
        a, b, predicate = b, a, SWAPPED_CMPI[predicate]
    if predicate[0] == "u":
        if not s.table.takes("Adds", a.dtype):
            raise OpError(node.source, f"compares {a.dtype} as unsigned, which needs Adds on "  # type: ignore[arg-type]
                          f"{a.dtype}; Adds on {s.table.soc_words} takes "
                          f"{s.table.words('Adds')}: extend the operands with arith.extui first")
        a, b, predicate = _biased(s, node, a), _biased(s, node, b), "s" + predicate[1:]
    dst = s.result(node)
    dtype = a.dtype
    if s.table.takes("Compare", dtype) and \
            COMPARE_MODES[INTEGER_COMPARES[predicate]] in s.table.compare_modes(dtype):
        _compare(s, dst, a, b, INTEGER_COMPARES[predicate], node)
        return
    if s.table.takes("Compare", dtype) and s.table.takes("Max", dtype):
        _compare_through_max(s, node, dst, a, b, predicate)
        return
    wide = next((f for f in ("f16", "f32") if holds(f, dtype) and s.table.exact("Compare", f)
                 and cast_route_or_none(s, dtype, f) is not None), None)
    if wide is None:
        raise OpError(node.source, f"compares {dtype}, but Compare on {s.table.soc_words} takes "  # type: ignore[arg-type]
                      f"{s.table.words('Compare')}: extend the operands with arith.extsi to a "
                      "type it takes first")
    pair = [Node("const", wide, value=float(o.value), source=o.source)  # type: ignore[arg-type]
            if o.is_const else _derived(s, node, "sitofp", wide, o) for o in (a, b)]
    _compare(s, dst, pair[0], pair[1], INTEGER_COMPARES[predicate], node)


def cast_route_or_none(s: _Selector, src: str, dst: str) -> object | None:
    try:
        return cast_route(s.table, "sitofp", src, dst)
    except NoRoute:
        return None


def _compare_through_max(s: _Selector, node: Node, dst: Val, a: Node, b: Node,
                         predicate: str) -> None:
    """A signed compare where the SoC compares the type for equality only (i32 on A2/A3,
    Compare.md): a >= b is max(a, b) == a, a <= b is max(a, b) == b, > and < their negations,
    ne the negation of eq."""
    if predicate in ("eq", "ne"):
        _compare(s, dst, a, b, "oeq", node)
    else:
        larger = _derived(s, node, "maxsi", a.dtype, a, b)
        other = a if predicate in ("sge", "slt") else b
        _compare(s, dst, larger, other, "oeq", node)
    if predicate in ("ne", "sgt", "slt"):
        s.emit(Instr("Not", dst, (dst,), count="words", source=node.source, in_place=(0,)))


def _integer_select(s: _Selector, node: Node) -> None:
    """select between integers on a SoC whose Select takes no integer type: the same bytes as
    the float of their width (Select copies bit patterns), both values in vectors; 8-bit
    values, which no float is as wide as, in half (_select_in_half)."""
    lanes = LANES.get(_width(node.dtype) // 8)
    if lanes is None and holds("f16", node.dtype) and s.table.takes("Select", "f16"):
        _select_in_half(s, node)
        return
    if lanes is None or not s.table.takes("Select", lanes):
        raise OpError(node.source, f"selects {node.dtype} values, but Select on "  # type: ignore[arg-type]
                      f"{s.table.soc_words} takes {s.table.words('Select')}: extend the values "
                      "with arith.extsi to i16 or i32 first")
    mask, a, b = node.operands
    dst = s.result(node)
    value = s.element_val if dst.level == "element" else s.val
    s.emit(Instr("Select", dst, (value(mask), value(a), value(b)),
                 mode="vsel_tensor_tensor_mode", source=node.source, in_place=(1,),
                 lanes=lanes))


def _select_in_half(s: _Selector, node: Node) -> None:
    """select of int8 / uint8 values (Select takes no 8-bit type on either SoC: Select.md):
    both values Cast to half exactly (half holds every 8-bit integer), Select on half, the
    picked value Cast back exactly."""
    mask, a, b = node.operands
    wide = [Node("const", "f16", value=float(o.value), source=o.source)  # type: ignore[arg-type]
            if o.is_const else _derived(s, node, "sitofp" if node.dtype[0] == "i" else "uitofp",
                                        "f16", o) for o in (a, b)]
    picked = _derived(s, node, "select", "f16", mask, *wide)
    _cast_chain(s, node, "fptosi" if node.dtype[0] == "i" else "fptoui", picked)


def _select_rule(s: _Selector, node: Node) -> None:
    if node.dtype in INTEGER_RANGES and not s.table.takes("Select", node.dtype):
        _integer_select(s, node)
        return
    _select(s, node)


def _unsigned_pick(signed_kind: str) -> Rule:
    """maxui / minui: maxsi / minsi of the operands biased by the sign bit, unbiased after."""
    def rule(s: _Selector, node: Node) -> None:
        a, b = (_biased(s, node, o) for o in node.operands)
        picked = _derived(s, node, signed_kind, node.dtype, a, b)
        lo, _ = INTEGER_RANGES[node.dtype]
        s.emit(Instr("Adds", s.result(node), (s.val(picked),), scalar=lo, source=node.source,
                     in_place=(0,)))
    return rule


def _integer_logic(api: str) -> Rule:
    """andi / ori of integers: And / Or on the type, or on 16-bit lanes (_bitwise_lanes);
    masks as before."""
    mask_rule = _logic(api)

    def rule(s: _Selector, node: Node) -> None:
        if node.is_mask:
            mask_rule(s, node)
            return
        lanes, count = _bitwise_lanes(s, node, (api,))
        a, b = node.operands
        s.emit(Instr(api, s.result(node), (s.val(a), s.val(b)), source=node.source,
                     in_place=(0, 1), lanes=lanes, count=count))
    return rule


def _bitwise_lanes(s: _Selector, node: Node, apis: Sequence[str]) -> tuple[str | None, Count]:
    """The lanes and count the bitwise calls `apis` run on for the node's type: the type itself
    where the SoC takes it (And, Or, Not on int32_t on Ascend 950), else a 32-bit value as two
    int16_t lanes over twice the count (A2/A3's And, Or and Not take int16_t and uint16_t only:
    And.md, Or.md, Not.md; a bitwise op is the same on each half of the bits). An OpError
    naming the SoC, the call and the type where neither works (int8: no lanes that narrow)."""
    if all(s.table.takes(api, node.dtype) for api in apis):
        return None, "compute"
    if _width(node.dtype) == 32 and all(s.table.takes(api, "i16") for api in apis):
        return "i16", "double"
    missing = next(api for api in apis if not s.table.takes(api, node.dtype))
    raise OpError(node.source, f"computes on {node.dtype}, but {missing} on "  # type: ignore[arg-type]
                  f"{s.table.soc_words} takes {s.table.words(missing)}: extend the operands "
                  "with arith.extsi to i16 first")


def _integer_xori(s: _Selector, node: Node) -> None:
    """xori of integers: (a | b) & ~(a & b), on the lanes _bitwise_lanes picks; masks as
    before."""
    if node.is_mask:
        _xori(s, node)
        return
    lanes, count = _bitwise_lanes(s, node, ("And", "Or", "Not"))
    a, b = (s.val(n) for n in node.operands)
    both = Val("temp", node.dtype, f"{node.name or 'tmp'}_and")
    dst = s.result(node)
    for instr in (Instr("And", both, (a, b), in_place=(0, 1)),
                  Instr("Not", both, (both,), in_place=(0,)),
                  Instr("Or", dst, (a, b), in_place=(0, 1)),
                  Instr("And", dst, (dst, both), in_place=(0, 1))):
        instr.source, instr.lanes, instr.count = node.source, lanes, count
        s.emit(instr)


def _shift(api: str, lanes_of: Callable[[str], str]) -> Rule:
    """shli / shrsi / shrui by a constant amount: ShiftLeft / ShiftRight on the lanes that
    shift as MLIR does (unsigned for shli and shrui, signed for shrsi)."""
    def rule(s: _Selector, node: Node) -> None:
        value, amount = node.operands
        if not amount.is_const:
            raise OpError(node.source, f"shifts by an amount that is not a constant; "  # type: ignore[arg-type]
                          f"AscendC's {api} shifts every element by one scalar amount")
        lanes = lanes_of(node.dtype)
        if not s.table.takes(api, lanes):
            raise OpError(node.source, f"shifts {node.dtype}, but {api} on "  # type: ignore[arg-type]
                          f"{s.table.soc_words} takes {s.table.words(api)}: extend the value "
                          "with arith.extsi first")
        s.emit(Instr(api, s.result(node), (s.val(value),), scalar=amount.value,  # type: ignore[arg-type]
                     source=node.source, in_place=(0,),
                     lanes=None if lanes == node.dtype else lanes))
    return rule


def _absi(s: _Selector, node: Node) -> None:
    """math.absi: Max(t, Muls(t, -1)); -(-2^(N-1)) wraps to itself, which is then its own
    absolute value, as math.absi defines it."""
    (value,) = node.operands
    minus_one = Node("const", node.dtype, value=-1, source=node.source)
    negated = _derived(s, node, "muli", node.dtype, value, minus_one)
    if not s.table.takes("Max", node.dtype):
        raise OpError(node.source, f"computes on {node.dtype}, but Max on "  # type: ignore[arg-type]
                      f"{s.table.soc_words} takes {s.table.words('Max')}")
    s.emit(Instr("Max", s.result(node), (s.val(value), s.val(negated)), source=node.source,
                 in_place=(0, 1)))


def _wrapping_in_int16(api: str, rule: Rule) -> Rule:
    """addi / subi / muli of int8 where the SoC's call takes no int8_t (A2/A3 and the model's
    950 lanes: api_tables.def): the operands extended to int16 exactly, the call on int16, and
    the low 8 bits of the result kept as trunci keeps them (ShiftLeft and ShiftRight by 8, then
    an exact narrowing Cast: hswc.vectorizer.integer_lowering). Wrapping + - * modulo 2^8 are
    the low 8 bits of the same operation on any wider type, and of a chain of them: the int16
    result is the next such op's operand as it is (an operand's extension is made once), and
    its low 8 bits are taken only where the body yields it or another op uses it."""
    def widened(s: _Selector, node: Node) -> None:
        if not _wraps_in_int16(s, node, api):
            rule(s, node)
            return
        wide = [Node("const", "i16", value=o.value, source=o.source) if o.is_const
                else _int16_twin(s, node, o) for o in node.operands]
        result = _derived(s, node, node.kind, "i16", *wide)
        s.int16_twins[id(node)] = result
        if node in s.dag.results or any(u.kind not in WRAPPING or not _wraps_in_int16(
                s, u, WRAPPING[u.kind]) for u in node.users):
            eight = Node("const", "i16", value=8, source=node.source)
            up = _derived(s, node, "shli", "i16", result, eight)
            _cast_chain(s, node, "narrow", _derived(s, node, "shrsi", "i16", up, eight))
    return widened


def _int16_twin(s: _Selector, like: Node, value: Node) -> Node:
    """An int8 value in int16 with the same low 8 bits: its wrapping op's int16 result, or
    its extension (made once)."""
    twin = s.int16_twins.get(id(value))
    if twin is None:
        twin = s.int16_twins[id(value)] = _derived(s, like, "extsi", "i16", value)
    return twin


WRAPPING = {"addi": "Add", "subi": "Sub", "muli": "Mul"}


def _wraps_in_int16(s: _Selector, node: Node, api: str) -> bool:
    return node.dtype == "i8" and not s.table.takes(api, "i8") and s.table.takes(api, "i16")


RULES: dict[str, Rule] = {
    "extf": _cast,
    "truncf": _cast,
    "addf": _binary("Add", "Adds"),
    "subf": _subf,
    "mulf": _binary("Mul", "Muls"),
    "divf": _divf,
    "maximumf": _binary("Max", "Maxs"),
    "minimumf": _binary("Min", "Mins"),
    "negf": _negf,
    "exp": _unary("Exp"),
    "ln": _unary("Ln"),
    "sqrt": _unary("Sqrt"),
    "rsqrt": _unary("Rsqrt"),
    "abs": _unary("Abs"),
    "cmpf": _cmpf,
    "select": _select_rule,
    "andi": _integer_logic("And"),
    "ori": _integer_logic("Or"),
    "not": _not,
    "xori": _integer_xori,
    "cmpi": _cmpi,
    "absi": _absi,
    "maxui": _unsigned_pick("maxsi"),
    "minui": _unsigned_pick("minsi"),
    "shli": _shift("ShiftLeft", lambda t: UNSIGNED.get(t, t)),
    "shrsi": _shift("ShiftRight", lambda t: t),
    "shrui": _shift("ShiftRight", lambda t: UNSIGNED.get(t, t)),
    "reduce": _reduce,
    "addi": _wrapping_in_int16("Add", _integer_binary("Add", "Adds")),
    "subi": _wrapping_in_int16("Sub", _subf),
    "muli": _wrapping_in_int16("Mul", _integer_binary("Mul", "Muls")),
    "maxsi": _integer_binary("Max", "Maxs"),
    "minsi": _integer_binary("Min", "Mins"),
    "extsi": _route, "extui": _route, "sitofp": _route, "uitofp": _route, "fptosi": _route,
    "fptoui": _route, "roundeven": _route, "floor": _route, "ceil": _route, "trunc": _route,
    "narrow": _route,
}
"""Node kind -> its instruction(s)."""


def select_instructions(dag: Dag, schedule: Schedule, dtype: str,
                        output_names: Sequence[str] | str = "y") -> Selection:
    """The AscendC calls of a body of a kernel of `dtype` (hswc.kernel_dtypes), its outputs
    named `output_names` (one name: the one output's)."""
    names = [output_names] if isinstance(output_names, str) else list(output_names)
    selection = _Selector(dag, schedule, dtype, names).run()
    if len(selection.consts) <= RESIDENT_CONSTANTS:
        return selection
    return _Selector(dag, schedule, dtype, names, constants_near_uses=True).run()
