"""The hsg ops: the named operators, the host queries, the launch, and per-core slices/chunks.

A named op is *defined* by its golden model (ARCHITECTURE.md, "IR levels"): its impl applies
the machine's model for the run's semantics (hswc.reference.OP_REFERENCES). The slice and chunk
ops run their elementwise body (hswc.interpreter.body) on exactly the GM elements they name, for
each active core. The ascend level is where the interpreter models hardware.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.ir import Operation

from hswc.broadcast import DYNAMIC_DIM, Broadcast, read_broadcast
from hswc.counted_rows import first_rows
from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.dialects.hsg_gated_ops import GATED_OPS, GatedOp
from hswc.dialects.hsg_gated_variants import GATED_VARIANTS, GatedVariantOp
from hswc.dialects.hsg_group_quant import SwigluGroupQuantOp
from hswc.dialects.hsg_group_quant_grad import SwigluGroupQuantGradOp
from hswc.dialects.hsg_norm_ops import NORM_OPS, NormOp
from hswc.dialects.hsg_relu_mask import ReluMaskOp
from hswc.interpreter.body import run_body_values
from hswc.interpreter.launch import FRESH_GM_BYTE, check_operands, run_launch
from hswc.interpreter.machine import Machine, MachineFunctions
from hswc.interpreter.values import core_range, per_row
from hswc.ops import OPS
from hswc.ops.group_quant import decomposed
from hswc.output_windows import read_output_windows
from hswc.reference_gated import run_gated_reference, run_variant_outputs
from hswc.reference_norms import run_reference
from hswc.reference_relu_mask import relu_mask


class HsgFunctions(MachineFunctions):
    """hsg at every level: named ops, host queries, hsg.launch, slices and chunks."""

    def run_named(self, interpreter: Interpreter, op: hsg.NamedOp,
                  args: PythonValues) -> PythonValues:
        """Any named op: its golden model on the inputs, with the op's attributes."""
        check_operands(op, args, op.INPUTS)
        return (self.machine.model(op)(*args, **op.attribute_values(), **op.option_values()),)

    def run_norm(self, interpreter: Interpreter, op: NormOp,
                 args: PythonValues) -> PythonValues:
        """An operator reducing along a dim: its golden model (hswc.reference_norms)."""
        for name, value in zip(op.INPUTS, args, strict=True):
            if not isinstance(value, np.ndarray):
                raise OpError(op, f"{name} is not a tensor value: {type(value).__name__}")
        arrays = [np.asarray(a) for a in args]
        shape = arrays[0].shape
        for name, a in zip(op.INPUTS[1:], arrays[1:], strict=True):
            if a.dtype != arrays[0].dtype:
                raise OpError(op, f"{op.INPUTS[0]} and {name} differ in dtype at run time: "
                              f"{arrays[0].dtype} vs {a.dtype}")
            want = shape if op.EPSILON is None else shape[-1:]
            if a.shape != want:
                raise OpError(op, f"{name} has shape {a.shape}; {op.INPUTS[0]} has shape "
                              f"{shape}, so it must be {want}")
        attributes = ({"dim": op.reduced_dim()} if op.EPSILON is None
                      else {"epsilon": op.epsilon_value()})
        return (run_reference(op.name, arrays, **attributes),)

    def run_gated(self, interpreter: Interpreter, op: GatedOp,
                  args: PythonValues) -> PythonValues:
        """A gated linear unit or its gradient: its golden model (hswc.reference_gated)."""
        arrays = []
        for name, value in zip(op.INPUTS, args, strict=True):
            if not isinstance(value, np.ndarray):
                raise OpError(op, f"{name} is not a tensor value: {type(value).__name__}")
            arrays.append(np.asarray(value))
        x = arrays[op.X_INDEX]
        k = op.split_dim()
        if x.shape[k] % 2:
            raise OpError(op, f"x has shape {x.shape} at run time: dim {k} of "
                          f"{x.shape[k]} elements does not split into two halves")
        if isinstance(op, GatedVariantOp):
            return self._run_variant(op, arrays, k)
        half = (*x.shape[:k], x.shape[k] // 2, *x.shape[k + 1:])
        if len(arrays) > 1 and (arrays[0].shape != half or arrays[0].dtype != x.dtype):
            raise OpError(op, f"grad is {arrays[0].dtype} of shape {arrays[0].shape}; x is "
                          f"{x.dtype} of shape {x.shape}, so it must be {x.dtype} of shape "
                          f"{half}")
        options: dict[str, object] = {"dim": k}
        if op.GELU:
            options.update(approximate=op.approximation(), activate_left=op.left())
        return (run_gated_reference(op.name, arrays, **options),)

    def _run_variant(self, op: GatedVariantOp, arrays: list[np.ndarray],
                     k: int) -> PythonValues:
        """An ops-nn gated variant: its golden model (hswc.reference_gated)."""
        x = arrays[op.X_INDEX]
        half = (*x.shape[:k], x.shape[k] // 2, *x.shape[k + 1:])
        for name, a in zip(op.INPUTS, arrays, strict=True):
            if name == op.INPUTS[op.X_INDEX]:
                continue
            want = half if name in op.half_inputs() else (1,)
            if a.shape != want or a.dtype != x.dtype:
                raise OpError(op, f"{name} is {a.dtype} of shape {a.shape}; it must be "
                              f"{x.dtype} of shape {want}")
        options: dict[str, object] = dict(op.values())
        if "dim" in op.DEFAULTS:
            options["dim"] = k
        return run_variant_outputs(op.name, arrays, **options)

    @impl(ReluMaskOp)
    def run_relu_mask(self, interpreter: Interpreter, op: ReluMaskOp,
                      args: PythonValues) -> PythonValues:
        """ReLU and its mask: the golden model (hswc.reference_relu_mask)."""
        check_operands(op, args, ("x",))
        return relu_mask(args[0])

    @impl(SwigluGroupQuantOp)
    def run_swiglu_group_quant(self, interpreter: Interpreter, op: SwigluGroupQuantOp,
                               args: PythonValues) -> PythonValues:
        """SwigluGroupQuant: its decomposition (hswc.ops.group_quant) run by this interpreter,
        as the linalg level runs it; it has no golden model in hswc (its independent model is
        test/test_swiglu_group_quant.py's)."""
        check_operands(op, args, ("x",))
        function = decomposed(op).ops.first
        assert isinstance(function, func.FuncOp)
        return tuple(interpreter.run_ssacfg_region(function.body, args, op.name))

    @impl(SwigluGroupQuantGradOp)
    def run_swiglu_group_quant_grad(self, interpreter: Interpreter, op: SwigluGroupQuantGradOp,
                                    args: PythonValues) -> PythonValues:
        """SwigluGroupQuantGrad: its golden model (hswc.reference_gated), on operands of their
        static shapes."""
        for name, value, operand in zip(op.operand_names(), args, op.inputs, strict=True):
            t = operand.type
            assert isinstance(t, TensorType)
            if not isinstance(value, np.ndarray) or value.shape != tuple(t.get_shape()):
                raise OpError(op, f"{name} must be a tensor of shape {tuple(t.get_shape())}, "
                              f"got {getattr(value, 'shape', type(value).__name__)}")
        return run_variant_outputs(op.name, list(args), **op.values())

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

    @impl(hsg.FlattenOp)
    def run_flatten(self, interpreter: Interpreter, op: hsg.FlattenOp,
                    args: PythonValues) -> PythonValues:
        return (np.asarray(args[0]).reshape(-1),)

    @impl(hsg.UnflattenOp)
    def run_unflatten(self, interpreter: Interpreter, op: hsg.UnflattenOp,
                      args: PythonValues) -> PythonValues:
        flat, like = (np.asarray(a) for a in args)
        if flat.size != like.size:
            raise OpError(op, f"has {flat.size} elements to give the shape {like.shape} of "
                          f"{like.size} elements")
        return (flat.reshape(like.shape),)

    @impl(hsg.FirstRowsOp)
    def run_first_rows(self, interpreter: Interpreter, op: hsg.FirstRowsOp,
                       args: PythonValues) -> PythonValues:
        """y on its counted rows, the rest the fresh output buffer's bytes (unwritten:
        hswc.counted_rows)."""
        y, counts = (np.asarray(a) for a in args)
        if counts.ndim != 1 or counts.dtype != np.int64:
            raise OpError(op, f"counts is {counts.dtype} of shape {counts.shape} at run time; "
                          "it must be int64 of rank 1")
        return (first_rows(y, counts, op.dims(), FRESH_GM_BYTE),)

    @impl(hsg.LaunchOp)
    def run_launch(self, interpreter: Interpreter, op: hsg.LaunchOp,
                   args: PythonValues) -> PythonValues:
        return run_launch(self.machine, interpreter, op, args)

    @impl(hsg.ElementwiseSliceOp)
    def run_slice(self, interpreter: Interpreter, op: hsg.ElementwiseSliceOp,
                  args: PythonValues) -> PythonValues:
        count, outs = len(op.inputs), len(op.outputs)
        inputs, outputs = args[:count], list(args[count:count + outs])
        offset, size, _ub_factor = args[count + outs:]
        self._per_core(interpreter, op, list(inputs), outputs, offset, size, None)
        return ()

    @impl(hsg.ElementwiseChunkOp)
    def run_chunk(self, interpreter: Interpreter, op: hsg.ElementwiseChunkOp,
                  args: PythonValues) -> PythonValues:
        count, outs = len(op.inputs), len(op.outputs)
        inputs, outputs = args[:count], list(args[count:count + outs])
        slice_offset, slice_size, chunk_offset, chunk_size, ub_factor = args[count + outs:]
        self._per_core(interpreter, op, list(inputs), outputs, slice_offset, slice_size,
                       (chunk_offset, chunk_size, ub_factor))
        return ()

    def _per_core(self, interpreter: Interpreter,
                  op: hsg.ElementwiseSliceOp | hsg.ElementwiseChunkOp,
                  inputs: list[np.ndarray], ys: list[np.ndarray], offset: Any, size: Any,
                  chunk: tuple[Any, Any, Any] | None) -> None:
        """y[range] = body(inputs[range]) for each output y and each active core's range."""
        batch, rows = self.machine.kernel(op)
        n = batch.size
        try:
            broadcast = read_broadcast(op)
            windows = read_output_windows(op)
        except ValueError as error:
            raise OpError(op, str(error)) from None
        if windows is not None and broadcast is None:  # inputs read at the output's index
            broadcast = Broadcast(windows.shape, (None,) * len(inputs))
        if broadcast is not None:
            return self._broadcast_per_core(interpreter, op, broadcast, inputs, ys, offset,
                                            size, chunk, windows)
        offsets, sizes = per_row(offset, n), per_row(size, n)
        chunks = [per_row(v, n) for v in chunk] if chunk is not None else None
        packed = _packed_outputs(op)
        limit = min([a.size for a in inputs] + [y.size * (hsg.PACKED_BITS if p else 1)
                                                for y, p in zip(ys, packed, strict=True)])
        for r in rows.index.tolist():
            start, length = core_range(op, int(batch.cores[r]), int(offsets[r]), int(sizes[r]),
                                       chunks, r, limit, f"the {ys[0].size}-element tensors")
            end = start + length
            values = run_body_values(op.body.block, [a[start:end] for a in inputs],
                                     lambda v, r=r: per_row(interpreter.get_values((v,))[0],
                                                            n)[r])
            for y, value, p in zip(ys, values, packed, strict=True):
                _store(self.machine, op, y, start, value, p)

    def _broadcast_per_core(self, interpreter: Interpreter,
                            op: hsg.ElementwiseSliceOp | hsg.ElementwiseChunkOp,
                            broadcast: Broadcast, inputs: list[np.ndarray], ys: list[np.ndarray],
                            offset: Any, size: Any, chunk: tuple[Any, Any, Any] | None,
                            windows: Broadcast | None = None) -> None:
        """_per_core where some inputs are broadcast: each reads its own GM buffer at the
        indices hswc.broadcast gives for the core's output range; an output with a window
        (hswc.output_windows) is written at the indices its window gives, in the tensor its GM
        buffer holds whole."""
        batch, rows = self.machine.kernel(op)
        n = batch.size
        offsets, sizes = per_row(offset, n), per_row(size, n)
        chunks = [per_row(v, n) for v in chunk] if chunk is not None else None
        if windows is not None and windows.shape != broadcast.shape:
            raise OpError(op, f"hsg.output_windows' shape {list(windows.shape)} is not "
                          f"hsg.broadcast's {list(broadcast.shape)}")
        own = [k for k in range(len(ys)) if windows is None or windows.strides[k] is None]
        y = ys[own[0]] if own else None
        total = y.size if y is not None else windows.total if windows is not None else 0
        broadcast = _at_size(op, broadcast, total)
        for i, a in enumerate(inputs):
            if broadcast.has_static_size(i) and a.size != broadcast.operand_size(i):
                raise OpError(op, f"input {i + 1} holds {a.size} elements; hsg.broadcast reads "
                              f"{broadcast.operand_size(i)}")
        if broadcast.is_static and total != broadcast.total:
            raise OpError(op, f"the output holds {total} elements, not the {broadcast.total} "
                          "of hsg.broadcast's shape")
        for r in rows.index.tolist():
            start, length = core_range(op, int(batch.cores[r]), int(offsets[r]), int(sizes[r]),
                                       chunks, r, total, f"the {total}-element output")
            flat = np.arange(start, start + length, dtype=np.int64)
            indices = [broadcast.index(i, flat) for i in range(len(inputs))]
            for i, (a, index) in enumerate(zip(inputs, indices, strict=True)):
                if index.size and int(index.max()) >= a.size:
                    raise OpError(op, f"input {i + 1} holds {a.size} elements; the core's "
                                  f"range reads element {int(index.max())} of it")
            values = run_body_values(
                op.body.block, [a[index] for a, index in zip(inputs, indices, strict=True)],
                lambda v, r=r: per_row(interpreter.get_values((v,))[0], n)[r])
            for k, (out, value) in enumerate(zip(ys, values, strict=True)):
                if k not in own:
                    assert windows is not None
                    at = windows.index(k, flat)
                    if at.size and int(at.max()) >= out.size:
                        raise OpError(op, f"output {k + 1} holds {out.size} elements; the "
                                      f"core's range writes element {int(at.max())} of it")
                    out[at] = value
                    self.machine.mark_written(out, at, 1)
                    continue
                p = _packed_outputs(op)[k]
                if out.size != (-(-total // hsg.PACKED_BITS) if p else total):
                    raise OpError(op, f"its outputs hold {total} and {out.size} elements: "
                                  "the outputs of one kernel have one shape")
                _store(self.machine, op, out, start, value, p)


def _packed_outputs(op: hsg.ElementwiseSliceOp | hsg.ElementwiseChunkOp) -> list[bool]:
    """Which outputs are stored packed: GM buffers of hsg.BITS_STORAGE the body yields an i1
    for (a ui8 it yields a ui8 for is a ui8 tensor's)."""
    last = op.body.block.last_op
    yielded = [] if last is None else [v.type for v in last.operands]
    return [k < len(yielded)
            and hsg.stores_packed(yielded[k], o.type.get_element_type())  # type: ignore[attr-defined]
            for k, o in enumerate(op.outputs)]


def _store(machine: Machine, op: Operation, y: np.ndarray, start: int, value: np.ndarray,
           packed: bool) -> None:
    """y[start:] = value; a packed output's bits (hsg.BITS_STORAGE: element i bit i % 8 of
    byte i // 8, the least significant first) as np.packbits(..., bitorder="little") packs
    them, from byte start / 8 (the tiling aligns every range's start to 8 elements)."""
    if not packed:
        y[start:start + value.size] = value
        machine.mark_written(y, start, value.size)
        return
    if start % hsg.PACKED_BITS:
        raise OpError(op, f"writes a packed i1 output from element {start}, inside a byte: "
                      "a range's first element must be a multiple of 8")
    data = np.packbits(np.asarray(value, dtype=np.uint8).reshape(-1), bitorder="little")
    at = start // hsg.PACKED_BITS
    y[at:at + data.size] = data
    machine.mark_written(y, at, data.size)


def _at_size(op: Operation, broadcast: Broadcast, total: int) -> Broadcast:
    """A description of dynamic shapes resolved where its one dynamic dim follows from the
    output's flat element count; else as it is (its indices need no run-time size:
    hswc.broadcast), each input then checked by the indices it reads."""
    dynamic = [k for k, n in enumerate(broadcast.shape) if n == DYNAMIC_DIM]
    if len(dynamic) != 1:
        return broadcast
    rest = math.prod(n for n in broadcast.shape if n != DYNAMIC_DIM)
    if rest == 0 or total % rest:
        raise OpError(op, f"the output holds {total} elements, not a multiple of the "
                      f"{rest} of hsg.broadcast's static dims")
    shape = list(broadcast.shape)
    shape[dynamic[0]] = total // rest
    try:
        return broadcast.resolve(shape)
    except ValueError as error:  # above the kernel's bound (hswc.broadcast.Broadcast.bounds)
        raise OpError(op, f"the output holds {total} elements: {error}") from None


def _named_impl(op_type: type[hsg.NamedOp]) -> Callable[..., PythonValues]:
    @impl(op_type)
    def run(self: HsgFunctions, interpreter: Interpreter, op: hsg.NamedOp,
            args: PythonValues) -> PythonValues:
        return self.run_named(interpreter, op, args)

    return run


for _definition in OPS.values():  # one impl per named op, each the same run_named
    setattr(HsgFunctions, f"run_{_definition.name}", _named_impl(_definition.op))


def _norm_impl(op_type: type[NormOp]) -> Callable[..., PythonValues]:
    @impl(op_type)
    def run(self: HsgFunctions, interpreter: Interpreter, op: NormOp,
            args: PythonValues) -> PythonValues:
        return self.run_norm(interpreter, op, args)

    return run


def _gated_impl(op_type: type[GatedOp]) -> Callable[..., PythonValues]:
    @impl(op_type)
    def run(self: HsgFunctions, interpreter: Interpreter, op: GatedOp,
            args: PythonValues) -> PythonValues:
        return self.run_gated(interpreter, op, args)

    return run


for _norm in NORM_OPS:
    setattr(HsgFunctions, f"run_{_norm.name.removeprefix('hsg.')}", _norm_impl(_norm))
for _gated in (*GATED_OPS, *GATED_VARIANTS):
    setattr(HsgFunctions, f"run_{_gated.name.removeprefix('hsg.')}", _gated_impl(_gated))
register_impls(HsgFunctions)
