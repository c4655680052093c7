"""IRDL ops built without xDSL's general argument handling where the arguments need none.

Every `IRDLOperation.__init__` (an `arith.AddiOp(a, b)`, an `ascend.DataCopyOp(...)`) goes
through xDSL's `irdl_op_init`: it turns each operand, result type, region and successor
argument into a flat list by the op definition (an Operation given as an operand becomes its
result, a list of ops becomes a region, None an absent optional), checks the counts, drops the
None properties and attributes, adds the segment sizes of ops with several variadic groups, and
only then calls `Operation.__init__`. Most of that is isinstance checks against `Sequence`, an
abstract class (slow to test). A whole model's lowering builds some 40,000 ops this way (the
schedule choice's candidate kernels most of them), and `irdl_op_init` without the
`Operation.__init__` it ends in was about a seventh of a first run
(bench/bench_partition.py).

`install()` gives IRDLOperation an `__init__` that, for an op whose definition has no options
(no segment sizes, no same-size groups) and whose arguments are already what the flat lists
hold (each operand an OpResult or BlockArgument, each result type an attribute that is not a
sequence, each region a Region, each successor a Block; a variadic group a list or tuple of
those, an absent optional None), builds those lists itself and calls `Operation.__init__` with
exactly what `irdl_op_init` would have passed it. Any other call (an Operation as an operand, a
list of blocks as a region, a wrong count, an op with options) goes to xDSL's own `__init__`,
which builds it or raises as before. So nothing a program can observe changes but the time
(test/test_fast_op_init.py builds every op both ways and compares them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region
from xdsl.irdl.operations import IRDLOperation, OptionalDef, VariadicDef

xdsl_init = IRDLOperation.__init__
"""xDSL's own IRDLOperation.__init__ (irdl_op_init)."""

_SINGLE, _VARIADIC, _OPTIONAL = 0, 1, 2

Layout = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""Each operand, result, region and successor group of an op: single, variadic or optional."""

_layouts: dict[type[Operation], Layout | None] = {}
_plain_types: dict[type, bool] = {}


def _kinds(defs: Sequence[tuple[str, Any]]) -> tuple[int, ...]:
    return tuple(_OPTIONAL if isinstance(d, OptionalDef) else
                 _VARIADIC if isinstance(d, VariadicDef) else _SINGLE for _, d in defs)


def layout(cls: type[IRDLOperation]) -> Layout | None:
    """The groups of `cls`'s definition; None when it has options (built by xDSL only)."""
    if cls in _layouts:
        return _layouts[cls]
    op_def = cls.get_irdl_definition()
    found = None if op_def.options else (_kinds(op_def.operands), _kinds(op_def.results),
                                         _kinds(op_def.regions), _kinds(op_def.successors))
    _layouts[cls] = found
    return found


def _is_value(arg: object) -> bool:
    return type(arg) is OpResult or type(arg) is BlockArgument


def _is_type(arg: object) -> bool:
    kind = type(arg)
    plain = _plain_types.get(kind)
    if plain is None:
        plain = _plain_types[kind] = issubclass(kind, Attribute) and not issubclass(kind,
                                                                                   Sequence)
    return plain


def _is_region(arg: object) -> bool:
    return type(arg) is Region


def _is_block(arg: object) -> bool:
    return type(arg) is Block


def _flat(args: Sequence[Any], kinds: tuple[int, ...],
          plain: Callable[[object], bool]) -> list[Any] | None:
    """The flat list irdl_op_init builds from `args`, or None where it would do more (convert
    an argument) or raise."""
    if len(args) != len(kinds):
        return None
    flat: list[Any] = []
    for arg, kind in zip(args, kinds, strict=True):
        if kind == _SINGLE:
            if not plain(arg):
                return None
            flat.append(arg)
        elif arg is None:
            if kind != _OPTIONAL:
                return None
        elif type(arg) is list or type(arg) is tuple:
            if kind == _OPTIONAL and len(arg) > 1:
                return None
            for item in arg:
                if not plain(item):
                    return None
            flat.extend(arg)
        else:
            return None
    return flat


def _present(entries: Mapping[str, Attribute | None] | None) -> dict[str, Attribute]:
    return {} if not entries else {k: v for k, v in entries.items() if v is not None}


def fast_init(self: IRDLOperation, *,
              operands: Sequence[Any] | None = None,
              result_types: Sequence[Any] | None = None,
              properties: Mapping[str, Attribute | None] | None = None,
              attributes: Mapping[str, Attribute | None] | None = None,
              successors: Sequence[Any] | None = None,
              regions: Sequence[Any] | None = None) -> None:
    """IRDLOperation.__init__: the flat lists built here when they need no conversion, else
    xDSL's own (the module docstring)."""
    groups = layout(type(self))
    if groups is not None:
        flat_operands = _flat(operands or (), groups[0], _is_value)
        flat_results = None if flat_operands is None else _flat(result_types or (), groups[1],
                                                                 _is_type)
        flat_regions = None if flat_results is None else _flat(regions or (), groups[2],
                                                                _is_region)
        flat_successors = None if flat_regions is None else _flat(successors or (), groups[3],
                                                                   _is_block)
        if flat_successors is not None:
            assert flat_operands is not None and flat_results is not None
            assert flat_regions is not None
            Operation.__init__(self, operands=flat_operands, result_types=flat_results,
                               properties=_present(properties),
                               attributes=_present(attributes),
                               successors=flat_successors, regions=flat_regions)
            return
    xdsl_init(self, operands=operands, result_types=result_types, properties=properties,
              attributes=attributes, successors=successors, regions=regions)


def install() -> None:
    """fast_init as IRDLOperation's __init__, for the rest of the process."""
    IRDLOperation.__init__ = fast_init  # type: ignore[method-assign]
