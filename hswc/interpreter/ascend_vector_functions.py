"""The vector instructions of the ascend dialect on the UB arenas of a batch of cores.

Each call runs once (per part of cores that agree on addresses and count) over the typed views
of every active core's arena, through ascendc_api, which checks the instruction's rules
(Compare's whole 256-byte blocks, Cast's pairs and round modes, counts within the tensors).
Tensors taken from a queue must still be live (not freed). A scalar is the op's attribute or,
for a run-time scalar, the value of its scalar_value operand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.ir import Operation

from hswc import soc_api
from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.dialects.ascend_types import element_type_name
from hswc.dialects.ascend_verify import api_name, local
from hswc.interpreter import ascendc_api as api
from hswc.interpreter import ascendc_repeat
from hswc.interpreter.ascendc_checks import Scalar
from hswc.interpreter.ascendc_repeat import Operand
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.machine import Machine, MachineFunctions
from hswc.interpreter.on_cores import (
    UbCall,
    on_cores,
    on_ub_tensors,
    require_count,
    require_tensor,
)
from hswc.interpreter.values import Rows, Varying, uniform_on

SELECT_MODES = {
    ascend.SelMode.VSEL_CMPMASK_SPR: "cmpmask_spr",
    ascend.SelMode.VSEL_TENSOR_SCALAR_MODE: "tensor_scalar",
    ascend.SelMode.VSEL_TENSOR_TENSOR_MODE: "tensor_tensor",
}

Binary = Callable[[np.ndarray, np.ndarray, np.ndarray, int], None]
Unary = Callable[[np.ndarray, np.ndarray, int], None]
WithScalar = Callable[[np.ndarray, np.ndarray, Scalar, int], None]

BINARY_CALLS: dict[type[ascend.VectorOp], Binary] = {
    ascend.AddOp: api.add,
    ascend.SubOp: api.sub,
    ascend.MulOp: api.mul,
    ascend.DivOp: api.div,
    ascend.MaxOp: api.max_,
    ascend.MinOp: api.min_,
    ascend.AndOp: api.and_,
    ascend.OrOp: api.or_,
}
"""call(dst, src0, src1, count) of each tensor-tensor instruction."""

UNARY_CALLS: dict[type[ascend.VectorOp], Unary] = {
    ascend.AbsOp: api.abs_,
    ascend.ReluOp: api.relu,
    ascend.ExpOp: api.exp,
    ascend.LnOp: api.ln,
    ascend.SqrtOp: api.sqrt,
    ascend.RsqrtOp: api.rsqrt,
    ascend.NotOp: api.not_,
}
"""call(dst, src, count) of each one-source instruction."""

ScalarOps = ascend.MulsOp | ascend.AddsOp | ascend.MaxsOp | ascend.MinsOp | ascend.ShiftLeftOp \
    | ascend.ShiftRightOp
SCALAR_CALLS: dict[type[ascend.VectorOp], WithScalar] = {
    ascend.MulsOp: api.muls,
    ascend.AddsOp: api.adds,
    ascend.MaxsOp: api.maxs,
    ascend.MinsOp: api.mins,
    ascend.ShiftLeftOp: api.shift_left,
    ascend.ShiftRightOp: api.shift_right,
}
"""call(dst, src, scalar, count) of each tensor-scalar instruction."""


def check_api_table(machine: Machine, op: Operation) -> None:
    """An OpError unless the SoC the run models (hswc.soc_api's table of its family) takes the
    op's call on its element type with an exactly specified result."""
    call = api_name(op)
    table = soc_api.table(machine.platform.api)
    if not table.types(call):
        return  # not in the table: Cast and the copies check their own rules
    operand = "src0" if call.startswith("Compare") else "dst"
    elem = element_type_name(local(op, operand).element_type)
    mode = getattr(op, "mode", None)
    if call.startswith("Compare") and mode is not None and table.takes(call, elem) \
            and mode.data.value not in table.compare_modes(elem):
        raise OpError(op, f"{call} on {elem} in CMPMODE {mode.data.value.upper()}: "
                      f"{table.soc_words} ({machine.platform.name}) compares {elem} in "
                      f"{', '.join(m.upper() for m in table.compare_modes(elem))} only")
    if table.exact(call, elem):
        return
    soc = f"{table.soc_words} ({machine.platform.name})"
    if table.takes(call, elem):
        raise OpError(op, f"{call} on {elem}: its result on {soc} is not exactly specified "
                      f"(no documented {elem} rounding)")
    raise OpError(op, f"{call} on {elem}: {soc} has no such call (it takes "
                  f"{table.words(call)})")


@register_impls
class AscendVectorFunctions(MachineFunctions):
    """Every vector instruction: the elementwise families, Duplicate, Compare, CompareScalar
    (and its other name Compares), Select and Cast."""

    def _vector(self, op: ascend.VectorOp, args: PythonValues, call: UbCall) -> PythonValues:
        """call(views of the tensor operands, count) on every part of the active cores, once the
        SoC's API table (hswc.soc_api) says the call takes the operands' element type and its
        result there is exactly specified."""
        self._check_table(op)
        on_ub_tensors(self.machine, op, args, call)
        return ()

    def _check_table(self, op: ascend.VectorOp) -> None:
        check_api_table(self.machine, op)

    def _scalar(self, op: ascend.ScalarSourceOp,
                args: PythonValues) -> tuple[Scalar, PythonValues]:
        """(the op's scalar, its other operands): the attribute's value, or the scalar_value
        operand's (a numpy scalar of the tensors' dtype), which the call takes as it is. The
        operand comes just before count; it must be one number on every active core."""
        if op.scalar is not None:
            return op.scalar.value.data, args
        *rest, value, count = args
        same, scalar = uniform_on(self.machine.rows, value)
        if not same:
            raise OpError(op, "has a scalar that differs between the cores of the launch")
        if isinstance(scalar, bool) or not isinstance(scalar, float | int | np.generic):
            raise OpError(op, f"has a scalar that is not a number: {scalar!r}")
        return scalar, (*rest, count)

    # region the elementwise families: a table per family, one impl per op

    def _binary(self, op: ascend.VectorOp, args: PythonValues) -> PythonValues:
        call = BINARY_CALLS[type(op)]
        return self._vector(op, args, lambda v, n: call(v[0], v[1], v[2], n))

    def _unary(self, op: ascend.VectorOp, args: PythonValues) -> PythonValues:
        call = UNARY_CALLS[type(op)]
        return self._vector(op, args, lambda v, n: call(v[0], v[1], n))

    def _with_scalar(self, op: ascend.VectorOp, args: PythonValues) -> PythonValues:
        assert isinstance(op, ScalarOps)
        call, (scalar, tensors) = SCALAR_CALLS[type(op)], self._scalar(op, args)
        return self._vector(op, tensors, lambda v, n: call(v[0], v[1], scalar, n))

    @impl(ascend.AddOp)
    def run_add(self, interpreter: Interpreter, op: ascend.AddOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.SubOp)
    def run_sub(self, interpreter: Interpreter, op: ascend.SubOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.MulOp)
    def run_mul(self, interpreter: Interpreter, op: ascend.MulOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.DivOp)
    def run_div(self, interpreter: Interpreter, op: ascend.DivOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.MaxOp)
    def run_max(self, interpreter: Interpreter, op: ascend.MaxOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.MinOp)
    def run_min(self, interpreter: Interpreter, op: ascend.MinOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.AndOp)
    def run_and(self, interpreter: Interpreter, op: ascend.AndOp,
                args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.OrOp)
    def run_or(self, interpreter: Interpreter, op: ascend.OrOp,
               args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.AbsOp)
    def run_abs(self, interpreter: Interpreter, op: ascend.AbsOp,
                args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.ReluOp)
    def run_relu(self, interpreter: Interpreter, op: ascend.ReluOp,
                 args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.ExpOp)
    def run_exp(self, interpreter: Interpreter, op: ascend.ExpOp,
                args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.LnOp)
    def run_ln(self, interpreter: Interpreter, op: ascend.LnOp,
               args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.SqrtOp)
    def run_sqrt(self, interpreter: Interpreter, op: ascend.SqrtOp,
                 args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.RsqrtOp)
    def run_rsqrt(self, interpreter: Interpreter, op: ascend.RsqrtOp,
                  args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.NotOp)
    def run_not(self, interpreter: Interpreter, op: ascend.NotOp,
                args: PythonValues) -> PythonValues:
        return self._unary(op, args)

    @impl(ascend.MulsOp)
    def run_muls(self, interpreter: Interpreter, op: ascend.MulsOp,
                 args: PythonValues) -> PythonValues:
        return self._with_scalar(op, args)

    @impl(ascend.AddsOp)
    def run_adds(self, interpreter: Interpreter, op: ascend.AddsOp,
                 args: PythonValues) -> PythonValues:
        return self._with_scalar(op, args)

    @impl(ascend.MaxsOp)
    def run_maxs(self, interpreter: Interpreter, op: ascend.MaxsOp,
                 args: PythonValues) -> PythonValues:
        return self._with_scalar(op, args)

    @impl(ascend.ShiftLeftOp)
    def run_shift_left(self, interpreter: Interpreter, op: ascend.ShiftLeftOp,
                       args: PythonValues) -> PythonValues:
        return self._with_scalar(op, args)

    @impl(ascend.ShiftRightOp)
    def run_shift_right(self, interpreter: Interpreter, op: ascend.ShiftRightOp,
                        args: PythonValues) -> PythonValues:
        return self._with_scalar(op, args)

    @impl(ascend.MinsOp)
    def run_mins(self, interpreter: Interpreter, op: ascend.MinsOp,
                 args: PythonValues) -> PythonValues:
        return self._with_scalar(op, args)

    # endregion
    # region the other calls

    @impl(ascend.DuplicateOp)
    def run_duplicate(self, interpreter: Interpreter, op: ascend.DuplicateOp,
                      args: PythonValues) -> PythonValues:
        if op.scalar is None and isinstance(args[-2], Varying):
            return self._duplicate_per_value(interpreter, op, args)
        scalar, tensors = self._scalar(op, args)
        return self._vector(op, tensors, lambda v, n: api.duplicate(v[0], scalar, n))

    @impl(ascend.DuplicateLanesOp)
    def run_duplicate_lanes(self, interpreter: Interpreter, op: ascend.DuplicateLanesOp,
                            args: PythonValues) -> PythonValues:
        """Duplicate's bitwise-mask form over one repeat (hswc.interpreter.ascendc_repeat
        .duplicate_lanes): lanes [first, first + count) of dst."""
        if op.scalar is None and isinstance(args[-2], Varying):
            return self._duplicate_per_value(interpreter, op, args)
        scalar, (tensor, first, count) = self._scalar(op, args)
        self._check_table(op)
        family = self.machine.platform.api

        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
            dst = require_tensor(values[0], "Duplicate")
            st.check_live(dst, "Duplicate")
            lane, n = require_count(values[1], "first lane"), require_count(values[2])
            ub = batch.ub_rows(rows)
            written = ascendc_repeat.duplicate_lanes(
                family, ub, Operand("dst", dst.addr, dst.nbytes, dst.dtype), scalar, lane, n,
                ascend.MASK_WORD_LANES)
            batch.write_back(rows, ub)
            batch.scalar_order.write_spans("V", written, dst.dtype.itemsize, "Duplicate")
            self.machine.emit(op, rows, written.size, written.size * dst.dtype.itemsize)

        on_cores(self.machine, op, (tensor, first, count), False, body)
        return ()

    @impl(ascend.DuplicateLanesRepeatOp)
    def run_duplicate_lanes_repeat(self, interpreter: Interpreter,
                                   op: ascend.DuplicateLanesRepeatOp,
                                   args: PythonValues) -> PythonValues:
        """Duplicate's bitwise-mask form over `repeat` repeats (ascendc_repeat
        .duplicate_lanes): lanes [first, first + count) of each repeat of dst."""
        check_api_table(self.machine, op)
        family = self.machine.platform.api
        scalar = op.scalar.value.data
        rep = op.stride("dst_rep_stride")

        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
            dst = require_tensor(values[0], "Duplicate")
            st.check_live(dst, "Duplicate")
            lane, n = require_count(values[1], "first lane"), require_count(values[2])
            repeat = require_count(values[3], "repeat")
            ub = batch.ub_rows(rows)
            written = ascendc_repeat.duplicate_lanes(
                family, ub, Operand("dst", dst.addr, dst.nbytes, dst.dtype, 1, rep), scalar,
                lane, n, ascend.MASK_WORD_LANES, repeat)
            batch.write_back(rows, ub)
            batch.scalar_order.write_spans("V", written, dst.dtype.itemsize, "Duplicate")
            self.machine.emit(op, rows, written.size, written.size * dst.dtype.itemsize)

        on_cores(self.machine, op, args, False, body)
        return ()

    def _duplicate_per_value(self, interpreter: Interpreter,
                             op: ascend.DuplicateOp | ascend.DuplicateLanesOp,
                             args: PythonValues) -> PythonValues:
        """Duplicate of a value each core read or computed for itself (a per-row scale's run,
        hswc.vectorizer.broadcast_copy; scalar code on the block index): each core fills with
        its own, as each core's scalar unit passes its own register; the cores are run in
        groups of one value (compared bit for bit, so a NaN keeps its payload)."""
        *rest, value, count = args
        values = value.values
        if values.dtype == object:  # computed per core in scalar code (arith.select, ...)
            if any(isinstance(v, bool) or not isinstance(v, float | int | np.generic)
                   for v in values):
                raise OpError(op, "has a scalar that is not a number on every core")
            values = np.array(list(values))
        bits = values.view(np.dtype(f"u{values.dtype.itemsize}"))
        _, rows = self.machine.kernel(op)
        for pattern in np.unique(rows.take(bits)):
            group = rows.narrow(bits == pattern)
            with self.machine.active(group):
                run = self.run_duplicate if isinstance(op, ascend.DuplicateOp) \
                    else self.run_duplicate_lanes
                run(interpreter, op, (*rest, values[group.index[0]], count))  # type: ignore[arg-type]
        return ()

    @impl(ascend.CompareOp)
    def run_compare(self, interpreter: Interpreter, op: ascend.CompareOp,
                    args: PythonValues) -> PythonValues:
        mode = op.mode.data.value
        return self._vector(op, args, lambda v, n: api.compare(v[0], v[1], v[2], mode, n))

    def _scalar_compare(self, op: ascend.ScalarCompareOp, args: PythonValues) -> PythonValues:
        mode, (scalar, tensors) = op.mode.data.value, self._scalar(op, args)
        return self._vector(
            op, tensors, lambda v, n: api.compare_scalar(v[0], v[1], scalar, mode, n))

    @impl(ascend.CompareScalarOp)
    def run_compare_scalar(self, interpreter: Interpreter, op: ascend.CompareScalarOp,
                           args: PythonValues) -> PythonValues:
        return self._scalar_compare(op, args)

    @impl(ascend.ComparesOp)
    def run_compares(self, interpreter: Interpreter, op: ascend.ComparesOp,
                     args: PythonValues) -> PythonValues:
        return self._scalar_compare(op, args)

    @impl(ascend.SelectOp)
    def run_select(self, interpreter: Interpreter, op: ascend.SelectOp,
                   args: PythonValues) -> PythonValues:
        mode = SELECT_MODES[op.mode.data]
        if op.scalar_source is not None and op.src1 is None:
            scalar, tensors = self._scalar(op, args)
            return self._vector(
                op, tensors, lambda v, n: api.select(v[0], v[1], v[2], scalar, mode, n))
        return self._vector(op, args, lambda v, n: api.select(v[0], v[1], v[2], v[3], mode, n))

    @impl(ascend.CastOp)
    def run_cast(self, interpreter: Interpreter, op: ascend.CastOp,
                 args: PythonValues) -> PythonValues:
        mode = op.round_mode.data.value.removeprefix("cast_")
        family = self.machine.platform.api
        table = soc_api.table(family)
        pair = (element_type_name(local(op, "src").element_type),
                element_type_name(local(op, "dst").element_type))
        modes = table.cast_modes(*pair)
        if op.round_mode.data.value not in modes:
            soc = f"{table.soc_words} ({self.machine.platform.name})"
            takes = f"takes {', '.join(modes)}" if modes else "has no such Cast"
            raise OpError(op, f"Cast from {pair[0]} to {pair[1]} with "
                          f"{op.round_mode.data.value}: {soc} {takes}")
        batch, _ = self.machine.kernel(op)
        return self._vector(op, args,
                            lambda v, n: api.cast(v[0], v[1], mode, n, family, batch.ctrl))

    # endregion
