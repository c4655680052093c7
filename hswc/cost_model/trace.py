"""The schedule as a Chrome / Perfetto trace: JSON trace events, one track per pipe per core.

Open the file in https://ui.perfetto.dev or chrome://tracing. Each core is a process (`pid` =
block index), each of its pipes a thread (`tid` 1 MTE2, 2 V, 3 MTE3); every copy is one complete
event ("ph": "X"), and a chunk's back-to-back vector instructions are merged into one event
whose args count them. Times are microseconds.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hswc.cost_model.schedule import ClassSchedule, Interval
from hswc.cost_model.stream import MTE2, MTE3, PIPES, VECTOR

TRACK_IDS = {MTE2: 1, VECTOR: 2, MTE3: 3}
TRACK_NAMES = {MTE2: "MTE2 (GM -> UB)", VECTOR: "V (vector)", MTE3: "MTE3 (UB -> GM)"}
_US = 1e6


def chunk_name(chunk: int) -> str:
    """How traces and reports name a chunk: #i, or init for the set-up before the loop."""
    return "init" if chunk < 0 else f"#{chunk}"


def _vector_events(intervals: list[Interval]) -> list[dict[str, Any]]:
    """Back-to-back vector work of one chunk as one event."""
    events: list[dict[str, Any]] = []
    group: list[Interval] = []

    def close() -> None:
        if not group:
            return
        ops = Counter(i.work.label for i in group)
        chunk = group[0].work.chunk
        events.append({
            "name": f"compute {chunk_name(chunk)}" if chunk >= 0 else "init",
            "ts": group[0].start * _US,
            "dur": (group[-1].end - group[0].start) * _US,
            "args": {
                "chunk": chunk,
                "instructions": sum(i.work.instructions for i in group),
                "repeats": sum(i.work.repeats for i in group),
                "ops": dict(ops),
            },
        })
        group.clear()

    for interval in intervals:
        if group and (interval.work.chunk != group[-1].work.chunk
                      or interval.start > group[-1].end * (1 + 1e-12) + 1e-15):
            close()
        group.append(interval)
    close()
    return events


def _copy_event(interval: Interval) -> dict[str, Any]:
    work = interval.work
    return {
        "name": f"{work.label} {chunk_name(work.chunk)}",
        "ts": interval.start * _US,
        "dur": (interval.end - interval.start) * _US,
        "args": {
            "chunk": work.chunk,
            "bytes": work.bytes,
            "setup_us": (interval.data_start - interval.start) * _US,
            "GB_per_s": work.bytes / max(interval.end - interval.data_start, 1e-30) / 1e9,
        },
    }


def trace_events(schedules: list[ClassSchedule], max_cores: int | None = None
                 ) -> list[dict[str, Any]]:
    """Trace events for every core (or the first `max_cores`), with track names."""
    events: list[dict[str, Any]] = []
    for schedule in schedules:
        by_pipe: dict[str, list[Interval]] = {pipe: [] for pipe in PIPES}
        for interval in sorted(schedule.intervals, key=lambda i: i.start):
            by_pipe[interval.work.pipe].append(interval)
        pipe_events = {
            pipe: (_vector_events(items) if pipe == VECTOR
                   else [_copy_event(i) for i in items])
            for pipe, items in by_pipe.items()
        }
        for core in schedule.cores:
            if max_cores is not None and core >= max_cores:
                continue
            events.append({"name": "process_name", "ph": "M", "pid": core,
                           "args": {"name": f"core {core}"}})
            events.append({"name": "process_sort_index", "ph": "M", "pid": core,
                           "args": {"sort_index": core}})
            for pipe in PIPES:
                tid = TRACK_IDS[pipe]
                events.append({"name": "thread_name", "ph": "M", "pid": core, "tid": tid,
                               "args": {"name": TRACK_NAMES[pipe]}})
                for event in pipe_events[pipe]:
                    events.append({**event, "ph": "X", "cat": pipe, "pid": core, "tid": tid})
    return events


def trace_json(schedules: list[ClassSchedule], metadata: dict[str, Any],
               max_cores: int | None = None) -> str:
    """The JSON object format ({"traceEvents": [...], ...}) as text."""
    document = {
        "traceEvents": trace_events(schedules, max_cores),
        "displayTimeUnit": "ns",
        "otherData": metadata,
    }
    return json.dumps(document, separators=(",", ":"))

