"""A hand-written kernel's pipe streams, from the call stream the C++ CPU model recorded.

Input: the text `run_kernel --profile FILE` writes (hswc/checker/ascendc_cpu/ascendc_cpu_record.h
documents its lines), one block of lines per core. Output: per core the same `CoreProgram` of
`Work`, `Signal` and `Wait` items that `hswc.cost_model.stream` reads from a generated kernel's
IR, with a fourth stream for the scalar unit, and their schedule by `hswc.cost_model.schedule`:

- a vector call (`V`): work on V of `repeats = ceil(bytes / 256)` of its widest operand access,
  issued as ceil(repeats / 255) instructions, timed by `stream.vector_cycles` as a generated
  kernel's vector op is;
- a copy (`MTE2`, `MTE3`): a DMA of its GM bytes on that pipe, `stream.copy_cycles` of set-up;
- a flag (`set E id` then `wait E id`): a Signal on E's first pipe, a Wait on its second, as
  stream.py models SetFlag / WaitFlag (a wait on S holds every pipe; a signal from S is there
  at once). The queues' own flags are recorded as flags, so EnQue / DeQue / FreeTensor /
  AllocTensor need no rule of their own here;
- `barrier ALL`: every pipe waits for every other; `barrier V`: a drain on V;
- scalar accesses (`scalar` counts): work on the scalar unit (S) of their cycles. An
  assumption of how they sit in the pipes: the scalar unit reads and writes UB only after the
  pipes' earlier work is done (the compiler's automatic synchronisation of scalar UB
  accesses), and no pipe issues past them until they are done (the scalar unit issues every
  instruction in program order);
- Ascend 950's register calls (`R API COUNT`: MicroAPI calls in a VF function, each on one
  register, counted since the last line): work on V of COUNT times
  `CostFigures.register_cycles_of(API)`, with no issue overhead of their own (the VF's
  instructions are issued by the vector unit, not the scalar unit: not counted as calls);
- a call the stream has no rule for (`other`): named in `unmodelled`, and left out of the time.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field

from hswc.cost_model.schedule import ClassSchedule, CoreClass, simulate
from hswc.cost_model.stream import (
    MTE2,
    MTE3,
    VECTOR,
    CoreProgram,
    Signal,
    UbOperand,
    Wait,
    Work,
    bank_conflict_share,
    copy_cycles,
    repeats_of,
    vector_cycles,
)
from hswc.platform import UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES, CostFigures

SCALAR = "S"
"""The scalar unit's stream (a recorded kernel's scalar accesses)."""
STREAMS = (MTE2, VECTOR, MTE3, SCALAR)
_EVENT_PIPES = {"MTE2": MTE2, "V": VECTOR, "MTE3": MTE3, "S": SCALAR}


class RecordError(ValueError):
    """A recorded stream that cannot be read (a line the recorder does not write)."""


@dataclass
class RecordedRun:
    """Each core's streams, and the calls the model could not time."""

    programs: dict[int, CoreProgram]
    unmodelled: list[str] = field(default_factory=list)
    calls: dict[int, int] = field(default_factory=dict)
    """Per core, the API calls the scalar unit issued (copies, vector calls, flags, barriers)."""


def _program() -> CoreProgram:
    program = CoreProgram()
    program.pipes = {p: [] for p in STREAMS}
    return program


class _Core:
    """Turns one core's lines into its streams."""

    def __init__(self, figures: CostFigures, unmodelled: list[str]):
        self.figures = figures
        self.program = _program()
        self.unmodelled = unmodelled
        self.tokens = 0
        self.calls = 0
        self.flags: dict[tuple[str, str], deque[int | None]] = defaultdict(deque)

    def token(self) -> int:
        self.tokens += 1
        return self.tokens

    def emit(self, pipe: str, item: Work | Signal | Wait) -> None:
        self.program.pipes[pipe].append(item)

    def all_wait_for_all(self) -> None:
        """Every stream waits for what every other issued so far (PipeBarrier<PIPE_ALL>)."""
        tokens = {p: self.token() for p in STREAMS}
        for p in STREAMS:
            self.emit(p, Signal(tokens[p]))
        for p in STREAMS:
            for q in STREAMS:
                if q != p:
                    self.emit(p, Wait(tokens[q]))

    def scalar(self, fields: list[str]) -> None:
        ub_gets, ub_sets, gm_gets, gm_sets = (int(x) for x in fields)
        f = self.figures
        cycles = (ub_gets * f.scalar_ub_read_cycles + ub_sets * f.scalar_ub_write_cycles
                  + gm_gets * f.scalar_gm_read_cycles + gm_sets * f.scalar_gm_write_cycles)
        if cycles == 0:
            return
        self.all_wait_for_all()
        self.emit(SCALAR, Work(SCALAR, "scalar", -1, cycles))
        done = self.token()
        self.emit(SCALAR, Signal(done))
        for p in (MTE2, VECTOR, MTE3):
            self.emit(p, Wait(done))

    def vector(self, api: str, operands: list[str]) -> None:
        fields = [operand.split(":") for operand in operands]
        widest = max((int(size) for _, size, _ in fields), default=0)
        repeats, instructions = repeats_of(1, widest, self.figures)
        conflict = bank_conflict_share(ub_operands(
            [(int(off), int(size), mode == "w") for off, size, mode in fields], repeats))
        cycles = vector_cycles(api, repeats, instructions, self.figures, conflict)
        self.emit(VECTOR, Work(VECTOR, api, -1, cycles, 0, repeats, instructions,
                               bank_conflict=conflict > 0))

    def registers(self, api: str, count: int) -> None:
        cycles = count * self.figures.register_cycles_of(api)
        self.emit(VECTOR, Work(VECTOR, api, -1, cycles, 0, count, 0))

    def copy(self, pipe: str, api: str, fields: list[str]) -> None:
        _ub_bytes, gm_bytes, bursts, cache = (int(x) for x in fields)
        cycles = copy_cycles(pipe, gm_bytes, bursts, self.figures)
        self.emit(pipe, Work(pipe, api, -1, cycles, gm_bytes, l2_bypass=cache == 1))

    def flag(self, kind: str, event: str, event_id: str, line: str) -> None:
        source, _, target = event.partition("_")
        if source not in _EVENT_PIPES or target not in _EVENT_PIPES:
            self.unmodelled.append(f"a flag of HardEvent::{event} (the cube side)")
            return
        pending = self.flags[(event, event_id)]
        if kind == "set":
            if source == "S":
                pending.append(None)  # the scalar unit signals in program order: at once
                return
            token = self.token()
            self.emit(_EVENT_PIPES[source], Signal(token))
            pending.append(token)
            return
        if not pending:
            raise RecordError(f"'{line}' waits for a flag that was never set")
        token = pending.popleft()
        if token is None:
            return
        waiters = STREAMS if target == "S" else (_EVENT_PIPES[target],)
        for p in waiters:
            self.emit(p, Wait(token))

    def line(self, words: list[str], line: str) -> None:
        kind = words[0]
        self.calls += kind not in ("scalar", "R")
        if kind == "scalar" and len(words) == 5:
            self.scalar(words[1:])
        elif kind == "R" and len(words) == 3 and words[2].isdigit():
            self.registers(words[1], int(words[2]))
        elif kind == "V" and len(words) >= 3:
            self.vector(words[1], words[3:])
        elif kind in ("MTE2", "MTE3") and len(words) == 7:
            self.copy(MTE2 if kind == "MTE2" else MTE3, words[1], words[3:])
        elif kind in ("set", "wait") and len(words) == 3:
            self.flag(kind, words[1], words[2], line)
        elif kind == "barrier" and words[1:] == ["ALL"]:
            self.all_wait_for_all()
        elif kind == "barrier" and words[1:] == ["V"]:
            self.emit(VECTOR, Work(VECTOR, "pipe_barrier", -1, self.figures.pipe_barrier_cycles))
        elif kind == "other" and len(words) == 4:
            where = "" if words[2] == "-" else f" at {words[2]}"
            name = f"{words[1]}{where}"
            if name not in self.unmodelled:
                self.unmodelled.append(name)
        else:
            raise RecordError(f"cannot read the recorded line '{line}'")


def ub_operands(accesses: list[tuple[int, int, bool]], repeats: int) -> list[UbOperand]:
    """A recorded vector call's UB accesses (offset, bytes, written), in the order the recorder
    wrote them, as the operands `bank_conflict_share` reads, for a call of `repeats` repeats.

    The recorder writes a contiguous access as one span, so an operand whose repeats leave gaps
    (a level-0 call's source of block stride 0 and repeat stride 8: one block every 256 bytes,
    asc-devkit bank_conflict_ub scenario 8) arrives as one access a repeat. A run of `repeats`
    such accesses of one size and mode at one stride, in the recorded order, is one operand:
    that stride a repeat, its size in blocks. Any other access is an operand of its own, moving
    its share of the widest access's bytes a repeat (a Cast's narrow side half:
    hswc.cost_model.stream.KernelWalker.conflicting). Assumed: the recorder writes one
    operand's pieces together and in repeat order (ascendc_cpu_record.h records a call's
    accesses in the order the model makes them, operand by operand)."""
    widest = max((size for _, size, _ in accesses), default=0)
    operands: list[UbOperand] = []
    k = 0
    while k < len(accesses):
        off, size, written = accesses[k]
        run = accesses[k:k + repeats]
        stride = run[1][0] - off if len(run) > 1 else 0
        if (repeats > 1 and len(run) == repeats and size % UB_BLOCK_BYTES == 0
                and size <= VECTOR_REPEAT_BYTES and stride >= size
                and all(a == (off + i * stride, size, written) for i, a in enumerate(run))):
            operands.append(UbOperand(off, written, stride, size // UB_BLOCK_BYTES))
            k += repeats
            continue
        step = (max(UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES * size // widest // UB_BLOCK_BYTES
                    * UB_BLOCK_BYTES) if widest else VECTOR_REPEAT_BYTES)
        operands.append(UbOperand(off, written, step, step // UB_BLOCK_BYTES))
        k += 1
    return operands


def read_stream(text: str, figures: CostFigures) -> RecordedRun:
    """Each core's streams from a recorded call stream (see the module docstring)."""
    run = RecordedRun({})
    cores: dict[int, _Core] = {}
    core: _Core | None = None
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "core" and len(words) == 2 and words[1].isdigit():
            n = int(words[1])  # a core seen before resumes its stream (after a SyncAll)
            if n not in cores:
                cores[n] = _Core(figures, run.unmodelled)
                run.programs[n] = cores[n].program
            core = cores[n]
            continue
        if core is None:
            raise RecordError(f"the recorded line '{line}' comes before any core")
        core.line(words, line)
    run.calls = {k: c.calls for k, c in cores.items()}
    return run


@dataclass(frozen=True)
class RecordedTimes:
    """What the profiler reports of one launch, as the model has it (seconds)."""

    total: float
    """Launch to the last core's end, plus the launch overhead: the profiler's Task Duration."""
    busy: dict[str, float]
    """Per stream, the busy time of a core, averaged over the cores: aiv_mte2_time, ...; the
    scalar unit's also counts, for each call it issued, `scalar_call_cycles` and
    `scalar_call_load_cycles` times the launch's L2 load (`l2_load`)."""
    schedules: list[ClassSchedule]

    def line(self) -> str:
        us = {k: v * 1e6 for k, v in self.busy.items()}
        return (f"modelled: {self.total * 1e6:.2f} us (MTE2 {us[MTE2]:.2f} us, V {us[VECTOR]:.2f}"
                f" us, MTE3 {us[MTE3]:.2f} us, scalar {us[SCALAR]:.2f} us)")


def l2_load(schedules: list[ClassSchedule], finish: float, figures: CostFigures) -> float:
    """The launch's load on L2: the GM bytes every core's copies moved over the launch's
    duration, as a fraction of `l2_bytes_per_s` (at most 1)."""
    moved = sum(len(s.cores) * w.bytes for s in schedules for w in s.program.work())
    return min(1.0, moved / finish / figures.l2_bytes_per_s) if finish > 0 else 0.0


def time_run(run: RecordedRun, figures: CostFigures) -> RecordedTimes:
    """Schedule every core's streams together (equal streams as one class of cores)."""
    classes: dict[tuple[object, ...], CoreClass] = {}
    for core, program in sorted(run.programs.items()):
        key = program.signature()
        if key in classes:
            classes[key].cores.append(core)
        else:
            classes[key] = CoreClass(program, [core])
    schedules = simulate(list(classes.values()), figures) if classes else []
    cores = sum(len(s.cores) for s in schedules)
    busy: dict[str, float] = dict.fromkeys(STREAMS, 0.0)
    for s in schedules:
        for interval in s.intervals:
            busy[interval.work.pipe] += len(s.cores) * (interval.end - interval.start)
    finish = max((s.finish for s in schedules), default=0.0)
    per_call = figures.scalar_call_cycles + figures.scalar_call_load_cycles * l2_load(
        schedules, finish, figures)
    busy[SCALAR] += sum(run.calls.values()) * figures.seconds(per_call)
    busy = {k: v / cores if cores else 0.0 for k, v in busy.items()}
    return RecordedTimes(finish + figures.seconds(figures.launch_cycles), busy, schedules)
