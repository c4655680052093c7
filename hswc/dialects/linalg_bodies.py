"""The bodies of upstream linalg's named ops, as MLIR defines them.

MLIR's named ops (LinalgNamedStructuredOps.yaml, OpDSL) compute in the output's element type U:
each input element is first cast to U by `TypeFn.cast_signed` (float to a wider float: extf;
to a narrower one: truncf; integer to float: sitofp, or uitofp for i1; float to integer: fptosi;
integer to a wider integer: extsi, or extui for i1; to a narrower one: trunci), then combined
with the output's current value, the output first:

- multiply-accumulate (matmul, batch_matmul, every convolution): `out + cast(a) * cast(b)`;
- pooling sum: `out + cast(a)`; pooling max: `maximumf(out, cast(a))` (`maxsi` on integers).

So an f16 matmul into an f32 accumulator extends both operands to f32, multiplies and adds in
f32, as `mlir-opt --linalg-generalize-named-ops` prints it. xDSL 0.75 builds these regions
without the casts (an f16 x f16 product added to an f32 value, which does not verify) or fails
on them (an AssertionError for float operands of another width); hswc.dialects.linalg builds
its named ops' regions with these functions instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, MemRefType, TensorType
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.utils.hints import isa


def element_types(operands: Sequence[SSAValue]) -> list[Attribute]:
    """The body's argument types: each shaped operand's element type, a scalar's own type."""
    types: list[Attribute] = []
    for value in operands:
        t = value.type
        types.append(t.get_element_type() if isa(t, TensorType | MemRefType) else t)
    return types


def _width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    assert isinstance(t, AnyFloat)
    return t.bitwidth


def cast_signed(value: SSAValue, to: Attribute) -> SSAValue:
    """`value` cast to `to` as OpDSL's TypeFn.cast_signed does; ValueError where MLIR has no
    such cast (between two different float types of one width, f16 and bf16)."""
    source = value.type
    if source == to:
        return value
    if isinstance(source, IndexType) or isinstance(to, IndexType):
        return arith.IndexCastOp(value, to).result
    if isinstance(to, AnyFloat):
        if isinstance(source, IntegerType):
            unsigned = source.width.data == 1
            return (arith.UIToFPOp if unsigned else arith.SIToFPOp)(value, to).result
        if _width(to) > _width(source):
            return arith.ExtFOp(value, to).result
        if _width(to) < _width(source):
            return arith.TruncFOp(value, to).result
    elif isinstance(to, IntegerType):
        if isinstance(source, AnyFloat):
            return arith.FPToSIOp(value, to).result
        if _width(to) > _width(source):
            unsigned = isinstance(source, IntegerType) and source.width.data == 1
            return (arith.ExtUIOp if unsigned else arith.ExtSIOp)(value, to).result
        if _width(to) < _width(source):
            return arith.TruncIOp(value, to).result
    raise ValueError(f"MLIR's named linalg ops have no cast from {source} to {to}")


Combine = Callable[[SSAValue, Sequence[SSAValue]], SSAValue]
"""The body's result from the output's current value and the inputs cast to its type."""


def body(types: Sequence[Attribute], combine: Combine, read: int = 2) -> Region:
    """A named op's region over block arguments of `types` (inputs, then the output): its
    first `read` inputs cast to the output's type (a pooling's window operand, which only
    gives the window's shape, is not read), then `combine`d with the output's value."""
    to = types[-1]

    @Builder.implicit_region(list(types))
    def region(args: tuple[BlockArgument, ...]) -> None:
        inputs = [cast_signed(a, to) for a in args[:read]]
        YieldOp(combine(args[-1], inputs))

    return region


def multiply_accumulate(out: SSAValue, inputs: Sequence[SSAValue]) -> SSAValue:
    """out + a * b (matmul, batch_matmul, the convolutions)."""
    a, b = inputs[0], inputs[1]
    if isinstance(out.type, AnyFloat):
        return arith.AddfOp(out, arith.MulfOp(a, b)).result
    return arith.AddiOp(out, arith.MuliOp(a, b)).result


def accumulate(out: SSAValue, inputs: Sequence[SSAValue]) -> SSAValue:
    """out + a (pooling sums; the window operand is not read)."""
    if isinstance(out.type, AnyFloat):
        return arith.AddfOp(out, inputs[0]).result
    return arith.AddiOp(out, inputs[0]).result


def maximum(out: SSAValue, inputs: Sequence[SSAValue]) -> SSAValue:
    """max(out, a) (max pooling: maximumf, NaN-propagating; maxsi on integers)."""
    if isinstance(out.type, AnyFloat):
        return arith.MaximumfOp(out, inputs[0]).result
    return arith.MaxSIOp(out, inputs[0]).result
