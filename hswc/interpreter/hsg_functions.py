"""The hsg ops: the operator, the platform queries, the launch, and per-core slices/chunks.

hsg.hard_swish_grad is *defined* by the golden model (ARCHITECTURE.md, "IR levels"), so its
impl, and the impls of the slice and chunk ops that stand for it on one core's GM range, apply
the machine's model (hswc.reference.hard_swish_grad_cann unless a run asks for another) to
exactly the elements the op names. The ascend level is where the interpreter models hardware.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls

from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.interpreter.dtypes import NAMES
from hswc.interpreter.launch import check_operands, run_launch
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.values import per_row
from hswc.tiling import TilingError, compute_tiling


@register_impls
class HsgFunctions(MachineFunctions):
    """hsg at every level: the operator, host queries, hsg.launch, slices and chunks."""

    @impl(hsg.HardSwishGradOp)
    def run_hard_swish_grad(self, interpreter: Interpreter, op: hsg.HardSwishGradOp,
                            args: PythonValues) -> PythonValues:
        grad, x = args
        check_operands(op, grad, x)
        platform = self.machine.platform
        try:
            tiling = compute_tiling(max(grad.size, 0), platform.core_num, platform.ub_size,
                                    NAMES[grad.dtype]).as_json()
        except TilingError:
            tiling = None  # the hsg level has no tiling to fail; only --tiling-json asks
        self.machine.tilings.append(tiling)
        return (self.machine.model(grad, x),)

    @impl(hsg.NumElementsOp)
    def run_num_elements(self, interpreter: Interpreter, op: hsg.NumElementsOp,
                         args: PythonValues) -> PythonValues:
        return (int(np.asarray(args[0]).size),)

    @impl(hsg.GetCoreNumAivOp)
    def run_get_core_num_aiv(self, interpreter: Interpreter, op: hsg.GetCoreNumAivOp,
                             args: PythonValues) -> PythonValues:
        return (self.machine.platform.core_num,)

    @impl(hsg.GetUbSizeOp)
    def run_get_ub_size(self, interpreter: Interpreter, op: hsg.GetUbSizeOp,
                        args: PythonValues) -> PythonValues:
        return (self.machine.platform.ub_size,)

    @impl(hsg.LaunchOp)
    def run_launch(self, interpreter: Interpreter, op: hsg.LaunchOp,
                   args: PythonValues) -> PythonValues:
        return run_launch(self.machine, interpreter, op, args)

    @impl(hsg.HardSwishGradSliceOp)
    def run_slice(self, interpreter: Interpreter, op: hsg.HardSwishGradSliceOp,
                  args: PythonValues) -> PythonValues:
        grad, x, y, offset, size, _ub_factor = args
        self._per_core(op, grad, x, y, offset, size, None)
        return ()

    @impl(hsg.HardSwishGradChunkOp)
    def run_chunk(self, interpreter: Interpreter, op: hsg.HardSwishGradChunkOp,
                  args: PythonValues) -> PythonValues:
        grad, x, y, slice_offset, slice_size, chunk_offset, chunk_size, ub_factor = args
        self._per_core(op, grad, x, y, slice_offset, slice_size,
                       (chunk_offset, chunk_size, ub_factor))
        return ()

    def _per_core(self, op: hsg.HardSwishGradSliceOp | hsg.HardSwishGradChunkOp,
                  grad: np.ndarray, x: np.ndarray, y: np.ndarray, offset: object,
                  size: object, chunk: tuple[object, object, object] | None) -> None:
        """y[range] = model(grad[range], x[range]) for each active core's range."""
        batch, rows = self.machine.kernel(op)
        n = batch.size
        offsets, sizes = per_row(offset, n), per_row(size, n)
        chunks = [per_row(v, n) for v in chunk] if chunk is not None else None
        for r in rows.index.tolist():
            start, length = int(offsets[r]), int(sizes[r])
            core = int(batch.cores[r])
            if chunks is not None:
                c_off, c_len, factor = (int(c[r]) for c in chunks)
                if c_off < 0 or c_len < 0 or c_off + c_len > length or c_len > factor:
                    raise OpError(op, f"chunk [{c_off}, +{c_len}) is not inside core {core}'s "
                                  f"slice of {length} elements in passes of {factor}")
                start, length = start + c_off, c_len
            if start < 0 or length < 0 or start + length > min(grad.size, x.size, y.size):
                raise OpError(op, f"core {core} reaches GM elements [{start}, {start + length}) "
                              f"outside the {y.size}-element tensors")
            end = start + length
            y[start:end] = self.machine.model(grad[start:end], x[start:end])
