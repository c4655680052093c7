"""The semantics of the operators that reduce along a dim (hswc.dialects.hsg_norm_ops), written
once, as the linalg.generic ops they decompose into.

Each computes in f32 (an f16 or bf16 operand widened exactly, the result rounded once to its
type), as PyTorch's CPU kernels compute these ops on half types and torch-mlir exports them
(test/fixtures/torch_models/reductions: the softmax's `extf` to f32, the `truncf` at the end).
A reduction is a generic with a `reduction` iterator on the reduced dim, into an f32 tensor of
the other dims (`linalg.fill` of its start value: -inf for a maximum, 0 for a sum), summed in
MLIR's loop order; what follows reads it through the projection that drops the reduced dim (a
broadcast). The generics carry no `hsg.op_name`: each is a region of its own, which the
partition makes a kernel or leaves on the host (its reductions, until row kernels) like any
exporter's generic; those of an op taking `dim` carry it as `hsg.op_dim` (normalised), which
the launch of their row kernel keeps for its package's `dim` attribute. Where a value over the
row is needed twice (exp(x - max) in the sum and in the quotient) each generic computes it
again from the inputs, so no full-size intermediate tensor exists: the two computations are
the same ops on the same values, so the same bits.

    softmax(x)              y = exp(x - m) / s,  m = max(x), s = sum(exp(x - m))
    log_softmax(x)          y = (x - m) - log(s)
    softmax_grad(g, y)      y * (g - sum(g * y))
    log_softmax_grad(g, y)  g - exp(y) * sum(g)
    rms_norm(x, w)          x * rsqrt(sum(x * x) / n + eps) * w
    layer_norm(x, w, b)     t * w + b,  t = (x - mu) * rsqrt(sum((x - mu)^2) / n + eps) in f32,
                            mu = sum(x) / n
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint

from hswc.dialects import hsg_norm_ops as ops
from hswc.dialects.hsg import OP_ATTRIBUTE_ATTR, OP_DIM_ATTR, CapturedAttribute
from hswc.dialects.linalg import FillOp
from hswc.ops.body import BodyBuilder

F32 = Float32Type()

Body = Callable[[BodyBuilder, Sequence[SSAValue]], SSAValue]
"""Builds a generic's body from its arguments (the inputs' elements, then the output's)."""


class _Decomposer:
    """Inserts the generics of one op before it."""

    def __init__(self, op: ops.NormOp):
        self.op = op
        self.b = Builder(InsertPoint.before(op))
        t = op.x_type
        self.shape = tuple(t.get_shape())
        self.element = t.get_element_type()
        self.rank = len(self.shape)
        self.k = op.reduced_dim()
        self.n = self.shape[self.k]
        self.sizes = {d: self._dim(d) for d, s in enumerate(self.shape) if s < 0}
        """x's run-time size of each dynamic dim (tensor.dim), for the tensors built."""
        self._length: SSAValue | None = None
        self.full = AffineMap.identity(self.rank)
        self.row = AffineMap(self.rank, 0, tuple(AffineDimExpr(d) for d in range(self.rank)
                                                 if d != self.k))
        self.column = AffineMap(self.rank, 0, (AffineDimExpr(self.rank - 1),))
        self.reduced = TensorType(F32, [s for d, s in enumerate(self.shape) if d != self.k])
        self.inputs = list(op.inputs)
        """The operands the generics read (x cast to the row length a weight gives: join)."""
        self.x_type = op.x_type
        self._checked = False
        self.join()

    def _dim(self, d: int) -> SSAValue:
        index = self.b.insert(ConstantOp(IntegerAttr(d, IndexType()))).result
        size = self.b.insert(tensor.DimOp(self.op.inputs[0], index)).result
        size.name_hint = f"dim{d}"
        return size

    def length(self, bb: BodyBuilder) -> SSAValue:
        """The row length n as an f32 in a body: a constant where it is static, else x's
        run-time size of the reduced dim converted once before the op (exact: n < 2^24), which
        the bodies capture (a row kernel takes it as a host scalar)."""
        if self.n >= 0:
            return bb.const(float(self.n))
        if self._length is None:
            size = self.b.insert(arith.IndexCastOp(self.sizes[self.k], i64)).result
            self._length = self.b.insert(arith.SIToFPOp(size, F32)).result
            self._length.name_hint = "row_length_f32"  # tiling field rowLengthF32
        return self._length

    def join(self) -> None:
        """Of a run-time row length and a weight or bias of a static length N: the weights
        checked against the length at run time (check_weights: one error naming the op and
        the operand), then x cast to its shape with N as the reduced dim, which the generics
        read, so the row length is static (its row kernel has whole rows of N a chunk, not a
        padded segment a row; decompose_norm casts the result back to the op's type)."""
        static = [t.get_shape()[0] for t in (v.type for v in self.op.inputs[1:])
                  if isinstance(t, TensorType) and t.get_num_dims() == 1
                  and t.get_shape()[0] >= 0]
        if self.n >= 0 or not static:
            return
        self.check_weights()
        self.n = static[0]
        self.shape = tuple(self.n if d == self.k else s for d, s in enumerate(self.shape))
        del self.sizes[self.k]
        self.x_type = TensorType(self.element, self.shape)
        self.inputs[0] = self.b.insert(tensor.CastOp(self.op.inputs[0], self.x_type)).dest
        self.inputs[0].name_hint = self.op.inputs[0].name_hint  # x still, to a package
        self.reduced = TensorType(F32, [s for d, s in enumerate(self.shape) if d != self.k])

    def check_weights(self) -> None:
        """Host code asserting each rank-1 operand (a weight or bias) holds the run-time row
        length's elements; the verifier checks them where both sizes are static (once: join
        may have)."""
        if self._checked:
            return
        self._checked = True
        index: SSAValue | None = None  # made where a check needs it (none: static sizes)
        for name, value in zip(self.op.INPUTS[1:], self.op.inputs[1:], strict=True):
            t = value.type
            assert isinstance(t, TensorType)
            if t.get_num_dims() != 1 or (self.n >= 0 and t.get_shape()[0] >= 0):
                continue
            if index is None:
                index = self.b.insert(ConstantOp(IntegerAttr(0, IndexType()))).result
            row = self.sizes[self.k] if self.n < 0 else self.b.insert(
                ConstantOp(IntegerAttr(self.n, IndexType()))).result
            size = self.b.insert(tensor.DimOp(value, index)).result
            same = self.b.insert(arith.CmpiOp(size, row, "eq")).result
            self.b.insert(cf.AssertOp(same, f"{self.op.name}: {name}'s length is not the row "
                                      f"length (x's dim {self.k})"))

    def epsilon(self) -> SSAValue:
        """The op's epsilon as an f32 constant before it, which the bodies capture: marked as
        the op's attribute, so a row kernel takes it at run time (a package attribute)."""
        constant = ConstantOp(FloatAttr(self.op.epsilon_value(), F32))
        assert self.op.EPSILON is not None
        constant.attributes[OP_ATTRIBUTE_ATTR] = CapturedAttribute(
            self.op.EPSILON, "added to the row's mean square (rms_norm) or variance "
            "(layer_norm) before its reciprocal square root, for numerical stability",
            non_negative=True).to_attr()
        constant.result.name_hint = "epsilon"
        return self.b.insert(constant).result

    def empty(self, t: TensorType) -> SSAValue:
        """A tensor.empty of `t`, a tensor of x's dims (all, or all but the reduced one)."""
        dims = [d for d in range(self.rank) if t.get_num_dims() == self.rank or d != self.k]
        sizes = [self.sizes[d] for d in dims if d in self.sizes]
        return self.b.insert(tensor.EmptyOp(sizes, t)).results[0]

    def _generic(self, inputs: Sequence[SSAValue], maps: Sequence[AffineMap], init: SSAValue,
                 out_map: AffineMap, reduce: bool, body: Body, name: str) -> SSAValue:
        out_type = init.type
        assert isinstance(out_type, TensorType)
        block = Block(arg_types=[*(v.type.get_element_type() for v in inputs),  # type: ignore
                                 out_type.get_element_type()])
        builder = BodyBuilder(block)
        value = body(builder, block.args)
        builder.builder.insert(YieldOp(builder.narrow(value, out_type.get_element_type())))
        iterators = [IteratorTypeAttr.reduction() if reduce and d == self.k
                     else IteratorTypeAttr.parallel() for d in range(self.rank)]
        generic = GenericOp(list(inputs), [init], Region(block),
                            [AffineMapAttr(m) for m in (*maps, out_map)], iterators, [out_type])
        if self.op.EPSILON is None:  # an op taking `dim`: its package's attribute
            generic.attributes[OP_DIM_ATTR] = IntegerAttr(self.k, i64)
        self.b.insert(generic)
        generic.res[0].name_hint = name
        return generic.res[0]

    def reduce(self, inputs: Sequence[SSAValue], maps: Sequence[AffineMap], start: float,
               combine: str, term: Body, name: str) -> SSAValue:
        """The f32 tensor of the other dims: `term` of each element combined (`addf` or
        `maximumf`) into `start` along the reduced dim."""
        empty = self.empty(self.reduced)
        value = self.b.insert(ConstantOp(FloatAttr(start, F32))).result
        init = self.b.insert(FillOp((value,), (empty,), (self.reduced,))).results[0]

        def body(bb: BodyBuilder, args: Sequence[SSAValue]) -> SSAValue:
            t = term(bb, args[:-1])
            return bb.addf(t, args[-1]) if combine == "addf" else bb.maximumf(t, args[-1])

        return self._generic(inputs, maps, init, self.row, True, body, name)

    def elementwise(self, inputs: Sequence[SSAValue], maps: Sequence[AffineMap],
                    body: Body, element: Attribute | None = None) -> SSAValue:
        """A tensor of x's shape and type (or `element`): `body` at each element, rounded once
        to its element type."""
        t = self.x_type if element is None else TensorType(element, self.shape)
        init = self.empty(t)
        return self._generic(inputs, maps, init, self.full, False, body,
                             "result" if element is None else "normalised")


def _w(bb: BodyBuilder, v: SSAValue) -> SSAValue:
    return bb.widen(v)


def _softmax(d: _Decomposer, log: bool) -> SSAValue:
    x = d.inputs[0]
    m = d.reduce([x], [d.full], float("-inf"), "maximumf", lambda bb, a: _w(bb, a[0]), "max")

    def shifted(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.subf(_w(bb, a[0]), a[1])

    s = d.reduce([x, m], [d.full, d.row], 0.0, "addf",
                 lambda bb, a: bb.math("exp", shifted(bb, a)), "sum")
    if log:
        return d.elementwise([x, m, s], [d.full, d.row, d.row],
                             lambda bb, a: bb.subf(shifted(bb, a), bb.math("log", a[2])))
    return d.elementwise([x, m, s], [d.full, d.row, d.row],
                         lambda bb, a: bb.divf(bb.math("exp", shifted(bb, a)), a[2]))


def _softmax_grad(d: _Decomposer) -> SSAValue:
    g, y = d.inputs
    s = d.reduce([g, y], [d.full, d.full], 0.0, "addf",
                 lambda bb, a: bb.mulf(_w(bb, a[0]), _w(bb, a[1])), "sum")
    return d.elementwise([g, y, s], [d.full, d.full, d.row],
                         lambda bb, a: bb.mulf(_w(bb, a[1]), bb.subf(_w(bb, a[0]), a[2])))


def _log_softmax_grad(d: _Decomposer) -> SSAValue:
    g, y = d.inputs
    s = d.reduce([g], [d.full], 0.0, "addf", lambda bb, a: _w(bb, a[0]), "sum")
    return d.elementwise([g, y, s], [d.full, d.full, d.row], lambda bb, a: bb.subf(
        _w(bb, a[0]), bb.mulf(bb.math("exp", _w(bb, a[1])), a[2])))


def _rms_norm(d: _Decomposer) -> SSAValue:
    x, w = d.inputs
    d.check_weights()
    eps = d.epsilon()
    ss = d.reduce([x], [d.full], 0.0, "addf",
                  lambda bb, a: bb.mulf(_w(bb, a[0]), _w(bb, a[0])), "sum_of_squares")

    def body(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        mean = bb.divf(a[2], d.length(bb))
        scale = bb.math("rsqrt", bb.addf(mean, eps))
        return bb.mulf(bb.mulf(_w(bb, a[0]), scale), _w(bb, a[1]))

    return d.elementwise([x, w, ss], [d.full, d.column, d.row], body)


def _layer_norm(d: _Decomposer) -> SSAValue:
    x, w, bias = d.inputs
    d.check_weights()
    eps = d.epsilon()
    total = d.reduce([x], [d.full], 0.0, "addf", lambda bb, a: _w(bb, a[0]), "sum")

    def centred(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.subf(_w(bb, a[0]), bb.divf(a[1], d.length(bb)))

    squares = d.reduce([x, total], [d.full, d.row], 0.0, "addf",
                       lambda bb, a: bb.mulf(centred(bb, a), centred(bb, a)), "squares")

    def normed(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        var = bb.divf(a[2], d.length(bb))
        return bb.mulf(centred(bb, a), bb.math("rsqrt", bb.addf(var, eps)))

    # Two generics, not one of five inputs (a kernel reads at most four): the normalised value
    # in f32, then the affine map, rounded once.
    t = d.elementwise([x, total, squares], [d.full, d.row, d.row], normed, F32)
    return d.elementwise([t, w, bias], [d.full, d.column, d.column], lambda bb, a: bb.addf(
        bb.mulf(a[0], _w(bb, a[1])), _w(bb, a[2])))


DECOMPOSITIONS: dict[type[ops.NormOp], Callable[[_Decomposer], SSAValue]] = {
    ops.SoftmaxOp: lambda d: _softmax(d, log=False),
    ops.LogSoftmaxOp: lambda d: _softmax(d, log=True),
    ops.SoftmaxGradOp: _softmax_grad,
    ops.LogSoftmaxGradOp: _log_softmax_grad,
    ops.RmsNormOp: _rms_norm,
    ops.LayerNormOp: _layer_norm,
}


def decompose_norm(op: ops.NormOp) -> SSAValue:
    """Insert the generics of `op` before it; the result (of op's type)."""
    d = _Decomposer(op)
    result = DECOMPOSITIONS[type(op)](d)
    if result.type == op.x_type:
        return result
    return d.b.insert(tensor.CastOp(result, op.x_type)).dest  # joined (_Decomposer.join)
