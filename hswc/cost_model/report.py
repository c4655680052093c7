"""What the cost model concludes about one launch: times, bandwidth, the binding pipe, balance."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path

from hswc.cost_model.schedule import ClassSchedule
from hswc.cost_model.stream import MTE2, MTE3, PIPES, VECTOR
from hswc.cost_model.trace import chunk_name, trace_json
from hswc.output_files import write_file
from hswc.platform import CostFigures, Platform
from hswc.tiling import Tiling

HBM = "HBM"
RESOURCE_NAMES = {
    HBM: "HBM bandwidth (MTE2 + MTE3 of all cores)",
    MTE2: "MTE2 (GM -> UB)",
    VECTOR: "V (vector)",
    MTE3: "MTE3 (UB -> GM)",
}
SERIAL_THRESHOLD = 0.7
"""Below this share of the time bound by any one resource, the pipes are mostly serialised."""


def _figure(value: object) -> str:
    """A figure as the summary prints it: a number with %g, per-call pairs as call=value."""
    if isinstance(value, tuple):
        return ",".join(f"{name}={number:g}" for name, number in value)
    return f"{value:g}"


@dataclass(frozen=True)
class ChunkTimes:
    """Busy seconds of each pipe for one chunk of one core."""

    chunk: int
    mte2: float
    vector: float
    mte3: float


@dataclass
class Report:
    """The modelled run of one kernel launch (hswc.cost_model.profile)."""

    dtype: str
    total_num: int
    platform: Platform
    figures: CostFigures
    tiling: Tiling[int]
    variant: str | None
    schedules: list[ClassSchedule]
    operator: str = "HardSwishGrad"
    """The operator the kernel computes (its kernel's name, in CamelCase)."""

    # region metrics

    @cached_property
    def total_time(self) -> float:
        """Seconds from launch to the last pipe of the last core finishing."""
        return max((s.finish for s in self.schedules), default=0.0)

    @cached_property
    def gm_bytes(self) -> int:
        """Bytes read from and written to GM by all cores."""
        return sum(len(s.cores) * sum(w.bytes for w in s.program.work()) for s in self.schedules)

    @property
    def roofline_time(self) -> float:
        """The GM traffic at the full HBM bandwidth: the reference of the roofline fraction.
        (The writes that stay in L2, hswc.cost_model.schedule, can make a launch a little
        faster; the reads alone at the HBM bandwidth and all bytes at L2's are the floor.)"""
        return self.gm_bytes / self.figures.hbm_bytes_per_s

    @property
    def roofline_fraction(self) -> float:
        """roofline_time / total_time: 1.0 is the HBM roofline."""
        return self.roofline_time / self.total_time if self.total_time > 0 else 1.0

    @property
    def achieved_bandwidth(self) -> float:
        """GM bytes per second over the whole launch."""
        return self.gm_bytes / self.total_time if self.total_time > 0 else 0.0

    def busy(self, schedule: ClassSchedule) -> dict[str, float]:
        """Seconds each pipe of one core of the class spends on work."""
        totals: dict[str, float] = {pipe: 0.0 for pipe in PIPES}
        for interval in schedule.intervals:
            totals[interval.work.pipe] += interval.end - interval.start
        return totals

    @cached_property
    def critical(self) -> ClassSchedule:
        """The class of the core that finishes last."""
        return max(self.schedules, key=lambda s: s.finish)

    def alone(self, schedule: ClassSchedule, pipe: str) -> float:
        """Seconds a pipe of one core of the class needs with nothing else running: its vector
        work, or its DMAs' set-up plus their bytes at the core's GM port rate."""
        f = self.figures
        total = 0.0
        for w in schedule.program.work():
            if w.pipe == pipe:
                total += f.seconds(w.cycles) + w.bytes / f.core_gm_bytes_per_s
        return total

    @cached_property
    def bounds(self) -> dict[str, float]:
        """Lower bounds on the time, one per resource: the HBM roofline (all cores' traffic at
        the full bandwidth) and each pipe's own need on its busiest core (`alone`)."""
        bounds = {HBM: self.roofline_time}
        for pipe in PIPES:
            bounds[pipe] = max((self.alone(s, pipe) for s in self.schedules), default=0.0)
        return bounds

    @property
    def binding(self) -> str:
        """The resource with the largest lower bound: HBM (the MTE2 and MTE3 of all cores
        sharing the bandwidth), MTE2, V or MTE3."""
        return max(self.bounds, key=lambda k: self.bounds[k])

    @property
    def serialised(self) -> bool:
        """No single resource accounts for most of the time: the pipes wait on each other."""
        limit = SERIAL_THRESHOLD * self.total_time
        return self.total_time > 0 and self.bounds[self.binding] < limit

    @cached_property
    def core_finish(self) -> list[float]:
        """Finish time of every core, by block index."""
        finish = [0.0] * sum(len(s.cores) for s in self.schedules)
        for s in self.schedules:
            for core in s.cores:
                finish[core] = s.finish
        return finish

    @property
    def imbalance(self) -> float:
        """max / mean of the cores' finish times, minus one (0 = perfectly balanced)."""
        if not self.core_finish or self.total_time == 0:
            return 0.0
        return max(self.core_finish) / (sum(self.core_finish) / len(self.core_finish)) - 1.0

    def chunk_times(self, schedule: ClassSchedule) -> list[ChunkTimes]:
        """Per chunk (and -1 for Init), the busy seconds of each pipe of one core."""
        per: dict[int, dict[str, float]] = {}
        for interval in schedule.intervals:
            row = per.setdefault(interval.work.chunk, {pipe: 0.0 for pipe in PIPES})
            row[interval.work.pipe] += interval.end - interval.start
        return [ChunkTimes(c, r[MTE2], r[VECTOR], r[MTE3]) for c, r in sorted(per.items())]

    @property
    def ub_bytes(self) -> int:
        """UB claimed by each core's InitBuffers (the largest over the cores)."""
        return max((s.program.ub_bytes for s in self.schedules), default=0)

    @property
    def ub_bytes_per_element(self) -> float:
        """UB claimed per element of a chunk: ub_bytes / ubFactor."""
        return self.ub_bytes / self.tiling.ub_factor if self.tiling.ub_factor else 0.0

    def _vector_total(self, attribute: str) -> int:
        return sum(len(s.cores) * sum(getattr(w, attribute) for w in s.program.work()
                                      if w.pipe == VECTOR and w.label != "pipe_barrier")
                   for s in self.schedules)

    @property
    def vector_instructions(self) -> int:
        """Vector instructions issued by all cores (PipeBarrier not counted)."""
        return self._vector_total("instructions")

    @property
    def vector_repeats(self) -> int:
        """256-byte vector repeats executed by all cores."""
        return self._vector_total("repeats")

    # endregion
    # region output

    def summary(self, chunk_rows: int = 6) -> str:
        """A one-screen text report."""
        us = 1e6
        t = self.tiling
        lines = [
            f"{self.operator} {self.dtype}, {self.total_num} elements on {self.platform.name} "
            f"({self.platform.core_num} cores, UB {self.platform.ub_size} B); "
            f"kernel: {self.variant or 'unknown variant'}",
            f"tiling: blockFactor {t.block_factor}, ubFactor {t.ub_factor}, "
            f"{t.used_core_num} cores used",
        ]
        if self.total_time == 0:
            lines.append("nothing to do: no core moves any data")
            return "\n".join(lines)
        bounds = self.bounds
        lines += [
            f"time {self.total_time * us:.3f} us; GM traffic {self.gm_bytes} B at "
            f"{self.achieved_bandwidth / 1e9:.1f} GB/s = {self.roofline_fraction:.1%} of the HBM "
            f"roofline ({self.roofline_time * us:.3f} us at "
            f"{self.figures.hbm_bytes_per_s / 1e12:.2f} TB/s)",
            f"binding: {RESOURCE_NAMES[self.binding]}"
            + (" (but the pipes are mostly serialised: no resource needs "
               f"{SERIAL_THRESHOLD:.0%} of the time)" if self.serialised else ""),
            "  lower bounds: " + ", ".join(
                f"{RESOURCE_NAMES[k]} {v * us:.3f} us ({v / self.total_time:.0%})"
                for k, v in bounds.items()),
            f"  busy on core {self.critical.cores[0]}: " + ", ".join(
                f"{RESOURCE_NAMES[k]} {v / self.total_time:.0%}"
                for k, v in self.busy(self.critical).items()),
            f"per-core imbalance: {self.imbalance:.2%} (finish {min(self.core_finish) * us:.3f}"
            f" .. {max(self.core_finish) * us:.3f} us)",
            f"UB: {self.ub_bytes} B of InitBuffers per core = {self.ub_bytes_per_element:.2f} B "
            f"per element of ubFactor; vector: {self.vector_instructions / self.total_num:.5f} "
            f"instructions, {self.vector_repeats / self.total_num:.4f} repeats per element",
        ]
        for s in self.schedules:
            rows = self.chunk_times(s)
            shown = rows if len(rows) <= chunk_rows else rows[: chunk_rows - 1] + rows[-1:]
            cores = f"core {s.cores[0]}" if len(s.cores) == 1 else \
                f"cores {s.cores[0]}..{s.cores[-1]} ({len(s.cores)})"
            chunks = f"{s.program.chunks} chunk" + ("s" if s.program.chunks != 1 else "")
            lines.append(f"{cores}: {chunks}, finish "
                         f"{s.finish * us:.3f} us; busy us per chunk  MTE2     V        MTE3")
            for i, r in enumerate(shown):
                if len(rows) > chunk_rows and i == len(shown) - 1:
                    lines.append("    ...")
                lines.append(f"    {chunk_name(r.chunk):>6}  {r.mte2 * us:8.3f} "
                             f"{r.vector * us:8.3f} {r.mte3 * us:8.3f}")
        lines.append("figures: " + "; ".join(
            f"{f.name} {_figure(getattr(self.figures, f.name))} "
            f"[{self.figures.status_of(f.name)}]"
            for f in fields(self.figures)
            if f.name != "status" and getattr(self.figures, f.name) != ()))
        return "\n".join(lines)

    def trace_json(self, max_cores: int | None = None) -> str:
        """The schedule as a Perfetto / Chrome JSON trace (hswc.cost_model.trace)."""
        metadata = {
            "operator": self.operator, "dtype": self.dtype, "total_num": self.total_num,
            "platform": self.platform.name,
            "variant": self.variant, "total_time_us": self.total_time * 1e6,
            "roofline_fraction": self.roofline_fraction, "binding": self.binding,
        }
        return trace_json(self.schedules, metadata, max_cores)

    def write_trace(self, path: str | Path, max_cores: int | None = None) -> None:
        """Write `trace_json` to `path`, atomically (hswc.output_files)."""
        write_file(path, self.trace_json(max_cores))

    # endregion
