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

The kernel-variant options (hswc.passes.kernel_variant_options, shared with hsg-tile-on-cores)
change that structure, never its bits: `double-buffer` gives the queues depth 2;
`scalar-compare` uses CompareScalar and Select(VSEL_TENSOR_SCALAR_MODE) with the scalars
-3, 3, 0, 1, so no constant buffers and no Duplicate; `in-place` computes the slope in x's f32
copy (f16/bf16) or x's queue buffer (f32) and the product in grad's f32 copy (f16/bf16) or
straight into y (f32), so no slope buffer; `early-free` frees each input right after its last
read. The buffers come from hswc.tiling.kernel_buffers, the list the UB plan is derived from; a
kernel tiled for another plan (its `hsg.ub_plan`) is refused.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func, scf
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
    CompareScalarOp,
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
from hswc.dialects.ascend_types import element_type_name
from hswc.passes.index_arith import IRArith
from hswc.passes.kernel_variant_options import (
    KernelVariantOptions,
    describe_plan,
    recorded_plan,
)
from hswc.tiling import (
    COMPUTE_ALIGN,
    BufferSize,
    KernelVariant,
    kernel_buffers,
    linear_bytes,
    mask_length,
    ub_plan,
)

F32 = Float32Type()
SLOPE = struct.unpack("<f", struct.pack("<I", 0x3EAAAAAB))[0]
"""0.333333343f: the kernel multiplies by this instead of dividing by 3."""
CONSTANTS = (("lower", -3.0), ("upper", 3.0), ("zero", 0.0), ("one", 1.0))
"""The reference's constant buffers (filled by Duplicate); scalar-compare uses the scalars."""

CAST_BACK = {"f16": RoundMode.CAST_NONE, "bf16": RoundMode.CAST_RINT}
LENGTH_NAMES: dict[BufferSize, str] = {"tensor": "tensor_bytes", "float": "float_bytes"}


def f32(value: float) -> FloatAttr:
    return FloatAttr(value, F32)


@dataclass
class KernelState:
    """What Init sets up and every loop iteration uses."""

    element_type: Attribute
    variant: KernelVariant
    gm_x: SSAValue
    gm_grad: SSAValue
    gm_y: SSAValue
    bufs: dict[str, SSAValue]
    """Every TQue and TBuf of Init, by its hswc.tiling.BufferSpec name."""

    @property
    def is_f32(self) -> bool:
        return isinstance(self.element_type, Float32Type)

    @property
    def que_x(self) -> SSAValue:
        return self.bufs["input_queue_x"]

    @property
    def que_grad(self) -> SSAValue:
        return self.bufs["input_queue_grad"]

    @property
    def que_y(self) -> SSAValue:
        return self.bufs["output_queue_y"]


class KernelEmitter:
    """Builds ascend ops at one insertion point, naming values as the reference does."""

    def __init__(self, point: InsertPoint):
        self.builder = Builder(point)
        self.a = IRArith(point)
        self.freed: list[SSAValue] = []

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

    def init(self, chunk: hsg.HardSwishGradChunkOp, variant: KernelVariant) -> KernelState:
        grad_type = chunk.grad.type
        assert isinstance(grad_type, MemRefType)
        elem = grad_type.get_element_type()
        dtype = element_type_name(elem)
        offset, length, ub_factor = chunk.slice_offset, chunk.slice_size, chunk.ub_factor
        gm = {
            name: self.value(SetGlobalBufferOp(value, offset, length), f"{name}_gm")
            for name, value in (("x", chunk.x), ("grad", chunk.grad), ("y", chunk.y))
        }
        pipe = self.value(TPipeOp(), "pipe")
        specs = kernel_buffers(dtype, variant)
        handles: dict[str, SSAValue] = {}
        for spec in specs:
            if spec.is_queue:
                que = TQueOp(TPosition(spec.position), spec.num)
                handles[spec.name] = self.value(que, spec.name)
        for spec in specs:
            if not spec.is_queue:
                handles[spec.name] = self.value(TBufOp(TPosition.VECCALC), f"{spec.name}_buf")

        # The linear lengths first, the mask length just before the masks (the reference order).
        a = self.a
        sizes = {spec.size for spec in specs}
        lengths: dict[BufferSize, SSAValue] = {}
        for size in LENGTH_NAMES:
            if size in sizes:
                per_element = a.const(linear_bytes(size, dtype))
                lengths[size] = a.name(a.mul(ub_factor, per_element), LENGTH_NAMES[size])
        for spec in specs:
            if spec.size == "mask" and "mask" not in lengths:
                lengths["mask"] = mask_length(a, ub_factor)
            num = spec.num if spec.is_queue else None
            self.op(InitBufferOp(pipe, handles[spec.name], lengths[spec.size], num=num))
        if not variant.scalar_compare:
            for name, value in CONSTANTS:
                local = self.value(TBufGetOp(handles[name], F32), f"{name}_local")
                self.op(DuplicateOp(local, f32(value), ub_factor))
            self.barrier()
        return KernelState(elem, variant, gm["x"], gm["grad"], gm["y"], handles)

    # endregion
    # region Process

    def copy_in(self, k: KernelState, chunk_offset: SSAValue, copy_bytes: SSAValue) -> None:
        x_local = self.value(AllocTensorOp(k.que_x, k.element_type), "x_local")
        if k.variant.x_first:  # hand x to compute before grad is copied
            self.copy_one(x_local, k.gm_x, "x", chunk_offset, copy_bytes)
            self.op(EnQueOp(k.que_x, x_local))
            grad_local = self.value(AllocTensorOp(k.que_grad, k.element_type), "grad_local")
            self.copy_one(grad_local, k.gm_grad, "grad", chunk_offset, copy_bytes)
        else:
            grad_local = self.value(AllocTensorOp(k.que_grad, k.element_type), "grad_local")
            self.copy_one(x_local, k.gm_x, "x", chunk_offset, copy_bytes)
            self.copy_one(grad_local, k.gm_grad, "grad", chunk_offset, copy_bytes)
            self.op(EnQueOp(k.que_x, x_local))
        self.op(EnQueOp(k.que_grad, grad_local))

    def copy_one(self, local: SSAValue, gm: SSAValue, name: str, chunk_offset: SSAValue,
                 copy_bytes: SSAValue) -> None:
        """DataCopyPad of one input's chunk from GM into its queue's tensor."""
        at = self.value(GlobalAtOp(gm, chunk_offset), f"{name}_gm_at")
        self.op(DataCopyPadOp(local, at, copy_bytes))

    def compute(self, k: KernelState, current_num: SSAValue) -> None:
        """The reference order: both inputs, then the slope, then the product."""
        self.freed = []
        if k.variant.x_first:
            self.compute_x_first(k, current_num)
            return
        x_local = self.value(DeQueOp(k.que_x, k.element_type), "x_local")
        grad_local = self.value(DeQueOp(k.que_grad, k.element_type), "grad_local")
        y_local = self.value(AllocTensorOp(k.que_y, k.element_type), "y_local")
        x_fp32, grad_fp32 = self.as_f32(k, (("x", k.que_x, x_local),
                                            ("grad", k.que_grad, grad_local)), current_num)
        if not k.is_f32:
            self.barrier()
        slope, n = self.slope(k, x_local, x_fp32, current_num)
        self.barrier()
        self.finish(k, (x_local, grad_local, y_local), grad_fp32, slope, n, current_num)

    def compute_x_first(self, k: KernelState, current_num: SSAValue) -> None:
        """x-first: the slope from x while grad is still being copied, then grad and y."""
        x_local = self.value(DeQueOp(k.que_x, k.element_type), "x_local")
        (x_fp32,) = self.as_f32(k, (("x", k.que_x, x_local),), current_num)
        if not k.is_f32:
            self.barrier()
        slope, n = self.slope(k, x_local, x_fp32, current_num)
        # grad's cast does not depend on the selects: it shares the barrier before the Mul.
        grad_local = self.value(DeQueOp(k.que_grad, k.element_type), "grad_local")
        (grad_fp32,) = self.as_f32(k, (("grad", k.que_grad, grad_local),), current_num)
        self.barrier()
        # y is taken only now, so the slope never waits for the previous chunk's copy-out.
        y_local = self.value(AllocTensorOp(k.que_y, k.element_type), "y_local")
        self.finish(k, (x_local, grad_local, y_local), grad_fp32, slope, n, current_num)

    def as_f32(self, k: KernelState, inputs: tuple[tuple[str, SSAValue, SSAValue], ...],
               current_num: SSAValue) -> list[SSAValue]:
        """Each (name, queue, tensor) input as f32: its ReinterpretCast (f32), or its TBuf's
        tensor Cast from it (f16/bf16; every Get before the Casts, as the reference does)."""
        if k.is_f32:
            return [self.value(ReinterpretCastOp(local, F32), f"{name}_fp32")
                    for name, _, local in inputs]
        copies = [self.value(TBufGetOp(k.bufs[f"{name}_fp32"], F32), f"{name}_fp32")
                  for name, _, _ in inputs]
        for copy, (_, _, local) in zip(copies, inputs, strict=True):
            self.op(CastOp(copy, local, RoundMode.CAST_NONE, current_num))
        if k.variant.early_free:  # the f32 copies hold all the compute needs from here on
            for _, que, local in inputs:
                self.free(que, local)
        return copies

    def finish(self, k: KernelState, tensors: tuple[SSAValue, SSAValue, SSAValue],
               grad_fp32: SSAValue, slope: SSAValue, n: SSAValue, current_num: SSAValue) -> None:
        """The product into y (x_local, grad_local, y_local), y's EnQue and the inputs' frees."""
        x_local, grad_local, y_local = tensors
        self.product(k, y_local, grad_fp32, slope, n, current_num)
        self.op(EnQueOp(k.que_y, y_local))
        self.free(k.que_x, x_local)
        self.free(k.que_grad, grad_local)

    def slope(self, k: KernelState, x_local: SSAValue, x_fp32: SSAValue,
              current_num: SSAValue) -> tuple[SSAValue, SSAValue]:
        """Compare, Muls, Adds and the two Selects; (the slope tensor, compute_num)."""
        v = k.variant
        # The slope lives in its own buffer, or (in-place) in x's f32 copy / x's queue buffer:
        # the compares read x before the Muls overwrites it, with a barrier in between.
        t = {name: self.value(TBufGetOp(k.bufs[name], F32), f"{name}_local")
             for name in ("slope", *(c for c, _ in CONSTANTS)) if name in k.bufs}
        slope = t.get("slope", x_fp32)
        greater = self.value(TBufGetOp(k.bufs["greater_mask"], MASK_ELEMENT_TYPE), "greater_mask")
        less = self.value(TBufGetOp(k.bufs["less_mask"], MASK_ELEMENT_TYPE), "less_mask")
        a = self.a
        align = a.const(COMPUTE_ALIGN)
        n = a.name(a.mul(a.ceil_div(current_num, align), align), "compute_num")
        if v.scalar_compare:
            self.op(CompareScalarOp(greater, x_fp32, f32(-3.0), CmpMode.GT, n))
            self.op(CompareScalarOp(less, x_fp32, f32(3.0), CmpMode.LT, n))
        else:
            self.op(CompareOp(greater, x_fp32, t["lower"], CmpMode.GT, n))
            self.op(CompareOp(less, x_fp32, t["upper"], CmpMode.LT, n))
        self.barrier()
        self.op(MulsOp(slope, x_fp32, f32(SLOPE), n))
        if v.early_free and k.is_f32 and not v.in_place:  # Muls was x's last read
            self.free(k.que_x, x_local)
        self.op(AddsOp(slope, slope, f32(0.5), n))
        self.barrier()
        self.select(slope, greater, t.get("zero"), 0.0, n)
        self.barrier()
        self.select(slope, less, t.get("one"), 1.0, n)
        return slope, n

    def product(self, k: KernelState, y_local: SSAValue, grad_fp32: SSAValue, slope: SSAValue,
                n: SSAValue, current_num: SSAValue) -> None:
        """y = grad * slope: straight into y (f32), or in f32 and cast back (f16, bf16)."""
        if k.is_f32:
            y_fp32 = self.value(ReinterpretCastOp(y_local, F32), "y_fp32")
            self.op(MulOp(y_fp32, grad_fp32, slope, n))
            return
        product = grad_fp32 if k.variant.in_place else slope
        self.op(MulOp(product, grad_fp32, slope, n))
        self.barrier()
        mode = CAST_BACK[element_type_name(k.element_type)]
        self.op(CastOp(y_local, product, mode, current_num))

    def free(self, que: SSAValue, tensor: SSAValue) -> None:
        """FreeTensor, once: a tensor freed early is not freed again at the end."""
        if tensor not in self.freed:
            self.freed.append(tensor)
            self.op(FreeTensorOp(que, tensor))

    def select(self, slope: SSAValue, mask: SSAValue, other: SSAValue | None, value: float,
               n: SSAValue) -> None:
        """slope = mask ? slope : value, from a constant buffer or (scalar-compare) a scalar."""
        if other is None:
            self.op(SelectOp(slope, mask, slope, f32(value), SelMode.VSEL_TENSOR_SCALAR_MODE, n))
        else:
            self.op(SelectOp(slope, mask, slope, other, SelMode.VSEL_TENSOR_TENSOR_MODE, n))

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


def _check_plan(chunk: hsg.HardSwishGradChunkOp, variant: KernelVariant, pass_name: str) -> None:
    """The kernel must have been tiled for this variant's UB plan (hsg-tile-on-cores' options)."""
    kernel = chunk.parent_op()
    while kernel is not None and not isinstance(kernel, func.FuncOp):
        kernel = kernel.parent_op()
    if kernel is None or not hsg.is_kernel(kernel):
        return  # a hand-written chunk: no tiling to agree with
    grad_type = chunk.grad.type
    assert isinstance(grad_type, MemRefType)
    wanted = ub_plan(element_type_name(grad_type.get_element_type()), variant)
    tiled = recorded_plan(kernel)
    if tiled is None:
        raise OpError(kernel, "has a malformed hsg.ub_plan attribute")
    if tiled != wanted:
        raise OpError(
            chunk,
            f"was tiled for a UB plan of {describe_plan(tiled)}, but {pass_name} "
            f"({variant.describe()}) allocates for {describe_plan(wanted)}: give "
            "hsg-tile-on-cores the same variant options",
        )


def convert_chunk(chunk: hsg.HardSwishGradChunkOp, variant: KernelVariant) -> None:
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
    state = setup.init(chunk, variant)
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
class ConvertHsgToAscendPass(KernelVariantOptions, ModulePass):
    """hsg.hard_swish_grad_chunk -> the reference kernel, or a variant, in AscendC calls
    (module docstring)."""

    name = "convert-hsg-to-ascend"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        variant = self.kernel_variant(self.name)
        chunks = [o for o in op.walk() if isinstance(o, hsg.HardSwishGradChunkOp)]
        for chunk in chunks:
            _check_plan(chunk, variant, self.name)
        for chunk in chunks:
            convert_chunk(chunk, variant)
        for leftover in op.walk():
            if isinstance(leftover, hsg.HardSwishGradOp | hsg.HardSwishGradSliceOp):
                raise OpError(leftover, "must be tiled and blocked before convert-hsg-to-ascend "
                                        "(run hsg-tile-on-cores and hsg-block-into-ub first)")
