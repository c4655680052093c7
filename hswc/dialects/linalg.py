"""Upstream linalg as hswc reads it: xDSL 0.75's dialect, with what it gets wrong mended and the
named ops PyTorch's exporter writes added (hswc.dialects.linalg_named).

Mended, each by a subclass registered under the op's own name (isinstance checks against
xDSL's classes still hold; code that builds ops keeps using xDSL's):
- `linalg.generic` with several results (`-> (tensor<4xf32>, tensor<4xi64>)`, a softmax's max
  value and index): xDSL's parser reads the parenthesised list as one attribute, which it
  takes for a function type, and fails at the next op with `Expected '->'`; its printer writes
  the list correctly. `GenericOp.parse` reads either form.
- the regions of `linalg.matmul`, the convolutions and `linalg.pooling_nchw_max`: xDSL builds
  them without MLIR's casts to the output's element type (an f16 matmul into f32 does not
  verify, an f16 convolution into f32 stops on an AssertionError); here they are MLIR's
  (hswc.dialects.linalg_bodies).
- `linalg.fill`: MLIR requires the value's type to be the output's element type; so does this
  verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ContainerType, StringAttr
from xdsl.dialects.linalg import ops
from xdsl.dialects.linalg.abstract_ops import ConvOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Dialect, Region, SSAValue
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.linalg_bodies import body, element_types, maximum, multiply_accumulate
from hswc.dialects.linalg_named import NEW_OPS


def _operands(parser: Parser, keyword: str) -> Sequence[SSAValue]:
    """`keyword(%a, %b : type, type)`, or nothing when the keyword is absent."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return []
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                              parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(names, types, pos)


def _iterator(parser: Parser, value: Attribute, start: int, end: int) -> IteratorTypeAttr:
    if isinstance(value, IteratorTypeAttr):
        return value
    if isinstance(value, StringAttr) and value.data in {t.value for t in IteratorType}:
        return IteratorTypeAttr(IteratorType(value.data))
    parser.raise_error(f"unknown iterator type {value}", start, end)


def _result_types(parser: Parser) -> Sequence[Attribute]:
    """`-> type` or `-> (type, type, ...)`, or nothing."""
    if not parser.parse_optional_punctuation("->"):
        return []
    several = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN,
                                                         parser.parse_type)
    return several if several is not None else [parser.parse_type()]


class GenericOp(ops.GenericOp):
    """linalg.generic, parsed with any number of results (module docstring)."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        attrs = dict(parser.parse_optional_attr_dict())
        end = parser.pos
        maps = attrs.pop("indexing_maps", None)
        iterators = attrs.pop("iterator_types", None)
        if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr)
                                                      for m in maps):
            parser.raise_error("expected indexing_maps = [affine maps] in linalg.generic's "
                               "attributes", start, end)
        if not isinstance(iterators, ArrayAttr):
            parser.raise_error("expected iterator_types = [...] in linalg.generic's "
                               "attributes", start, end)
        doc = attrs.pop("doc", None)
        library_call = attrs.pop("library_call", None)
        for name, value in (("doc", doc), ("library_call", library_call)):
            if value is not None and not isinstance(value, StringAttr):
                parser.raise_error(f"linalg.generic's {name} must be a string", start, end)
        inputs = _operands(parser, "ins")
        outputs = _operands(parser, "outs")
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            attrs |= parser.expect(parser.parse_optional_attr_dict, "expected an attribute "
                                   "dictionary after 'attrs ='")
        region = parser.parse_region()
        results = _result_types(parser)
        op = cls(inputs, outputs, region, maps,  # pyright: ignore[reportArgumentType]
                 [_iterator(parser, i, start, end) for i in iterators], results,
                 doc, library_call)  # pyright: ignore[reportArgumentType]
        op.attributes |= attrs
        return op


def _multiply_accumulate(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    return body(element_types([*inputs, *outputs]), multiply_accumulate)


class MatmulOp(ops.MatmulOp):
    """linalg.matmul with MLIR's body: C[m, n] += cast(A[m, k]) * cast(B[k, n])."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return _multiply_accumulate(inputs, outputs)


class PoolingNchwMaxOp(ops.PoolingNchwMaxOp):
    """linalg.pooling_nchw_max with MLIR's body: O = max(O, cast(I)) over the window."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return body(element_types([*inputs, *outputs]), maximum, read=1)


class FillOp(ops.FillOp):
    """linalg.fill, its value of the output's element type as MLIR requires."""

    def verify_(self) -> None:
        super().verify_()
        for value, output in zip(self.inputs, self.outputs, strict=False):
            t = output.type
            element = t.get_element_type() if isinstance(t, ContainerType) else t
            if value.type != element:
                raise VerifyException(f"expected the fill value's type ({value.type}) to be "
                                      f"the output's element type ({element})")


def _with_mlir_body(base: type[ConvOperation]) -> type[ConvOperation]:
    """xDSL's convolution `base` with MLIR's multiply-accumulate body."""

    def get_hidden_region(cls: type, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return _multiply_accumulate(inputs, outputs)

    return type(base.__name__, (base,), {
        "__doc__": f"{base.name} with MLIR's body: out + cast(input) * cast(filter).",
        "__module__": __name__,
        "get_hidden_region": classmethod(get_hidden_region),
    })


CONVOLUTIONS = tuple(_with_mlir_body(c) for c in (
    ops.Conv2DNchwFchwOp, ops.Conv2DNgchwFgchwOp, ops.Conv2DNgchwGfchwOp, ops.Conv2DNhwc_FhwcOp,
    ops.Conv2DNhwc_HwcfOp, ops.Conv2DNhwgcGfhwcOp))

MENDED = (GenericOp, MatmulOp, PoolingNchwMaxOp, FillOp, *CONVOLUTIONS)
"""The subclasses that replace xDSL's classes of the same names."""


def _dialect() -> Dialect:
    from xdsl.dialects.linalg import Linalg as XdslLinalg

    replaced = {op.name: op for op in MENDED}
    operations = [replaced.get(op.name, op) for op in XdslLinalg.operations]
    return Dialect("linalg", [*operations, *NEW_OPS], list(XdslLinalg.attributes))


Linalg = _dialect()
