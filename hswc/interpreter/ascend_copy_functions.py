"""DataCopy and DataCopyPad between GM and the UB arenas of a batch of cores, and DataCopy
from one UB tensor to another.

Each core's GM side is a GlobalTensor window: the elements a copy reads or writes must lie in
the window SetGlobalBuffer gave it (and in the GM tensor), checked per core before ascendc_api
moves the data for all cores of a part at once (a strided view when the cores' offsets form an
arithmetic progression, as base + blockIdx * blockFactor does). The UB side must be a live
tensor in the position the direction needs: VECIN for GM -> UB, VECOUT for UB -> GM. A copy
UB -> UB takes two live tensors of one dtype at any positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls

from hswc.dialects import ascend
from hswc.interpreter import ascendc_api as api
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.on_cores import (
    on_cores,
    on_ub_tensors,
    require_count,
    require_tensor,
    ub_view,
)
from hswc.interpreter.tensors import GlobalTensor, LocalTensor, RuleError
from hswc.interpreter.values import Rows
from hswc.platform import DATA_COPY_PAD_MAX_BLOCKS, DATA_COPY_PAD_MAX_BYTES, UB_BLOCK_BYTES


def _window_check(batch: CoreBatch, rows: Rows, gm: GlobalTensor, n: int, what: str) -> Any:
    """The GM element offset of each core of `rows`, after checking [pos, pos + n) is inside
    its SetGlobalBuffer window and inside the GM tensor."""
    pos, base, length = (rows.take(v) if isinstance(v, np.ndarray) else v
                         for v in (gm.pos, gm.base, gm.length))
    outside = (np.asarray(pos) < np.asarray(base)) | (np.asarray(pos) + n
                                                       > np.asarray(base) + np.asarray(length))
    outside = outside | (np.asarray(pos) < 0) | (np.asarray(pos) + n > gm.gm.size)
    if np.any(outside):
        i = int(np.argmax(np.broadcast_to(outside, (rows.size,))))
        p, b, ln = (int(np.broadcast_to(v, (rows.size,))[i]) for v in (pos, base, length))
        core = batch.core_ids(rows)[i]
        raise RuleError(
            f"GM {what} outside the GlobalTensor on core {core}: elements [{p}, {p + n}) of a "
            f"{gm.gm.size}-element tensor, but SetGlobalBuffer covers [{b}, {b + ln})"
        )
    return pos


@register_impls
class AscendCopyFunctions(MachineFunctions):
    """DataCopy and DataCopyPad, both directions."""

    @impl(ascend.DataCopyPadOp)
    def run_data_copy_pad(self, interpreter: Interpreter, op: ascend.DataCopyPadOp,
                          args: PythonValues) -> PythonValues:
        dst, src, block_len, *rest = args
        blocks = rest[:1] if op.block_count is not None else []
        gap = rest[-1] if op.ub_gap is not None else 0
        pad = op.pad_value.value.data if op.pad_value is not None else None

        def to_ub(ub: np.ndarray, gm: GlobalTensor, pos: Any, nbytes: int) -> None:
            api.data_copy_pad_gm_to_ub(ub, gm.gm, pos, nbytes, pad is not None,
                                       pad if pad is not None else 0)

        def to_gm(ub: np.ndarray, gm: GlobalTensor, pos: Any, nbytes: int) -> None:
            api.data_copy_pad_ub_to_gm(gm.gm, pos, ub, nbytes)
            self.machine.mark_written(gm.gm, pos, nbytes // gm.gm.dtype.itemsize)

        self._copy(op, dst, src, block_len, True, to_ub, to_gm, blocks[0] if blocks else 1,
                   gap)
        return ()

    @impl(ascend.DataCopyOp)
    def run_data_copy(self, interpreter: Interpreter, op: ascend.DataCopyOp,
                      args: PythonValues) -> PythonValues:
        dst, src, count = args
        if isinstance(op.dst.type, ascend.LocalTensorType) and isinstance(
                op.src.type, ascend.LocalTensorType):
            # UB -> UB works inside the UB like a vector instruction (it runs on the V pipe).
            on_ub_tensors(self.machine, op, args,
                          lambda v, n: api.data_copy_ub_to_ub(v[0], v[1], n))
            return ()

        def to_ub(ub: np.ndarray, gm: GlobalTensor, pos: Any, n: int) -> None:
            api.data_copy_gm_to_ub(ub, gm.gm, pos, n)

        def to_gm(ub: np.ndarray, gm: GlobalTensor, pos: Any, n: int) -> None:
            api.data_copy_ub_to_gm(gm.gm, pos, ub, n)
            item = gm.gm.dtype.itemsize  # DataCopy moves whole 32-byte blocks only
            self.machine.mark_written(gm.gm, pos, n * item // UB_BLOCK_BYTES * UB_BLOCK_BYTES
                                      // item)

        self._copy(op, dst, src, count, False, to_ub, to_gm)
        return ()

    def _copy(self, op: ascend.DataCopyOp | ascend.DataCopyPadOp, dst: Any, src: Any,
              amount: Any, in_bytes: bool, to_ub: Any, to_gm: Any, blocks: Any = 1,
              run_time_gap: Any = 0) -> None:
        """One copy of `amount` (bytes or elements) per block; DataCopyPad's `blocks` blocks
        lie in GM (blockLen + the GM stride) bytes apart and in UB (blockLen rounded up to 32
        bytes + the UB stride's blocks, or `run_time_gap`'s: its `ub_gap`) apart
        (ascend.DataCopyPadOp)."""
        inbound = isinstance(op.src.type, ascend.GlobalTensorType)  # the verifier checked the pair
        api_name = type(op).__name__.removesuffix("Op")
        gm_gap, ub_gap = ((op.stride("src_stride"), op.stride("dst_stride")) if inbound
                          else (op.stride("dst_stride"), op.stride("src_stride"))) \
            if isinstance(op, ascend.DataCopyPadOp) else (0, 0)

        def body(batch: CoreBatch, rows: Rows, values: tuple[Any, ...], st: KernelState) -> None:
            local, amount, gm, count, run_gap = values
            if not isinstance(gm, GlobalTensor):
                raise RuleError(f"{api_name} needs a GlobalTensor on its GM side, got {gm!r}")
            tensor: LocalTensor = require_tensor(local, api_name)
            st.check_live(tensor, api_name)
            want = ascend.TPosition.VECIN if inbound else ascend.TPosition.VECOUT
            if tensor.position != want:
                raise RuleError(f"a copy {'from' if inbound else 'to'} GM needs a "
                                f"{want.value.upper()} tensor, got {tensor.position.value.upper()}")
            amount_ = require_count(amount, "the copy length")
            count_ = require_count(count, "the block count")
            if in_bytes and amount_ > DATA_COPY_PAD_MAX_BYTES:
                raise RuleError(f"DataCopyParams.blockLen is a uint16_t: {amount_} bytes do not "
                                f"fit (at most {DATA_COPY_PAD_MAX_BYTES}); the copy would be "
                                "truncated")
            if count_ > DATA_COPY_PAD_MAX_BLOCKS:
                raise RuleError(f"DataCopyExtParams.blockCount {count_} is above "
                                f"{DATA_COPY_PAD_MAX_BLOCKS}")
            item = tensor.dtype.itemsize
            n = amount_ // item if in_bytes else amount_
            gap_ = require_count(run_gap, "the UB stride") + ub_gap
            if count_ == 0 or n == 0:
                self.machine.emit(op, rows, 0, 0)
                return
            if gm_gap % item:
                raise RuleError(f"the GM stride {gm_gap} bytes is not a multiple of the "
                                f"{item}-byte element")
            gm_step = n + gm_gap // item
            ub_step = (-(-n * item // UB_BLOCK_BYTES) + gap_) * UB_BLOCK_BYTES // item
            pos = _window_check(batch, rows, gm, (count_ - 1) * gm_step + n,
                                "read" if inbound else "write")
            ub = batch.ub_rows(rows)
            view = ub_view(ub, tensor)
            if (count_ - 1) * ub_step > view.shape[-1]:
                raise RuleError(f"{count_} blocks {ub_step * item} bytes apart run past the "
                                f"{tensor.nbytes}-byte UB tensor")
            for b in range(count_):
                (to_ub if inbound else to_gm)(view[..., b * ub_step:], gm, pos + b * gm_step,
                                              amount_)
            batch.write_back(rows, ub)
            if inbound:  # MTE2 writes whole 32-byte blocks (DataCopyPad pads the last one)
                end = tensor.addr + ((count_ - 1) * ub_step * item
                                     + -(-n * item // UB_BLOCK_BYTES) * UB_BLOCK_BYTES)
                batch.scalar_order.write("MTE2", tensor.addr, min(end, tensor.addr +
                                                                  tensor.nbytes), api_name)
            self.machine.emit(op, rows, n * count_, n * count_ * item)

        # A GlobalTensor that differs between cores as a whole (not just in its offsets, which
        # stay per-core arrays inside it) splits the cores like any other operand.
        operands = ((dst, amount, src, blocks, run_time_gap) if inbound
                    else (src, amount, dst, blocks, run_time_gap))
        on_cores(self.machine, op, operands, False, body)
