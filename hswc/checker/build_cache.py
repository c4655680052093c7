"""A content-addressed cache of C++ builds, as ccache keeps one: opt-in, in $HSWC_BUILD_CACHE.

A build's key is its command line without its output path, the compiler executable's size and
modification time, and the contents of every file the preprocessor reads for it (`-M` lists
them, the sources and every header they include): a changed source, header, flag or compiler
builds anew; an unchanged one is copied from the cache instead of compiled. Failed builds are
not cached (their messages come from the compiler each time). Concurrent builders of one key
each write a file of their own and rename it into place, so no reader sees half a file.
Without $HSWC_BUILD_CACHE (the default) nothing is cached. The test suite sets it to a folder of
its own run, so that the checker tests' many builds of the same fixture op folder (its
definition, tiling and kernel) compile once. The CPU model's object of each flag set
(hswc.checker.model_object) is kept in the same folder, under model/.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from hswc.checker import time_limits

CACHE_VARIABLE = "HSWC_BUILD_CACHE"


def cache_folder() -> Path | None:
    """The cache folder, or None when caching is off."""
    value = os.environ.get(CACHE_VARIABLE)
    return Path(value) if value else None


def _output_index(command: Sequence[str]) -> int | None:
    """The index of the output path (the argument after `-o`), or None."""
    for i, arg in enumerate(command[:-1]):
        if arg == "-o":
            return i + 1
    return None


def _dependencies(command: Sequence[str], at: int, env: dict[str, str] | None) -> list[str] | None:
    """Every file the build reads, from the compiler's -M (None if that fails)."""
    listing = [*command[:at - 1], *command[at + 1:], "-M"]
    try:  # time_limits.TimedOut goes to the caller: the build would hang as well
        done = time_limits.run(listing, time_limits.build_limit(), env)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    rule = done.stdout.replace("\\\n", " ").split(":", 1)
    if len(rule) != 2:
        return None
    return rule[1].split()


def build_key(command: Sequence[str], env: dict[str, str] | None = None) -> str | None:
    """The cache key of a build command, or None when it cannot be cached (caching off, no
    output path, or the dependencies cannot be listed)."""
    at = _output_index(command)
    if cache_folder() is None or at is None:
        return None
    files = _dependencies(command, at, env)
    compiler = shutil.which(command[0])
    if files is None or compiler is None:
        return None
    digest = hashlib.sha256()
    stat = os.stat(compiler)
    for part in [*command[:at], *command[at + 1:], compiler, str(stat.st_size),
                 str(stat.st_mtime_ns)]:
        digest.update(part.encode() + b"\0")
    for name in files:
        path = Path(name)
        digest.update(str(path.resolve()).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest() if path.is_file() else b"-")
    return digest.hexdigest()


def _entry(key: str) -> Path:
    folder = cache_folder()
    assert folder is not None
    return folder / key[:2] / key


def restore(key: str | None, output: Path) -> bool:
    """Copy the cached build of `key` to `output`; False if there is none."""
    if key is None or not _entry(key).is_file():
        return False
    output.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(_entry(key), output)
    return True


def store(key: str | None, output: Path) -> None:
    """Keep a successful build's output under `key`."""
    if key is None or not output.is_file():
        return
    entry = _entry(key)
    entry.parent.mkdir(parents=True, exist_ok=True)
    partial = entry.with_name(f"{entry.name}.{os.getpid()}.part")
    shutil.copy2(output, partial)
    partial.replace(entry)


def output_of(command: Sequence[str]) -> Path | None:
    """The output path a command writes, if it names one."""
    at = _output_index(command)
    return None if at is None else Path(command[at])


def build_in_place(entry: Path, command_for: Callable[[Path], list[str]], what: str,
                   env: dict[str, str] | None = None) -> Path | str:
    """Run the build `command_for(partial)` into a file of its own beside `entry` and rename it
    into place, so that concurrent builders never see half a file and each ends with a whole
    one; `entry`, or why there is none (`what` names the file in that sentence)."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    partial = entry.with_name(f"{entry.stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}.part"
                              f"{entry.suffix}")
    command = command_for(partial)
    try:
        done = time_limits.run(command, time_limits.build_limit(), env)
    except (OSError, time_limits.TimedOut) as error:
        partial.unlink(missing_ok=True)
        return f"building {what} failed: {error}"
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        first = (done.stdout + done.stderr).strip().splitlines()[:3]
        return f"{what} does not build ({' '.join(command)}): {' | '.join(first)}"
    partial.replace(entry)
    return entry
