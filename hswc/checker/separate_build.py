"""A C++ executable built from several sources as one object each, kept in the build cache,
then linked.

Takes a compiler, the sources each with its own flags, and the executable to write; gives g++'s
result (return code and messages) as one call would. Each source is compiled with `-c` on its
own; the object's key is hswc.checker.build_cache's key of that command (its flags, the compiler
and the contents of every file `-M` lists for it), so a source two builds share with the same
flags compiles once while the cache is on ($HSWC_BUILD_CACHE; the test suite sets it): an op's
*_def.cpp, read both to describe the op and in its tiling's build, and the host tiling harness,
in every op's tiling build (hswc.checker.host_tiling gives it flags of its own). Objects are
written under names of their own and renamed into place (build_cache.store), so concurrent
builders never read half a file. The sources compile side by side, within one build limit
(hswc.checker.time_limits) from the first start to the link's end; the messages of every source
that fails are given, in the sources' order, and nothing is linked then. Without the cache the
objects are compiled each time, in the same way.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from hswc.checker import build_cache, time_limits


def _stop(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass
    process.communicate()


def object_command(cxx: str, flags: Sequence[str], source: Path, output: Path) -> list[str]:
    return [cxx, *flags, "-c", str(source), "-o", str(output)]


def build(cxx: str, units: Sequence[tuple[Path, Sequence[str]]], output: Path, limit: float,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Compile each (source, flags) of `units` into an object beside `output`, or take it from
    the cache, then link them into `output`. TimedOut when the whole takes longer than `limit`
    seconds; OSError when g++ cannot start."""
    deadline = time.monotonic() + limit
    folder = output.parent / f"{output.name}.objects"
    folder.mkdir(parents=True, exist_ok=True)
    objects: list[Path] = []
    running: list[tuple[str | None, Path, subprocess.Popen[str]]] = []
    for k, (source, flags) in enumerate(units):
        target = folder / f"{k}-{source.stem}.o"
        objects.append(target)
        command = object_command(cxx, flags, source, target)
        key = build_cache.build_key(command, env)
        if not build_cache.restore(key, target):
            running.append((key, target, time_limits.start(command, env, merge_output=True)))
    said: list[str] = []
    failed = False
    for k, (key, target, process) in enumerate(running):
        try:
            out, _ = time_limits.finish(process, max(0.0, deadline - time.monotonic()))
        except time_limits.TimedOut:
            for _, _, other in running[k + 1:]:
                _stop(other)
            raise
        said.append(out)
        if process.returncode == 0:
            build_cache.store(key, target)
        else:
            failed = True
    link = [cxx, *map(str, objects), "-o", str(output)]
    if failed:
        return subprocess.CompletedProcess(link, 1, "".join(said), "")
    done = time_limits.run(link, max(0.0, deadline - time.monotonic()), env)
    return subprocess.CompletedProcess(link, done.returncode, "".join(said) + done.stdout,
                                       done.stderr)
