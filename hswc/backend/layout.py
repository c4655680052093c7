"""Where each op of a kernel function goes in the AscendC class, as ops-nn lays it out.

- `Init`: everything before the chunk loop (the kernel's slice arithmetic and buffer set-up),
  including the part of each `scf.if` that guards the loop which comes before it;
- `Process`: the guards again, the chunk loop, and whatever follows it;
- the loop body: scalar ops before its first AscendC call stay in `Process`; the rest is split
  where a run of `DeQue`s starts, giving the pipeline stages `CopyIn`, `Compute`, `CopyOut`
  (named by what they do: copies GM -> UB, vector instructions, copies UB -> GM).

A value read by a method other than the one defining it is a class member, except the loop
index and the loop's leading scalars, which `Process` passes to the stages as arguments.
TPipe, TQue and TBuf objects are always members: they must live as long as the kernel.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from hswc.backend.context import ExprRule, inlined_ops
from hswc.diagnostics import OpError
from hswc.dialects.ascend import (
    DataCopyOp,
    DataCopyPadOp,
    DeQueOp,
    DuplicateLanesOp,
    DuplicateOp,
    EnQueOp,
    GlobalTensorType,
    LocalTensorType,
    RepeatOp,
    TBufOp,
    TPipeOp,
    TPosition,
    TQueOp,
    VectorOp,
)
from hswc.dialects.ascend_repeat import DuplicateLanesRepeatOp

INIT = "Init"
PROCESS = "Process"
STAGE_KINDS = ("CopyIn", "Compute", "CopyOut", "Stage")
"""The stage methods' names (the second of a kind numbered: `Compute2`)."""
DECLARATIONS = (TPipeOp, TQueOp, TBufOp)
"""Ops that declare a member object and print no statement."""


@dataclass
class Stage:
    """One pipeline stage of the loop body: a private method called once per chunk."""

    name: str
    ops: list[Operation]
    params: list[SSAValue] = field(default_factory=list)


@dataclass
class KernelLayout:
    """The kernel function cut into the methods of its class."""

    func: func.FuncOp
    path: list[Operation]
    """The scf.if ops guarding the chunk loop, outermost first, then the loop; empty: no loop."""
    preamble: list[Operation]
    stages: list[Stage]
    inlined: frozenset[Operation]
    members: list[SSAValue]
    """In definition order."""
    init_guards: frozenset[Operation]
    """The guards that also print in Init, because set-up comes before the loop inside them."""

    @property
    def methods(self) -> list[str]:
        return [INIT, PROCESS, *(stage.name for stage in self.stages)]


def _chunk_loop(fn: func.FuncOp) -> scf.ForOp | None:
    """The outermost scf.for that moves data through queues: the loop over UB chunks."""
    loops = [
        op for op in fn.body.walk()
        if isinstance(op, scf.ForOp) and any(isinstance(o, EnQueOp | DeQueOp) for o in op.walk())
    ]
    outermost = [op for op in loops if not any(o.is_ancestor(op) for o in loops if o is not op)]
    if len(outermost) > 1:
        raise OpError(outermost[1], "is a second chunk loop; the AscendC printer maps one loop "
                      "onto Process")
    return outermost[0] if outermost else None


def _guard_path(fn: func.FuncOp, loop: scf.ForOp) -> list[Operation]:
    path: list[Operation] = [loop]
    parent = loop.parent_op()
    while parent is not fn:
        assert parent is not None
        if (
            not isinstance(parent, scf.IfOp)
            or parent.results
            or not parent.true_region.block.is_ancestor(loop)
            or any(not isinstance(o, scf.YieldOp) for o in parent.false_region.walk())
        ):
            raise OpError(parent, "encloses the chunk loop; the AscendC printer splits Init from "
                          "Process only across scf.if guards without else or results")
        path.insert(0, parent)
        parent = parent.parent_op()
    return path


def split_stages(body: Iterable[Operation], expressions: Mapping[type[Operation], ExprRule]
                 ) -> tuple[list[Operation], list[list[Operation]]]:
    """(leading scalar ops, stages): a stage starts at the first AscendC op and at each run of
    DeQue ops."""
    preamble: list[Operation] = []
    stages: list[list[Operation]] = []
    previous: Operation | None = None
    for op in body:
        if isinstance(op, scf.YieldOp):
            continue
        starts_run = isinstance(op, DeQueOp) and not isinstance(previous, DeQueOp)
        if not stages and not starts_run and type(op) in expressions:
            preamble.append(op)
        elif starts_run or not stages:
            stages.append([op])
        else:
            stages[-1].append(op)
        previous = op
    return preamble, stages


def _stage_kind(ops: list[Operation]) -> str:
    kinds: set[str] = set()
    for op in (nested for top in ops for nested in top.walk()):
        if isinstance(op, DataCopyOp | DataCopyPadOp):
            if isinstance(op.dst.type, GlobalTensorType):
                kinds.add("CopyOut")
            elif isinstance(op.src.type, GlobalTensorType) or _fills_input(op):
                kinds.add("CopyIn")
            else:
                kinds.add("Compute")  # DataCopy UB -> UB works inside the UB
        elif isinstance(op, VectorOp | RepeatOp):
            kinds.add("CopyIn" if isinstance(op, DuplicateOp | DuplicateLanesOp
                                             | DuplicateLanesRepeatOp)
                      and _fills_input(op)
                      else "Compute")
    return kinds.pop() if len(kinds) == 1 else "Stage"


def _fills_input(op: DataCopyOp | DataCopyPadOp | VectorOp | RepeatOp) -> bool:
    """A Duplicate or UB -> UB copy into a VECIN tensor: a broadcast input's copy-in
    (hswc.vectorizer.broadcast_copy), part of CopyIn."""
    dst = op.operands[0].type
    return isinstance(dst, LocalTensorType) and dst.pos == TPosition.VECIN


def _stage_names(stages: list[list[Operation]]) -> list[str]:
    kinds = [_stage_kind(ops) for ops in stages]
    seen: Counter[str] = Counter()
    names: list[str] = []
    for kind in kinds:
        seen[kind] += 1
        names.append(kind if seen[kind] == 1 else f"{kind}{seen[kind]}")
    return names


class _Placement:
    """Which method prints each op, and which methods read each value."""

    def __init__(self, fn: func.FuncOp, path: list[Operation], inlined: frozenset[Operation],
                 expressions: Mapping[type[Operation], ExprRule]):
        self.path = path
        self.inlined = inlined
        self.expressions = expressions
        self.method_of: dict[Operation, str] = {}
        self.readers: dict[SSAValue, set[str]] = {}
        self._place_block(fn.body.block, 0)

    def place_loop(self, loop: scf.ForOp) -> tuple[list[Operation], list[Stage]]:
        """The loop's leading scalar ops (printed in Process) and its stages."""
        preamble, groups = split_stages(loop.body.block.ops, self.expressions)
        for op in preamble:
            self._place_all(op, PROCESS)
        stages = [Stage(name, ops) for name, ops in zip(_stage_names(groups), groups, strict=True)]
        for stage in stages:
            for op in stage.ops:
                self._place_all(op, stage.name)
        return preamble, stages

    def read_all(self, fn: func.FuncOp, init_guards: frozenset[Operation]) -> None:
        """Record which methods read which values, looking through inlined expressions."""
        for op in fn.body.walk():
            if op in self.path:
                methods = [PROCESS, INIT] if op in init_guards else [PROCESS]
            elif self.prints(op) or isinstance(op, scf.IfOp | scf.ForOp):
                methods = [self.method_of[op]]
            else:
                continue
            for method in methods:
                for value in op.operands:
                    self.read(value, method)

    def _place_all(self, op: Operation, method: str) -> None:
        for nested in op.walk():
            self.method_of[nested] = method

    def _place_block(self, block: Block, depth: int) -> None:
        target = self.path[depth] if depth < len(self.path) else None
        method = INIT
        for op in block.ops:
            if op is target:
                method = PROCESS
                self.method_of[op] = PROCESS
                if isinstance(op, scf.IfOp):
                    self._place_block(op.true_region.block, depth + 1)
            else:
                self._place_all(op, method)

    def prints(self, op: Operation) -> bool:
        """Whether printing `op` writes anything."""
        if op in self.inlined or isinstance(op, (*DECLARATIONS, scf.YieldOp, func.ReturnOp)):
            return False
        if type(op) in self.expressions:
            return bool(op.results[0].uses)
        if isinstance(op, scf.IfOp | scf.ForOp):
            return any(self.prints(o) for region in op.regions for o in region.block.ops)
        return True

    def read(self, value: SSAValue, method: str) -> None:
        owner = value.owner
        if isinstance(owner, Operation) and owner in self.inlined:
            for operand in owner.operands:
                self.read(operand, method)
        else:
            self.readers.setdefault(value, set()).add(method)

    def home(self, value: SSAValue) -> str:
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op()
            return INIT if isinstance(parent, func.FuncOp) else self.method_of[parent]  # type: ignore[index]
        return self.method_of[value.owner]  # type: ignore[index]


def _init_guards(placement: _Placement, path: list[Operation]) -> frozenset[Operation]:
    """Guards whose block has set-up before the next guard or the loop (or inside a guard that
    has)."""
    found: set[Operation] = set()
    for depth in reversed(range(len(path) - 1)):
        guard = path[depth]
        assert isinstance(guard, scf.IfOp)
        before: list[Operation] = []
        for op in guard.true_region.block.ops:
            if op is path[depth + 1]:
                break
            before.append(op)
        if any(placement.prints(op) for op in before) or path[depth + 1] in found:
            found.add(guard)
    return frozenset(found)


def kernel_layout(fn: func.FuncOp, expressions: Mapping[type[Operation], ExprRule],
                  views: tuple[type[Operation], ...]) -> KernelLayout:
    """Cut `fn` into Init, Process and the stages, and decide members and stage arguments."""
    loop = _chunk_loop(fn)
    path = _guard_path(fn, loop) if loop is not None else []
    inlined = inlined_ops(fn.body.walk(), expressions, views)
    placement = _Placement(fn, path, inlined, expressions)
    preamble, stages = placement.place_loop(loop) if loop is not None else ([], [])
    init_guards = _init_guards(placement, path)
    placement.read_all(fn, init_guards)
    loop_values = (
        [loop.body.block.args[0], *(r for op in preamble for r in op.results)] if loop else []
    )
    members = _assign(placement, _definition_order(fn), loop_values, stages)
    return KernelLayout(fn, path, preamble, stages, inlined, members, init_guards)


def _assign(placement: _Placement, values: list[SSAValue], loop_values: list[SSAValue],
            stages: list[Stage]) -> list[SSAValue]:
    """The members; and, on the stages, the loop values they read as parameters."""
    stage_names = {stage.name for stage in stages}
    members: list[SSAValue] = []
    for value in values:
        away = placement.readers.get(value, set()) - {placement.home(value)}
        if value in loop_values and away <= stage_names:
            for stage in stages:
                if stage.name in away:
                    stage.params.append(value)
        elif away or isinstance(value.owner, DECLARATIONS):
            members.append(value)
    return members


def _definition_order(fn: func.FuncOp) -> list[SSAValue]:
    values: list[SSAValue] = list(fn.body.block.args)
    for op in fn.body.walk():
        for region in op.regions:
            if op is not fn:
                for block in region.blocks:
                    values.extend(block.args)
        values.extend(op.results)
    return values
