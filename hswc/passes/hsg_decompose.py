"""hsg-decompose: each named operator becomes the linalg.generic of its semantics.

Input: named hsg ops on tensors (`hsg.hard_swish_grad`, `hsg.hard_swish`), any rank, static,
dynamic or unranked.
Output, per op: `tensor.empty` of the result's shape (with `tensor.dim` for dynamic dims), an
f32 `arith.constant` per attribute (the kernel receives them at run time: the body uses them
from outside), and an elementwise `linalg.generic` whose body is the op's decomposition for the
chosen semantics (hswc.ops), marked `hsg.op_name` (and `hsg.ub_budget` where the reference kernel
of that semantics tiles by a fixed budget). Unranked operands, which linalg.generic cannot take, are
flattened first (`hsg.flatten`) and the result given their shape back (`hsg.unflatten`).
`semantics=cann|cann-arch35|torch` picks the decomposition; by default each op's own default
(cann for hard_swish_grad, torch for the others). The operators reducing along a dim
(hsg.softmax, hsg.rms_norm, ...) become their generics (hswc.ops.norm_ops): reductions and the
elementwise generic reading them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from hswc.diagnostics import OpError, copy_location, ops_between
from hswc.dialects import hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.dialects.hsg_gated_ops import GatedOp
from hswc.dialects.hsg_gated_variants import GatedVariantOp
from hswc.dialects.hsg_group_quant import SwigluGroupQuantOp
from hswc.dialects.hsg_group_quant_grad import SwigluGroupQuantGradOp
from hswc.dialects.hsg_norm_ops import NormOp
from hswc.dialects.hsg_relu_mask import ReluMaskOp, mask_type
from hswc.dialects.hsg_tensor_functions import TensorFunctionOp
from hswc.ops import OPS, OpDefinition, definition_of
from hswc.ops.body import BodyBuilder
from hswc.ops.gated_ops import decompose_gated
from hswc.ops.gated_variants import decompose_variant
from hswc.ops.group_quant import decompose_group_quant
from hswc.ops.group_quant_grad import decompose_group_quant_grad
from hswc.ops.norm_ops import decompose_norm
from hswc.ops.relu_mask import mask_body, y_body
from hswc.passes.schedule_options import budget_attribute

F32 = Float32Type()
SEMANTICS_ATTR = "hsg.semantics"
UB_BUDGET_ATTR = "hsg.ub_budget"
"""On a generic: the UB budget (hswc.tiling.Budget) that the schedule preset reproducing its
CANN kernel is tiled by (hswc.passes.schedule_options.budget_attribute)."""


def _empty_like(b: Builder, t: TensorType[Attribute], like: SSAValue) -> SSAValue:
    """tensor.empty of `t`, its dynamic dims read from `like`."""
    dims = []
    for i, d in enumerate(t.get_shape()):
        if d < 0:
            index = b.insert(arith.ConstantOp(IntegerAttr(i, IndexType()))).result
            dims.append(b.insert(tensor.DimOp(like, index)).result)
    empty = b.insert(tensor.EmptyOp(dims, t)).results[0]
    empty.name_hint = "init"
    return empty


def decompose(op: hsg.NamedOp, definition: OpDefinition, semantics: str) -> SSAValue:
    """Insert the generic of `op` before it; its result (of op's type)."""
    b = Builder(InsertPoint.before(op))
    inputs = list(op.inputs)
    op_type = op.result.type
    if isinstance(op_type, UnrankedTensorType):
        inputs = [b.insert(hsg.FlattenOp(v)).result for v in inputs]
        for flat, name in zip(inputs, op.INPUTS, strict=True):
            flat.name_hint = f"{name}_flat"
    t = inputs[0].type
    assert isinstance(t, TensorType)
    element = t.get_element_type()
    init = _empty_like(b, t, inputs[0])
    attrs: dict[str, SSAValue] = {}
    for name, value in op.attribute_values().items():  # run-time scalars of the kernel
        attrs[name] = b.insert(arith.ConstantOp(FloatAttr(value, F32))).result
        attrs[name].name_hint = name

    body = Block(arg_types=[element] * (len(inputs) + 1))
    for arg, name in zip(body.args, (*op.INPUTS, "out"), strict=True):
        arg.name_hint = name
    builder = BodyBuilder(body, options=op.option_values())
    value = definition.semantics[semantics](builder, body.args[: len(inputs)], attrs)
    result = builder.narrow(value, element, "result" if value.type != element else None)
    builder.builder.insert(YieldOp(result))

    rank = t.get_num_dims()
    identity = AffineMapAttr(AffineMap.identity(rank))
    generic = GenericOp(inputs, [init], Region(body), [identity] * (len(inputs) + 1),
                               [IteratorTypeAttr.parallel()] * rank, [t])
    generic.attributes[hsg.OP_NAME_ATTR] = StringAttr(definition.name)
    generic.attributes[SEMANTICS_ATTR] = StringAttr(semantics)
    budget = definition.budgets.get(semantics)
    if budget is not None:
        generic.attributes[UB_BUDGET_ATTR] = budget_attribute(budget(element_type_name(element)))
    b.insert(generic)
    out = generic.res[0]
    if isinstance(op_type, UnrankedTensorType):
        out = b.insert(hsg.UnflattenOp(out, op.inputs[0])).result
    out.name_hint = op.result.name_hint
    return out


def decompose_relu_mask(op: ReluMaskOp) -> tuple[SSAValue, SSAValue]:
    """Insert y's generic and the mask's (hswc.ops.relu_mask) before `op`: two elementwise
    generics reading x, which hsg-fuse-elementwise makes one kernel writing both."""
    b = Builder(InsertPoint.before(op))
    t = op.x.type
    assert isinstance(t, TensorType)
    identity = AffineMapAttr(AffineMap.identity(t.get_num_dims()))
    results = []
    for out_type, block in ((t, y_body(t.get_element_type())),
                            (mask_type(t), mask_body(t.get_element_type()))):
        init = _empty_like(b, out_type, op.x)
        generic = GenericOp([op.x], [init], Region(block), [identity, identity],
                            [IteratorTypeAttr.parallel()] * t.get_num_dims(), [out_type])
        results.append(b.insert(generic).res[0])
    return results[0], results[1]


@dataclass(frozen=True)
class HsgDecomposePass(ModulePass):
    """Named hsg ops -> their linalg.generic (see the module docstring)."""

    name = "hsg-decompose"

    semantics: str | None = None
    """cann, cann-arch35 or torch; by default each op's own default."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        known = sorted({s for d in OPS.values() for s in d.semantics})
        if self.semantics is not None and self.semantics not in known:
            raise PassFailedException(
                f"{self.name}: unknown semantics '{self.semantics}' (known: {', '.join(known)})")
        for norm in [o for o in op.walk() if isinstance(o, TensorFunctionOp)]:
            before = norm.prev_op
            assert isinstance(norm, NormOp | GatedOp), norm.name  # the two families
            result = decompose_norm(norm) if isinstance(norm, NormOp) else \
                decompose_group_quant(norm) if isinstance(norm, SwigluGroupQuantOp) else \
                decompose_group_quant_grad(norm) if isinstance(norm, SwigluGroupQuantGradOp) \
                else decompose_variant(norm) if isinstance(norm, GatedVariantOp) else \
                decompose_gated(norm)
            copy_location(norm, ops_between(before, norm))
            values = result if isinstance(result, tuple) else (result,)
            for old, new in zip(norm.results, values, strict=True):  # GeGluV2's y and gelu
                new.name_hint = old.name_hint
                old.replace_all_uses_with(new)
            Rewriter.erase_op(norm)
        for relu in [o for o in op.walk() if isinstance(o, ReluMaskOp)]:
            before = relu.prev_op
            values = decompose_relu_mask(relu)
            copy_location(relu, ops_between(before, relu))
            for old, new in zip(relu.results, values, strict=True):
                new.name_hint = old.name_hint
                old.replace_all_uses_with(new)
            Rewriter.erase_op(relu)
        for named in [o for o in op.walk() if isinstance(o, hsg.NamedOp)]:
            definition = definition_of(named.name)
            semantics = self.semantics or definition.default_semantics
            if semantics not in definition.semantics:
                raise OpError(named, f"has no {semantics} semantics (it has: "
                              f"{', '.join(definition.semantics)})")
            before = named.prev_op
            result = decompose(named, definition, semantics)
            copy_location(named, ops_between(before, named))
            named.result.replace_all_uses_with(result)
            Rewriter.erase_op(named)
