"""The semantics of the gated linear units (hswc.dialects.hsg_gated_ops), written once, as the
linalg.generic ops they decompose into.

x's split dim k (2H elements) is viewed as two dims `2 x H` (a `tensor.expand_shape`, the same
row-major data); a generic over the result's shape (dim k of H) reads the first half through
the map that puts the constant 0 in the new dim, the second through the constant 1 (an
indexing map at a constant offset, hswc.broadcast's windows): `(d0, d1) -> (d0, 0, d1)` and
`(d0, d1) -> (d0, 1, d1)` for the last dim of a 2-d x. hsg-tile-on-cores launches it on x itself,
read in row runs of H elements (the last dim) or at a GM offset (a leading dim). Every step is
one f32 operation (an f16 or bf16 operand widened exactly, the result rounded once), the
activations' steps those of hswc.ops.exponential (sigmoid, silu, gelu) and
hswc.ops.exponential_grad (their derivatives). Where PyTorch 2.14 holds an intermediate
tensor in x's type (F.silu(a) before the product, the sigmoid glu_backward stores, the gradient
g * b autograd passes to silu_backward), the body rounds it to that type too (`stored`), so
f16 and bf16 results follow PyTorch's (glu_backward bit for bit), not an exact value it does not
compute:

    glu(x)            a * sigmoid(b)
    swi_glu(x)        [silu(a)] * b
    ge_glu(x)         [gelu(a)] * b          (activate_left; else a * [gelu(b)])
    glu_grad(g, x)    [s * g, (1 - s) * s * g * a],  s = [sigmoid(b)]
    swi_glu_grad      [silu_backward([g * b], a), g * [silu(a)]]
    ge_glu_grad       [gelu_backward([g * b], a), g * [gelu(a)]]  (activate_left; else
                      [g * [gelu(b)], gelu_backward([g * a], b)])

([v]: v rounded to x's type.)

A gradient's two halves are two generics, inserted into x's shape by `tensor.insert_slice`;
hsg-fuse-elementwise makes them one kernel of two outputs and hsg-tile-on-cores one output, dx,
which the kernel writes at each half's window (hswc.passes.joint_outputs; halves whose rows
are not whole 32-byte blocks stay two outputs the host's inserts join).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint

from hswc.diagnostics import OpError
from hswc.dialects import hsg_gated_ops as ops
from hswc.ops.body import BodyBuilder
from hswc.ops.exponential import gelu, sigmoid_of, silu
from hswc.ops.exponential_grad import gelu_grad, silu_grad

Body = Callable[[BodyBuilder, Sequence[SSAValue]], SSAValue]
"""A half's body from its f32 arguments: a, b (and the gradient g first, for the gradients)."""


class Decomposer:
    """Inserts the view and the generics of one op before it. The split dim k of 2H elements is
    viewed as `2 x H` (the halves), or as `H x 2` when `interleaved` (the even and odd
    elements: ops-nn's ClippedSwiglu)."""

    def __init__(self, op: ops.GatedOp, interleaved: bool = False):
        self.op = op
        self.b = Builder(InsertPoint.before(op))
        x = op.x_type
        if not x.has_static_shape():
            raise OpError(op, f"has the dynamic type {x}; its decomposition needs static shapes")
        self.k = op.split_dim()
        self.shape = tuple(x.get_shape())
        self.half = ops.half_type(x, self.k)
        self.rank = len(self.shape)
        self.options: dict[str, str | bool] = {"approximate": op.approximation()}
        self.interleaved = interleaved
        self.view = self._view(op.inputs[op.X_INDEX])

    def _view(self, x: SSAValue) -> SSAValue:
        h = self.shape[self.k] // 2
        pair = [h, 2] if self.interleaved else [2, h]
        shape = [*self.shape[:self.k], *pair, *self.shape[self.k + 1:]]
        t = TensorType(self.op.x_type.get_element_type(), shape)
        view = self.b.insert(tensor.ExpandShapeOp(x, [], self._pair_groups(), shape, t)).result
        view.name_hint = "halves"
        return view

    def _pair_groups(self) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
        """The reassociation between x and its view: the split dim k is view dims k and k + 1."""
        groups = [[d] if d < self.k else [d + 1] for d in range(self.rank)]
        groups[self.k] = [self.k, self.k + 1]
        return ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups])

    def half_map(self, part: int) -> AffineMap:
        """The map reading half `part` (0: a, 1: b) of the view over the result's dims."""
        dims = [AffineDimExpr(d) for d in range(self.rank)]
        at = self.k + 1 if self.interleaved else self.k
        return AffineMap(self.rank, 0, (*dims[:at], AffineConstantExpr(part), *dims[at:]))

    def generic(self, body: Body, grad: SSAValue | None, name: str,
                scalars: Sequence[SSAValue] = (),
                halves: Sequence[tuple[str, SSAValue]] = (),
                element: Attribute | None = None) -> SSAValue:
        """A tensor of the result's half shape: `body` of (g,) a, b, the element of each of
        `halves` (named tensors of the half shape: GeGluGradV2's gelu) and the one element of
        each of `scalars` at each element, in f32, rounded once to x's type (or `element`:
        f32 for SwigluGroupQuant's value before its quantization)."""
        identity = AffineMap.identity(self.rank)
        inputs = [self.view, self.view, *(v for _, v in halves), *scalars]
        maps = [self.half_map(0), self.half_map(1), *[identity] * len(halves),
                *[AffineMap(self.rank, 0, (AffineConstantExpr(0),))] * len(scalars)]
        if grad is not None:
            inputs.insert(0, grad)
            maps.insert(0, identity)
        x_element = self.half.get_element_type()
        element = element or x_element
        out_type = TensorType(element, self.half.get_shape())
        block = Block(arg_types=[*[x_element] * len(inputs), element])
        scalar_names = list(self.op.INPUTS[len(self.op.INPUTS) - len(scalars):]) if scalars \
            else []
        names = (["grad"] if grad is not None else []) + ["a", "b"] + [n for n, _ in halves] \
            + scalar_names + ["y"]
        for arg, n in zip(block.args, names, strict=True):
            arg.name_hint = n
        bb = BodyBuilder(block, options=self.options)
        wide = [bb.widen(arg, f"{n}_fp32") for arg, n in zip(block.args[:-1], names,
                                                               strict=False)]
        value = body(bb, wide)
        bb.builder.insert(YieldOp(bb.narrow(value, element)))
        init = self.b.insert(tensor.EmptyOp([], out_type)).results[0]
        generic = GenericOp(inputs, [init], Region(block),
                            [AffineMapAttr(m) for m in (*maps, AffineMap.identity(self.rank))],
                            [IteratorTypeAttr.parallel()] * self.rank, [out_type])
        self.b.insert(generic)
        generic.res[0].name_hint = name
        return generic.res[0]

    def halves(self, first: SSAValue, second: SSAValue) -> SSAValue:
        """x's shape holding `first` then `second` along the split dim (where x holds a and
        b: when `interleaved`, the even and odd elements, inserted into the `H x 2` view at
        pair index 0 and 1 and that view collapsed)."""
        view = self.view.type
        assert isinstance(view, TensorType)
        target = view if self.interleaved else self.op.x_type
        out: SSAValue = self.b.insert(tensor.EmptyOp([], target)).results[0]
        h = self.shape[self.k] // 2
        for part, value in enumerate((first, second)):
            if self.interleaved:
                offsets = [0] * (self.rank + 1)
                offsets[self.k + 1] = part
                sizes = [*self.shape[:self.k], h, 1, *self.shape[self.k + 1:]]
            else:
                offsets = [0] * self.rank
                offsets[self.k] = part * h
                sizes = list(self.half.get_shape())
            insert = tensor.InsertSliceOp.from_static_parameters(
                value, out, offsets, sizes, [1] * len(sizes))
            out = self.b.insert(insert).results[0]
        if self.interleaved:
            collapse = tensor.CollapseShapeOp(operands=[out], result_types=[self.op.x_type],
                                              properties={"reassociation": self._pair_groups()})
            out = self.b.insert(collapse).results[0]
        out.name_hint = "dx"
        return out


def _attrs() -> dict[str, SSAValue]:
    return {}


def stored(d: Decomposer, bb: BodyBuilder, v: SSAValue, name: str) -> SSAValue:
    """`v` as PyTorch holds it between two of its kernels: rounded to the element type (an
    f16 or bf16 tensor), then widened again; an f32 value as it is."""
    element = d.half.get_element_type()
    if element == bb.compute_type:
        return v
    return bb.widen(bb.narrow(v, element, f"{name}_rounded"), f"{name}_stored")


def _silu(bb: BodyBuilder, v: SSAValue) -> SSAValue:
    return silu(bb, [v], _attrs())


def _gelu(bb: BodyBuilder, v: SSAValue) -> SSAValue:
    return gelu(bb, [v], _attrs())


def _glu(d: Decomposer) -> SSAValue:
    """ATen's glu kernel: a * sigmoid(b) in f32, rounded once."""
    return d.generic(lambda bb, a: bb.mulf(a[0], sigmoid_of(bb, a[1]), "glu"), None, "y")


def _swi_glu(d: Decomposer) -> SSAValue:
    """silu(a), a tensor of its own in PyTorch (rounded), times b."""
    return d.generic(lambda bb, a: bb.mulf(stored(d, bb, _silu(bb, a[0]), "silu"), a[1],
                                           "swi_glu"), None, "y")


def ge_glu_body(d: Decomposer) -> SSAValue:
    """gelu of one half, a tensor of its own in PyTorch (rounded), times the other."""
    gated, other = (0, 1) if d.op.left() else (1, 0)
    return d.generic(lambda bb, a: bb.mulf(stored(d, bb, _gelu(bb, a[gated]), "gelu"),
                                           a[other], "ge_glu"), None, "y")


def _glu_grad(d: Decomposer) -> SSAValue:
    """ATen's glu_backward: s = sigmoid(b) stored in x's type (the first half's buffer), da =
    s * g, db = (1 - s) * s * g * a, each in f32 rounded once."""
    g = d.op.inputs[0]

    def sig(bb: BodyBuilder, b: SSAValue) -> SSAValue:
        return stored(d, bb, sigmoid_of(bb, b), "sigmoid")

    def da(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.mulf(sig(bb, a[2]), a[0], "da")

    def db(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        s = sig(bb, a[2])
        ds = bb.mulf(bb.subf(bb.const(1.0, "one"), s, "one_minus_s"), s, "sigmoid_grad")
        return bb.mulf(bb.mulf(ds, a[0], "grad_s"), a[1], "db")

    return d.halves(d.generic(da, g, "da"), d.generic(db, g, "db"))


def _swi_glu_grad(d: Decomposer) -> SSAValue:
    """Autograd of silu(a) * b: da = silu_backward(g * b, a), db = g * silu(a), the product
    and silu(a) stored in x's type."""
    g = d.op.inputs[0]

    def da(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        grad_b = stored(d, bb, bb.mulf(a[0], a[2], "grad_b"), "grad_b")
        return silu_grad(bb, [grad_b, a[1]], _attrs())

    def db(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.mulf(a[0], stored(d, bb, _silu(bb, a[1]), "silu"), "db")

    return d.halves(d.generic(da, g, "da"), d.generic(db, g, "db"))


def _ge_glu_grad(d: Decomposer) -> SSAValue:
    """Autograd of gelu(a) * b (or a * gelu(b)): the GeLU's argument gets gelu_backward(g *
    other, it), the other half g * gelu(it), the product and the GeLU stored in x's type."""
    g = d.op.inputs[0]
    gated, other = (1, 2) if d.op.left() else (2, 1)  # argument of the GeLU, of the factor

    def through(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        grad_other = stored(d, bb, bb.mulf(a[0], a[other], "grad_other"), "grad_other")
        return gelu_grad(bb, [grad_other, a[gated]], _attrs())

    def plain(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.mulf(a[0], stored(d, bb, _gelu(bb, a[gated]), "gelu"), "grad_gelu")

    first, second = (through, plain) if d.op.left() else (plain, through)
    return d.halves(d.generic(first, g, "da"), d.generic(second, g, "db"))


DECOMPOSITIONS: dict[type[ops.GatedOp], Callable[[Decomposer], SSAValue]] = {
    ops.GluOp: _glu,
    ops.SwiGluOp: _swi_glu,
    ops.GeGluOp: ge_glu_body,
    ops.GluGradOp: _glu_grad,
    ops.SwiGluGradOp: _swi_glu_grad,
    ops.GeGluGradOp: _ge_glu_grad,
}


def decompose_gated(op: ops.GatedOp) -> SSAValue:
    """Insert the generics of `op` before it; the result (of op's type)."""
    return DECOMPOSITIONS[type(op)](Decomposer(op))

