"""GlobalTensor::GetValue, LocalTensor::GetValue and LocalTensor::SetValue on a batch of cores.

GetValue reads one element of GM per active core at the GlobalTensor's position plus the
offset, which must lie inside the window SetGlobalBuffer gave it; SetValue stores one element
per active core into a live LocalTensor, at an index inside the tensor. The values may differ
from core to core (a `Varying` of the element dtype). A LocalTensor::GetValue of UB bytes the
vector unit or a GM -> UB copy wrote must come after a SetFlag / WaitFlag<V_S> (MTE2_S) or a
PipeBarrier<PIPE_ALL> (hswc.interpreter.scalar_order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls

from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.dtypes import numpy_dtype
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.on_cores import on_cores, require_tensor, ub_view
from hswc.interpreter.tensors import GlobalTensor, LocalTensor, RuleError
from hswc.interpreter.values import Rows, Varying, per_row


def _ub_element(operands: tuple[Any, ...], st: KernelState, api: str) -> tuple[LocalTensor, int]:
    """The live LocalTensor and the index inside it that `api` (GetValue / SetValue) reads or
    writes."""
    local = require_tensor(operands[0], api)
    st.check_live(local, api)
    i = operands[1]
    if not isinstance(i, int) or not 0 <= i < local.elements:
        raise RuleError(f"{api} at index {i!r} of a {local.elements}-element tensor")
    return local, i


@register_impls
class AscendScalarFunctions(MachineFunctions):
    """The scalar unit's element reads of GM and writes of UB."""

    @impl(ascend.GlobalGetValueOp)
    def run_global_get_value(self, interpreter: Interpreter, op: ascend.GlobalGetValueOp,
                             args: PythonValues) -> PythonValues:
        tensor, offset = args
        if not isinstance(tensor, GlobalTensor):
            raise OpError(op, f"GetValue needs a GlobalTensor, got {tensor!r}")
        batch, rows = self.machine.kernel(op)
        n = batch.size
        pos, base, length = (np.broadcast_to(np.asarray(v, dtype=np.int64), (n,))
                             if isinstance(v, np.ndarray) else per_row(v, n).astype(np.int64)
                             for v in (tensor.pos, tensor.base, tensor.length))
        at = pos + per_row(offset, n).astype(np.int64)
        active = rows.index
        outside = (at[active] < base[active]) | (at[active] >= base[active] + length[active]) \
            | (at[active] < 0) | (at[active] >= tensor.gm.size)
        if np.any(outside):
            i = int(np.argmax(outside))
            core = batch.core_ids(rows)[i]
            raise OpError(op, f"GetValue outside the GlobalTensor on core {core}: element "
                          f"{int(at[active][i])} of a {tensor.gm.size}-element tensor, but "
                          f"SetGlobalBuffer covers [{int(base[active][i])}, "
                          f"{int(base[active][i] + length[active][i])})")
        values = np.zeros(n, dtype=tensor.gm.dtype)
        values[active] = tensor.gm[at[active]]
        self.machine.emit(op, rows)
        return (Varying(values),)

    @impl(ascend.LocalGetValueOp)
    def run_local_get_value(self, interpreter: Interpreter, op: ascend.LocalGetValueOp,
                            args: PythonValues) -> PythonValues:
        tensor, index = args
        batch, _ = self.machine.kernel(op)
        t = op.tensor.type
        assert isinstance(t, ascend.LocalTensorType)
        values = np.zeros(batch.size, dtype=numpy_dtype(t.element_type))

        def body(batch: CoreBatch, rows: Rows, operands: tuple[Any, ...],
                 st: KernelState) -> None:
            local, i = _ub_element(operands, st, "GetValue")
            at = local.addr + i * local.dtype.itemsize
            batch.scalar_order.read(at, at + local.dtype.itemsize, "GetValue")
            values[rows.index] = ub_view(batch.ub_rows(rows), local)[:, i]
            self.machine.emit(op, rows)

        on_cores(self.machine, op, (tensor, index), False, body)
        return (Varying(values),)

    @impl(ascend.SetValueOp)
    def run_set_value(self, interpreter: Interpreter, op: ascend.SetValueOp,
                      args: PythonValues) -> PythonValues:
        tensor, index, value = args
        n = self.machine.kernel(op)[0].size
        values = per_row(value, n)

        def body(batch: CoreBatch, rows: Rows, operands: tuple[Any, ...],
                 st: KernelState) -> None:
            local, i = _ub_element(operands, st, "SetValue")
            ub = batch.ub_rows(rows)
            ub_view(ub, local)[:, i] = rows.take(values).astype(local.dtype)
            batch.write_back(rows, ub)
            self.machine.emit(op, rows)

        on_cores(self.machine, op, (tensor, index), True, body)
        return ()
