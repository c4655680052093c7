"""The command-line tools' cache folder, and writing a file in it atomically.

The folder is $HSWC_CACHE_DIR, else $XDG_CACHE_HOME/hswc, else ~/.cache/hswc; HSWC_CACHE_DIR
set to the empty string turns every cache off. What lives there only saves time: a file that is
missing, unreadable or damaged reads as empty, and a folder that cannot be written is left
alone; neither ever fails a run or prints anything.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

V = TypeVar("V")


def cache_folder() -> Path | None:
    """The folder, or None when caching is off."""
    folder = os.environ.get("HSWC_CACHE_DIR")
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = str(Path(base) / "hswc")
    return Path(folder) if folder else None


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
    `limit`, only the entries this run used (so entries of older code do not pile up)."""
    table = {**saved, **new}
    if len(table) > limit:
        table = {key: value for key, value in table.items() if key in used}
    return table
