"""hsg.launch: run a kernel on `blockDim` vector cores, a batch of cores at a time.

The host's tensors become flat GM buffers (their elements in C order), y a
fresh one filled with a non-zero byte pattern (GM is not zeroed either, so an element no core
writes shows up). Cores run in batches of at most the platform's core count, as the hardware
runs a launch with more blocks than cores in waves; the cores of a batch run in lock-step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.interpreter import Interpreter
from xdsl.traits import SymbolTable

from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.dtypes import NAMES
from hswc.interpreter.machine import Machine
from hswc.tiling import TILING_FIELDS, TILING_KEYS

FRESH_GM_BYTE = 0x5B
"""What y holds before the kernel writes it: 235.375 in f16, about 6e16 in bf16 and f32."""


def check_operands(op: hsg.HardSwishGradOp | hsg.LaunchOp, grad: Any, x: Any) -> None:
    """grad and x as the operator contract wants them at run time: same dtype and shape."""
    for name, value in (("grad", grad), ("x", x)):
        if not isinstance(value, np.ndarray):
            raise OpError(op, f"{name} is not a tensor value: {type(value).__name__}")
    if grad.dtype != x.dtype:
        raise OpError(op, f"grad and x differ in dtype at run time: {grad.dtype} vs {x.dtype}")
    if grad.shape != x.shape:
        raise OpError(op, f"grad and x differ in shape at run time: {grad.shape} vs {x.shape}")


def run_launch(machine: Machine, interpreter: Interpreter, op: hsg.LaunchOp,
               args: tuple[Any, ...]) -> tuple[np.ndarray]:
    block_dim, grad, x, *tiling = args
    check_operands(op, grad, x)
    if not isinstance(block_dim, int) or block_dim < 0:
        raise OpError(op, f"has block dim {block_dim!r}; it must be a non-negative index")
    kernel = SymbolTable.lookup_symbol(interpreter.module, op.kernel)
    if not isinstance(kernel, func.FuncOp):
        raise OpError(op, f"launches {op.kernel}, which is not a func.func in this module")
    expected = 3 + len(tiling)
    if len(kernel.function_type.inputs) != expected:
        raise OpError(op, f"passes {expected} arguments but @{kernel.sym_name.data} takes "
                      f"{len(kernel.function_type.inputs)}")
    machine.tilings.append(_record(interpreter, op, grad.dtype, block_dim, tiling))
    grad_gm = grad.reshape(-1)
    x_gm = x.reshape(-1)
    y_gm = np.empty_like(grad_gm)
    y_gm.view(np.uint8).fill(FRESH_GM_BYTE)
    wave = max(1, machine.platform.core_num)
    for start in range(0, block_dim, wave):
        cores = np.arange(start, min(block_dim, start + wave), dtype=np.int64)
        batch = CoreBatch(cores, block_dim, machine.platform.ub_size)
        with machine.running(batch):
            interpreter.call_op(kernel, (grad_gm, x_gm, y_gm, *tiling))
    return (y_gm.reshape(grad.shape),)


def _record(interpreter: Interpreter, op: hsg.LaunchOp, dtype: np.dtype, block_dim: int,
            tiling: list[Any]) -> dict[str, int]:
    """The launch's tiling as --tiling-json writes it.

    The tiling key is not an operand of the launch: it is the fifth result of the host tiling
    call that computed the launch's values, or, when the tiling was folded to constants, the
    key of the element type (the same table the tiling function returns it from).
    """
    record = {name: int(v) for name, v in zip(TILING_FIELDS, tiling, strict=False)}
    record["usedCoreNum"] = int(block_dim)
    key = TILING_KEYS.get(NAMES.get(dtype, ""), -1)
    owner = op.block_dim.owner
    if isinstance(owner, func.CallOp) and len(owner.results) == 5:
        (computed,) = interpreter.get_values((owner.results[4],))
        key = int(computed)
    record["tilingKey"] = key
    return record
