"""The reductions and the mask/repeat calls of the ascend dialect on a batch of UB arenas.

ReduceSum / ReduceMax / ReduceMin (count form: hswc.interpreter.ascendc_reduce), the level-0
binary arithmetic, WholeReduceSum / Max / Min and Brcb (hswc.interpreter.ascendc_repeat), each
once per part of the active cores that agree on addresses, counts and masks, for the SoC family
the run models (its API table says which element types each call takes exactly; its
implementation decides the order of a sum, hswc.reduce_semantics). Every UB byte a call writes
is recorded for the scalar unit's reads (hswc.interpreter.scalar_order); a count-form reduction
whose implementation ends with its own SetFlag / WaitFlag<V_S> (A2/A3 every one, Ascend 950
ReduceSum: hswc.reduce_semantics.vector_passes) orders the V pipe's writes before the scalar
unit there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls

from hswc import reduce_semantics
from hswc.dialects import ascend
from hswc.dialects.ascend_verify import api_name
from hswc.interpreter import ascendc_reduce, ascendc_repeat
from hswc.interpreter.ascend_vector_functions import check_api_table
from hswc.interpreter.ascendc_repeat import Operand
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.on_cores import on_cores, require_count, require_tensor, ub_view
from hswc.interpreter.tensors import LocalTensor
from hswc.interpreter.values import Rows

LANE_OPS = {ascend.AddRepeatOp: "add", ascend.SubRepeatOp: "sub", ascend.MulRepeatOp: "mul",
            ascend.DivRepeatOp: "div", ascend.MaxRepeatOp: "max", ascend.MinRepeatOp: "min"}
"""The lane operation (hswc.interpreter.ascendc_arith.LANE_OPS) of each binary repeat call."""


def _live(st: KernelState, api: str, *tensors: Any) -> list[LocalTensor]:
    live = [require_tensor(t, api) for t in tensors]
    for t in live:
        st.check_live(t, api)
    return live


@register_impls
class AscendReduceFunctions(MachineFunctions):
    """ReduceSum, ReduceMax, ReduceMin; Add ... Min with repeat parameters; WholeReduceSum,
    WholeReduceMax, WholeReduceMin; Brcb."""

    @property
    def family(self) -> str:
        return self.machine.platform.api

    # region the count form

    def _reduce(self, op: ascend.ReduceCountOp, args: PythonValues) -> PythonValues:
        check_api_table(self.machine, op)
        api, kind, family = api_name(op), op.KIND, self.family

        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
            dst, src, work = _live(st, api, *values[:3])
            count = require_count(values[3])
            ub = batch.ub_rows(rows)
            size = dst.dtype.itemsize
            ascendc_reduce.reduce_count(kind, family, ub_view(ub, dst, align=size),
                                        ub_view(ub, src), ub_view(ub, work), count)
            batch.write_back(rows, ub)
            if count:
                need, _ = ascendc_reduce.work_elements(kind, family, count, size)
                order = batch.scalar_order
                order.write("V", work.addr, work.addr + need * size, api)
                order.write("V", dst.addr, dst.addr + size, api)
                if reduce_semantics.vector_passes(count, kind, family, size)[1]:
                    order.order_pipe("V")  # the implementation's own WaitFlag<V_S>
            self.machine.emit(op, rows, count, count * size)

        on_cores(self.machine, op, args, False, body)
        return ()

    @impl(ascend.ReduceSumOp)
    def run_reduce_sum(self, interpreter: Interpreter, op: ascend.ReduceSumOp,
                       args: PythonValues) -> PythonValues:
        return self._reduce(op, args)

    @impl(ascend.ReduceMaxOp)
    def run_reduce_max(self, interpreter: Interpreter, op: ascend.ReduceMaxOp,
                       args: PythonValues) -> PythonValues:
        return self._reduce(op, args)

    @impl(ascend.ReduceMinOp)
    def run_reduce_min(self, interpreter: Interpreter, op: ascend.ReduceMinOp,
                       args: PythonValues) -> PythonValues:
        return self._reduce(op, args)

    # endregion
    # region the mask/repeat calls

    def _repeat(self, op: ascend.RepeatOp, args: PythonValues, tensors: int, call: Any
                ) -> PythonValues:
        """call(ub rows, live tensors, the mask (or None) then the repeat) on every part; it
        returns the UB byte offsets it wrote, `size` bytes each."""
        check_api_table(self.machine, op)
        api = api_name(op)

        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
            live = _live(st, api, *values[:tensors])
            numbers = [require_count(v, what) for v, what in
                       zip(values[tensors:], ("mask", "repeat")[-len(values[tensors:]):],
                           strict=True)]
            ub = batch.ub_rows(rows)
            written = call(ub, live, *numbers)
            batch.write_back(rows, ub)
            size = live[0].dtype.itemsize
            batch.scalar_order.write_spans("V", written, size, api)
            self.machine.emit(op, rows, written.size, written.size * size)

        on_cores(self.machine, op, args, False, body)
        return ()

    def _binary(self, op: ascend.BinaryRepeatOp, args: PythonValues) -> PythonValues:
        p, lane_op, family, api = op.params, LANE_OPS[type(op)], self.family, api_name(op)

        def call(ub: np.ndarray, live: list[LocalTensor], mask: int, repeat: int) -> np.ndarray:
            dst, src0, src1 = (
                Operand(name, t.addr, t.nbytes, t.dtype, blk, rep) for name, t, blk, rep in zip(
                    ("dst", "src0", "src1"), live,
                    (p.dst_blk_stride, p.src0_blk_stride, p.src1_blk_stride),
                    (p.dst_rep_stride, p.src0_rep_stride, p.src1_rep_stride), strict=True))
            return ascendc_repeat.binary_repeat(api, lane_op, family, ub, dst, src0, src1, mask,
                                                repeat)

        return self._repeat(op, args, 3, call)

    @impl(ascend.AddRepeatOp)
    def run_add_repeat(self, interpreter: Interpreter, op: ascend.AddRepeatOp,
                       args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.SubRepeatOp)
    def run_sub_repeat(self, interpreter: Interpreter, op: ascend.SubRepeatOp,
                       args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.MulRepeatOp)
    def run_mul_repeat(self, interpreter: Interpreter, op: ascend.MulRepeatOp,
                       args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.DivRepeatOp)
    def run_div_repeat(self, interpreter: Interpreter, op: ascend.DivRepeatOp,
                       args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.MaxRepeatOp)
    def run_max_repeat(self, interpreter: Interpreter, op: ascend.MaxRepeatOp,
                       args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    @impl(ascend.MinRepeatOp)
    def run_min_repeat(self, interpreter: Interpreter, op: ascend.MinRepeatOp,
                       args: PythonValues) -> PythonValues:
        return self._binary(op, args)

    def _whole(self, op: ascend.WholeReduceOp, args: PythonValues) -> PythonValues:
        kind, family = op.KIND, self.family
        strides = (op.stride("dst_rep_stride"), op.stride("src_blk_stride"),
                   op.stride("src_rep_stride"))

        def call(ub: np.ndarray, live: list[LocalTensor], mask: int, repeat: int) -> np.ndarray:
            dst, src = live
            return ascendc_repeat.whole_reduce(
                kind, family, ub, Operand("dst", dst.addr, dst.nbytes, dst.dtype, 0, strides[0]),
                Operand("src", src.addr, src.nbytes, src.dtype, strides[1], strides[2]), mask,
                repeat)

        return self._repeat(op, args, 2, call)

    @impl(ascend.WholeReduceSumOp)
    def run_whole_reduce_sum(self, interpreter: Interpreter, op: ascend.WholeReduceSumOp,
                             args: PythonValues) -> PythonValues:
        return self._whole(op, args)

    @impl(ascend.WholeReduceMaxOp)
    def run_whole_reduce_max(self, interpreter: Interpreter, op: ascend.WholeReduceMaxOp,
                             args: PythonValues) -> PythonValues:
        return self._whole(op, args)

    @impl(ascend.WholeReduceMinOp)
    def run_whole_reduce_min(self, interpreter: Interpreter, op: ascend.WholeReduceMinOp,
                             args: PythonValues) -> PythonValues:
        return self._whole(op, args)

    @impl(ascend.BrcbOp)
    def run_brcb(self, interpreter: Interpreter, op: ascend.BrcbOp,
                 args: PythonValues) -> PythonValues:
        family = self.family
        blk, rep = op.stride("dst_blk_stride"), op.stride("dst_rep_stride")

        def call(ub: np.ndarray, live: list[LocalTensor], repeat: int) -> np.ndarray:
            dst, src = live
            return ascendc_repeat.brcb(
                family, ub, Operand("dst", dst.addr, dst.nbytes, dst.dtype, blk, rep),
                Operand("src", src.addr, src.nbytes, src.dtype), repeat)

        return self._repeat(op, args, 2, call)

    # endregion
