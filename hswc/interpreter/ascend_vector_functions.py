"""The vector instructions of the ascend dialect on the UB arenas of a batch of cores.

Each call runs once (per part of cores that agree on addresses and count) over the typed views
of every active core's arena, through ascendc_api, which checks the instruction's rules
(Compare's whole 256-byte blocks, Cast's pairs and round modes, counts within the tensors).
Tensors taken from a queue must still be live (not freed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls

from hswc.dialects import ascend
from hswc.interpreter import ascendc_api as api
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.on_cores import on_cores, require_count, require_tensor, ub_view
from hswc.interpreter.values import Rows

SELECT_MODES = {
    ascend.SelMode.VSEL_CMPMASK_SPR: "cmpmask_spr",
    ascend.SelMode.VSEL_TENSOR_SCALAR_MODE: "tensor_scalar",
    ascend.SelMode.VSEL_TENSOR_TENSOR_MODE: "tensor_tensor",
}

Call = Callable[[list[np.ndarray], int], None]


@register_impls
class AscendVectorFunctions(MachineFunctions):
    """Muls, Adds, Mul, Duplicate, Compare, CompareScalar, Select and Cast."""

    def _vector(self, op: ascend.VectorOp, args: PythonValues, call: Call) -> PythonValues:
        """call(views of the tensor operands, count) on every part of the active cores."""
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
            self.machine.emit(op, rows, n, n * local[0].dtype.itemsize)

        on_cores(self.machine, op, (*tensors, count), False, body)
        return ()

    @impl(ascend.MulsOp)
    def run_muls(self, interpreter: Interpreter, op: ascend.MulsOp,
                 args: PythonValues) -> PythonValues:
        scalar = op.scalar.value.data
        return self._vector(op, args, lambda v, n: api.muls(v[0], v[1], scalar, n))

    @impl(ascend.AddsOp)
    def run_adds(self, interpreter: Interpreter, op: ascend.AddsOp,
                 args: PythonValues) -> PythonValues:
        scalar = op.scalar.value.data
        return self._vector(op, args, lambda v, n: api.adds(v[0], v[1], scalar, n))

    @impl(ascend.MulOp)
    def run_mul(self, interpreter: Interpreter, op: ascend.MulOp,
                args: PythonValues) -> PythonValues:
        return self._vector(op, args, lambda v, n: api.mul(v[0], v[1], v[2], n))

    @impl(ascend.DuplicateOp)
    def run_duplicate(self, interpreter: Interpreter, op: ascend.DuplicateOp,
                      args: PythonValues) -> PythonValues:
        scalar = op.scalar.value.data
        return self._vector(op, args, lambda v, n: api.duplicate(v[0], scalar, n))

    @impl(ascend.CompareOp)
    def run_compare(self, interpreter: Interpreter, op: ascend.CompareOp,
                    args: PythonValues) -> PythonValues:
        mode = op.mode.data.value
        return self._vector(op, args, lambda v, n: api.compare(v[0], v[1], v[2], mode, n))

    @impl(ascend.CompareScalarOp)
    def run_compare_scalar(self, interpreter: Interpreter, op: ascend.CompareScalarOp,
                           args: PythonValues) -> PythonValues:
        mode, scalar = op.mode.data.value, op.scalar.value.data
        return self._vector(
            op, args, lambda v, n: api.compare_scalar(v[0], v[1], scalar, mode, n))

    @impl(ascend.SelectOp)
    def run_select(self, interpreter: Interpreter, op: ascend.SelectOp,
                   args: PythonValues) -> PythonValues:
        mode = SELECT_MODES[op.mode.data]
        if op.scalar is not None and op.src1 is None:
            scalar = op.scalar.value.data
            return self._vector(
                op, args, lambda v, n: api.select(v[0], v[1], v[2], scalar, mode, n))
        return self._vector(op, args, lambda v, n: api.select(v[0], v[1], v[2], v[3], mode, n))

    @impl(ascend.CastOp)
    def run_cast(self, interpreter: Interpreter, op: ascend.CastOp,
                 args: PythonValues) -> PythonValues:
        mode = op.round_mode.data.value.removeprefix("cast_")
        return self._vector(op, args, lambda v, n: api.cast(v[0], v[1], mode, n))
