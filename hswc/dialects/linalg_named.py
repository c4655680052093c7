"""linalg's named ops with the bodies MLIR gives them when element types differ.

xDSL 0.75 builds a named op's body (its hidden region) on the operands' element types as they
are: `linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf32>)`
gets `arith.mulf` of two f16 values added to an f32 one (a verify error about `arith.addf`,
reported at the matmul), a convolution of f16 into f32 fails an assertion while it is parsed,
and `linalg.copy` of f16 into f32 yields an f16 into an f32 tensor. MLIR's contractions,
convolutions, poolings and copy (their OpDSL definitions: `TypeFn.cast_signed(U, ...)`) first
convert each operand element they compute with to the output's element type U: `arith.extf`
or `arith.truncf` between floats, `arith.extsi` or `arith.trunci` between integers,
`arith.sitofp` and `arith.fptosi` across. Torch-mlir exports f16 and bf16 matmuls and
convolutions with an f32 accumulator in exactly this form, and they are valid MLIR (checked
with MLIR's own linalg-generalize-named-ops, from torch-mlir's wheel).

`Linalg` is xDSL's dialect with those ops replaced by subclasses whose `get_hidden_region`
builds xDSL's body on the output's element type and puts the conversions in front of it, and
with `linalg.fill` refusing a value whose type is not the output's element type, as MLIR does.
The elementwise named ops (`linalg.add`, `max`, `exp`, `select`, ...) convert nothing in MLIR
either: on mixed types their bodies do not verify, which is reported at the named op
(hswc.verification). The subclasses keep the ops' names, syntax and classes (an
`isinstance(op, MatmulOp)` still holds); only the body that MLIR would build differs, and it
is never printed. One difference stays: xDSL adds the product to the accumulator
(`addf %product, %out`) where MLIR writes `addf %out, %product`, the same sum.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.dialects.linalg import Linalg as XdslLinalg
from xdsl.dialects.linalg import ops
from xdsl.dialects.linalg.abstract_ops import ConvOperation, NamedOperation
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

CONVERTING: tuple[type[NamedOperation], ...] = (ops.MatmulOp, ops.PoolingNchwMaxOp,
                                                ops.CopyOp, ConvOperation)
"""The named ops (and families) whose MLIR body converts its operands to the output's element
type. xDSL's quantized matmul converts its own (`extsi` to i32)."""


def _width(t: Attribute) -> int:
    return t.bitwidth if isinstance(t, AnyFloat) else t.width.data  # type: ignore[union-attr]


def convert(value: SSAValue, to: Attribute) -> Operation:
    """The op converting `value` to `to` as MLIR's `TypeFn.cast_signed` does."""
    source = value.type
    if isinstance(source, AnyFloat) and isinstance(to, AnyFloat):
        return (arith.ExtFOp(value, to) if _width(source) < _width(to)
                else arith.TruncFOp(value, to))
    if isinstance(source, IntegerType) and isinstance(to, IntegerType):
        return (arith.ExtSIOp(value, to) if _width(source) < _width(to)
                else arith.TruncIOp(value, to))
    if isinstance(source, IntegerType) and isinstance(to, AnyFloat):
        return arith.SIToFPOp(value, to)
    if isinstance(source, AnyFloat) and isinstance(to, IntegerType):
        return arith.FPToSIOp(value, to)
    raise ValueError(f"no conversion of {source} to {to} in a named op's body")


def _element(value: SSAValue) -> Attribute:
    return NamedOperation.body_arg_types([value])[0]


def mlir_body(op_class: type[NamedOperation], xdsl_body: classmethod, inputs: Sequence[SSAValue],
              outputs: Sequence[SSAValue]) -> Region:
    """The body MLIR builds for `op_class` on these operands (the module docstring)."""
    build = xdsl_body.__get__(None, op_class)
    if not outputs:
        return build(inputs, outputs)
    target = _element(outputs[-1])
    types = [_element(v) for v in (*inputs, *outputs)]
    cast = [i for i, t in enumerate(types[:len(inputs)]) if t != target]
    if not cast:
        return build(inputs, outputs)
    # xDSL's body with the converted inputs as its arguments, then those arguments replaced by
    # the conversions of the real ones.
    stand_ins = Block(arg_types=[target if i in cast else t for i, t in enumerate(types)])
    inner = build(stand_ins.args[:len(inputs)], stand_ins.args[len(inputs):])
    body = inner.block
    real = Block(arg_types=types)
    for i, (old, new) in enumerate(zip(body.args, real.args, strict=True)):
        if i in cast and old.uses:
            conversion = convert(new, target)
            real.add_op(conversion)
            old.replace_all_uses_with(conversion.results[0])
        else:
            old.replace_all_uses_with(new)
    for op in list(body.ops):
        op.detach()
        real.add_op(op)
    return Region(real)


def _with_mlir_body(op_class: type[NamedOperation]) -> type[NamedOperation]:
    xdsl_body: classmethod = op_class.__dict__.get("get_hidden_region") or next(
        vars(base)["get_hidden_region"] for base in op_class.__mro__
        if "get_hidden_region" in vars(base))

    def get_hidden_region(cls: type[NamedOperation], inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return mlir_body(op_class, xdsl_body, inputs, outputs)

    # The class xDSL's irdl_op_definition made, with one classmethod more: its definition,
    # syntax and verifiers are the base's (defining it again would not take the fields it
    # already made).
    return type(op_class.__name__, (op_class,), {
        "__doc__": op_class.__doc__, "__module__": __name__,
        "get_hidden_region": classmethod(get_hidden_region)})


class _FillOfItsType(ops.FillOp):
    """linalg.fill, its value of the output's element type (MLIR: "expected fill value type
    ... to match output element type")."""

    def verify_(self) -> None:
        super().verify_()
        for value, output in zip(self.inputs, self.outputs, strict=False):
            element = _element(output)
            if value.type != element:
                raise VerifyException(f"expected fill value type ({value.type}) to match "
                                      f"output element type ({element})")


_FillOfItsType.__name__ = _FillOfItsType.__qualname__ = "FillOp"


def _dialect() -> Dialect:
    operations = [_with_mlir_body(op) if issubclass(op, CONVERTING)
                  else _FillOfItsType if op is ops.FillOp else op
                  for op in XdslLinalg.operations]
    return Dialect("linalg", operations, list(XdslLinalg.attributes))


Linalg = _dialect()
"""xDSL's linalg dialect, its named ops building MLIR's bodies."""
