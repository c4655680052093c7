"""The cost model of a whole function: every kernel it launches, one after the other.

    launches = profile_launches(module, shape=1 << 20)     # high level or lowered
    print(launches.summary()); launches.total_time, launches.gm_bytes

A function that computes a chain of unfused operators launches one kernel per operator, each
reading its inputs from GM and writing its result back; fused (hsg-fuse-elementwise), the chain
is one launch. The launches of one stream run in order, so the function's time is the sum of
theirs; its GM traffic is the sum of their bytes (the cost model has no L2: an intermediate
result goes to HBM and comes back). Kernel launch overhead itself is not modelled, so the gain
of fusing shown here is only the traffic and the per-launch pipeline fill it saves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from hswc.cost_model.report import Report
from hswc.cost_model.trace import trace_events
from hswc.dialects import hsg
from hswc.output_files import write_file
from hswc.platform import DEFAULT_SOC, CostFigures, Platform, get_platform
from hswc.profiling.profile import (
    dtype_name,
    element_count,
    kernel_dtype,
    lowered,
    named_schedule,
    profile_kernel,
)
from hswc.vectorizer.schedule import Schedule


def launched_kernels(module: ModuleOp, function: str | None = None) -> list[func.FuncOp]:
    """The kernels the module's host code launches, in the order of its hsg.launch ops (those
    of `function` only, when named)."""
    kernels = {op.sym_name.data: op for op in module.body.block.ops
               if isinstance(op, func.FuncOp) and hsg.is_kernel(op)}
    order: list[func.FuncOp] = []
    for op in module.body.block.ops:
        if not isinstance(op, func.FuncOp) or hsg.is_kernel(op) or \
                (function is not None and op.sym_name.data != function):
            continue
        order += [kernels[launch.kernel.string_value()] for launch in op.walk()
                  if isinstance(launch, hsg.LaunchOp)
                  and launch.kernel.string_value() in kernels]
    return order


@dataclass(frozen=True)
class Launches:
    """The modelled launches of one function, in order."""

    reports: list[Report]

    @property
    def total_time(self) -> float:
        """Seconds from the first launch to the end of the last: the launches' times added."""
        return sum(r.total_time for r in self.reports)

    @property
    def gm_bytes(self) -> int:
        """Bytes all launches read from and write to GM."""
        return sum(r.gm_bytes for r in self.reports)

    def summary(self) -> str:
        """One line per launch, then the total."""
        us = 1e6
        count = len(self.reports)
        lines = [f"{count} launch{'es' if count != 1 else ''}, one after the other:"]
        for i, r in enumerate(self.reports):
            lines.append(f"  {i + 1}. {r.operator} {r.dtype}, {r.total_num} elements: "
                         f"{r.total_time * us:.3f} us, GM traffic {r.gm_bytes} B, "
                         f"{r.roofline_fraction:.1%} of the HBM roofline, binding "
                         f"{r.binding}")
        lines.append(f"total: {self.total_time * us:.3f} us, GM traffic {self.gm_bytes} B "
                     "(kernel launch overhead not modelled)")
        return "\n".join(lines)

    def trace_json(self, max_cores: int | None = None) -> str:
        """All launches in one Perfetto / Chrome trace, each starting where the last ended."""
        events: list[dict[str, Any]] = []
        start = 0.0
        for i, r in enumerate(self.reports):
            for event in trace_events(r.schedules, max_cores):
                if "ts" in event:
                    event = {**event, "ts": event["ts"] + start * 1e6,
                             "args": {**event.get("args", {}), "launch": i + 1}}
                elif i:
                    continue  # track names once
                events.append(event)
            start += r.total_time
        metadata = {"launches": [{"operator": r.operator, "dtype": r.dtype,
                                  "total_num": r.total_num, "time_us": r.total_time * 1e6}
                                 for r in self.reports],
                    "total_time_us": self.total_time * 1e6}
        document = {"traceEvents": events, "displayTimeUnit": "ns", "otherData": metadata}
        return json.dumps(document, separators=(",", ":"))

    def write_trace(self, path: str, max_cores: int | None = None) -> None:
        """Write `trace_json` to `path`, atomically (hswc.output_files)."""
        write_file(path, self.trace_json(max_cores))


def profile_launches(module: ModuleOp, shape: int | Sequence[int], dtype: object = None,
                     platform: str | Platform = DEFAULT_SOC, *,
                     variant: Schedule | str | None = None,
                     figures: CostFigures | None = None, function: str | None = None,
                     runs: Sequence[tuple[str, int] | tuple[str, int, int | None]] | None = None,
                     row_length: int | None = None) -> Launches:
    """Model every launch of the module's host code (of `function`, when named) of the dtype,
    each on `shape`; or, given `runs` ((kernel name, element count or rows, and the run-time
    row length of a kernel that takes one) per launch, what a run of the module launched),
    those launches. The module may be high level (lowered here with `variant`) or lowered. A
    kernel of a run-time row length (hswc.rows `dynamic`) is modelled at `row_length` where
    no run gives it one (hswc.profiling.profile.profile_kernel)."""
    plat = get_platform(platform) if isinstance(platform, str) else platform
    figs = figures if figures is not None else plat.cost
    schedule = named_schedule(variant)
    low = lowered(module, schedule)
    if runs is not None:
        kernels = {op.sym_name.data: op for op in low.body.block.ops
                   if isinstance(op, func.FuncOp) and hsg.is_kernel(op)}
        unknown = [run[0] for run in runs if run[0] not in kernels]
        if unknown:
            raise ValueError(f"the module has no kernel @{unknown[0]}")
        launches = [(kernels[run[0]], run[1], run[2] if len(run) > 2 else row_length)
                    for run in runs]
    else:
        launches = [(k, element_count(shape), row_length)
                    for k in launched_kernels(low, function)]
    if dtype is not None:
        dt = dtype_name(dtype)
        launches = [launch for launch in launches if kernel_dtype(launch[0]) == dt]
    if not launches:
        raise ValueError("the module launches no kernel" + ("" if dtype is None else
                                                           f" of {dtype_name(dtype)}"))
    return Launches([profile_kernel(low, k, n, plat, figs, schedule, length)
                     for k, n, length in launches])
