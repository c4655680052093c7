"""The semantics of hsg.swiglu_group_quant_grad (hswc.dialects.hsg_group_quant_grad), written
once, as the linalg.generic ops it decomposes into (x's halves a, b through hswc.ops.gated_ops'
view; w the row's weight through the map dropping the last dim; every step in f32):

    da  generic [..., H] -> x's type: (g' * b') * ds, times the mask a < L (with clamp_limit L)
    db  generic [..., H] -> x's type: g' * (a' * s), times the mask -L < b < L
    dx  da and db inserted into x's shape (tensor.insert_slice: hsg-fuse-elementwise makes the
        two one kernel of one output, hswc.ops.gated_ops)
    grad_weight  reduction over the last dim -> f32 [...]: the sum of g * y_origin, from 0

with g' = g * w (g without weight), a' = min(a, L), b' = min(max(b, -L), L), e = exp(a'),
s = e / (e + 1), ds = s * ((1 - s) * a' + 1) (op_kernel/swiglu_group_quant_grad.h:283-385: Exp,
Adds 1, Div, Mul; Subs from 1, Mul, Adds 1, Mul; the masks CompareScalar, Select of 1 or 0,
Mul). grad_weight's sum is the kernel's ReduceSum of the products (its order of additions is the
lowering's; the checker compares it within tolerance).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AffineMapAttr, Float32Type, FloatAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from hswc.dialects.hsg_group_quant_grad import SwigluGroupQuantGradOp
from hswc.dialects.linalg import FillOp
from hswc.ops.body import BodyBuilder
from hswc.ops.gated_ops import Decomposer

F32 = Float32Type()
Body = Callable[[BodyBuilder, Sequence[SSAValue]], SSAValue]


def _element(v: SSAValue) -> Attribute:
    t = v.type
    assert isinstance(t, TensorType)
    return t.get_element_type()


def _generic(d: Decomposer, inputs: Sequence[tuple[str, SSAValue, AffineMap]], out: TensorType,
             init: SSAValue, out_map: AffineMap, reduce: bool, body: Body,
             name: str) -> SSAValue:
    """A generic over the half shape's dims reading `inputs` (named, each through its map),
    its body of their f32 values (and, reducing, the accumulator's last)."""
    element = out.get_element_type()
    block = Block(arg_types=[*(_element(v) for _, v, _ in inputs), element])
    for arg, n in zip(block.args, [*(n for n, _, _ in inputs), "acc"], strict=True):
        arg.name_hint = n
    bb = BodyBuilder(block)
    args = [bb.widen(a, f"{n}_fp32") for a, (n, _, _) in zip(block.args, inputs, strict=False)]
    if reduce:
        args.append(block.args[-1])
    bb.builder.insert(YieldOp(bb.narrow(body(bb, args), element)))
    rank = d.rank
    iterators = [IteratorTypeAttr.reduction() if reduce and i == rank - 1
                 else IteratorTypeAttr.parallel() for i in range(rank)]
    generic = GenericOp([v for _, v, _ in inputs], [init], Region(block),
                        [AffineMapAttr(m) for m in (*(m for _, _, m in inputs), out_map)],
                        iterators, [out])
    d.b.insert(generic)
    generic.res[0].name_hint = name
    return generic.res[0]


def decompose_group_quant_grad(op: SwigluGroupQuantGradOp) -> tuple[SSAValue, ...]:
    """Insert the generics of `op` before it (module docstring); dx (and grad_weight)."""
    d = Decomposer(op)
    limit = float(op.value("clamp_limit")) if op.clamped() else None
    identity = AffineMap.identity(d.rank)
    per_row = AffineMap(d.rank, 0, tuple(AffineDimExpr(i) for i in range(d.rank - 1)))
    grad_y = op.inputs[0]
    inputs = [("grad", grad_y, identity), ("a", d.view, d.half_map(0)),
              ("b", d.view, d.half_map(1))]
    if op.weighted():
        inputs.append(("weight", op.inputs[2], per_row))

    def common(bb: BodyBuilder, v: Sequence[SSAValue]) -> tuple[SSAValue, ...]:
        """g', a', b', s (the kernel's steps before da and db)."""
        g = bb.mulf(v[0], v[3], "grad_weighted") if op.weighted() else v[0]
        a, b = v[1], v[2]
        if limit is not None:
            a = bb.minimumf(a, bb.const(limit, "limit"), "a_clamped")
            low = bb.maximumf(b, bb.const(-limit, "minus_limit"), "b_low")
            b = bb.minimumf(low, bb.const(limit, "limit"), "b_clamped")
        e = bb.math("exp", a, "exp_a")
        s = bb.divf(e, bb.addf(e, bb.const(1.0, "one"), "exp_plus_one"), "sigmoid")
        return g, a, b, s

    def mask(bb: BodyBuilder, keep: SSAValue, v: SSAValue, name: str) -> SSAValue:
        one_or_zero = bb.select(keep, bb.const(1.0, "one"), bb.const(0.0, "zero"),
                                f"{name}_mask")
        return bb.mulf(v, one_or_zero, name)

    def d_a(bb: BodyBuilder, v: Sequence[SSAValue]) -> SSAValue:
        g, a, b, s = common(bb, v)
        one_minus_s = bb.subf(bb.const(1.0, "one"), s, "one_minus_s")
        term = bb.addf(bb.mulf(one_minus_s, a, "one_minus_s_a"), bb.const(1.0, "one"),
                       "silu_term")
        ds = bb.mulf(s, term, "silu_grad")
        da = bb.mulf(bb.mulf(g, b, "grad_b"), ds, "da_all")
        if limit is None:
            return da
        return mask(bb, bb.cmpf("olt", v[1], bb.const(limit, "limit"), "a_in"), da, "da")

    def d_b(bb: BodyBuilder, v: Sequence[SSAValue]) -> SSAValue:
        g, a, _, s = common(bb, v)
        db = bb.mulf(g, bb.mulf(a, s, "silu"), "db_all")
        if limit is None:
            return db
        above = bb.cmpf("ogt", v[2], bb.const(-limit, "minus_limit"), "b_above")
        below = bb.cmpf("olt", v[2], bb.const(limit, "limit"), "b_below")
        return mask(bb, bb.andi(above, below, "b_in"), db, "db")

    half = d.half
    halves = []
    for body, name in ((d_a, "da"), (d_b, "db")):
        init = d.b.insert(tensor.EmptyOp([], half)).results[0]
        halves.append(_generic(d, inputs, half, init, identity, False, body, name))
    dx = d.halves(halves[0], halves[1])
    if not op.weighted():
        return (dx,)
    rows = TensorType(F32, list(half.get_shape()[:-1]))
    start = d.b.insert(ConstantOp(FloatAttr(0.0, F32))).result
    empty = d.b.insert(tensor.EmptyOp([], rows)).results[0]
    init = d.b.insert(FillOp((start,), (empty,), (rows,))).results[0]

    def product_sum(bb: BodyBuilder, v: Sequence[SSAValue]) -> SSAValue:
        return bb.addf(v[2], bb.mulf(v[0], v[1], "grad_y_origin"), "grad_weight_sum")

    grad_weight = _generic(d, [("grad", grad_y, identity), ("y_origin", op.inputs[3], identity)],
                           rows, init, per_row, True, product_sum, "grad_weight")
    return dx, grad_weight
