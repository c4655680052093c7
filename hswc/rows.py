"""Row regions: a computation over rows that reduces along each row.

A row region iterates a space of `rows x length` elements: the parallel dims (the rows, in C
order) and the reduced dims (each row's `length` elements, the trailing dims). Its operands are
of three classes, by which part of that space they span:
- `element`: the whole space, rows x length elements, row-major (a tensor of the full shape);
- `row`: one value per row (the reduced dims dropped, or kept as size 1: `x.sum(-1, keepdim)`);
- `column`: one value per position in a row (LayerNorm's weight), the same for every row.
Its body is an elementwise body (scalar arith and math ending in linalg.yield) in which
`hsg.reduce` combines a value over the row: what follows reads the row's one result. Its kernel
splits the rows over the cores and a core's rows into UB chunks of whole rows; the description
travels on the kernel, slice and chunk ops as `hsg.rows` =
`{length = N : i64, inputs = ["element", ...], outputs = ["row", ...]}`, with
`one_per_chunk` where a row is too long for a chunk of several (hswc.vectorizer.plan: each
chunk one row, its level-0 calls repeating along the row instead of across rows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation

ROWS_ATTR = "hsg.rows"

OperandClass = Literal["element", "row", "column"]
CLASSES: tuple[OperandClass, ...] = ("element", "row", "column")


@dataclass(frozen=True)
class Rows:
    """The row length and the class of each input and output (module docstring)."""

    length: int
    inputs: tuple[OperandClass, ...]
    outputs: tuple[OperandClass, ...]
    one_per_chunk: bool = False
    """Each UB chunk holds one row (a row too long for MIN_CHUNK_ROWS of them, or for a
    level-0 repeat stride between rows: hswc.passes.row_kernels.fitted_row_plan)."""

    def operand_size(self, kind: OperandClass, rows: int) -> int:
        """How many elements an operand of this class holds for `rows` rows."""
        return {"element": rows * self.length, "row": rows, "column": self.length}[kind]

    def count_rows(self, inputs: Sequence[int], outputs: Sequence[int] = ()) -> int:
        """The rows operands of these element counts (inputs, then outputs when given, by
        class) hold; ValueError naming the first that disagrees."""
        found: int | None = None
        operands = [*zip(("input",) * len(inputs), range(len(inputs)), inputs, self.inputs,
                         strict=True),
                    *zip(("output",) * len(outputs), range(len(outputs)), outputs,
                         self.outputs if outputs else (), strict=True)]
        for what, i, size, kind in operands:
            if kind == "column":
                if size != self.length:
                    raise ValueError(f"{what} {i + 1} (a column operand) holds {size} elements, "
                                     f"not the row length {self.length}")
                continue
            if kind == "element" and size % self.length:
                raise ValueError(f"{what} {i + 1} holds {size} elements, not whole rows of "
                                 f"{self.length}")
            count = size // self.length if kind == "element" else size
            if found is not None and count != found:
                raise ValueError(f"{what} {i + 1} ({kind}) holds {count} rows where the "
                                 f"operands before it hold {found}")
            found = count
        return found or 0

    def to_attr(self) -> DictionaryAttr:
        fields: dict[str, Attribute] = {
            "length": IntegerAttr(self.length, i64),
            "inputs": ArrayAttr([StringAttr(c) for c in self.inputs]),
            "outputs": ArrayAttr([StringAttr(c) for c in self.outputs]),
        }
        if self.one_per_chunk:
            fields["one_per_chunk"] = UnitAttr()
        return DictionaryAttr(fields)

    @staticmethod
    def from_attr(attr: Attribute) -> Rows:
        """The description in `attr`; ValueError when it is not one."""
        if not isinstance(attr, DictionaryAttr):
            raise ValueError(f"{ROWS_ATTR} must be a dictionary, got {attr}")
        data = attr.data
        length = data.get("length")
        if not isinstance(length, IntegerAttr) or length.value.data < 1:
            raise ValueError(f"{ROWS_ATTR} needs a positive integer `length`, got {length}")
        one = data.get("one_per_chunk")
        if one is not None and not isinstance(one, UnitAttr):
            raise ValueError(f"{ROWS_ATTR} `one_per_chunk` must be a unit attribute, got {one}")
        return Rows(length.value.data, _classes(data.get("inputs"), "inputs"),
                    _classes(data.get("outputs"), "outputs"), one is not None)


def _classes(attr: Attribute | None, what: str) -> tuple[OperandClass, ...]:
    if not isinstance(attr, ArrayAttr) or not all(
            isinstance(a, StringAttr) and a.data in CLASSES for a in attr.data):
        raise ValueError(f"{ROWS_ATTR} `{what}` must be an array of "
                         f"{', '.join(repr(c) for c in CLASSES)}, got {attr}")
    return tuple(a.data for a in attr.data)  # type: ignore[attr-defined, misc]


def read_rows(op: Operation) -> Rows | None:
    """The `hsg.rows` of an op (kernel, slice or chunk), None without one."""
    attr = op.attributes.get(ROWS_ATTR) or op.properties.get("rows")
    return None if attr is None else Rows.from_attr(attr)


def row_view(values: Sequence[object]) -> str:
    """How a message names a list of classes."""
    return ", ".join(str(v) for v in values)
