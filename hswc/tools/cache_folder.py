"""The command-line tools' cache folder, and reading and writing a file in it safely.

The folder is $HSWC_CACHE_DIR, else $XDG_CACHE_HOME/hswc, else ~/.cache/hswc; HSWC_CACHE_DIR
set to the empty string turns every cache off. What lives there only saves time: a file that is
missing, unreadable, damaged or not a regular file reads as empty, and a folder that cannot be
written is left alone; neither ever fails a run, blocks it or prints anything.

- `read_cache_file` opens without waiting (a FIFO or a device in the file's place is not read:
  opening a FIFO would wait for a writer, and /dev/zero never ends) and reads at most
  MAX_FILE_BYTES.
- `merging_lock` serialises the read-merge-write of the processes saving into one file (an
  fcntl lock on `<file>.lock`), so that tools run at once keep each other's new entries; a lock
  held longer than LOCK_WAIT (a process stopped while it held it) skips this process's save.
- `merged` keeps the most recently written or used entries when a table is over its limit.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

V = TypeVar("V")

MAX_FILE_BYTES = 64 << 20
"""A cache file larger than this is damaged (the tools' tables are a few MB at most)."""

LOCK_WAIT = 5.0
"""Seconds a save waits for another process's save (which takes milliseconds)."""


def cache_folder() -> Path | None:
    """The folder, or None when caching is off."""
    folder = os.environ.get("HSWC_CACHE_DIR")
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = str(Path(base) / "hswc")
    return Path(folder) if folder else None


def read_cache_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of the regular file at `path` (links followed), or None when there is none,
    it cannot be read, it is not a regular file (a FIFO, a device, a folder) or it holds more
    than `limit` bytes. Never waits: the file is opened non-blocking and checked before it is
    read."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return None  # it grew past the limit while being read
    except OSError:
        return None
    finally:
        os.close(handle)


@contextmanager
def merging_lock(path: Path) -> Iterator[bool]:
    """Hold the lock of `path`'s merges (`<path>.lock`, fcntl.flock) for the block; yields
    False when the lock is not to be had (held for LOCK_WAIT seconds, the lock file cannot be
    made, or it is not a regular file): the caller then skips its save."""
    lock = path.with_name(path.name + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o600)
    except OSError:
        yield False
        return
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            yield False
            return
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    yield False
                    return
                time.sleep(0.01)
            except OSError:  # a file system without locks: save as before, unlocked
                break
        yield True
    finally:
        os.close(handle)  # releases the lock


def write_atomically(path: Path, data: bytes) -> None:
    """`data` as the whole of `path`, which no reader sees half-written; OSError when the
    folder cannot be made or written (the caller ignores it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def merged(saved: Mapping[str, V], new: Mapping[str, V], used: set[str],
           limit: int) -> dict[str, V]:
    """A table to save: what the file held with this run's new entries, and once that is over
    `limit`, the `limit` most recent: the file's entries in their order (oldest first, as each
    save appends), then those this run used, then its new ones. Entries of older code, never
    used again, are the first to go; another process's new entries stay."""
    order = [key for key in saved if key not in used and key not in new]
    order += [key for key in saved if key in used and key not in new]
    order += list(new)
    table = {key: new[key] if key in new else saved[key] for key in order}
    if len(table) > limit:
        table = {key: table[key] for key in order[len(order) - limit:]}
    return table
