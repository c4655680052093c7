"""Inputs too large for the machine's memory, refused before the lowering starts.

hswc-opt (when it lowers), hswc-run and hswc-emit call `check_fits` on the parsed, verified
module before the first pass: an input whose estimated peak memory exceeds what the machine has
available is refused with one message saying how big it is (ops, bytes estimated), what is
available and how many ops would fit, instead of running until the kernel's OOM killer stops
the process without a word.

The estimate is linear in the input's ops, from peak resident memory measured by
bench/bench_scale.py (whole `hswc-opt --lower-to-ascend` processes, 2026-12-06, this
project's 2-core 24 GB machine; table in bench/README.md): the fused chain of named ops, the
worst of its three shapes per op (one kernel whose body holds every op: the schedule choice
builds and models each candidate kernel of that body), measured `NAMED_OP_BYTES` per named op
at 10,000 and 100,000 ops above the process's `BASE_BYTES`. A named op decomposes into some
`NAMED_OP_WEIGHT` ops of a `linalg.generic` body (the chain's ops, measured: its fused body's
ops over its named ops), so any other op (a body op, a generic, a host op) counts as
1 / NAMED_OP_WEIGHT of a named op. The figure errs high for inputs that fuse less (unfused
ops share kernels and their choices: a fifth of the memory per op or less).

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

NAMED_OP_BYTES = 60 * 1024
"""Peak bytes per named op of a fused chain, measured (module docstring)."""

NAMED_OP_WEIGHT = 8
"""Ops of a generic body per named op of the measured chain (module docstring)."""

BASE_BYTES = 120 * 2**20
"""The tool's own peak before any input (imports, contexts; measured on a one-op input), with
room for the input's text and dense constants."""

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
    return BASE_BYTES + (named * NAMED_OP_WEIGHT + other) * NAMED_OP_BYTES // NAMED_OP_WEIGHT


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
        f"{NAMED_OP_BYTES // NAMED_OP_WEIGHT // 1024} KB per other op, measured), and "
        f"{_size(available[0])} available ({available[1]}): about {fit} of its {total} ops would "
        f"fit; split it into smaller modules, or set {AVAILABLE_VARIABLE} to the bytes it may "
        "use")
