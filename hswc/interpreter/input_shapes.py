"""The inputs' shapes against the elementwise ops of the function as written, before it runs.

Every named op takes operands of one shape, and so does every elementwise `linalg.generic` (all
iterators parallel)
among the operands its output's indexing map indexes (broadcast operands are left to the map).
When the arrays given for a function's arguments break that (a dynamic dimension of different
sizes), the lowered module would only find out at its `hsg.launch` (a fused kernel, located
at the chain's last op); this check finds the op of the function as written whose operands
differ, and names the inputs they come from. Only the function's top-level block is followed
(what an op inside a branch gets is checked when it runs).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, SSAValue

from hswc.diagnostics import location_of
from hswc.dialects import hsg
from hswc.interpreter.errors import InputError


def check_input_shapes(fn: func.FuncOp, arrays: Sequence[np.ndarray],
                       labels: Sequence[str]) -> None:
    """InputError at the first elementwise op of `fn` whose operands get different shapes."""
    if not fn.body.blocks:
        return
    block = fn.body.block
    shapes: dict[SSAValue, tuple[int, ...]] = {}
    origin: dict[SSAValue, str] = {}
    for arg, array, label in zip(block.args, arrays, labels, strict=False):
        shapes[arg], origin[arg] = tuple(array.shape), label
    for op in block.ops:
        if isinstance(op, hsg.NamedOp):
            operands = list(op.inputs)
        elif isinstance(op, GenericOp) and all(it.data.value == "parallel"
                                               for it in op.iterator_types):
            # Only the operands indexed as the output is: a broadcast or permuted operand
            # (another indexing map) has a shape of its own, which the map relates.
            maps = list(op.indexing_maps.data)
            operands = [v for v, m in zip(op.inputs, maps, strict=False) if m == maps[-1]]
        else:
            continue
        known = [v for v in operands if v in shapes]
        for value in known[1:]:
            if shapes[value] != shapes[known[0]]:
                where = location_of(op)
                prefix = f"{where}: " if where else ""
                name = op.name if isinstance(op, hsg.NamedOp) else "linalg.generic"
                raise InputError(
                    f"{prefix}error: '{name}' gets {origin[known[0]]} of shape "
                    f"{shapes[known[0]]} and {origin[value]} of shape {shapes[value]}: the "
                    "operands of an elementwise op must have one shape")
        if known and isinstance(op, GenericOp):
            _check_static_dims(op, shapes[known[0]], origin[known[0]],
                               op.indexing_maps.data[-1])
        if known:
            for result in op.results:
                shapes[result] = shapes[known[0]]
                hint = f" %{result.name_hint}" if result.name_hint else ""
                origin[result] = f"the result{hint} of '{op.name}' (from {origin[known[0]]})"


def _check_static_dims(op: GenericOp, shape: tuple[int, ...], label: str, output_map: Attribute
                       ) -> None:
    """InputError when an operand read at the output's index has a shape the output's static
    dims do not take (a `tensor<?x64xf32>` input given 5 rows for a `tensor<4x64xf32>` result:
    the identity map holds them to one shape)."""
    result = op.res[0].type if op.res else None
    if not isinstance(result, TensorType) or len(result.get_shape()) != len(shape):
        return
    if all(d in (DYNAMIC_INDEX, n) for d, n in zip(result.get_shape(), shape, strict=True)):
        return
    where = location_of(op)
    prefix = f"{where}: " if where else ""
    space = tuple(n if d == DYNAMIC_INDEX else d
                  for d, n in zip(result.get_shape(), shape, strict=True))
    mapping = output_map.data if isinstance(output_map, AffineMapAttr) else output_map
    raise InputError(f"{prefix}error: 'linalg.generic' gets {label} of shape {shape}, which "
                     f"its map {mapping} does not fit to the iteration space {space} of its "
                     f"result {result}")
