"""The kernel-structure half of the ascend dialect: block index, GM windows, TPipe/TQue/TBuf,
PipeBarrier and SetFlag / WaitFlag.

Queue and buffer ops change the per-core `KernelState` (hswc.interpreter.core_state), which
checks InitBuffer capacity and alignment, queue depth (AllocTensor on a full queue, DeQue on an
empty one), and that EnQue/FreeTensor get a live tensor of their own queue.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.ir import Operation

from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.float8_casts import set_bits
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.dtypes import numpy_dtype
from hswc.interpreter.machine import Machine, MachineFunctions
from hswc.interpreter.on_cores import on_cores, require_count, require_tensor
from hswc.interpreter.tensors import GlobalTensor, Handle, RuleError
from hswc.interpreter.values import Rows, Varying, raw


def _result_dtype(op: Operation) -> np.dtype:
    """The element dtype of the LocalTensor an op returns."""
    t = op.results[0].type
    assert isinstance(t, ascend.LocalTensorType)
    return numpy_dtype(t.element_type)


@register_impls
class AscendFunctions(MachineFunctions):
    """GetBlockIdx, GlobalTensor set-up, and the TPipe / TQue / TBuf calls."""

    def __init__(self, machine: Machine):
        super().__init__(machine)
        self._dtypes: dict[Operation, np.dtype] = {}

    def _dtype(self, op: Operation) -> np.dtype:
        """The result's element dtype, decoded once per op (these ops run every chunk)."""
        dtype = self._dtypes.get(op)
        if dtype is None:
            dtype = self._dtypes[op] = _result_dtype(op)
        return dtype

    def _handle(self, op: Operation, kind: str, position: Any = None, depth: int = 1) -> Handle:
        name = op.results[0].name_hint or ""
        self.machine.emit(op, self.machine.kernel(op)[1])
        return Handle(kind, self.machine.new_ident(), name, position, depth)

    @impl(ascend.GetBlockIdxOp)
    def run_get_block_idx(self, interpreter: Interpreter, op: ascend.GetBlockIdxOp,
                          args: PythonValues) -> PythonValues:
        batch, _ = self.machine.kernel(op)
        return (Varying(batch.cores) if batch.size > 1 else int(batch.cores[0]),)

    @impl(ascend.GetBlockNumOp)
    def run_get_block_num(self, interpreter: Interpreter, op: ascend.GetBlockNumOp,
                          args: PythonValues) -> PythonValues:
        return (self.machine.kernel(op)[0].block_dim,)

    @impl(ascend.SetGlobalBufferOp)
    def run_set_global_buffer(self, interpreter: Interpreter, op: ascend.SetGlobalBufferOp,
                              args: PythonValues) -> PythonValues:
        gm, offset, length = args
        self.machine.kernel(op)
        return (GlobalTensor(gm, raw(offset), raw(length), raw(offset)),)

    @impl(ascend.SetL2CacheHintOp)
    def run_set_l2_cache_hint(self, interpreter: Interpreter, op: ascend.SetL2CacheHintOp,
                              args: PythonValues) -> PythonValues:
        return ()  # how copies use L2: no value changes (the cost model times it)

    @impl(ascend.SetCtrlSprOp)
    def run_set_ctrl_spr(self, interpreter: Interpreter, op: ascend.SetCtrlSprOp,
                         args: PythonValues) -> PythonValues:
        batch, rows = self.machine.kernel(op)
        if not rows.full:
            raise OpError(op, "writes the CTRL register on some cores of the launch only "
                          "(the interpreter keeps one register per launch)")
        batch.ctrl = set_bits(batch.ctrl, *op.bits)
        return ()

    @impl(ascend.GlobalAtOp)
    def run_global_at(self, interpreter: Interpreter, op: ascend.GlobalAtOp,
                      args: PythonValues) -> PythonValues:
        tensor, offset = args
        return (tensor.at(raw(offset)),)

    @impl(ascend.TPipeOp)
    def run_tpipe(self, interpreter: Interpreter, op: ascend.TPipeOp,
                  args: PythonValues) -> PythonValues:
        return (self._handle(op, "pipe"),)

    @impl(ascend.TQueOp)
    def run_tque(self, interpreter: Interpreter, op: ascend.TQueOp,
                 args: PythonValues) -> PythonValues:
        t = op.result.type
        assert isinstance(t, ascend.TQueType)
        return (self._handle(op, "que", t.position.data, t.depth.data),)

    @impl(ascend.TBufOp)
    def run_tbuf(self, interpreter: Interpreter, op: ascend.TBufOp,
                 args: PythonValues) -> PythonValues:
        t = op.result.type
        assert isinstance(t, ascend.TBufType)
        return (self._handle(op, "buf", t.position.data),)

    @impl(ascend.InitBufferOp)
    def run_init_buffer(self, interpreter: Interpreter, op: ascend.InitBufferOp,
                        args: PythonValues) -> PythonValues:
        _pipe, buffer, length = args
        num = op.num.value.data if op.num is not None else 1

        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
            st.init_buffer(buffer, num, require_count(values[0], "the buffer length"))
            self.machine.emit(op, rows, 0, num * values[0])

        on_cores(self.machine, op, (length,), True, body)
        return ()

    @impl(ascend.AllocTensorOp)
    def run_alloc_tensor(self, interpreter: Interpreter, op: ascend.AllocTensorOp,
                         args: PythonValues) -> PythonValues:
        (que,) = args
        dtype = self._dtype(op)
        return (self._stateful(op, (), lambda st, _: st.alloc(que, dtype)),)

    @impl(ascend.EnQueOp)
    def run_enque(self, interpreter: Interpreter, op: ascend.EnQueOp,
                  args: PythonValues) -> PythonValues:
        que, tensor = args
        self._stateful(op, (tensor,), lambda st, v: st.enque(que, require_tensor(v[0], "EnQue")))
        return ()

    @impl(ascend.DeQueOp)
    def run_deque(self, interpreter: Interpreter, op: ascend.DeQueOp,
                  args: PythonValues) -> PythonValues:
        (que,) = args
        dtype = self._dtype(op)
        return (self._stateful(op, (), lambda st, _: st.deque(que, dtype)),)

    @impl(ascend.FreeTensorOp)
    def run_free_tensor(self, interpreter: Interpreter, op: ascend.FreeTensorOp,
                        args: PythonValues) -> PythonValues:
        que, tensor = args
        self._stateful(op, (tensor,),
                       lambda st, v: st.free(que, require_tensor(v[0], "FreeTensor")))
        return ()

    @impl(ascend.TBufGetOp)
    def run_tbuf_get(self, interpreter: Interpreter, op: ascend.TBufGetOp,
                     args: PythonValues) -> PythonValues:
        (buf,) = args
        dtype = self._dtype(op)
        return (self._stateful(op, (), lambda st, _: st.tbuf_tensor(buf, dtype), False),)

    @impl(ascend.ReinterpretCastOp)
    def run_reinterpret_cast(self, interpreter: Interpreter, op: ascend.ReinterpretCastOp,
                             args: PythonValues) -> PythonValues:
        dtype = self._dtype(op)

        def body(st: KernelState, values: tuple[Any, ...]) -> Any:
            tensor = require_tensor(values[0], "ReinterpretCast")
            st.check_live(tensor, "ReinterpretCast")
            if tensor.nbytes % dtype.itemsize:
                raise RuleError(f"{tensor.nbytes} bytes are not a whole number of {dtype}")
            return tensor.reinterpret(dtype)

        return (self._stateful(op, args, body, False),)

    @impl(ascend.LocalAtOp)
    def run_local_at(self, interpreter: Interpreter, op: ascend.LocalAtOp,
                     args: PythonValues) -> PythonValues:
        def body(st: KernelState, values: tuple[Any, ...]) -> Any:
            tensor = require_tensor(values[0], "LocalTensor::operator[]")
            st.check_live(tensor, "LocalTensor::operator[]")
            offset = require_count(values[1], "the offset")
            if offset > tensor.elements:
                raise RuleError(f"offset {offset} is past the end of a {tensor.elements}-element "
                                "tensor")
            return tensor.at(offset)

        return (self._stateful(op, args, body, False),)

    @impl(ascend.PipeBarrierOp)
    def run_pipe_barrier(self, interpreter: Interpreter, op: ascend.PipeBarrierOp,
                         args: PythonValues) -> PythonValues:
        # The interpreter runs every call to completion in order: a barrier has nothing to wait
        # for but the scalar unit's view of the UB (PIPE_ALL orders every pipe before it). It
        # is reported so a cost model can see it.
        batch, rows = self.machine.kernel(op)
        if op.pipe.data == ascend.Pipe.PIPE_ALL:
            batch.scalar_order.order_all()
        self.machine.emit(op, rows)
        return ()

    @impl(ascend.SetFlagOp)
    def run_set_flag(self, interpreter: Interpreter, op: ascend.SetFlagOp,
                     args: PythonValues) -> PythonValues:
        return self._flag(op, True)

    @impl(ascend.WaitFlagOp)
    def run_wait_flag(self, interpreter: Interpreter, op: ascend.WaitFlagOp,
                      args: PythonValues) -> PythonValues:
        return self._flag(op, False)

    def _flag(self, op: ascend.FlagOp, set_: bool) -> PythonValues:
        """SetFlag / WaitFlag: the batch's flags (hswc.interpreter.scalar_order)."""
        batch, rows = self.machine.kernel(op)
        order = batch.scalar_order
        try:
            (order.set_flag if set_ else order.wait_flag)(op.event.data, op.id)
        except RuleError as error:
            raise OpError(op, str(error)) from None
        self.machine.emit(op, rows)
        return ()

    def _stateful(self, op: Operation, operands: tuple[Any, ...], call: Any,
                  mutate: bool = True) -> Any:
        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> Any:
            result = call(st, values)
            self.machine.emit(op, rows)
            return result

        return on_cores(self.machine, op, operands, mutate, body)
