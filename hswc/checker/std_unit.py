"""The standard library's headers the CPU model includes, precompiled once per flag set.

A harness build that links the model object (hswc.checker.model_object.prebuilt) still parses
the standard library's headers, about 0.7 of its 2.2 CPU s (the HardSwishGrad fixture, g++ 12).
ascendc_cpu/std_headers.h names every one the model includes (each harness build reads them
all); it is compiled once per flag set into a GCC precompiled header (`-x c++-header`, about
57 MB) kept in the build cache (hswc.checker.build_cache, under std/), and forced first into
the build (`-include .../std_headers.h`), which g++ then loads instead of parsing. Only the
headers' order changes: the standard ones come before the model's, which include them anyway.

The flag set is the model object's (model_object.object_flags: the build's flags that change
code). The key hashes the model object's key (those flags, the compiler, the model's files,
std_headers.h among them) and the contents of every header `-M` lists for std_headers.h with
those flags, so a changed standard library builds anew (the listing is made once a process).
The file is written under a name of its own and renamed into place, beside a copy of
std_headers.h: a build that starts before it is there reads the plain header. g++ checks that
a precompiled header fits the build (its -D macros, its options) and reads the plain header
when it does not (GCC's manual, "Using Precompiled Headers"), so a wrong fit costs time, never a
different result. GCC only: another compiler (clang) is given no precompiled header.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Sequence
from pathlib import Path

from hswc.checker import build_cache, time_limits

HEADER = Path(__file__).resolve().with_name("ascendc_cpu") / "std_headers.h"


@functools.cache
def _is_gcc(compiler: str) -> bool:
    try:
        done = subprocess.run([compiler, "--version"], capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "Free Software Foundation" in done.stdout and "clang" not in done.stdout


@functools.cache
def _listing(cxx: str, flags: tuple[str, ...]) -> tuple[str, ...] | None:
    """Every file std_headers.h reads with `flags` (g++ -M), or None if that fails."""
    try:
        done = time_limits.run([cxx, *flags, "-x", "c++-header", "-M", str(HEADER)],
                               time_limits.build_limit())
    except (OSError, time_limits.TimedOut):
        return None
    rule = done.stdout.replace("\\\n", " ").split(":", 1)
    if done.returncode != 0 or len(rule) != 2:
        return None
    return tuple(rule[1].split())


def unit_key(cxx: str, flags: Sequence[str], base: str) -> str | None:
    """The precompiled header's key (module docstring; `base` the model object's key), or None
    when there is none to make."""
    compiler = shutil.which(cxx)
    if compiler is None or not _is_gcc(compiler):
        return None
    files = _listing(cxx, tuple(flags))
    if files is None:
        return None
    digest = hashlib.sha256(base.encode())
    for name in files:
        path = Path(name)
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest() if path.is_file() else b"-")
    return digest.hexdigest()


def precompiled(cxx: str, flags: Sequence[str], base: str,
                env: dict[str, str] | None = None) -> Path | str:
    """The header to force into a build of the flag set `flags` (`base`: its model object's
    key), its precompiled form beside it (built if it is not there yet); or why there is
    none."""
    folder = build_cache.cache_folder()
    if folder is None:
        return f"no build cache (${build_cache.CACHE_VARIABLE} unset)"
    key = unit_key(cxx, flags, base)
    if key is None:
        return f"no precompiled header for '{cxx}' (not GCC, or -M of {HEADER.name} failed)"
    place = folder / "std" / key
    header = place / HEADER.name
    compiled = place / f"{HEADER.name}.gch"
    if compiled.is_file():
        return header
    place.mkdir(parents=True, exist_ok=True)
    tag = f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
    if not header.is_file():
        copy = place / f"{HEADER.name}.{tag}.part"
        shutil.copyfile(HEADER, copy)
        copy.replace(header)
    built = build_cache.build_in_place(
        compiled, lambda partial: [cxx, *flags, "-w", "-x", "c++-header", str(header), "-o",
                                   str(partial)], f"the precompiled {HEADER.name}", env)
    return built if isinstance(built, str) else header
