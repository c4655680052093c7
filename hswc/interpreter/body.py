"""A body run once over whole arrays: each arith op one numpy call, in its dtype.

`run_body(block, inputs)` binds the block's arguments to the inputs' arrays (all of one shape),
evaluates the scalar ops in order with hswc.arith_semantics, and returns the array
`linalg.yield` names, in the yielded element type. linalg.generic at the hsg level, and the
slice and chunk ops at the tiled and blocked levels, all run their bodies through it.
`evaluate` gives every yielded value, for the structured ops run on the host
(hswc.interpreter.structured), whose bodies may also hold what hswc.interpreter.body_ops runs:
integer ops, f64 and other math, linalg.index, tensor.extract, cf.assert. A row region's
body (hswc.rows) also holds hsg.reduce (`run_body_values`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from hswc import arith_semantics as sem
from hswc import math_semantics
from hswc.diagnostics import OpError
from hswc.dialects.ascend import constant_index
from hswc.dialects.hsg_rows import ReduceOp, compensated
from hswc.interpreter.body_ops import Iteration, constant, run_more
from hswc.interpreter.dtypes import numpy_dtype
from hswc.math_decompositions import FPOWI, MATH_OPS, power
from hswc.reduction_order import online_sum, padded, padded_runs, reduce_lanes, reduce_rows
from hswc.rows import read_rows
from hswc.vectorizer.dag import CMPF_NAMES, dtype_of

UNARY_CONVERSIONS = (arith.ExtFOp, arith.TruncFOp)


def _dtype(op: Operation, t: Attribute) -> np.dtype:
    name = "f64" if isinstance(t, Float64Type) else dtype_of(t)
    if name is not None and name in sem.BODY_DTYPES:
        return sem.BODY_DTYPES[name]
    try:
        return numpy_dtype(t)  # integers of any width, index
    except ValueError:
        raise OpError(op, f"works on {t}, which the interpreter does not model in a body") from None


def _integer(t: Attribute | None) -> bool:
    """Whether `t` is an integer type other than i1 (whose and/or/xor are logical)."""
    return isinstance(t, IntegerType | IndexType) and t != IntegerType(1)


def _run(op: Operation, args: list[np.ndarray], at: Iteration | None = None) -> np.ndarray:
    result_type = op.results[0].type if op.results else None
    if isinstance(op, arith.ConstantOp):
        value = op.value
        dtype = _dtype(op, value.type)
        if isinstance(value, FloatAttr):
            return sem.constant(float(value.value.data), dtype)
        if isinstance(value, IntegerAttr) and dtype == sem.I1:
            return sem.constant(bool(value.value.data & 1), dtype)
        integer = constant(op, dtype)
        if integer is not None:
            return integer
    if isinstance(op, UNARY_CONVERSIONS):
        return sem.convert(args[0], _dtype(op, op.result.type))
    if op.name in sem.BINARY and not _integer(result_type):
        assert result_type is not None
        return sem.binary(op.name, args[0], args[1]).astype(_dtype(op, result_type))
    if isinstance(op, arith.NegfOp):
        return sem.negf(args[0])
    if isinstance(op, arith.CmpfOp):
        return sem.cmpf(CMPF_NAMES[op.predicate.value.data], args[0], args[1])
    if isinstance(op, arith.SelectOp):
        return sem.select(*args)
    found = _math(op, args)
    if found is not None:
        return found
    return run_more(op, args, at)


def _math(op: Operation, args: list[np.ndarray]) -> np.ndarray | None:
    """A math op on f16, bf16 or f32 as the vector unit's model computes it (None for any other
    op: f64 and the functions only the host runs are hswc.interpreter.body_ops')."""
    if isinstance(op.operands[0].type if op.operands else None, Float64Type):
        return None
    if op.name in MATH_OPS and len(args) == 1:
        _dtype(op, op.operands[0].type)
        x = np.asarray(args[0])
        if x.dtype == sem.BF16:  # computed in f32, rounded once: as MLIR lowers it, and the
            # kernels (hsg-widen-bf16), the vector unit having no bf16 math
            return sem.convert(np.asarray(MATH_OPS[op.name](_ArrayBuilder(),
                                                            sem.convert(x, sem.F32))), sem.BF16)
        return np.asarray(MATH_OPS[op.name](_ArrayBuilder(), x))
    if op.name == FPOWI and (n := constant_index(op.operands[1])) is not None:
        _dtype(op, op.operands[0].type)  # as the kernels compute it (hswc.vectorizer.dag)
        return np.asarray(power(_ArrayBuilder(), args[0], n))
    return None


_NAMES = {dtype: name for name, dtype in sem.DTYPES.items()}


class _ArrayBuilder:
    """hswc.math_decompositions' Builder over numpy arrays: each operation as arith_semantics
    (the arith ops) or math_semantics (the vector unit's math instructions) computes it."""

    def dtype(self, a: np.ndarray) -> str:
        return _NAMES[a.dtype]

    def const(self, value: float, dtype: str) -> np.ndarray:
        return sem.constant(value, sem.DTYPES[dtype])

    def op(self, kind: str, *operands: np.ndarray) -> np.ndarray:
        if kind in math_semantics.MODELS:
            return math_semantics.MODELS[kind](operands[0])
        if kind == "negf":
            return sem.negf(operands[0])
        if kind == "select":
            return sem.select(*operands)
        return sem.binary(f"arith.{kind}", *operands).astype(operands[0].dtype)

    def cmpf(self, predicate: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return sem.cmpf(predicate, a, b)

    def convert(self, a: np.ndarray, dtype: str) -> np.ndarray:
        return sem.convert(a, sem.DTYPES[dtype])


Outer = Callable[[SSAValue], object]
"""The value of an SSA value defined outside the body (a scalar the body uses)."""


def _scalar(op: Operation, value: SSAValue, got: object) -> np.ndarray:
    """A value from outside the body: a scalar as a 0-d array of its type, a tensor (which
    tensor.extract reads) as its array."""
    if isinstance(value.type, TensorType) and isinstance(got, np.ndarray):
        return got
    if not isinstance(got, float | int | np.number | np.bool_) and not (
            isinstance(got, np.generic) and got.dtype == sem.BF16):
        raise OpError(op, f"uses a value from outside the body that is not a number: {got!r}")
    dtype = _dtype(op, value.type)
    if dtype.kind in "iub" and not isinstance(got, np.floating):
        return np.asarray(got).astype(dtype)
    return sem.convert(np.asarray(got), dtype)


def evaluate(block: Block, inputs: Sequence[np.ndarray], outer: Outer,
             at: Iteration | None = None) -> list[np.ndarray]:
    """Every value the body yields, computed over the inputs' arrays at once (each as its op
    computed it: broadcastable to the inputs' shape, not yet of the yielded type); values from
    outside the body come from `outer`, linalg.index from `at`."""
    values: dict[SSAValue, np.ndarray] = dict(zip(block.args, inputs, strict=False))
    last = block.last_op
    assert last is not None
    for op in block.ops:
        if op is last:
            break
        args = []
        for operand in op.operands:
            if operand not in values:
                values[operand] = _scalar(op, operand, outer(operand))
            args.append(values[operand])
        result = (_reduce(op, args[0], inputs, values) if isinstance(op, ReduceOp)
                  else _run(op, args, at))
        if op.results:
            values[op.results[0]] = result
    for operand in last.operands:
        if operand not in values:
            values[operand] = _scalar(last, operand, outer(operand))
    return [values[v] for v in last.operands]


def yielded_dtype(block: Block, index: int) -> np.dtype:
    """The element type of the body's `index`-th yielded value."""
    last = block.last_op
    assert last is not None
    return _dtype(last, last.operands[index].type)


def run_body(block: Block, inputs: Sequence[np.ndarray], outer: Outer) -> np.ndarray:
    """The body's result for every element of the inputs at once (module docstring); values
    from outside the body come from `outer`, as scalars of their type."""
    return run_body_values(block, inputs, outer)[0]


def run_body_values(block: Block, inputs: Sequence[np.ndarray], outer: Outer,
                    shapes: Sequence[tuple[int, ...]] | None = None) -> list[np.ndarray]:
    """Every value the body yields in its type, each broadcast to its shape in `shapes`
    (default: the inputs' broadcast shape). A row region's body (hswc.rows) takes its element
    inputs as rows x length arrays, its row inputs as rows x 1 and its column inputs as
    1 x length: hsg.reduce combines along the last axis in the kernel's order
    (hswc.reduction_order), and numpy broadcasts a row's value along its row."""
    last = block.last_op
    assert last is not None
    found = evaluate(block, inputs, outer)
    full = np.broadcast_shapes(*(np.shape(a) for a in inputs)) if inputs else ()
    wanted = shapes if shapes is not None else [full] * len(found)
    return [np.broadcast_to(value, shape).astype(_dtype(last, v.type), copy=True)
            for value, v, shape in zip(found, last.operands, wanted, strict=True)]


def _segment(op: ReduceOp) -> tuple[int | None, bool, bool, int | None]:
    """The segment the row kernel around `op` works its rows in (hswc.rows), if any, whether
    it sums online, whether it sums `op` compensated (hswc.dialects.hsg_rows), and the
    elements a row of a run-time length is padded to (its segments', or a whole row's most:
    hswc.reduction_order.padded, Rows.padded_to)."""
    parent = op.parent_op()
    rows = read_rows(parent) if parent is not None else None
    if rows is None:
        return None, False, False, None
    return rows.segment, rows.online, compensated(op, rows), rows.padded_to


def _lanes(op: ReduceOp) -> int:
    """The lanes of the row kernel around `op` (hswc.rows), 1 outside one."""
    parent = op.parent_op()
    rows = read_rows(parent) if parent is not None else None
    return 1 if rows is None else rows.lanes


def _padded_runs(op: ReduceOp) -> tuple[int, int] | None:
    """The runs of a row and the elements each takes padded (hswc.rows `padded_run`) of the
    row kernel around `op`; None where its runs are not padded."""
    parent = op.parent_op()
    rows = read_rows(parent) if parent is not None else None
    if rows is None or rows.padded_run is None:
        return None
    return rows.runs, rows.padded_run


def online_operands(op: ReduceOp) -> tuple[SSAValue, SSAValue] | None:
    """(a, b) of a sum of exp(b - m) where m is the maximum of a and b reads no reduction
    after it (hswc.reduction_order's online sum); None for any other reduction."""
    exp = op.value.owner
    if op.combiner.data != "addf" or not isinstance(exp, Operation) \
            or exp.name != "math.exp":
        return None
    sub = exp.operands[0].owner
    if not isinstance(sub, Operation) or sub.name != "arith.subf":
        return None
    peak = sub.operands[1].owner
    if not isinstance(peak, ReduceOp) or peak.combiner.data != "maximumf":
        return None
    block = peak.parent_block()
    assert block is not None
    position = {o: n for n, o in enumerate(block.ops)}
    seen: set[Operation] = set()
    stack = [sub.operands[0].owner]
    while stack:  # b reads no reduction after the maximum (as row_emit.online_sums)
        owner = stack.pop()
        if not isinstance(owner, Operation) or owner in seen or owner not in position:
            continue
        seen.add(owner)
        if isinstance(owner, ReduceOp) and position[owner] > position[peak]:
            return None
        if not isinstance(owner, ReduceOp):
            stack.extend(v.owner for v in owner.operands)
    return peak.value, sub.operands[0]


def _reduce(op: ReduceOp, value: np.ndarray, inputs: Sequence[np.ndarray],
            values: dict[SSAValue, np.ndarray]) -> np.ndarray:
    """hsg.reduce over the last axis (keeping it, of size 1), in f32, rounded once back to the
    value's type; in a row kernel summing online, softmax's sum as it sums it."""
    full = np.broadcast_shapes(*(np.shape(a) for a in inputs))
    wide = np.broadcast_to(value, full).astype(np.float32)
    if wide.shape[-1] == 0:
        raise OpError(op, "reduces a row of no elements")
    segment, online, exact, pad = _segment(op)
    pair = online_operands(op) if online else None
    lanes = _lanes(op)
    if lanes > 1:  # each lane apart over the runs (hswc.rows: Lanes), in segments of runs
        reduced = reduce_lanes(wide, op.combiner.data,
                               None if segment is None else segment // lanes)[..., None, :]
    elif segment is not None and pair is not None:
        a, b = (np.broadcast_to(values[v], full).astype(np.float32) for v in pair)
        reduced = online_sum(a, b, segment, pad is not None)[..., None]
    else:
        if pad is not None:
            wide = padded(wide, op.combiner.data, pad)
        runs = _padded_runs(op)
        if runs is not None:
            wide = padded_runs(wide, op.combiner.data, *runs)
        reduced = reduce_rows(wide, op.combiner.data, segment=segment,
                              compensated=exact)[..., None]
    return sem.convert(reduced, _dtype(op, op.result.type))
