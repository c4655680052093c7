"""Which linalg.generic ops hswc compiles: elementwise computations on dense tensors.

`elementwise(generic)` checks a generic and describes it, or raises an OpError at it that says
what is supported: every iterator parallel, 1 to 4 inputs and one or several outputs (of one
shape, each at the identity map: a kernel writing several tensors), ranked tensors each of
its own element type (f16, bf16, f32, or an integer type i8, ui8, i16, i32, i64: a region at
a dtype boundary reads an f32 accumulator and writes f16, or f32 and writes i8), each input read
at the output's index or broadcast to it (hswc.broadcast: a bias, a
per-row scale, a rank-0 tensor; with dynamic shapes as hswc.broadcast describes) or, with
static shapes, read at a constant offset (a slice folded into its map: a
half of the last dim), an output whose value the body does not read, and a body the vectorizer
maps (hswc.vectorizer.dag).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    Float16Type,
    FloatAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint

from hswc.broadcast import DYNAMIC_DIM, Broadcast, Window, is_projection, is_window, operand_access
from hswc.diagnostics import OpError
from hswc.dialects.ascend_types import element_type_name
from hswc.dialects.hsg import (
    BOOL_STORAGE,
    MAX_RANK,
    OP_NAME_ATTR,
    PACKED_ATTR,
    SUPPORTED_ELEMENT_TYPES,
    gm_element,
)
from hswc.kernel_dtypes import kernel_dtype
from hswc.slices import slice_refusal
from hswc.vectorizer.dag import INTEGER_DTYPES, Dag, body_dag

MAX_INPUTS = 4


@dataclass(frozen=True)
class Elementwise:
    """A checked elementwise generic."""

    op: GenericOp
    input_types: tuple[Attribute, ...]
    """Each input's element type."""
    element_type: Attribute
    """The (first) output's element type."""
    body: Block
    dag: Dag
    broadcast: Broadcast | None = None
    """How inputs of lower rank or with size-1 dims are read (hswc.broadcast), if any are."""
    dim_checks: tuple[DimCheck, ...] = ()
    """The run-time dims that must agree for the inputs to broadcast (dynamic shapes)."""
    output_types: tuple[Attribute, ...] = ()
    """Each output's element type (the first is `element_type`)."""
    stored: Region | None = None
    """The body the kernel runs where an output is i1: `body`'s region with each i1 it yields
    stored as a byte (_byte_outputs); None where it is the generic's own."""
    packed: tuple[int, ...] = ()
    """The positions of the i1 outputs stored packed, 8 a byte (hsg.BITS_STORAGE: the generic's
    hsg.packed_outputs); their masks are written as Compare leaves them."""

    @property
    def inputs(self) -> tuple[SSAValue, ...]:
        return tuple(self.op.inputs)

    @property
    def result(self) -> SSAValue:
        return self.op.res[0]

    @property
    def results(self) -> tuple[SSAValue, ...]:
        return tuple(self.op.res)

    @property
    def outputs(self) -> tuple[Attribute, ...]:
        """Each output's element type."""
        return self.output_types or (self.element_type,)

    @property
    def dtype(self) -> str:
        """What its kernel is named and keyed by (hswc.kernel_signature.kernel_dtype): of the
        GM buffers (an i1 output's bytes, hsg.gm_element)."""
        return kernel_dtype([element_type_name(t) for t in self.input_types],
                            [element_type_name(t) for t in self.gm_outputs()])

    def gm_outputs(self) -> tuple[Attribute, ...]:
        """Each output's element type in GM (hsg.gm_element: an i1's bytes or packed bits)."""
        return tuple(gm_element(t, k in self.packed) for k, t in enumerate(self.outputs))

    @property
    def op_name(self) -> str | None:
        """The named op it was decomposed from (`hsg.op_name`), if any."""
        attr = self.op.attributes.get(OP_NAME_ATTR)
        return attr.data if isinstance(attr, StringAttr) else None

    def input_names(self) -> list[str]:
        """Each input's name: a named op's own (its body arguments'); for a user's generic the
        operand's, else the body argument's, else in<i>."""
        names = []
        for i, (arg, operand) in enumerate(zip(self.body.args, self.op.inputs, strict=False)):
            first, second = (arg, operand) if self.op_name else (operand, arg)
            names.append(first.name_hint or second.name_hint or f"in{i}")
        return names

    def output_name(self) -> str:
        """A named op's output is its operator's `y`; a user's generic is named by its result."""
        return "y" if self.op_name else self.result.name_hint or "y"

    def output_names(self) -> list[str]:
        """Each output's name: output_name() for one output; of several, a named op's `y`,
        `y1`, ... or each result's own name (else `y<i>`), each distinct."""
        if len(self.results) == 1:
            return [self.output_name()]
        names: list[str] = []
        for i, value in enumerate(self.results):
            name = f"y{i}" if self.op_name else value.name_hint or f"y{i}"
            names.append(name if name not in names else f"{name}_{i}")
        return names


@dataclass(frozen=True)
class DimCheck:
    """At run time, input `input`'s dim `dim` must be `size` (a static output dim) or, with
    `size` None, the size of the output's dim `output_dim` (read from an input at the output's
    index): else the inputs do not broadcast. A dynamic identity input's dim checked against a
    static size is the case input == the identity input itself."""

    input: int
    dim: int
    output_dim: int
    size: int | None


FLOAT8_OUTPUTS = ("f8E4M3FN", "f8E5M2")
"""The 8-bit floats a kernel may write (a quantization's output: GeluQuant's and
SwigluGroupQuant's y on Ascend 950), by their MLIR names. Which SoC converts to them is the
Cast table's to say (hswc/api_tables.def; hswc.vectorizer.instructions refuses the others)."""


def _fail(op: GenericOp, why: str) -> OpError:
    return OpError(op, f"is not an elementwise computation hswc compiles: {why}; supported: "
                   f"parallel iterators, 1 to {MAX_INPUTS} inputs and one or several outputs "
                   "of one shape, each f16, bf16, f32, i8, ui8, i16, i32 or i64, each input "
                   "read at the output's index or broadcast to it by a projection that keeps "
                   "the dims' order, at constant offsets >= 0 inside the operand")


def _check_structure(op: GenericOp) -> tuple[TensorType[Attribute], Broadcast | None,
                                             tuple[DimCheck, ...]]:
    for it in op.iterator_types:
        if it.data.value != "parallel":
            raise _fail(op, f"it has a {it.data.value} iterator (a reduction)")
    operands = [*op.inputs, *op.outputs]
    if not 1 <= len(op.inputs) <= MAX_INPUTS or not op.outputs \
            or len(op.res) != len(op.outputs):
        raise _fail(op, f"it has {len(op.inputs)} input(s), {len(op.outputs)} output(s) and "
                    f"{len(op.res)} result(s)")
    types = [v.type for v in operands] + [r.type for r in op.res[1:]] + [op.res[0].type]
    for t in types:
        if not isinstance(t, TensorType):
            raise _fail(op, f"it works on {t}, not on a tensor")
        if not isinstance(t.encoding, NoneAttr):
            raise _fail(op, f"{t} has an encoding; only dense tensors are supported")
    result = types[-1]
    assert isinstance(result, TensorType)
    for k, t in enumerate(types):
        assert isinstance(t, TensorType)
        element = t.get_element_type()
        output = k >= len(op.inputs)  # an i1 output is stored a byte per element
        if str(element) in FLOAT8_OUTPUTS and not output:
            raise _fail(op, f"{t} has the element type {element}: a kernel writes 8-bit floats "
                        "but reads none")
        if not isinstance(element, SUPPORTED_ELEMENT_TYPES) \
                and str(element) not in INTEGER_DTYPES \
                and not (output and (element == I1 or str(element) in FLOAT8_OUTPUTS)):
            raise _fail(op, f"{t} has the element type {element}")
    if result.get_num_dims() > MAX_RANK:
        raise _fail(op, f"its rank is {result.get_num_dims()}, above {MAX_RANK}")
    broadcast, checks = _check_iteration(op, result, len(operands))
    return result, broadcast, checks


def _same_shape(a: TensorType[Attribute], b: TensorType[Attribute]) -> bool:
    """Whether two tensor types of one element type can hold the same shape, as an identity
    map reads one into the other: the same rank, each dim equal where both are static (a
    `tensor<4x64xf32>` read into the `tensor<?x64xf32>` of a `tensor.dim` of it)."""
    return a.get_num_dims() == b.get_num_dims() and all(
        x == y or x == DYNAMIC_INDEX or y == DYNAMIC_INDEX
        for x, y in zip(a.get_shape(), b.get_shape(), strict=True))


def _check_iteration(op: GenericOp, result: TensorType[Attribute],
                     operands: int) -> tuple[Broadcast | None, tuple[DimCheck, ...]]:
    """Parallel iterators; the output at the identity map; each input at the identity map of
    the output's shape, or a broadcast (hswc.broadcast; of dynamic shapes: _dynamic)."""
    rank = result.get_num_dims()
    if len(op.indexing_maps) != operands:
        raise _fail(op, f"it has {len(op.indexing_maps)} indexing maps for {operands} operands")
    if len(op.iterator_types) != rank:
        raise _fail(op, f"it has {len(op.iterator_types)} iterators for rank {rank}")
    maps = [attr.data for attr in op.indexing_maps if isinstance(attr, AffineMapAttr)]
    outputs = len(op.outputs)
    for k, (m, out, res) in enumerate(zip(maps[-outputs:], op.outputs, op.res, strict=True)):
        which = "its output's" if outputs == 1 else f"its output {k + 1}'s"
        if m != AffineMap.identity(rank) or out.type != res.type:
            raise _fail(op, f"{which} indexing map {m} is not the identity of rank "
                        f"{rank} (a transpose or a reduction)")
        if not _same_shape(res.type, result):  # type: ignore[arg-type]
            raise _fail(op, f"its output {k + 1} {res.type} has another shape than its "
                        f"output 1 {result}")
    strides: list[tuple[int, ...] | None] = []
    windows: list[Window | None] = []
    for m, value in zip(maps, op.inputs, strict=False):
        t = value.type
        assert isinstance(t, TensorType)
        if m == AffineMap.identity(rank) and _same_shape(t, result):
            strides.append(None)
            windows.append(None)
            continue
        if not (t.has_static_shape() and result.has_static_shape()):
            if not is_projection(m):
                raise _fail(op, f"indexing map {m} reads {t} into {result}: a read at an "
                            "offset (a slice) needs static shapes")
            return _dynamic(op, maps, result)
        try:
            access, window = operand_access(m, t.get_shape(), result.get_shape())
        except ValueError as error:
            raise _fail(op, str(error)) from None
        strides.append(access)
        windows.append(window)
    if all(s is None for s in strides):
        return None, ()
    return Broadcast(tuple(result.get_shape()), tuple(strides),
                     tuple(windows) if any(windows) else ()), ()


def _dynamic(op: GenericOp, maps: list[AffineMap], result: TensorType[Attribute]) -> \
        tuple[Broadcast, tuple[DimCheck, ...]]:
    """The broadcast of a generic with dynamic shapes (hswc.broadcast's module docstring):
    each input a projection (no offsets); an output dim an input reads with a static size
    > 1 takes that size (checked at run time against the identity inputs); every other
    dynamic operand dim is checked at run time against the output's dim it reads."""
    rank = result.get_num_dims()
    shape = [DYNAMIC_DIM if n == DYNAMIC_INDEX else n for n in result.get_shape()]
    identity = [i for i, (m, v) in enumerate(zip(maps, op.inputs, strict=False))
                if m == AffineMap.identity(rank) and _same_shape(v.type, result)]  # type: ignore
    if not identity:
        raise _fail(op, f"its output {result} has dims known only at run time and no input "
                    "is read at the output's index: the kernel takes its shape from one")
    reads = [[] if i in identity else _operand_reads(op, m, value.type, shape)  # type: ignore
             for i, (m, value) in enumerate(zip(maps, op.inputs, strict=False))]
    checks: list[DimCheck] = []
    for i in identity:  # its dynamic dims the broadcast inputs fix to a static size
        t = op.inputs[i].type
        assert isinstance(t, TensorType)
        checks += [DimCheck(i, d, d, shape[d]) for d, n in enumerate(t.get_shape())
                   if n == DYNAMIC_INDEX and shape[d] != DYNAMIC_DIM]
    strides = [None if i in identity else _dynamic_strides(op, i, dims, shape, checks)
               for i, dims in enumerate(reads)]
    broadcast = Broadcast(tuple(shape), tuple(strides))
    why = broadcast.dynamic_refusal()
    if why is not None:
        raise _fail(op, f"{why}: with dynamic shapes a broadcast input reads the outermost "
                    "dim of a run-time size or dims of static sizes after every dynamic one")
    return broadcast, tuple(checks)


def _operand_reads(op: GenericOp, m: AffineMap, t: TensorType[Attribute],
                   shape: list[int]) -> list[tuple[int, int | None]]:
    """Per dim of a broadcast operand of type `t`: (the output dim it reads, -1 for a
    constant; its static size or None). A static size > 1 fixes the output's dim in
    `shape`."""
    if m.num_dims != len(shape) or len(m.results) != t.get_num_dims():
        raise _fail(op, f"indexing map {m} does not read {t} from the rank-{len(shape)} "
                    "iteration")
    dims: list[tuple[int, int | None]] = []
    for k, (expr, n) in enumerate(zip(m.results, t.get_shape(), strict=True)):
        size = None if n == DYNAMIC_INDEX else n
        if not isinstance(expr, AffineDimExpr):
            if size != 1:
                raise _fail(op, f"indexing map {m} reads dim {k} of {t} at a constant: with "
                            "dynamic shapes only a static size-1 dim is read so")
            dims.append((-1, 1))
            continue
        d = expr.position
        dims.append((d, size))
        if size is not None and size != 1:
            if shape[d] not in (DYNAMIC_DIM, size):
                raise _fail(op, f"indexing map {m} reads dim {k} of {t} ({size} elements) "
                            f"along the output's dim {d} of {shape[d]}")
            shape[d] = size
    return dims


def _dynamic_strides(op: GenericOp, i: int, dims: list[tuple[int, int | None]],
                     shape: list[int], checks: list[DimCheck]) -> tuple[int, ...]:
    """Input i's strides (hswc.broadcast) from its dims' reads (_operand_reads); each of its
    dynamic dims added to `checks`."""
    row = [0] * len(shape)
    for k, (d, size) in enumerate(dims):
        if d < 0:
            continue
        if size is None:
            checks.append(DimCheck(i, k, d, None if shape[d] == DYNAMIC_DIM else shape[d]))
        if size == 1 or shape[d] == 1:
            continue  # a size-1 dim: every output index reads its one element
        later = [shape[e] if s is None else s for e, s in dims[k + 1:]]
        if DYNAMIC_DIM in later:
            raise _fail(op, f"input {i + 1}'s stride along the output's dim {d} depends on a "
                        "dim known only at run time")
        row[d] = math.prod(later)
    return tuple(row)


TENSOR_HOST_OPS = ("tensor.empty", "tensor.dim", "tensor.extract")
"""The tensor ops host code may keep: sizes, the generics' inits, a rank-0 tensor's value."""
KINDS = {"linalg.transpose": "a transpose", "linalg.reduce": "a reduction",
         "linalg.matmul": "a matrix product", "linalg.batch_matmul": "a matrix product",
         "linalg.generic": "a generic that is not elementwise",
         "linalg.fill": "the init of an op on the host",
         "tensor.gather": "a gather", "tensor.extract_slice": "a slice",
         "tensor.insert_slice": "a slice", "tensor.collapse_shape": "a reshape",
         "tensor.expand_shape": "a reshape", "tensor.reshape": "a reshape",
         "tensor.pad": "a padding", "tensor.concat": "a concatenation"}
"""What remarks call the non-elementwise ops an exporter writes."""


def host_kind(op: Operation) -> str | None:
    """What a linalg or tensor op that stays on the host is (for its remark), None for ops
    that are not such computations (host code every module has: sizes, inits)."""
    if op.dialect_name() not in ("linalg", "tensor") or op.name in TENSOR_HOST_OPS:
        return None
    parent = op.parent_op()
    if parent is not None and parent.dialect_name() in ("linalg", "hsg"):  # an op's own body
        return None
    if op.name.startswith(("linalg.conv", "linalg.depthwise_conv")):
        return "a convolution"
    if op.name.startswith("linalg.pooling"):
        return "a pooling"
    if op.name == "tensor.extract_slice":  # one hsg-fold-slices did not fold into its readers
        why = slice_refusal(op)
        return f"a slice: {why}" if why is not None else (
            "a slice no indexing map of its readers reads: an offset-0 part that does not "
            "divide its dim, or a reader that is not elementwise")
    return KINDS.get(op.name, "an op with no elementwise model")


def generic_kind(op: GenericOp) -> str | None:
    """What a generic that is not elementwise in MLIR's sense is (for the remark that it stays
    on the host): a reduction, several results, a fill, an assertion, a gather (a map other
    than dims plus constant offsets: a strided or a mixed read) or a transpose;
    None for an elementwise generic (which becomes a kernel, or stays with a warning saying why
    not)."""
    if any(it.data.value != "parallel" for it in op.iterator_types):
        return "a reduction"
    if len(op.res) != 1 and any(
            not isinstance(attr, AffineMapAttr) or attr.data != AffineMap.identity(len(
                op.iterator_types)) for attr in op.indexing_maps.data[len(op.inputs):]):
        return "a generic of several results, not all at the identity map"
    if not op.inputs:
        return "a fill: it reads no tensor"
    if any(inner.name == "cf.assert" for inner in op.body.block.ops):
        return "its body asserts (cf.assert), which the host checks as it runs it"
    rank = len(op.iterator_types)
    maps = [attr.data for attr in op.indexing_maps if isinstance(attr, AffineMapAttr)]
    if any(m.num_dims != rank or not is_window(m)
           for m in maps):
        return "a gather or a strided read (a map other than dims plus constants)"
    if maps and maps[-1] != AffineMap.identity(rank):
        return "a transpose"
    return None


def elementwise(op: GenericOp) -> Elementwise:
    """The generic, checked (see the module docstring)."""
    t, broadcast, checks = _check_structure(op)
    body = op.body.block
    outputs = len(op.outputs)
    if len(body.args) != len(op.inputs) + outputs:
        raise _fail(op, f"its body takes {len(body.args)} arguments for "
                    f"{len(op.inputs)} input(s) and {outputs} output(s)")
    if any(out.uses for out in body.args[len(op.inputs):]):
        raise _fail(op, "its body reads the output's current value (an accumulation)")
    inputs = tuple(v.type.get_element_type() for v in op.inputs)  # type: ignore[attr-defined]
    types = tuple(r.type.get_element_type() for r in op.res)  # type: ignore[attr-defined]
    packed = packed_outputs(op)
    stored = _byte_outputs(op.body, packed) \
        if any(t == I1 and k not in packed for k, t in enumerate(types)) else None
    run = body if stored is None else stored.block
    return Elementwise(op, inputs, t.get_element_type(), body,
                       body_dag(run, len(op.inputs), several=outputs > 1), broadcast, checks,
                       types if outputs > 1 else (), stored, packed)


def packed_outputs(op: GenericOp) -> tuple[int, ...]:
    """The generic's outputs stored packed (hsg.PACKED_ATTR), each checked to be an i1."""
    attr = op.attributes.get(PACKED_ATTR)
    if attr is None:
        return ()
    positions = attr.get_values() if isinstance(attr, DenseArrayBase) else None
    if positions is None or not all(isinstance(k, int) for k in positions):
        raise _fail(op, f"its {PACKED_ATTR} is {attr}, not an array<i64> of output positions")
    for k in positions:
        if not 0 <= int(k) < len(op.res) or op.res[int(k)].type.get_element_type() != I1:  # type: ignore[attr-defined]
            raise _fail(op, f"its {PACKED_ATTR} names output {k}, which is not an i1 output: "
                        "only an i1 is stored packed, 8 elements a byte")
    return tuple(sorted({int(k) for k in positions}))


I1 = IntegerType(1)


def _byte_outputs(body: Region, packed: tuple[int, ...] = ()) -> Region:
    """A copy of the body in which each i1 value it yields is stored as a byte, 0 or 1
    (hsg.gm_element): `arith.fptosi (arith.select v, 1.0, 0.0) : f16 to i8`, the AscendC
    Select of a compare mask between two f16 values, then a Cast to int8 (exact: 0 and 1); the
    `packed` ones stay i1 (their masks are what the kernel stores)."""
    region = body.clone()
    terminator = region.block.last_op
    assert terminator is not None
    builder = Builder(InsertPoint.before(terminator))
    f16 = Float16Type()
    one = zero = None
    for index, value in enumerate(terminator.operands):
        if value.type != I1 or index in packed:
            continue
        if one is None or zero is None:
            one = builder.insert(arith.ConstantOp(FloatAttr(1.0, f16))).result
            zero = builder.insert(arith.ConstantOp(FloatAttr(0.0, f16))).result
        chosen = builder.insert(arith.SelectOp(value, one, zero)).result
        stored = builder.insert(arith.FPToSIOp(chosen, BOOL_STORAGE)).result
        terminator.operands[index] = stored
    return region
