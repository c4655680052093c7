"""CopyIn of a broadcast operand (hswc.broadcast): its elements for one UB chunk, one by one.

A chunk covers output elements [base, base + count) (base = the core's slice offset plus the
chunk's offset, flat). A broadcast input's element for output element base + j sits at flat
index sum_k ((base + j) / inner_k % size_k) * stride_k of its own GM buffer, which its
GlobalTensor covers whole. The kernel reads each with the scalar unit and stores it at j of
the VECIN tensor the vector calls read, as a DataCopyPad would have stored an input read at the
output's index:

    for (j = 0; j < count; ++j)
        local.SetValue(j, gm.GetValue(index(base + j)));
    PipeBarrier<PIPE_ALL>();

Any projection works this way, and no UB address but the tensor's own is touched, so no
alignment rule applies; the cost is one scalar load and store per element (a bias row or a
per-row value are read again for every row: the vectorised reads CANN's broadcast kernels use,
a row copied once and replicated with Brcb / Duplicate, are not built yet).
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.broadcast import Broadcast
from hswc.dialects import ascend
from hswc.index_arith import IRArith


def operand_index(a: IRArith, broadcast: Broadcast, i: int, flat: SSAValue) -> SSAValue:
    """Input i's flat index at the output's flat index `flat`, as index arithmetic."""
    strides = broadcast.strides[i]
    assert strides is not None
    index: SSAValue | None = None
    for (inner, size), stride in zip(broadcast.digits(), strides, strict=True):
        if not stride:
            continue
        digit = a.floor_div(flat, a.const(inner)) if inner > 1 else flat
        if inner * size < broadcast.total:  # not the outermost dim: wrap it
            digit = a.rem(digit, a.const(size))
        term = a.mul(digit, a.const(stride)) if stride > 1 else digit
        index = term if index is None else a.add(index, term)
    return a.const(0) if index is None else index


def emit_broadcast_copy(point: InsertPoint, broadcast: Broadcast, i: int, gm: SSAValue,
                        local: SSAValue, base: SSAValue, count: SSAValue) -> None:
    """The loop of the module docstring at `point`."""
    outer = IRArith(point)
    zero, one = outer.const(0), outer.const(1)
    body = Block(arg_types=[IndexType()])
    j = body.args[0]
    j.name_hint = "j"
    inner = IRArith(InsertPoint.at_end(body))
    flat = inner.add(base, j)
    index = operand_index(inner, broadcast, i, flat)
    value = inner.builder.insert(ascend.GlobalGetValueOp(gm, index)).result
    inner.builder.insert(ascend.SetValueOp(local, j, value))
    inner.builder.insert(scf.YieldOp())
    builder = Builder(point)
    builder.insert(scf.ForOp(zero, count, one, [], Region(body)))
    builder.insert(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))
