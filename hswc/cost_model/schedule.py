"""Run every core's pipe streams against the platform's figures: an event-driven list scheduler.

Each core has three in-order pipes (MTE2, V, MTE3). A pipe starts its next item as soon as it
is free: a Signal marks its token done at that moment, a Wait holds the pipe until the token is
done, vector work takes its cycles, and a DMA takes its set-up cycles and then moves its bytes.
Bandwidth is shared max-min fairly (progressive filling) by all DMAs moving data at one moment,
under three kinds of limit, each fitted on asc-devkit's measured add_high_performance profiles
(hswc.platform.CostFigures):
- each MTE pipe's own GM port, `core_gm_bytes_per_s`; for MTE2, `conflict_read_factor` of it
  while its core's V runs a call whose operands conflict in the UB banks (Work.bank_conflict:
  MTE2's writes into UB wait for the banks that call holds);
- L2, `l2_bytes_per_s`, shared by every DMA: what every core's reads and writes together reach
  (2.4 TB/s read and written at once on A2, above the HBM's 1.6 TB/s);
- the HBM, `hbm_bytes_per_s`, shared by the reads and by the write-back of written lines. A
  write lands in L2 (a write-back cache): its own rate is held by its port and L2 only. In a
  launch with reads that allocate in L2 (CACHE_MODE_NORMAL), those allocations evict the
  written lines within the launch: every written byte is owed to the HBM, and while bytes are
  owed or being written, each byte an allocating read moves evicts a written one: it costs the
  HBM two bytes (its own and the write-back) and pays one owed byte back. In a launch whose
  reads all bypass L2 nothing is owed: the writes stay in L2 (the measured case 5 against case
  4: the inputs bypassing L2 took the Add from 264 to 188 us).
  Why the reads pay and the writes do not wait: A2 cases 2 and 3 (one buffer a tensor, 48
  cores, HBM-bound) measured aiv_mte3_time at 54-57 us, each core's writes at 49-51 GB/s as
  one core's alone (case 1), while the launch took what its reads and writes together need of
  the HBM (384 MB in 268 us). A model that held the writes to the HBM beside the reads timed
  their MTE3 at 145-161 us (2.7-2.8 times the measured); one that let the reads evict only
  after the writes ended (the evictions lagging) broke cases 3 and 4's measured order.
  A launch that writes more than L2 holds (`l2_cache_bytes`, documented: 192 MB on A2, 128 MB
  on Ascend 950) cannot keep its written lines there: a line replaced in L2 is written back
  before the new data enters it (asc-devkit's 设置合理的L2-CacheMode guide), so its writes wait
  for the write-back and share the HBM with the reads, each written byte one HBM byte, whatever
  the reads' cache mode. Checked, not fitted: asc-devkit's 950 gelu examples write 256 MB
  (8192 x 8192 f32) through a 128 MB L2, and their aiv_mte3_time was measured stretched over
  the whole kernel, at the reads' rate (304-315 of 345-352 us), as this gives; A2's Add writes
  128 MB into 192 MB.
Rates are recomputed at every event.

Cores whose streams are equal run as one class with a multiplicity: they start together and
share bandwidth symmetrically, so they keep in step and one simulation stands for all of them.

A run of vector work with no signal or wait between is one event: nothing another pipe does
depends on when V passes from one of its instructions to the next (pipes meet only at tokens,
and V moves no bytes), so V starts the run's items back to back, each at the previous one's
end, as it would one event at a time; only the transfers' bookkeeping between events is no
longer split at each vector instruction (a difference in the last bits of a time).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hswc.cost_model.stream import MTE2, MTE3, VECTOR, CoreProgram, Signal, Wait, Work
from hswc.platform import CostFigures

_EPS_BYTES = 1e-6


class ScheduleError(RuntimeError):
    """The streams wait on each other for ever (a deadlock)."""


@dataclass(frozen=True, slots=True)
class Interval:
    """When one piece of work ran; for a DMA, `data_start` is when its bytes began to move."""

    work: Work
    start: float
    end: float
    data_start: float


@dataclass
class CoreClass:
    """Cores (physical indices) that run the same program."""

    program: CoreProgram
    cores: list[int]


@dataclass
class ClassSchedule:
    cores: list[int]
    program: CoreProgram
    intervals: list[Interval] = field(default_factory=list)

    @property
    def finish(self) -> float:
        return max((i.end for i in self.intervals), default=0.0)


@dataclass
class _Pipe:
    cls: int
    name: str
    items: list[Signal | Wait | Work]
    index: int = 0
    phase: str | None = None
    """None (between items), 'fixed' (vector work), 'setup' or 'transfer' (a DMA)."""
    end: float = 0.0
    remaining: float = 0.0
    rate: float = 0.0
    start: float = 0.0
    data_start: float = 0.0
    run_end: int = 0
    """For vector work: one past the last item of the run started together."""

    @property
    def done(self) -> bool:
        return self.phase is None and self.index >= len(self.items)


def _fair_rates(weight: list[int], cap: list[float],
                pools: list[tuple[list[float], float]]) -> list[float]:
    """Max-min fair rates (progressive filling): every transfer's rate rises at the same pace
    until its own `cap` or a pool it is in is full. A pool is (cost, bytes per second): transfer
    i uses `cost[i]` bytes of it for each byte it moves (0: not in it), and counts `weight[i]`
    times (the cores of its class)."""
    rate = [0.0] * len(cap)
    active = set(range(len(cap)))
    costs = [cost for cost, _ in pools]
    pools_ = [([i for i, c in enumerate(cost) if c], total) for cost, total in pools]
    while active:
        step = min(cap[i] - rate[i] for i in active)
        for (members, total), cost in zip(pools_, costs, strict=True):
            moving = sum(weight[i] * cost[i] for i in members if i in active)
            if moving:
                used = sum(weight[i] * cost[i] * rate[i] for i in members)
                step = min(step, max(0.0, total - used) / moving)
        for i in active:
            rate[i] += step
        full = {i for i in active if rate[i] >= cap[i] * (1 - 1e-12)}
        for (members, total), cost in zip(pools_, costs, strict=True):
            if sum(weight[i] * cost[i] * rate[i] for i in members) >= total * (1 - 1e-12):
                full |= {i for i in members if i in active}
        if not full:  # rounding: nothing reached its limit exactly
            full = set(active)
        active -= full
    return rate


def _bypass(work: object) -> bool:
    return isinstance(work, Work) and work.l2_bypass


class _Simulation:
    def __init__(self, classes: list[CoreClass], figures: CostFigures):
        self.figures = figures
        self.classes = classes
        self.pipes = [_Pipe(c, name, items) for c, cls in enumerate(classes)
                      for name, items in cls.program.pipes.items()]
        self.tokens: set[tuple[int, int]] = set()
        self.schedules = [ClassSchedule(cls.cores, cls.program) for cls in classes]
        self.now = 0.0
        self.allocating = any(isinstance(w, Work) and w.pipe == MTE2 and not w.l2_bypass
                              for cls in classes for w in cls.program.pipes.get(MTE2, ()))
        """The launch has reads that allocate in L2: its written lines are evicted within it."""
        written = sum(len(cls.cores) * w.bytes for cls in classes
                      for w in cls.program.pipes.get(MTE3, ()) if isinstance(w, Work))
        self.overflowing = written > figures.l2_cache_bytes
        """The launch writes more than L2 holds: its writes share the HBM (module docstring)."""
        self.owed = 0.0
        """Written bytes not yet written back to the HBM (module docstring)."""
        self.evicting = False
        """Allocating reads evict written lines now (set by `set_rates`)."""

    def start_ready(self) -> None:
        """Let every idle pipe run its signals and satisfied waits and start its next work."""
        progress = True
        while progress:
            progress = False
            for p in self.pipes:
                while p.phase is None and p.index < len(p.items):
                    item = p.items[p.index]
                    if isinstance(item, Signal):
                        self.tokens.add((p.cls, item.token))
                    elif isinstance(item, Wait):
                        if (p.cls, item.token) not in self.tokens:
                            break
                    else:
                        self.start_work(p, item)
                        progress = True
                        break
                    p.index += 1
                    progress = True

    def start_work(self, p: _Pipe, work: Work) -> None:
        p.start = self.now
        p.end = self.now + self.figures.seconds(work.cycles)
        if work.pipe == VECTOR:
            p.phase = "fixed"
            p.run_end = p.index + 1
            while p.run_end < len(p.items):  # the rest of the run, back to back
                item = p.items[p.run_end]
                if not isinstance(item, Work) or item.bank_conflict != work.bank_conflict:
                    break  # (a conflicting call slows MTE2 while it runs: its own event)
                p.end += self.figures.seconds(item.cycles)
                p.run_end += 1
        else:
            p.phase, p.remaining = "setup", float(work.bytes)

    def set_rates(self) -> list[_Pipe]:
        """Each moving DMA's rate (see the module docstring)."""
        moving = [p for p in self.pipes if p.phase == "transfer"]
        works = [p.items[p.index] for p in moving]
        reads = [isinstance(w, Work) and w.pipe == MTE2 for w in works]
        weight = [len(self.classes[p.cls].cores) for p in moving]
        f = self.figures
        # While written lines are owed, or written now in a launch whose reads allocate in L2,
        # an allocating read's line evicts a written one: two bytes of HBM a byte it moves.
        self.evicting = not self.overflowing and (
            self.owed > _EPS_BYTES or (self.allocating and not all(reads)))
        hbm_cost = [(1.0 if self.overflowing else 0.0) if not read
                    else 2.0 if self.evicting and not _bypass(w) else 1.0
                    for read, w in zip(reads, works, strict=True)]
        conflicting = {p.cls for p in self.pipes if p.name == VECTOR and p.phase == "fixed"
                       and getattr(p.items[p.index], "bank_conflict", False)}
        caps = [f.core_gm_bytes_per_s * (f.conflict_read_factor
                                         if read and p.cls in conflicting else 1.0)
                for p, read in zip(moving, reads, strict=True)]
        rates = _fair_rates(weight, caps,
                            [(hbm_cost, f.hbm_bytes_per_s),
                             ([1.0] * len(moving), f.l2_bytes_per_s)])
        for p, rate in zip(moving, rates, strict=True):
            p.rate = rate
        return moving

    def owed_change(self, moving: list[_Pipe]) -> tuple[float, float]:
        """Bytes a second the writes add to `owed`, and the reads that evict pay back."""
        added = paid = 0.0
        for p in moving:
            work = p.items[p.index]
            assert isinstance(work, Work)
            flow = p.rate * len(self.classes[p.cls].cores)
            if work.pipe != MTE2:
                added += flow if self.allocating and not self.overflowing else 0.0
            elif not work.l2_bypass and self.evicting:
                paid += flow
        return added, paid

    def finish_work(self, p: _Pipe) -> None:
        work = p.items[p.index]
        assert isinstance(work, Work)
        intervals = self.schedules[p.cls].intervals
        p.phase = None
        if work.pipe != VECTOR:
            intervals.append(Interval(work, p.start, self.now, p.data_start))
            p.index += 1
            return
        start = p.start
        for index in range(p.index, p.run_end - 1):
            item = p.items[index]
            assert isinstance(item, Work)
            end = start + self.figures.seconds(item.cycles)
            intervals.append(Interval(item, start, end, start))
            start = end
        last = p.items[p.run_end - 1]
        assert isinstance(last, Work)
        intervals.append(Interval(last, start, self.now, start))
        p.index = p.run_end

    def run(self) -> list[ClassSchedule]:
        while True:
            self.start_ready()
            moving = self.set_rates()
            ends = [p.end for p in self.pipes if p.phase in ("fixed", "setup")]
            ends += [self.now + p.remaining / p.rate for p in moving if p.rate > 0]
            added, paid = self.owed_change(moving)
            if self.owed > _EPS_BYTES and paid > added:  # when the last owed byte is paid
                ends.append(self.now + self.owed / (paid - added))
            if not ends:
                if all(p.done for p in self.pipes):
                    return self.schedules
                stuck = sorted({self.classes[p.cls].cores[0] for p in self.pipes if not p.done})
                raise ScheduleError(f"the pipes of core(s) {stuck} wait on each other for ever")
            step = min(ends) - self.now
            self.now = min(ends)
            for p in moving:
                p.remaining = max(0.0, p.remaining - p.rate * step)
            self.owed = max(0.0, self.owed + (added - paid) * step)
            self.advance()

    def advance(self) -> None:
        tolerance = 1e-12 * max(1.0, self.now)
        for p in self.pipes:
            if p.phase == "fixed" and p.end <= self.now + tolerance:
                self.finish_work(p)
            elif p.phase == "setup" and p.end <= self.now + tolerance:
                p.phase, p.data_start = "transfer", self.now
                if p.remaining <= _EPS_BYTES:
                    self.finish_work(p)
            elif p.phase == "transfer" and p.remaining <= max(_EPS_BYTES, p.rate * tolerance):
                # The bytes left would take less than the clock can tell apart from now (late
                # in a long launch, now + remaining / rate == now): done.
                self.finish_work(p)


def simulate(classes: list[CoreClass], figures: CostFigures) -> list[ClassSchedule]:
    """When every piece of work of every core class runs (see the module docstring)."""
    return _Simulation(classes, figures).run()
