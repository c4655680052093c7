"""What the package's host tiling computes, and whether each kernel's UB plan fits its target.

The package's TilingFunc is the IR's `hsg.tiling` function printed as C++, so the figures it
will compute are that function's results: `ir_tiling` evaluates it with numbers (with the cost
model's evaluator of index arithmetic, the one that also reads the kernels). The unit tests'
expectations are taken from it, and `check_ub_plan` uses it to refuse, before anything is
written, a package whose kernel would claim more UB than a target SoC has: the kernel's
InitBuffer lengths are evaluated for the tiling that SoC gets, rounded up to 32 bytes as
InitBuffer does, and added up as `hswc-run`'s interpreter adds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import cf
from xdsl.ir import Operation, SSAValue

from hswc.backend.kernels import Kernel
from hswc.cost_model.stream import CostModelError, KernelWalker, evaluate_function
from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.kernel_signature import kernel_arguments
from hswc.platform import COST_FIGURES, DATA_COPY_PAD_MAX_BYTES, UB_BLOCK_BYTES, Platform
from hswc.rows import read_rows
from hswc.tiling import RESULT_NAMES, Tiling, overlong_chunk


class TilingRefused(ValueError):
    """The host tiling fails for these inputs (a `cf.assert` of the IR; TilingFunc's
    ge::GRAPH_FAILED); the message is the assert's."""


def ir_tiling(kernel: Kernel, total_num: int, core_num: int, ub_size: int,
              row_length: int | None = None) -> Tiling[int]:
    """The kernel's host tiling function run on (totalNum, coreNum, ubSize); of the branches
    of a run-time row length (a tiling that takes rowLength: hswc.passes.row_branches), at
    `row_length`, by default one at which the tiling picks this kernel (branch_length)."""
    args = [total_num, core_num, ub_size]
    if len(kernel.tiling.function_type.inputs) == len(args) + 1:
        args.append(branch_length(kernel) if row_length is None else row_length)
    try:
        values = evaluate_function(kernel.tiling, args, COST_FIGURES)
    except CostModelError as error:
        if isinstance(error.op, cf.AssertOp):
            raise TilingRefused(error.op.msg.data) from None
        raise
    if len(values) != len(RESULT_NAMES):
        raise OpError(kernel.tiling, f"returns {len(values)} values, not {len(RESULT_NAMES)}")
    return Tiling(*values)


LONGEST_ROW = 1 << 30
"""A row length above every whole branch's (the segmented branch's, for branch_length)."""


def branch_length(kernel: Kernel) -> int:
    """A run-time row length at which the tiling picks `kernel` among its branches: a whole
    branch's most (hswc.rows: a dynamic row without a segment), else LONGEST_ROW."""
    rows = read_rows(kernel.func)
    return rows.length if rows is not None and rows.segment is None else LONGEST_ROW


@dataclass(frozen=True)
class BufferClaim:
    """One InitBuffer of a kernel, evaluated: `num` buffers of `length` bytes (rounded up)."""

    op: ascend.InitBufferOp
    num: int
    length: int

    @property
    def bytes(self) -> int:
        return self.num * -(-self.length // UB_BLOCK_BYTES) * UB_BLOCK_BYTES


def _defining_ops(kernel: Kernel, values: Sequence[SSAValue]) -> list[Operation]:
    """The ops that compute `values`, in program order (their backward slice)."""
    needed: set[Operation] = set()
    stack = list(values)
    while stack:
        owner = stack.pop().owner
        if isinstance(owner, Operation) and owner not in needed:
            needed.add(owner)
            stack.extend(owner.operands)
    return [op for op in kernel.func.walk() if op in needed]


def buffer_claims(kernel: Kernel, tiling: Tiling[int]) -> list[BufferClaim]:
    """Every InitBuffer of the kernel with its length for `tiling` (on its first core)."""
    inits = [op for op in kernel.func.walk() if isinstance(op, ascend.InitBufferOp)]
    index_args = kernel_arguments(kernel.func).tiling
    values = (tiling.total_num, tiling.block_factor, tiling.ub_factor)
    walker = KernelWalker(kernel.func, 0, tiling.used_core_num,
                          dict(zip(index_args, values, strict=False)), COST_FIGURES)
    for op in _defining_ops(kernel, [init.length for init in inits]):
        walker.step(op)
    return [BufferClaim(op, op.num.value.data if op.num is not None else 1,
                        walker.int(op.length)) for op in inits]


def full_tiling(kernel: Kernel, platform: Platform) -> Tiling[int]:
    """The tiling of a launch that gives every core of `platform` one full UB pass: the
    largest buffers the kernel asks for."""
    probe = ir_tiling(kernel, 1, platform.core_num, platform.ub_size)
    total = max(1, probe.ub_factor * platform.core_num)
    return ir_tiling(kernel, total, platform.core_num, platform.ub_size)


def check_ub_plan(kernels: Sequence[Kernel], platforms: Sequence[Platform]) -> None:
    """OpError unless every kernel's tiling succeeds on every platform, its chunk fits one
    DataCopyPad and its InitBuffers fit the platform's UB (the first one that does not fit is
    named)."""
    for kernel in kernels:
        for platform in platforms:
            where = f"on {platform.name} ({platform.core_num} cores, {platform.ub_size} B of UB)"
            try:
                tiling = full_tiling(kernel, platform)
            except TilingRefused as error:
                raise OpError(kernel.tiling, f"refuses every launch {where}: {error}") from None
            block = overlong_chunk(tiling.ub_factor, kernel.dtype)
            if block is not None:
                raise OpError(kernel.tiling, f"copies {block} bytes per DataCopyPad {where} "
                              f"(ubFactor {tiling.ub_factor} of {kernel.dtype}), more than "
                              f"DataCopyParams' uint16_t blockLen holds "
                              f"({DATA_COPY_PAD_MAX_BYTES}): the package would copy the wrong "
                              "bytes at run time; lower it with a schedule of more bytes per "
                              "element (double buffering, buffers not shared in place)")
            used = 0
            for claim in buffer_claims(kernel, tiling):
                used += claim.bytes
                if used > platform.ub_size:
                    raise OpError(claim.op, f"UB overflow {where} with ubFactor "
                                  f"{tiling.ub_factor}: the InitBuffers up to this one claim "
                                  f"{used} bytes; the package would fail at run time")
