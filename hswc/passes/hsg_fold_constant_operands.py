"""hsg-fold-constant-operands: constants an exporter passes to a generic from outside become
constants of its body.

Input: `linalg.generic` ops reading splat tensor constants (`arith.constant dense<6.0> :
tensor<f32>`, typically rank 0 and indexed by `(d0, d1) -> ()`, as torch-mlir writes every
clamp bound), or using f64 scalar constants defined outside their body.
Output: each such input dropped, its body argument replaced by an `arith.constant` of the
element type at the start of the body; each f64 scalar constant cloned into the bodies that use
it (the vector unit has no f64: hsg-exact-f64 then rewrites what uses it, exactly), and so each
integer scalar constant (math.fpowi's exponent), an integer constant converted to a float
(sitofp, uitofp) folded into that float constant; the outside constants left unused erased.
Every element of a splat reads the same value, so no bit changes. Scalar (not tensor) inputs,
as `linalg.fill` has, are read by the body directly. f16, bf16 and f32 scalars from outside a
body are left as they are: they are the kernel's run-time scalars (hsg-tile-on-cores).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ShapedType,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from hswc.float_formats import round_float
from hswc.passes import mark_unchanged
from hswc.passes.generic_rebuild import drop_inputs

FLOAT_NAMES = {Float16Type: "f16", BFloat16Type: "bf16", Float32Type: "f32"}


def splat_value(op: Operation | None) -> FloatAttr | IntegerAttr | None:
    """The element of a splat tensor constant, as a FloatAttr / IntegerAttr, else None."""
    if not isinstance(op, arith.ConstantOp):
        return None
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return None
    if not value.is_splat() and len(value.get_attrs()) != 1:
        return None
    first = value.get_attrs()[0]
    return first if isinstance(first, FloatAttr | IntegerAttr) else None


def _fold_inputs(op: GenericOp) -> list[Operation]:
    """Splat constant inputs into op's body; the constants that may now be unused."""
    block = op.body.block
    dropped: set[int] = set()
    owners: list[Operation] = []
    for i, value in enumerate(op.inputs):
        element = splat_value(value.owner if isinstance(value.owner, Operation) else None)
        if element is None:
            continue
        arg = block.args[i]
        constant = arith.ConstantOp(element)
        constant.results[0].name_hint = value.name_hint
        first = block.first_op
        assert first is not None
        block.insert_op_before(constant, first)
        arg.replace_all_uses_with(constant.results[0])
        dropped.add(i)
        assert isinstance(value.owner, Operation)
        owners.append(value.owner)
    if dropped:
        drop_inputs(op, dropped)
    return owners


def _capture_scalar_inputs(op: GenericOp) -> bool:
    """Inputs that are scalars, not tensors (`linalg.fill`'s value), read by the body directly:
    a scalar input's map is `(d0, ...) -> ()`, so every element reads that one value."""
    block = op.body.block
    dropped: set[int] = set()
    for i, value in enumerate(op.inputs):
        if not isinstance(value.type, ShapedType):
            block.args[i].replace_all_uses_with(value)
            dropped.add(i)
    if dropped:
        drop_inputs(op, dropped)
    return bool(dropped)


def _sink_constants(op: GenericOp) -> list[Operation]:
    """Scalar constants from outside that cannot be a kernel's run-time scalars (f64, integers:
    an exponent of math.fpowi, a count torch-mlir converts) cloned into op's body; the
    originals."""
    block = op.body.block
    owners: list[Operation] = []
    for inner in list(block.ops):
        for index, value in enumerate(inner.operands):
            owner = value.owner
            if (isinstance(owner, arith.ConstantOp)
                    and isinstance(value.type, Float64Type | IntegerType)
                    and owner.parent_block() is not block):
                clone = owner.clone()
                first = block.first_op
                assert first is not None
                block.insert_op_before(clone, first)
                inner.operands[index] = clone.results[0]
                owners.append(owner)
    return owners


EXACT_INTEGERS = 2**53
"""Integers below this in magnitude are exact in a Python float, so rounding that float once
to the target type is the conversion's one rounding."""


def _fold_conversions(op: GenericOp) -> bool:
    """An integer constant converted to a float in the body (`arith.sitofp` of torch-mlir's
    `tensor<i64>` 1 in `1 - x`) becomes the float constant: the conversion rounds once to
    nearest even, as round_float does."""
    changed = False
    for inner in list(op.body.block.ops):
        if not isinstance(inner, arith.SIToFPOp | arith.UIToFPOp):
            continue
        source = inner.input.owner
        target = inner.result.type
        dtype = FLOAT_NAMES.get(type(target))
        if not isinstance(source, arith.ConstantOp) or not isinstance(source.value, IntegerAttr) \
                or dtype is None:
            continue
        width = source.value.type.width.data  # type: ignore[attr-defined]
        n = source.value.value.data
        n = n % (1 << width) if isinstance(inner, arith.UIToFPOp) else n
        if abs(n) >= EXACT_INTEGERS:
            continue
        folded = arith.ConstantOp(FloatAttr(round_float(float(n), dtype), target))
        folded.results[0].name_hint = inner.result.name_hint
        Rewriter.replace_op(inner, folded)
        changed = True
    return changed


@dataclass(frozen=True)
class HsgFoldConstantOperandsPass(ModulePass):
    """Splat tensor constants and f64 scalar constants moved into the bodies that read them."""

    name = "hsg-fold-constant-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generics = [o for o in op.walk() if isinstance(o, GenericOp)]
        maybe_dead: list[Operation] = []
        for generic in generics:
            maybe_dead += _sink_constants(generic)
            maybe_dead += _fold_inputs(generic)  # rebuilds the generic
        captured = False
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            captured |= _fold_conversions(generic)
            captured |= _capture_scalar_inputs(generic)
        if not maybe_dead and not captured:
            mark_unchanged(op)
        for owner in dict.fromkeys(maybe_dead):
            if owner.parent is not None and not any(r.uses for r in owner.results):
                Rewriter.erase_op(owner)
