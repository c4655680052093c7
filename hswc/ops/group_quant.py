"""The semantics of hsg.swiglu_group_quant (hswc.dialects.hsg_group_quant), written once, as the
linalg.generic ops it decomposes into. With s the f32 SwiGLU of x's halves, [..., H], viewed
as [..., K, B] (blocks of B = 128 elements of the last dim, K = H / B):

    s       generic [..., H] -> f32: hsg.swiglu_group's f32 value + 0.0 (the kernel's
            `Add(x, x, zero)`), x's halves through hswc.ops.gated_ops' view
    amax    reduction over each block -> f32 [..., K]: maximumf of |s| where s * 0 == s * 0
            (finite), else 0, from 0
    y_scale generic [..., K]: max(amax, 1e-4) * (1 / M)   (1 / M the f32 the kernel holds)
    inv     generic [..., K]: M / max(amax, 1e-4)
    y       generic [..., K, B] -> f8: truncf(v where v * 0 == v * 0, else s), v = s * inv
            (the block's inv through the map that drops the block dim), collapsed to [..., H]

M is y's largest finite value (448 for f8E4M3FN, 57344 for f8E5M2). op_kernel/arch35/
swiglu_group_quant_base.h:556-620 makes the same f32 steps: Muls 0, Compare NE, MaskNot, Abs
under the mask (zeroing), ReduceMax, Max of the two halves' maxima, Maxs 1e-4, Mul by the
constant, Div for inv, Mul, the NaN test and Select, then the Cast to fp8 (CAST_RINT, NO_SAT:
as `arith.truncf`, hswc.float8_casts). The block's maximum is exact in any order.

With round_scale (always in quant_mode 1, MX) the scale is rounded up to a power of 2
(`ceil_pow2`: float operations, exact) and inv is its reciprocal, 1 / 2^e; quant_mode 1 reads
blocks of 32, takes |s| whatever it is (no finite test) and casts s * inv without the NaN
fallback (swiglu_group_quant_base.h:835-1045), and its y_scale is that power of 2 as
f8E8M0FNU (`arith.truncf`, exact) in pairs, [..., K / 2, 2]. The conversion to E8M0 stays on
the host (hswc's Cast tables have none to it); the rest is a kernel's. Assumed, not traced: a
block with an inf or NaN in quant_mode 1 (the kernel's bit arithmetic on a non-finite scale
gives code 0xff and inv -inf; here NaN and NaN).

Refused at the op: FP4 (no conversion to it in hswc's bodies yet) and the HiFloat8 modes (no
MLIR type, no conversion yet).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import func, tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import Rewriter

from hswc.diagnostics import OpError
from hswc.dialects.hsg_group_quant import BLOCK_SIZES, DST_NAMES, E8M0, SwigluGroupQuantOp
from hswc.dialects.linalg import FillOp
from hswc.ops.body import BodyBuilder, f32_from_bits
from hswc.ops.gated_ops import Decomposer
from hswc.ops.gated_variants import swiglu_group_value

F32 = Float32Type()
BodyFn = Callable[[BodyBuilder, Sequence[SSAValue]], SSAValue]
FP8_MAX = {Float8E4M3FNType: 448.0, Float8E5M2Type: 57344.0}
"""y's largest finite value by its element type (the kernel's fp8Max)."""
INV_FP8_MAX_BITS = {Float8E4M3FNType: 0x3B124925, Float8E5M2Type: 0x37924925}
"""The f32 the kernel multiplies the block maximum by for the scale (its maxValueInt: 1 / M
rounded to f32)."""
AMAX_FLOOR = 1e-4
"""The block maximum's lower bound (the kernel's `Maxs(clampScale, scale, 0.0001f)`)."""


def _refusal(op: SwigluGroupQuantOp) -> str | None:
    """Why hswc cannot decompose this configuration yet (None: it can)."""
    mode, dst = op.mode(), int(op.value("dst_type"))
    if mode in (2, 3):
        return (f"quant_mode {mode} writes HiFloat8, which has no MLIR type and no "
                "conversion in hswc's bodies yet")
    if dst == 40:
        return f"dst_type {dst} ({DST_NAMES[dst]}): hswc has no conversion to FP4 yet"
    return None


def ceil_pow2(bb: BodyBuilder, v: SSAValue) -> SSAValue:
    """2^ceil(log2 v), exactly, for an f32 v in [2^-30, 2^121] (every scale here: amax >= 1e-4,
    M <= 57344; amax <= the largest f32, M >= 448), from f32 operations a vector unit has:
    Veltkamp's split (c = w * (2^23 + 1), c - (c - w), round to nearest) rounds w = v * 2^-64
    (exact; small enough that c cannot overflow) to one significant bit, so p, that times 2^64,
    is one of the two powers of 2 around v; the answer is p where p >= v, else 2p. That is the
    kernel's bit arithmetic, 2^(exponent - 127 + (mantissa != 0)) (swiglu_group_quant_base.h:
    589-603), for every such v (test/test_swiglu_group_quant.py checks it on 10^6 values)."""
    w = bb.mulf(v, bb.const(2.0 ** -64, "down"), "scale_down")
    c = bb.mulf(w, bb.const(2.0 ** 23 + 1, "splitter"), "split")
    one_bit = bb.subf(c, bb.subf(c, w, "split_low"), "one_bit")
    p = bb.mulf(one_bit, bb.const(2.0 ** 64, "up"), "near_pow2")
    below = bb.cmpf("olt", p, v, "below")
    return bb.select(below, bb.mulf(p, bb.const(2.0, "two"), "next_pow2"), p, "pow2_scale")


class _Blocks:
    """The [..., K, B] view of the half shape and the generics over it."""

    def __init__(self, d: Decomposer, block: int):
        self.d = d
        half = d.half.get_shape()
        self.lead = list(half[:-1])
        self.rank = len(half) + 1
        self.shape = [*self.lead, half[-1] // block, block]
        self.full = AffineMap.identity(self.rank)
        self.per_block = AffineMap(self.rank, 0, tuple(AffineDimExpr(i)
                                                       for i in range(self.rank - 1)))
        self.groups = ArrayAttr([ArrayAttr([IntegerAttr(i, i64)]) for i in range(len(self.lead))]
                                + [ArrayAttr([IntegerAttr(len(self.lead), i64),
                                              IntegerAttr(len(self.lead) + 1, i64)])])

    def view(self, s: SSAValue) -> SSAValue:
        t = TensorType(F32, self.shape)
        view = self.d.b.insert(tensor.ExpandShapeOp(s, [], self.groups, self.shape, t)).result
        view.name_hint = "blocks"
        return view

    def pairs(self, scale: SSAValue, t: Attribute) -> SSAValue:
        """The [..., K] scales viewed as [..., K / 2, 2] (MX's y_scale)."""
        assert isinstance(t, TensorType)
        n = len(self.lead)
        groups = ArrayAttr([ArrayAttr([IntegerAttr(i, i64)]) for i in range(n)]
                           + [ArrayAttr([IntegerAttr(n, i64), IntegerAttr(n + 1, i64)])])
        op = tensor.ExpandShapeOp(scale, [], groups, t.get_shape(), t)
        return self.d.b.insert(op).result

    def collapse(self, y: SSAValue, t: TensorType[Attribute]) -> SSAValue:
        op = tensor.CollapseShapeOp(operands=[y], result_types=[t],
                                    properties={"reassociation": self.groups})
        return self.d.b.insert(op).results[0]

    def generic(self, inputs: Sequence[SSAValue], maps: Sequence[AffineMap], init: SSAValue,
                out_map: AffineMap, reduce: bool, body: BodyFn, name: str) -> SSAValue:
        out = init.type
        assert isinstance(out, TensorType)
        element = out.get_element_type()
        block = Block(arg_types=[*(_element(v) for v in inputs), element])
        bb = BodyBuilder(block)
        bb.builder.insert(YieldOp(bb.narrow(body(bb, block.args), element)))
        rank = out_map.num_dims
        iterators = [IteratorTypeAttr.reduction() if reduce and i == rank - 1
                     else IteratorTypeAttr.parallel() for i in range(rank)]
        generic = GenericOp(list(inputs), [init], Region(block),
                            [AffineMapAttr(m) for m in (*maps, out_map)], iterators, [out])
        self.d.b.insert(generic)
        generic.res[0].name_hint = name
        return generic.res[0]

    def empty(self, element: Attribute, shape: Sequence[int]) -> SSAValue:
        return self.d.b.insert(tensor.EmptyOp([], TensorType(element, shape))).results[0]


def _element(v: SSAValue) -> Attribute:
    t = v.type
    assert isinstance(t, TensorType)
    return t.get_element_type()


def _finite(bb: BodyBuilder, v: SSAValue, name: str) -> SSAValue:
    """v * 0 == v * 0: false for inf and NaN (the kernel's Muls 0 then Compare)."""
    zero = bb.mulf(v, bb.const(0.0, "zero"), f"{name}_times_zero")
    return bb.cmpf("oeq", zero, zero, f"{name}_finite")


def decompose_group_quant(op: SwigluGroupQuantOp) -> tuple[SSAValue, ...]:
    """Insert the generics of `op` before it (module docstring); y and y_scale."""
    why = _refusal(op)
    if why is not None:
        raise OpError(op, why)
    d = Decomposer(op)
    limit = float(op.value("clamp_limit")) if op.clamped() else None
    y_type = op.result.type
    assert isinstance(y_type, TensorType)
    fp8 = type(y_type.get_element_type())
    top, inv_top = FP8_MAX[fp8], f32_from_bits(INV_FP8_MAX_BITS[fp8])

    def swiglu(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        return bb.addf(swiglu_group_value(bb, a, limit), bb.const(0.0, "zero"), "swiglu")

    s = d.generic(swiglu, None, "swiglu", element=F32)
    blocks = _Blocks(d, BLOCK_SIZES[op.mode()])
    view = blocks.view(s)
    k_shape = blocks.shape[:-1]
    start = d.b.insert(ConstantOp(FloatAttr(0.0, F32))).result
    empty = blocks.empty(F32, k_shape)
    init = d.b.insert(FillOp((start,), (empty,), (TensorType(F32, k_shape),))).results[0]

    mode, rounded = op.mode(), bool(op.value("round_scale"))

    def amax(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        magnitude = bb.math("absf", a[0], "abs")
        if mode == 0:  # the finite values only
            magnitude = bb.select(_finite(bb, a[0], "s"), magnitude, bb.const(0.0, "zero"),
                                  "finite_abs")
        return bb.maximumf(magnitude, a[1], "amax")

    m = blocks.generic([view], [blocks.full], init, blocks.per_block, True, amax, "amax")
    per_k = AffineMap.identity(len(k_shape))

    def floor(bb: BodyBuilder, v: SSAValue) -> SSAValue:
        return bb.maximumf(v, bb.const(AMAX_FLOOR, "floor"), "amax_floored")

    def raw(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        """The scale: amax / M (times the f32 nearest 1 / M), a power of 2 when rounded."""
        value = bb.mulf(floor(bb, a[0]), bb.const(inv_top, "inv_max"), "scale")
        return ceil_pow2(bb, value) if rounded else value

    def inverse(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        if rounded:  # 1 / 2^e, exact
            return bb.divf(bb.const(1.0, "one"), raw(bb, a), "inv")
        return bb.divf(bb.const(top, "max"), floor(bb, a[0]), "inv")

    scale = blocks.generic([m], [per_k], blocks.empty(F32, k_shape), per_k, False, raw,
                           "y_scale")
    inv = blocks.generic([m], [per_k], blocks.empty(F32, k_shape), per_k, False, inverse,
                         "inv_scale")

    def quantized(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        v = bb.mulf(a[0], a[1], "scaled")
        if mode == 1:
            return v
        return bb.select(_finite(bb, v, "scaled"), v, a[0], "cast_in")

    q = blocks.generic([view, inv], [blocks.full, blocks.per_block],
                       blocks.empty(y_type.get_element_type(), blocks.shape), blocks.full, False,
                       quantized, "y_blocks")
    y = blocks.collapse(q, y_type)
    y.name_hint = "y"
    if mode == 1:  # E8M0 (exact: powers of 2), [..., K] -> [..., K / 2, 2] (K = H / 32 is
        # even: H is a multiple of 128)
        codes = blocks.generic([scale], [per_k], blocks.empty(E8M0, k_shape), per_k, False,
                               lambda bb, a: a[0], "y_scale_e8m0")
        scale = blocks.pairs(codes, op.y_scale.type)
    return y, scale



def decomposed(op: SwigluGroupQuantOp) -> ModuleOp:
    """A module of one function, @swiglu_group_quant(x), returning `op`'s results from its
    decomposition (the interpreter's hsg level runs it; `op` itself is left as it is)."""
    body = Block(arg_types=[op.x_type])
    copy = op.clone()
    copy.operands = (body.args[0],)
    body.add_op(copy)
    values = decompose_group_quant(copy)
    body.add_op(func.ReturnOp(*values))
    Rewriter.erase_op(copy)
    types = ([op.x_type], [r.type for r in op.results])
    return ModuleOp([func.FuncOp("swiglu_group_quant", types, Region(body))])
