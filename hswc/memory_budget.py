"""Inputs too large for the machine's memory, refused before the lowering starts.

hswc-opt (when it lowers), hswc-run and hswc-emit call `check_fits` on the parsed, verified
module before the first pass: an input whose estimated peak memory exceeds what the machine has
available is refused with one message saying how big it is (ops, bytes estimated), what is
available and how many ops would fit, instead of running until the kernel's OOM killer stops
the process without a word.

The estimate is linear in the input's ops, from peak resident memory measured by
bench/bench_scale.py (whole `hswc-opt --lower-to-ascend` processes, 2026-12-06, on this
project's 2-core 24 GB machine; the table in bench/README.md), rounded up:
- `NAMED_OP_BYTES` per named op: the fused chain of named ops, the worst of the bench's shapes
  per op (one kernel whose body holds every op; the schedule choice builds and models each
  candidate kernel of that body): 107 KB per op above the process's own at 3,000 ops, 101 KB
  at 10,000. Named ops that do not fuse cost less (independent ops: 26 KB each at 10,000).
- `OP_BYTES` per other op (a generic, its body's ops, a host op, a tensor.empty): the mixed
  input of generics and transposes, 21 KB per IR op at 1,000 ops (2,500 IR ops).
- `BASE_BYTES`: the process on a one-op input (50 MB), with room for the text and dense
  constants of a model file (MobileNetV3-Small, 12.5 MB of MLIR, peaks at 144 MB).

The available memory is the environment variable `HSWC_AVAILABLE_MEMORY` when set (bytes, or
a number with a K, M, G or T suffix, powers of 1024: how tests and users lower or raise the
figure), else the smaller of Linux's MemAvailable (/proc/meminfo) and the process's cgroup
limit less its usage (/sys/fs/cgroup/memory.max); where neither can be read nothing is
refused.
"""

from __future__ import annotations

import os
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

NAMED_OP_BYTES = 110 * 2**10
"""Peak bytes per named op, measured on a fused chain (module docstring)."""

OP_BYTES = 24 * 2**10
"""Peak bytes per op that is not a named op, measured on generics and host ops (module
docstring)."""

BASE_BYTES = 128 * 2**20
"""The tool's own peak on a one-op input, with room for a model's text and weights (module
docstring)."""

AVAILABLE_VARIABLE = "HSWC_AVAILABLE_MEMORY"
"""The environment variable that sets the available memory instead of the machine's figure."""

_SUFFIXES = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


class InputTooLarge(DiagnosticException):
    """The input's estimated peak memory exceeds the available memory."""


def weighted_ops(module: ModuleOp) -> tuple[int, int]:
    """(named ops, other ops) of the module: every op but the module and its functions."""
    from hswc.dialects import hsg

    named = other = 0
    for op in module.walk():
        if isinstance(op, hsg.NamedOp):
            named += 1
        elif not isinstance(op, ModuleOp | func.FuncOp):
            other += 1
    return named, other


def estimated_bytes(named: int, other: int) -> int:
    """Peak bytes of lowering an input of `named` named ops and `other` other ops."""
    return BASE_BYTES + named * NAMED_OP_BYTES + other * OP_BYTES


def parse_bytes(text: str) -> int:
    """'8589934592', '8G', '512M', '1.5G' as bytes; ValueError for anything else."""
    text = text.strip()
    scale = _SUFFIXES.get(text[-1:].upper(), 1)
    number = text[:-1] if scale != 1 else text
    value = float(number)  # ValueError for text that is no number
    if not value >= 0 or value == float("inf"):
        raise ValueError(text)
    return int(value * scale)


def _meminfo_available() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_available() -> int | None:
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit == "max":
            return None
        used = Path("/sys/fs/cgroup/memory.current").read_text().strip()
        return max(0, int(limit) - int(used))
    except (OSError, ValueError):
        return None


def available_bytes() -> tuple[int, str] | None:
    """The memory available to the lowering and where the figure comes from, or None when
    it cannot be read (module docstring)."""
    given = os.environ.get(AVAILABLE_VARIABLE)
    if given is not None:
        try:
            return parse_bytes(given), AVAILABLE_VARIABLE
        except ValueError:
            raise InputTooLarge(f"{AVAILABLE_VARIABLE}={given!r} is not a number of bytes "
                                "(write e.g. 8589934592 or 8G)") from None
    found = [(n, source) for n, source in ((_meminfo_available(), "MemAvailable"),
                                            (_cgroup_available(), "the cgroup's memory.max"))
             if n is not None]
    return min(found) if found else None


def _size(n: float) -> str:
    for unit, scale in (("GB", 2**30), ("MB", 2**20)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n / 2**10:.0f} KB"


def _file_of(module: ModuleOp) -> str | None:
    first: Operation | None = next(iter(module.body.block.ops), None)
    location = first.location if first is not None else None
    return location.filename.data if isinstance(location, FileLineColLoc) else None


def check_fits(module: ModuleOp, available: tuple[int, str] | None = None) -> None:
    """Raise InputTooLarge when lowering `module` is estimated to need more memory than is
    available (`available`: bytes and their source; default: available_bytes())."""
    if available is None:
        available = available_bytes()
    if available is None:
        return
    named, other = weighted_ops(module)
    need = estimated_bytes(named, other)
    if need <= available[0]:
        return
    total = named + other
    fit = max(0, available[0] - BASE_BYTES) * total // (need - BASE_BYTES)
    where = _file_of(module)
    raise InputTooLarge(
        f"{where + ': ' if where else ''}error: the input is too large to lower in this "
        f"machine's memory: {total} ops ({named} named), an estimated {_size(need)} "
        f"at peak (hswc.memory_budget: {NAMED_OP_BYTES // 1024} KB per named op, "
        f"{OP_BYTES // 1024} KB per other op, measured), and "
        f"{_size(available[0])} available ({available[1]}): about {fit} of its {total} ops would "
        f"fit; split it into smaller modules, or set {AVAILABLE_VARIABLE} to the bytes it may "
        "use")
