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

What the bodies cannot compute yet is refused at the op: round_scale (the scale's f32 exponent
field, which needs arith.bitcast to i32, not in hswc's bodies), so quant_mode 1 (MX, E8M0
scales) too; FP4 (no Cast to it in hswc's tables); the HiFloat8 modes (no MLIR type).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from hswc.diagnostics import OpError
from hswc.dialects.hsg_group_quant import BLOCK_SIZES, DST_NAMES, SwigluGroupQuantOp
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
    if op.value("round_scale"):
        return ("round_scale (and so quant_mode 1, MX) rounds the scale up to a power of 2 "
                "from its f32 exponent field, which needs arith.bitcast to i32: hswc's "
                "bodies do not take it yet")
    return None


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

    def amax(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        magnitude = bb.select(_finite(bb, a[0], "s"), bb.math("absf", a[0], "abs"),
                              bb.const(0.0, "zero"), "finite_abs")
        return bb.maximumf(magnitude, a[1], "amax")

    m = blocks.generic([view], [blocks.full], init, blocks.per_block, True, amax, "amax")
    per_k = AffineMap.identity(len(k_shape))

    def floor(bb: BodyBuilder, v: SSAValue) -> SSAValue:
        return bb.maximumf(v, bb.const(AMAX_FLOOR, "floor"), "amax_floored")

    scale = blocks.generic([m], [per_k], blocks.empty(F32, k_shape), per_k, False,
                           lambda bb, a: bb.mulf(floor(bb, a[0]), bb.const(inv_top, "inv_max"),
                                                 "scale"), "y_scale")
    inv = blocks.generic([m], [per_k], blocks.empty(F32, k_shape), per_k, False,
                         lambda bb, a: bb.divf(bb.const(top, "max"), floor(bb, a[0]), "inv"),
                         "inv_scale")

    def quantized(bb: BodyBuilder, a: Sequence[SSAValue]) -> SSAValue:
        v = bb.mulf(a[0], a[1], "scaled")
        return bb.select(_finite(bb, v, "scaled"), v, a[0], "cast_in")

    q = blocks.generic([view, inv], [blocks.full, blocks.per_block],
                       blocks.empty(y_type.get_element_type(), blocks.shape), blocks.full, False,
                       quantized, "y_blocks")
    y = blocks.collapse(q, y_type)
    y.name_hint = "y"
    return y, scale
