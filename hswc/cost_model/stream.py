"""A core's instruction stream, read from the kernel's IR: what each pipe does, in order.

`core_program` walks the kernel function for one block index, evaluating its index arithmetic
(`arith`) and control flow (`scf.if`, `scf.for`) with numbers, and turns every `ascend` op into
work on one of three pipes or into a synchronisation between them:

- DataCopy / DataCopyPad GM -> UB: work on MTE2 (bytes over GM); UB -> GM: work on MTE3.
- DataCopy UB -> UB: work on V. Documented by asc-devkit: the A2/A3 implementation
  (impl/basic_api/dav_c220, DataCopyUB2UBIntf) is wrapped in `#pragma begin_pipe(V)`. Its
  speed is an assumption: one issued instruction moving one 256-byte repeat per
  `cycles_per_repeat`, like a vector instruction (one instruction: its block count is 1 and
  its length, in 32-byte blocks, is not limited to 255 repeats).
- Vector instructions (every ascend.VectorOp: the arithmetic and bitwise families, Duplicate,
  Compare, CompareScalar, Select, Cast): work on V of `repeats = ceil(count * sizeof(T) / 256)`
  repeats (T the widest operand element), issued as ceil(repeats / 255) instructions; a scalar
  source costs the same as an attribute or as a run-time value. Its operands' UB addresses
  (InitBuffer places buffers back to back from byte 0, each length rounded up to 32 bytes, a
  queue's `num` buffers one after another; LocalTensor[offset] moves on) decide which share of
  its repeats conflicts in the UB banks (`bank_conflict_share`: the rule a recorded call is
  timed by), whose cycles `bank_conflict_factor` multiplies.
- Float scalar code (the kernel's f32 scalars, arith on them): the scalar unit, like index
  arithmetic; no pipe time, and no value is computed (nothing the model times depends on it).
- Scalar accesses (GlobalTensor::GetValue, LocalTensor::SetValue: a broadcast operand's
  copy-in, hswc.vectorizer.broadcast_copy, and a rank-0 argument's read): `scalar_gm_read_cycles`
  and `scalar_ub_write_cycles` each (LocalTensor::GetValue, a per-row scale's read of its copy
  in UB: `scalar_ub_read_cycles`), timed in MTE2's stream. An assumption of where they sit:
  the scalar unit runs them, but they take the place of an MTE2 copy-in and fill a VECIN buffer
  that MTE2 produces, so in MTE2's stream they wait for the buffer's release and precede its
  EnQue as that copy would (the PipeBarrier<PIPE_ALL> after the copy loop then orders every
  pipe). A loop whose body is only index arithmetic and scalar accesses is timed from its trip
  count, not walked element by element.
  PipeBarrier<PIPE_V>: a drain on V.
- The reductions (count form: ReduceSum, ReduceMax, ReduceMin): work on V of the steps their
  implementation on the SoC family issues (hswc.reduce_semantics.vector_passes: A2/A3 ReduceSum
  one vcadd over every repeat; ReduceMax / Min a vcmax per level; Ascend 950 one VF pass per
  level), each step `instructions` issues and its repeats, and a drain (`pipe_barrier_cycles`)
  for each time the implementation waits for V so the scalar unit can read its result.
- The mask/repeat calls (the level-0 binary arithmetic, WholeReduceSum / Max / Min, Brcb): one
  instruction of `repeat` repeats, each repeat one `cycles_per_repeat` whatever its mask and
  strides (an assumption: a strided repeat touches 8 blocks as a contiguous one does), UB bank
  conflicts as a vector instruction's.
- GlobalTensor::SetL2CacheHint(CACHE_MODE_DISABLE): that tensor's copies are marked
  `l2_bypass` (hswc.cost_model.schedule: in a launch whose reads all bypass L2, the written
  lines stay in L2; otherwise the allocating reads evict them to the HBM).
- SetFlag / WaitFlag<A_B>: a Signal on A's stream, a Wait on B's; the scalar unit is no stream
  of its own: a wait on S (V_S, MTE2_S, MTE3_S) holds every pipe (the scalar unit stops issuing
  until it returns), a signal from S (S_V, ...) is there at once (program order).
- TQue operations, as AscendC implements them with hardware events: for a VECIN queue MTE2
  produces and V consumes, for a VECOUT queue V produces and MTE3 consumes. EnQue is a signal
  on the producer after what it issued so far, DeQue a wait on the consumer; FreeTensor is a
  signal on the consumer, and the next AllocTensor of that buffer (queues hand out their `depth`
  buffers in turn) a wait on the producer. So depth 1 serialises a core's chunks and depth 2
  lets copy-in of chunk i+1 run while chunk i computes.

Nothing here is timed: `hswc.cost_model.schedule` runs the streams against the platform.
An op the model has no rule for is an error naming it, never skipped.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import UnionType
from typing import NamedTuple

from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue

from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.integer_semantics import BINARY, DIVISIONS, PREDICATES
from hswc.platform import (
    UB_BANK_BYTES,
    UB_BANK_GROUPS,
    UB_BLOCK_BYTES,
    VECTOR_REPEAT_BYTES,
    CostFigures,
)

MTE2, VECTOR, MTE3 = "MTE2", "V", "MTE3"
PIPES = (MTE2, VECTOR, MTE3)
"""The three pipes of a vector core that the model times."""


class CostModelError(OpError):
    """The kernel cannot be modelled: an op without a rule, or a queue that would deadlock."""


@dataclass(slots=True)
class Work:
    """An instruction occupying a pipe: vector cycles, or a DMA of `bytes` over GM."""

    pipe: str
    label: str
    chunk: int
    """The chunk loop's iteration, -1 outside it (Init)."""
    cycles: float = 0.0
    """V: issue + repeats; MTE: the DMA set-up before data moves."""
    bytes: int = 0
    repeats: int = 0
    instructions: int = 0
    l2_bypass: bool = False
    """A DMA whose GM tensor bypasses L2 (GlobalTensor::SetL2CacheHint(CACHE_MODE_DISABLE))."""
    bank_conflict: bool = False
    """A vector call whose UB operands conflict in the banks (`bank_conflict`): while it runs,
    its core's MTE2 writes into UB slow down too (hswc.cost_model.schedule)."""


@dataclass(frozen=True, slots=True)
class Signal:
    token: int


@dataclass(frozen=True, slots=True)
class Wait:
    token: int


Item = Work | Signal | Wait


@dataclass
class CoreProgram:
    """One core's pipes, each an in-order list of work and synchronisation."""

    pipes: dict[str, list[Item]] = field(default_factory=lambda: {p: [] for p in PIPES})
    ub_bytes: int = 0
    """Every InitBuffer's length, rounded up to 32 bytes, times its buffer count."""
    chunks: int = 0

    def work(self) -> list[Work]:
        return [item for items in self.pipes.values() for item in items
                if isinstance(item, Work)]

    def signature(self) -> tuple[object, ...]:
        """Equal signatures time identically (used to simulate identical cores once)."""
        return tuple(
            (pipe, tuple((type(i).__name__, getattr(i, "token", None), getattr(i, "cycles", 0),
                          getattr(i, "bytes", 0), getattr(i, "l2_bypass", False),
                          getattr(i, "bank_conflict", False))
                         for i in items))
            for pipe, items in self.pipes.items()
        )


# region run-time objects of the walk


@dataclass
class _Gm:
    name: str
    l2_bypass: bool = False
    """SetL2CacheHint(CACHE_MODE_DISABLE) was called on it: its copies bypass L2."""


@dataclass
class _Slot:
    index: int
    release: int | None = None
    """The token FreeTensor signalled for this buffer's previous tensor."""
    addr: int = 0
    """Its UB byte offset (InitBuffer's placement: KernelWalker.init_buffer)."""


@dataclass
class _Queue:
    position: ascend.TPosition
    depth: int
    free: deque[_Slot]
    ready: deque[tuple[_Tensor, int]] = field(default_factory=deque)

    @property
    def producer(self) -> str:
        return MTE2 if self.position == ascend.TPosition.VECIN else VECTOR

    @property
    def consumer(self) -> str:
        return VECTOR if self.position == ascend.TPosition.VECIN else MTE3


@dataclass
class _Buf:
    """A TBuf: where InitBuffer put it."""

    addr: int = 0


@dataclass
class _Tensor:
    queue: _Queue | None
    slot: _Slot | None
    addr: int = 0
    """The UB byte offset of its first element."""


# endregion

_INT_OPS: dict[type[Operation], Callable[[int, int], int]] = {**BINARY, **DIVISIONS}
"""arith's integer ops, with the interpreter's semantics (hswc.integer_semantics)."""


def lane_bytes(op: ascend.VectorOp) -> int:
    """The element size that sets a vector call's repeats: its widest tensor operand's (a
    compare's src0: the mask is its output; a select's dst)."""
    operands = [o for o in op.operands if isinstance(o.type, ascend.LocalTensorType)]
    if isinstance(op, ascend.CompareOp | ascend.ScalarCompareOp):
        operands = [op.src0]  # the mask is the output; the compared dtype sets the lanes
    elif isinstance(op, ascend.SelectOp):
        operands = [op.dst]
    widest = 0
    for value in operands:
        assert isinstance(value.type, ascend.LocalTensorType)
        widest = max(widest, ascend.element_size(value.type.element_type))
    return widest


def repeats_of(lane: int, count: int, figures: CostFigures) -> tuple[int, int]:
    """(repeats, instructions) of one vector API call over `count` elements of `lane` bytes."""
    repeats = -(-count * lane // figures.repeat_bytes)
    return repeats, -(-repeats // figures.max_repeats_per_instruction)


def vector_cycles(call: str, repeats: int, instructions: int, figures: CostFigures,
                  conflict: float = 0.0) -> float:
    """V cycles of one vector API call (`call`: its name, as the API or the `ascend` op spells
    it, any case): its instructions' issue and its repeats at the call's rate
    (CostFigures.repeat_cycles_of); `conflict`, the share of its repeats whose operands conflict
    in the UB banks (`bank_conflict_share`), take `bank_conflict_factor` times as long. One rule
    for a generated kernel's op and a recorded call."""
    factor = 1.0 + (figures.bank_conflict_factor - 1.0) * conflict
    return (instructions * figures.vector_issue_cycles
            + repeats * figures.repeat_cycles_of(call) * factor)


def copy_cycles(pipe: str, gm_bytes: int, bursts: int, figures: CostFigures) -> float:
    """The MTE pipe's set-up cycles of one DataCopy(Pad) before its bytes move (its bytes are
    timed by the scheduler's bandwidth sharing): `dma_setup_cycles` for a read (MTE2),
    `write_setup_cycles` for a write (MTE3). `gm_bytes` and `bursts` (its GM runs) are what a
    burst-size rule would read (not modelled: see hswc.cost_model's docstring)."""
    del gm_bytes, bursts
    return figures.dma_setup_cycles if pipe == MTE2 else figures.write_setup_cycles


class UbOperand(NamedTuple):
    """One UB operand of a vector call, as `bank_conflict` reads it."""

    start: int
    """Its UB byte offset."""
    written: bool
    step: int = VECTOR_REPEAT_BYTES
    """Bytes from one repeat's first block to the next's."""
    blocks: int = VECTOR_REPEAT_BYTES // UB_BLOCK_BYTES
    """The consecutive 32-byte blocks a repeat touches."""


def bank_conflict(operands: Iterable[tuple[int, bool] | UbOperand]) -> bool:
    """Whether any repeat of a vector call conflicts in the UB banks (`bank_conflict_share`)."""
    return bank_conflict_share(operands) > 0


def bank_conflict_share(operands: Iterable[tuple[int, bool] | UbOperand]) -> float:
    """The share of a vector call's repeats whose UB operands (start offset, written) conflict
    in Atlas A2/A3's UB banks; those repeats take `bank_conflict_factor` times as long. One rule
    for a recorded call (hswc.cost_model.recorded) and a generated kernel's (KernelWalker).

    Documented (asc-devkit examples/01_simd_cpp_api/05_best_practices/04_memory_access/
    bank_conflict_ub/README.md, "README" below; docs/zh/guide/算子实践参考/SIMD算子性能优化/
    内存访问/避免UB的bank冲突/, its page for NPU architecture 2201, "guide"; that
    directory's 概述.md, "overview"):
    - each cycle the vector unit reads or writes one row of each bank group (guide:21); a repeat
      of a contiguous operand touches 8 blocks of 32 bytes, in 8 consecutive bank groups
      (README:105-108), each block in the bank (bank id, group) of its address
      (hswc.platform.UB_BANK_GROUPS, UB_BANK_BYTES);
    - read-read: two reads in one bank group at once, whether in one bank or not (README:68,
      366; guide:29; measured: scenarios 2 and 3, README:81-82);
    - write-write: two writes in one bank group at once (README:69; guide:28);
    - read-write: a read and a write in one bank at once (README:70, 367; guide:27); a read and
      a write in one group but different banks do not conflict (README:80, scenario 1;
      overview:32: 0x0 against 0x10000);
    - "at once" for a repeat stream: repeat i's write goes with repeat i's reads (README:189-197,
      235-241) unless the write's 8 blocks are in the same 8 banks as one source's (an in-place
      call, or a destination a multiple of 512 bytes from a source in the same bank id): then the
      hardware delays the write by one repeat, to go with repeat i + 1's reads (README:187,
      207, 264, 367; measured: scenarios 4 and 6 run as fast as no conflict, README:83-85).
      So an in-place call (Muls(x, x, s)) does not conflict.
    Each operand is a UbOperand: its start, whether it is written, and how its repeats move (a
    narrower operand of a Cast moves fewer bytes a repeat; a source of block stride 0 reads one
    block a repeat, once: README:368). The share is that of the first 16 repeats (every group
    pattern repeats within them: 16 x 32 bytes is UB_BANK_GROUP_SPAN). Measured, a call whose
    every other repeat conflicts (scenario 7) pays 0.67 of a full conflict's extra time
    (README:80-86: 3584 cycles against 2390 and 4167); the model, 0.5.
    Assumed: a source read twice by one call (the same start) is one read (the documented case
    is a block read twice by one operand, README:368); an operand's blocks in a repeat are
    consecutive (block stride 1, or one block); a write is delayed only when its blocks and
    step equal a source's; and the call's first 16 repeats stand for all of them (a call whose
    operand crosses a 64 KB bank boundary later is judged by where it starts)."""
    return _conflict(tuple(sorted({o if isinstance(o, UbOperand) else UbOperand(*o)
                                   for o in operands})))


BANK_CHECKED_REPEATS = UB_BANK_GROUPS
"""The repeats `bank_conflict` checks: a repeat moves a multiple of 32 bytes, so every
operand's bank groups repeat within 16 repeats."""


@functools.lru_cache(maxsize=4096)
def _conflict(operands: tuple[UbOperand, ...]) -> float:
    reads = [o for o in operands if not o.written]
    writes = [o for o in operands if o.written]
    delays = [int(any(w.step == r.step and _banks(w, 0) == _banks(r, 0) for r in reads))
              for w in writes]

    def clashes(repeat: int) -> bool:
        """Whether the accesses that go together with repeat `repeat`'s reads conflict."""
        for same in (reads, writes):
            groups = [{g for _, g in _banks(o, repeat)} for o in same]
            if any(x & y for k, x in enumerate(groups) for y in groups[k + 1:]):
                return True
        for w, delay in zip(writes, delays, strict=True):
            written = set(_banks(w, repeat - delay))
            if any(written & set(_banks(r, repeat)) for r in reads):
                return True
        return False

    # from repeat 1: a delayed write's repeat 0 goes with repeat 1's reads
    return sum(map(clashes, range(1, BANK_CHECKED_REPEATS + 1))) / BANK_CHECKED_REPEATS


def _banks(operand: UbOperand, repeat: int) -> list[tuple[int, int]]:
    """The (bank id, bank group) of each 32-byte block `operand` touches in repeat `repeat`, in
    block order."""
    base = operand.start + repeat * operand.step
    return [(b // UB_BANK_BYTES, (b // UB_BLOCK_BYTES) % UB_BANK_GROUPS)
            for b in range(base, base + operand.blocks * UB_BLOCK_BYTES, UB_BLOCK_BYTES)]


def vector_repeats(op: ascend.VectorOp, count: int, figures: CostFigures) -> tuple[int, int]:
    """(repeats, instructions) of one vector API call over `count` elements."""
    return repeats_of(lane_bytes(op), count, figures)


def _float_scalar(op: Operation) -> bool:
    """An op of the kernel's float scalar code: a float constant, an arith op from float scalars
    to float scalars (the ops hswc.interpreter.float_scalars runs, and no other kind of arith
    has such types), or a select between two."""
    if isinstance(op, arith.ConstantOp):
        return isinstance(op.value, FloatAttr)
    if isinstance(op, arith.SelectOp):
        return isinstance(op.result.type, AnyFloat)
    return op.dialect_name() == "arith" and bool(op.results) and all(
        isinstance(v.type, AnyFloat) for v in (*op.operands, *op.results))


def _scalar_access_loop_op(op: Operation) -> bool:
    """An op a loop of scalar accesses holds: index arithmetic, a GetValue, a SetValue."""
    if isinstance(op, ascend.GlobalGetValueOp | ascend.SetValueOp | scf.YieldOp):
        return not (isinstance(op, scf.YieldOp) and op.operands)
    return op.dialect_name() == "arith" and all(
        isinstance(v.type, IndexType) for v in (*op.operands, *op.results))


class KernelWalker:
    """Runs the kernel's control flow for one core and records its pipes' streams."""

    def __init__(self, kernel: func.FuncOp, block_idx: int, block_num: int,
                 args: dict[SSAValue, object], figures: CostFigures, family: str = "dav_c220"):
        self.kernel = kernel
        self.family = family
        """The SoC's API family (hswc.soc_api): which implementation of a library call runs."""
        self.block_idx = block_idx
        self.block_num = block_num
        self.env: dict[SSAValue, object] = dict(args)
        self.figures = figures
        self.program = CoreProgram()
        self.chunk = -1
        self.returned: list[int] = []
        self._tokens = 0
        self._vector_facts: dict[Operation, tuple[int, str, SSAValue]] = {}
        self._values: dict[Operation, tuple[SSAValue, ...]] = {}
        self._flags: dict[tuple[ascend.HardEvent, int], int] = {}
        """SetFlag tokens not yet waited for."""

    # region helpers

    def int(self, value: SSAValue) -> int:
        v = self.env.get(value)
        if not isinstance(v, int):
            owner = value.owner
            op = owner if isinstance(owner, Operation) else owner.parent_op()
            raise CostModelError(op or self.kernel, "uses a value the cost model cannot evaluate")
        return v

    def emit(self, pipe: str, item: Item) -> None:
        self.program.pipes[pipe].append(item)

    def token(self) -> int:
        self._tokens += 1
        return self._tokens

    def tensor(self, op: Operation, value: SSAValue) -> _Tensor:
        t = self.env.get(value)
        if not isinstance(t, _Tensor):
            raise CostModelError(op, "uses a LocalTensor the cost model did not see created")
        return t

    def queue(self, op: Operation, value: SSAValue) -> _Queue:
        q = self.env.get(value)
        if not isinstance(q, _Queue):
            raise CostModelError(op, "uses a TQue the cost model did not see declared")
        return q

    # endregion
    # region control flow

    def run(self) -> CoreProgram:
        self.block(self.kernel.body.block)
        return self.program

    def block(self, block: Block) -> list[int] | None:
        """Run a block; the yielded values when it ends in scf.yield."""
        for op in block.ops:
            cls = type(op)  # not isinstance: an op class's isinstance is an ABC check
            if cls is scf.YieldOp:
                return [self.int(v) for v in op.operands]
            if cls is func.ReturnOp:
                self.returned = [self.int(v) for v in op.operands]
                return None
            self.step(op)
        return None

    def step(self, op: Operation) -> None:
        cls = type(op)
        handler = _HANDLERS.get(cls)
        if handler is None:
            handler = _HANDLERS[cls] = _handler(cls)
        handler(self, op)

    def constant(self, op: arith.ConstantOp) -> None:
        if isinstance(op.value, IntegerAttr):
            self.env[op.result] = op.value.value.data
        elif not isinstance(op.value, FloatAttr):
            raise CostModelError(op, "has no rule in the cost model")
        # a float constant: the scalar unit's (module docstring)

    def values(self, op: Operation) -> tuple[SSAValue, ...]:
        """The op's operands then its results, looked up once (a loop body comes round once a
        chunk, and an IRDL accessor is slow)."""
        found = self._values.get(op)
        if found is None:
            found = self._values[op] = (*op.operands, *op.results)
        return found

    def integer_binary(self, op: Operation) -> None:
        lhs, rhs, result = self.values(op)
        a, b = self.int(lhs), self.int(rhs)
        if b == 0 and type(op) in DIVISIONS:
            raise CostModelError(op, "divides by zero")
        self.env[result] = _INT_OPS[type(op)](a, b)

    def compare(self, op: arith.CmpiOp) -> None:
        lhs, rhs, result = self.values(op)
        compare = PREDICATES[op.predicate.value.data]
        self.env[result] = int(compare(self.int(lhs), self.int(rhs)))

    def select(self, op: arith.SelectOp) -> None:
        if _float_scalar(op):
            return
        chosen = op.lhs if self.int(op.cond) else op.rhs
        self.env[op.result] = self.int(chosen)

    def other_arith(self, op: Operation) -> None:
        """An arith op without an index rule: float scalar code, or an op the model refuses."""
        if not _float_scalar(op):
            raise CostModelError(op, "has no rule in the cost model")

    def assertion(self, op: cf.AssertOp) -> None:
        if not self.int(op.arg):
            raise CostModelError(op, f"fails for this launch: {op.msg.data}")

    def if_op(self, op: scf.IfOp) -> None:
        region = op.true_region if self.int(op.cond) else op.false_region
        results = self.block(region.block) if region.blocks else []
        for result, value in zip(op.results, results or [], strict=False):
            self.env[result] = value

    def loop(self, op: scf.ForOp) -> None:
        lb, ub, step = self.int(op.lb), self.int(op.ub), self.int(op.step)
        body = op.body.block
        if not op.iter_args and all(_scalar_access_loop_op(o) for o in body.ops):
            self.scalar_access_loop(op, max(0, -(-(ub - lb) // step)))
            return
        carried = [self.int(v) for v in op.iter_args]
        outer = self.chunk
        for iteration, i in enumerate(range(lb, ub, step)):
            self.chunk = iteration
            self.env[body.args[0]] = i
            for arg, value in zip(body.args[1:], carried, strict=True):
                self.env[arg] = value
            carried = self.block(body) or []
        self.program.chunks = max(self.program.chunks, -(-(ub - lb) // step) if ub > lb else 0)
        self.chunk = outer
        for result, value in zip(op.results, carried, strict=False):
            self.env[result] = value

    def scalar_access_loop(self, op: scf.ForOp, trips: int) -> None:
        """A loop of scalar GM reads and UB writes: their cycles times its trip count on MTE2."""
        f = self.figures
        reads = [o for o in op.body.block.ops if isinstance(o, ascend.GlobalGetValueOp)]
        writes = sum(isinstance(o, ascend.SetValueOp) for o in op.body.block.ops)
        cycles = trips * (len(reads) * f.scalar_gm_read_cycles + writes * f.scalar_ub_write_cycles)
        names = sorted({self.gm_name(o.tensor) for o in reads})
        if cycles:
            self.emit(MTE2, Work(MTE2, f"scalar copy-in {', '.join(names) or 'ub'}", self.chunk,
                                 cycles))

    # endregion
    # region ascend ops

    def gm_name(self, value: SSAValue) -> str:
        gm = self.env.get(value)
        return gm.name if isinstance(gm, _Gm) else "gm"

    def scalar_access(self, op: ascend.GlobalGetValueOp | ascend.SetValueOp
                      | ascend.LocalGetValueOp) -> None:
        """One GetValue or SetValue outside a loop of them: its cycles on MTE2."""
        f = self.figures
        if isinstance(op, ascend.GlobalGetValueOp):
            work = Work(MTE2, f"get_value {self.gm_name(op.tensor)}", self.chunk,
                        f.scalar_gm_read_cycles)
        elif isinstance(op, ascend.LocalGetValueOp):
            work = Work(MTE2, "get_value ub", self.chunk, f.scalar_ub_read_cycles)
        else:
            work = Work(MTE2, "set_value", self.chunk, f.scalar_ub_write_cycles)
        self.emit(MTE2, work)

    # TQue calls as the hardware events they stand for (module docstring)

    def alloc_tensor(self, op: ascend.AllocTensorOp) -> None:
        que, result = self.values(op)
        q = self.queue(op, que)
        if not q.free:
            raise CostModelError(op, f"finds all {q.depth} buffers of its queue in use: "
                                     "the kernel would wait for ever")
        slot = q.free.popleft()
        if slot.release is not None:
            self.emit(q.producer, Wait(slot.release))
        self.env[result] = _Tensor(q, slot, slot.addr)

    def enque(self, op: ascend.EnQueOp) -> None:
        que, tensor = self.values(op)
        q, t = self.queue(op, que), self.tensor(op, tensor)
        token = self.token()
        self.emit(q.producer, Signal(token))
        q.ready.append((t, token))

    def deque(self, op: ascend.DeQueOp) -> None:
        que, result = self.values(op)
        q = self.queue(op, que)
        if not q.ready:
            raise CostModelError(op, "takes from an empty queue: the kernel would wait for ever")
        t, token = q.ready.popleft()
        self.emit(q.consumer, Wait(token))
        self.env[result] = t

    def free_tensor(self, op: ascend.FreeTensorOp) -> None:
        que, tensor = self.values(op)
        q, t = self.queue(op, que), self.tensor(op, tensor)
        token = self.token()
        self.emit(q.consumer, Signal(token))
        assert t.slot is not None
        t.slot.release = token
        q.free.append(t.slot)

    def block_idx_op(self, op: ascend.GetBlockIdxOp) -> None:
        self.env[op.result] = self.block_idx

    def block_num_op(self, op: ascend.GetBlockNumOp) -> None:
        self.env[op.result] = self.block_num

    def global_buffer(self, op: ascend.SetGlobalBufferOp) -> None:
        hint = op.result.name_hint or "gm"
        self.env[op.result] = _Gm(hint.removesuffix("_gm"))

    def l2_cache_hint(self, op: ascend.SetL2CacheHintOp) -> None:
        """SetL2CacheHint: the tensor's later copies bypass L2 (disable) or allocate (normal)."""
        gm = self.env.get(op.tensor)
        if isinstance(gm, _Gm):
            gm.l2_bypass = op.mode.data == "disable"

    def global_at(self, op: ascend.GlobalAtOp) -> None:
        self.env[op.result] = self.env.get(op.tensor)

    def local_view(self, op: ascend.LocalAtOp | ascend.ReinterpretCastOp) -> None:
        if isinstance(op, ascend.ReinterpretCastOp):
            self.env[op.result] = self.tensor(op, op.src)
            return
        t = self.tensor(op, op.tensor)
        assert isinstance(op.tensor.type, ascend.LocalTensorType)
        size = ascend.element_size(op.tensor.type.element_type)
        self.env[op.result] = _Tensor(t.queue, t.slot, t.addr + self.int(op.offset) * size)

    def tque(self, op: ascend.TQueOp) -> None:
        t = op.result.type
        assert isinstance(t, ascend.TQueType)
        depth = t.depth.data
        self.env[op.result] = _Queue(t.position.data, depth,
                                     deque(_Slot(i) for i in range(depth)))

    def ctrl(self, op: ascend.SetCtrlSprOp) -> None:
        """SetCtrlSpr: a scalar register write, no pipe time (assumed)."""

    def pipe_or_buf(self, op: ascend.TPipeOp | ascend.TBufOp) -> None:
        self.env[op.result] = _Buf()

    def init_buffer(self, op: ascend.InitBufferOp) -> None:
        """Its buffers placed back to back after the previous InitBuffer's, as TPipe places
        them (hswc.interpreter.core_state: the same rule): their addresses decide bank
        conflicts."""
        num = op.num.value.data if op.num is not None else 1
        length = -(-self.int(op.length) // UB_BLOCK_BYTES) * UB_BLOCK_BYTES
        start = self.program.ub_bytes
        target = self.env.get(op.buffer)
        if isinstance(target, _Queue):
            for slot in target.free:
                slot.addr = start + slot.index * length
        elif isinstance(target, _Buf):
            target.addr = start
        self.program.ub_bytes += num * length

    def tbuf_get(self, op: ascend.TBufGetOp) -> None:
        buf = self.env.get(op.buf)
        self.env[op.result] = _Tensor(None, None, buf.addr if isinstance(buf, _Buf) else 0)

    def unknown(self, op: Operation) -> None:
        raise CostModelError(op, "has no rule in the cost model")

    def vector(self, op: ascend.VectorOp) -> None:
        facts = self._vector_facts.get(op)
        if facts is None:  # a loop body's ops come round once a chunk
            facts = self._vector_facts[op] = (lane_bytes(op), op.name.removeprefix("ascend."),
                                              op.count)
        lane, label, count = facts
        repeats, instructions = repeats_of(lane, self.int(count), self.figures)
        conflict = self.conflicting(op)
        cycles = vector_cycles(label, repeats, instructions, self.figures, conflict)
        self.emit(VECTOR, Work(VECTOR, label, self.chunk, cycles, 0, repeats, instructions,
                               bank_conflict=conflict > 0))

    def conflicting(self, op: Operation) -> float:
        """The share of a vector call's repeats whose UB operands conflict in the banks
        (`bank_conflict_share`, the rule
        a recorded call is timed by): each LocalTensor operand at its address, the `dst`
        operand written (the first operand that is it: an in-place call's source is read).
        An operand moves 256 bytes a repeat times its element's size over the widest one's
        (a Cast's narrow side moves half); a mask/repeat call's operand moves by its repeat
        stride and touches one block a repeat at block stride 0 (WholeReduce's destination,
        whose repeat stride counts elements, is taken as one block a repeat)."""
        f = self.figures
        if f.bank_conflict_factor == 1.0 and f.conflict_read_factor == 1.0:
            return 0.0  # (Ascend 950: no conflicts modelled)
        dst = getattr(op, "dst", None)
        locals_ = [v for v in op.operands if isinstance(v.type, ascend.LocalTensorType)]
        sizes = [ascend.element_size(v.type.element_type)  # type: ignore[attr-defined]
                 for v in locals_]
        widest = max(sizes, default=1)
        strides = {name: getattr(op, name) for name in ("dst", "src", "src0", "src1")
                   if isinstance(op, ascend.RepeatOp) and hasattr(op, name)}
        found: list[UbOperand] = []
        for value, size in zip(locals_, sizes, strict=True):
            written = value is dst
            dst = None if written else dst
            step = VECTOR_REPEAT_BYTES * size // widest
            blocks = max(1, step // UB_BLOCK_BYTES)
            name = next((n for n, v in strides.items() if v is value
                         and (n == "dst") == written), None)
            rep = op.properties.get(f"{name}_rep_stride") if name else None
            if isinstance(rep, IntegerAttr) and not isinstance(op, ascend.WholeReduceOp):
                step = rep.value.data * UB_BLOCK_BYTES
                blk = op.properties.get(f"{name}_blk_stride")
                blocks = 1 if isinstance(blk, IntegerAttr) and blk.value.data == 0 else 8
            elif isinstance(rep, IntegerAttr):
                step, blocks = rep.value.data * size, 1
            found.append(UbOperand(self.tensor(op, value).addr, written, step, blocks))
        return bank_conflict_share(found)

    def copy(self, op: ascend.DataCopyPadOp | ascend.DataCopyOp) -> None:
        ub_to_ub = all(isinstance(v.type, ascend.LocalTensorType) for v in (op.dst, op.src))
        if ub_to_ub and isinstance(op, ascend.DataCopyOp):
            self.ub_copy(op)
            return
        bursts = 1
        if isinstance(op, ascend.DataCopyPadOp):
            bursts = 1 if op.block_count is None else self.int(op.block_count)
            nbytes = self.int(op.block_len) * bursts
        else:
            local = op.dst.type if isinstance(op.dst.type, ascend.LocalTensorType) else op.src.type
            assert isinstance(local, ascend.LocalTensorType)
            size = ascend.element_size(local.element_type)
            nbytes = self.int(op.count) * size // UB_BLOCK_BYTES * UB_BLOCK_BYTES
        into_ub = isinstance(op.dst.type, ascend.LocalTensorType)
        gm = self.env.get(op.src if into_ub else op.dst)
        name = gm.name if isinstance(gm, _Gm) else "gm"
        bypass = isinstance(gm, _Gm) and gm.l2_bypass
        pipe, label = (MTE2, f"copy-in {name}") if into_ub else (MTE3, f"copy-out {name}")
        if nbytes > 0:
            cycles = copy_cycles(pipe, nbytes, bursts, self.figures)
            self.emit(pipe, Work(pipe, label, self.chunk, cycles, nbytes, l2_bypass=bypass))

    def ub_copy(self, op: ascend.DataCopyOp) -> None:
        """DataCopy UB -> UB: V work of one instruction over the whole 32-byte blocks it moves."""
        assert isinstance(op.src.type, ascend.LocalTensorType)
        size = ascend.element_size(op.src.type.element_type)
        nbytes = self.int(op.count) * size // UB_BLOCK_BYTES * UB_BLOCK_BYTES
        f = self.figures
        repeats = -(-nbytes // f.repeat_bytes)
        cycles = f.vector_issue_cycles + repeats * f.cycles_per_repeat
        self.emit(VECTOR, Work(VECTOR, "data_copy", self.chunk, cycles, 0, repeats, 1))

    def reduce_count(self, op: ascend.ReduceCountOp) -> None:
        """ReduceSum / ReduceMax / ReduceMin: the steps its implementation issues (module
        docstring)."""
        from hswc.reduce_semantics import vector_passes  # numpy: not on hswc-opt's start path

        lane = lane_bytes(op)
        count = self.int(op.count)
        if count <= 0:
            return
        steps, waits = vector_passes(count, op.KIND, self.family, lane)
        f = self.figures
        for instructions, repeats in steps:
            cycles = instructions * f.vector_issue_cycles + repeats * f.cycles_per_repeat
            self.emit(VECTOR, Work(VECTOR, op.name.removeprefix("ascend."), self.chunk, cycles,
                                   0, repeats, instructions))
        for _ in range(waits):
            self.emit(VECTOR, Work(VECTOR, "v_s_wait", self.chunk, f.pipe_barrier_cycles))

    def repeat_call(self, op: ascend.RepeatOp) -> None:
        """A mask/repeat call: one instruction of `repeat` repeats."""
        repeats = max(self.int(op.repeat), 0)
        f = self.figures
        conflict = self.conflicting(op)
        factor = 1.0 + (f.bank_conflict_factor - 1.0) * conflict
        cycles = f.vector_issue_cycles + repeats * f.cycles_per_repeat * factor if repeats else 0
        if cycles:
            self.emit(VECTOR, Work(VECTOR, op.name.removeprefix("ascend."), self.chunk, cycles, 0,
                                   repeats, 1, bank_conflict=conflict > 0))

    def flag(self, op: ascend.FlagOp) -> None:
        """SetFlag / WaitFlag as a signal and a wait between pipes (module docstring)."""
        source, target = op.event.data.pipes
        key = (op.event.data, op.id)
        if isinstance(op, ascend.SetFlagOp):
            token = self.token()
            self._flags[key] = token
            if source in PIPES:
                self.emit(source, Signal(token))
            return
        token = self._flags.pop(key, 0)
        if not token:
            raise CostModelError(op, "waits for a flag that no SetFlag set: the kernel would "
                                     "wait for ever")
        if source not in PIPES:
            return  # the scalar unit signalled in program order: nothing to wait for
        for pipe in (PIPES if target == "S" else (target,)):
            if pipe != source:
                self.emit(pipe, Wait(token))

    def barrier(self, op: ascend.PipeBarrierOp) -> None:
        which = op.pipe.data
        if which == ascend.Pipe.PIPE_V:
            self.emit(VECTOR, Work(VECTOR, "pipe_barrier", self.chunk,
                                   self.figures.pipe_barrier_cycles))
        elif which == ascend.Pipe.PIPE_ALL:
            # Every pipe waits until every pipe has finished what it was given.
            tokens = {pipe: self.token() for pipe in PIPES}
            for pipe in PIPES:
                self.emit(pipe, Signal(tokens[pipe]))
            for pipe in PIPES:
                for other in PIPES:
                    if other != pipe:
                        self.emit(pipe, Wait(tokens[other]))
        # PIPE_MTE2 / PIPE_MTE3 / PIPE_S: those pipes run in order already; nothing to add.

    # endregion


Handler = Callable[[KernelWalker, Operation], None]

_BY_CLASS: tuple[tuple[type | UnionType, Callable[..., None]], ...] = (
    (arith.ConstantOp, KernelWalker.constant),
    (arith.CmpiOp, KernelWalker.compare),
    (arith.SelectOp, KernelWalker.select),
    (cf.AssertOp, KernelWalker.assertion),
    (scf.IfOp, KernelWalker.if_op),
    (scf.ForOp, KernelWalker.loop),
    (ascend.GlobalGetValueOp | ascend.SetValueOp | ascend.LocalGetValueOp,
     KernelWalker.scalar_access),
    (ascend.ReduceCountOp, KernelWalker.reduce_count),
    (ascend.VectorOp, KernelWalker.vector),
    (ascend.RepeatOp, KernelWalker.repeat_call),
    (ascend.FlagOp, KernelWalker.flag),
    (ascend.DataCopyPadOp | ascend.DataCopyOp, KernelWalker.copy),
    (ascend.AllocTensorOp, KernelWalker.alloc_tensor),
    (ascend.EnQueOp, KernelWalker.enque),
    (ascend.DeQueOp, KernelWalker.deque),
    (ascend.FreeTensorOp, KernelWalker.free_tensor),
    (ascend.PipeBarrierOp, KernelWalker.barrier),
    # declarations and views: no pipe time
    (ascend.GetBlockIdxOp, KernelWalker.block_idx_op),
    (ascend.GetBlockNumOp, KernelWalker.block_num_op),
    (ascend.SetGlobalBufferOp, KernelWalker.global_buffer),
    (ascend.SetL2CacheHintOp, KernelWalker.l2_cache_hint),
    (ascend.SetCtrlSprOp, KernelWalker.ctrl),
    (ascend.GlobalAtOp, KernelWalker.global_at),
    (ascend.LocalAtOp | ascend.ReinterpretCastOp, KernelWalker.local_view),
    (ascend.TQueOp, KernelWalker.tque),
    (ascend.TPipeOp | ascend.TBufOp, KernelWalker.pipe_or_buf),
    (ascend.InitBufferOp, KernelWalker.init_buffer),
    (ascend.TBufGetOp, KernelWalker.tbuf_get),
)
"""Each op class the walker has a rule for, and the rule (the first class that matches)."""

_HANDLERS: dict[type[Operation], Handler] = {}
"""The rule of each op class met so far (`_handler`'s answers)."""


def _handler(cls: type[Operation]) -> Handler:
    """The walker's rule for ops of class `cls`: the op's class decides it (an arith op's
    float-or-index question, which its types decide, is asked by the rule)."""
    if cls in _INT_OPS:
        return KernelWalker.integer_binary
    for classes, handler in _BY_CLASS:
        if issubclass(cls, classes):
            return handler
    if cls.dialect_name() == "arith":
        return KernelWalker.other_arith
    return KernelWalker.unknown


def core_program(kernel: func.FuncOp, block_idx: int, block_num: int, tiling: tuple[int, ...],
                 figures: CostFigures, family: str = "dav_c220") -> CoreProgram:
    """The streams of core `block_idx` for a launch with the given tiling values.

    The kernel's GM arguments (grad, x, y) carry no numbers; its index arguments get
    `tiling` (totalNum, blockFactor, ubFactor) in order; its f32 scalars are not needed (vector
    calls take as long whatever their scalar). `family` is the SoC's API family (a library
    call's implementation, so its instructions, may differ between them).
    """
    index_args = [a for a in kernel.body.block.args if isinstance(a.type, IndexType)]
    if len(index_args) != len(tiling):
        raise CostModelError(kernel, f"takes {len(index_args)} index arguments; the tiling has "
                                     f"{len(tiling)} values")
    args: dict[SSAValue, object] = dict(zip(index_args, tiling, strict=True))
    return KernelWalker(kernel, block_idx, block_num, args, figures, family).run()


def evaluate_function(fn: func.FuncOp, args: list[int], figures: CostFigures) -> list[int]:
    """Run an index-only function (the host tiling) with numbers; its results.

    A failing cf.assert (the tiling refusing the launch) is a CostModelError with its message.
    """
    params: dict[SSAValue, object] = dict(zip(fn.body.block.args, args, strict=True))
    walker = KernelWalker(fn, 0, 1, params, figures)
    walker.run()
    return walker.returned
