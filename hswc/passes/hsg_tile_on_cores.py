"""hsg-tile-on-cores: split each hsg.hard_swish_grad over the vector cores, as CANN's tiling does.

Input: `hsg.hard_swish_grad` ops inside `func.func`s (any rank, static, dynamic or unranked).
Output, per op: host code in its function (`hsg.num_elements`, the platform queries, a call of
the host tiling function, `hsg.launch`), and per element type two new functions:
- `@hard_swish_grad_tiling_<dt>(totalNum, coreNum, ubSize)` -> (totalNum, blockFactor, ubFactor,
  usedCoreNum, tilingKey), marked `hsg.tiling`: the formula of hswc.tiling, checks as cf.assert;
- `@hard_swish_grad_kernel_<dt>(grad, x, y: memref<?xT>, totalNum, blockFactor, ubFactor)`,
  marked `hsg.kernel`: the core's slice from GetBlockIdx(), one `hsg.hard_swish_grad_slice`.
With a static shape and a named platform (`soc`, or `core-num` and `ub-size`), the tiling is
computed here and the launch gets constants; a tiling the reference would refuse is an error.
The kernel-variant options (hswc.passes.kernel_variant_options; the same as
convert-hsg-to-ascend's) choose the UB plan the tiling divides by: the reference's 48 bytes
per element by default, the variant's own buffers otherwise (then recorded on the kernel
function as `hsg.ub_plan`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from hswc.diagnostics import OpError, copy_location, ops_between
from hswc.dialects import ascend, hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.passes.index_arith import IRArith
from hswc.passes.kernel_variant_options import (
    UB_PLAN_ATTR,
    KernelVariantOptions,
    plan_attribute,
)
from hswc.platform import Platform, get_platform
from hswc.tiling import (
    REFERENCE_PLAN,
    RESULT_NAMES,
    TILING_FIELDS,
    KernelVariant,
    TilingError,
    UbPlan,
    block_slice,
    compute_tiling,
    tiling_formula,
    ub_plan,
)


def tiling_function_name(dtype: str) -> str:
    return f"hard_swish_grad_tiling_{dtype}"


def kernel_function_name(dtype: str) -> str:
    return f"hard_swish_grad_kernel_{dtype}"


def _build_tiling_function(dtype: str, plan: UbPlan) -> func.FuncOp:
    """The host TilingFunc as IR: (totalNum, coreNum, ubSize) -> the tiling."""
    index = IndexType()
    block = Block(arg_types=[index] * 3)
    for arg, name in zip(block.args, ("total_num", "core_num", "ub_size"), strict=True):
        arg.name_hint = name
    a = IRArith(InsertPoint.at_end(block))
    tiling = tiling_formula(a, block.args[0], block.args[1], block.args[2], dtype, plan)
    results = tiling.as_tuple()
    for value, name in zip(results, RESULT_NAMES, strict=True):
        if value.name_hint is None:
            value.name_hint = name
    a.builder.insert(func.ReturnOp(*results))
    fn = func.FuncOp(tiling_function_name(dtype), ((index,) * 3, (index,) * 5), Region(block))
    fn.attributes[hsg.TILING_ATTR] = UnitAttr()
    return fn


def _build_kernel_function(dtype: str, element_type: Attribute) -> func.FuncOp:
    """The device kernel: find this core's slice, hand it to hsg.hard_swish_grad_slice."""
    gm = MemRefType(element_type, [DYNAMIC_INDEX])
    index = IndexType()
    block = Block(arg_types=[gm, gm, gm, index, index, index])
    arg_names = ("grad", "x", "y", "total_num", "block_factor", "ub_factor")
    for arg, name in zip(block.args, arg_names, strict=True):
        arg.name_hint = name
    grad, x, y, total_num, block_factor, ub_factor = block.args
    builder = Builder(InsertPoint.at_end(block))
    block_idx = builder.insert(ascend.GetBlockIdxOp()).result
    block_idx.name_hint = "block_idx"
    a = IRArith(InsertPoint.at_end(block))
    offset, length = block_slice(a, total_num, block_factor, block_idx)
    offset.name_hint, length.name_hint = "block_offset", "block_length"
    a.builder.insert(hsg.HardSwishGradSliceOp(grad, x, y, offset, length, ub_factor))
    a.builder.insert(func.ReturnOp())
    fn = func.FuncOp(kernel_function_name(dtype), ((gm, gm, gm, index, index, index), ()),
                     Region(block))
    fn.attributes[hsg.KERNEL_ATTR] = UnitAttr()
    return fn


def _static_num_elements(t: Attribute) -> int | None:
    if isinstance(t, TensorType) and t.has_static_shape():
        count = 1
        for dim in t.get_shape():
            count *= dim
        return count
    return None


@dataclass(frozen=True)
class HsgTileOnCoresPass(KernelVariantOptions, ModulePass):
    """Host tiling + per-core kernel for every hsg.hard_swish_grad (see the module docstring)."""

    name = "hsg-tile-on-cores"

    soc: str | None = None
    """Fold the platform queries to this SoC's figures (hswc.platform)."""
    core_num: int | None = None
    """Fold GetCoreNumAiv() to this (overrides the SoC's)."""
    ub_size: int | None = None
    """Fold the UB size query to this many bytes (overrides the SoC's)."""

    def platform(self) -> tuple[int | None, int | None]:
        """(core count, UB bytes) to fold, each None where the pass options name none."""
        base: Platform | None = None
        if self.soc is not None:
            try:
                base = get_platform(self.soc)
            except ValueError as error:
                raise PassFailedException(f"{self.name}: {error}") from None
        for option, value in (("core-num", self.core_num), ("ub-size", self.ub_size)):
            if value is not None and value < 1:
                raise PassFailedException(
                    f"{self.name}: {option} must be a positive integer, got {value}"
                )
        core_num = self.core_num if self.core_num is not None else (base and base.core_num)
        ub_size = self.ub_size if self.ub_size is not None else (base and base.ub_size)
        return core_num, ub_size

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        core_num, ub_size = self.platform()
        variant = self.kernel_variant(self.name)  # an unknown preset fails before any rewrite
        for hsg_op in [o for o in op.walk() if isinstance(o, hsg.HardSwishGradOp)]:
            self._tile(op, hsg_op, variant, core_num, ub_size)

    def _tile(self, module: ModuleOp, op: hsg.HardSwishGradOp, variant: KernelVariant,
              core_num: int | None, ub_size: int | None) -> None:
        if not isinstance(op.parent_op(), func.FuncOp):
            raise OpError(op, "must be inside a func.func to be tiled: the launch is host code")
        grad_type = op.grad.type
        assert isinstance(grad_type, TensorType | hsg.UnrankedTensorType)
        element_type = grad_type.get_element_type()
        dtype = element_type_name(element_type)
        plan = ub_plan(dtype, variant)
        self._ensure_functions(module, op, dtype, element_type, plan)

        before = op.prev_op
        builder = Builder(InsertPoint.before(op))
        a = IRArith(InsertPoint.before(op))
        total = _static_num_elements(grad_type)
        if total is not None and core_num is not None and ub_size is not None:
            try:
                tiling = compute_tiling(total, core_num, ub_size, dtype, plan)
            except TilingError as error:
                raise OpError(op, f"cannot be tiled for core-num={core_num} ub-size={ub_size}: "
                              f"{error}") from None
            values = [a.const(v, name) for v, name in zip(tiling.as_tuple(), RESULT_NAMES,
                                                          strict=True)]
        else:
            # Named constants: never an earlier constant that the name hints below would rename.
            n = (a.const(total, "total_num") if total is not None
                 else builder.insert(hsg.NumElementsOp(op.grad)).result)
            cores = (a.const(core_num, "core_num") if core_num is not None
                     else builder.insert(hsg.GetCoreNumAivOp()).result)
            ub = (a.const(ub_size, "ub_size") if ub_size is not None
                  else builder.insert(hsg.GetUbSizeOp()).result)
            n.name_hint, cores.name_hint, ub.name_hint = "total_num", "core_num", "ub_size"
            call = builder.insert(
                func.CallOp(tiling_function_name(dtype), [n, cores, ub], [IndexType()] * 5)
            )
            values = list(call.results)
            for value, name in zip(values, RESULT_NAMES, strict=True):
                value.name_hint = name
        launch = hsg.LaunchOp(kernel_function_name(dtype), values[3], op.grad, op.x,
                              values[: len(TILING_FIELDS)])
        builder.insert(launch)
        launch.y.name_hint = op.y.name_hint
        copy_location(op, ops_between(before, op))
        op.y.replace_all_uses_with(launch.y)
        Rewriter.erase_op(op)

    @staticmethod
    def _ensure_functions(module: ModuleOp, op: hsg.HardSwishGradOp, dtype: str,
                          element_type: Attribute, plan: UbPlan) -> None:
        existing = {
            o.sym_name.data for o in module.body.block.ops if isinstance(o, func.FuncOp)
        }
        for name, build in (
            (tiling_function_name(dtype), lambda: _build_tiling_function(dtype, plan)),
            (kernel_function_name(dtype), lambda: _build_kernel_function(dtype, element_type)),
        ):
            if name not in existing:
                function = build()
                if plan != REFERENCE_PLAN:
                    function.attributes[UB_PLAN_ATTR] = plan_attribute(plan)
                copy_location(op, [function])
                module.body.block.add_op(function)

