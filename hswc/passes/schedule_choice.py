"""The default schedule of a kernel that reproduces no CANN kernel: the one the cost model
predicts fastest.

hsg-tile-on-cores calls `choose_schedule` for every elementwise generic when no schedule option
is given and the generic has no CANN budget (`hsg.ub_budget`: HardSwishGrad under the `cann` and
`cann-arch35` semantics, whose default stays ops-nn's kernel call for call). The candidates are
every combination of the planner's five choices (hswc.vectorizer.schedule: queue depth,
`scalar-compare`, `in-place`, `early-free`, and the buffer order `x-first`): 32 kernels. Each is
built as the passes build it (the tiled kernel, hsg-block-into-ub, convert-hsg-to-ascend's
lowering of its chunk), tiled by its own UB plan (so its ubFactor is the largest its buffers
allow) and modelled by hswc.cost_model for one launch on the target platform. No interpreter
runs; the model is deterministic, and ties go to the earlier candidate in `CANDIDATES`' order
(the `fast` preset first, then fewer flags before more).

The size a kernel is chosen for is its launch's element count when the shape is static, capped
at `CHOICE_ELEMENTS`; else `CHOICE_ELEMENTS` (2^24: a launch that HBM bandwidth binds rather
than its pipeline's fill and drain). The platform is the one hsg-tile-on-cores folds (`soc`,
`core-num`, `ub-size`); when the platform is known only at run time, the default SoC
(hswc.platform.DEFAULT_SOC), and the recorded choice says so.

Modelling 32 kernels of a 2^24-element launch takes about a second, so a choice is made once:
kept for the process, and on disk in the cache folder (hswc.cache_folder) under a key of
everything it depends on (the kernel's IR, the platform and its cost figures, the size, and the
source of the modules that build and model kernels). A missing, damaged or unwritable cache
costs only the time it saves; it never changes a choice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cache
from itertools import product
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from hswc.cache_folder import cache_folder
from hswc.dialects import hsg
from hswc.platform import Platform
from hswc.vectorizer.dag import Dag
from hswc.vectorizer.plan import plan_kernel
from hswc.vectorizer.schedule import FAST, Schedule

CHOICE_ELEMENTS = 1 << 24
"""The launch size a kernel of unknown size is chosen for (and the cap for a known one)."""

CHOICE_FLAGS = ("double_buffer", "scalar_compare", "in_place", "early_free", "x_first")
"""The planner's choices the default schedule is searched over."""


def _candidates() -> tuple[Schedule, ...]:
    every = [Schedule(**dict(zip(CHOICE_FLAGS, flags, strict=True)))
             for flags in product((False, True), repeat=len(CHOICE_FLAGS))]
    every.sort(key=lambda s: sum(getattr(s, f) for f in CHOICE_FLAGS))
    return (FAST, *[s for s in every if s != FAST])


CANDIDATES = _candidates()
"""Every schedule the choice considers, in tie-break order: `fast`, then by number of flags."""


@dataclass(frozen=True)
class Choice:
    """The schedule chosen for one kernel, and what it was chosen for."""

    schedule: Schedule
    soc: str
    platform_known: bool
    """False: the platform is known only at run time; chosen for the default SoC."""
    elements: int
    time: float
    """The chosen kernel's modelled seconds for one launch of `elements`."""


KernelBuilder = Callable[[], func.FuncOp]
"""Builds the tiled kernel function (its hsg.elementwise_slice) of the body."""


def candidate_kernel(blocked: func.FuncOp, dag: Dag, dtype: str, output: str,
                     schedule: Schedule) -> func.FuncOp:
    """The kernel of `schedule`: a copy of the blocked kernel with its chunk lowered as
    convert-hsg-to-ascend lowers it, recording the UB plan it is tiled by."""
    from hswc.passes.convert_hsg_to_ascend import convert_chunk
    from hswc.passes.schedule_options import UB_PLAN_ATTR, plan_attribute

    kernel = blocked.clone()
    plan = plan_kernel(dag, schedule, dtype, output)
    chunk = next(op for op in kernel.walk() if isinstance(op, hsg.ElementwiseChunkOp))
    convert_chunk(chunk, plan)
    kernel.attributes[UB_PLAN_ATTR] = plan_attribute(plan.ub_plan())
    return kernel


def modelled_times(build: KernelBuilder, dag: Dag, dtype: str, output: str, platform: Platform,
                   elements: int) -> list[tuple[Schedule, float]]:
    """Every candidate that can be built, with its modelled seconds for one launch."""
    from hswc.cost_model.profile import profile_kernel
    from hswc.cost_model.stream import CostModelError
    from hswc.passes.hsg_block_into_ub import HsgBlockIntoUbPass

    module = ModuleOp([build()])
    HsgBlockIntoUbPass().apply(Context(), module)
    blocked = next(op for op in module.body.block.ops if isinstance(op, func.FuncOp))
    times: list[tuple[Schedule, float]] = []
    seen: dict[str, float] = {}
    for schedule in CANDIDATES:
        try:
            kernel = candidate_kernel(blocked, dag, dtype, output, schedule)
            text = str(kernel)  # schedules that build the same kernel take the same time
            if text not in seen:
                seen[text] = profile_kernel(None, kernel, elements, platform, platform.cost,
                                            check_cores=False).total_time
        except (ValueError, CostModelError):
            continue  # a plan the planner cannot build for this body, or not on this platform
        times.append((schedule, seen[text]))
    return times


_chosen: dict[str, tuple[Schedule, float]] = {}


def choose_schedule(build: KernelBuilder, dag: Dag, dtype: str, output: str,
                    platform: Platform, platform_known: bool, elements: int | None) -> Choice:
    """The candidate the cost model predicts fastest for `elements` (None: unknown) on
    `platform`; ValueError when the planner can build none."""
    size = CHOICE_ELEMENTS if elements is None else min(max(elements, 1), CHOICE_ELEMENTS)
    tiled = build()
    key = _key(str(tiled), platform, size)
    found = _chosen.get(key) or _load(key)
    if found is None:
        times = modelled_times(lambda: tiled, dag, dtype, output, platform, size)
        if not times:
            raise ValueError("the planner can build no schedule for this body")
        found = min(times, key=lambda t: t[1])  # the first of equal times
        _store(key, found)
    _chosen[key] = found
    return Choice(found[0], platform.name, platform_known, size, found[1])


# region the cache

_SOURCES = ("cost_model", "vectorizer", "passes", "dialects", "platform.py", "tiling.py",
            "elementwise.py")
"""hswc's modules a choice depends on (their source is part of every key)."""


# hashlib (OpenSSL) and tempfile take tens of milliseconds to import: only a choice needs them.


@cache
def _source_digest() -> str:
    import hashlib

    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in _SOURCES:
        path = root / name
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        for file in files:
            try:
                digest.update(file.name.encode() + b"\0" + file.read_bytes())
            except OSError:
                digest.update(file.name.encode() + b"\0?")
    return digest.hexdigest()


def _key(kernel_text: str, platform: Platform, elements: int) -> str:
    import hashlib

    figures = {f.name: getattr(platform.cost, f.name) for f in fields(platform.cost)}
    text = json.dumps([kernel_text, platform.core_num, platform.ub_size, figures, elements,
                       _source_digest()], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _cache_file() -> Path | None:
    folder = cache_folder()
    return None if folder is None else folder / "schedule-choices.json"


def _read() -> dict[str, object]:
    path = _cache_file()
    try:
        table = json.loads(path.read_text(encoding="utf-8")) if path is not None else {}
    except (OSError, ValueError):
        return {}
    return table if isinstance(table, dict) else {}


def _load(key: str) -> tuple[Schedule, float] | None:
    entry = _read().get(key)
    if not isinstance(entry, dict):
        return None
    flags, time = entry.get("flags"), entry.get("time")
    if not isinstance(flags, list) or not isinstance(time, float) \
            or not all(f in CHOICE_FLAGS for f in flags):
        return None
    return Schedule(**dict.fromkeys(flags, True)), time


MAX_ENTRIES = 4096
"""Beyond this many choices the file starts again (old code's keys never match again)."""


def _store(key: str, found: tuple[Schedule, float]) -> None:
    import tempfile

    path = _cache_file()
    if path is None:
        return
    table = _read()
    if len(table) >= MAX_ENTRIES:
        table = {}
    table[key] = {"flags": [f for f in CHOICE_FLAGS if getattr(found[0], f)], "time": found[1]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".schedule-choices.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(table, out)
            os.replace(temporary, path)
        except OSError:
            os.unlink(temporary)
    except OSError:
        pass  # an unwritable cache only costs the time it would save

# endregion
