"""convert-hsg-to-ascend: each UB chunk becomes the reference kernel's AscendC calls.

Input: `hsg.hard_swish_grad_chunk` directly inside the scf.for of `hsg-block-into-ub`, with its
slice bounds and ub_factor defined outside that loop.
Output (SPEC.md section 5), all in the `ascend` dialect:
- before the loop (the kernel's Init): GlobalTensors for grad, x, y over the core's slice; a
  TPipe; TQue<VECIN, 1> for x and grad, TQue<VECOUT, 1> for y; TBuf<VECCALC> for the f32 copies
  (f16/bf16 only), the slope, the constants -3, 3, 0, 1 (filled once with Duplicate) and two
  compare masks of max(256, roundup256(ceil(ubFactor / 8))) bytes;
- in the loop, CopyIn (DataCopyPad GM -> UB, EnQue), Compute (DeQue; Cast to f32 or
  ReinterpretCast; Compare GT -3 / LT 3; Muls 0.333333343f; Adds 0.5f; Select with 0, then 1;
  Mul by grad; Cast back, CAST_NONE for f16 and CAST_RINT for bf16; EnQue y; FreeTensor) and
  CopyOut (DeQue, DataCopyPad UB -> GM, FreeTensor). Vector steps over roundup(cur, 64) lanes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import Float32Type, FloatAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.diagnostics import OpError, copy_location, ops_between
from hswc.dialects import hsg
from hswc.dialects.ascend import (
    MASK_ELEMENT_TYPE,
    AddsOp,
    AllocTensorOp,
    CastOp,
    CmpMode,
    CompareOp,
    DataCopyPadOp,
    DeQueOp,
    DuplicateOp,
    EnQueOp,
    FreeTensorOp,
    GlobalAtOp,
    InitBufferOp,
    MulOp,
    MulsOp,
    PipeBarrierOp,
    ReinterpretCastOp,
    RoundMode,
    SelectOp,
    SelMode,
    SetGlobalBufferOp,
    TBufGetOp,
    TBufOp,
    TPipeOp,
    TPosition,
    TQueOp,
    element_size,
)
from hswc.passes.index_arith import IRArith
from hswc.platform import VECTOR_REPEAT_BYTES

F32 = Float32Type()
F32_BYTES = 4
COMPUTE_ALIGN = VECTOR_REPEAT_BYTES // F32_BYTES
"""Vector steps run over whole 256-byte repeats of f32: roundup(cur, 64) lanes."""
MASK_MIN_BYTES = VECTOR_REPEAT_BYTES
SLOPE = struct.unpack("<f", struct.pack("<I", 0x3EAAAAAB))[0]
"""0.333333343f: the kernel multiplies by this instead of dividing by 3."""
QUEUE_DEPTH = 1
"""BUFFER_NUM of the reference kernel: no double buffering."""

CAST_BACK = {"f16": RoundMode.CAST_NONE, "bf16": RoundMode.CAST_RINT}


def f32(value: float) -> FloatAttr:
    return FloatAttr(value, F32)


@dataclass
class KernelState:
    """What Init sets up and every loop iteration uses."""

    element_type: Attribute
    gm_x: SSAValue
    gm_grad: SSAValue
    gm_y: SSAValue
    que_x: SSAValue
    que_grad: SSAValue
    que_y: SSAValue
    bufs: dict[str, SSAValue]

    @property
    def is_f32(self) -> bool:
        return isinstance(self.element_type, Float32Type)


class KernelEmitter:
    """Builds ascend ops at one insertion point, naming values as the reference does."""

    def __init__(self, point: InsertPoint):
        self.builder = Builder(point)
        self.a = IRArith(point)

    def op(self, op: Operation, name: str | None = None) -> SSAValue | None:
        self.builder.insert(op)
        if op.results:
            if name is not None:
                op.results[0].name_hint = name
            return op.results[0]
        return None

    def value(self, op: Operation, name: str) -> SSAValue:
        result = self.op(op, name)
        assert result is not None
        return result

    def barrier(self) -> None:
        self.op(PipeBarrierOp())

    # region Init

    def init(self, chunk: hsg.HardSwishGradChunkOp) -> KernelState:
        grad_type = chunk.grad.type
        assert isinstance(grad_type, MemRefType)
        elem = grad_type.get_element_type()
        offset, length, ub_factor = chunk.slice_offset, chunk.slice_size, chunk.ub_factor
        gm = {
            name: self.value(SetGlobalBufferOp(value, offset, length), f"{name}_gm")
            for name, value in (("x", chunk.x), ("grad", chunk.grad), ("y", chunk.y))
        }
        pipe = self.value(TPipeOp(), "pipe")
        que_x = self.value(TQueOp(TPosition.VECIN, QUEUE_DEPTH), "input_queue_x")
        que_grad = self.value(TQueOp(TPosition.VECIN, QUEUE_DEPTH), "input_queue_grad")
        que_y = self.value(TQueOp(TPosition.VECOUT, QUEUE_DEPTH), "output_queue_y")
        names = ["slope", "lower", "upper", "zero", "one", "greater_mask", "less_mask"]
        if not isinstance(elem, Float32Type):
            names = ["x_fp32", "grad_fp32", *names]
        bufs = {name: self.value(TBufOp(TPosition.VECCALC), f"{name}_buf") for name in names}

        a = self.a
        tensor_bytes = a.name(a.mul(ub_factor, a.const(element_size(elem))), "tensor_bytes")
        float_bytes = a.name(a.mul(ub_factor, a.const(F32_BYTES)), "float_bytes")
        for que in (que_x, que_grad, que_y):
            self.op(InitBufferOp(pipe, que, tensor_bytes, num=QUEUE_DEPTH))
        for name in names[:-2]:
            self.op(InitBufferOp(pipe, bufs[name], float_bytes))
        roundup = a.mul(a.ceil_div(a.ceil_div(ub_factor, a.const(8)),
                                   a.const(MASK_MIN_BYTES)), a.const(MASK_MIN_BYTES))
        mask_bytes = a.name(a.max(roundup, a.const(MASK_MIN_BYTES)), "mask_bytes")
        for name in names[-2:]:
            self.op(InitBufferOp(pipe, bufs[name], mask_bytes))
        for name, value in (("lower", -3.0), ("upper", 3.0), ("zero", 0.0), ("one", 1.0)):
            local = self.value(TBufGetOp(bufs[name], F32), f"{name}_local")
            self.op(DuplicateOp(local, f32(value), ub_factor))
        self.barrier()
        return KernelState(elem, gm["x"], gm["grad"], gm["y"], que_x, que_grad, que_y, bufs)

    # endregion
    # region Process

    def copy_in(self, k: KernelState, chunk_offset: SSAValue, copy_bytes: SSAValue) -> None:
        x_local = self.value(AllocTensorOp(k.que_x, k.element_type), "x_local")
        grad_local = self.value(AllocTensorOp(k.que_grad, k.element_type), "grad_local")
        x_at = self.value(GlobalAtOp(k.gm_x, chunk_offset), "x_gm_at")
        self.op(DataCopyPadOp(x_local, x_at, copy_bytes))
        grad_at = self.value(GlobalAtOp(k.gm_grad, chunk_offset), "grad_gm_at")
        self.op(DataCopyPadOp(grad_local, grad_at, copy_bytes))
        self.op(EnQueOp(k.que_x, x_local))
        self.op(EnQueOp(k.que_grad, grad_local))

    def compute(self, k: KernelState, current_num: SSAValue) -> None:
        x_local = self.value(DeQueOp(k.que_x, k.element_type), "x_local")
        grad_local = self.value(DeQueOp(k.que_grad, k.element_type), "grad_local")
        y_local = self.value(AllocTensorOp(k.que_y, k.element_type), "y_local")
        if k.is_f32:
            x_fp32 = self.value(ReinterpretCastOp(x_local, F32), "x_fp32")
            grad_fp32 = self.value(ReinterpretCastOp(grad_local, F32), "grad_fp32")
        else:
            x_fp32 = self.value(TBufGetOp(k.bufs["x_fp32"], F32), "x_fp32")
            grad_fp32 = self.value(TBufGetOp(k.bufs["grad_fp32"], F32), "grad_fp32")
            self.op(CastOp(x_fp32, x_local, RoundMode.CAST_NONE, current_num))
            self.op(CastOp(grad_fp32, grad_local, RoundMode.CAST_NONE, current_num))
            self.barrier()
        t = {name: self.value(TBufGetOp(k.bufs[name], F32), f"{name}_local")
             for name in ("slope", "lower", "upper", "zero", "one")}
        greater = self.value(TBufGetOp(k.bufs["greater_mask"], MASK_ELEMENT_TYPE), "greater_mask")
        less = self.value(TBufGetOp(k.bufs["less_mask"], MASK_ELEMENT_TYPE), "less_mask")
        a = self.a
        align = a.const(COMPUTE_ALIGN)
        n = a.name(a.mul(a.ceil_div(current_num, align), align), "compute_num")
        slope = t["slope"]
        self.op(CompareOp(greater, x_fp32, t["lower"], CmpMode.GT, n))
        self.op(CompareOp(less, x_fp32, t["upper"], CmpMode.LT, n))
        self.barrier()
        self.op(MulsOp(slope, x_fp32, f32(SLOPE), n))
        self.op(AddsOp(slope, slope, f32(0.5), n))
        self.barrier()
        self.op(SelectOp(slope, greater, slope, t["zero"], SelMode.VSEL_TENSOR_TENSOR_MODE, n))
        self.barrier()
        self.op(SelectOp(slope, less, slope, t["one"], SelMode.VSEL_TENSOR_TENSOR_MODE, n))
        self.barrier()
        if k.is_f32:
            y_fp32 = self.value(ReinterpretCastOp(y_local, F32), "y_fp32")
            self.op(MulOp(y_fp32, grad_fp32, slope, n))
        else:
            self.op(MulOp(slope, grad_fp32, slope, n))
            self.barrier()
            mode = CAST_BACK[hsg.element_type_name(k.element_type)]
            self.op(CastOp(y_local, slope, mode, current_num))
        self.op(EnQueOp(k.que_y, y_local))
        self.op(FreeTensorOp(k.que_x, x_local))
        self.op(FreeTensorOp(k.que_grad, grad_local))

    def copy_out(self, k: KernelState, chunk_offset: SSAValue, copy_bytes: SSAValue) -> None:
        y_local = self.value(DeQueOp(k.que_y, k.element_type), "y_local")
        y_at = self.value(GlobalAtOp(k.gm_y, chunk_offset), "y_gm_at")
        self.op(DataCopyPadOp(y_at, y_local, copy_bytes))
        self.op(FreeTensorOp(k.que_y, y_local))

    # endregion


def _defined_outside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is None or not loop.is_ancestor(op)


def convert_chunk(chunk: hsg.HardSwishGradChunkOp) -> None:
    """Replace one chunk op: Init before its loop, CopyIn/Compute/CopyOut in its place."""
    loop = chunk.parent_op()
    if not isinstance(loop, scf.ForOp):
        raise OpError(chunk, "must sit directly in the scf.for of hsg-block-into-ub")
    for name in ("slice_offset", "slice_size", "ub_factor"):
        if not _defined_outside(getattr(chunk, name), loop):
            raise OpError(chunk, f"{name} must be defined outside the chunk loop, so the UB "
                                 "set-up can precede it")
    before_loop = loop.prev_op
    setup = KernelEmitter(InsertPoint.before(loop))
    state = setup.init(chunk)
    copy_location(chunk, ops_between(before_loop, loop))

    before_chunk = chunk.prev_op
    body = KernelEmitter(InsertPoint.before(chunk))
    size = body.a.const(element_size(state.element_type))
    copy_bytes = body.a.name(body.a.mul(chunk.chunk_size, size), "copy_bytes")
    body.copy_in(state, chunk.chunk_offset, copy_bytes)
    body.compute(state, chunk.chunk_size)
    body.copy_out(state, chunk.chunk_offset, copy_bytes)
    copy_location(chunk, ops_between(before_chunk, chunk))
    Rewriter.erase_op(chunk)


@dataclass(frozen=True)
class ConvertHsgToAscendPass(ModulePass):
    """hsg.hard_swish_grad_chunk -> the reference kernel in AscendC calls (module docstring)."""

    name = "convert-hsg-to-ascend"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for chunk in [o for o in op.walk() if isinstance(o, hsg.HardSwishGradChunkOp)]:
            convert_chunk(chunk)
        for leftover in op.walk():
            if isinstance(leftover, hsg.HardSwishGradOp | hsg.HardSwishGradSliceOp):
                raise OpError(leftover, "must be tiled and blocked before convert-hsg-to-ascend "
                                        "(run hsg-tile-on-cores and hsg-block-into-ub first)")
