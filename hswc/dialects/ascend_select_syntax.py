"""The custom syntax of `ascend.select`, written out because its second source is an operand in
both of its forms, which a declarative format cannot tell apart:

    ascend.select %d, %m, %s0, %s1, vsel_tensor_tensor_mode, %n : T(d), T(m), T(s0), T(s1)
    ascend.select %d, %m, %s0, %v : f16, vsel_tensor_scalar_mode, %n : T(d), T(m), T(s0)
    ascend.select %d, %m, %s0, 5.000000e-01 : f16, vsel_tensor_scalar_mode, %n : T(d), ...

A tensor second source is typed with the other tensors after the last `:`; a run-time scalar
is followed by its own type, as an attribute is.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FloatAttr, IndexType
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from hswc.dialects.ascend_types import LocalTensorType, SelMode, SelModeAttr

SelectParts = tuple[SSAValue, SSAValue, SSAValue, SSAValue | FloatAttr, SelMode, SSAValue,
                    dict[str, Attribute]]
"""dst, mask, src0, the second source (a tensor, a value or a float), the mode, count, and the
attribute dictionary."""


def parse_select(parser: Parser) -> SelectParts:
    """The parts of a select in the custom syntax, its operands resolved."""
    pos = parser.pos
    heads = [parser.parse_unresolved_operand()]
    for _ in range(2):
        parser.parse_punctuation(",")
        heads.append(parser.parse_unresolved_operand())
    parser.parse_punctuation(",")
    second = _parse_second_source(parser)
    parser.parse_punctuation(",")
    mode = SelModeAttr.parse_parameter(parser)
    parser.parse_punctuation(",")
    count = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    tensors = [*heads, *([second] if isinstance(second, UnresolvedOperand) else [])]
    if len(types) != len(tensors):
        parser.raise_error(f"ascend.select expects {len(tensors)} tensor types after `:`, got "
                           f"{len(types)}", pos, parser.pos)
    dst, mask, src0, *src1 = parser.resolve_operands(tensors, types, pos)
    source = src1[0] if src1 else second
    assert not isinstance(source, UnresolvedOperand)
    return dst, mask, src0, source, mode, count, attrs


def _parse_second_source(parser: Parser) -> UnresolvedOperand | SSAValue | FloatAttr:
    """A tensor operand (typed later, with the others), a value with its float type
    (`%v : f32`), or a float attribute (`0.5 : f32`)."""
    pos = parser.pos
    operand = parser.parse_optional_unresolved_operand()
    if operand is None:
        scalar = parser.parse_attribute()
        if not isinstance(scalar, FloatAttr):
            parser.raise_error(f"ascend.select: the second source must be a tensor, a value "
                               f"`%v : f32` or a float `0.5 : f32`, got {scalar}", pos, parser.pos)
        return scalar
    if parser.parse_optional_punctuation(":") is None:
        return operand
    value_type = parser.parse_type()
    if isinstance(value_type, LocalTensorType):
        parser.raise_error("ascend.select: a tensor second source takes its type in the type "
                           "list after `:`, not after the operand", pos, parser.pos)
    return parser.resolve_operand(operand, value_type)


def print_select(printer: Printer, tensors: tuple[SSAValue, ...],
                 sources: Sequence[SSAValue | Attribute], scalar_value: SSAValue | None,
                 mode: SelMode, count: SSAValue, attributes: dict[str, Attribute]) -> None:
    """The custom syntax of a select of `tensors` (dst, mask, src0 and the tensor second source
    if any) and `sources` (its second sources: one, but an invalid op prints them all;
    `scalar_value` the run-time scalar among them, printed with its type)."""
    printer.print_string(" ")
    printer.print_list(tensors[:3], printer.print_operand)
    printer.print_string(", ")
    for i, source in enumerate(sources):
        printer.print_string(" " if i else "")
        if isinstance(source, Attribute):
            printer.print_attribute(source)
        else:
            printer.print_operand(source)
            if source is scalar_value:
                printer.print_string(" : ")
                printer.print_attribute(source.type)
    printer.print_string(f", {mode.value}, ")
    printer.print_operand(count)
    printer.print_op_attributes(attributes)
    printer.print_string(" : ")
    printer.print_list((t.type for t in tensors), printer.print_attribute)
