"""The named operators that are PyTorch functions of whole tensors (abstract): what the reducing
ops (hswc.dialects.hsg_norm_ops) and the gated linear units (hswc.dialects.hsg_gated_ops)
share: operands named by `INPUTS`, one result (or `RESULTS` of one type, or the types `parsed_result_types` gives), attributes as
properties with defaults, and the text form

    %y = hsg.<op> %a, %b {attr = value : type} : type_a, type_b

Each family says which attributes it takes (`attribute_defaults`), what its result's type is
(`result_type`) and how it verifies; hsg-decompose lowers every such op by its family's
decomposition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, result_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type)
"""The element types these PyTorch functions take."""


class TensorFunctionOp(IRDLOperation):
    """A named operator that is a PyTorch function of whole tensors (abstract; module
    docstring)."""

    INPUTS: ClassVar[tuple[str, ...]]
    """The operands' names, in order."""
    TORCH: ClassVar[str]
    """The PyTorch function it is, as its docstring's first line names it."""
    ONE_TYPE: ClassVar[bool] = False
    """The text form may give one type for operands that all share it."""
    X_INDEX: ClassVar[int] = 0
    """Which operand is x, the tensor whose dim the op works along."""
    RESULTS: ClassVar[int] = 1
    """How many results it has, each of `result_type` (GeGluV2's y and gelu: 2)."""

    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)

    @property
    def x_type(self) -> TensorType[Attribute]:
        t = self.inputs[self.X_INDEX].type
        assert isinstance(t, TensorType)
        return t

    def verify_x(self, needs: str) -> TensorType[Attribute]:
        """x's type, after checking the operand count, x's element type (f16, bf16 or f32, as
        PyTorch's function takes) and x's rank (1 or more: `needs` says what the dim is for)."""
        if len(self.inputs) != len(self.INPUTS):
            raise VerifyException(f"{self.name}: takes {len(self.INPUTS)} operand(s) "
                                  f"({', '.join(self.INPUTS)}), got {len(self.inputs)}")
        x = self.x_type
        element = x.get_element_type()
        name = self.INPUTS[self.X_INDEX]
        if not isinstance(element, FLOAT_TYPES):
            raise VerifyException(f"{self.name}: {name} has element type {element}; "
                                  f"{self.TORCH} takes f16, bf16 and f32")
        if x.get_num_dims() == 0:
            raise VerifyException(f"{self.name}: {name} has rank 0; it needs a dim to {needs}")
        return x

    def verify_dim(self, dim: IntegerAttr | None, rank: int) -> int:
        """`dim`'s value, after checking it is an i64 in [-rank, rank)."""
        if dim is None or not isinstance(dim.type, IntegerType) or dim.type.width.data != 64:
            raise VerifyException(f"{self.name}: `dim` must be an i64 (dim = -1 : i64)")
        d = dim.value.data
        if not -rank <= d < rank:
            raise VerifyException(f"{self.name}: dim {d} is out of range for rank {rank} "
                                  f"(-{rank} to {rank - 1})")
        return d

    @classmethod
    def attribute_defaults(cls) -> dict[str, Attribute]:
        """The attributes the op takes, each with its default."""
        raise NotImplementedError

    @classmethod
    def attribute_names(cls) -> tuple[str, ...]:
        """The attributes the text form reads as the op's (any other without a dialect prefix
        is refused); the verifier says which of them the op takes."""
        return tuple(cls.attribute_defaults())

    @classmethod
    def result_type(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                    parser: Parser, pos: int) -> Attribute:
        """The result's type for operands of `types` and these attributes (a parse error at
        `pos` where they give none)."""
        raise NotImplementedError

    @classmethod
    def parsed_result_types(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                     parser: Parser, pos: int) -> list[Attribute | list[Attribute]]:
        """Every result's type: `RESULTS` of `result_type` (an op whose results differ says
        each, an optional one as a list: hsg.swiglu_group_quant's y, scales and y_origin)."""
        return [cls.result_type(types, properties, parser, pos)] * cls.RESULTS

    @classmethod
    def parse(cls, parser: Parser) -> TensorFunctionOp:
        pos = parser.pos
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                     parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if cls.ONE_TYPE and len(types) == 1:
            types = types * len(operands)
        if len(types) != len(operands):
            parser.raise_error(f"{cls.name}: {len(operands)} operands but {len(types)} types",
                               pos, parser.pos)
        defaults = cls.attribute_defaults()
        properties: dict[str, Attribute] = {}
        attributes: dict[str, Attribute] = {}
        for name, value in attrs.items():
            if name in cls.attribute_names():
                properties[name] = value
            elif "." not in name:
                parser.raise_error(f"{cls.name} has no attribute '{name}' (its attributes: "
                                   f"{', '.join(defaults)})", pos, parser.pos)
            else:
                attributes[name] = value
        properties = {**defaults, **properties}
        results = cls.parsed_result_types(types, properties, parser, pos)
        op = cls.__new__(cls)
        IRDLOperation.__init__(op, operands=[parser.resolve_operands(operands, types, pos)],
                               result_types=results, properties=properties,
                               attributes=attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes({**self.properties, **self.attributes})
        printer.print_string(" : ")
        types = [v.type for v in self.inputs]
        shared = self.ONE_TYPE and len(set(types)) == 1
        printer.print_list(types[:1] if shared else types, printer.print_attribute)
