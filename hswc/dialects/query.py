"""The shape both dialects share for a query that takes nothing and answers an index."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.irdl import IRDLOperation, result_def


class IndexQueryOp(IRDLOperation):
    """`%v = <dialect>.<query>`: a platform or launch fact, as an index (abstract)."""

    result = result_def(IndexType)
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(result_types=[IndexType()])
