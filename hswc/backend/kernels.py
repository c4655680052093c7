"""What a lowered module holds for the printer: one kernel per dtype, its tiling key, host code.

The kernel functions (`hsg.kernel`) become AscendC classes; the tiling key of each is the
constant its host tiling function (`hsg.tiling`, `@hard_swish_grad_tiling_<dt>`) returns last.
The host function that launches them is the aclnn layer's job and prints nothing, but it may
hold only host ops: anything else (an unlowered `hsg.hard_swish_grad`, a `test.op`) is refused
with an error naming the op, as are kernels whose signature is not the launch contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp
from xdsl.ir import Attribute, Operation

from hswc.backend.operator import GM_ARGUMENTS, TILING_STRUCT_FIELDS
from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.dialects.ascend import constant_index, element_type_name
from hswc.passes.hsg_tile_on_cores import tiling_function_name
from hswc.tiling import RESULT_NAMES

HOST_OPS: tuple[type[Operation], ...] = (
    hsg.NumElementsOp,
    hsg.GetCoreNumAivOp,
    hsg.GetUbSizeOp,
    hsg.LaunchOp,
    func.CallOp,
    func.ReturnOp,
)
"""What the launching host function may hold besides arith: the aclnn layer's work."""


@dataclass(frozen=True)
class Kernel:
    """One `hsg.kernel` function and what the printer needs to know about it."""

    func: func.FuncOp
    dtype: str
    element_type: Attribute
    tiling_key: int
    tiling: func.FuncOp
    """Its host tiling function."""


def _is(fn: func.FuncOp, attr: str) -> bool:
    return attr in fn.attributes


def no_rule(op: Operation, where: str = "") -> OpError:
    """The error for an op the printer cannot print; unlowered hsg ops say how to lower them."""
    if op.dialect_name() == "hsg":
        return OpError(op, "is not lowered to the ascend dialect: run --lower-to-ascend first")
    return OpError(op, f"has no AscendC printing rule{where}")


def _check_host(fn: func.FuncOp) -> None:
    for op in fn.body.walk():
        if not isinstance(op, HOST_OPS) and op.dialect_name() != "arith":
            raise no_rule(op, " (host code may only tile and launch)")


def _check_signature(fn: func.FuncOp) -> Attribute:
    """The element type of a kernel taking (grad, x, y: memref<?xT>, totalNum, blockFactor,
    ubFactor: index)."""
    inputs = fn.function_type.inputs.data
    gm, scalars = inputs[: len(GM_ARGUMENTS)], inputs[len(GM_ARGUMENTS):]
    expected = (
        f"({', '.join(GM_ARGUMENTS)}: memref<?xT>, {', '.join(TILING_STRUCT_FIELDS)}: index)"
    )
    if (
        len(gm) != len(GM_ARGUMENTS)
        or len(scalars) != len(TILING_STRUCT_FIELDS)
        or not all(isinstance(t, MemRefType) for t in gm)
        or not all(isinstance(t, IndexType) for t in scalars)
        or fn.function_type.outputs.data
    ):
        raise OpError(fn, f"is a kernel whose arguments are not {expected} with no results")
    elements = {t.get_element_type() for t in gm if isinstance(t, MemRefType)}
    element = elements.pop()
    if elements or not isinstance(element, hsg.SUPPORTED_ELEMENT_TYPES):
        raise OpError(fn, f"is a kernel on {element}; kernels take f16, f32 or bf16 tensors")
    return element


def _tiling_key(module: ModuleOp, kernel: func.FuncOp, dtype: str) -> tuple[int, func.FuncOp]:
    name = tiling_function_name(dtype)
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name and _is(op, hsg.TILING_ATTR):
            ret = op.body.block.last_op
            assert isinstance(ret, func.ReturnOp)
            if len(ret.arguments) != len(RESULT_NAMES):
                raise OpError(op, f"returns {len(ret.arguments)} values, not {len(RESULT_NAMES)}")
            key = constant_index(ret.arguments[-1])
            if key is None:
                raise OpError(ret, "returns a tiling key that is not an arith.constant")
            return key, op
    raise OpError(kernel, f"has no host tiling function @{name} to take its tiling key from")


def collect_kernels(module: ModuleOp) -> list[Kernel]:
    """The module's kernels ordered by tiling key, after checking everything else in it."""
    kernels: list[Kernel] = []
    for op in module.ops:
        if not isinstance(op, func.FuncOp):
            raise OpError(op, "has no AscendC printing rule at module level")
        if _is(op, hsg.KERNEL_ATTR):
            element = _check_signature(op)
            dtype = element_type_name(element)
            key, tiling = _tiling_key(module, op, dtype)
            kernels.append(Kernel(op, dtype, element, key, tiling))
        elif not _is(op, hsg.TILING_ATTR):
            _check_host(op)
    if not kernels:
        raise OpError(module, "holds no hsg.kernel function: nothing to print as AscendC")
    kernels.sort(key=lambda k: k.tiling_key)
    for first, second in pairwise(kernels):
        if first.tiling_key == second.tiling_key:
            raise OpError(second.func, f"has tiling key {first.tiling_key}, "
                          f"as @{first.func.sym_name.data} has")
    return kernels

