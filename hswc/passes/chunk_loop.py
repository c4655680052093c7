"""The scf.for around a chunk op (hsg.elementwise_chunk or hsg.row_chunk) that
convert-hsg-to-ascend replaces: the kernel's UB set-up goes before that loop, so what it reads
must be defined outside it. One check for the elementwise and the row kernels."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue

from hswc.diagnostics import OpError


def _defined_outside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is None or not loop.is_ancestor(op)


def chunk_loop(chunk: Operation, slice_offset: SSAValue, slice_size: SSAValue,
               ub_factor: SSAValue) -> scf.ForOp:
    """The chunk's loop; OpError unless the chunk sits directly in it with its slice and UB
    factor defined outside it."""
    loop = chunk.parent_op()
    if not isinstance(loop, scf.ForOp):
        raise OpError(chunk, "must sit directly in the scf.for of hsg-block-into-ub")
    for name, value in (("slice_offset", slice_offset), ("slice_size", slice_size),
                        ("ub_factor", ub_factor)):
        if not _defined_outside(value, loop):
            raise OpError(chunk, f"{name} must be defined outside the chunk loop, so the UB "
                                 "set-up can precede it")
    return loop
