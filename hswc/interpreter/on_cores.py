"""Running one AscendC call on the active cores of a batch, in as few numpy calls as possible.

`on_cores` splits the active rows into parts on which the call's operands agree (usually one
part: every core runs the same instruction on the same UB addresses with the same count), and
each part further by the per-core state it reads or changes; the call's body then runs once per
part, and the per-part results are gathered into one value (uniform, or one per core).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
from xdsl.ir import Operation

from hswc.diagnostics import OpError
from hswc.interpreter.ascendc_api import ApiError
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.machine import Machine
from hswc.interpreter.tensors import LocalTensor, RuleError
from hswc.interpreter.values import Rows, Varying, gather, partition
from hswc.platform import UB_BLOCK_BYTES

R = TypeVar("R")
Body = Callable[[CoreBatch, Rows, tuple[Any, ...], KernelState], R]
UbCall = Callable[[list[np.ndarray], int], None]
"""An AscendC call on the typed UB views of its LocalTensor operands, over `count` elements."""


def on_cores(machine: Machine, op: Operation, operands: Sequence[Any], mutate: bool,
             body: Body[R]) -> Any:
    """body(batch, rows, uniform operands, state) for each part of the active rows."""
    batch, rows = machine.kernel(op)
    if len(batch.groups) == 1 and (rows.full or not mutate) and not any(
            isinstance(v, Varying) for v in operands):
        # The usual case: every core agrees on everything, one call does it.
        try:
            return body(batch, rows, tuple(operands), batch.groups[0][1])
        except (RuleError, ApiError) as error:
            raise OpError(op, f"{error} ({_cores(batch, rows)})") from None
    results: list[tuple[Rows, Any]] = []
    for part, values in partition(rows, operands):
        for group, state in batch.states(part, mutate):
            try:
                results.append((group, body(batch, group, values, state)))
            except (RuleError, ApiError) as error:
                raise OpError(op, f"{error} ({_cores(batch, group)})") from None
    return gather(results, batch.size)


def on_ub_tensors(machine: Machine, op: Operation, args: Sequence[Any], call: UbCall) -> None:
    """call(views of the LocalTensor operands, count) on every part of the active cores, for a
    call working inside the UB (the vector instructions, DataCopy UB -> UB) whose operands are
    its tensors then its count. Each tensor must be live; the call is reported with its
    element count and the bytes of its first tensor."""
    *tensors, count = args
    api_name = type(op).__name__.removesuffix("Op")  # CastOp -> Cast, as AscendC spells it

    def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
        *local, n = values
        for tensor in local:
            st.check_live(require_tensor(tensor, api_name), api_name)
        n = require_count(n)
        ub = batch.ub_rows(rows)
        call([ub_view(ub, t) for t in local], n)
        batch.write_back(rows, ub)
        dst = local[0]  # every such call's first tensor is the one it writes
        batch.scalar_order.write("V", dst.addr, dst.addr + min(n * dst.dtype.itemsize,
                                                               dst.nbytes), api_name)
        machine.emit(op, rows, n, n * local[0].dtype.itemsize)

    on_cores(machine, op, (*tensors, count), False, body)


def _cores(batch: CoreBatch, rows: Rows) -> str:
    cores = batch.core_ids(rows)
    text = ", ".join(str(c) for c in cores[:3]) + (", ..." if len(cores) > 3 else "")
    return f"core{'s' if len(cores) > 1 else ''} {text}"


def ub_view(ub: np.ndarray, tensor: LocalTensor, align: int = UB_BLOCK_BYTES) -> np.ndarray:
    """The tensor's bytes in each row of `ub`, as its dtype: shape (rows, elements). Its
    address must be `align`-aligned (32 bytes for most operands)."""
    if tensor.addr % align:
        raise RuleError(f"UB address {tensor.addr} is not {align}-byte aligned")
    if tensor.addr < 0 or tensor.addr + tensor.nbytes > ub.shape[1]:
        raise RuleError(f"UB bytes [{tensor.addr}, {tensor.addr + tensor.nbytes}) are outside "
                        f"the {ub.shape[1]}-byte UB")
    return ub[:, tensor.addr : tensor.addr + tensor.nbytes].view(tensor.dtype)


def require_tensor(value: Any, what: str) -> LocalTensor:
    if not isinstance(value, LocalTensor):
        raise RuleError(f"{what} is not a LocalTensor: {value!r}")
    return value


def require_count(value: Any, what: str = "count") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(f"{what} must be a non-negative index, got {value!r}")
    return value
