"""A row kernel of a run-time row length (hswc.rows `dynamic`) in a package: the host tiling
reads the length from x's shape.

The kernel's tiling struct holds the length after ubFactor (hswc.rows.ROW_LENGTH_FIELD), which
the host function computes as the product of some of x's dims (hsg-tile-on-cores: the reduced
ones, tensor.dim); its tiling counts rows, x's elements over that length (none of a length
of 0). A named op's decomposition may pass the length to the kernel a second time, as the f32
scalar a mean divides by (rms_norm's and layer_norm's n): that scalar is no attribute of the
operator, and the host tiling sets it from the length too. Found here from the host function
that launches the kernel (RunTimeRow); the package's host tiling prints it (tiling_lines).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.ir import SSAValue

from hswc.backend.kernels import Kernel
from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.dialects.ascend import constant_index
from hswc.rows import ROW_LENGTH_FIELD
from hswc.tiling import TILING_FIELDS

ROW_LENGTH = "rowLength"
"""The host tiling's C++ variable holding the row length (as the struct's field)."""
CONVERSIONS = (arith.IndexCastOp, arith.SIToFPOp, arith.UIToFPOp, arith.ExtFOp,
               arith.TruncFOp)
"""What may stand between a tensor.dim and the f32 scalar of the row length."""


@dataclass(frozen=True)
class RunTimeRow:
    """What a package knows of a kernel's run-time row length."""

    dims: tuple[int, ...]
    """The output's dims whose product is the row length (those of the input it is read
    from, which has the output's shape)."""
    scalars: tuple[str, ...]
    """The tiling struct's float fields that are the length as f32 (no attributes)."""


def _dims(value: SSAValue) -> Counter[tuple[SSAValue, int]] | None:
    """The (tensor, dim) pairs whose tensor.dim product `value` is, through index casts and
    conversions to float; None when it is not such a product."""
    while isinstance(value.owner, CONVERSIONS):
        value = value.owner.operands[0]
    owner = value.owner
    if isinstance(owner, tensor.DimOp):
        dim = constant_index(owner.index)
        return None if dim is None else Counter([(owner.source, dim)])
    if isinstance(owner, arith.MuliOp):
        lhs, rhs = _dims(owner.lhs), _dims(owner.rhs)
        return None if lhs is None or rhs is None else lhs + rhs
    return None


def run_time_row(launch: hsg.LaunchOp, kernel: Kernel) -> RunTimeRow | None:
    """Of a kernel of a run-time row length, its RunTimeRow as `launch` passes it; None for
    another kernel. OpError where the length is not a product of dims of one input of the
    output's rank (a package reads it from the input's shape)."""
    if not kernel.operator.row_length:
        return None
    length = launch.tiling[len(TILING_FIELDS)]
    dims = _dims(length)
    sources = {source for source, _ in dims} if dims else set()
    rank = len(launch.ys[0].type.get_shape())  # type: ignore[attr-defined]
    source = sources.pop() if len(sources) == 1 else None
    if dims is None or source is None or source not in launch.inputs \
            or len(source.type.get_shape()) != rank:  # type: ignore[attr-defined]
        raise OpError(launch, f"passes a {ROW_LENGTH_FIELD} that is not the product of dims of "
                      "one input of the output's shape, which a package cannot read from the "
                      "shapes")
    fields = kernel.operator.scalar_fields
    scalars = tuple(f for f, v in zip(fields, launch.scalars, strict=True) if _dims(v) == dims)
    return RunTimeRow(tuple(sorted(d for _, d in dims.elements())), scalars)


def row_count(row: RunTimeRow | None, per_row: int | None, group: int = 1) -> str:
    """The tiling's totalNum as C++ (`shape` the output's): its rows of the run-time length
    (none where that is 0), of a static per_row (held by `group` rows together: rows of lanes
    counted in whole groups, Description.row_group), or its elements."""
    if row is not None:
        return f"({ROW_LENGTH} > 0 ? shape.GetShapeSize() / {ROW_LENGTH} : 0)"
    if per_row in (None, 1) and group == 1:
        return "shape.GetShapeSize()"
    return f"shape.GetShapeSize() / {per_row}" + ("" if group == 1 else f" * {group}")


def length_lines(row: RunTimeRow | None) -> list[str]:
    """TilingFunc's line reading the row length from the output's shape (`shape`)."""
    if row is None:
        return []
    product = " * ".join(f"shape.GetDim({d})" for d in row.dims)
    return [f"const int64_t {ROW_LENGTH} = {product};"]


def tiling_lines(row: RunTimeRow | None) -> str:
    """TilingFunc's lines after the generated tiling: the length and its f32 scalars in the
    tiling struct."""
    if row is None:
        return ""
    lines = [f"tilingData->{ROW_LENGTH_FIELD} = {ROW_LENGTH};",
             *(f"tilingData->{f} = static_cast<float>({ROW_LENGTH});" for f in row.scalars)]
    return "".join(f"    {line}\n" for line in lines)
