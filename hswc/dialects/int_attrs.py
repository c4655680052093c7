"""Integer attributes built once per value and type.

xDSL's `IntegerAttr(value, type)` builds and verifies the attribute (and, given a width, its
IntegerType) on every call: tens of microseconds, and the lowering builds thousands of them
(the index constants of hswc.index_arith, the strides of every repeat call, the buffer counts
of InitBuffer, the UB plans' entries), most of them the same few values. Attributes are
immutable and compared by value, so one object serves every op that holds it: the IR, its
printing and its verification are what they were.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType

_INDEX = IndexType()


@lru_cache(maxsize=4096)
def int_attr(value: int, width: int) -> IntegerAttr[IntegerType]:
    """`IntegerAttr(value, width)`: a signless integer of `width` bits."""
    return IntegerAttr(value, width)


@lru_cache(maxsize=4096)
def index_attr(value: int) -> IntegerAttr[IndexType]:
    """`IntegerAttr(value, IndexType())`."""
    return IntegerAttr(value, _INDEX)
