"""hsg.relu_mask's semantics: the bodies of its two elementwise generics, y and the mask.

y is hsg.threshold's torch body with threshold = value = 0 (where(x <= 0, 0, x), compared in
f32: -0 gives +0, NaN stays NaN), so ReluV2's y is what the checker compared with hsg.threshold
before; the mask is x > 0 compared alike (false for NaN). Integer x compares with 0 in its own
type (arith.cmpi) and selects 0 or x. Each body takes x's element (and the output's) and yields
the result in the output's type.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, IntegerType
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, SSAValue

from hswc.dialects.hsg_relu_mask import MASK_ELEMENT
from hswc.ops.body import BodyBuilder
from hswc.ops.threshold import torch as threshold_torch


def _block(element: Attribute, out: Attribute) -> tuple[Block, BodyBuilder]:
    block = Block(arg_types=[element, out])
    block.args[0].name_hint, block.args[1].name_hint = "x", "out"
    return block, BodyBuilder(block)


def _integer_zero(bb: BodyBuilder, element: IntegerType) -> SSAValue:
    zero = bb.builder.insert(arith.ConstantOp(IntegerAttr(0, element))).result
    zero.name_hint = "zero"
    return zero


def y_body(element: Attribute) -> Block:
    """The body of y: where(x <= 0, 0, x) in x's type."""
    block, bb = _block(element, element)
    x = block.args[0]
    if isinstance(element, AnyFloat):
        zero = bb.const(0.0, "zero")
        value = threshold_torch(bb, [x], {"threshold": zero, "value": zero})
        result = bb.narrow(value, element, "y")
    else:
        assert isinstance(element, IntegerType)
        zero = _integer_zero(bb, element)
        at_most = bb.builder.insert(arith.CmpiOp(x, zero, "sle")).result
        at_most.name_hint = "at_most"
        result = bb.select(at_most, zero, x, "result")
    bb.builder.insert(YieldOp(result))
    return block


def mask_body(element: Attribute) -> Block:
    """The body of the mask: x > 0, an i1."""
    block, bb = _block(element, MASK_ELEMENT)
    x = block.args[0]
    if isinstance(element, AnyFloat):
        above = bb.cmpf("ogt", bb.widen(x, "x_fp32"), bb.const(0.0, "zero"), "above")
    else:
        assert isinstance(element, IntegerType)
        above = bb.builder.insert(arith.CmpiOp(x, _integer_zero(bb, element), "sgt")).result
        above.name_hint = "above"
    bb.builder.insert(YieldOp(above))
    return block
