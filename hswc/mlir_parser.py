"""xDSL's MLIR parser with what it reads differently from MLIR mended (hswc.diagnostics'
LocatingParser builds on it).

- A hexadecimal element of a dense float literal is the element's bit pattern, as in MLIR and
  as xDSL itself reads a scalar (`arith.constant 0xFF800000 : f32` is -inf):
  `dense<0xFF800000> : tensor<f32>`, torch-mlir's -inf of a masked attention, is -inf too, not
  the integer 4286578688 converted to a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import AnyFloat
from xdsl.parser import Parser as XdslParser
from xdsl.parser.attribute_parser import AttrParser


@dataclass
class _BitsElement(AttrParser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]
    """A dense literal's element written in hexadecimal: a float type's bit pattern."""

    def to_type(self, parser: AttrParser, type: Any) -> Any:
        if isinstance(type, AnyFloat) and isinstance(self.value, int) and not self.is_negative:
            if self.value.bit_length() > type.bitwidth:
                parser.raise_error(f"hexadecimal float {hex(self.value)} is wider than {type}",
                                   at_position=self.span)
            return next(type.iter_unpack(self.value.to_bytes(type.compile_time_size, "little")))
        return super().to_type(parser, type)


class Parser(XdslParser):
    """xDSL's parser, reading dense float literals in hexadecimal as MLIR does."""

    def _parse_tensor_literal_element(self) -> AttrParser._TensorLiteralElement:  # pyright: ignore[reportPrivateUsage]
        hexadecimal = self._current_token.text[:2] in ("0x", "0X")
        element = super()._parse_tensor_literal_element()
        if not hexadecimal:
            return element
        return _BitsElement(element.is_negative, element.value, element.span)
