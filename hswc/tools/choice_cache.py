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
MAX_ENTRIES, the most recent kept: hswc.tools.cache_folder). A missing, damaged, unwritable or
unreadable file (a FIFO, /dev/zero, JSON nested too deeply to read) only costs the time it
saves; a kernel is the same with or without it. A choice read from the file is validated as a
fresh one is (hswc.passes.schedule_choice), and modelled again if it fails.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import sys
from pathlib import Path

import xdsl

import hswc
from hswc import choice_store
from hswc.tools.cache_folder import (
    cache_folder,
    merged,
    merging_lock,
    read_cache_file,
    write_atomically,
)

FILE_NAME = "schedule-choices.json"

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


class FileStore:
    """hswc.choice_store.ChoiceStore over one cache file."""

    def __init__(self, path: Path):
        self.path = path
        self.code: str | None = None
        self.choices: dict[str, Entry] = {}
        self.used: set[str] = set()
        self.new: dict[str, Entry] = {}

    def _loaded(self) -> str:
        if self.code is None:
            self.code = code_state()
            self.choices = load(self.path, self.code)
        return self.code

    def lookup(self, key: str) -> Entry | None:
        self._loaded()
        digest = _digest(key)
        found = self.choices.get(digest)
        if found is not None:
            self.used.add(digest)
        return found

    def record(self, key: str, candidate: int, time: float) -> None:
        self._loaded()
        digest = _digest(key)
        self.choices[digest] = self.new[digest] = (candidate, time)
        self.used.add(digest)

    def save(self) -> None:
        """Merge this run's new choices into the file, under its lock (tools saving at once
        each keep the others' choices); errors are ignored (the next run models them
        again)."""
        if not self.new:
            return
        code = self._loaded()
        with merging_lock(self.path) as locked:
            if not locked:
                return
            table = merged(load(self.path, code), self.new, self.used, MAX_ENTRIES)
            data = json.dumps({"code": code, "choices": {k: list(v) for k, v in table.items()}})
            try:
                write_atomically(self.path, data.encode())
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
