"""The kernel of a `KernelPlan` as ascend ops: Init before the chunk loop, CopyIn, Compute and
CopyOut in it.

Init (the reference kernel's order): a GlobalTensor per input and the output over the core's
slice, the TPipe, the queues, the TBufs, each InitBuffer with its byte length (the linear
lengths first, the mask length just before the masks), then the constant buffers filled by
Duplicate and a barrier. In the loop: CopyIn (AllocTensor, DataCopyPad, EnQue per input; a
broadcast input read in row runs or element by element, hswc.vectorizer.broadcast_copy, or, for
one element, read once in Init and Duplicated),
Compute (the plan's items: DeQue at each arrival, the Casts to f32, the instructions with a
PipeBarrier<PIPE_V> between dependent steps, EnQue of the output, FreeTensor), CopyOut.

Barriers: an instruction joins the step since the last barrier, with none in between, when it
is an input's Cast (or another call of the step's one instruction) that touches nothing the
step writes; otherwise a barrier starts a new step. A chunk's first instruction is also weighed
against the body's last step, which the previous chunk left running: a conflict puts a barrier
before it. So every two vector calls that touch one buffer, one writing, have a barrier between
them: the kernel is right also when built with BiSheng's --cce-auto-sync=off, under which
Atlas A2/A3 orders nothing else between vector calls (asc-devkit's 关键特性说明.md; the CPU model's
--auto-sync off checks it). A Muls then an Adds on the same buffer (x*a+b) get one too, as
ops-nn's A2/A3 HardSwishGradV2 kernel (hard_swish_grad_v2_220.h) writes them; under the default
--cce-auto-sync=on the compiler inserts the same barriers itself. Ascend 950 orders vector calls
in hardware (ops-nn's arch35 kernel has none: `no-pipe-barriers`).

With `reuse-copies`, Compute takes every TBuf before its first instruction, and an f32 copy cast
into a buffer an earlier copy held gets a Get of its own, named after it (`%grad_fp32 =
ascend.tbuf_get %x_fp32_buf`): the interpreter and the CPU model refuse a read through the
earlier copy's tensor once the later one has written the buffer.

Queue tensors are read by Cast and DataCopy as they are, and by every other instruction through
a ReinterpretCast to their own type, as the reference's templated code does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.broadcast import Broadcast
from hswc.diagnostics import OpError
from hswc.dialects import ascend, hsg
from hswc.dialects.ascend import MASK_ELEMENT_TYPE
from hswc.dialects.int_attrs import int_attr
from hswc.float8_casts import NON_SATURATING
from hswc.index_arith import IRArith
from hswc.tiling import ELEMENT_BYTES, gapped_from, mask_length
from hswc.vectorizer.bank_layout import BankGaps
from hswc.vectorizer.broadcast_copy import (
    RowRuns,
    covered_size,
    emit_broadcast_copy,
    emit_resident_copy,
    resident_inputs,
    row_runs,
)
from hswc.vectorizer.dag import FLOAT8_DTYPES, Node
from hswc.vectorizer.instructions import Instr, Val
from hswc.vectorizer.plan import Arrival, Buffer, KernelPlan
from hswc.vectorizer.window_copy_out import emit_window_copy_out

ELEMENT_TYPES: dict[str, Attribute] = {
    "f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type(), "mask": MASK_ELEMENT_TYPE,
    "i8": IntegerType(8), "ui8": IntegerType(8, Signedness.UNSIGNED), "i16": IntegerType(16),
    "ui16": IntegerType(16, Signedness.UNSIGNED), "i32": IntegerType(32),
    "ui32": IntegerType(32, Signedness.UNSIGNED), "i64": IntegerType(64),
    "f8E4M3FN": Float8E4M3FNType(), "f8E5M2": Float8E5M2Type()}
MASK_WORD = IntegerType(16, Signedness.UNSIGNED)
"""Masks are combined (And, Or, Not) as uint16 words."""
MASK_WORD_BITS = 16
VIEW_SUFFIX = {"f32": "fp32", "f16": "fp16", "bf16": "bf16", "i8": "int8", "ui8": "uint8",
               "i16": "int16", "ui16": "uint16", "i32": "int32", "ui32": "uint32", "i64": "int64",
               "f8E4M3FN": "fp8e4m3", "f8E5M2": "fp8e5m2"}
LENGTH_NAMES = {"tensor": "tensor_bytes", "f32": "float_bytes", "f16": "half_bytes",
                "i8": "byte_bytes", "ui8": "byte_bytes", "i16": "half_bytes",
                "ui16": "half_bytes", "i32": "float_bytes", "ui32": "float_bytes",
                "i64": "long_bytes",
                "bf16": "half_bytes", "f8E4M3FN": "byte_bytes", "f8E5M2": "byte_bytes"}
LENGTH_ORDER = ("f32", "f16", "bf16", "i8", "ui8", "i16", "ui16", "i32", "ui32", "i64",
                "f8E4M3FN", "f8E5M2")
"""The order Init computes the buffers' byte lengths in (the float ones first, as always)."""
SIZE_WORDS = {1: "byte", 2: "half", 4: "float", 8: "long"}
"""How a kernel at a dtype boundary names its copies' byte counts, by element size."""
RAW_ACCESS = ("Cast", "DataCopy")
"""Instructions that take queue tensors as they are."""


@dataclass
class Handles:
    """What Init sets up and every chunk uses."""

    gm: dict[Val, SSAValue]
    """GlobalTensors of the inputs and the output."""
    objects: dict[Buffer, SSAValue]
    """Every TQue and TBuf, by buffer."""
    uniforms: Uniforms
    broadcast: Broadcast | None = None
    """How broadcast inputs are read (their GlobalTensors cover them whole)."""
    slice_offset: SSAValue | None = None
    """The core's slice's first output element (what broadcast reads index from)."""
    once: dict[Val, SSAValue] = field(default_factory=dict)
    """The broadcast inputs of one element (rank 0): their value, read from GM once in Init."""
    resident: dict[Val, SSAValue] = field(default_factory=dict)
    """The broadcast inputs copied into UB once in Init (hswc.vectorizer.broadcast_copy)."""
    windows: Broadcast | None = None
    """Where outputs are written at windows of one tensor (hswc.output_windows; their
    GlobalTensors cover it whole)."""


@dataclass
class Emitter:
    """Builds ascend ops at one insertion point."""

    point: InsertPoint
    builder: Builder = field(init=False)
    a: IRArith = field(init=False)

    def __post_init__(self) -> None:
        self.builder = Builder(self.point)
        self.a = IRArith(self.point)

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


# region names


def local_name(buffer: Buffer) -> str:
    """What a TBuf's Get, or a queue's AllocTensor / DeQue, is called."""
    if buffer.is_queue or (buffer.role != "copy" and buffer.dtype != "mask"):
        return f"{buffer.name}_local"
    return mask_name(buffer) if buffer.dtype == "mask" else buffer.name


def mask_name(buffer: Buffer) -> str:
    return buffer.name if buffer.name.endswith("_mask") else f"{buffer.name}_mask"


def object_name(buffer: Buffer) -> str:
    if buffer.is_queue:
        return f"{buffer.role}_queue_{buffer.name}"
    return f"{mask_name(buffer) if buffer.dtype == 'mask' else buffer.name}_buf"


# endregion
# region Init


def buffer_objects(e: Emitter, plan: KernelPlan,
                   tbuf_position: Callable[[Buffer], ascend.TPosition] | None = None
                   ) -> dict[Buffer, SSAValue]:
    """The plan's queues, then its TBufs (at `tbuf_position`: VECCALC unless told), not yet
    InitBuffer'd."""
    objects: dict[Buffer, SSAValue] = {}
    for b in plan.buffers:
        if b.is_queue:
            objects[b] = e.value(ascend.TQueOp(ascend.TPosition(b.position), b.depth),
                                 object_name(b))
    for b in plan.buffers:
        if not b.is_queue:
            position = ascend.TPosition.VECCALC if tbuf_position is None else tbuf_position(b)
            objects[b] = e.value(ascend.TBufOp(position), object_name(b))
    return objects


_QUEUE_OPS = (ascend.TQueOp, ascend.InitBufferOp)


def with_queue_depths(kernel: Operation, plan: KernelPlan) -> None:
    """Give `kernel`, built by this module from a plan that equals `plan` but for its queues'
    depths, `plan`'s depths. A depth shows in a kernel only where buffer_objects and emit_init
    put it: its queue's TQue type and that queue's InitBuffer `num` (which must equal it); so
    each TQue of another depth is rebuilt at `plan`'s (its name, location and uses kept) and
    each queue's InitBuffer takes its queue's depth. The schedule choice times such
    candidates (double-buffer on and off) from one build (hswc.passes.schedule_choice)."""
    depths = {object_name(b): b.depth for b in plan.buffers if b.is_queue}
    for op in [o for o in kernel.walk() if type(o) in _QUEUE_OPS]:  # not isinstance: ABCs
        if isinstance(op, ascend.TQueOp) and op.result.name_hint in depths:
            queue = op.result.type
            assert isinstance(queue, ascend.TQueType)
            depth = depths[op.result.name_hint]
            if queue.depth.data != depth:
                new = ascend.TQueOp(queue.position.data, depth)
                new.location = op.location
                new.result.name_hint = op.result.name_hint
                Rewriter.replace_op(op, new)
        elif isinstance(op, ascend.InitBufferOp) and isinstance(op.buffer.type, ascend.TQueType):
            op.properties["num"] = int_attr(op.buffer.type.depth.data, 32)


def with_l2_hints(kernel: Operation, plan: KernelPlan, broadcast: Broadcast | None) -> None:
    """Give `kernel`, built by this module from a plan that equals `plan` but perhaps for its
    schedule's `l2_bypass`, `plan`'s hints. A hint shows in a kernel only where
    _global_tensors puts it: a SetL2CacheHint right after each streamed input's
    SetGlobalBuffer (the first of the kernel's, one per input then per output, in the plan's
    order), with that op's location; so each is added or erased to match `plan`."""
    vals = [*plan.inputs, *plan.outputs]
    tensors = [op for op in kernel.walk() if type(op) is ascend.SetGlobalBufferOp]
    for val, op in zip(vals, tensors[:len(vals)], strict=True):
        assert op.result.name_hint == f"{val.name}_gm"
        hint = op.next_op if isinstance(op.next_op, ascend.SetL2CacheHintOp) else None
        wanted = plan.schedule.l2_bypass and val in plan.inputs and not _broadcast(broadcast,
                                                                                   val)
        if wanted and hint is None:
            new = ascend.SetL2CacheHintOp(op.result, "disable")
            new.location = op.location
            Rewriter.insert_op(new, InsertPoint.after(op))
        elif hint is not None and not wanted:
            Rewriter.erase_op(hint)


def fill_constants(e: Emitter, plan: KernelPlan, objects: dict[Buffer, SSAValue],
                   count: Callable[[Buffer], SSAValue]) -> Uniforms:
    """The kernel's uniform scalars computed once, and each constant buffer Duplicate'd with
    its value over `count(buffer)` elements (then one barrier): the set-up before the chunk
    loop that elementwise and row kernels share."""
    uniforms = Uniforms(e, plan.selection.scalars)
    for instr in plan.instrs():
        if isinstance(instr.scalar, Node):
            uniforms.value(instr.scalar)
    consts = [b for b in plan.buffers if b.role == "const"]
    for b in consts:
        local = e.value(ascend.TBufGetOp(objects[b], ELEMENT_TYPES[b.dtype]), local_name(b))
        fill: FloatAttr | IntegerAttr | SSAValue = (
            uniforms.value(b.uniform) if b.uniform is not None
            else float_attr(fill_value(b.value), ELEMENT_TYPES[b.dtype]))
        e.op(ascend.DuplicateOp(local, fill, count(b)))
    if consts and not plan.schedule.no_pipe_barriers:
        e.op(ascend.PipeBarrierOp())
    return uniforms


def set_float8_mode(e: Emitter, plan: KernelPlan) -> None:
    """SetCtrlSpr<48, 48>(1) in a kernel that writes an 8-bit float: its Casts to fp8 then keep
    NaN and inf as arith.truncf does (hswc.float8_casts), once for the whole kernel."""
    if any(b.dtype in FLOAT8_DTYPES for b in plan.buffers):
        e.op(ascend.SetCtrlSprOp(*NON_SATURATING))


def emit_init(e: Emitter, plan: KernelPlan, inputs: Sequence[SSAValue],
              outputs: SSAValue | Sequence[SSAValue], offset: SSAValue, length: SSAValue,
              ub_factor: SSAValue, broadcast: Broadcast | None = None,
              windows: Broadcast | None = None) -> Handles:
    outs = [outputs] if isinstance(outputs, SSAValue) else list(outputs)
    gm = _global_tensors(e, plan, inputs, outs, offset, length, broadcast, windows)
    pipe = e.value(ascend.TPipeOp(), "pipe")
    objects = buffer_objects(e, plan)
    lengths = _linear_lengths(e, plan, ub_factor)
    placed = BankGaps(e.a, plan.bank_halves, pipe, ub_factor, gapped_from(plan.ub_plan()))
    for b in plan.init_order or plan.buffers:
        if b.dtype == "mask" and "mask" not in lengths:
            lengths["mask"] = mask_length(e.a, ub_factor)
        key = _length_key(plan, b)
        num = b.depth if b.is_queue else None
        placed.before(b)
        e.op(ascend.InitBufferOp(pipe, objects[b], lengths[key], num=num))
        placed.after(num or 1, lengths[key])
    set_float8_mode(e, plan)
    uniforms = fill_constants(e, plan, objects, lambda _: ub_factor)
    once = {v: e.value(ascend.GlobalGetValueOp(gm[v], e.a.const(0)), f"{v.name}_value")
            for v in plan.inputs
            if broadcast is not None and _broadcast(broadcast, v)
            and broadcast.has_static_size(v.input or 0)
            and broadcast.operand_size(v.input or 0) == 1}
    resident = _resident_copies(e, plan, broadcast, gm, pipe, lambda: e.a.add(offset, length))
    return Handles(gm, objects, uniforms, broadcast, offset, once, resident, windows)


def _resident_copies(e: Emitter, plan: KernelPlan, broadcast: Broadcast | None,
                     gm: dict[Val, SSAValue], pipe: SSAValue,
                     end: Callable[[], SSAValue]) -> dict[Val, SSAValue]:
    """The broadcast inputs copied into UB once (hswc.vectorizer.broadcast_copy), then a
    barrier: MTE2's copies finish before the vector pipe's first read of them; `end`: one past
    the core's last output element, built where needed."""
    resident: dict[Val, SSAValue] = {}
    copied = resident_inputs(broadcast, plan.input_dtypes)
    for v in plan.inputs:
        if broadcast is not None and _broadcast(broadcast, v) and (v.input or 0) in copied:
            resident[v] = emit_resident_copy(e.point, broadcast, v.input or 0, gm[v], pipe,
                                             v.name or f"in{v.input or 0}", v.dtype, end)
    if resident:
        e.op(ascend.PipeBarrierOp(ascend.Pipe.PIPE_ALL))
    return resident


def _global_tensors(e: Emitter, plan: KernelPlan, inputs: Sequence[SSAValue],
                    outputs: Sequence[SSAValue], offset: SSAValue, length: SSAValue,
                    broadcast: Broadcast | None,
                    windows: Broadcast | None = None) -> dict[Val, SSAValue]:
    """A GlobalTensor per input and per output over the core's slice; a broadcast input's
    over the whole operand (hswc.vectorizer.broadcast_copy reads it at its own indices), an
    output written at a window over its whole joint tensor (hswc.vectorizer.window_copy_out)."""
    gm: dict[Val, SSAValue] = {}
    joint = {v: w for v, w in zip(plan.outputs, windows.windows, strict=True) if w is not None} \
        if windows is not None and windows.windows else {}
    for val, memref in [*((v, inputs[v.input or 0]) for v in plan.inputs),
                        *zip(plan.outputs, outputs, strict=True)]:
        start, size = offset, length
        if val.dtype == "mask":  # a packed i1 output: its bytes (blockFactor aligned to 8)
            start, size = _packed_bytes(e, offset, floor=True), _packed_bytes(e, length)
        if val in joint:
            start, size = e.a.const(0), e.a.const(joint[val].elements)
        if val in plan.inputs and _broadcast(broadcast, val):
            assert broadcast is not None
            start, i = e.a.const(0), val.input or 0
            size = e.a.const(broadcast.operand_size(i)) if broadcast.has_static_size(i) \
                else covered_size(e.a, broadcast, i, e.a.add(offset, length))
        gm[val] = e.value(ascend.SetGlobalBufferOp(memref, start, size), f"{val.name}_gm")
        if plan.schedule.l2_bypass and val in plan.inputs and not _broadcast(broadcast, val):
            e.op(ascend.SetL2CacheHintOp(gm[val], "disable"))
    return gm


def _packed_bytes(e: Emitter, elements: SSAValue, floor: bool = False) -> SSAValue:
    """The bytes of `elements` of a packed i1 output (hsg.BITS_STORAGE), 8 a byte: the byte
    they start at (`floor`: element offsets are multiples of 8), or the bytes they cover."""
    eight = e.a.const(hsg.PACKED_BITS)
    return e.a.floor_div(elements, eight) if floor else e.a.ceil_div(elements, eight)


def _broadcast(broadcast: Broadcast | None, val: Val) -> bool:
    """Whether the input `val` is read through a broadcast (hswc.broadcast)."""
    return broadcast is not None and broadcast.strides[val.input or 0] is not None


class Uniforms:
    """The kernel's uniform values, computed once in Init with scalar arith (memoised)."""

    SCALAR_BINARY: ClassVar[dict[str, type[arith.FloatingPointLikeBinaryOperation]]] = {
        "addf": arith.AddfOp, "subf": arith.SubfOp, "mulf": arith.MulfOp, "divf": arith.DivfOp,
        "maximumf": arith.MaximumfOp, "minimumf": arith.MinimumfOp,
    }

    def __init__(self, e: Emitter, scalars: Sequence[SSAValue]):
        self.e = e
        self.scalars = scalars
        self.values: dict[int, SSAValue] = {}

    def value(self, node: Node) -> SSAValue:
        found = self.values.get(id(node))
        if found is None:
            found = self.values[id(node)] = self._compute(node)
        return found

    def _compute(self, node: Node) -> SSAValue:
        t = ELEMENT_TYPES[node.dtype]
        if node.kind == "scalar":
            return self.scalars[node.index or 0]
        if node.kind == "const":
            return self.e.value(arith.ConstantOp(float_attr(fill_value(node.value), t)),
                                node.name or "scalar")
        args = [self.value(o) for o in node.operands]
        name = node.name or "scalar"
        if node.kind == "negf":
            return self.e.value(arith.NegfOp(args[0]), name)
        if node.kind == "extf":
            return self.e.value(arith.ExtFOp(args[0], t), name)
        if node.kind == "truncf":
            return self.e.value(arith.TruncFOp(args[0], t), name)
        if node.kind in self.SCALAR_BINARY and node.dtype == "f32":
            return self.e.value(self.SCALAR_BINARY[node.kind](args[0], args[1]), name)
        assert node.source is not None
        raise OpError(node.source, f"computes on scalars only ({node.kind} on {node.dtype}), "
                      "which the kernel's scalar code does not support: conversions, negation "
                      "and f32 arithmetic")


def _queue_dtypes(plan: KernelPlan) -> set[str]:
    return {b.dtype for b in plan.buffers if b.is_queue}


def _length_key(plan: KernelPlan, b: Buffer) -> str:
    """Which of _linear_lengths a buffer takes: the queues' one length (T) when they share a
    type, else their type's, like every TBuf's."""
    if b.dtype == "mask":
        return "mask"
    return "tensor" if b.is_queue and len(_queue_dtypes(plan)) == 1 else b.dtype


def _linear_lengths(e: Emitter, plan: KernelPlan, ub_factor: SSAValue) -> dict[str, SSAValue]:
    """ubFactor * bytes for each size the buffers use: the queues' (T), f32's, f16's (a kernel
    at a dtype boundary sizes each queue by its own type)."""
    wanted: dict[str, int] = {}
    queues = _queue_dtypes(plan)
    if len(queues) == 1:
        wanted["tensor"] = ELEMENT_BYTES[queues.pop()]
    for dtype in LENGTH_ORDER:
        if any(_length_key(plan, b) == dtype for b in plan.buffers):
            wanted[dtype] = ELEMENT_BYTES[dtype]
    lengths: dict[str, SSAValue] = {}
    named: dict[str, SSAValue] = {}
    for key, size in wanted.items():
        name = LENGTH_NAMES[key]
        if name not in named:
            named[name] = e.a.name(e.a.mul(ub_factor, e.a.const(size)), name)
        lengths[key] = named[name]
    return lengths


# endregion
# region the chunk: CopyIn, Compute, CopyOut


class ChunkEmitter:
    """One chunk's CopyIn, Compute and CopyOut at the chunk op's place."""

    def __init__(self, e: Emitter, plan: KernelPlan, h: Handles, chunk_offset: SSAValue,
                 current_num: SSAValue):
        self.e = e
        self.plan = plan
        self.h = h
        self.chunk_offset = chunk_offset
        self.current_num = current_num
        self.tensors: dict[Buffer, SSAValue] = {}
        """Queue tensors taken (DeQue, AllocTensor) and TBufs got in this chunk."""
        self._viewed_buffers: set[Buffer] | None = None
        self.views: dict[Buffer, SSAValue] = {}
        self.bits: dict[Buffer, SSAValue] = {}
        self.lanes: dict[tuple[SSAValue, str], SSAValue] = {}
        """(a tensor, lanes) -> its ReinterpretCast to the lanes an instruction sees."""
        self.counts: dict[str, SSAValue] = {"cur": current_num}
        self.step: list[Instr] = []
        self.previous: list[Instr] = []
        """Until this chunk's first barrier: the previous chunk's last step (last_step)."""
        self.got = False
        self.drained = False
        """A PipeBarrier<PIPE_V> came before this chunk's copy-in wrote a buffer with the
        vector pipe (`copy_one`): the previous chunk's last step is done."""
        self.freed: list[Val] = []
        self.copies: dict[Val, SSAValue] = {}
        """reuse-copies: each f32 copy's own tensor (a later copy in a reused buffer gets its
        own Get)."""
        self.bytes: dict[int, SSAValue] = {}
        """The chunk's bytes per element size its copies move."""

    def buffer(self, val: Val) -> Buffer:
        return self.plan.place[val]

    def emit(self) -> None:
        copied = [v for v in self.plan.inputs
                  if v not in self.h.once and not _broadcast(self.h.broadcast, v)]
        sizes = list(dict.fromkeys(ELEMENT_BYTES[v.dtype]
                                   for v in (*self.plan.outputs, *copied) if v.dtype != "mask"))
        for size in sizes:  # the chunk's bytes: `copy_bytes`, at a dtype boundary one per size
            name = "copy_bytes" if len(sizes) == 1 else f"{SIZE_WORDS[size]}_copy_bytes"
            self.bytes[size] = self.e.a.name(
                self.e.a.mul(self.current_num, self.e.a.const(size)), name)
        self.copy_in()
        self.compute()
        self.copy_out()

    def copy_bytes(self, dtype: str) -> SSAValue:
        if dtype == "mask":  # a packed i1 output's bytes of the chunk
            if "mask" not in self.counts:
                self.counts["mask"] = self.e.a.name(_packed_bytes(self.e, self.current_num),
                                                    "packed_copy_bytes")
            return self.counts["mask"]
        return self.bytes[ELEMENT_BYTES[dtype]]

    # region CopyIn and CopyOut

    def copy_in(self) -> None:
        e, plan = self.e, self.plan
        queue = {v: self.h.objects[self.buffer(v)] for v in plan.inputs}
        if plan.schedule.x_first:  # each input handed to compute as soon as it is copied
            for v in plan.inputs:
                local = e.value(ascend.AllocTensorOp(queue[v], ELEMENT_TYPES[v.dtype]),
                                f"{v.name}_local")
                self.copy_one(v, local)
                e.op(ascend.EnQueOp(queue[v], local))
            return
        locals_ = [e.value(ascend.AllocTensorOp(queue[v], ELEMENT_TYPES[v.dtype]),
                           f"{v.name}_local") for v in plan.inputs]
        for v, local in zip(plan.inputs, locals_, strict=True):
            self.copy_one(v, local)
        for v, local in zip(plan.inputs, locals_, strict=True):
            e.op(ascend.EnQueOp(queue[v], local))

    def copy_one(self, v: Val, local: SSAValue) -> None:
        if v in self.h.once:  # one element for the whole kernel: Duplicate it over the chunk
            self.e.op(ascend.DuplicateOp(local, self.h.once[v], self.current_num))
            return
        if _broadcast(self.h.broadcast, v):
            assert self.h.broadcast is not None and self.h.slice_offset is not None
            base = self.e.a.name(self.e.a.add(self.h.slice_offset, self.chunk_offset),
                                 "chunk_start")
            runs = row_runs(self.h.broadcast, v.input or 0, v.dtype)
            if (not self.drained and not self.plan.schedule.no_pipe_barriers
                    and isinstance(runs, RowRuns) and (runs.resident or runs.stride == 0)
                    and self.touched_last(self.buffer(v))):
                # its runs write with the vector pipe (a UB -> UB DataCopy, Duplicate) into
                # what the previous chunk's last step may still read: wait for it
                self.e.op(ascend.PipeBarrierOp())
                self.drained = True
            emit_broadcast_copy(self.e.point, self.h.broadcast, v.input or 0, self.h.gm[v],
                                local, base, self.current_num, v.dtype,
                                not self.plan.schedule.no_pipe_barriers, self.h.resident.get(v))
            return
        at = self.e.value(ascend.GlobalAtOp(self.h.gm[v], self.chunk_offset), f"{v.name}_gm_at")
        self.e.op(ascend.DataCopyPadOp(local, at, self.copy_bytes(v.dtype)))

    def copy_out(self) -> None:
        e = self.e
        for out in self.plan.outputs:  # each output's VECOUT queue, one DataCopyPad each
            que = self.h.objects[self.buffer(out)]
            local = e.value(ascend.DeQueOp(que, ELEMENT_TYPES[out.dtype]), f"{out.name}_local")
            k = self.plan.outputs.index(out)
            windows = self.h.windows
            if windows is not None and windows.window(k) is not None:
                assert self.h.slice_offset is not None
                base = e.a.name(e.a.add(self.h.slice_offset, self.chunk_offset), "out_start")
                emit_window_copy_out(e.point, windows, k, self.h.gm[out], local, base,
                                     self.current_num, out.dtype)
            else:
                offset = self.chunk_offset if out.dtype != "mask" \
                    else _packed_bytes(e, self.chunk_offset, floor=True)
                at = e.value(ascend.GlobalAtOp(self.h.gm[out], offset), f"{out.name}_gm_at")
                e.op(ascend.DataCopyPadOp(at, local, self.copy_bytes(out.dtype)))
            e.op(ascend.FreeTensorOp(que, local))

    # endregion
    # region Compute

    def touched_last(self, b: Buffer) -> bool:
        """Whether the body's last step (`last_step`) reads or writes buffer b."""
        return any(b is self.buffer(s.dst) or any(b is self.buffer(v) for v in s.srcs)
                   for s in self.last_step())

    def compute(self) -> None:
        plan = self.plan
        self.previous = [] if self.drained else self.last_step()
        for at, item in enumerate(plan.items):
            if isinstance(item, Arrival):
                self.arrive(item)
            else:
                self.instruction(item)
            for v in plan.frees.get(at, ()):
                self.free(v)
        self.take_output()
        for output in plan.outputs:
            out = self.buffer(output)
            self.e.op(ascend.EnQueOp(self.h.objects[out], self.tensors[out]))
        for v in plan.inputs:
            self.free(v)

    def arrive(self, item: Arrival) -> None:
        e, plan = self.e, self.plan
        for v in item.inputs:
            b = self.buffer(v)
            self.tensors[b] = e.value(ascend.DeQueOp(self.h.objects[b], ELEMENT_TYPES[v.dtype]),
                                      local_name(b))
        if not plan.schedule.x_first:
            self.take_output()
        for v in item.inputs:
            if self._viewed(self.buffer(v)):
                self.view(self.buffer(v))
        for cast in item.casts:
            self.get(self.buffer(cast.dst))
        for cast in item.casts:
            self.instruction(cast)

    def _viewed(self, b: Buffer) -> bool:
        """Whether a call other than a raw access reads or writes buffer b (identity: Buffer
        compares by identity): the set is made once per chunk, not once per arrival."""
        if self.plan.schedule.raw_queue_tensors:
            return False
        if self._viewed_buffers is None:
            self._viewed_buffers = {self.buffer(v) for i in self.plan.instrs()
                                    if i.api not in RAW_ACCESS for v in (i.dst, *i.srcs)}
        return b in self._viewed_buffers

    def take_output(self) -> None:
        """AllocTensor of each output's queue not yet taken in this chunk."""
        for output in self.plan.outputs:
            out = self.buffer(output)
            if out not in self.tensors:
                que = self.h.objects[out]
                self.tensors[out] = self.e.value(
                    ascend.AllocTensorOp(que, ELEMENT_TYPES[out.dtype]), local_name(out))

    def view(self, b: Buffer) -> SSAValue:
        if b not in self.views:
            dtype = b.dtype
            self.views[b] = self.e.value(
                ascend.ReinterpretCastOp(self.tensors[b], ELEMENT_TYPES[dtype]),
                f"{b.name}_{VIEW_SUFFIX[dtype]}")
        return self.views[b]

    def get(self, b: Buffer) -> SSAValue:
        if b not in self.tensors:
            self.tensors[b] = self.e.value(
                ascend.TBufGetOp(self.h.objects[b], ELEMENT_TYPES[b.dtype]), local_name(b))
        return self.tensors[b]

    def count(self, kind: str) -> SSAValue:
        if kind not in self.counts:
            a = self.e.a
            if kind == "compute":
                align = a.const(self.plan.align)
                self.counts[kind] = a.name(a.mul(a.ceil_div(self.current_num, align), align),
                                           "compute_num")
            elif kind == "double":  # 32-bit values as twice as many 16-bit lanes
                self.counts[kind] = a.name(a.mul(self.count("compute"), a.const(2)),
                                           "half_lanes_num")
            else:
                words = a.ceil_div(self.count("compute"), a.const(MASK_WORD_BITS))
                self.counts[kind] = a.name(words, "mask_words")
        return self.counts[kind]

    def operand(self, val: Val, instr: Instr) -> SSAValue:
        tensor = self.buffer_operand(val, instr)
        if instr.lanes is None or val.dtype in ("mask", instr.lanes):
            return tensor
        key = (tensor, instr.lanes)
        if key not in self.lanes:
            self.lanes[key] = self.e.value(
                ascend.ReinterpretCastOp(tensor, ELEMENT_TYPES[instr.lanes]),
                f"{tensor.name_hint or 'tensor'}_as_{instr.lanes}")
        return self.lanes[key]

    def buffer_operand(self, val: Val, instr: Instr) -> SSAValue:
        b = self.buffer(val)
        if b.is_queue and b.dtype != "mask":
            raw = instr.api in RAW_ACCESS or self.plan.schedule.raw_queue_tensors
            return self.tensors[b] if raw else self.view(b)
        if val.role == "copy" and self.plan.schedule.reuse_copies:
            return self.copy_tensor(val, b)
        tensor = self.tensors[b] if b.is_queue else self.get(b)  # a packed output's: its own
        if b.dtype == "mask" and instr.count == "words":
            if b not in self.bits:
                self.bits[b] = self.e.value(ascend.ReinterpretCastOp(tensor, MASK_WORD),
                                            f"{mask_name(b)}_bits")
            return self.bits[b]
        return tensor

    def copy_tensor(self, val: Val, b: Buffer) -> SSAValue:
        """The tensor of an f32 copy: its buffer's Get for the first copy it holds, a Get of its
        own, under its own name, for a later one."""
        if val not in self.copies:
            taken = any(self.buffer(v) is b for v in self.copies)
            self.copies[val] = self.e.value(
                ascend.TBufGetOp(self.h.objects[b], ELEMENT_TYPES[b.dtype]),
                val.name or local_name(b)) if taken else self.get(b)
        return self.copies[val]

    def instruction(self, instr: Instr) -> None:
        if self.needs_barrier(instr) or self.conflicts(instr, self.previous):
            self.e.op(ascend.PipeBarrierOp())
            self.step = []
            self.previous = []
        self.step.append(instr)
        reuse = self.plan.schedule.reuse_copies
        if (reuse or not instr.conversion) and not self.got:
            self.got = True  # every TBuf of Compute (with reuse-copies its scratch too) up front
            for b in self.plan.buffers:
                if not b.is_queue and (b.role != "copy" or reuse):
                    self.get(b)
        if instr.count != "cur":
            self.count(instr.count)
        if self.buffer(instr.dst).role == "output":
            self.take_output()
        dst = self.operand(instr.dst, instr)
        srcs = [self.operand(v, instr) for v in instr.srcs]
        like = srcs[-1] if srcs else dst  # the scalar has this tensor's dtype
        scalar = (None if instr.scalar is None
                  else self.h.uniforms.value(instr.scalar) if isinstance(instr.scalar, Node)
                  else scalar_attr(instr.scalar, like))
        op = build(instr, dst, srcs, self.count(instr.count), scalar)
        self.e.op(op)

    def needs_barrier(self, instr: Instr, step: Sequence[Instr] | None = None) -> bool:
        """Whether the instruction must wait for the step since the last barrier (`step`:
        another one)."""
        step = self.step if step is None else step
        if not step or self.plan.schedule.no_pipe_barriers:
            return False
        return self.conflicts(instr, step) or not (
            instr.conversion or all(s.api == instr.api for s in step))

    def conflicts(self, instr: Instr, step: Sequence[Instr]) -> bool:
        """Whether the instruction touches a buffer an instruction of `step` touches, one of
        the two writing it."""
        reads = {id(self.buffer(v)) for v in instr.srcs}
        writes = id(self.buffer(instr.dst))
        return any(writes == id(self.buffer(s.dst)) or writes in {id(self.buffer(v))
                                                                  for v in s.srcs}
                   or id(self.buffer(s.dst)) in reads for s in step)

    def last_step(self) -> list[Instr]:
        """The body's instructions after its last barrier: what the previous chunk may still
        be running when this one's first instructions are issued (none without barriers)."""
        if self.plan.schedule.no_pipe_barriers:
            return []
        step: list[Instr] = []
        for instr in self.plan.instrs():
            if self.needs_barrier(instr, step):
                step = []
            step.append(instr)
        return step

    def free(self, v: Val) -> None:
        """FreeTensor of an input, once."""
        if v not in self.freed:
            self.freed.append(v)
            b = self.buffer(v)
            self.e.op(ascend.FreeTensorOp(self.h.objects[b], self.tensors[b]))

    # endregion


# endregion
# region the instruction table


def fill_value(value: float | int | bool | None) -> float | int:
    """A constant's value; -0.0 stays -0.0 (it is falsy, so `value or 0.0` would lose it)."""
    assert value is not None, "a constant buffer or node always has its value"
    return value if isinstance(value, int) and not isinstance(value, bool) else float(value)


def float_attr(value: float | int, t: Attribute) -> FloatAttr | IntegerAttr:
    """A constant of the element type t: a float, or an integer of an integer type."""
    if isinstance(t, IntegerType):
        return IntegerAttr(int(value), t)
    assert isinstance(t, AnyFloat)
    return FloatAttr(value, t)


def scalar_attr(value: float | int, like: SSAValue) -> FloatAttr | IntegerAttr:
    """A constant scalar in the dtype of the tensor `like`."""
    t = like.type
    assert isinstance(t, ascend.LocalTensorType)
    return float_attr(value, t.element_type)


def build(instr: Instr, dst: SSAValue, srcs: list[SSAValue], count: SSAValue,
          scalar: FloatAttr | IntegerAttr | SSAValue | None) -> Operation:
    """The ascend op of one instruction (`scalar`: its scalar, a constant or a kernel value)."""
    api = instr.api
    if api == "Cast":
        assert instr.mode is not None
        return ascend.CastOp(dst, srcs[0], ascend.RoundMode(instr.mode), count)
    if api in ("Compare", "CompareScalar", "Compares"):
        assert instr.mode is not None
        mode = ascend.CmpMode(instr.mode)
        if api == "Compare":
            return ascend.CompareOp(dst, srcs[0], srcs[1], mode, count)
        assert scalar is not None
        scalar_compare = ascend.ComparesOp if api == "Compares" else ascend.CompareScalarOp
        return scalar_compare(dst, srcs[0], scalar, mode, count)
    if api == "Select":
        assert instr.mode is not None
        other = srcs[2] if len(srcs) == 3 else scalar
        assert other is not None
        return ascend.SelectOp(dst, srcs[0], srcs[1], other, ascend.SelMode(instr.mode), count)
    if api == "Duplicate":
        assert scalar is not None
        return ascend.DuplicateOp(dst, scalar, count)
    if api in SCALAR_FORMS:
        assert scalar is not None
        return SCALAR_FORMS[api](dst, srcs[0], scalar, count)
    return TENSOR_FORMS[api](dst, *srcs, count)


SCALAR_FORMS: dict[str, type[ascend.MulsOp | ascend.AddsOp | ascend.MaxsOp | ascend.MinsOp
                             | ascend.ShiftLeftOp | ascend.ShiftRightOp]] = {
    "Muls": ascend.MulsOp, "Adds": ascend.AddsOp, "Maxs": ascend.MaxsOp, "Mins": ascend.MinsOp,
    "ShiftLeft": ascend.ShiftLeftOp, "ShiftRight": ascend.ShiftRightOp,
}
"""dst = src <op> scalar."""
TensorForm = Callable[..., Operation]
TENSOR_FORMS: dict[str, TensorForm] = {
    "Add": ascend.AddOp, "Sub": ascend.SubOp, "Mul": ascend.MulOp, "Div": ascend.DivOp,
    "Max": ascend.MaxOp, "Min": ascend.MinOp, "And": ascend.AndOp, "Or": ascend.OrOp,
    "Not": ascend.NotOp, "DataCopy": ascend.DataCopyOp, "Abs": ascend.AbsOp,
    "Exp": ascend.ExpOp, "Ln": ascend.LnOp, "Sqrt": ascend.SqrtOp, "Rsqrt": ascend.RsqrtOp,
}
"""dst = op(srcs...), over count elements."""


# endregion
