"""A package's kernel run by hswc-run's interpreter on the package's own data.

`run_kernel` launches one kernel of a lowered module on flat inputs, as the package's host
would: a host function made for the purpose (in a copy of the module) counts the elements,
calls the kernel's host tiling for the platform, and launches the kernel with the given
attribute values as its scalars. The result is what `hswc-run` computes for that launch: the
golden values of a generic operator's package, and the cross-check of a named op's reference
model against its lowered kernels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

from hswc.backend.kernels import PACKED_TENSOR, Kernel
from hswc.dialects import hsg
from hswc.platform import Platform
from hswc.tiling import RESULT_NAMES, TILING_FIELDS

RUNNER = "hswc_emit_run"
"""The host function added to the copy of the module."""


def _runner(kernel: Kernel, scalars: Sequence[float],
            shapes: Sequence[tuple[int, ...]] | None, output_per_row: int | None,
            row_group: int = 1) -> func.FuncOp:
    count = len(kernel.operator.inputs)
    elements = [IntegerType(1) if e == PACKED_TENSOR else e  # the launch's i1, packed in GM
                for e in kernel.gm_element_types()]  # each tensor's own (a boundary's differ)
    if shapes is not None:  # each input's, each output's (those not given: the last one's)
        shapes = [*shapes, *(shapes[-1] for _ in elements[len(shapes):])]
    types = [TensorType(e, s) for e, s in zip(elements, shapes, strict=True)] \
        if shapes is not None else [TensorType(e, [DYNAMIC_INDEX]) for e in elements]
    block = Block(arg_types=types[:count])
    b = Builder(InsertPoint.at_end(block))
    total = b.insert(hsg.NumElementsOp(block.args[0])).result if shapes is None else \
        b.insert(arith.ConstantOp(IntegerAttr(
            math.prod(shapes[count]) // (output_per_row or 1) * row_group, IndexType()))).result
    cores = b.insert(hsg.GetCoreNumAivOp()).result
    ub = b.insert(hsg.GetUbSizeOp()).result
    length = b.insert(arith.ConstantOp(IntegerAttr(output_per_row or 0, IndexType()))).result
    call = b.insert(func.CallOp(kernel.tiling.sym_name.data, [
        total, cores, ub, *([length] if kernel.operator.row_branches else [])],
        [IndexType()] * len(RESULT_NAMES)))
    values = [b.insert(arith.ConstantOp(FloatAttr(v, Float32Type()))).result for v in scalars]
    reads = kernel.operator.reads or tuple(range(count))  # an input read through several
    tiling, counts = list(call.results[:len(TILING_FIELDS)]), None
    if kernel.operator.row_length:  # a run-time row length: the shapes' (hswc.rows `dynamic`)
        tiling.append(length)
    if kernel.operator.counts:  # run as a package without group_index: groupNum -1, every row
        tiling.append(b.insert(arith.ConstantOp(IntegerAttr(-1, IndexType()))).result)
        counts = b.insert(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
            TensorType(IntegerType(64), [0]), []))).result
    launch = b.insert(hsg.LaunchOp(kernel.func.sym_name.data, call.results[3],
                                   [block.args[i] for i in reads], tiling, values,
                                   types[count:], counts))
    b.insert(func.ReturnOp(*launch.ys))
    return func.FuncOp(RUNNER, (types[:count], types[count:]), Region(block))


def picked_branch(module: ModuleOp, kernel: Kernel, row_length: int,
                  platform: Platform) -> Kernel:
    """Of the branches of a run-time row length (hswc.passes.row_branches), `kernel` with the
    function of the one its tiling picks at `row_length`."""
    from dataclasses import replace

    from hswc.backend.ir_tiling import ir_tiling

    key = ir_tiling(kernel, 1, platform.core_num, platform.ub_size, row_length).tiling_key
    for fn in module.body.block.ops:
        attr = fn.attributes.get(hsg.TILING_KEY_ATTR)
        if isinstance(fn, func.FuncOp) and isinstance(attr, IntegerAttr) \
                and attr.value.data == key and hsg.is_kernel(fn):
            return replace(kernel, func=fn, tiling_key=key)
    return kernel


def run_kernel(module: ModuleOp, kernel: Kernel, inputs: Sequence[np.ndarray],
               attributes: Mapping[str, float], platform: Platform,
               shapes: Sequence[tuple[int, ...]] | None = None,
               output_per_row: int | None = None, row_group: int = 1
               ) -> tuple[np.ndarray, ...]:
    """Each output of `kernel` (of `module`), flat, launched on the flat `inputs` on
    `platform`, its scalars taken from `attributes` by tiling-struct field name; `shapes`:
    each input's and then each output's static shape (a kernel reading broadcast inputs, a row
    kernel; outputs past those given have the last one's), None: any, the first's;
    `output_per_row`: of a row kernel, the first output's elements per row (its tiling counts
    rows), per `row_group` rows (rows of lanes counted in whole groups: Description.row_group).
    An i1 output is a bool array (one stored packed too)."""
    from hswc.runner import compile_module

    if kernel.operator.row_branches:  # the branch the tiling picks at this row length
        kernel = picked_branch(module, kernel, output_per_row or 0, platform)
    copy = module.clone()
    copy.body.block.add_op(_runner(kernel, [attributes[f] for f in kernel.operator.scalar_fields],
                                   shapes, output_per_row, row_group))
    compiled = compile_module(copy, soc=platform.name, function=RUNNER,
                              core_num=platform.core_num, ub_size=platform.ub_size)
    given = [np.ascontiguousarray(a).reshape(-1 if shapes is None else shapes[i])
             for i, a in enumerate(inputs)]
    results = compiled.run(*given).outputs
    return tuple(np.asarray(r).reshape(-1) for r in results)
