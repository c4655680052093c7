"""The methods dataclasses generate, compiled once per machine instead of once per process.

`@dataclass` writes the source of each class's `__init__`, `__repr__`, `__eq__`, `__hash__`,
`__setattr__` and `__delattr__` as text and compiles it with `exec` every time the class is
defined. Starting `hswc-opt --lower-to-ascend -t ascendc` defines about three hundred
dataclasses (xDSL's attributes, constraints and directives, hswc's own records) and compiling
their methods was about a quarter of the process's time.

`install()` gives the dataclasses module an `exec` that looks each source text up in a table of
code objects loaded from `<cache>/dataclass-code.<python tag>-<bytecode magic>.marshal`, and
compiles (exactly as `exec` would: file `<string>`, no inherited `__future__` flags) only the
texts it has not seen. The function dataclasses builds from a code object is the one it would
have built from the text, so nothing a program can observe changes but the time. At exit the
new texts are merged into the file under its lock (at most MAX_ENTRIES, the most recent kept),
written atomically; a file that is missing, unreadable, damaged or not a regular file is an
empty table, and a cache folder that cannot be written is
left alone: neither ever fails a run or prints anything.

The cache folder is hswc.tools.cache_folder's ($HSWC_CACHE_DIR, else $XDG_CACHE_HOME/hswc,
else ~/.cache/hswc; HSWC_CACHE_DIR set to the empty string turns the cache off). The file is
trusted as Python trusts its own __pycache__: it holds code, and it lives in the user's own
folder.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import hashlib
import importlib.util
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from hswc.tools.cache_folder import (
    cache_folder,
    merged,
    merging_lock,
    read_cache_file,
    write_atomically,
)

MAX_ENTRIES = 4096
"""The table keeps at most this many texts: beyond it, a save keeps the most recent (those its
process used last; one hswc-opt run uses about 900), so texts of older versions of the code do
not pile up."""

_codes: dict[str, CodeType] = {}
_new: dict[str, CodeType] = {}
_used: set[str] = set()
_file: Path | None = None


def cache_file() -> Path | None:
    """Where the table lives for this Python, or None when the cache is off."""
    folder = cache_folder()
    if folder is None:
        return None
    tag = f"{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}"
    return folder / f"dataclass-code.{tag}.marshal"


HEADER = b"hswc dataclass code\n"
"""What the file starts with, before the SHA-256 of the marshalled table that follows."""


def dumps(table: dict[str, CodeType]) -> bytes:
    """The file's bytes for `table`: HEADER, the digest, the marshalled table."""
    data = marshal.dumps(table)
    return HEADER + hashlib.sha256(data).digest() + data


def load(path: Path) -> dict[str, CodeType]:
    """The table in the file; empty when it is missing, unreadable, damaged (its digest does
    not match: marshal.loads is never given bytes this module did not write, whose lengths
    could ask for any amount of memory) or not a table of code."""
    data = read_cache_file(path)
    if data is None or not data.startswith(HEADER):
        return {}
    digest, data = data[len(HEADER):len(HEADER) + 32], data[len(HEADER) + 32:]
    if hashlib.sha256(data).digest() != digest:
        return {}
    try:
        table: Any = marshal.loads(data)
    except (EOFError, ValueError, TypeError, RecursionError, MemoryError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {text: code for text, code in table.items()  # pyright: ignore[reportUnknownVariableType]
            if isinstance(text, str) and isinstance(code, CodeType)}


def cached_exec(source: str | CodeType, globals_: dict[str, Any] | None = None,
                locals_: dict[str, Any] | None = None) -> None:
    """`exec`, with a source text's code object taken from the table when it is there."""
    if isinstance(source, str):
        _used.add(source)
        code = _codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[source] = _new[source] = code
        source = code
    builtins.exec(source, globals_, locals_)


def install() -> None:
    """Load the table and route dataclasses' `exec` through it (once; no-op when it is off)."""
    global _file
    if _file is not None or getattr(dataclasses, "exec", None) is cached_exec:
        return
    _file = cache_file()
    if _file is None:
        return
    _codes.update(load(_file))
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]  # shadows the builtin there
    atexit.register(save)


def save() -> None:
    """Merge the texts compiled in this process into the file, atomically; errors are ignored
    (the next process compiles them again)."""
    if _file is None or not _new:
        return
    with merging_lock(_file) as locked:
        if not locked:
            return
        try:
            write_atomically(_file, dumps(merged(load(_file), _new, _used, MAX_ENTRIES)))
        except (OSError, ValueError):
            return
    _new.clear()
