"""The default schedules the cost model chose, kept between runs of the command-line tools.

hsg-tile-on-cores models up to eight candidate kernels of a body to choose its default schedule
(hswc.passes.schedule_choice): about 30 ms of a 0.2 s `hswc-opt --lower-to-ascend` of one
family op, 60 ms for a three-op fused chain, more for long bodies. The choice depends only on
what its key names (the body, dtype, platform and its figures, API table, launch size) and on
hswc's own code, so a later run that meets the same key takes the earlier answer.

`install()` sets hswc.choice_store's store to one backed by `<cache>/schedule-choices.json` (the
folder of hswc.tools.cache_folder: off with HSWC_CACHE_DIR set to the empty string). The file
holds, for one state of the code, each key's SHA-256 with the chosen candidate's index and its
modelled time. The state of the code is a digest of the path, size and modification time of
every file of the hswc package and of xDSL's `__init__.py` (as Python trusts a source's size
and time for its bytecode), with Python's version: any edit or reinstall makes the file's
choices stale, and they are modelled again. The file is read at the first choice of a run and,
when the run made new choices, merged under a lock and written atomically at exit (at most
MAX_ENTRIES, the most recent kept: hswc.tools.cache_folder).

Processes running at once (the test suite's xdist workers, the tools its doc blocks start, a
build running several tools) also share their choices while they run, through a journal beside
the file (JOURNAL_NAME): each choice made is appended to it at once, as a line of the code's
digest, the key's digest, the candidate and its time, under the file's lock, and a key the
process does not hold is looked for in the lines appended since it last read the journal. A
journal's first line names it by a random token. A save at exit merges the journal's lines of
its code into the file with its own and removes the journal; a reader that then finds another
journal (another token) reads the file again, and the new journal from its start.

A missing, damaged, unwritable or unreadable file or journal (a FIFO, /dev/zero, JSON nested
too deeply to read, a damaged line) only costs the time it saves; a kernel is the same with or
without it. A choice read from either is validated as a fresh one is
(hswc.passes.schedule_choice), and modelled again if it fails.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import math
import os
import stat
import sys
from pathlib import Path

import xdsl

import hswc
from hswc import choice_store
from hswc.tools.cache_folder import (
    MAX_FILE_BYTES,
    cache_folder,
    merged,
    merging_lock,
    read_cache_file,
    write_atomically,
)

FILE_NAME = "schedule-choices.json"

JOURNAL_NAME = "schedule-choices.journal"
"""The choices of processes still running (the module docstring), beside FILE_NAME."""

JOURNAL_HEADER = b"hswc schedule choices journal "
"""A journal's first line: this, a random token of 32 hex digits and a line break."""

HEADER_BYTES = len(JOURNAL_HEADER) + 33

MAX_ENTRIES = 4096
"""The file keeps at most this many choices: beyond it, a save keeps the most recent
(hswc.tools.cache_folder.merged)."""

Entry = tuple[int, float]


def code_state() -> str:
    """The digest of hswc's code as installed (the module docstring)."""
    xdsl_init = os.stat(xdsl.__file__ or "")
    files = [f"{xdsl.__file__}\0{xdsl_init.st_size}\0{xdsl_init.st_mtime_ns}"]
    folders = [os.path.dirname(hswc.__file__)]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(entry.path)
                elif entry.is_file():
                    stat = entry.stat()
                    files.append(f"{entry.path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    files.sort()
    return hashlib.sha256("\0".join([sys.version, *files]).encode()).hexdigest()


def load(path: Path, code: str) -> dict[str, Entry]:
    """The choices in the file made by `code`; empty when it is missing, unreadable, damaged
    or of other code."""
    data = read_cache_file(path)
    if data is None:
        return {}
    try:
        table = json.loads(data)
    except (ValueError, RecursionError, MemoryError):  # damaged, or nested too deeply to read
        return {}
    if not isinstance(table, dict) or table.get("code") != code:
        return {}
    choices = table.get("choices")
    if not isinstance(choices, dict):
        return {}
    found: dict[str, Entry] = {}
    for key, entry in choices.items():
        if (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                and type(entry[1]) is float):
            found[key] = (entry[0], entry[1])
    return found


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _hex(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def journal_entries(data: bytes, code: str) -> dict[str, Entry]:
    """The choices of `code` in journal lines (a damaged line is left out)."""
    found: dict[str, Entry] = {}
    for line in data.split(b"\n"):
        fields = line.split(b" ")
        if len(fields) != 4 or fields[0] != code.encode():
            continue
        try:
            key, candidate, time = fields[1].decode(), int(fields[2]), float(fields[3])
        except ValueError:  # a damaged line
            continue
        if _hex(key) and candidate >= 0 and math.isfinite(time):
            found[key] = (candidate, time)
    return found


def _regular_size(handle: int) -> int | None:
    """The size of the open journal `handle`, None where it is not a regular file or is over
    MAX_FILE_BYTES (a FIFO, a device, a runaway journal: left alone)."""
    status = os.fstat(handle)
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_FILE_BYTES:
        return None
    return status.st_size


class FileStore:
    """hswc.choice_store.ChoiceStore over one cache file and its journal."""

    def __init__(self, path: Path):
        self.path = path
        self.journal = path.with_name(JOURNAL_NAME)
        self.code: str | None = None
        self.choices: dict[str, Entry] = {}
        self.used: set[str] = set()
        self.new: dict[str, Entry] = {}
        self.header: bytes | None = None
        """The first line of the journal last read; `offset`, how far it was read."""
        self.offset = 0

    def _loaded(self) -> str:
        if self.code is None:
            self.code = code_state()
            self.choices = load(self.path, self.code)
            self._catch_up()
        return self.code

    def _catch_up(self) -> None:
        """The choices other processes appended to the journal since it was last read (the
        file read again first when the journal is another than the one read before)."""
        code = self._loaded()
        try:
            handle = os.open(self.journal, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            if self.header is not None:  # merged into the file by a save, and removed
                self.choices.update(load(self.path, code))
                self.header = None
            return
        except OSError:
            return
        try:
            size = _regular_size(handle)
            if size is None:
                return
            header = os.pread(handle, HEADER_BYTES, 0)
            if len(header) < HEADER_BYTES or not header.startswith(JOURNAL_HEADER):
                return
            if header != self.header:
                if self.header is not None:  # merged into the file by a save, and removed
                    self.choices.update(load(self.path, code))
                self.header, self.offset = header, HEADER_BYTES
            data = os.pread(handle, max(size - self.offset, 0), self.offset)
        except OSError:
            return
        finally:
            os.close(handle)
        whole = data.rfind(b"\n") + 1  # a line still being appended is read next time
        self.choices.update(journal_entries(data[:whole], code))
        self.offset += whole

    def _append(self, key: str, entry: Entry) -> None:
        """`entry` appended to the journal under the file's lock (a journal that is not a
        regular file, or is full, is left alone)."""
        line = f"{self._loaded()} {key} {entry[0]} {entry[1]!r}\n".encode()
        with merging_lock(self.path) as locked:
            if not locked:
                return
            try:
                handle = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT
                                 | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            except OSError:
                return
            try:
                size = _regular_size(handle)
                if size is None:
                    return
                if size == 0:
                    line = JOURNAL_HEADER + os.urandom(16).hex().encode() + b"\n" + line
                os.write(handle, line)
            except OSError:
                return
            finally:
                os.close(handle)

    def lookup(self, key: str) -> Entry | None:
        self._loaded()
        digest = _digest(key)
        found = self.choices.get(digest)
        if found is None:
            self._catch_up()
            found = self.choices.get(digest)
        if found is not None:
            self.used.add(digest)
        return found

    def record(self, key: str, candidate: int, time: float) -> None:
        self._loaded()
        digest = _digest(key)
        self.choices[digest] = self.new[digest] = (candidate, time)
        self.used.add(digest)
        self._append(digest, (candidate, time))

    def save(self) -> None:
        """Merge this run's new choices and the journal's into the file, under its lock
        (tools saving at once each keep the others' choices), then remove the journal; errors
        are ignored (the next run models them again)."""
        if not self.new:
            return
        code = self._loaded()
        with merging_lock(self.path) as locked:
            if not locked:
                return
            journal = read_cache_file(self.journal)
            others = {} if journal is None else journal_entries(journal, code)
            table = merged(load(self.path, code), {**others, **self.new}, self.used,
                           MAX_ENTRIES)
            data = json.dumps({"code": code, "choices": {k: list(v) for k, v in table.items()}})
            try:
                write_atomically(self.path, data.encode())
                if journal is not None:
                    os.unlink(self.journal)
            except OSError:
                return
        self.new.clear()


def install() -> None:
    """Keep the schedule choices of this process's tools in the cache folder (once; nothing
    when caching is off)."""
    folder = cache_folder()
    if folder is None or isinstance(choice_store.store, FileStore):
        return
    store = FileStore(folder / FILE_NAME)
    choice_store.store = store
    atexit.register(store.save)
